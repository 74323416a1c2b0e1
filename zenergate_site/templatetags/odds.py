"""``{{ probability|likelihood }}``: a chance in words ("likely"), said beside its number, so that
odds read the same to a screen reader, a colour-blind player and anyone new to percentages."""

from fractions import Fraction

from django import template

register = template.Library()

#: (lowest chance, word), highest first; exactly 1 and exactly 0 have words of their own.
BANDS = ((Fraction(9, 10), "very likely"), (Fraction(65, 100), "likely"), (Fraction(35, 100), "about even"),
         (Fraction(1, 10), "unlikely"), (Fraction(0), "very unlikely"))


def _chance(value) -> Fraction | float | None:
    if isinstance(value, float):  # a check's probability, as most callers hold it: compared as it is
        return value
    if isinstance(value, bool) or value is None or value == "":
        return None
    try:
        if isinstance(value, str):
            value = value.strip().rstrip("%").strip()
            return Fraction(value) if "/" in value else Fraction(value) / 100
        return Fraction(value).limit_denominator(10**9)
    except (ValueError, ZeroDivisionError, TypeError):
        return None


@register.filter
def likelihood(value) -> str:
    """The chance in words: a probability (0–1, a Fraction, "135/216") or a percentage ("62.5%")."""
    chance = _chance(value)
    if chance is None:
        return ""
    if chance >= 1:
        return "certain"
    if chance <= 0:
        return "impossible"
    return next(word for lowest, word in BANDS if chance >= lowest)
