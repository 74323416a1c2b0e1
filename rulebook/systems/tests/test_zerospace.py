"""Tests for rulebook.systems.zerospace: 2d6 + AV against 2d6 + DV, with the text's examples."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from functools import lru_cache
from itertools import product
from math import comb

import pytest

from rulebook import RulesError
from rulebook.systems import ParamError, zerospace
from rulebook.systems.tests.oracle import distribution, enumerate_rolls


@lru_cache(maxsize=None)
def oracle_pool(bonus: int, mode: int, penetrating: bool) -> Counter:
    """Count every ordered roll of one side's dice by the sum that counts, read from the text.

    Add mode: 2 + bonus dice, all summed (none left: no roll). Keep mode: 2 + |bonus| dice,
    the best (bonus) or worst (penalty) two. A penetrating die ends on 2–6, each equally.
    """
    faces = range(2, 7) if penetrating else range(1, 7)
    if mode == 0:
        count = 2 + bonus
        if count <= 0:
            return Counter({0: 1})
        return Counter(sum(roll) for roll in enumerate_rolls(count, faces))
    totals: Counter = Counter()
    for roll in enumerate_rolls(2 + abs(bonus), faces):
        ordered = sorted(roll, reverse=bonus >= 0)
        totals[ordered[0] + ordered[1]] += 1
    return totals


def oracle_margins(av, dv, bonus, defense, mode, penetrating) -> Counter:
    margins: Counter = Counter()
    attack, guard = oracle_pool(bonus, mode, penetrating), oracle_pool(defense, mode, False)
    for a, wa in attack.items():
        for d, wd in guard.items():
            margins[(a + av) - (d + dv)] += wa * wd
    return margins


GRID = list(product((0, 4), (3, 9), (-2, -1, 0, 1, 3), (-1, 0, 1), (0, 1), (0, 1), (0, 1)))


@pytest.mark.parametrize("av,dv,bonus,defense,mode,penetrating,strict", GRID)
def test_check_odds_equals_brute_force_including_the_distribution(av, dv, bonus, defense, mode, penetrating, strict):
    odds = zerospace.check_odds(av, dv, bonus, defense, penetrating, strict, bonus_dice_mode=mode)
    if mode == 0 and bonus <= -2:
        assert odds.probability == 0 and odds.success == frozenset()
        return
    expected = distribution(oracle_margins(av, dv, bonus, defense, mode, bool(penetrating)))
    assert odds.distribution == expected
    assert odds.probability == sum((p for m, p in expected if m >= (1 if strict else 0)), Fraction(0))


def test_a_penetrating_die_ends_on_two_to_six_equally():
    """"Penetrating": 1s are rolled again, so each of 2–6 has (1/6) / (1 − 1/6) = 1/5."""
    ends = zerospace.pool_totals(zerospace.Pool(1, 1, True, True))
    assert ends == {face: Fraction(1, 5) for face in range(2, 7)}


# --- The text's rules and examples ----------------------------------------------------------
def test_a_tie_succeeds_because_equal_or_higher_succeeds():
    """"Rolling Dice": the attempt succeeds when the total equals or exceeds the target number."""
    roll = zerospace.roll_check(3, 3, dice=[4, 2, 2, 4])
    assert roll.total == 9 and roll.details["target_number"] == 9 and roll.success


def test_a_distraction_must_roll_higher():
    """"Distracting": the distraction works only if the roll is more than the target's."""
    assert not zerospace.roll_check(3, 3, strict=1, dice=[4, 2, 2, 4]).success
    assert zerospace.roll_check(3, 3, strict=1, dice=[4, 3, 2, 4]).success


def test_even_values_give_a_tie_the_edge():
    """Same AV and DV: the roller wins every tie, so succeeds more than half the time."""
    odds = zerospace.check_odds(3, 3)
    assert odds.probability == Fraction(721, 1296)
    assert zerospace.check_odds(3, 3, strict=1).probability == Fraction(575, 1296)


def test_margin_of_success_example_target_12_total_15():
    """Sidebar: a target number of 12 and a total of 15 is a margin of 3 (a eureka moment)."""
    roll = zerospace.roll_check(5, 2, margin_of_success=1, dice=[5, 5, 5, 5])
    assert (roll.total, roll.details["target_number"], roll.details["margin"]) == (15, 12, 3)
    assert roll.details["eureka"] and roll.details["extra_endurance"] == 1 and roll.details["endurance_damage"] == 2


