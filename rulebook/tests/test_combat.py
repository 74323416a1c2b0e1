"""Defense, attacks, near misses, attack resolution, initiative, micro-time ("Combat", "Time")."""

import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulebook import RulesError
from rulebook.combat import (
    AIMED_AREA_MODIFIERS, Combatant, attack_odds, attack_target, defense, hit_for_damage,
    initiative_order, near_miss, pay_attack_endurance, reaction_save, resolve_attack,
)
from rulebook.damage import WoundState, apply_hit
from rulebook.hit_locations import AREAS


class ScriptedRng:
    """Hands out queued die faces and checks each fits the die asked for."""

    def __init__(self, *faces):
        self.faces = list(faces)

    def randint(self, low, high):
        face = self.faces.pop(0)
        assert low <= face <= high, f"scripted {face} does not fit d{high}"
        return face

    def done(self):
        return not self.faces


def _sums(breakdown):
    return sum(value for _, value in breakdown)


def test_defense_is_res_minus_15_plus_armour():
    """Article, "Combat", Attacks: a stat of 20 gives a Defense of 5 + armour."""
    result = defense(20, 3)
    assert result.total == 8 == _sums(result.breakdown)
    with pytest.raises(RulesError):
        defense(20, 11)


@pytest.mark.parametrize("armour", range(11))
def test_article_attack_example_needs_10_minus_armour(armour):
    """Article, "Combat", Attacks: stat 20 and three ranks against RES 20 need 10 − armour."""
    target = attack_target(attack_stat=20, weapon_ranks=3, defense=defense(20, armour).total)
    assert target.total == 10 - armour == _sums(target.breakdown)


# Exact 3d6 chances for armour 0–10 in the article's example, miracle rule applied.
ARMOUR_CHANCES = [Fraction(108, 216), Fraction(81, 216), Fraction(56, 216), Fraction(35, 216),
                  Fraction(20, 216), Fraction(10, 216), Fraction(4, 216), Fraction(1, 216),
                  Fraction(1, 1296), Fraction(1, 7776), Fraction(1, 46656)]
# What the article prints, in percent, and how loosely; None where its arithmetic is off.
ARTICLE_PERCENT = [None, (38, 1), (26, 1), (16, 0.5), (9, 0.5), (4.6, 0.05), (1.85, 0.005),
                   (0.46, 0.005), (0.08, 0.005), None, None]


@pytest.mark.parametrize("armour", range(11))
def test_article_armour_chances_on_3d6(armour):
    """Article, "Combat", Attacks: the 3d6 chances for armour 0 to 10, the miracle rule included."""
    odds = attack_odds(attack_stat=20, weapon_ranks=3, defense=defense(20, armour).total)
    assert odds.hit == ARMOUR_CHANCES[armour]
    if ARTICLE_PERCENT[armour] is not None:
        printed, slack = ARTICLE_PERCENT[armour]
        assert abs(float(odds.hit) * 100 - printed) <= slack


def test_article_arithmetic_slips_in_the_armour_list():
    """Article, "Combat", Attacks: it prints 52% (exact 50%), 0.128% (0.0129%), 0.021% (0.0021%)."""
    assert ARMOUR_CHANCES[0] == Fraction(1, 2)
    assert round(float(ARMOUR_CHANCES[9]) * 100, 4) == 0.0129
    assert round(float(ARMOUR_CHANCES[10]) * 100, 4) == 0.0021


def test_armour_10_rolls_6d6_under_the_miracle_rule():
    """Article, "Combat", Attacks: 0 or less on 3d6 becomes 6 or less on 6d6, 1 in 46,656."""
    odds = attack_odds(attack_stat=20, weapon_ranks=3, defense=defense(20, 10).total)
    assert (odds.odds.dice, odds.odds.effective_target) == (6, 6)


