"""``{{ probability|likelihood }}``: a chance in words ("likely"), said beside its number, so that
odds read the same to a screen reader, a colour-blind player and anyone new to percentages."""

from fractions import Fraction

from django import template
from django.utils.translation import gettext, gettext_noop

from zenergate_site import numbers

register = template.Library()

#: (lowest chance, word), highest first; exactly 1 and exactly 0 have words of their own.
BANDS = ((Fraction(9, 10), gettext_noop("very likely")), (Fraction(65, 100), gettext_noop("likely")),
         (Fraction(35, 100), gettext_noop("about even")), (Fraction(1, 10), gettext_noop("unlikely")),
         (Fraction(0), gettext_noop("very unlikely")))


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
        return gettext("certain")
    if chance <= 0:
        return gettext("impossible")
    return gettext(next(word for lowest, word in BANDS if chance >= lowest))


@register.filter
def percent(probability) -> str:
    """A probability (0–1) as a percentage in the reader's language (zenergate_site.numbers)."""
    chance = _chance(probability)
    return "" if chance is None else numbers.percent(chance)


@register.filter
def exact_chance(probability) -> str:
    """The exact chance, "5/8", or "about 1 in 1.03 × 10²⁸" when its fraction runs long."""
    chance = _chance(probability)
    return "" if chance is None else numbers.exact(Fraction(chance))
