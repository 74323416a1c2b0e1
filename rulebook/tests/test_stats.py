"""Stats, calculated stats, generation trades and stat checks (rulebook.stats)."""

import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulebook import RulesError
from rulebook.stats import (
    CALCULATED_STATS,
    PRIMARY_STATS,
    STAT_CHECK_DICE,
    apply_karma_swap,
    derived_stats,
    effective_dex,
    final_primary_stats,
    hit_points,
    intelligence,
    roll_int_dice,
    shock_threshold,
    skill_foundation,
    starting_karma,
    starting_karma_breakdown,
    starting_skill_points,
    stat_check_target,
    stat_trade_points,
    validate_stats,
)
from rulebook.tests.scripted import ScriptedRng


def sheet(**changes):
    """A mid-range sheet (no stat at 8 or below, none at 17 or above), with changes."""
    stats = dict.fromkeys(PRIMARY_STATS, 12)
    stats.update(changes)
    return stats


stat_values = st.integers(min_value=1, max_value=40)
sheets = st.fixed_dictionaries({name: stat_values for name in PRIMARY_STATS})


def total_of(breakdown):
    return sum(value for _, value in breakdown)


# --- Calculated stats ---------------------------------------------------------------------


def test_the_stat_lists_keep_their_names():
    assert len(PRIMARY_STATS) == 13 and PRIMARY_STATS[4] == "DEX"
    assert CALCULATED_STATS == ("INT", "HP", "SHK", "END")


def test_hit_points_are_twice_con_plus_res_plus_nim():
    assert hit_points(14, 20, 15) == 63
    assert hit_points(con=1, res=1, nim=1) == 4


def test_shock_threshold_is_a_fifth_of_hp_rounded_up():
    assert shock_threshold(63) == 13
    assert shock_threshold(60) == 12
    assert shock_threshold(hp=61) == 13


def test_effective_dex_averages_rolled_dex_with_nim_rounding_up():
    assert effective_dex(13, 15) == 14
    assert effective_dex(13, 14) == 14
    assert effective_dex(rolled_dex=12, nim=12) == 12


def test_intelligence_is_a_quarter_of_four_stats_rounded_down_plus_and_minus_a_die():
    # 11 + 18 + 16 + 12 = 57, a quarter is 14.25 → 14.
    assert intelligence(11, 18, 16, 12, 4, 2) == 16
    assert intelligence(prac=10, theo=10, enc=10, lan=10, plus_d6=1, minus_d6=6) == 5


def test_intelligence_refuses_a_die_face_that_no_d6_shows():
    with pytest.raises(RulesError, match="d6"):
        intelligence(10, 10, 10, 10, 7, 1)


def test_int_dice_are_rolled_through_the_injected_rng():
    assert roll_int_dice(ScriptedRng(5, 2)) == (5, 2)
    assert roll_int_dice(random.Random(7)) == roll_int_dice(random.Random(7))


def test_derived_stats_give_each_value_with_a_breakdown_that_adds_up():
    stats = sheet(CON=14, RES=20, NIM=15, DEX=13, PRAC=11, THEO=18, ENC=16, LAN=12)
    derived = derived_stats(stats, (4, 2))
    assert derived["DEX"].total == 14
    assert derived["INT"].total == 16
    assert derived["HP"].total == 63
    assert derived["SHK"].total == 13
    assert derived["END"].total == 14
    assert derived.hit_points.breakdown == [("2 × CON 14", 28), ("RES", 20), ("NIM", 15)]
    for name in ("DEX", "INT", "HP", "SHK", "END"):
        assert total_of(derived[name].breakdown) == derived[name].total


def test_derived_stats_refuse_an_unknown_abbreviation():
    with pytest.raises(RulesError, match="KARMA"):
        derived_stats(sheet(), (3, 3))["KARMA"]


def test_derived_stats_refuse_int_dice_that_are_not_a_pair():
    with pytest.raises(RulesError, match="pair"):
        derived_stats(sheet(), 4)


