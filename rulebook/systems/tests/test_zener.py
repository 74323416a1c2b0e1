"""Tests for rulebook.systems.zener: the Zener check as a rule set, against rulebook.dice and brute force."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest

from rulebook import RulesError
from rulebook import dice as zener_dice
from rulebook.systems import ParamError, zener
from rulebook.systems.tests.oracle import distribution, enumerate_rolls


def brute_force(target: int, dice: int, extra: int = 0):
    """Every ordered roll of the dice the check really rolls, counted by the counted total."""
    rolled, effective = zener_dice.miracle_dice(target, dice) if not extra else (dice + extra, target - 2 * extra)
    totals: Counter = Counter()
    for faces in enumerate_rolls(rolled, range(1, 7)):
        totals[sum(sorted(faces)[:dice] if extra else faces)] += 1
    dist = distribution(totals)
    return dist, sum((p for t, p in dist if t <= effective), Fraction(0)), effective


#: Every (target, dice) pair up to 4 dice whose roll, miracle dice included, stays at 6 dice or fewer.
GRID = [(target, dice) for dice in (1, 2, 3, 4) for target in (-2, 0, 1, 3, 5, 8, 10, 11, 14, 18, 25)
        if zener_dice.miracle_dice(target, dice)[0] <= 6]


@pytest.mark.parametrize("target,dice", GRID)
def test_check_odds_equals_brute_force_including_the_distribution(target, dice):
    odds = zener.check_odds(target, dice)
    dist, probability, effective = brute_force(target, dice)
    assert odds.distribution == dist
    assert odds.probability == probability
    assert odds.success == frozenset(t for t, _ in dist if t <= effective)


@pytest.mark.parametrize("target,dice,extra", [(18, 3, 1), (20, 3, 2), (24, 4, 1), (6, 1, 1), (8, 1, 2)])
def test_extra_benefit_odds_equal_brute_force(target, dice, extra):
    odds = zener.check_odds(target, dice, extra)
    dist, probability, _ = brute_force(target, dice, extra)
    assert odds.distribution == dist and odds.probability == probability
    assert odds.outcome == f"lowest {dice} of {dice + extra}d6"


@pytest.mark.parametrize("target,dice", [(10, 3), (11, 3), (14, 4), (-30, 12), (100, 12), (0, 1)])
def test_check_odds_is_rulebook_dice(target, dice):
    """The adapter adds a chart to rulebook.dice and changes none of its numbers."""
    ours, theirs = zener.check_odds(target, dice), zener_dice.check_odds(target, dice)
    assert ours.probability == theirs.probability
    assert ours.breakdown == tuple(theirs.breakdown)
    assert sum(p for _, p in ours.distribution) == 1


def test_the_maximum_armour_miracle_figures():
    """Article, "Combat" (the armour discussion): target 0 on 1d6 … 4d6 is 1 in 36 … 1 in 1,679,616."""
    assert [zener.check_odds(0, n).probability for n in (1, 2, 3, 4)] == [
        Fraction(1, 36), Fraction(1, 1296), Fraction(1, 46656), Fraction(1, 1679616)]
    assert zener.check_odds(0, 3).distribution[0] == (6, Fraction(1, 46656))


def test_a_3d6_check_at_10_and_11():
    assert zener.check_odds(10).probability == Fraction(1, 2)
    assert zener.check_odds(11).probability == Fraction(5, 8)


def test_extra_dice_are_refused_unless_the_check_cannot_fail():
    with pytest.raises(ParamError) as caught:
        zener.check_odds(17, 3, 1)
    assert caught.value.field == "extra" and "cannot fail" in str(caught.value)
    with pytest.raises(ParamError) as caught:
        zener.check_odds(18, 3, 2)
    assert caught.value.field == "extra" and "at most 1" in str(caught.value)


def test_bounds():
    for bad in ({"target": -31}, {"target": 101}, {"target": 9, "dice": 0}, {"target": 9, "dice": 13}):
        with pytest.raises(ParamError):
            zener.RULE_SET.clean(bad)


def test_roll_uses_entered_faces_then_the_rng():
    roll = zener.roll_check(10, faces=[4, 4], rng=random.Random(5))
    assert roll.faces[:2] == (4, 4) and len(roll.faces) == 3
    assert [r["entered"] for r in roll.details["rolls"]] == [True, True, False]


def test_roll_matches_rulebook_dice_with_the_same_faces():
    ours = zener.roll_check(9, faces=[1, 1, 2])
    assert ours.success and ours.total == 4 and ours.details["margin"] == 5
    assert ours.details["critical"] is False  # one die is not a 1
    assert zener.roll_check(9, faces=[1, 1, 1]).details["critical"] is True


def test_a_miracle_roll_rolls_the_extra_dice():
    roll = zener.roll_check(1, 3, faces=[1, 1, 1, 2, 1])
    assert roll.details["miracle"] and roll.details["dice_rolled"] == 5 and roll.details["effective_target"] == 5
    assert not roll.success  # 6 > 5
    assert zener.roll_check(1, 3, faces=[1, 1, 1, 1, 1]).success


def test_extra_benefit_roll_keeps_the_lowest():
    roll = zener.roll_check(18, 3, 1, faces=[6, 1, 2, 3])
    assert roll.kept == (1, 2, 3) and roll.total == 6 and roll.details["effective_target"] == 16


def test_bad_faces_are_refused():
    with pytest.raises(RulesError, match="d6"):
        zener.roll_check(10, faces=[7])
    with pytest.raises(RulesError):
        zener.roll_check(10, faces=[0, 1, 1])
    with pytest.raises(RulesError, match="faces entered"):
        zener.roll_check(10, faces=[1, 1, 1, 1])


def test_seeded_rolls_repeat():
    assert zener.roll_check(11, rng=random.Random(3)) == zener.roll_check(11, rng=random.Random(3))
