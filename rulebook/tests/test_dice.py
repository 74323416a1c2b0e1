"""Tests for rulebook.dice: exact odds, miracle and extra-benefit dice, seeded rolls."""

from __future__ import annotations

import random
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

import icepool
import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulebook import RulesError
from rulebook.dice import (
    MAX_DICE,
    check_odds,
    clear_caches,
    extra_benefit_limit,
    extra_benefit_odds,
    miracle_dice,
    odds_curve,
    probability_at_most,
    roll_check,
    roll_dice,
    roll_die,
    sum_counts,
)
from rulebook.stats import skill_foundation
from rulebook.tests.scripted import ScriptedRng


def reference(target: int, dice: int) -> Fraction:
    """icepool's P(sum of ``dice`` d6 ≤ target)."""
    return (dice @ icepool.d6).probability("<=", target)


def keep_lowest_reference(target: int, rolled: int, kept: int) -> Fraction:
    """icepool's P(sum of the lowest ``kept`` of ``rolled`` d6 ≤ target)."""
    return icepool.d6.pool(rolled).lowest(kept).sum().probability("<=", target)


def percent(p: Fraction, places: str) -> Decimal:
    return (Decimal(p.numerator) * 100 / Decimal(p.denominator)).quantize(Decimal(places), ROUND_HALF_UP)


# --- Plain rolling ------------------------------------------------------------------------
def test_roll_die_and_roll_dice_use_the_injected_rng():
    rng = ScriptedRng(4, 1, 6, 2)
    assert roll_die(6, rng) == 4
    assert roll_dice(3, 6, rng) == [1, 6, 2]
    assert rng.asked == [6] * 4


def test_seeded_rolls_repeat():
    assert roll_check(11, rng=random.Random(7)) == roll_check(11, rng=random.Random(7))


# --- Exact distributions ------------------------------------------------------------------
def test_sum_counts_of_3d6_is_the_familiar_bell():
    counts = sum_counts(3)
    assert sum(counts) == 216
    assert counts[3] == 1 and counts[10] == 27 and counts[11] == 27 and counts[18] == 1


def test_check_odds_equals_icepool_for_every_target_and_1_to_12_dice():
    """Wherever no miracle dice are needed, our own convolution matches icepool exactly."""
    for dice in range(1, 13):
        for target in range(dice, 6 * dice + 3):
            odds = check_odds(target, dice)
            assert odds.dice == dice and odds.effective_target == target
            assert odds.probability == reference(target, dice), (target, dice)


def test_miracle_odds_equal_icepool_for_the_larger_roll():
    for dice in range(1, 13):
        for target in range(-6, dice):
            odds = check_odds(target, dice)
            assert odds.miracle
            assert odds.probability == reference(odds.effective_target, odds.dice)


def test_cold_and_cached_odds_agree_and_repeat_calls_hit_the_cache():
    clear_caches()
    cold = check_odds(9, 3)
    assert check_odds(9, 3) is cold
    assert cold.probability == Fraction(81, 216)


@given(dice=st.integers(1, 12), target=st.integers(-20, 80))
def test_odds_are_probabilities_and_never_fall_as_the_target_rises(dice, target):
    here, above = check_odds(target, dice).probability, check_odds(target + 1, dice).probability
    assert 0 <= here <= 1
    assert here <= above


# --- Impossible chances: the article's figures --------------------------------------------
@pytest.mark.parametrize(
    ("dice", "rolled", "needed", "one_in"),
    [(1, 2, 2, 36), (2, 4, 4, 1_296), (3, 6, 6, 46_656), (4, 8, 8, 1_679_616)],
)
def test_impossible_chance_at_target_zero(dice, rolled, needed, one_in):
    """Article, "Combat", the maximum-armour miracle chances: 1 in 36, 1,296, 46,656, 1,679,616."""
    odds = check_odds(0, dice)
    assert (odds.dice, odds.effective_target) == (rolled, needed)
    assert odds.probability == Fraction(1, one_in)


def test_miracle_dice_adds_one_die_and_two_target_until_success_is_possible():
    """RULINGS section 1: 1 on 3d6 → 3 on 4d6 → 5 on 5d6 (article, "Combat", armour 9)."""
    assert miracle_dice(1, 3) == (5, 5)
    assert miracle_dice(2, 3) == (4, 4)
    assert miracle_dice(3, 3) == (3, 3)
    assert miracle_dice(0, 2) == (4, 4)


