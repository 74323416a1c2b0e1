"""The universal index tables: data with their example texts, and look-ups.

Article: "Table Summary", "Tables" (weight, distance, target size, range adjustment,
aiming/extra time, delicacy, scaling, assistants). RULINGS.md section 5.
"""

from __future__ import annotations

from fractions import Fraction
from numbers import Real


def as_fraction(value: Real | str) -> Fraction:
    """Convert a number to an exact Fraction; floats go through their shortest repr (0.6 → 3/5)."""
    if isinstance(value, float):
        return Fraction(repr(value))
    return Fraction(value)


# --- Aiming / extra time: the time chart -------------------------------------------------
#: index → multiplier of the normal time. Index −6 is "less than ×0.1".
TIME_CHART: dict[int, Fraction] = {
    -5: Fraction(1, 10),
    -4: Fraction(2, 10),
    -3: Fraction(4, 10),
    -2: Fraction(6, 10),
    -1: Fraction(75, 100),
    0: Fraction(1),
    1: Fraction(3, 2),
    2: Fraction(2),
    3: Fraction(5),
    4: Fraction(10),
    5: Fraction(20),
    6: Fraction(50),
    7: Fraction(100),
    8: Fraction(200),
    9: Fraction(500),
    10: Fraction(1000),
    11: Fraction(2000),
    12: Fraction(5000),
    13: Fraction(10000),
}
TIME_CHART_MIN_INDEX = -6
TIME_CHART_LAST_LISTED = 13


def time_multiplier(index: int) -> Fraction:
    """Return the time-chart multiplier for ``index``.

    Index −6 ("less than ×0.1") and anything lower is a moment: 0. Beyond the printed
    ×10,000+ at index 13 the chart goes on in its own 1-2-5 rhythm (14 → ×20,000,
    15 → ×50,000, 16 → ×100,000, …), so a large shock excess still yields a finite time.
    """
    if index <= TIME_CHART_MIN_INDEX:
        return Fraction(0)
    if index <= TIME_CHART_LAST_LISTED:
        return TIME_CHART[index]
    steps = index - TIME_CHART_LAST_LISTED
    decades, rest = divmod(steps, 3)
    return Fraction(10000) * 10**decades * (1, 2, 5)[rest]


def time_index(ratio: Real | str) -> int:
    """Return the time-chart index of a ratio: the largest index whose multiplier ≤ ratio.

    A ratio below ×0.1 is index −6 (RULINGS.md section 5).
    """
    x = as_fraction(ratio)
    if x < TIME_CHART[-5]:
        return TIME_CHART_MIN_INDEX
    index = -5
    while time_multiplier(index + 1) <= x:
        index += 1
    return index
