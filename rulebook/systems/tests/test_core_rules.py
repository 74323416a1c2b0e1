"""Tests for rulebook.systems.core_rules: the ARC, reactions and the order of declarations."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from rulebook import RulesError
from rulebook.systems import ParamError
from rulebook.systems import core_rules as cr
from rulebook.systems.tests.oracle import distribution


def oracle_arcs(ks, us, es, other, es_dice):
    """Count the ARC over every face of the ES die, read from V.7."""
    arcs: Counter = Counter()
    for face in range(1, cr.ES_DICE[es_dice][es] + 1):
        arcs[ks + us + other + (face if face <= es else es - face)] += 1
    return arcs


@pytest.mark.parametrize("ks,us,es,threshold,other,es_dice",
                         list(product((1, 7), (4, 10), range(1, 11), (5, 9, 15), (-2, 3), (0, 1))))
def test_check_odds_equals_brute_force_including_the_distribution(ks, us, es, threshold, other, es_dice):
    arcs = oracle_arcs(ks, us, es, other, es_dice)
    odds = cr.check_odds(ks, us, es, threshold, other, es_dice=es_dice)
    assert odds.distribution == distribution(arcs)
    assert odds.probability == Fraction(sum(w for arc, w in arcs.items() if arc > threshold), sum(arcs.values()))


def test_the_tamper_example():
    """V.7: ES Tamper 5 rolls a d8; Control 7 + Accuracy 4 + 5 = 16 beats the average threshold 9.
    Had the die shown 8, the adjustment is 5 − 8 = −3 and the ARC 8 fails."""
    assert cr.es_die(5) == 8 and cr.es_die(5, es_dice=1) == 8
    good = cr.roll_check(7, 4, 5, dice=[5])
    assert good.total == 16 and good.success and good.details["adjustment"] == 5
    bad = cr.roll_check(7, 4, 5, dice=[8])
    assert bad.total == 8 and not bad.success and bad.details["adjustment"] == -3
    assert cr.check_odds(7, 4, 5).probability == Fraction(3, 4)


def test_a_tie_with_the_threshold_fails():
    """V.8: success only on a result higher than the threshold."""
    roll = cr.roll_check(5, 2, 5, 9, dice=[2])
    assert roll.total == 9 and not roll.success
    assert 9 not in cr.check_odds(5, 2, 5, 9).success


def test_the_adjustment_runs_from_the_min_to_the_es_score():
    assert [cr.es_adjustment(5, face) for face in range(1, 9)] == [1, 2, 3, 4, 5, -1, -2, -3]
    for es_dice in (0, 1):
        for es in range(1, 11):
            sides = cr.es_die(es, es_dice)
            adjustments = {cr.es_adjustment(es, face) for face in range(1, sides + 1)}
            assert max(adjustments) == min(es, sides) and min(adjustments) == min(1, es - sides)


def test_the_dice_tables_of_the_rulings():
    assert [cr.es_die(es) for es in range(1, 11)] == [4, 4, 6, 6, 8, 8, 10, 10, 12, 12]
    assert [cr.es_die(es, 1) for es in range(1, 11)] == [4, 6, 6, 8, 8, 10, 10, 12, 12, 12]


def test_other_adjustments_add_up():
    """V.9: higher position, exalted and a helpful spell make +3."""
    assert cr.roll_check(7, 4, 5, other=3, dice=[8]).total == 11
    assert cr.check_odds(7, 4, 5, other=3).probability > cr.check_odds(7, 4, 5).probability


# --- Opposed checks ----------------------------------------------------------------------------
@pytest.mark.parametrize("first,second,es_dice", [
    (cr.Performer(7, 4, 5), cr.Performer(6, 5, 5), 0),
    (cr.Performer(7, 4, 5), cr.Performer(6, 5, 5), 1),
    (cr.Performer(3, 3, 1), cr.Performer(2, 2, 10, 1), 0),
    (cr.Performer(5, 5, 9, -1), cr.Performer(5, 5, 9), 1),
])
def test_opposed_odds_equal_brute_force(first, second, es_dice):
    a, b = (oracle_arcs(p.ks, p.us, p.es, p.other, es_dice) for p in (first, second))
    diffs: Counter = Counter()
    for (x, wx), (y, wy) in product(a.items(), b.items()):
        diffs[x - y] += wx * wy
    odds = cr.opposed_odds(first, second, es_dice=es_dice)
    assert odds.distribution == distribution(diffs)
    assert odds.success == frozenset(d for d in diffs if d > 0)


def test_an_opposed_tie_fails_the_first_side():
    same = cr.Performer(5, 5, 5)
    roll = cr.roll_opposed(same, same, dice=[3, 3])
    assert roll.details["first_arc"] == roll.details["second_arc"] and not roll.success
    assert cr.opposed_odds(same, same).probability < Fraction(1, 2)


def test_performer_scores_are_checked():
    with pytest.raises(ParamError) as caught:
        cr.Performer(11, 4, 5)
    assert caught.value.field == "ks"


# --- Reactions ---------------------------------------------------------------------------------
def test_reaction_checks():
    """V.5: a d10 at or below SOM succeeds; SOM 10 (Exalted) always does, SOM 1 (Panicked) only on 1."""
    assert cr.reaction_odds(10) == 1 and cr.reaction_odds(1) == Fraction(1, 10)
    assert cr.reaction_odds(6) == Fraction(3, 5)
    assert all(cr.reaction_check(10, dice=[face]).success for face in range(1, 11))
    assert [cr.reaction_check(1, dice=[face]).success for face in (1, 2, 10)] == [True, False, False]
    failed = cr.reaction_check(4, dice=[5])
    assert not failed.success and failed.details["loses_turn"]


# --- Declarations -------------------------------------------------------------------------------
def test_declarations_run_from_the_lowest_som():
    """V.6: the four-character example declares PC1, NPC4, PC2, PC3; scores chosen to give that order."""
    order = cr.declaration_order([
        cr.Declarant("PC2", 6, 5, 5), cr.Declarant("PC3", 8, 5, 5),
        cr.Declarant("NPC4", 4, 5, 5), cr.Declarant("PC1", 3, 5, 5),
    ])
    assert order.order == ("PC1", "NPC4", "PC2", "PC3") and order.tie_rolls == ()


def test_ties_fall_to_empathy_then_perception_then_a_d10():
    people = [cr.Declarant("a", 5, 6, 5), cr.Declarant("b", 5, 4, 9), cr.Declarant("c", 5, 4, 2),
              cr.Declarant("d", 5, 4, 2)]
    order = cr.declaration_order(people, dice=[8, 3])
    assert order.order == ("d", "c", "b", "a")
    assert order.tie_rolls == (("c", (8,)), ("d", (3,)))


def test_a_tied_d10_is_rolled_again():
    people = [cr.Declarant("x", 5, 5, 5), cr.Declarant("y", 5, 5, 5)]
    order = cr.declaration_order(people, dice=[4, 4, 9, 2])
    assert order.order == ("y", "x") and dict(order.tie_rolls) == {"x": (4, 9), "y": (4, 2)}


def test_the_ambush_example_the_lock_picker_sits_out():
    """V.6: three guards declare; the fourth, surprised at the lock, sits the first turn out."""
    group = [cr.Declarant("guard 1", 3, 5, 5), cr.Declarant("guard 2", 4, 5, 5), cr.Declarant("guard 3", 6, 5, 5),
             cr.Declarant("picker", 2, 5, 5, aware=False)]
    first = cr.declaration_order(group)
    assert first.order == ("guard 1", "guard 2", "guard 3") and first.sitting_out == ("picker",)


def test_declarations_refuse_duplicate_names_and_unused_dice():
    with pytest.raises(RulesError):
        cr.declaration_order([cr.Declarant("a", 5, 5, 5), cr.Declarant("a", 4, 5, 5)])
    with pytest.raises(RulesError, match="faces entered"):
        cr.declaration_order([cr.Declarant("a", 5, 5, 5)], dice=[3])


# --- Tables that are rulings ---------------------------------------------------------------------
def test_actions_per_turn_and_named_thresholds():
    assert [cr.actions_per_turn(es) for es in (1, 4, 5, 9, 10)] == [1, 1, 2, 2, 3]
    assert cr.actions_per_turn(6, actions_step=3) == 3
    assert [cr.threshold_for(level) for level in cr.THRESHOLD_LEVELS] == [3, 6, 9, 12, 15, 18]
    assert cr.threshold_for("average", threshold_step=5) == 9 and cr.threshold_for("hard", threshold_step=2) == 11
    with pytest.raises(RulesError):
        cr.threshold_for("impossible")


# --- Rolling -----------------------------------------------------------------------------------
def test_seeded_rolls_repeat_and_faces_are_checked():
    assert cr.roll_check(7, 4, 5, rng=random.Random(6)) == cr.roll_check(7, 4, 5, rng=random.Random(6))
    with pytest.raises(RulesError, match="d8"):
        cr.roll_check(7, 4, 5, dice=[9])
    with pytest.raises(RulesError, match="d10"):
        cr.reaction_check(5, dice=[11])
