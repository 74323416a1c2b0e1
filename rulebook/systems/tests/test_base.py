"""Tests for the rule-set registry and the shared pieces: Param, RuleSet.clean, dice pools."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from rulebook import RulesError
from rulebook.systems import SYSTEMS, ParamError, get_system
from rulebook.systems.base import (
    Param,
    SystemOdds,
    SystemRoll,
    as_distribution,
    pool_counts,
)
from rulebook.systems.tests.oracle import pool_totals

#: The smallest valid inputs of each rule set, for the checks every system must pass.
REQUIRED = {
    "zener": {"target": 10},
    "zerospace": {"av": 3, "dv": 3},
    "success_check": {"bonus": 5, "tn": 15},
    "rocket_house": {"trait": 60},
    "core_rules": {"ks": 7, "us": 4, "es": 5},
}
#: The fields each rule set must take (the API contract).
CONTRACT = {
    "zener": {"target", "dice"},
    "zerospace": {"av", "dv", "bonus_dice"},
    "success_check": {"bonus", "tn", "advantage"},
    "rocket_house": {"trait", "difficulty"},
    "core_rules": {"ks", "us", "es", "threshold"},
}


def test_the_registry_holds_exactly_the_five_rule_sets():
    assert list(SYSTEMS) == ["zener", "zerospace", "success_check", "rocket_house", "core_rules"]
    assert all(system.key == key for key, system in SYSTEMS.items())


@pytest.mark.parametrize("key", list(CONTRACT))
def test_every_rule_set_takes_the_contract_fields(key):
    names = {param.name for param in SYSTEMS[key].params}
    assert CONTRACT[key] <= names


@pytest.mark.parametrize("key", list(SYSTEMS))
def test_params_and_rulings_never_share_a_name(key):
    names = [param.name for param in SYSTEMS[key].fields]
    assert len(names) == len(set(names))
    assert "rng" not in names


@pytest.mark.parametrize("key", list(SYSTEMS))
def test_every_field_has_sane_bounds_and_a_default_inside_them(key):
    for param in SYSTEMS[key].fields:
        assert param.minimum is not None and param.maximum is not None and param.minimum <= param.maximum
        if param.default is not None:
            assert param.minimum <= param.default <= param.maximum
        assert all(param.minimum <= choice <= param.maximum for choice in param.choices)
        if param.choices and param.default is not None:
            assert param.default in param.choices
    assert all(ruling.default is not None for ruling in SYSTEMS[key].rulings)


def test_get_system_names_the_field_for_an_unknown_key():
    assert get_system("zener") is SYSTEMS["zener"]
    with pytest.raises(ParamError) as caught:
        get_system("d20")
    assert caught.value.field == "system"


# --- clean ---------------------------------------------------------------------------------
@pytest.mark.parametrize("key", list(SYSTEMS))
def test_clean_fills_the_defaults_and_the_rulings(key):
    system = SYSTEMS[key]
    cleaned = system.clean(REQUIRED[key])
    assert set(cleaned) == {param.name for param in system.fields}
    for param in system.fields:
        if not param.required:
            assert cleaned[param.name] == param.default


@pytest.mark.parametrize("key", list(SYSTEMS))
def test_clean_refuses_a_missing_required_field_by_name(key):
    system = SYSTEMS[key]
    for param in system.params:
        if param.required:
            raw = {k: v for k, v in REQUIRED[key].items() if k != param.name}
            with pytest.raises(ParamError) as caught:
                system.clean(raw)
            assert caught.value.field == param.name
            assert "required" in str(caught.value)


@pytest.mark.parametrize("key", list(SYSTEMS))
def test_clean_refuses_an_unknown_field_by_name(key):
    with pytest.raises(ParamError) as caught:
        SYSTEMS[key].clean({**REQUIRED[key], "bonus_points": 3})
    assert caught.value.field == "bonus_points"
    assert "Unknown field" in str(caught.value)


@pytest.mark.parametrize("key", list(SYSTEMS))
@pytest.mark.parametrize("bad", [True, False, 2.5, 3.0, "abc", "1e3", [3], {"a": 1}, Fraction(1, 2)])
def test_clean_refuses_values_that_are_not_whole_numbers(key, bad):
    system = SYSTEMS[key]
    name = next(iter(REQUIRED[key]))
    with pytest.raises(ParamError) as caught:
        system.clean({**REQUIRED[key], name: bad})
    assert caught.value.field == name
    assert "whole number" in str(caught.value)


@pytest.mark.parametrize("key", list(SYSTEMS))
def test_clean_refuses_out_of_range_values_in_every_field(key):
    system = SYSTEMS[key]
    for param in system.fields:
        for value in (param.minimum - 1, param.maximum + 1):
            with pytest.raises(ParamError) as caught:
                system.clean({**REQUIRED[key], param.name: value})
            assert caught.value.field == param.name


def test_clean_refuses_a_value_outside_the_choices():
    with pytest.raises(ParamError) as caught:
        SYSTEMS["rocket_house"].clean({"trait": 50, "stalemate": 3})
    assert caught.value.field == "stalemate"
    with pytest.raises(ParamError) as caught:
        SYSTEMS["success_check"].clean({"bonus": 5, "tn": 15, "advantage": 2})
    assert caught.value.field == "advantage" and "one of -1, 0, 1" in str(caught.value)


def test_clean_coerces_digit_strings_as_a_form_posts_them():
    assert SYSTEMS["zerospace"].clean({"av": " 4", "dv": "3", "bonus_dice": "-2"})["bonus_dice"] == -2
    # Empty and None mean "not given".
    assert SYSTEMS["zener"].clean({"target": 9, "dice": ""})["dice"] == 3
    assert SYSTEMS["zener"].clean({"target": 9, "dice": None})["dice"] == 3


def test_clean_refuses_something_that_is_not_a_mapping():
    with pytest.raises(ParamError):
        SYSTEMS["zener"].clean([("target", 9)])


def test_param_errors_are_rules_errors():
    assert issubclass(ParamError, RulesError)
    error = ParamError("tn", "Target number is required.")
    assert error.field == "tn" and str(error) == "Target number is required."


def test_param_coerce_accepts_any_integer_type():
    class Four:
        def __index__(self) -> int:
            return 4

    assert Param("x", "X", 0, 10).coerce(Four()) == 4


# --- odds and roll through the registry -----------------------------------------------------
@pytest.mark.parametrize("key", list(SYSTEMS))
def test_odds_are_well_formed(key):
    odds = SYSTEMS[key].odds(**REQUIRED[key])
    assert isinstance(odds, SystemOdds)
    outcomes = [outcome for outcome, _ in odds.distribution]
    assert outcomes == sorted(set(outcomes))
    assert sum(p for _, p in odds.distribution) == 1
    assert odds.success <= set(outcomes)
    assert odds.probability == sum(p for outcome, p in odds.distribution if outcome in odds.success)
    assert odds.outcome and odds.breakdown


@pytest.mark.parametrize("key", list(SYSTEMS))
def test_warm_odds_come_from_the_cache(key):
    first = SYSTEMS[key].odds(**REQUIRED[key])
    assert SYSTEMS[key].odds(**REQUIRED[key]) is first


@pytest.mark.parametrize("key", list(SYSTEMS))
def test_rolls_are_well_formed_and_repeat_with_a_seed(key):
    system = SYSTEMS[key]
    roll = system.roll(random.Random(11), None, **REQUIRED[key])
    assert isinstance(roll, SystemRoll)
    assert roll == system.roll(random.Random(11), None, **REQUIRED[key])
    assert roll.probability == system.odds(**REQUIRED[key]).probability
    assert "outcome" in roll.details
    assert [r["face"] for r in roll.details["rolls"]] == list(roll.faces)
    assert not any(r["entered"] for r in roll.details["rolls"])
    with pytest.raises(TypeError):
        roll.details["outcome"] = 0  # type: ignore[index]


@pytest.mark.parametrize("key", list(SYSTEMS))
def test_a_roll_lands_on_an_outcome_of_the_chart(key):
    system = SYSTEMS[key]
    odds = system.odds(**REQUIRED[key])
    outcomes = {outcome for outcome, _ in odds.distribution}
    for seed in range(30):
        roll = system.roll(random.Random(seed), None, **REQUIRED[key])
        assert roll.details["outcome"] in outcomes
        assert roll.success == (roll.details["outcome"] in odds.success)


@pytest.mark.parametrize("key", list(SYSTEMS))
def test_roll_refuses_entered_faces_beyond_what_it_rolls(key):
    with pytest.raises(RulesError, match="faces entered"):
        SYSTEMS[key].roll(random.Random(1), [1] * 60, **REQUIRED[key])


def test_roll_takes_rng_and_dice_positionally_because_zener_has_a_dice_field():
    roll = SYSTEMS["zener"].roll(None, [1, 2, 3], target=10, dice=3)
    assert roll.faces == (1, 2, 3) and roll.total == 6
    with pytest.raises(TypeError, match="positionally"):
        SYSTEMS["zerospace"].roll(rng=random.Random(1), av=3, dv=3)
    with pytest.raises(TypeError, match="positionally"):
        SYSTEMS["zerospace"].roll(dice=[3, 3, 3, 3], av=3, dv=3)
    assert SYSTEMS["zerospace"].roll(None, [3, 3, 3, 3], av=3, dv=3).success


def test_roll_validates_like_clean():
    with pytest.raises(ParamError) as caught:
        SYSTEMS["core_rules"].roll(random.Random(1), None, ks=7, us=4, es=11)
    assert caught.value.field == "es"


# --- shared dice arithmetic -----------------------------------------------------------------
@pytest.mark.parametrize("rolled,kept,sides,highest", [
    (1, 1, 6, True), (3, 3, 6, True), (3, 2, 6, True), (3, 2, 6, False), (4, 2, 6, True),
    (5, 2, 6, False), (3, 2, 10, True), (4, 3, 5, False),
])
def test_pool_counts_equals_brute_force(rolled, kept, sides, highest):
    assert dict(pool_counts(rolled, kept, sides, highest)) == dict(
        pool_totals(rolled, kept, highest, range(1, sides + 1)))


def test_as_distribution_sorts_drops_zeros_and_normalises():
    assert as_distribution({3: 2, 1: 1, 2: 0, 4: 1}) == ((1, Fraction(1, 4)), (3, Fraction(1, 2)), (4, Fraction(1, 4)))


def test_clear_caches_forgets_the_odds():
    from rulebook.systems import clear_caches

    first = SYSTEMS["zerospace"].odds(av=2, dv=5)
    clear_caches()
    again = SYSTEMS["zerospace"].odds(av=2, dv=5)
    assert again == first and again is not first
