"""Tests for rulebook.systems.rocket_house: d100 under a Trait, Effect, opposed tests, combat, wounds."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import product

import pytest

from rulebook import RulesError
from rulebook.systems import ParamError
from rulebook.systems import rocket_house as rh

GARETH = rh.Fighter(93, weapon=4, armour=4)  # Outstanding Fighting, great sword, heavy armour
PUCE_KNIGHT = rh.Fighter(72, weapon=3, armour=4)  # Good Fighting, arming sword, heavy chain with plates


@pytest.mark.parametrize("trait,difficulty,modifier", list(product((0, 5, 34, 75, 100, 130), (-3, 0, 2), (0, -10))))
def test_check_odds_equals_brute_force_including_the_distribution(trait, difficulty, modifier):
    chance = trait + 10 * difficulty + modifier
    wins = [r for r in range(1, 101) if r <= chance and r != 100]
    odds = rh.check_odds(trait, difficulty, modifier)
    assert odds.distribution == tuple((r, Fraction(1, 100)) for r in range(1, 101))
    assert odds.success == frozenset(wins) and odds.probability == Fraction(len(wins), 100)


def test_100_always_fails_even_for_a_superhuman():
    """"Basic Task Resolution": 00 fails, so Legendary 100 is really 99 %; higher Traits help only
    against difficulty."""
    assert rh.check_odds(100).probability == Fraction(99, 100)
    assert rh.check_odds(130, -3).probability == Fraction(99, 100)
    roll = rh.roll_check(150, dice=[100])
    assert not roll.success and roll.details["automatic_failure"]


def test_difficulty_steps_are_ten_percent():
    assert [rh.target(50, step) for step in (-3, -2, -1, 0, 1, 2, 3)] == [20, 30, 40, 50, 60, 70, 80]
    assert rh.target(76, modifier=-10) == 66


def test_bob_climbs_the_wall():
    """Bob's Athleticism is 75 %; he rolls 32 and succeeds."""
    roll = rh.roll_check(75, dice=[32])
    assert roll.success and roll.details["effect"] == 3


def test_julie_sings():
    """Julie's Singing is 64; she rolls 52, a success with Effect 5: a Special Success."""
    roll = rh.roll_check(64, dice=[52])
    assert roll.success and roll.details["effect"] == 5 and roll.details["band"] == "special success"


@pytest.mark.parametrize("value,band", [(0, "marginal success"), (1, "basic success"), (3, "basic success"),
                                        (4, "special success"), (6, "special success"),
                                        (7, "exceptional success"), (9, "exceptional success")])
def test_effect_bands(value, band):
    assert rh.effect_band(value) == band


def test_effect_is_the_tens_digit():
    assert [rh.effect(r) for r in (5, 10, 47, 82, 93, 99)] == [0, 1, 4, 8, 9, 9]


# --- Opposed tests ---------------------------------------------------------------------------
def test_julie_sneaks_past_earl():
    """Julie (53 %) rolls 33 and Earl (34 %) 89: only she succeeds, so she wins."""
    result = rh.resolve_opposed(33, 53, 89, 34)
    assert result.winner == 1 and result.first_success and not result.second_success


def test_earl_rolling_34_notices_her():
    """Had Earl rolled 34, both succeed and his roll is higher: Earl wins."""
    assert rh.resolve_opposed(33, 53, 34, 34).winner == 2


def test_both_failing_the_higher_roll_wins():
    """Julie 99 against Earl 53: both fail, her roll is higher, she wins (a clumsy win)."""
    result = rh.resolve_opposed(99, 53, 53, 34)
    assert result.winner == 1 and result.both_failed


def test_equal_rolls_are_a_stalemate():
    """Had Earl rolled 33 too: a stalemate."""
    assert rh.resolve_opposed(33, 53, 33, 34).winner is None
    assert rh.roll_opposed(53, 34, dice=[33, 33]).winner is None


def test_the_tiebreak_die_and_the_reroll_rulings():
    """The GM may settle a stalemate with a die (even: Earl, the second; odd: Julie) or a new roll."""
    odd = rh.roll_opposed(53, 34, stalemate=rh.TIEBREAK_DIE, dice=[33, 33, 7])
    assert odd.winner == 1 and odd.tiebreak == (7,)
    assert rh.roll_opposed(53, 34, stalemate=rh.TIEBREAK_DIE, dice=[33, 33, 4]).winner == 2
    again = rh.roll_opposed(53, 34, stalemate=rh.ROLL_AGAIN, dice=[33, 33, 20, 60])
    assert again.winner == 1 and (again.first_roll, again.second_roll) == (20, 60)


