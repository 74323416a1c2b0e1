"""Tests for rulebook.languages: aspects, starting languages, eras, immersion, spot/listen."""

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulebook import RulesError
from rulebook.languages import (
    ASPECTS,
    ImmersionProgress,
    aspects_from_purchase,
    effective_ranks,
    immerse,
    language_check_modifier,
    language_check_target,
    plan_starting_languages,
    purchase_cost,
    raise_aspect,
    spot_check_target,
    starting_language_budget,
)
from rulebook.tests.scripted import ScriptedRng

PASS = (1, 1, 1, 1)
FAIL = (6, 6, 6, 6)
SPANISH_1920S = {"spoken": 3, "heard": 2, "written": 1, "read": 1}


# --- Aspects and purchase -----------------------------------------------------------------


def test_buying_spoken_gives_the_spanish_example_ranks():
    """Article, "Languages", 1920s Spanish: spoken 3 gives heard 2, written 1, read 1."""
    assert aspects_from_purchase("spoken", 3) == SPANISH_1920S


def test_pairs_and_floor_at_zero():
    assert aspects_from_purchase("read", 2) == {"spoken": 0, "heard": 0, "written": 1, "read": 2}
    assert aspects_from_purchase("heard", 1) == {"spoken": 0, "heard": 1, "written": 0, "read": 0}
    with pytest.raises(RulesError):
        aspects_from_purchase("sung", 1)
    with pytest.raises(RulesError):
        aspects_from_purchase("spoken", 4)


def test_raising_an_aspect_pulls_the_others_up():
    ranks = raise_aspect(SPANISH_1920S, "written")
    assert ranks == {"spoken": 3, "heard": 2, "written": 2, "read": 1}
    assert raise_aspect(ranks, "read") == {"spoken": 3, "heard": 2, "written": 2, "read": 2}
    with pytest.raises(RulesError):
        raise_aspect(ranks, "spoken")


def test_purchase_costs():
    """Article, "Starting Languages": 1 point for 0 ranks in all, +1 per rank raised."""
    assert purchase_cost({}) == 1
    assert purchase_cost(SPANISH_1920S) == 4
    assert purchase_cost({"spoken": 3, "heard": 3, "written": 3, "read": 3}) == 1 + 3 + 1 + 2 + 1
    assert purchase_cost(SPANISH_1920S, start=aspects_from_purchase("spoken", 1)) == 2
    with pytest.raises(RulesError):
        purchase_cost({"spoken": 3})
    with pytest.raises(RulesError):
        purchase_cost({}, start=SPANISH_1920S)


@settings(max_examples=100, deadline=None)
@given(aspect=st.sampled_from(ASPECTS), rank=st.integers(0, 3))
def test_a_single_purchase_costs_one_plus_its_rank(aspect, rank):
    assert purchase_cost(aspects_from_purchase(aspect, rank)) == 1 + rank


# --- Starting languages -------------------------------------------------------------------


def test_starting_budget():
    budget = starting_language_budget(
        intelligence=14, lan=11, native_given_up={"written": 1, "read": 2}
    )
    assert budget.free_languages == 2
    assert budget.points == 11 + 6
    assert budget.native_ranks == {"spoken": 3, "heard": 3, "written": 2, "read": 1}


def test_plan_starting_languages_prices_free_and_bought_languages():
    plan = plan_starting_languages(
        intelligence=10,
        lan=6,
        native="English",
        native_given_up={"read": 1},
        free={"Latin": "read"},
        bought={
            "Latin": {"spoken": 0, "heard": 0, "written": 1, "read": 2},
            "Spanish": SPANISH_1920S,
        },
    )
    assert plan.languages["English"]["read"] == 2
    assert plan.languages["Latin"] == {"spoken": 0, "heard": 0, "written": 1, "read": 2}
    assert plan.points_spent == 1 + 4 and plan.points_left == 8 - 5


def test_plan_refuses_overspending_and_too_many_free_languages():
    with pytest.raises(RulesError):
        plan_starting_languages(
            intelligence=9, lan=3, native="English", bought={"Spanish": SPANISH_1920S}
        )
    with pytest.raises(RulesError):
        plan_starting_languages(
            intelligence=9, lan=3, native="English", free={"A": "spoken", "B": "read"}
        )
    with pytest.raises(RulesError):
        plan_starting_languages(
            intelligence=9, lan=9, native="English", bought={"English": SPANISH_1920S}
        )


# --- Era distance -------------------------------------------------------------------------


def test_spanish_in_wwii_spain():
    """Article, "Languages", 1920s Spanish in WWII Spain: −0.25 makes 3/2/1/1 into 2/1/1/1."""
    result = effective_ranks(SPANISH_1920S, 0.25)
    assert result.ranks == {"spoken": 2, "heard": 1, "written": 1, "read": 1}
    assert result.era_loss == Fraction(1, 4)


def test_spanish_in_1960s_cuba():
    """Article, "Languages", 1960s Cuba: two eras away but little change, so the same ranks."""
    assert effective_ranks(SPANISH_1920S, [0.25, 0]).ranks == {
        "spoken": 2,
        "heard": 1,
        "written": 1,
        "read": 1,
    }