@given(sheets, st.integers(1, 6), st.integers(1, 6))
def test_every_derived_breakdown_adds_up_to_its_value(stats, plus, minus):
    derived = derived_stats(stats, (plus, minus))
    for name in ("DEX", "INT", "HP", "SHK", "END"):
        assert total_of(derived[name].breakdown) == derived[name].total
    assert derived["SHK"].total * 5 >= derived["HP"].total > (derived["SHK"].total - 1) * 5


# --- Validation ---------------------------------------------------------------------------


def test_validate_stats_accepts_a_full_sheet():
    assert validate_stats(sheet()) is None


def test_validate_stats_names_every_bad_stat_at_once():
    stats = sheet(STR=0, AWA=41, PERS="high")
    del stats["LAN"]
    stats["LUCK"] = 12
    with pytest.raises(RulesError) as caught:
        validate_stats(stats)
    message = str(caught.value)
    for word in ("STR", "AWA", "PERS", "LAN", "LUCK"):
        assert word in message


def test_validate_stats_refuses_booleans_and_floats():
    with pytest.raises(RulesError, match="NIM"):
        validate_stats(sheet(NIM=True))
    with pytest.raises(RulesError, match="CON"):
        validate_stats(sheet(CON=12.0))


# --- Starting Karma -------------------------------------------------------------------------


def test_starting_karma_is_ten_without_high_or_low_stats():
    assert starting_karma(sheet()) == 10


def test_starting_karma_loses_one_per_stat_of_17_or_more_and_gains_one_per_8_or_less():
    """Article, "Stats", KARMA: 10, −1 per stat of 17 or better, +1 per stat of 8 or less."""
    stats = sheet(STR=17, ACC=25, AWA=8, PERS=3, THEO=16, MEL=9)
    result = starting_karma_breakdown(stats)
    assert result.total == 10
    assert result.breakdown == [
        ("base Karma", 10),
        ("stats of 17 or more: STR, ACC", -2),
        ("stats of 8 or less: AWA, PERS", 2),
    ]


def test_starting_karma_counts_effective_dex_not_the_rolled_dex():
    # Rolled DEX 7 would give +1, but (7 + 12) / 2 rounds up to 10.
    assert starting_karma(sheet(DEX=7)) == 10
    # Rolled DEX 20 with NIM 14 averages to 17: one high stat.
    assert starting_karma(sheet(DEX=20, NIM=14)) == 9
    assert final_primary_stats(sheet(DEX=20, NIM=14))["DEX"] == 17


def test_generation_karma_swaps_come_off_starting_karma():
    result = starting_karma_breakdown(sheet(STR=18), karma_swaps=2)
    assert result.total == 7
    assert result.breakdown[-1] == ("2 generation Karma swap(s)", -2)


def test_swaps_cannot_spend_more_karma_than_the_stats_give():
    with pytest.raises(RulesError, match="11 Karma swaps"):
        starting_karma(sheet(), karma_swaps=11)


def test_starting_karma_never_goes_below_zero():
    stats = dict.fromkeys(PRIMARY_STATS, 30)
    result = starting_karma_breakdown(stats)
    assert result.total == 0
    assert total_of(result.breakdown) == 0