def test_margin_of_success_example_target_14_roll_19():
    """Sidebar: 19 against 14 is a margin of 5; ÷ 3 rounded down, one extra Endurance."""
    assert zerospace.extra_endurance(5) == 1
    assert zerospace.endurance_damage(5, margin_of_success=1) == 2
    roll = zerospace.roll_check(9, 4, margin_of_success=1, dice=[6, 4, 6, 4])
    assert (roll.total, roll.details["target_number"], roll.details["endurance_damage"]) == (19, 14, 2)


def test_without_the_optional_rule_a_hit_deals_one_endurance():
    assert zerospace.endurance_damage(5) == 1 and zerospace.endurance_damage(0) == 1
    assert zerospace.endurance_damage(-1, margin_of_success=1) == 0
    roll = zerospace.roll_check(9, 4, dice=[6, 4, 6, 4])
    assert roll.details["endurance_damage"] == 1 and not roll.details["eureka"]
    assert [zerospace.extra_endurance(m) for m in (0, 2, 3, 5, 6, 9, -4)] == [0, 0, 1, 1, 2, 3, 0]


def test_two_penalty_dice_make_the_task_impossible():
    """"Bonuses And Penalties": no dice left means the task cannot succeed; nothing is rolled."""
    roll = zerospace.roll_check(9, 0, bonus_dice=-2, rng=random.Random(1))
    assert roll.details["impossible"] and not roll.success and roll.faces == () and roll.probability == 0
    with pytest.raises(RulesError, match="faces entered"):
        zerospace.roll_check(9, 0, bonus_dice=-2, dice=[6])


def test_one_penalty_die_rolls_one_die_and_a_bonus_die_three():
    assert len(zerospace.roll_check(3, 3, bonus_dice=-1, rng=random.Random(1)).details["attack_faces"]) == 1
    roll = zerospace.roll_check(3, 3, bonus_dice=1, dice=[1, 2, 3, 4, 5])
    assert roll.details["attack_kept"] == (1, 2, 3) and roll.total == 9


def test_the_two_readings_of_one_bonus_or_penalty_die_at_av_3_against_dv_3():
    """The figures docs/rules.md quotes: 84.8 % against 72.4 % for a bonus die, 16.2 % against 38.1 %
    for a penalty die, added (the text) or kept-two (ruling 1)."""
    assert zerospace.check_odds(3, 3, 1).probability == Fraction(1099, 1296)
    assert zerospace.check_odds(3, 3, 1, bonus_dice_mode=1).probability == Fraction(1877, 2592)
    assert zerospace.check_odds(3, 3, -1).probability == Fraction(35, 216)
    assert zerospace.check_odds(3, 3, -1, bonus_dice_mode=1).probability == Fraction(247, 648)


def test_the_keep_two_ruling():
    best = zerospace.roll_check(3, 3, bonus_dice=2, bonus_dice_mode=1, dice=[2, 6, 5, 1, 1])
    assert best.details["attack_kept"] == (6, 5) and best.total == 14
    worst = zerospace.roll_check(3, 3, bonus_dice=-1, bonus_dice_mode=1, dice=[2, 6, 5, 1, 1])
    assert worst.details["attack_kept"] == (2, 5) and worst.total == 10
    assert zerospace.check_odds(9, 0, -5, bonus_dice_mode=1).probability > 0


def test_cover_gives_the_defender_a_bonus_die():
    """"Cover": the defender's roll gains a die, so hitting is harder."""
    assert zerospace.check_odds(4, 4, defense_dice=1).probability < zerospace.check_odds(4, 4).probability
    roll = zerospace.roll_check(4, 4, defense_dice=1, dice=[3, 3, 1, 1, 1])
    assert roll.details["target_number"] == 7 and roll.success


def test_a_defense_roll_without_dice_is_the_difficulty_value():
    roll = zerospace.roll_check(0, 5, defense_dice=-2, dice=[3, 2])
    assert roll.details["defense_faces"] == () and roll.details["target_number"] == 5 and roll.success


def test_penetrating_rerolls_ones_and_records_them():
    roll = zerospace.roll_check(5, 3, penetrating=1, dice=[1, 1, 4, 2, 3, 5])
    assert roll.details["attack_faces"] == (1, 1, 4, 2) and roll.details["attack_kept"] == (4, 2)
    assert roll.details["defense_faces"] == (3, 5) and roll.success and roll.details["margin"] == 0