def test_aimed_areas_and_suppression():
    assert AIMED_AREA_MODIFIERS == {"whole_body": 0, "head_torso": -1, "head_neck": -2,
                                    "left_hand": -3, "right_hand": -3, "eye": -6}
    assert set(AIMED_AREA_MODIFIERS) == set(AREAS)
    base = dict(attack_stat=16, weapon_ranks=2, defense=3)
    plain = attack_target(**base).total  # 10 + 2 − 3
    assert plain == 9
    assert attack_target(**base, aimed_area="eye").total == plain - 6
    assert attack_target(**base, aiming_bonus=4, range_size_modifier=-2, gm_modifier=1).total == 12
    suppressed = attack_target(**base, aiming_bonus=4, suppression=True)
    assert suppressed.total == plain - 5
    assert ("suppression fire (no aiming)", -5) in suppressed.breakdown
    with pytest.raises(RulesError):
        attack_target(**base, aimed_area="torso")
    with pytest.raises(RulesError):
        attack_target(attack_stat=16, weapon_ranks=-1, defense=3)


@pytest.mark.parametrize("area, margin, expected", [
    ("whole_body", -1, None),
    ("head_torso", -5, ("whole_body", 1, -1, -1, False)),
    ("head_torso", -6, None),
    ("eye", -3, ("head_neck", 1, -1, -1, False)),
    ("eye", -6, ("head_torso", 2, -2, 0, True)),
    ("eye", -10, ("head_torso", 2, -2, 0, True)),
    ("eye", -11, None),
    ("head_neck", -8, ("whole_body", 2, -2, 0, True)),
    ("left_hand", -2, ("head_torso", 1, -1, -1, False)),
    ("right_hand", -9, ("whole_body", 2, -2, 0, True)),
    ("head_neck", 0, None),
])
def test_near_miss_ladder(area, margin, expected):
    """RULINGS 6 / Article, "Combat": near misses by 5 (one area up) and by 10 (two up)."""
    result = near_miss(area, margin)
    got = None if result is None else (result.area, result.steps, result.shock_adjustment,
                                       result.trauma_adjustment, result.no_trauma)
    assert got == expected


def test_no_near_miss_when_cover_made_the_target_small():
    assert near_miss("head_torso", -2, cover=True) is None


@given(st.integers(0, 30), st.integers(0, 3), st.integers(-10, 15), st.sampled_from(AREAS),
       st.booleans(), st.booleans())
def test_attack_odds_add_up_to_one(stat, ranks, defense_total, area, cover, suppression):
    odds = attack_odds(attack_stat=stat, weapon_ranks=ranks, defense=defense_total,
                       aimed_area=area, cover=cover, suppression=suppression)
    assert odds.hit + odds.near_miss_one_up + odds.near_miss_two_up + odds.miss == 1
    assert 0 <= odds.critical <= odds.hit and odds.miss >= 0
    if cover or area == "whole_body":
        assert odds.near_miss_one_up == odds.near_miss_two_up == 0


def test_near_miss_odds_on_the_eye():
    odds = attack_odds(attack_stat=20, weapon_ranks=3, defense=5, aimed_area="eye")  # target 4
    assert odds.hit == Fraction(4, 216)
    assert odds.near_miss_one_up == Fraction(81 - 4, 216)        # rolls 5–9
    assert odds.near_miss_two_up == Fraction(196 - 81, 216)      # rolls 10–14
    assert odds.critical == Fraction(1, 216)


def test_resolve_attack_hit_places_the_hit_and_pays_end():
    rng = ScriptedRng(3, 3, 3, 50, 5, 4)  # 9 vs 10: hit; d% 50 right chest; no crit loc; d8 4
    result = resolve_attack(attack_stat=20, weapon_ranks=3, defense=5, endurance=5,
                            attack_kind="physical", rng=rng)
    assert rng.done()
    assert result.outcome == "hit" and not result.critical and result.check.margin == 1
    assert result.area_hit == "whole_body" and result.location.location == "right_chest"
    assert (result.endurance_cost, result.endurance_left) == (2, 3)