# --- The armour 0–10 discussion ------------------------------------------------------------
#: armour → exact chance of "10 − armour or less" on 2d6 and on 3d6, miracle rule applied.
ARMOUR_ODDS = {
    0: (Fraction(33, 36), Fraction(108, 216)),
    1: (Fraction(30, 36), Fraction(81, 216)),
    2: (Fraction(26, 36), Fraction(56, 216)),
    3: (Fraction(21, 36), Fraction(35, 216)),
    4: (Fraction(15, 36), Fraction(20, 216)),
    5: (Fraction(10, 36), Fraction(10, 216)),
    6: (Fraction(6, 36), Fraction(4, 216)),
    7: (Fraction(3, 36), Fraction(1, 216)),
    8: (Fraction(1, 36), Fraction(1, 1_296)),
    9: (Fraction(1, 216), Fraction(1, 7_776)),
    10: (Fraction(1, 1_296), Fraction(1, 46_656)),
}


@pytest.mark.parametrize("armour", range(11))
def test_armour_hit_chances_on_2d6_and_3d6(armour):
    """Article, "Combat", the armour 0–10 list: the true chances of 10 − armour or less."""
    two, three = ARMOUR_ODDS[armour]
    assert check_odds(10 - armour, 2).probability == two
    assert check_odds(10 - armour, 3).probability == three


#: The article's own figures, in percent, as (armour, dice) → (figure, precision it is given to).
ARTICLE_RIGHT = {
    (0, 2): ("92", "1"), (1, 2): ("83", "1"), (2, 2): ("72", "1"), (3, 2): ("58", "1"),
    (4, 2): ("42", "1"), (5, 2): ("28", "1"), (6, 2): ("17", "1"), (7, 2): ("8", "1"),
    (8, 2): ("3", "1"), (9, 2): ("0.46", "0.01"), (10, 2): ("0.08", "0.01"),
    (1, 3): ("38", "1"), (2, 3): ("26", "1"), (3, 3): ("16", "1"), (4, 3): ("9", "1"),
    (5, 3): ("4.6", "0.1"), (6, 3): ("1.85", "0.01"), (7, 3): ("0.46", "0.01"),
    (8, 3): ("0.08", "0.01"),
}


@pytest.mark.parametrize(("armour", "dice"), sorted(ARTICLE_RIGHT))
def test_article_armour_figures_that_hold(armour, dice):
    """Article, "Combat", the armour list: these figures round correctly from the exact odds."""
    figure, places = ARTICLE_RIGHT[(armour, dice)]
    assert percent(check_odds(10 - armour, dice).probability, places) == Decimal(figure)


@pytest.mark.parametrize(
    ("armour", "dice", "article", "true"),
    [
        (0, 3, "52", "50.00"),  # 108/216 is exactly one half
        (0, 4, "17", "15.90"),  # 4d6 ≤ 10 is 206/1296
        (9, 3, "0.128", "0.0129"),  # 5d6 ≤ 5 is 1/7776: the article slips a decimal place
        (10, 3, "0.021", "0.0021"),  # 6d6 ≤ 6 is 1/46656: the same slip carried on
    ],
)
def test_article_armour_figures_that_are_wrong(armour, dice, article, true):
    """Article, "Combat", the armour list: its arithmetic is off here; we use the exact odds.

    Armour 0 on 3d6 is stated as 52% (it is 50%, as the article's own "about 50-50" says);
    armour 0 on 4d6 as about 17% (15.9%); the 3d6 continuations at armour 9 and 10 as
    0.128% and 0.021% (0.0129% and 0.0021%: each ten times too large).
    """
    probability = check_odds(10 - armour, dice).probability
    places = "0.0001" if armour >= 9 else "0.01"
    assert percent(probability, places) == Decimal(true)
    assert percent(probability, places) != Decimal(article)


def test_article_continuations_on_4d6_5d6_6d6():
    """Article, "Combat": 2 on 3d6 → 4 on 4d6; 1 on 3d6 → 5 on 5d6; 0 on 3d6 → 6 on 6d6."""
    assert (check_odds(2, 3).dice, check_odds(2, 3).effective_target) == (4, 4)
    assert (check_odds(1, 3).dice, check_odds(1, 3).effective_target) == (5, 5)
    assert (check_odds(0, 3).dice, check_odds(0, 3).effective_target) == (6, 6)
    assert check_odds(2, 3).probability == reference(4, 4)
    assert check_odds(1, 3).probability == reference(5, 5)
    assert check_odds(0, 3).probability == reference(6, 6)


