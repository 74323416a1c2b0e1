"""Tests for rulebook.therapies: anti-radiation therapies and what they do to the track."""

import random
from fractions import Fraction

import pytest

from rulebook import RulesError
from rulebook.radiation import RadiationTrack, next_transition_number, repeat_extra
from rulebook.tests.scripted import ScriptedRng
from rulebook.therapies import Therapy, apply_therapy, roll_therapy


def test_therapy_end_swap_example():
    """Article, "Radiation Damage": reducing trauma by 4 also reduces shock by 4, costing 8 END."""
    therapy = Therapy(
        "Prussian blue",
        con_healed=2,
        extra_reduction="d6",
        track_steps_back="d3",
        shock="2d6",
        trauma="2d6",
    )
    rolled = roll_therapy(therapy, rng=ScriptedRng(4, 2, 5, 4, 6, 3, 2, 3, 4, 5))
    assert (rolled.extra_reduction.amount, rolled.track_steps_back.amount) == (4, 2)
    assert (rolled.shock.amount, rolled.trauma.amount, rolled.end_delay_hours.amount) == (9, 9, 14)
    track = RadiationTrack(damage={"CON": 10}, step=5, step_hours=Fraction(30), transitions=3)
    outcome = apply_therapy(track, rolled, as_end=4)
    assert (outcome.shock, outcome.trauma, outcome.end_loss, outcome.end_delay_hours) == (
        5,
        5,
        8,
        14,
    )
    assert outcome.con_healed == {"CON": 2} and outcome.track.damage == {"CON": 8}
    assert outcome.track.step == 3 and outcome.track.step_hours == 0
    assert outcome.track.extra_reduction == 4
    assert (
        repeat_extra(next_transition_number(outcome.track), outcome.track.extra_reduction)[0] == 0
    )


def test_therapy_end_swap_is_capped_at_half_of_each():
    therapy = Therapy("field kit", shock="2d6", trauma="d3")
    rolled = roll_therapy(therapy, rng=ScriptedRng(1, 1, 6, 6, 3, 1, 1, 1, 1))
    assert rolled.trauma.amount == 3
    with pytest.raises(RulesError):
        apply_therapy(RadiationTrack(), rolled, as_end=2)
    assert apply_therapy(RadiationTrack(), rolled, as_end=1).end_loss == 2


def test_therapy_cannot_move_the_track_before_its_start():
    therapy = Therapy("strong", track_steps_back="3d6")
    rolled = roll_therapy(therapy, rng=random.Random(5))
    track = RadiationTrack(damage={"CON": 4}, step=1, step_hours=Fraction(5))
    assert apply_therapy(track, rolled).track.step == 0


def test_therapy_definitions_are_checked():
    with pytest.raises(RulesError):
        Therapy("too strong", con_healed=4)
    with pytest.raises(RulesError):
        Therapy("too harsh", trauma="3d6")
    with pytest.raises(RulesError):
        Therapy("gibberish", shock="lots")
    assert Therapy("gentle", extra_reduction="0", track_steps_back="2d6", shock="3d6", trauma="2d6")
