"""Tests for rulebook.radiation: Zener Transition damage and the long-term recovery track."""

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulebook import RulesError
from rulebook.radiation import (
    RadiationTrack,
    advance_track,
    expose,
    heal_long_term_loss,
    next_transition_number,
    repeat_extra,
    track_step,
    transfer_long_term_loss,
    transition,
)
from rulebook.tests.scripted import ScriptedRng

FAIL_4D6 = (6, 6, 6, 6)
PASS_4D6 = (1, 1, 1, 1)


# --- Transitions --------------------------------------------------------------------------


@pytest.mark.parametrize("d6", range(1, 7))
def test_fourth_transition_category_1_adds_three(d6):
    """Article, "Radiation Damage": a 4th category-1 transition: ½d6+3 CON, 1d6+3 shock/trauma."""
    outcome = transition(con=20, category="1", transition_number=4, rng=ScriptedRng(*FAIL_4D6, d6))
    assert not outcome.saved
    assert outcome.repeat_extra == 3
    assert outcome.con_damage.amount == -(-d6 // 2) + 3
    assert outcome.shock.amount == d6 + 3
    assert outcome.trauma.amount == d6 + 3


@pytest.mark.parametrize("d6", range(1, 7))
def test_fifth_transition_category_1_adds_four(d6):
    """Article, "Radiation Damage": a 5th category-1 transition: ½d6+4 CON, 1d6+4 shock/trauma."""
    outcome = transition(con=20, category="1", transition_number=5, rng=ScriptedRng(*FAIL_4D6, d6))
    assert outcome.con_damage.amount == -(-d6 // 2) + 4
    assert outcome.shock.amount == outcome.trauma.amount == d6 + 4


def test_save_is_a_4d6_con_check_at_minus_15():
    outcome = transition(con=20, category="2", transition_number=1, rng=ScriptedRng(2, 1, 1, 1, 3))
    assert outcome.save_breakdown == [
        ("CON", 20),
        ("Zener Transition: +15 on the roll, −15 on the target", -15),
        ("target on 4d6", 5),
    ]
    assert outcome.save.dice == 4 and outcome.save.total == 5 and outcome.saved


def test_successful_save_costs_one_con_and_d3_shock_and_trauma():
    outcome = transition(con=20, category="3B", transition_number=1, rng=ScriptedRng(*PASS_4D6, 2))
    assert outcome.saved
    assert (outcome.con_damage.amount, outcome.shock.amount, outcome.trauma.amount) == (1, 2, 2)


def test_successful_save_still_takes_the_repeat_extra():
    outcome = transition(con=20, category="1", transition_number=3, rng=ScriptedRng(*PASS_4D6, 3))
    assert (outcome.con_damage.amount, outcome.shock.amount) == (1 + 2, 3 + 2)


def test_category_2_is_d6_con_and_d6_plus_6():
    outcome = transition(con=20, category=2, transition_number=1, rng=ScriptedRng(*FAIL_4D6, 4))
    assert (outcome.con_damage.amount, outcome.shock.amount, outcome.trauma.amount) == (4, 10, 10)


def test_category_3a_is_2d6_con_and_half_that_rounded_up():
    outcome = transition(
        con=20, category="3a", transition_number=1, rng=ScriptedRng(*FAIL_4D6, 3, 4)
    )
    assert outcome.category == "3A"
    assert (outcome.con_damage.amount, outcome.shock.amount, outcome.trauma.amount) == (7, 4, 4)


def test_category_3b_is_d6_con_and_2d6_plus_3():
    outcome = transition(
        con=20, category="3B", transition_number=2, rng=ScriptedRng(*FAIL_4D6, 5, 6, 2)
    )
    assert outcome.con_damage.amount == 5 + 1
    assert outcome.shock.amount == outcome.trauma.amount == 8 + 3 + 1
    assert outcome.shock.breakdown == [
        ("2d6", 8),
        ("category 3B", 3),
        ("repeat-transition extra", 1),
        ("shock", 12),
    ]


def test_low_con_save_uses_the_miracle_rule():
    outcome = transition(con=14, category="1", transition_number=1, rng=random.Random(3))
    assert outcome.save.target == -1
    assert outcome.save.dice == 9 and outcome.save.effective_target == 9


def test_therapy_reduction_cuts_the_repeat_extra_but_never_below_zero():
    assert repeat_extra(4, 2)[0] == 1
    assert repeat_extra(4, 5)[0] == 0
    outcome = transition(
        con=20, category="2", transition_number=4, extra_reduction=2, rng=ScriptedRng(*FAIL_4D6, 1)
    )
    assert outcome.con_damage.amount == 2 and outcome.shock.amount == 8


@pytest.mark.parametrize(
    "bad", [{"category": "4"}, {"transition_number": 0}, {"extra_reduction": -1}, {"con": "12"}]
)
def test_bad_transition_input_is_refused(bad):
    args = {"con": 12, "category": "1", "transition_number": 1, **bad}
    with pytest.raises(RulesError):
        transition(**args)


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    con=st.integers(0, 40),
    category=st.sampled_from(["1", "2", "3A", "3B"]),
    number=st.integers(1, 12),
    reduction=st.integers(0, 15),
)
def test_transition_damage_bounds(seed, con, category, number, reduction):
    outcome = transition(
        con=con,
        category=category,
        transition_number=number,
        extra_reduction=reduction,
        rng=random.Random(seed),
    )
    extra = max(number - 1 - reduction, 0)
    assert outcome.repeat_extra == extra
    assert outcome.shock.amount == outcome.trauma.amount
    low, high = {"1": (1, 3), "2": (1, 6), "3A": (2, 12), "3B": (1, 6)}[category]
    if outcome.saved:
        low = high = 1
    assert low + extra <= outcome.con_damage.amount <= high + extra


# --- The recovery track -------------------------------------------------------------------


def test_track_steps_follow_the_article():
    """Article, "Radiation Damage": 6 after 24 h, then 4, 2, 1, then 1 after 2, 3, 4 more days."""
    assert [(track_step(i).points, track_step(i).period_hours) for i in range(7)] == [
        (6, 24),
        (4, 24),
        (2, 24),
        (1, 24),
        (1, 48),
        (1, 72),
        (1, 96),
    ]


def _rest_days(track, days):
    healed_by_day = []
    for _ in range(days):
        result = advance_track(track, hours=24, restful_sleep_hours=8)
        track = result.track
        healed_by_day.append(sum(result.healed.values()))
    return track, healed_by_day


def test_a_well_rested_character_follows_the_track():
    track = RadiationTrack(damage={"CON": 20})
    track, healed = _rest_days(track, 13)
    assert healed == [6, 4, 2, 1, 0, 1, 0, 0, 1, 0, 0, 0, 1]
    assert track.damage == {"CON": 4}


def test_step_waits_until_the_period_includes_enough_sleep():
    track = RadiationTrack(damage={"CON": 10})
    short = advance_track(track, hours=24, restful_sleep_hours=5)
    assert short.healed == {} and short.track.step == 0
    later = advance_track(short.track, hours=2, restful_sleep_hours=2)
    assert later.healed == {"CON": 6}
    assert later.steps[0].at_hours == 1


def test_nine_hours_of_rough_rest_also_count():
    track = RadiationTrack(damage={"CON": 10})
    assert advance_track(track, hours=24, rough_rest_hours=8).healed == {}
    assert advance_track(track, hours=24, rough_rest_hours=9).healed == {"CON": 6}
    assert advance_track(track, hours=24, restful_sleep_hours=5, rough_rest_hours=4).healed == {
        "CON": 6
    }


def test_healing_stops_at_zero_and_the_track_goes_idle():
    result = advance_track(RadiationTrack(damage={"CON": 3}), hours=48, restful_sleep_hours=16)
    assert result.healed == {"CON": 3} and result.track.total == 0
    assert result.track.step_hours == 0


def test_new_exposure_restarts_the_track():
    """Article, "Radiation Damage": a fresh transition starts the 6-4-2-1 sequence again."""
    track, _ = _rest_days(RadiationTrack(damage={"CON": 20}), 4)
    assert track.step == 4
    outcome = transition(
        con=20,
        category="2",
        transition_number=next_transition_number(track),
        rng=ScriptedRng(*FAIL_4D6, 3),
    )
    exposed = expose(track, outcome)
    assert exposed.step == 0 and exposed.step_hours == 0 and exposed.transitions == 1
    assert exposed.damage == {"CON": 7 + 3}


def test_expose_refuses_an_outcome_with_the_wrong_number():
    outcome = transition(con=20, category="1", transition_number=3, rng=ScriptedRng(*PASS_4D6, 1))
    with pytest.raises(RulesError):
        expose(RadiationTrack(), outcome)


def test_transferred_loss_heals_like_con_loss():
    """Article, "Radiation Damage": the GM may move long-term CON loss to another stat."""
    track = transfer_long_term_loss(RadiationTrack(damage={"CON": 8}), points=5, to_stat="STR")
    assert track.damage == {"CON": 3, "STR": 5}
    healed = advance_track(track, hours=24, restful_sleep_hours=8).healed
    assert sum(healed.values()) == 6 and healed["STR"] == 4 and healed["CON"] == 2
    with pytest.raises(RulesError):
        transfer_long_term_loss(track, points=4, to_stat="NIM")
    with pytest.raises(RulesError):
        transfer_long_term_loss(track, points=1, to_stat="HP")


@settings(max_examples=100, deadline=None)
@given(damage=st.integers(1, 30), cuts=st.lists(st.integers(0, 24 * 60), min_size=1, max_size=5))
def test_track_split_into_homogeneous_stretches_matches_one_call(damage, cuts):
    """Sleeping through a span in several calls heals exactly what one call heals."""
    total = 24 * 60 * 3
    points = sorted({0, total, *[c % total for c in cuts]})
    whole = advance_track(
        RadiationTrack(damage={"CON": damage}),
        hours=Fraction(total, 60),
        restful_sleep_hours=Fraction(total, 60),
    ).track
    track = RadiationTrack(damage={"CON": damage})
    for start, end in zip(points, points[1:]):
        track = advance_track(
            track, hours=Fraction(end - start, 60), restful_sleep_hours=Fraction(end - start, 60)
        ).track
    assert track == whole


def test_track_refuses_more_sleep_than_time():
    with pytest.raises(RulesError):
        advance_track(
            RadiationTrack(damage={"CON": 1}), hours=5, restful_sleep_hours=4, rough_rest_hours=2
        )


def test_long_term_loss_heals_largest_first_and_con_wins_ties():
    """Moved loss heals as CON loss would: a point at a time, largest first, CON on a tie."""
    healed, left = heal_long_term_loss({"STR": 2, "CON": 2, "AWA": 1}, 3)
    assert healed == {"CON": 2, "STR": 1} and left == {"STR": 1, "AWA": 1}
    assert heal_long_term_loss({"STR": 1, "CON": 1}, 5) == ({"CON": 1, "STR": 1}, {})
