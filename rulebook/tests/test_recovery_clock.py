"""Tests for rulebook.recovery_clock: healing over time, through ``advance``, its one door.

The clock holds the timed rules of "Damage & Recovery": the later thirds of shock, END by the
hour, trauma by the day, stat damage by the night and the day, and the day model itself.
"""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulebook import RulesError
from rulebook.radiation import RadiationTrack
from rulebook.recovery import (
    HealingState,
    advance,
    shock_after_combat,
    spend_end,
    take_damage,
)
from rulebook.recovery_clock import (
    DAY_MINUTES,
    NIGHT_MINUTES,
    day_segments,
    stats_to_heal,
)
from rulebook.tests.scripted import ScriptedRng
from rulebook.tests.test_recovery import healed_at

# --- The day model -----------------------------------------------------------------------


def test_day_segments_sleep_first_then_rest_awake_and_continue_the_day():
    state = HealingState()
    assert day_segments(state, "comfortable", 30 * 60) == (
        [("sleep", NIGHT_MINUTES), ("awake", 16 * 60), ("sleep", NIGHT_MINUTES - 2 * 60)],
        6 * 60,
    )
    midway = HealingState(stretch_rest="rough", stretch_minutes=6 * 60)
    assert day_segments(midway, "rough", 4 * 60) == ([("sleep", 120), ("awake", 120)], 10 * 60)
    assert day_segments(midway, "comfortable", 60)[0] == [("sleep", 60)], "a new kind, a new day"
    assert day_segments(state, "awake", DAY_MINUTES)[0] == [("awake", DAY_MINUTES)]
    assert day_segments(state, "none", 90)[0] == [("active", 90)]


def test_stats_to_heal_takes_the_players_choice_then_the_largest_damage():
    damage = {"STR": 2, "NIM": 4, "DEX": 2, "AWA": 1}
    assert stats_to_heal(damage, 2, ()) == ["NIM", "STR"]  # STR before DEX: sheet order
    assert stats_to_heal(damage, 2, ("AWA", "LAN")) == ["AWA", "NIM"]


def test_shock_comes_back_in_thirds_then_after_four_hours_of_sleep():
    state, report = shock_after_combat(take_damage(HealingState(), shock=8))
    assert state.shock == 5 and report.total("shock") == 3
    state, report = advance(state, hours=1, rest="awake", con=15)
    assert healed_at(report, "shock") == [(25, 3)]
    assert state.shock == 2
    state, report = advance(state, hours=6, rest="awake", con=15)
    assert report.total("shock") == 0, "resting awake is not sleep"
    state, report = advance(state, hours=4, rest="comfortable", con=15)
    assert healed_at(report, "shock") == [(240, 2)] and state.shock == 0


def test_trauma_heals_a_third_plus_ranks_then_the_daily_rate():
    state = take_damage(HealingState(), trauma=10)
    state, report = advance(state, hours=24 * 4, rest="comfortable", healing_ranks=2, con=12)
    assert healed_at(report, "trauma") == [(1440, 4 + 2), (2880, 2), (4320, 2)]
    assert state.trauma == 0
    first = report.healed[0]
    assert first.breakdown == [
        ("trauma taken since the wound", 10),
        ("one third, rounded up", 4),
        ("healing ranks", 2),
        ("healed (at most the trauma left)", 6),
    ]


def test_trauma_without_care_heals_one_a_day_after_the_first():
    state = take_damage(HealingState(), trauma=10)
    state, report = advance(state, hours=24 * 3, rest="rough", con=12)
    assert [a for _, a in healed_at(report, "trauma")] == [4, 1, 1]
    assert state.trauma == 4 and state.days_rested == 3


def test_one_healing_rank_adds_nothing_after_the_first_day():
    state = take_damage(HealingState(), trauma=12)
    _, report = advance(state, hours=48, rest="comfortable", healing_ranks=1, con=12)
    assert [a for _, a in healed_at(report, "trauma")] == [5, 1]


