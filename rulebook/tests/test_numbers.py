"""Tests for rulebook._numbers: the shared whole-number check and rounding up."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulebook import RulesError
from rulebook._numbers import ceil_div, require_int


class Index:
    """An integer type that is not ``int`` (as a numpy integer is)."""

    def __init__(self, value):
        self.value = value

    def __index__(self):
        return self.value


def test_require_int_returns_a_plain_int_within_the_bounds():
    assert require_int(7, "Ranks", minimum=0, maximum=10) == 7
    converted = require_int(Index(3), "Ranks")
    assert converted == 3 and type(converted) is int


@pytest.mark.parametrize("bad", [True, False, 2.0, "3", None, 1.5])
def test_require_int_refuses_what_is_not_a_whole_number(bad):
    with pytest.raises(RulesError, match="Ranks must be a whole number"):
        require_int(bad, "Ranks")


def test_require_int_names_the_bound_that_was_crossed():
    with pytest.raises(RulesError, match="at least 1 \\(got 0\\)"):
        require_int(0, "HP", minimum=1)
    with pytest.raises(RulesError, match="at most 10 \\(got 11\\)"):
        require_int(11, "Armour rating", minimum=0, maximum=10)


@given(st.integers(-1000, 1000), st.integers(1, 50))
def test_ceil_div_rounds_up(numerator, denominator):
    result = ceil_div(numerator, denominator)
    assert (result - 1) * denominator < numerator <= result * denominator
