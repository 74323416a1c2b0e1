"""Tests for rulebook.tables: the look-ups that read the universal tables, and their modifiers."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulebook import RulesError
from rulebook.tables import (
    AIMING_CAPS_SECONDS,
    SUPPRESSION_FIRE_MODIFIER,
    aiming_bonus,
    as_fraction,
    assistants_bonus,
    delicacy_index,
    delicacy_metres,
    distance_index,
    distance_metres,
    extra_time_modifier,
    load_weight,
    lookup,
    range_adjustment_step,
    range_size_adjustment,
    range_size_modifier,
    range_threshold,
    reaction_save_modifier,
    scaling_index,
    time_index,
    time_multiplier,
    weight_index,
    weight_kg,
)
from rulebook.tests.test_table_data import PRINTED_ASSISTANTS

F = Fraction


def test_table_summary_base_values():
    """Article, "Table Summary": weight 10 = 30 kg, distance 0 = 1 m, size 0 = 1 m², 10 = 1000 m²,
    delicacy 0 = 1 cm, scaling 0 = ×1."""
    assert weight_kg(10) == 30
    assert distance_metres(0) == 1
    assert lookup("target_size", index=0).value == 1 and lookup("target_size", index=10).value == 1000
    assert delicacy_metres(0) == F(1, 100)
    assert lookup("scaling", index=0).value == 1


def test_lookup_rejects_bad_requests():
    with pytest.raises(RulesError, match="Unknown table"):
        lookup("karma", index=0)
    with pytest.raises(RulesError, match="exactly one"):
        lookup("weight")
    with pytest.raises(RulesError, match="exactly one"):
        lookup("weight", index=1, value=3)
    with pytest.raises(RulesError):
        lookup("scaling", index=11)
    with pytest.raises(RulesError):
        lookup("target_size", index=26)
    with pytest.raises(RulesError):
        lookup("target_size", value=F(1, 1000))


def test_lookup_by_value_uses_the_row_reached():
    assert lookup("distance", value=2.4).index == 3
    assert lookup("target_size", value=3).index == 1
    assert lookup("time", value=4).index == 2
    assert lookup("assistants", value=5).index == 3
    assert lookup("scaling", value=5000).index == 3


def test_lookup_past_the_rows_follows_the_progression():
    row = lookup("distance", index=40)
    assert (row.value, row.derived, row.label) == (F(10_000), True, "")
    assert lookup("weight", index=44).value == 880
    assert lookup("time", index=16).value == 10_000  # the time chart ends at 13 (RULINGS §8)
    assert lookup("assistants", index=17).value == 151


# --- Time chart ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("ratio", "index"),
    [(0, -6), (0.05, -6), (0.1, -5), (0.5, -3), (0.75, -1), (1, 0), (1.4, 0), (2, 2), (4, 2), (4.99, 2),
     (5, 3), (17, 4), (600, 9), (10_000, 13), (20_000, 13), (10**9, 13)],
)
def test_time_index_takes_the_largest_multiplier_reached(ratio, index):
    """RULINGS section 5: the largest index whose multiplier ≤ the ratio (x < 0.1 → −6)."""
    assert time_index(ratio) == index


def test_time_multiplier_and_index_round_trip():
    for index in range(-5, 14):
        assert time_index(time_multiplier(index)) == index
    assert time_multiplier(-6) == 0 and time_multiplier(-9) == 0


def test_past_the_last_row_the_time_chart_reads_as_that_row():
    """RULINGS §8: "A time index above 13 reads as row 13": ×10,000 or more, never extrapolated."""
    assert [time_multiplier(index) for index in (13, 14, 16, 40)] == [10_000] * 4


def test_time_index_rejects_a_negative_ratio():
    with pytest.raises(RulesError):
        time_index(-1)


# --- Micro-time ----------------------------------------------------------------------------
def test_reaction_save_250_ms():
    """Article, "Micro-Time": 250 ms / 60 rounds to ×4, below ×5 so +2, less 10: −8."""
    assert reaction_save_modifier(250) == -8


def test_reaction_save_1000_ms():
    """Article, "Micro-Time": 1000 ms / 60 rounds to ×17, below ×20 so +4, less 10: −6."""
    assert reaction_save_modifier(1000) == -6


@pytest.mark.parametrize(("ms", "modifier"), [(0, -16), (29, -16), (30, -10), (120, -8), (300, -7), (3000, -4)])
def test_reaction_save_rounds_half_up(ms, modifier):
    assert reaction_save_modifier(ms) == modifier


# --- Distance and weight -------------------------------------------------------------------
@pytest.mark.parametrize(
    ("metres", "index"),
    [(0.16, -8), (0.13, -9), (0.1, -10), (0.015, -19), (1, 0), (1.99, 2), (2, 3), (2.4, 3), (100, 20),
     (5000, 37), (6499, 37), (6500, 38), (10_000, 40), (10**6, 60)],
)
def test_distance_index(metres, index):
    assert distance_index(metres) == index


def test_distance_progression_past_the_rows():
    """Article, "Table Summary": ×10 per 10 steps, past both ends of the printed rows."""
    assert distance_metres(38) == 6500
    assert distance_metres(47) == 50_000
    assert distance_metres(-9) == F(13, 100)
    assert distance_metres(-18) == F(16, 1000)


@pytest.mark.parametrize(
    ("kg", "index"),
    [(1.5, -24), (1.55, -24), (3.9, -12), (4, -11), (5, -8), (11, -1), (12, 0), (30, 10), (440, 37),
     (479, 37), (480, 38), (0.75, -31), (0.7, -32)],
)
def test_weight_index(kg, index):
    assert weight_index(kg) == index


def test_weight_progression_past_the_rows():
    """Article, "Table Summary": ×2 weight per 7 steps."""
    assert weight_kg(38) == 2 * weight_kg(31) == 480
    assert weight_kg(44) == 880
    assert weight_kg(-31) == F(3, 4)
    assert weight_kg(-25) == weight_kg(-18) / 2


@given(index=st.integers(-80, 120))
def test_distance_and_weight_round_trip(index):
    assert distance_index(distance_metres(index)) == index
    assert weight_index(weight_kg(index)) == index
    assert distance_metres(index) < distance_metres(index + 1)
    assert weight_kg(index) < weight_kg(index + 1)


@given(value=st.floats(min_value=1e-6, max_value=1e9, allow_nan=False))
def test_look_ups_land_on_the_row_reached(value):
    amount = as_fraction(value)
    d, w = distance_index(value), weight_index(value)
    assert distance_metres(d) <= amount < distance_metres(d + 1)
    assert weight_kg(w) <= amount < weight_kg(w + 1)


@pytest.mark.parametrize("bad", [0, -1, "heavy", float("nan"), float("inf")])
def test_distance_and_weight_reject_bad_values(bad):
    with pytest.raises(RulesError):
        distance_index(bad)
    with pytest.raises(RulesError):
        weight_index(bad)


# --- Loads ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("kind", "counted"), [("balanced", 15), ("unbalanced", 30), ("distributed", 10)])
def test_load_weight(kind, counted):
    """Article, "Additional Rules", Loads: balanced ½, unbalanced full, distributed ⅓."""
    assert load_weight(30, kind) == counted


def test_shared_load_divides_among_bearers():
    assert load_weight(60, "unbalanced", bearers=4) == 15
    with pytest.raises(RulesError):
        load_weight(60, "unbalanced", bearers=0)
    with pytest.raises(RulesError):
        load_weight(60, "lumpy")


# --- Range and size ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("difference", "step"),
    [(0, 0), (1, 1), (2, 1), (3, 2), (6, 2), (7, 3), (12, 4), (17, 4), (18, 5), (25, 6), (33, 7),
     (42, 8), (52, 9), (62, 9), (63, 10), (74, 10), (75, 11), (88, 12)],
)
def test_range_adjustment_step(difference, step):
    """Article, "Tables", Range Adjustment: thresholds 1, 3, 7, 12, 18, 25, 33, 42, 52, 63."""
    assert range_adjustment_step(difference) == step


def test_range_thresholds_match_the_printed_table():
    assert [range_threshold(k) for k in range(1, 11)] == [1, 3, 7, 12, 18, 25, 33, 42, 52, 63]


@pytest.mark.parametrize(
    ("metres", "size", "modifier"),
    [
        (2, 0, 0),  # the size table's own distance
        (1, 0, 3),  # closer than 2 m: the size outgrows the range
        (100, 0, -4),  # range index 17
        (1000, 0, -6),  # range index 27
        (2, -2, -1),  # head and neck at 2 m
        (10, -6, -4),  # eye socket at 10 m: difference 13
        (1000, 10, -4),  # a lighthouse at 1 km: difference 17
        (16, 12, 3),  # the Pentagon from 16 m
    ],
)
def test_range_size_modifier(metres, size, modifier):
    """RULINGS section 5 and "Additional Rules", Target Size Adjustment."""
    assert range_size_modifier(metres, size) == modifier


def test_range_size_adjustment_shows_its_terms():
    result = range_size_adjustment(100, -1)
    assert result.modifier == -5
    assert result.breakdown[:3] == [("distance index", 20), ("range index (distance index − 3)", 17),
                                    ("target size index", -1)]
    assert ("range exceeds size by", 18) in result.breakdown  # 18 reaches step 5…
    assert result.breakdown[-1] == ("modifier", -5)  # …so the penalty is −5, not −4


# --- Aiming, suppression, extra time -------------------------------------------------------
@pytest.mark.parametrize(
    ("seconds", "weapon", "bonus"),
    [(1, "pistol", 0), (2, "pistol", 2), (10, "pistol", 2), (0.5, "pistol", -3), (0, "pistol", -6),
     (10, "rifle", 4), (60, "rifle", 4), (5, "rifle", 3), (600, "sniper", 9), (3600, "sniper", 9),
     (120, "sniper", 7)],
)
def test_aiming_bonus_is_capped_by_weapon_class(seconds, weapon, bonus):
    """Article, "Additional Rules", Aiming: pistol 2 s, rifle 10 s, sniper 10 min."""
    assert aiming_bonus(seconds, weapon) == bonus


def test_aiming_caps_and_suppression():
    assert AIMING_CAPS_SECONDS == {"pistol": 2, "rifle": 10, "sniper": 600}
    assert SUPPRESSION_FIRE_MODIFIER == -5
    with pytest.raises(RulesError):
        aiming_bonus(1, "bow")
    with pytest.raises(RulesError):
        aiming_bonus(-1, "rifle")


@pytest.mark.parametrize(("actual", "normal", "modifier"), [(60, 60, 0), (120, 60, 2), (30, 60, -3),
                                                          (45, 60, -1), (600, 60, 4), (6, 60, -5),
                                                          (1, 60, -6)])
def test_extra_time_modifier(actual, normal, modifier):
    """Article, "Additional Rules", Extra Time Spent/Rushing: the chart index of actual ÷ normal."""
    assert extra_time_modifier(actual, normal) == modifier


def test_extra_time_needs_a_normal_time():
    with pytest.raises(RulesError):
        extra_time_modifier(10, 0)


# --- Assistants ----------------------------------------------------------------------------
def test_assistants_bonus_reproduces_every_printed_cell():
    """Article, "Tables", Assistants: every count in every cell gives that row's bonus."""
    for bonus, cells in enumerate(PRINTED_ASSISTANTS):
        for deficit, cell in enumerate(cells, start=1):
            low, _, high = ("0" if cell == "none" else cell).partition("-")
            for count in range(int(low), int(high or low) + 1):
                assert assistants_bonus(count, deficit) == bonus, (count, deficit)