def test_no_rest_heals_no_trauma():
    state = take_damage(HealingState(), trauma=12)
    after, report = advance(state, hours=72, rest="none", con=12)
    assert report.total("trauma") == 0 and after.trauma == 12


def test_a_fresh_wound_gets_its_own_first_day():
    state = take_damage(HealingState(), trauma=9)
    state, _ = advance(state, hours=48, rest="comfortable", con=12)
    assert state.trauma == 9 - 3 - 1
    state = take_damage(state, trauma=6)
    state, report = advance(state, hours=24, rest="comfortable", con=12)
    assert report.total("trauma") == 2 and state.trauma == 5 + 6 - 2


def test_end_d6_after_half_an_hour_then_one_an_hour_awake():
    state = spend_end(HealingState(), 10)
    state, report = advance(state, hours=3, rest="awake", con=12, rng=ScriptedRng(4))
    assert healed_at(report, "END") == [(30, 4), (90, 1), (150, 1)]
    assert state.end_spent == 4


def test_end_one_per_half_hour_asleep():
    state = spend_end(HealingState(), 10)
    state, report = advance(state, hours=2, rest="comfortable", con=12, rng=ScriptedRng(2))
    assert healed_at(report, "END") == [(30, 2), (60, 1), (90, 1), (120, 1)]


def test_comfortable_night_heals_half_of_the_largest_half_of_the_stats():
    state = take_damage(HealingState(), stat_damage={"STR": 3, "RES": 5, "DEX": 1, "NIM": 2})
    state, report = advance(state, hours=8, rest="comfortable", con=12)
    assert [(h.stat, h.amount) for h in report.healed if h.kind == "stat"] == [
        ("RES", 3),
        ("STR", 2),
    ]
    assert state.stat_damage == {"STR": 1, "RES": 2, "DEX": 1, "NIM": 2}
    assert state.stat_budget == 3


def test_rough_night_heals_a_quarter_of_at_least_one_stat():
    state = take_damage(HealingState(), stat_damage={"STR": 3, "RES": 5, "DEX": 1})
    state, report = advance(state, hours=8, rest="rough", con=12)
    assert [(h.stat, h.amount) for h in report.healed if h.kind == "stat"] == [("RES", 2)]


def test_player_may_choose_which_stats_heal():
    state = take_damage(HealingState(), stat_damage={"STR": 3, "RES": 5})
    state, report = advance(state, hours=8, rest="comfortable", con=12, stat_choice=["STR"])
    assert [(h.stat, h.amount) for h in report.healed if h.kind == "stat"] == [("STR", 2)]
    with pytest.raises(RulesError):
        advance(state, hours=1, rest="awake", con=12, stat_choice=["LUCK"])


