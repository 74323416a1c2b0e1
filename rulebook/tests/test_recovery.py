"""Tests for rulebook.recovery: the healing state, one-off recoveries, and what advance adds."""

import random

import pytest

from rulebook import RulesError
from rulebook.radiation import RadiationTrack, transition
from rulebook.recovery import (
    HealingState,
    advance,
    best_healing_ranks,
    end_after_skipped_rounds,
    shock_after_combat,
    shock_after_skipped_action,
    spend_end,
    suffer_transition,
    take_damage,
    undergo_therapy,
)
from rulebook.tests.scripted import ScriptedRng
from rulebook.therapies import Therapy, apply_therapy, roll_therapy


def healed_at(report, kind, stat=None):
    return [
        (h.at_minutes, h.amount)
        for h in report.healed
        if h.kind == kind and (stat is None or h.stat == stat)
    ]


# --- Shock --------------------------------------------------------------------------------


def test_rifle_example_skipped_action_recovers_a_third_of_the_shock():
    """Article, "Damage & Recovery", the rifle example: 8 shock, a missed action recovers 3."""
    state = take_damage(HealingState(), trauma=4, shock=8)
    after, report = shock_after_skipped_action(state)
    assert after.shock == 5
    assert report.healed[0].amount == 3
    assert report.healed[0].breakdown == [
        ("shock before the skipped action", 8),
        ("one third, rounded up", 3),
    ]


def test_advance_gives_the_end_of_combat_third_first():
    state = take_damage(HealingState(), shock=9)
    after, report = advance(state, hours=0.5, rest="none", con=12)
    assert healed_at(report, "shock") == [(0, 3)]
    assert after.shock == 6, "no rest, so no second third"


def test_shock_rest_time_uses_con_after_damage_and_is_never_negative():
    state = take_damage(HealingState(), shock=6, stat_damage={"CON": 4})
    _, report = advance(state, hours=1, rest="awake", con=14)
    assert healed_at(report, "shock") == [(0, 2), (30, 2)]
    _, report = advance(take_damage(HealingState(), shock=6), hours=0.5, rest="awake", con=45)
    assert healed_at(report, "shock") == [(0, 2), (0, 2)]


def test_shock_after_combat_only_once():
    state, _ = shock_after_combat(take_damage(HealingState(), shock=6))
    again, report = shock_after_combat(state)
    assert again == state and report.healed == [] and report.notes


# --- Healing ranks ------------------------------------------------------------------------


def test_healing_ranks_are_the_better_of_medic_and_equipment():
    assert best_healing_ranks(medic_skill_ranks=2, equipment_ranks=3) == 3
    assert best_healing_ranks(medic_skill_ranks=2) == 2
    with pytest.raises(RulesError):
        best_healing_ranks(medic_skill_ranks=-1)


# --- END ----------------------------------------------------------------------------------


def test_end_quick_d6_is_capped_and_comes_once_per_spending():
    state, report = advance(
        spend_end(HealingState(), 3), hours=1, rest="awake", con=12, rng=ScriptedRng(6)
    )
    assert healed_at(report, "END") == [(30, 3)] and state.end_spent == 0
    state = spend_end(HealingState(), 12)
    state, _ = end_after_skipped_rounds(state, rng=ScriptedRng(5))
    assert state.end_spent == 7
    again, report = end_after_skipped_rounds(state, rng=ScriptedRng())
    assert again == state and report.notes
    state, _ = end_after_skipped_rounds(spend_end(state, 2), rng=ScriptedRng(1))
    assert state.end_spent == 8


# --- Radiation ----------------------------------------------------------------------------


def test_transition_then_rest_runs_the_radiation_track():
    outcome = transition(con=20, category="2", transition_number=1, rng=ScriptedRng(6, 6, 6, 6, 4))
    state = suffer_transition(HealingState(), outcome)
    assert (state.trauma, state.shock, state.radiation.damage) == (10, 10, {"CON": 4})
    state, report = advance(state, hours=48, rest="comfortable", con=20, rng=random.Random(1))
    assert [(m, h) for m, h in healed_at(report, "radiation")] == [(1440, 4)]
    assert state.radiation.total == 0


def test_radiation_con_loss_lengthens_the_shock_rest():
    state = HealingState(shock=6, radiation=RadiationTrack(damage={"CON": 5}))
    _, report = advance(state, hours=1, rest="awake", con=20)
    assert healed_at(report, "shock") == [(0, 2), (25, 2)]


def test_a_therapy_holds_its_end_swap_back():
    """Article, "Radiation Damage": END taken instead of shock and trauma waits 4d6 hours."""
    rolled = roll_therapy(
        Therapy("kit", shock="2d6", trauma="2d6"), rng=ScriptedRng(1, 1, 4, 4, 3, 3, 1, 1, 1, 1)
    )
    outcome = apply_therapy(RadiationTrack(damage={"CON": 3}), rolled, as_end=3)
    state = undergo_therapy(HealingState(), outcome)
    assert state.end_lost == 6 and state.end_spent == 0 and (state.shock, state.trauma) == (5, 3)
    assert state.end_held == ((6, 4 * 60),)
    assert state.radiation == outcome.track


# --- Input checks ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "bad", [{"rest": "nap"}, {"hours": -1}, {"hours": 1 / 7}, {"healing_ranks": -1}, {"con": None}]
)
def test_bad_advance_input_is_refused(bad):
    args = {"hours": 1, "rest": "awake", "con": 12, **bad}
    with pytest.raises(RulesError):
        advance(HealingState(), **args)


def test_bad_healing_state_is_refused():
    with pytest.raises(RulesError):
        HealingState(trauma=-1)
    with pytest.raises(RulesError):
        HealingState(stat_damage={"LUCK": 1})
    with pytest.raises(RulesError):
        take_damage(HealingState(), stat_damage={"HP": 2})
    assert take_damage(HealingState(), stat_damage={"END": 2}).stat_damage == {"END": 2}