def test_assistants_edges():
    assert assistants_bonus(1, 3) == 0  # too few for row 0 at skill −3: no help
    assert assistants_bonus(3, 0) == assistants_bonus(3, 1) == 2  # as skilled as the leader
    assert assistants_bonus(169, 4) == 15  # past the printed rows, the same rhythm
    assert assistants_bonus(20, 5) == 2  # a fifth level below drops one row more
    with pytest.raises(RulesError):
        assistants_bonus(-1, 1)


# --- Delicacy and scaling ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("metres", "index"),
    [(2, -2), (1, -2), (0.5, -2), (0.05, -1), (0.02, -1), (0.01, 0), (0.003, 1), (0.001, 2), (0.0005, 2),
     (1e-4, 3), (5e-10, 14), (3.4e-10, 14), (1e-10, 15), (1e-12, 19), (1e-13, 19), (1.5e-14, 20),
     (1e-16, 25), (5e-17, 26), (1e-17, 27)],
)
def test_delicacy_index(metres, index):
    """"Tables", Delicacy: the finest row a tolerance reaches (rows 13–18 in the table's Å)."""
    assert delicacy_index(metres) == index


def test_delicacy_rejects_coarser_rows_and_bad_sizes():
    with pytest.raises(RulesError):
        delicacy_metres(-3)
    with pytest.raises(RulesError):
        delicacy_index(0)


@pytest.mark.parametrize(("factor", "index"), [(1, 0), (9.9, 0), (10, 1), (150, 2), (10**6, 6), (10**10, 10),
                                               (10**15, 10)])
def test_scaling_index(factor, index):
    """"Tables", Scaling: ×10 per step from ×1, ×10G or more is index 10."""
    assert scaling_index(factor) == index


def test_scaling_rejects_a_reduction():
    with pytest.raises(RulesError):
        scaling_index(0.5)


@given(index=st.integers(-2, 60))
def test_delicacy_round_trip(index):
    assert delicacy_index(delicacy_metres(index)) == index
    assert delicacy_metres(index + 1) < delicacy_metres(index)