def test_action_and_defense_values():
    """"Action Value": Reason 4 with a rating-2 decryption tool is AV 6; unskilled, only the tool counts.
    "Opposed Tasks": layers of defense do not stack, only the best rating counts."""
    assert zerospace.action_value(4, 2) == 6
    assert zerospace.action_value(4, 2, skilled=False) == 2
    assert zerospace.defense_value(5, [2, 3]) == 8 and zerospace.defense_value(5) == 5


def test_opposed_checks_are_checks_against_the_opponents_roll():
    assert zerospace.opposed_odds(4, 5) == zerospace.check_odds(4, 5)
    assert zerospace.opposed_odds(4, 5, must_beat=True) == zerospace.check_odds(4, 5, strict=1)
    assert not zerospace.roll_opposed(3, 3, must_beat=True, dice=[4, 2, 2, 4]).success
    assert zerospace.roll_opposed(3, 3, dice=[4, 2, 2, 4]).success


def test_routine_tasks_are_not_rolled_and_difficulties_by_name():
    """"Difficulty value examples": routine needs no roll; 3 moderate … 12 inconceivable."""
    routine = zerospace.routine_roll(2)
    assert routine.success and routine.faces == () and routine.probability == 1
    assert [zerospace.difficulty_value(n) for n in ("routine", "moderate", "remarkable", "extreme",
                                                    "inconceivable")] == [None, 3, 6, 9, 12]
    with pytest.raises(RulesError):
        zerospace.difficulty_value("hard")


# --- Combining effort ------------------------------------------------------------------------
def test_combine_effort_adds_the_number_of_characters_to_the_best_roll():
    """"Combining Effort": everyone rolls; the count of characters is added to the highest roll."""
    assert zerospace.combine_effort([9, 12, 7]) == 15
    assert zerospace.combine_effort([9, None]) == 11
    with pytest.raises(RulesError):
        zerospace.combine_effort([None])


@pytest.mark.parametrize("avs,bonus,dv", [((2, 3), None, 4), ((0, 5), (1, -1), 6), ((1, 1, 1), None, 5),
                                          ((4,), None, 3)])
def test_combined_effort_odds_equal_brute_force(avs, bonus, dv):
    bonus = bonus or (0,) * len(avs)
    team: Counter = Counter()
    pools = [list(enumerate_rolls(2 + b, range(1, 7))) for b in bonus]
    for rolls in product(*pools):
        team[max(sum(r) + av for r, av in zip(rolls, avs)) + len(avs)] += 1
    margins: Counter = Counter()
    for t, wt in team.items():
        for d in enumerate_rolls(2, range(1, 7)):
            margins[t - (sum(d) + dv)] += wt
    odds = zerospace.combined_effort_odds(avs, dv, bonus)
    assert odds.distribution == distribution(margins)
    assert odds.probability == sum((p for m, p in distribution(margins) if m >= 0), Fraction(0))


def test_one_character_alone_is_a_plain_check_plus_one():
    assert zerospace.combined_effort_odds([3], 4).probability == zerospace.check_odds(4, 4).probability


def test_roll_combined_effort():
    roll = zerospace.roll_combined_effort([3, 2], 6, dice=[1, 2, 6, 6, 4, 4])
    assert roll.details["totals"] == (6, 14) and roll.total == 16
    assert roll.details["target_number"] == 14 and roll.success and roll.details["margin"] == 2
    with pytest.raises(ParamError) as caught:
        zerospace.combined_effort_odds([], 3)
    assert caught.value.field == "avs"
    with pytest.raises(ParamError) as caught:
        zerospace.combined_effort_odds([3, 3], 3, [1])
    assert caught.value.field == "bonus_dice"


# --- Extended tasks --------------------------------------------------------------------------
@pytest.mark.parametrize("needed,attempts", [(1, 1), (2, 3), (3, 5), (4, 4)])
def test_extended_task_odds_equal_enumerating_every_sequence(needed, attempts):
    p = zerospace.check_odds(4, 6).probability
    expected = Fraction(0)
    for outcomes in product((True, False), repeat=attempts):
        if sum(outcomes) >= needed:
            chance = Fraction(1)
            for won in outcomes:
                chance *= p if won else 1 - p
            expected += chance
    odds = zerospace.extended_task_odds(4, 6, needed, attempts)
    assert odds.probability == expected and sum(q for _, q in odds.distribution) == 1