def karma_from_stats(stats) -> int:
    """Starting Karma before swaps, counted here on its own: 10, −1 per final stat ≥ 17,
    +1 per final stat ≤ 8, DEX being ⌈(DEX + NIM) / 2⌉ ("Stats", KARMA and DEX)."""
    final = {**stats, "DEX": (stats["DEX"] + stats["NIM"] + 1) // 2}
    return 10 - sum(v >= 17 for v in final.values()) + sum(v <= 8 for v in final.values())


@given(sheets, st.data())
def test_starting_karma_breakdown_adds_up(stats, data):
    """Only as many swaps as the stats' Karma pays for ("Other Uses For Karma")."""
    before_swaps = karma_from_stats(stats)
    swaps = data.draw(st.integers(0, max(before_swaps, 0)), label="swaps")
    result = starting_karma_breakdown(stats, swaps)
    assert result.total == max(before_swaps - swaps, 0)
    assert total_of(result.breakdown) == result.total


@given(sheets, st.integers(1, 3))
def test_more_swaps_than_the_stats_pay_for_are_refused(stats, excess):
    swaps = max(karma_from_stats(stats), 0) + excess
    with pytest.raises(RulesError, match=f"{swaps} Karma swaps need {swaps} Karma"):
        starting_karma_breakdown(stats, swaps)


# --- Generation trades --------------------------------------------------------------------


def test_raising_a_stat_costs_three_skill_points_and_lowering_gives_two():
    """Article, "Improving Stats": +1 for −3 skill points, −1 for +2."""
    assert stat_trade_points(raised=1, lowered=0) == -3
    assert stat_trade_points(raised=0, lowered=1) == 2
    assert stat_trade_points(2, 3) == 0


def test_a_karma_swap_lowers_one_stat_by_one_and_raises_another_by_two():
    """Article, "Other Uses For Karma": 1 Karma, one stat −1 and another +2."""
    swapped = apply_karma_swap(sheet(), lowered="PERS", raised="ACC")
    assert swapped["PERS"] == 11 and swapped["ACC"] == 14
    assert sum(swapped.values()) == sum(sheet().values()) + 1


def test_a_karma_swap_needs_two_different_known_stats_inside_the_range():
    with pytest.raises(RulesError, match="different"):
        apply_karma_swap(sheet(), lowered="STR", raised="STR")
    with pytest.raises(RulesError, match="LUCK"):
        apply_karma_swap(sheet(), lowered="LUCK", raised="STR")
    with pytest.raises(RulesError, match="cannot be lowered"):
        apply_karma_swap(sheet(STR=1), lowered="STR", raised="CON")
    with pytest.raises(RulesError, match="40"):
        apply_karma_swap(sheet(CON=39), lowered="STR", raised="CON")


def test_starting_skill_points_add_every_source_with_a_breakdown():
    result = starting_skill_points(16, disadvantage_points=5, trade_points=-3, karma_converted=2)
    assert result.total == 32 + 5 - 3 + 4
    assert result.breakdown == [
        ("2 × INT 16", 32),
        ("disadvantage points", 5),
        ("stat trades", -3),
        ("2 Karma converted × 2", 4),
    ]


def test_starting_skill_points_are_twice_int_on_their_own():
    """Article, "Skill Points": starting skill points = INT × 2."""
    assert starting_skill_points(int_value=13).total == 26


def test_stat_trades_cannot_cost_more_than_the_character_has():
    with pytest.raises(RulesError, match="stat trades cost 30"):
        starting_skill_points(5, trade_points=-30)


# --- Skill foundation and stat checks -------------------------------------------------------


def test_skill_foundation_is_half_the_stat_rounded_up_plus_two():
    """Article, "Combat": a stat of 20 needs 12 or less on 3d6, a stat of 24 needs 14."""
    assert skill_foundation(20) == 12
    assert skill_foundation(24) == 14
    assert skill_foundation(13) == 9


def test_a_stat_check_rolls_4d6_against_stat_plus_modifier():
    target = stat_check_target(14, modifier=-2)
    assert target.total == 12
    assert target.dice == STAT_CHECK_DICE == 4
    assert target.breakdown == [("stat", 14), ("modifier", -2)]


def test_stat_check_odds_match_the_article():
    """Article, "Combat": a stat of 20 on 4d6 is about 97.3% (the article calls it the chance
    of failure; it is the chance of success), and a stat of 24 always succeeds."""
    assert round(float(stat_check_target(20).odds.probability), 3) == 0.973
    assert stat_check_target(24).odds.probability == Fraction(1)


@given(st.integers(-10, 40), st.integers(-20, 20))
def test_stat_check_breakdown_adds_up(stat, modifier):
    target = stat_check_target(stat, modifier)
    assert total_of(target.breakdown) == target.total == stat + modifier