@pytest.mark.parametrize("first,second", [(53, 34), (34, 53), (0, 0), (100, 100), (120, 40), (-10, 50)])
def test_opposed_odds_equal_brute_force(first, second):
    outcome = {1: 0, 2: 0, None: 0}
    for a in range(1, 101):
        for b in range(1, 101):
            a_ok, b_ok = a <= first and a != 100, b <= second and b != 100
            if a_ok != b_ok:
                outcome[1 if a_ok else 2] += 1
            else:
                outcome[None if a == b else (1 if a > b else 2)] += 1
    p1, p2, tie = (Fraction(outcome[k], 10000) for k in (1, 2, None))
    assert rh.opposed_odds(first, second) == rh.OpposedOdds(p1, p2, tie)
    assert rh.opposed_odds(first, second, stalemate=rh.TIEBREAK_DIE) == rh.OpposedOdds(p1 + tie / 2, p2 + tie / 2, 0)
    again = rh.opposed_odds(first, second, stalemate=rh.ROLL_AGAIN)
    assert again.first == p1 / (1 - tie) and again.first + again.second == 1


def test_dolph_stares_down_razor():
    """Dolph (80 %) rolls 77, Effect 7; Razor (65 %) rolls 49, Effect 4: a net 3, a Basic Success."""
    contest = rh.resolve_contest(77, 80, 49, 65)
    assert contest == rh.Contest(1, 7, 4, 3)
    assert rh.effect_band(contest.net) == "basic success"


def test_contest_bonuses_count_before_the_winner_is_known():
    assert rh.resolve_contest(77, 80, 49, 65, second_bonus=4) == rh.Contest(2, 7, 8, 1)


def test_contest_failures_and_ties():
    assert rh.resolve_contest(5, 50, 90, 50) == rh.Contest(1, 0, None, 0)  # a success at Effect 0 still wins
    assert rh.resolve_contest(90, 50, 95, 50) == rh.Contest(None, None, None, 0)
    assert rh.resolve_contest(41, 50, 44, 50).winner is None
    assert rh.resolve_contest(41, 50, 44, 50, effect_tie=1) == rh.Contest(2, 4, 4, 0)


# --- Combat ----------------------------------------------------------------------------------
def test_gareth_against_the_puce_knight():
    """"Combat": Gareth rolls 82 (Effect 8) and the Puce Knight 44 (Effect 4). Gareth hits: 8 + 4 for
    his great sword − 4 = 8 net, an Extreme Wound were it not for armour 4, which leaves 4: a Basic Wound."""
    result = rh.resolve_combat(GARETH, PUCE_KNIGHT, 82, 44)
    assert (result.first_effect, result.second_effect, result.winner) == (8, 4, 1)
    assert result.damage_to_second == 4 and result.damage_to_first == 0
    assert rh.wound_for(8).name == "extreme" and rh.wound_for(4).name == "basic"


def test_the_puce_knight_stays_up_and_loses_four_fatigue():
    """Toughness 76 % gives 15 Fatigue and a Toughness check at 66 % after the Basic Wound; he
    rolls 47 and stays in the fight, with 11 Fatigue left."""
    assert rh.fatigue_points(76) == 15
    hurt = rh.take_damage(4, 15, 76)
    assert hurt.wound.name == "basic" and hurt.toughness_check == 66 and hurt.fatigue == 11
    assert hurt.state == "fighting"
    assert rh.roll_check(66, dice=[47]).success


def test_both_offensive():
    """Stances, take one: both offensive, Gareth takes 7 − 4 = 3 (a Wound and 3 Fatigue) and the Puce
    Knight 12 − 4 = 8 (an Extreme Wound)."""
    result = rh.resolve_combat(rh.Fighter(93, 4, 4, "offensive"), rh.Fighter(72, 3, 4, "offensive"), 82, 44)
    assert (result.damage_to_first, result.damage_to_second) == (3, 8)
    assert rh.wound_for(3).name == "basic" and rh.wound_for(8).name == "extreme"


def test_both_defensive_only_circle_and_mixed_stances_play_as_normal():
    quiet = rh.resolve_combat(rh.Fighter(93, 4, 4, "defensive"), rh.Fighter(72, 3, 4, "defensive"), 82, 44)
    assert quiet.mode == "no attack" and (quiet.damage_to_first, quiet.damage_to_second) == (0, 0)
    mixed = rh.resolve_combat(rh.Fighter(93, 4, 4, "offensive"), rh.Fighter(72, 3, 4, "defensive"), 82, 44)
    assert mixed.mode == "exchange" and mixed.damage_to_second == 4


def test_full_offense_and_full_defense():
    """Take two: Full Offense makes both take the other's full Effect; Full Defense adds 10 % and 2
    armour, never attacks, and cancels Full Offense."""
    berserk = rh.resolve_combat(rh.Fighter(93, 4, 4, "full offense"), PUCE_KNIGHT, 82, 44)
    assert berserk.mode == "full effect" and (berserk.damage_to_first, berserk.damage_to_second) == (3, 8)
    guarded = rh.resolve_combat(rh.Fighter(93, 4, 4, "full offense"), rh.Fighter(72, 3, 4, "full defense"), 82, 44)
    assert guarded.mode == "exchange" and guarded.damage_to_second == 2  # 8 + 4 − 4 − (4 + 2)
    # The Full Defense bonus turns a roll of 80 into a success for a 72 % fighter.
    turtle = rh.resolve_combat(GARETH, rh.Fighter(72, 3, 4, "full defense"), 42, 80)
    assert turtle.second_effect == 8 and turtle.winner == 2 and turtle.damage_to_first == 0