def test_article_ratios_between_armour_steps():
    """Article, "Combat": "half what it was", "a loss of two-thirds", and the repeated sixths.

    The 2d6 drop from armour 8 to 9 is stated as 85%; it is exactly five sixths (83.3%).
    """
    two = {a: ARMOUR_ODDS[a][0] for a in ARMOUR_ODDS}
    three = {a: ARMOUR_ODDS[a][1] for a in ARMOUR_ODDS}
    assert two[5] / two[4] == Fraction(2, 3)  # "a decline of about 1/3"
    assert three[5] / three[4] == Fraction(1, 2)  # "a loss of roughly half"
    assert two[7] / two[6] == Fraction(1, 2)  # "half what it was"
    assert two[8] / two[7] == Fraction(1, 3)  # "a loss of two-thirds"
    assert three[8] / three[7] == three[9] / three[8] == three[10] / three[9] == Fraction(1, 6)
    assert 1 - two[9] / two[8] == Fraction(5, 6)  # stated as 85%
    assert 1 - two[10] / two[9] == Fraction(5, 6)  # "about almost 83%"


def test_article_stat_of_20_remarks():
    """Article, "Combat", why 3d6 and 4d6: the stat-of-20 and stat-of-24 remarks.

    A skill foundation of 12 succeeds on 3d6 74.1% of the time (the article says about 65%),
    62.5% at one point worse (it says 55%) and 50% at two worse (it says 45%). The 4d6 stat
    check at 20 succeeds 97.3% of the time: the article calls that the chance of failure.
    """
    assert skill_foundation(20) == 12
    assert check_odds(12, 3).probability == Fraction(160, 216)
    assert check_odds(11, 3).probability == Fraction(135, 216)
    assert check_odds(10, 3).probability == Fraction(1, 2)
    assert check_odds(skill_foundation(24), 3).probability < 1  # 14 or less still can fail
    stat_20 = check_odds(20, 4).probability
    assert percent(stat_20, "0.1") == Decimal("97.3")
    assert percent(1 - stat_20, "0.1") == Decimal("2.7")
    assert check_odds(24, 4).probability == 1


# --- Extra benefits ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("target", "dice", "limit"),
    [(17, 3, 0), (18, 3, 1), (19, 3, 1), (20, 3, 2), (25, 3, 4), (23, 4, 0), (24, 4, 1), (27, 4, 2)],
)
def test_extra_benefit_limit(target, dice, limit):
    """RULINGS section 1: only at 6 × dice or more, at most ⌊(target − 6·dice)/2⌋ + 1."""
    assert extra_benefit_limit(target, dice) == limit


def test_extra_benefit_odds_match_icepool_keep_lowest():
    for dice in (1, 2, 3, 4, 5):
        for target in range(6 * dice, 6 * dice + 16):
            for extra in range(1, extra_benefit_limit(target, dice) + 1):
                odds = extra_benefit_odds(target, dice, extra)
                assert (odds.dice, odds.kept, odds.effective_target) == (dice + extra, dice, target - 2 * extra)
                assert odds.probability == keep_lowest_reference(target - 2 * extra, dice + extra, dice)


@given(dice=st.integers(1, 6), over=st.integers(0, 30), data=st.data())
def test_extra_benefit_odds_property(dice, over, data):
    target = 6 * dice + over
    extra = data.draw(st.integers(1, extra_benefit_limit(target, dice)))
    odds = extra_benefit_odds(target, dice, extra=extra)
    assert 0 < odds.probability <= 1
    assert odds.probability == keep_lowest_reference(target - 2 * extra, dice + extra, dice)


def test_the_first_extra_die_makes_failure_possible():
    """"Impossible Chances": the benefit is bought with a chance of failing (18 → 4d6 keep 3 ≤ 16)."""
    odds = extra_benefit_odds(18, 3, 1)
    assert odds.probability < 1
    assert odds.probability == 1 - Fraction(5, 1296)  # only 6-6-6-6 and the 4 orders of 5-6-6-6 lose
    assert [label for label, _ in odds.breakdown][:4] == ["target", "dice", "extra-benefit dice", "extra-benefit target"]


def test_extra_benefit_zero_is_the_plain_check():
    assert extra_benefit_odds(18, 3, 0) == check_odds(18, 3)


@pytest.mark.parametrize(("target", "dice", "extra"), [(17, 3, 1), (19, 3, 2), (20, 3, -1), (30, 4, 5)])
def test_extra_benefit_dice_not_allowed(target, dice, extra):
    with pytest.raises(RulesError):
        extra_benefit_odds(target, dice, extra)
    with pytest.raises(RulesError):
        roll_check(target, dice, ScriptedRng(*[1] * 20), extra=extra)