def test_resolve_attack_critical_hit():
    """Article, "Combat" summary: all ones and below the target is a critical hit."""
    rng = ScriptedRng(1, 1, 1, 3, 1, 2)  # d% 3 skull (always critical), d8 1 → THEO, d3 2
    result = resolve_attack(attack_stat=20, weapon_ranks=3, defense=5, rng=rng)
    assert rng.done()
    assert result.critical and result.location.critical_location
    assert result.location.stat_damage == (("THEO", 2),)


def test_resolve_attack_near_miss_moves_up_and_carries_adjustments():
    rng = ScriptedRng(2, 2, 2, 10, 1)  # target 4 (eye), rolled 6: missed by 2 → head & neck
    result = resolve_attack(attack_stat=20, weapon_ranks=3, defense=5, aimed_area="eye", rng=rng)
    assert result.outcome == "near_miss" and result.area_hit == "head_neck"
    assert (result.shock_adjustment, result.trauma_adjustment) == (-1, -1)
    assert result.location.area == "head_neck" and result.location.location == "skull"


def test_resolve_attack_miss_rolls_no_location():
    rng = ScriptedRng(6, 6, 6)
    result = resolve_attack(attack_stat=20, weapon_ranks=3, defense=5, rng=rng)
    assert rng.done() and result.outcome == "miss" and result.location is None
    assert result.area_hit is None


def test_an_attack_without_the_end_does_not_happen():
    """Article, "Combat" summary: END is paid before the attack proceeds."""
    rng = ScriptedRng()
    with pytest.raises(RulesError, match="END"):
        resolve_attack(attack_stat=20, weapon_ranks=3, defense=5, endurance=1,
                       attack_kind="physical", rng=rng)
    assert pay_attack_endurance(endurance=1, attack_kind="trigger") == 0


def test_hit_for_damage_feeds_the_rifle_example():
    """Article, "Damage & Recovery", the rifle example, reached through an attack roll."""
    attack = resolve_attack(attack_stat=20, weapon_ranks=3, defense=5,
                            rng=ScriptedRng(3, 3, 3, 50, 5, 4))
    hit = hit_for_damage(attack, weapon_damage=8, armour_rating=5)
    wounds = WoundState(hit_points=30, shock_threshold=6, stats={"CON": 12, "RES": 14})
    result = apply_hit(wounds=wounds, hit=hit, rng=ScriptedRng(4, 6, 6, 6, 6, 6))
    assert (result.trauma, result.full_shock, result.unconscious_seconds) == (4, 8, 10)
    assert result.wounds.stats["RES"] == 13
    miss = resolve_attack(attack_stat=20, weapon_ranks=3, defense=5, rng=ScriptedRng(6, 6, 6))
    with pytest.raises(RulesError):
        hit_for_damage(miss, weapon_damage=8, armour_rating=5)


def _by_id(order):
    return {entry.id: entry for entry in order.entries}


def test_initiative_ranks_awa_by_one_and_mel_by_two_per_distinct_value():
    """RULINGS 6: AWA rank +1 and MEL rank +2 per distinct value above the lowest present."""
    people = [Combatant("ann", awa=10, mel=14, res=12), Combatant("bo", awa=12, mel=14, res=10),
              Combatant("cy", awa=15, mel=9, res=11), Combatant("di", awa=12, mel=18, res=9)]
    order = initiative_order(people, ScriptedRng(2, 2, 2, 2))
    got = {id_: (e.awa_rank, e.combat_rank, e.initiative) for id_, e in _by_id(order).items()}
    assert got == {"ann": (0, 2, 4), "bo": (1, 2, 5), "cy": (2, 0, 4), "di": (1, 4, 7)}
    assert [g.initiative for g in order.groups] == [7, 5, 4]
    tie = order.groups[-1]
    assert tie.micro_time and [e.id for e in tie.entries] == ["cy", "ann"]  # RES 11 before 12
    assert all(_sums(e.breakdown) == e.initiative for e in order.entries)