def test_a_held_language_never_drops_below_one_and_zero_stays_zero():
    ranks = {"spoken": 1, "heard": 0, "written": 2, "read": 3}
    assert effective_ranks(ranks, [0.5, 0.5, 0.5, 0.5]).ranks == {
        "spoken": 1,
        "heard": 0,
        "written": 1,
        "read": 1,
    }
    with pytest.raises(RulesError):
        effective_ranks(ranks, 0.75)


@settings(max_examples=200, deadline=None)
@given(
    ranks=st.fixed_dictionaries({a: st.integers(0, 3) for a in ASPECTS}),
    steps=st.lists(st.fractions(0, Fraction(1, 2)), max_size=6),
)
def test_era_loss_never_raises_a_rank_or_drops_a_held_one_to_zero(ranks, steps):
    result = effective_ranks(ranks, steps).ranks
    for aspect in ASPECTS:
        assert result[aspect] <= ranks[aspect]
        assert (result[aspect] >= 1) == (ranks[aspect] >= 1)


# --- Language rolls -----------------------------------------------------------------------


def test_language_check_modifiers_are_target_side():
    """Article, "In-game language usage": 0 ranks +15 … 3 ranks +0 on the roll (RULINGS 1)."""
    assert [language_check_modifier(r) for r in range(4)] == [-15, -10, -5, 0]
    with pytest.raises(RulesError):
        language_check_modifier(4)
    target = language_check_target(lan=14, rank=1, related_languages=1)
    assert target.total == 14 - 10 + 2 and target.dice == 4
    assert sum(value for _, value in target.breakdown) == target.total


# --- Immersion ----------------------------------------------------------------------------


def test_french_example_era_adjustment_then_the_twelve_hour_interval():
    """Article, "In-game language acquisition & improvement": 16th-century French in 1812 Russia."""
    progress = ImmersionProgress(ranks=aspects_from_purchase("heard", 1), aspect="heard", era_gap=1)
    assert progress.interval() == ("era adjustment", 6)
    failed = immerse(progress, hours=6, lan=20, rng=ScriptedRng(*FAIL))
    assert [c.breakdown[1] for c in failed.checks] == [("era adjustment (LAN check at +15)", -15)]
    assert failed.checks[0].breakdown[-1] == ("target on 4d6", 5)
    assert (
        failed.progress.era_gap == 1 and failed.progress.hours == 0
    ), "the 6-hour interval restarts"
    adjusted = immerse(failed.progress, hours=6, lan=20, rng=ScriptedRng(*PASS))
    assert adjusted.progress.era_gap == 0
    assert adjusted.progress.interval() == ("heard rank 2", 12)
    ranked = immerse(adjusted.progress, hours=12, lan=20, rng=ScriptedRng(*PASS))
    assert ranked.progress.ranks["heard"] == 2
    assert ranked.checks[0].breakdown[-1] == ("target on 4d6", 20)


def test_french_example_alternative_new_language_with_a_related_bonus():
    """Article, the French example: 18th-century French afresh, +2 for the related language."""
    progress = ImmersionProgress(related_languages=1)
    result = immerse(progress, hours=3, lan=12, rng=ScriptedRng(3, 3, 4, 4))
    assert result.checks[0].breakdown[-1] == ("target on 4d6", 14)
    assert result.progress.ranks == {"spoken": 0, "heard": 0, "written": 0, "read": 0}


def test_immersion_from_nothing_to_colloquial_takes_45_hours_when_every_check_passes():
    result = immerse(ImmersionProgress(), hours=100, lan=18, rng=ScriptedRng(*PASS * 4))
    assert [c.at_hours for c in result.checks] == [3, 9, 21, 45]
    assert result.progress.ranks == aspects_from_purchase("spoken", 3)
    assert result.progress.complete


def test_immersion_keeps_partial_hours_across_calls():
    first = immerse(ImmersionProgress(), hours=2, lan=18, rng=ScriptedRng())
    assert first.checks == [] and first.progress.hours == 2
    second = immerse(first.progress, hours=Fraction(3, 2), lan=18, rng=ScriptedRng(*PASS))
    assert second.checks[0].at_hours == 1 and second.progress.hours == Fraction(1, 2)


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 10**6), hours=st.integers(0, 200), lan=st.integers(3, 24))
def test_immersion_never_loses_ranks(seed, hours, lan):
    start = ImmersionProgress(ranks=aspects_from_purchase("spoken", 1), era_gap=1)
    result = immerse(start, hours=hours, lan=lan, rng=random.Random(seed))
    assert result.progress.era_gap <= 1
    assert all(result.progress.ranks[a] >= start.ranks[a] for a in ASPECTS)
    gained = result.progress.ranks["spoken"] - 1 + (1 - result.progress.era_gap)
    assert gained == sum(c.success for c in result.checks)


# --- Spot / listen ------------------------------------------------------------------------


def test_spot_check_target():
    """Article, "Spot/Listen Checks": AWA on 4d6 with range/size and up to +5 for looking."""
    target = spot_check_target(16, range_size_modifier=-3, actively_looking=5)
    assert target.total == 18 and target.dice == 4
    assert target.breakdown == [("AWA", 16), ("range and size", -3), ("actively looking", 5),
                                ("GM modifier", 0)]
    with pytest.raises(RulesError):
        spot_check_target(16, actively_looking=6)