# --- Rolling checks ------------------------------------------------------------------------
def test_roll_check_success_margin_and_breakdown():
    check = roll_check(12, 3, ScriptedRng(4, 3, 2))
    assert (check.faces, check.total, check.success, check.margin, check.critical) == ((4, 3, 2), 9, True, 3, False)
    assert check.kept == check.faces
    assert ("margin", 3) in check.breakdown


def test_roll_check_failure_on_a_stat_check():
    check = roll_check(14, 4, ScriptedRng(6, 5, 2, 3))
    assert (check.dice, check.total, check.success, check.margin) == (4, 16, False, -2)


def test_critical_needs_all_ones_and_a_total_below_the_target():
    """RULINGS section 1: every die 1 and the sum strictly below the target."""
    assert roll_check(4, 3, ScriptedRng(1, 1, 1)).critical
    assert not roll_check(3, 3, ScriptedRng(1, 1, 1)).critical  # equal, not below
    assert not roll_check(12, 3, ScriptedRng(1, 1, 2)).critical


def test_miracle_roll_sums_every_die():
    """Article, "Combat": target 0 on 3d6 is 6 or less on 6d6; all ones only just makes it."""
    check = roll_check(0, 3, ScriptedRng(1, 1, 1, 1, 1, 1))
    assert (check.dice, check.effective_target, check.total, check.success) == (6, 6, 6, True)
    assert not check.critical
    missed = roll_check(0, 3, ScriptedRng(1, 1, 1, 1, 1, 2))
    assert not missed.success and missed.margin == -1


def test_extra_benefit_roll_keeps_the_lowest_faces():
    check = roll_check(20, 3, ScriptedRng(6, 2, 5, 1, 4), extra=2)
    assert check.faces == (6, 2, 5, 1, 4)
    assert check.kept == (1, 2, 4)
    assert (check.effective_target, check.total, check.margin, check.success) == (16, 7, 9, True)


def test_extra_benefit_roll_can_fail_and_can_be_critical():
    failed = roll_check(18, 3, ScriptedRng(6, 6, 6, 5), extra=1)
    assert (failed.total, failed.success) == (17, False)
    critical = roll_check(18, 3, ScriptedRng(1, 6, 1, 1), extra=1)
    assert critical.critical and critical.kept == (1, 1, 1)


@given(seed=st.integers(0, 2**32), target=st.integers(-3, 25), dice=st.sampled_from([3, 4]))
def test_rolled_checks_agree_with_their_own_faces(seed, target, dice):
    check = roll_check(target, dice, random.Random(seed))
    assert check.total == sum(check.faces)
    assert len(check.faces) == check.dice
    assert check.success == (check.total <= check.effective_target)
    assert check.margin == check.effective_target - check.total


# --- Curves and bad input ------------------------------------------------------------------
def test_odds_curve_defaults_run_from_zero_to_certainty():
    curve = odds_curve(3)
    assert curve[0] == (0, Fraction(1, 46_656))
    assert curve[-1] == (18, Fraction(1))
    assert [t for t, _ in curve] == list(range(19))
    assert all(a[1] <= b[1] for a, b in zip(curve, curve[1:]))


def test_odds_curve_custom_range():
    assert odds_curve(4, low=20, high=21) == [(20, check_odds(20, 4).probability), (21, check_odds(21, 4).probability)]


@pytest.mark.parametrize(
    "call",
    [
        lambda: check_odds(10, 0),
        lambda: check_odds(10, MAX_DICE + 1),
        lambda: check_odds(10.5, 3),
        lambda: check_odds("ten", 3),
        lambda: check_odds(-500, 3),
        lambda: odds_curve(3, low=5, high=4),
        lambda: odds_curve(3, low=0, high=5000),
        lambda: roll_check(10, 0, random.Random(1)),
    ],
)
def test_bad_input_raises_rules_error(call):
    with pytest.raises(RulesError):
        call()


def test_probability_at_most_edges():
    assert probability_at_most(2, 3) == 0
    assert probability_at_most(3, 3) == Fraction(1, 216)
    assert probability_at_most(18, 3) == 1


@pytest.mark.parametrize("rolled", range(1, 7))
def test_keep_lowest_counts_equal_every_roll_counted(rolled):
    """Both ways of counting (directly, and what fails from the top) against every ordered roll."""
    from itertools import product

    from rulebook.dice import keep_lowest_at_most_count

    rolls = [sorted(r) for r in product(range(1, 7), repeat=rolled)]
    for kept in range(1, rolled + 1):
        for target in range(0, 6 * kept + 2):
            assert keep_lowest_at_most_count(target, rolled, kept) == sum(
                1 for r in rolls if sum(r[:kept]) <= target), (target, rolled, kept)