def test_initiative_conditions():
    """Article, "Initiative & Surprise": can't move rolls 1, surprised 0 and no ranks, prone ≤ 3."""
    people = [Combatant("stuck", awa=20, mel=20, res=10, can_move=False),
              Combatant("shocked", awa=20, mel=20, res=10, surprised=True, prone=True),
              Combatant("down", awa=5, mel=5, res=10, prone=True),
              Combatant("up", awa=5, mel=5, res=10)]
    rng = ScriptedRng(6, 6)  # only "down" and "up" roll
    order = _by_id(initiative_order(people, rng))
    assert rng.done()
    assert (order["stuck"].d6, order["stuck"].initiative) == (1, 1 + 1 + 2)
    assert (order["shocked"].initiative, order["shocked"].awa_rank) == (0, 0)
    assert (order["down"].d6, order["up"].d6) == (3, 6)


def test_initiative_accepts_mappings_and_acc():
    people = [{"id": 1, "AWA": 10, "ACC": 12, "RES": 10}, {"id": 2, "awa": 11, "acc": 15, "res": 9}]
    order = initiative_order(people, ScriptedRng(4, 4), combat_stat="ACC")
    assert [e.id for e in order.entries] == [2, 1]
    with pytest.raises(RulesError):
        initiative_order(people, ScriptedRng(4, 4))  # no MEL given
    with pytest.raises(RulesError):
        initiative_order([Combatant("a", 1, 1, mel=1), Combatant("a", 2, 2, mel=2)], ScriptedRng())


@given(st.lists(st.tuples(st.integers(1, 30), st.integers(1, 30), st.integers(1, 30),
                          st.booleans(), st.booleans(), st.booleans()), max_size=8),
       st.integers(0, 2**32))
def test_initiative_order_is_sorted_and_complete(stats, seed):
    people = [Combatant(i, awa=a, mel=m, res=r, can_move=c, surprised=s, prone=p)
              for i, (a, m, r, c, s, p) in enumerate(stats)]
    order = initiative_order(people, random.Random(seed))
    values = [g.initiative for g in order.groups]
    assert values == sorted(set(values), reverse=True)
    assert sorted(e.id for e in order.entries) == list(range(len(people)))
    for group in order.groups:
        assert [e.res for e in group.entries] == sorted(e.res for e in group.entries)


def test_micro_time_reaction_save():
    """Article, "Time", Micro-Time: 250 ms → −8; the next initiative reacts automatically."""
    assert reaction_save(nim=14, milliseconds=250, has_next_initiative=True).automatic
    rng = ScriptedRng(1, 1, 2, 2)
    result = reaction_save(nim=14, milliseconds=250, rng=rng)
    assert (result.modifier, result.target, result.success) == (-8, 6, True)
    assert reaction_save(nim=14, milliseconds=1000, rng=ScriptedRng(2, 2, 2, 2)).modifier == -6


def test_a_declared_choice_only_counts_on_attackers_choice():
    """Article, "Hit Location": the attacker picks only when the table says attacker's choice."""
    rng = ScriptedRng(3, 3, 3, 50, 5, 4)  # d% 50: right chest, the declared neck is ignored
    plain = resolve_attack(attack_stat=20, weapon_ranks=3, defense=5, chosen_location="neck",
                           rng=rng)
    assert rng.done() and plain.location.location == "right_chest"
    rng = ScriptedRng(3, 3, 3, 97, 5)  # d% 97: attacker's choice → neck, critical location
    chosen = resolve_attack(attack_stat=20, weapon_ranks=3, defense=5, chosen_location="neck",
                            rng=rng)
    assert rng.done() and chosen.location.location == "neck"
    assert chosen.location.critical_location and not chosen.location.chosen_by_default


def test_the_location_roll_can_be_left_to_the_table():
    rng = ScriptedRng(3, 3, 3)
    result = resolve_attack(attack_stat=20, weapon_ranks=3, defense=5, roll_location=False,
                            rng=rng)
    assert rng.done() and result.outcome == "hit" and result.location is None
