"""The other rule sets' sheets: lines, numbers, resources and each line's odds on the ladder."""

from fractions import Fraction

import pytest

from rulebook import RulesError
from rulebook.systems.base import ParamError
from rulebook.systems.sheets import (
    AWARD,
    LONG_REST,
    SESSION,
    SHORT_REST,
    SPECS,
    SPEND,
    fatigue_points,
    load_threshold_kg,
    spec_for,
)


def test_success_check_odds_match_the_difficulty_levels_example():
    """002, "Difficulty levels": at the default TN 20 a +15 professional succeeds about 95 % of
    the time and a +10 trained hand about two times in three (exactly 94 % and 64 %)."""
    spec = SPECS["success_check"]
    professional = {label: odds.probability for label, _, odds in spec.line_odds({"bonus": 15})}
    trained = {label: odds.probability for label, _, odds in spec.line_odds({"bonus": 10})}
    assert professional["moderate"] == Fraction(94, 100)
    assert trained["moderate"] == Fraction(64, 100)


def test_every_ladder_runs_from_easiest_to_hardest():
    typical = {"zerospace": {"av": 5}, "success_check": {"bonus": 10}, "rocket_house": {"trait": 50},
               "core_rules": {"ks": 5, "us": 5, "es": 5}}
    assert set(typical) == set(SPECS)
    for system, spec in SPECS.items():
        line = typical[system]
        chances = [odds.probability for _, _, odds in spec.line_odds(line)]
        assert chances == sorted(chances, reverse=True), system
        assert len(set(chances)) > 1, system


def test_core_rules_load_threshold_is_build_times_three_kg():
    assert load_threshold_kg(6) == 18  # 004, V.4: "Build 6 … up to 3 times his LOADT (6x3 = 18kg)"
    with pytest.raises(ParamError):
        load_threshold_kg(11)


def test_rocket_house_fatigue_is_a_fifth_of_toughness():
    assert fatigue_points(76) == 15


def test_lines_are_cleaned_names_unique_inputs_exact():
    spec = spec_for("core_rules")
    assert spec.clean_lines([{"name": " Drive ", "inputs": {"ks": "5", "us": 4, "es": 3}}]) == [
        {"name": "Drive", "inputs": {"ks": 5, "us": 4, "es": 3}}]
    with pytest.raises(ParamError, match="on the sheet twice"):
        spec.clean_lines([{"name": "Drive", "inputs": {"ks": 5, "us": 4, "es": 3}},
                          {"name": "drive", "inputs": {"ks": 5, "us": 4, "es": 3}}])
    with pytest.raises(ParamError, match="give exactly ks, us, es"):
        spec.clean_lines([{"name": "Drive", "inputs": {"ks": 5}}])
    with pytest.raises(ParamError, match=r"Line 1 \(Drive\): KS score must be at most 10"):
        spec.clean_lines([{"name": "Drive", "inputs": {"ks": 11, "us": 4, "es": 3}}])
    with pytest.raises(ParamError, match="a list"):
        spec.clean_lines({"name": "Drive"})


def test_numbers_are_checked_and_defaulted():
    spec = spec_for("success_check")
    assert spec.clean_numbers({"edge_max": "5"}) == {"strength": 0, "edge_max": 5, "health": 30, "pt": 0, "dr": 0}
    with pytest.raises(ParamError, match="Unknown number 'toughness'"):
        spec.clean_numbers({"toughness": 50})


def test_edge_spends_rests_and_awards_within_its_maximum():
    """002, "Edge Recovery": a short rest gives one back, a long rest all of it."""
    spec, numbers = spec_for("success_check"), {"strength": 2, "edge_max": 3}
    assert spec.starting_pools(numbers) == {"edge": 3}
    assert spec.refill("edge", SPEND, 3, numbers) == 2
    assert spec.refill("edge", SHORT_REST, 1, numbers) == 2
    assert spec.refill("edge", SHORT_REST, 3, numbers) == 3
    assert spec.refill("edge", LONG_REST, 0, numbers) == 3
    assert spec.refill("edge", AWARD, 3, numbers) == 3
    with pytest.raises(RulesError, match="No Edge left"):
        spec.refill("edge", SPEND, 0, numbers)
    with pytest.raises(RulesError, match="not refilled by a new session"):
        spec.refill("edge", SESSION, 0, numbers)


def test_plot_points_start_each_session_at_one_and_have_no_cap():
    """001, "Gaining Plot Points": one at the start of each session, unspent ones do not carry over."""
    spec = spec_for("zerospace")
    assert spec.starting_pools({}) == {"plot_points": 1}
    assert spec.refill("plot_points", AWARD, 4, {}) == 5
    assert spec.refill("plot_points", SESSION, 3, {}) == 1
    with pytest.raises(RulesError, match="not refilled by a short rest"):
        spec.refill("plot_points", SHORT_REST, 0, {})
    with pytest.raises(ParamError, match="Unknown resource"):
        spec.refill("edge", SPEND, 1, {})


def test_zener_gate_has_its_own_sheet():
    with pytest.raises(ParamError, match="no sheet of this kind"):
        spec_for("zener")


def test_burden_by_build():
    """004, V.4: Build 6 has a Load Threshold of 18 kg and may be light, medium or heavy burdened, so
    up to 54 kg; heavier is overloaded. Build 1 carries nothing but clothing."""
    from rulebook.systems.sheets import burden

    assert burden(6, 18) == ("light", 54) and burden(6, 19) == ("medium", 54) and burden(6, 36) == ("medium", 54)
    assert burden(6, 54) == ("heavy", 54) and burden(6, 55) == ("overloaded", 54)
    assert burden(1, 0) == ("light", 0) and burden(1, 1) == ("overloaded", 0)
    assert burden(3, 10) == ("overloaded", 9)  # one status (light) for Build 2–3
