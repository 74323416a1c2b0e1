"""Tests for rulebook.drugs: Stimutabs, GM-written drugs, and their phases as time passes."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulebook import RulesError
from rulebook.dice import EnteredDice
from rulebook.drugs import (
    DrugEffect,
    advance_effects,
    extra_end_per_use,
    format_changes,
    stat_modifiers,
    take_stimutabs,
)
from rulebook.tests.scripted import ScriptedRng


def stimutabs(*faces):
    return take_stimutabs(rng=ScriptedRng(*faces))


# --- Stimutabs ----------------------------------------------------------------------------


def test_stimutabs_boost_then_the_shakes():
    """Article, "Other Drugs and Medications": Stimutabs give +1d3 STR for 1d3 + 3 hours, then
    1d6 + 6 points off NIM, DEX and ACC (the shakes) for 60 × 1d6 / 4 minutes."""
    rng = ScriptedRng(2, 1, 1, 3)
    boost = take_stimutabs(rng=rng)
    assert rng.asked == [3, 3, 6, 6] and rng.done(), "d3 bonus, d3 hours, d6 points, d6 time"
    assert (boost.name, boost.phase, boost.stat_changes) == ("Stimutabs", "boost", {"STR": 2})
    assert boost.minutes_left == 4 * 60
    assert boost.hidden, "the players know the bonus, not how long it lasts"
    assert boost.end_per_use == 1
    assert boost.breakdown == [
        ("d3: STR bonus", 2),
        ("extra END per use of the boosted STR", 1),
        ("duration d3 (hidden)", 1),
        ("duration hours added to the d3 (hidden)", 3),
        ("duration (minutes, hidden)", 240),
    ]
    shakes = boost.next_phase
    assert (shakes.phase, shakes.hidden, shakes.end_per_use) == ("shakes", False, 0)
    assert shakes.stat_changes == {"NIM": -3, "DEX": -2, "ACC": -2}
    assert shakes.minutes_left == 45 and shakes.next_phase is None
    assert shakes.breakdown == [
        ("d6", 1),
        ("added to the d6", 6),
        ("points off NIM, DEX and ACC", 7),
        ("NIM loss (remainder to NIM, then DEX)", 3),
        ("DEX loss (remainder to NIM, then DEX)", 2),
        ("ACC loss (remainder to NIM, then DEX)", 2),
        ("d6 for the duration", 3),
        ("duration (minutes): 60 × d6 / 4", 45),
    ]


@pytest.mark.parametrize(
    "d6, split",
    [
        (1, {"NIM": -3, "DEX": -2, "ACC": -2}),
        (2, {"NIM": -3, "DEX": -3, "ACC": -2}),
        (3, {"NIM": -3, "DEX": -3, "ACC": -3}),
        (6, {"NIM": -4, "DEX": -4, "ACC": -4}),
        (5, {"NIM": -4, "DEX": -4, "ACC": -3}),
    ],
)
def test_shakes_split_evenly_remainder_to_nim_then_dex(d6, split):
    """Article, "Other Drugs and Medications": the shakes' points are "divided evenly"; the
    remainder goes to NIM first, then DEX (the project's reading)."""
    shakes = stimutabs(1, 1, d6, 1).next_phase
    assert shakes.stat_changes == split
    assert -sum(split.values()) == d6 + 6


def test_stimutabs_ranges_with_a_seeded_roller():
    rng = random.Random(11)
    for _ in range(200):
        boost = take_stimutabs(rng=rng)
        assert 1 <= boost.stat_changes["STR"] <= 3
        assert boost.minutes_left in (240, 300, 360)
        assert boost.next_phase.minutes_left in (15, 30, 45, 60, 75, 90)
        assert 7 <= -sum(boost.next_phase.stat_changes.values()) <= 12


def test_stimutabs_take_dice_entered_at_the_table():
    """Article, "Other Drugs and Medications": every die may be rolled at the table, in order."""
    dice = EnteredDice([3, 3, 6, 6], label="Stimutabs")
    boost = take_stimutabs(rng=dice)
    dice.check_all_used()
    assert boost.stat_changes == {"STR": 3} and boost.minutes_left == 6 * 60
    assert boost.next_phase.minutes_left == 90


# --- Time passing -------------------------------------------------------------------------


def test_the_boost_wears_off_into_the_shakes_and_the_shakes_pass():
    """Article, "Other Drugs and Medications": when the drug wears off the character has the
    shakes for 60 × 1d6 / 4 minutes; here 4 hours of +2 STR, then 45 minutes of shakes."""
    effects = (stimutabs(2, 1, 1, 3),)
    assert stat_modifiers(effects) == {"STR": 2}
    effects, notes = advance_effects(effects, 239)
    assert notes == [] and effects[0].minutes_left == 1 and stat_modifiers(effects) == {"STR": 2}
    effects, notes = advance_effects(effects, 11)
    assert notes == [
        (1, "Stimutabs wear off: the shakes begin (NIM −3, DEX −2, ACC −2) for 45 minutes")
    ]
    assert effects[0].phase == "shakes" and effects[0].minutes_left == 35, "10 minutes carried"
    assert stat_modifiers(effects) == {"NIM": -3, "DEX": -2, "ACC": -2}
    effects, notes = advance_effects(effects, 35)
    assert effects == () and notes == [(35, "The shakes from Stimutabs are over")]
    assert stat_modifiers(effects) == {}


def test_a_long_span_runs_through_both_phases_at_once():
    effects, notes = advance_effects((stimutabs(2, 1, 1, 3),), 8 * 60)
    assert effects == ()
    assert [minute for minute, _ in notes] == [240, 285]


def test_two_doses_add_up_and_notes_come_in_time_order():
    first, second = stimutabs(1, 3, 1, 1), stimutabs(3, 1, 6, 2)
    assert stat_modifiers((first, second)) == {"STR": 4}
    assert extra_end_per_use((first, second), "STR") == 2
    effects, notes = advance_effects((first, second), 5 * 60)
    assert [minute for minute, _ in notes] == [240, 270]
    assert "the shakes begin" in notes[0][1] and "are over" in notes[1][1]
    assert [(e.phase, e.minutes_left) for e in effects] == [("boost", 60)]
    # The second dose's shakes of 4 each are over; the first dose boosts STR by 1 for an hour.
    assert stat_modifiers(effects) == {"STR": 1}


def test_extra_end_only_for_a_stat_the_drug_raises():
    """Article, "Other Drugs and Medications": using the enhanced STR costs 1 additional END."""
    boost = stimutabs(2, 1, 1, 3)
    assert extra_end_per_use((boost,), "STR") == 1
    assert extra_end_per_use((boost,), "DEX") == 0
    shaking, _ = advance_effects((boost,), 240)
    assert extra_end_per_use(shaking, "STR") == 0
    with pytest.raises(RulesError):
        extra_end_per_use((boost,), "LUCK")


def test_advance_effects_refuses_bad_input():
    with pytest.raises(RulesError):
        advance_effects((stimutabs(1, 1, 1, 1),), -5)
    with pytest.raises(RulesError):
        advance_effects(({"name": "Stimutabs"},), 5)
    with pytest.raises(RulesError):
        advance_effects("Stimutabs", 5)


# --- Drugs a GM writes --------------------------------------------------------------------


def test_a_gm_written_drug_follows_the_rule_of_thumb():
    """Article, "Other Drugs and Medications": a gain in one stat, a loss in another that may
    be deferred until the gain wears off, the cost about twice the gain."""
    crash = DrugEffect("Focusol", "shakes", {"AWA": -4}, 120)
    focus = DrugEffect("Focusol", "boost", {"THEO": 2}, 60, next_phase=crash)
    assert stat_modifiers((focus,)) == {"THEO": 2}
    assert extra_end_per_use((focus,), "THEO") == 0
    effects, notes = advance_effects((focus,), 90)
    assert notes == [(60, "Focusol wears off: the shakes begin (AWA −4) for 120 minutes")]
    assert stat_modifiers(effects) == {"AWA": -4}


def test_a_hidden_next_phase_keeps_its_time_out_of_the_note():
    later = DrugEffect("Tonic", "boost", {"STR": 1}, 30, hidden=True)
    first = DrugEffect("Tonic", "shakes", {"STR": -1, "PERS": 1}, 10, next_phase=later)
    _, notes = advance_effects((first,), 10)
    assert notes == [(10, "The shakes from Tonic are over; a further boost begins (STR +1)")]


def test_a_phase_with_no_time_left_gives_way_at_once():
    shakes = DrugEffect("Stimutabs", "shakes", {"NIM": -1}, 15)
    spent = DrugEffect("Stimutabs", "boost", {"STR": 1}, 0, next_phase=shakes)
    assert stat_modifiers((spent,)) == {"NIM": -1}
    effects, notes = advance_effects((spent,), 0)
    assert effects == (shakes,) and notes[0][0] == 0


def test_drug_effects_are_checked():
    with pytest.raises(RulesError, match="Unknown stat"):
        DrugEffect("Bad", "boost", {"LUCK": 2}, 60)
    with pytest.raises(RulesError, match="at least 0"):
        DrugEffect("Bad", "boost", {"STR": 2}, -1)
    with pytest.raises(RulesError, match="phase"):
        DrugEffect("Bad", "crash", {"STR": 2}, 60)
    with pytest.raises(RulesError):
        DrugEffect("", "boost", {"STR": 2}, 60)
    with pytest.raises(RulesError):
        DrugEffect("Bad", "boost", {"STR": 1.5}, 60)
    with pytest.raises(RulesError):
        DrugEffect("Bad", "boost", {"STR": 2}, 60, hidden="yes")
    with pytest.raises(RulesError):
        DrugEffect("Bad", "boost", {"STR": 2}, 60, end_per_use=-1)
    with pytest.raises(RulesError):
        DrugEffect("Bad", "boost", {"STR": 2}, 60, next_phase={"phase": "shakes"})
    with pytest.raises(RulesError):
        DrugEffect("Bad", "boost", {"STR": 2}, 60, breakdown=[("d3", 2, 1)])
    tidy = DrugEffect(" Tonic ", "boost", {"DEX": 1, "STR": 0, "NIM": 2}, 5)
    assert tidy.name == "Tonic" and list(tidy.stat_changes.items()) == [("NIM", 2), ("DEX", 1)]
    assert format_changes(tidy.stat_changes) == "NIM +2, DEX +1"


# --- Storage ------------------------------------------------------------------------------


def test_a_dose_round_trips_through_json():
    boost = stimutabs(2, 1, 1, 3)
    stored = json.loads(json.dumps(boost.to_dict()))
    assert DrugEffect.from_dict(stored) == boost
    assert stored["next_phase"]["stat_changes"] == {"NIM": -3, "DEX": -2, "ACC": -2}
    assert stored["breakdown"][0] == ["d3: STR bonus", 2]
    later, _ = advance_effects((boost,), 250)
    assert DrugEffect.from_dict(json.loads(json.dumps(later[0].to_dict()))) == later[0]


@settings(max_examples=100, deadline=None)
@given(faces=st.tuples(st.integers(1, 3), st.integers(1, 3), st.integers(1, 6), st.integers(1, 6)),
       minutes=st.integers(0, 8 * 60))
def test_every_dose_round_trips_at_every_moment(faces, minutes):
    effects, _ = advance_effects((stimutabs(*faces),), minutes)
    for effect in effects:
        assert DrugEffect.from_dict(json.loads(json.dumps(effect.to_dict()))) == effect


@pytest.mark.parametrize(
    "change",
    [
        {"minutes_left": -3},
        {"minutes_left": "ten"},
        {"stat_changes": {"LUCK": 1}},
        {"stat_changes": [["STR", 1]]},
        {"phase": "crash"},
        {"hidden": 1},
        {"breakdown": "d3"},
        {"breakdown": [["d3"]]},
        {"breakdown": [[3, 2]]},
        {"next_phase": "shakes"},
        {"next_phase": {"name": "Stimutabs"}},
        {"dose": 2},
    ],
)
def test_from_dict_refuses_malformed_storage(change):
    stored = {**stimutabs(2, 1, 1, 3).to_dict(), **change}
    with pytest.raises(RulesError):
        DrugEffect.from_dict(stored)


def test_from_dict_refuses_missing_keys_and_non_mappings():
    stored = stimutabs(2, 1, 1, 3).to_dict()
    del stored["hidden"]
    with pytest.raises(RulesError, match="missing hidden"):
        DrugEffect.from_dict(stored)
    with pytest.raises(RulesError):
        DrugEffect.from_dict(["Stimutabs"])