def test_strength_in_combat():
    """Good (70 %) Strength gives 2 bonus Effect per fight: spent on the first pass, 4 Damage would
    become 6, a Serious Wound."""
    assert rh.bonus_levels(70) == 2 and rh.bonus_levels(50) == 0 and rh.bonus_levels(30) == 0
    assert rh.wound_for(4 + rh.bonus_levels(70)).name == "serious"


@pytest.mark.parametrize("first,second", [
    (GARETH, PUCE_KNIGHT),
    (rh.Fighter(60, 2, 1, "offensive"), rh.Fighter(55, 1, 2, "offensive")),
    (rh.Fighter(60, 2, 1, "full offense"), rh.Fighter(55, 1, 2, "full defense")),
])
def test_combat_odds_add_up(first, second):
    odds = rh.combat_odds(first, second)
    assert sum(p for _, p in odds.damage_to_first) == 1 and sum(p for _, p in odds.damage_to_second) == 1
    hurt = sum(1 for a in range(1, 101) for b in range(1, 101)
               if rh.resolve_combat(first, second, a, b).damage_to_second)
    assert odds.second_hurt == Fraction(hurt, 10000)


def test_roll_combat_takes_both_rolls():
    assert rh.roll_combat(GARETH, PUCE_KNIGHT, dice=[82, 44]).damage_to_second == 4
    with pytest.raises(RulesError):
        rh.Fighter(50, stance="berserk")


# --- Wounds and Fatigue ----------------------------------------------------------------------
@pytest.mark.parametrize("damage,wound", [(0, None), (2, None), (3, "basic"), (4, "basic"), (5, "serious"),
                                          (6, "serious"), (7, "extreme"), (8, "extreme"), (9, "splat"),
                                          (15, "splat")])
def test_wounds_by_damage(damage, wound):
    found = rh.wound_for(damage)
    assert (found.name if found else None) == wound


def test_only_the_worst_wound_penalises_but_all_bleeding_adds_up():
    """"Wounds": two Extreme and three Serious Wounds lose 2 Fatigue a turn and 3 a minute."""
    wounds = [rh.WOUNDS_BY_NAME["extreme"]] * 2 + [rh.WOUNDS_BY_NAME["serious"]] * 3
    assert rh.bleeding(wounds) == (2, 3)
    assert rh.wound_penalty(wounds) == -30
    assert rh.wound_penalty([]) == 0


def test_fatigue_states():
    """Fatigue 0 passes out; −Toughness bleeds to death. 50 % Toughness has 10 Fatigue."""
    assert rh.fatigue_points(50) == 10
    assert rh.fatigue_state(1, 50) == "fighting"
    assert rh.fatigue_state(0, 50) == "unconscious"
    assert rh.fatigue_state(-49, 50) == "unconscious"
    assert rh.fatigue_state(-50, 50) == "dead"


def test_splat_and_less_lethal():
    assert rh.take_damage(9, 15, 76).state == "dead"
    soft = rh.take_damage(9, 15, 76, less_lethal=True)
    assert soft.state == "fighting" and soft.wound.name == "extreme" and soft.wound.bleed_per_turn == 0


def test_wounds_only_approach():
    """"Wounds Only": net Effect 1 a Wound, 4 Serious, 7 Extreme, 9 an instant kill."""
    names = [(w.name if w else None) for w in map(rh.wounds_only_wound, (0, 1, 3, 4, 6, 7, 8, 9))]
    assert names == [None, "basic", "basic", "serious", "serious", "extreme", "extreme", "splat"]


def test_healing():
    """"First Aid and Healing": 1 Fatigue per half hour asleep, per hour resting, doubled by a
    physician; wounds heal a level a week."""
    assert rh.fatigue_recovered(sleep_minutes=120) == 4
    assert rh.fatigue_recovered(rest_minutes=150) == 2
    assert rh.fatigue_recovered(sleep_minutes=60, rest_minutes=60, physician=True) == 6
    assert rh.heal_wound(rh.WOUNDS_BY_NAME["extreme"]).name == "serious"
    assert rh.heal_wound(rh.WOUNDS_BY_NAME["basic"]) is None
    with pytest.raises(RulesError):
        rh.heal_wound(rh.WOUNDS_BY_NAME["splat"])


# --- Rolling -----------------------------------------------------------------------------------
def test_seeded_rolls_repeat_and_faces_are_checked():
    assert rh.roll_check(60, rng=random.Random(8)) == rh.roll_check(60, rng=random.Random(8))
    with pytest.raises(RulesError, match="d100"):
        rh.roll_check(60, dice=[101])
    with pytest.raises(RulesError, match="faces entered"):
        rh.roll_check(60, dice=[5, 6])
    with pytest.raises(RulesError, match="faces entered"):
        rh.roll_opposed(50, 50, dice=[5, 6, 7])


def test_inputs_are_checked_by_field():
    with pytest.raises(ParamError) as caught:
        rh.check_odds(201)
    assert caught.value.field == "trait"
    with pytest.raises(ParamError) as caught:
        rh.opposed_odds(50, 50, stalemate=5)
    assert caught.value.field == "stalemate"
