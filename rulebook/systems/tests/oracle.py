"""Brute-force oracles for the rule-set tests: every ordered roll of the dice, counted."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import product


def enumerate_rolls(count: int, faces: range) -> product:
    """Every ordered roll of ``count`` dice showing ``faces``."""
    return product(faces, repeat=count)


def distribution(counter: Counter) -> tuple[tuple[int, Fraction], ...]:
    """Turn counted outcomes into an ascending distribution of exact chances."""
    whole = sum(counter.values())
    return tuple((outcome, Fraction(ways, whole)) for outcome, ways in sorted(counter.items()) if ways)


def pool_totals(rolled: int, kept: int, highest: bool, faces: range = range(1, 7)) -> Counter:
    """Count the sum of the kept dice over every ordered roll."""
    totals: Counter = Counter()
    for roll in enumerate_rolls(rolled, faces):
        ordered = sorted(roll, reverse=highest)
        totals[sum(ordered[:kept])] += 1
    return totals


def weighted(counter: Counter) -> dict[int, Fraction]:
    """Turn counts into chances, keyed by outcome."""
    whole = sum(counter.values())
    return {outcome: Fraction(ways, whole) for outcome, ways in counter.items()}
