"""Defense, attack targets and odds, near misses, attack resolution (rulebook.combat, "Combat")."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulebook import RulesError
from rulebook.combat import (
    AIMED_AREA_MODIFIERS,
    attack_odds,
    attack_target,
    defense,
    hit_for_damage,
    near_miss,
    pay_attack_endurance,
    resolve_attack,
)
from rulebook.damage import WoundState, apply_hit
from rulebook.hit_locations import AREAS
from rulebook.tables import range_size_modifier
from rulebook.tests.scripted import ScriptedRng


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
    """Article, "Additional Rules", Cover: aimed areas are size steps 0, −1, −2, −3, −6."""
    assert AIMED_AREA_MODIFIERS == {"whole_body": 0, "head_torso": -1, "head_neck": -2,
                                    "left_hand": -3, "right_hand": -3, "eye": -6}
    assert set(AIMED_AREA_MODIFIERS) == set(AREAS)
    base = dict(attack_stat=16, weapon_ranks=2, defense=3)
    plain = attack_target(**base).total  # 10 + 2 − 3
    assert plain == 9
    # Read at 2 m, the eye's size −6 is a difference of 6 from range index 0: step 2.
    assert attack_target(**base, aimed_area="eye").total == plain - 2
    assert attack_target(**base, aiming_bonus=4, range_size_modifier=-2, gm_modifier=1).total == 12
    suppressed = attack_target(**base, aiming_bonus=4, suppression=True)
    assert suppressed.total == plain - 5
    assert ("suppression fire (no aiming)", -5) in suppressed.breakdown
    with pytest.raises(RulesError):
        attack_target(**base, aimed_area="torso")
    with pytest.raises(RulesError):
        attack_target(attack_stat=16, weapon_ranks=-1, defense=3)


def test_head_and_neck_at_2_m_counts_the_aimed_area_once():
    """RULINGS 5: the aimed area lowers the size index; 2 m vs size −2 is step 1, so −1.

    The old reading added the area's −2 on top of the range/size modifier, for 10 − 1 − 2 = 7.
    """
    target = attack_target(attack_stat=20, weapon_ranks=3, defense=5, range_m=2,
                           aimed_area="head_neck")
    assert target.total == 10 - 1 != 10 - 1 - 2
    range_lines = [line for line in target.breakdown if "size" in line[0] or "aimed" in line[0]]
    assert range_lines == [("range 2 m (index 0) vs size index −2 (body 0, aimed area −2)", -1)]
    assert target.range_size.modifier == -1 == range_size_modifier(2, -2)
    assert _sums(target.breakdown) == target.total


@given(st.sampled_from([0.5, 1, 2, 3, 10, 16, 100, 1000, 5000]), st.integers(-8, 13),
       st.sampled_from(AREAS))
def test_range_and_size_give_one_term_from_the_size_index(metres, size, area):
    """RULINGS 5: the modifier is range index against size index, the aimed area included."""
    target = attack_target(attack_stat=20, weapon_ranks=3, defense=5, range_m=metres,
                           target_size=size, aimed_area=area)
    expected = range_size_modifier(metres, size + AIMED_AREA_MODIFIERS[area])
    assert target.total == 10 + expected
    assert [value for label, value in target.breakdown if label.startswith("range")] == [expected]


def test_a_precomputed_range_size_modifier_already_holds_the_aimed_area():
    precomputed = attack_target(attack_stat=20, weapon_ranks=3, defense=5,
                                range_size_modifier=-4, aimed_area="eye")
    assert precomputed.total == 6 and precomputed.range_size is None
    assert ("range / size (given, aimed area included)", -4) in precomputed.breakdown
    from_metres = attack_target(attack_stat=20, weapon_ranks=3, defense=5, range_m=10,
                                aimed_area="eye")  # eye socket at 10 m: difference 13
    assert from_metres.total == precomputed.total


def test_range_given_both_ways_is_refused():
    with pytest.raises(RulesError, match="not both"):
        attack_target(attack_stat=20, weapon_ranks=3, defense=5, range_m=10,
                      range_size_modifier=-1)
    with pytest.raises(RulesError, match="target_size"):
        attack_odds(attack_stat=20, weapon_ranks=3, defense=5, target_size=2,
                    range_size_modifier=-1)
    with pytest.raises(RulesError):
        attack_target(attack_stat=20, weapon_ranks=3, defense=5, range_m=0)


def test_without_a_range_the_attack_is_read_at_2_m():
    target = attack_target(attack_stat=20, weapon_ranks=3, defense=5, aimed_area="eye")
    label, value = next(line for line in target.breakdown if "range" in line[0])
    assert label.startswith("no range given, read at 2 m: range 2 m (index 0)")
    assert value == -2 and target.total == 8


def test_odds_and_resolution_take_the_range_in_metres():
    by_metres = attack_odds(attack_stat=20, weapon_ranks=3, defense=5, range_m=100,
                            aimed_area="head_torso")  # range index 17 vs size −1: step 5
    given = attack_odds(attack_stat=20, weapon_ranks=3, defense=5, range_size_modifier=-5,
                        aimed_area="head_torso")
    assert by_metres.target.total == given.target.total == 5
    assert (by_metres.hit, by_metres.near_miss_one_up) == (given.hit, given.near_miss_one_up)
    rng = ScriptedRng(1, 2, 2, 3, 4)  # 5 vs 5: a hit; d% 3 skull, d8 4 → AWA
    result = resolve_attack(attack_stat=20, weapon_ranks=3, defense=5, range_m=100,
                            aimed_area="head_torso", rng=rng)
    assert rng.done() and result.outcome == "hit" and result.location.location == "skull"


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
    odds = attack_odds(attack_stat=20, weapon_ranks=3, defense=5, aimed_area="eye",
                       range_size_modifier=-6)  # target 4
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
    result = resolve_attack(attack_stat=20, weapon_ranks=3, defense=5, aimed_area="eye",
                            range_size_modifier=-6, rng=rng)
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


def test_a_smaller_hit_location_die_reads_only_the_first_rows():
    """Article, "Hit Location": "the GM can mandate that a smaller die be used, increasing the
    likelihood of a particular result". A d10 on the whole body lands on the skull (1–5) or the
    face (6–10) whatever it rolls; d1 and d101 are refused."""
    import random as _random

    from rulebook.combat import location_die, resolve_attack

    seen = set()
    for seed in range(60):
        result = resolve_attack(attack_stat=30, weapon_ranks=3, defense=0, rng=_random.Random(seed),
                                location_sides=10)
        if result.location is not None:
            seen.add(result.location.location)
    assert seen and seen <= {"skull", "face"}
    for bad in (1, 101):
        with pytest.raises(RulesError):
            location_die(bad)
