"""Tests for rulebook.systems.success_check: 2d10 + bonus against a TN, and PT/DR armour."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from rulebook import RulesError
from rulebook.systems import ParamError
from rulebook.systems import success_check as sc
from rulebook.systems.tests.oracle import distribution, enumerate_rolls


def final_margin(pair, bonus, tn):
    margin = sum(pair) + bonus - tn
    if pair[0] != pair[1]:
        return margin
    return margin + 5 if margin >= 0 else margin - 5


def oracle_kept(faces, advantage, edge, ruling, bonus, tn):
    """The two dice that count, read straight from the chapter."""
    if len(faces) == 2:
        return faces
    pairs = [tuple(f for j, f in enumerate(faces) if j != i) for i in range(3)]
    chooser = edge or ruling
    if not chooser:
        ordered = sorted(faces, reverse=advantage > 0)
        return tuple(ordered[:2])
    score = [(final_margin(pair, bonus, tn), sum(pair)) for pair in pairs]
    roller_picks = edge or advantage > 0
    return pairs[score.index(max(score) if roller_picks else min(score))]


def dice_count(advantage, edge):
    if edge:
        return 2 if advantage < 0 else 3
    return 3 if advantage else 2


GRID = list(product((-5, 0, 7, 15), (5, 12, 20, 27), (-1, 0, 1), (0, 1), (0, 1)))


@pytest.mark.parametrize("bonus,tn,advantage,edge,ruling", GRID)
def test_check_odds_equals_brute_force_including_the_distribution(bonus, tn, advantage, edge, ruling):
    totals: Counter = Counter()
    triumphs = despairs = 0
    for faces in enumerate_rolls(dice_count(advantage, edge), range(1, 11)):
        kept = oracle_kept(faces, advantage, edge, ruling, bonus, tn)
        total = sum(kept) + bonus
        totals[total] += 1
        triumphs += kept[0] == kept[1] and total >= tn
        despairs += kept[0] == kept[1] and total < tn
    whole = sum(totals.values())
    odds = sc.check_odds(bonus, tn, advantage, edge, advantage_drop=ruling)
    assert odds.distribution == distribution(totals)
    assert odds.probability == sum((p for t, p in distribution(totals) if t >= tn), Fraction(0))
    lines = dict(odds.breakdown)
    assert lines["chance of Triumph"] == Fraction(triumphs, whole)
    assert lines["chance of Despair"] == Fraction(despairs, whole)
    assert sum(v for k, v in lines.items() if k.startswith("chance of a ")) == 1


# --- The chapter's figures -------------------------------------------------------------------
def test_the_2d10_probability_breakdown():
    """"Understanding the probability curve of 2d10": 5+ ≈ 94 %, 10+ ≈ 64 %, 15+ ≈ 21 %, 20 ≈ 1 %."""
    assert sc.check_odds(0, 5).probability == Fraction(94, 100)
    assert sc.check_odds(0, 10).probability == Fraction(64, 100)
    assert sc.check_odds(0, 15).probability == Fraction(21, 100)
    assert sc.check_odds(0, 20).probability == Fraction(1, 100)


def test_2d10_plus_5_against_tn_15_is_exactly_16_in_25():
    assert sc.check_odds(5, 15).probability == Fraction(16, 25)


def test_moderate_tn_20_for_a_professional_and_a_trained_person():
    """"Difficulty levels": +15 against 20 succeeds about 95 % (exactly 94 %); +10 about 2/3 (64 %)."""
    assert sc.check_odds(15, 20).probability == Fraction(47, 50)
    assert sc.check_odds(10, 20).probability == Fraction(16, 25)


def mean(odds):
    return sum(outcome * p for outcome, p in odds.distribution)


def test_advantage_against_a_flat_plus_2():
    """"How Advantage and Disadvantage Affect Rolls": 2d10 + 2 averages 13 over 4–22; Advantage
    averages "around 13.5" (exactly 13.475) and keeps the 2–20 floor and ceiling."""
    flat = sc.check_odds(2, 15)
    assert mean(flat) == 13 and flat.distribution[0][0] == 4 and flat.distribution[-1][0] == 22
    advantage = sc.check_odds(0, 15, advantage=1)
    assert mean(advantage) == Fraction(13475, 1000)
    assert advantage.distribution[0][0] == 2 and advantage.distribution[-1][0] == 20
    disadvantage = sc.check_odds(0, 15, advantage=-1)
    assert mean(disadvantage) == 22 - Fraction(13475, 1000)


def test_the_advantage_example_7_4_3():
    """Example "Tricking someone": Advantage rolls 7, 4, 3; dropping the 3 leaves 11 + bonus."""
    roll = sc.roll_check(6, 15, advantage=1, dice=[7, 4, 3])
    assert roll.kept == (7, 4) and roll.details["dropped"] == 3 and roll.total == 17


def test_the_disadvantage_example_8_5_2():
    """Example: Disadvantage rolls 8, 5, 2; the 8 goes, leaving 7 + bonus."""
    roll = sc.roll_check(6, 15, advantage=-1, dice=[8, 5, 2])
    assert roll.kept == (5, 2) and roll.details["dropped"] == 8 and roll.total == 13 and not roll.success


def test_triumph_adds_5_and_despair_takes_5():
    triumph = sc.roll_check(10, 15, dice=[5, 5])
    assert triumph.details["margin"] == 5 and triumph.details["margin_of_success"] == 10
    assert triumph.details["triumph"] and triumph.details["band"] == "complete success"
    assert triumph.details["attack_dice"] == 2
    despair = sc.roll_check(5, 15, dice=[3, 3])
    assert despair.details["margin"] == -4 and despair.details["margin_of_success"] == -9
    assert despair.details["despair"] and despair.details["band"] == "significant failure"
    assert despair.details["next_check"] == -1


def test_edge_keeps_a_double_for_a_triumph():
    """"Maximizing Triumph": with Edge the roller keeps 9, 9 (margin 0 + 5) over 9, 10 (margin 1)."""
    with_edge = sc.roll_check(0, 18, edge=1, dice=[9, 9, 10])
    assert with_edge.kept == (9, 9) and with_edge.details["triumph"] and with_edge.details["margin_of_success"] == 5
    plain_advantage = sc.roll_check(0, 18, advantage=1, dice=[9, 9, 10])
    assert plain_advantage.kept == (9, 10) and not plain_advantage.details["triumph"]


def test_edge_avoids_a_despair_when_the_roll_is_doomed():
    plain_advantage = sc.roll_check(0, 15, advantage=1, dice=[3, 3, 1])
    assert plain_advantage.details["despair"] and plain_advantage.details["margin_of_success"] == -14
    with_edge = sc.roll_check(0, 15, edge=1, dice=[3, 3, 1])
    assert not with_edge.details["despair"] and with_edge.details["margin_of_success"] == -11


def test_edge_cancels_disadvantage_and_never_adds_a_fourth_die():
    assert sc.roll_mode(-1, 1) == sc.PLAIN
    assert len(sc.roll_check(5, 15, advantage=-1, edge=1, rng=random.Random(2)).faces) == 2
    assert len(sc.roll_check(5, 15, advantage=1, edge=1, rng=random.Random(2)).faces) == 3
    assert sc.check_odds(5, 15, 1, 1).probability == sc.check_odds(5, 15, 0, 1).probability


def test_the_roller_may_name_the_die_dropped():
    roll = sc.roll_check(0, 18, edge=1, drop=1, dice=[9, 9, 10])
    assert roll.kept == (9, 10) and roll.details["dropped"] == 9
    with pytest.raises(ParamError) as caught:
        sc.roll_check(0, 18, advantage=1, drop=1, dice=[9, 9, 10])
    assert caught.value.field == "drop"
    # Under the "chosen" ruling the roller picks without spending Edge.
    assert sc.roll_check(0, 18, advantage=1, drop=3, advantage_drop=1, dice=[9, 9, 10]).kept == (9, 9)


def test_the_chosen_ruling_lets_the_gm_drop_the_worst_for_the_roller():
    roll = sc.roll_check(0, 10, advantage=-1, advantage_drop=1, dice=[5, 5, 4])
    # Keeping 5, 5 succeeds with a Triumph (+5); the GM keeps 5, 4 instead: 9, a marginal failure.
    assert roll.kept == (5, 4) and not roll.success


@pytest.mark.parametrize("margin,band", [
    (14, "complete success"), (10, "complete success"), (9, "significant success"), (5, "significant success"),
    (4, "marginal success"), (0, "marginal success"), (-1, "marginal failure"), (-5, "marginal failure"),
    (-6, "significant failure"), (-10, "significant failure"), (-11, "complete failure"),
])
def test_margin_bands(margin, band):
    assert sc.margin_band(margin).name == band


# --- Damage and armour ----------------------------------------------------------------------
def test_the_pistol_against_light_armour_example():
    """"Armor system": 2d6 + 4 against PT 15 / DR 30 needs 11 on 2d6 to get through; a 12 makes
    16, of which the armour soaks 30 % (4 points), leaving 12."""
    odds = sc.damage_odds(*sc.WEAPONS["light pistol"], pt=15, dr=30)
    assert dict(odds.breakdown)["chance to penetrate"] == Fraction(3, 36)
    roll = sc.roll_damage(2, 4, 15, 30, dice=[6, 6])
    assert roll.total == 16 and roll.details["reduction"] == 4 and roll.details["taken"] == 12
    assert sc.armour_damage(16, 15, 30).taken == 12


def test_damage_below_the_threshold_is_stopped():
    assert sc.armour_damage(14, 15, 30).taken == 0 and not sc.armour_damage(14, 15, 30).penetrated
    hit = sc.armour_damage(15, 15, 30)
    assert hit.penetrated and hit.reduction == 4 and hit.taken == 11


@pytest.mark.parametrize("weapon_dice,modifier,pt,dr,extra", [
    (2, 4, 15, 30, 0), (3, 5, 25, 40, 0), (2, 4, 15, 20, 1), (1, 2, 0, 0, 2), (3, 0, 12, 100, 0)])
def test_damage_odds_equal_brute_force(weapon_dice, modifier, pt, dr, extra):
    taken: Counter = Counter()
    for faces in enumerate_rolls(weapon_dice + extra, range(1, 7)):
        damage = sum(faces) + modifier
        taken[0 if damage < pt else damage - damage * dr // 100] += 1
    odds = sc.damage_odds(weapon_dice, modifier, pt, dr, extra)
    assert odds.distribution == distribution(taken)


def test_extra_damage_dice_from_the_band_and_edge():
    assert [sc.attack_extra_dice(m) for m in (4, 5, 9, 10)] == [0, 1, 1, 2]
    assert sc.attack_extra_dice(10, edge=1) == 3


def test_edge_spending_recovery_and_burn():
    assert sc.edge_spend(3, 5) == 2
    with pytest.raises(RulesError):
        sc.edge_spend(0, 5)
    assert sc.edge_rest(1, 7) == 2 and sc.edge_rest(7, 7) == 7 and sc.edge_rest(1, 7, long=True) == 7
    assert sc.edge_burn(2, 7) == (1, 6)
    with pytest.raises(RulesError):
        sc.edge_burn(0, 7)


# --- Rolling -----------------------------------------------------------------------------------
def test_seeded_rolls_repeat():
    assert sc.roll_check(8, 20, 1, rng=random.Random(4)) == sc.roll_check(8, 20, 1, rng=random.Random(4))


def test_bad_faces_are_refused():
    with pytest.raises(RulesError, match="d10"):
        sc.roll_check(8, 20, dice=[11, 2])
    with pytest.raises(RulesError, match="faces entered"):
        sc.roll_check(8, 20, dice=[1, 2, 3])
    with pytest.raises(RulesError, match="d6"):
        sc.roll_damage(2, 4, dice=[7, 1])
