"""Whole numbers: the input check every rule module shares, and rounding up.

Neither is a rule of the article. They live in one place so that every bad number gets the
same kind of message and every "rounded up" in the rules is computed the same way.
"""

from __future__ import annotations

import operator

from rulebook import RulesError
from rulebook.words import gettext as _


def require_int(value: object, what: str, *, minimum: int | None = None,
                maximum: int | None = None) -> int:
    """Return ``value`` as an int if it is a whole number within the bounds, else raise.

    Any integer type is accepted (a numpy integer from a form or a table works); the result is
    a plain ``int``.

    Args:
        value: the number to check.
        what: how the player knows the number, for the message ("Skill ranks", "CON"): a stat
            code as it is, a word marked with ``gettext_noop`` (translated here, only when
            the number is refused).
        minimum: the smallest value allowed, if any.
        maximum: the largest value allowed, if any.

    Raises:
        RulesError: for anything that is not a whole number, or a value outside the bounds.
    """
    # bool is an int subclass, but True as a count or a stat is always a caller's mistake.
    if isinstance(value, bool):
        raise RulesError(_("%(what)s must be a whole number, not %(value)s.") % {"what": _(what), "value": repr(value)})
    try:
        number = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise RulesError(_("%(what)s must be a whole number, not %(value)s.")
                         % {"what": _(what), "value": repr(value)}) from None
    if minimum is not None and number < minimum:
        raise RulesError(_("%(what)s must be at least %(minimum)s (got %(number)s).")
                         % {"what": _(what), "minimum": minimum, "number": number})
    if maximum is not None and number > maximum:
        raise RulesError(_("%(what)s must be at most %(maximum)s (got %(number)s).")
                         % {"what": _(what), "maximum": maximum, "number": number})
    return number


def ceil_div(numerator: int, denominator: int) -> int:
    """Return numerator ÷ denominator rounded up, the article's "round up" on whole numbers."""
    return -(-numerator // denominator)