def test_extended_task_refuses_too_few_attempts():
    with pytest.raises(ParamError) as caught:
        zerospace.extended_task_odds(4, 6, 3, 2)
    assert caught.value.field == "attempts"


def test_roll_extended_task_stops_once_decided():
    # Needs 2 of at most 3: success, success -> done after two attempts.
    won = zerospace.roll_extended_task(4, 3, 2, 3, dice=[6, 6, 1, 1, 6, 6, 1, 1])
    assert won.success and won.successes == 2 and len(won.attempts) == 2
    # Fail, fail: two successes can no longer fit in the one attempt left.
    lost = zerospace.roll_extended_task(0, 3, 2, 3, dice=[1, 1, 6, 6, 1, 1, 6, 6])
    assert not lost.success and len(lost.attempts) == 2
    assert [r["face"] for r in lost.attempts[1].details["rolls"]] == [1, 1, 6, 6]


def test_race_with_one_success_needed_is_the_first_success():
    p, q = Fraction(1, 3), Fraction(1, 4)
    race = zerospace.extended_race_odds(p, q, 1)
    stop = 1 - (1 - p) * (1 - q)
    assert race == zerospace.RaceOdds(p * (1 - q) / stop, (1 - p) * q / stop, p * q / stop)


def test_race_odds_match_a_long_truncated_sum():
    p, q, k = Fraction(1, 2), Fraction(1, 3), 3
    race = zerospace.extended_race_odds(p, q, k)
    assert race.first + race.second + race.together == 1

    def reached_by(chance, n):  # P(at least k successes in n attempts)
        return sum(float(chance) ** j * (1 - float(chance)) ** (n - j) * comb(n, j) for j in range(k, n + 1))

    first = sum((reached_by(p, n) - reached_by(p, n - 1)) * (1 - reached_by(q, n)) for n in range(k, 300))
    assert abs(float(race.first) - first) < 1e-12


def test_race_refuses_hopeless_sides():
    with pytest.raises(RulesError):
        zerospace.extended_race_odds(Fraction(0), Fraction(0), 2)


# --- Endurance and explosions ----------------------------------------------------------------
def test_endurance_rules():
    """"Endurance And Recovery": the greater of Brawn and Presence; a penalty die past half;
    0 is defeated; half an hour's rest (or a rally) restores half the loss, rounded down."""
    assert zerospace.base_endurance(5, 7) == 7
    assert zerospace.endurance_penalty_dice(7, 4) == 0  # lost 3, not more than half of 7
    assert zerospace.endurance_penalty_dice(7, 3) == -1  # lost 4
    assert zerospace.lose_endurance(2, 5) == 0
    assert zerospace.rest_endurance(7, 2) == 4  # lost 5, back 2


def test_explosion_example_grenade_action_value_7():
    """"Exploding": AV 7 in full out to 5 m, 3 from 5 m out to 10 m."""
    assert zerospace.explosion_action_value(7, 0) == 7
    assert zerospace.explosion_action_value(7, 5) == 7
    assert zerospace.explosion_action_value(7, 6) == 3
    assert zerospace.explosion_action_value(7, 10) == 3
    assert zerospace.explosion_action_value(7, 11) is None


# --- Rolling -----------------------------------------------------------------------------------
def test_seeded_rolls_repeat_and_entered_faces_are_used_first():
    assert zerospace.roll_check(3, 4, rng=random.Random(9)) == zerospace.roll_check(3, 4, rng=random.Random(9))
    roll = zerospace.roll_check(3, 4, dice=[6], rng=random.Random(9))
    assert roll.faces[0] == 6 and [r["entered"] for r in roll.details["rolls"]] == [True, False, False, False]


def test_bad_faces_are_refused():
    with pytest.raises(RulesError, match="d6"):
        zerospace.roll_check(3, 4, dice=[7, 1, 1, 1])
    with pytest.raises(RulesError, match="faces entered"):
        zerospace.roll_check(3, 4, dice=[1, 1, 1, 1, 1])


def test_module_functions_validate_by_field():
    with pytest.raises(ParamError) as caught:
        zerospace.check_odds(3, 31)
    assert caught.value.field == "dv"
    with pytest.raises(ParamError) as caught:
        zerospace.check_odds(3, 3, bonus_dice=6)
    assert caught.value.field == "bonus_dice"
    with pytest.raises(ParamError) as caught:
        zerospace.check_odds(3, 3, penetrating=True)
    assert caught.value.field == "penetrating"