def test_stat_damage_heals_half_the_remainder_while_trauma_heals_then_waits():
    state = take_damage(HealingState(), trauma=30, stat_damage={"STR": 4, "NIM": 4})
    state, report = advance(state, hours=24 * 5, rest="comfortable", con=12)
    stats = [(h.at_minutes // 1440, h.stat, h.amount) for h in report.healed if h.kind == "stat"]
    # Night: STR 4 → 2, remainder 6, half of it (3) may heal while trauma heals.
    # Day 3: STR and NIM tie at 2 and STR comes first on the sheet.
    assert stats == [(0, "STR", 2), (1, "NIM", 1), (2, "NIM", 1), (3, "STR", 1)]
    assert state.stat_damage == {"STR": 1, "NIM": 2} and state.trauma > 0
    assert any("only once trauma" in text for _, text in report.notes)


def test_remaining_stat_damage_heals_once_trauma_is_gone():
    state = take_damage(HealingState(), trauma=3, stat_damage={"STR": 6})
    state, report = advance(state, hours=24 * 4, rest="comfortable", con=12)
    stats = [(h.at_minutes // 1440, h.amount) for h in report.healed if h.kind == "stat"]
    # Night 6 → 3, so 2 may heal while trauma heals (days 1 and 2). Day 3 began with 1 trauma
    # and the allowance spent: nothing. Day 4 began free of trauma.
    assert stats == [(0, 3), (1, 1), (2, 1), (4, 1)]
    assert state.trauma == 0 and state.stat_damage == {}


def test_medical_bonus_goes_to_more_stats_first_or_as_the_player_says():
    wounded = take_damage(
        HealingState(), trauma=0, stat_damage={"STR": 8, "NIM": 8, "DEX": 8, "ACC": 8}
    )
    night, _ = advance(wounded, hours=8, rest="comfortable", con=12)
    assert night.stat_damage == {"STR": 4, "NIM": 4, "DEX": 8, "ACC": 8}
    # Three ranks: two more stats cover all four, the third rank adds a point to each.
    _, report = advance(night, hours=16, rest="comfortable", con=12, healing_ranks=3)
    assert sorted((h.stat, h.amount) for h in report.healed if h.kind == "stat") == [
        ("ACC", 2),
        ("DEX", 2),
        ("NIM", 2),
        ("STR", 2),
    ]
    night2, _ = advance(wounded, hours=8, rest="comfortable", con=12)
    # All three ranks on points: the two largest damages heal 4 each.
    _, report = advance(
        night2, hours=16, rest="comfortable", con=12, healing_ranks=3, medical_bonus_points=3
    )
    assert sorted((h.stat, h.amount) for h in report.healed if h.kind == "stat") == [
        ("ACC", 4),
        ("DEX", 4),
    ]
    with pytest.raises(RulesError):
        advance(
            night2, hours=1, rest="comfortable", con=12, healing_ranks=1, medical_bonus_points=2
        )


def test_awake_rest_alone_does_not_start_stat_healing():
    state = take_damage(HealingState(), stat_damage={"STR": 2})
    after, report = advance(state, hours=48, rest="awake", con=12)
    assert report.total("stat") == 0 and after.stat_damage == {"STR": 2}


def test_day_model_sleeps_first_and_continues_across_calls():
    state = take_damage(HealingState(), stat_damage={"STR": 2})
    half, report = advance(state, hours=4, rest="comfortable", con=12)
    assert report.timeline == [
        ("minutes asleep", 240),
        ("minutes resting awake", 0),
        ("minutes without rest", 0),
    ]
    assert report.total("stat") == 0
    done, report = advance(half, hours=6, rest="comfortable", con=12)
    assert healed_at(report, "stat", "STR") == [(240, 1)]
    assert report.timeline[:2] == [("minutes asleep", 240), ("minutes resting awake", 120)]


def test_end_held_back_by_a_therapy_recovers_after_its_delay():
    """Article, "Radiation Damage": the END swap comes back only after the 4d6 hours."""
    state = HealingState(end_held=((6, 4 * 60),))
    state, report = advance(state, hours=4, rest="awake", con=12, rng=ScriptedRng())
    assert report.total("END") == 0 and state.end_spent == 6 and state.end_held == ()
    assert report.notes[-1] == (240, "6 END held back by a therapy starts to recover.")
    state, report = advance(state, hours=1, rest="awake", con=12, rng=ScriptedRng(2))
    assert healed_at(report, "END") == [(30, 2)]


# --- Properties ---------------------------------------------------------------------------

wounds = st.builds(
    lambda t, s, e, dmg, rad: spend_end(
        take_damage(
            HealingState(radiation=RadiationTrack(damage={"CON": rad})),
            trauma=t,
            shock=s,
            stat_damage=dmg,
        ),
        e,
    ),
    st.integers(0, 30),
    st.integers(0, 30),
    st.integers(0, 20),
    st.dictionaries(
        st.sampled_from(["STR", "CON", "NIM", "DEX", "AWA", "END"]), st.integers(1, 6), max_size=4
    ),
    st.integers(0, 20),
)


@settings(max_examples=150, deadline=None)
@given(
    state=wounds,
    rest=st.sampled_from(["comfortable", "rough", "awake", "none"]),
    cuts=st.lists(st.integers(0, 5 * 24 * 60), max_size=4),
    seed=st.integers(0, 1000),
    ranks=st.integers(0, 3),
)
def test_splitting_time_into_calls_changes_nothing(state, rest, cuts, seed, ranks):
    """The same rest in several calls heals exactly what one call heals, at the same moments."""
    total = 5 * 24 * 60
    whole, whole_report = advance(
        state, hours=total / 60, rest=rest, healing_ranks=ranks, con=14, rng=random.Random(seed)
    )
    rng, split, healed = random.Random(seed), state, []
    points = sorted({0, total, *cuts})
    for start, end in zip(points, points[1:]):
        split, report = advance(
            split, hours=(end - start) / 60, rest=rest, healing_ranks=ranks, con=14, rng=rng
        )
        healed += [(h.at_minutes + start, h.kind, h.stat, h.amount) for h in report.healed]
    assert split == whole
    assert sorted(healed) == sorted(
        (h.at_minutes, h.kind, h.stat, h.amount) for h in whole_report.healed
    )


@settings(max_examples=150, deadline=None)
@given(
    state=wounds,
    rest=st.sampled_from(["comfortable", "rough", "awake", "none"]),
    hours=st.integers(0, 24 * 20),
    seed=st.integers(0, 1000),
)
def test_healing_accounts_for_every_point_and_never_overshoots(state, rest, hours, seed):
    after, report = advance(state, hours=hours, rest=rest, con=14, rng=random.Random(seed))
    assert after.trauma == state.trauma - report.total("trauma") >= 0
    assert after.shock == state.shock - report.total("shock") >= 0
    assert after.end_spent == state.end_spent - report.total("END") >= 0
    assert sum(after.stat_damage.values()) == sum(state.stat_damage.values()) - report.total("stat")
    assert after.radiation.total == state.radiation.total - report.total("radiation")
    if rest == "none":
        assert report.total("trauma") == report.total("END") == report.total("stat") == 0


# --- Hyperbaric chamber ---------------------------------------------------------------------


def test_hyperbaric_chamber_triples_trauma_healing_capped_at_what_is_left():
    """Article, "Other Medical Treatments": a hyperbaric chamber heals trauma up to 3-fold."""
    state = take_damage(HealingState(), trauma=30)
    state, report = advance(state, hours=24, rest="comfortable", con=12)
    assert healed_at(report, "trauma") == [(1440, 10)], "the first day outside the chamber"
    state, report = advance(state, hours=48, rest="comfortable", con=12, recovery_factor=3)
    assert healed_at(report, "trauma") == [(1440, 3), (2880, 3)]
    assert report.healed[0].breakdown == [
        ("a further day of rest", 1),
        ("healing ranks − 1 (min 0)", 0),
        ("hyperbaric chamber ×", 3),
        ("healed (at most the trauma left)", 3),
    ]
    assert state.trauma == 14

    fresh = take_damage(HealingState(), trauma=10)
    _, report = advance(fresh, hours=24, rest="comfortable", healing_ranks=2, con=12,
                        recovery_factor=3)
    assert report.healed[0].breakdown == [
        ("trauma taken since the wound", 10),
        ("one third, rounded up", 4),
        ("healing ranks", 2),
        ("hyperbaric chamber ×", 3),
        ("healed (at most the trauma left)", 10),
    ]


def test_hyperbaric_chamber_multiplies_stat_healing_and_the_allowance_still_caps():
    """Article, "Other Medical Treatments": some stat losses heal 3-fold in a hyperbaric chamber.

    The stat-damage example of docs/rules.md (STR 4, NIM 4, 30 trauma, comfortable rest) in the
    chamber: the night's 2 becomes 6, capped at STR's 4; the daily 1 becomes 3, capped by the
    allowance of 2 while trauma heals, then by what is left once trauma is gone.
    """
    state = take_damage(HealingState(), trauma=30, stat_damage={"STR": 4, "NIM": 4})
    state, report = advance(state, hours=24 * 3, rest="comfortable", con=12, recovery_factor=3)
    stats = [(h.at_minutes, h.stat, h.amount) for h in report.healed if h.kind == "stat"]
    assert stats == [(480, "STR", 4), (1440, "NIM", 2), (2880, "NIM", 2)]
    assert healed_at(report, "trauma") == [(1440, 30)]
    night, daily = (h for h in report.healed if h.kind == "stat" and h.at_minutes < 2880)
    assert night.breakdown == [
        ("damaged stats", 2),
        ("stats healed: 1/2, rounded down (min 1)", 1),
        ("STR damage", 4),
        ("1/2, rounded up", 2),
        ("hyperbaric chamber ×", 3),
        ("STR healed (at most the damage)", 4),
    ]
    assert daily.breakdown[-3:] == [
        ("hyperbaric chamber ×", 3),
        ("still allowed while trauma heals", 2),
        ("NIM healed", 2),
    ]
    assert state.stat_damage == {} and state.trauma == 0


def test_hyperbaric_chamber_leaves_shock_end_and_the_radiation_track_alone():
    """Article, "Other Medical Treatments": only trauma and some stat losses heal faster."""
    state = spend_end(
        take_damage(
            HealingState(radiation=RadiationTrack(damage={"CON": 8})),
            trauma=12,
            shock=9,
            stat_damage={"DEX": 4},
        ),
        10,
    )
    plain, plain_report = advance(state, hours=72, rest="rough", con=14, rng=random.Random(4))
    chamber, chamber_report = advance(
        state, hours=72, rest="rough", con=14, rng=random.Random(4), recovery_factor=3
    )
    for kind in ("shock", "END", "radiation"):
        assert healed_at(chamber_report, kind) == healed_at(plain_report, kind)
    assert chamber_report.total("trauma") > plain_report.total("trauma")
    assert chamber_report.total("stat") > plain_report.total("stat")
    assert (chamber.shock, chamber.end_spent, chamber.radiation) == (
        plain.shock,
        plain.end_spent,
        plain.radiation,
    )


def test_recovery_factor_one_is_the_ordinary_rate():
    state = take_damage(HealingState(), trauma=20, stat_damage={"STR": 5, "ACC": 3})
    assert advance(state, hours=96, rest="rough", con=12, recovery_factor=1) == advance(
        state, hours=96, rest="rough", con=12
    )


@pytest.mark.parametrize("bad", [0, 4, -3, 1.5, True, "3", None])
def test_recovery_factor_must_be_a_whole_number_from_one_to_three(bad):
    with pytest.raises(RulesError, match="recovery_factor"):
        advance(HealingState(trauma=3), hours=24, rest="comfortable", con=12,
                recovery_factor=bad)


@settings(max_examples=100, deadline=None)
@given(
    state=wounds,
    rest=st.sampled_from(["comfortable", "rough", "awake", "none"]),
    cuts=st.lists(st.integers(0, 5 * 24 * 60), max_size=3),
    seed=st.integers(0, 1000),
    factor=st.integers(1, 3),
)
def test_the_chamber_splits_across_calls_and_never_overshoots(state, rest, cuts, seed, factor):
    total = 5 * 24 * 60
    whole, whole_report = advance(
        state, hours=total / 60, rest=rest, con=14, rng=random.Random(seed),
        recovery_factor=factor,
    )
    assert whole.trauma == state.trauma - whole_report.total("trauma") >= 0
    assert sum(whole.stat_damage.values()) == (
        sum(state.stat_damage.values()) - whole_report.total("stat")
    )
    rng, split = random.Random(seed), state
    points = sorted({0, total, *cuts})
    for start, end in zip(points, points[1:]):
        split, _ = advance(
            split, hours=(end - start) / 60, rest=rest, con=14, rng=rng, recovery_factor=factor
        )
    assert split == whole
