"""Chances as people read them, in their language: one way to write a percentage and an exact
chance everywhere (the sheet, the roller, the fight, the API's text fields), so that a German
reader gets "62,5 %" and nobody gets "9.7e-27 %" or a fraction wider than a phone.
"""

from __future__ import annotations

import math
from fractions import Fraction

from django.utils import formats
from django.utils.translation import gettext as _

#: Below this (and above 1 minus this) a percentage says "less than" instead of printing digits.
SMALLEST_SHOWN = Fraction(1, 10_000)  # 0.01 %

#: An exact fraction longer than this is written "about 1 in N" instead.
LONGEST_FRACTION = 15


def _number(value: float, decimals: int) -> str:
    return formats.number_format(round(value, decimals), decimal_pos=decimals, use_l10n=True)


def percent(probability, *, decimals: int = 1) -> str:
    """``probability`` (0–1: a float or a Fraction) as a percentage in the reader's language:
    "62.5%" / "62,5 %"; "< 0.01%" for a chance that would print as zero but is not, and
    "> 99.99%" for one that would print as a hundred but is not."""
    p = Fraction(probability).limit_denominator(10**30) if not isinstance(probability, Fraction) else probability
    if p <= 0:
        number = _number(0, 0)
    elif p >= 1:
        number = _number(100, 0)
    elif p < SMALLEST_SHOWN:
        return _("< %(number)s%%") % {"number": _number(0.01, 2)}
    elif p > 1 - SMALLEST_SHOWN:
        return _("> %(number)s%%") % {"number": _number(99.99, 2)}
    else:
        value = float(p) * 100
        if value < 0.1:  # three figures that mean something: 0.0463%, not 0.0%
            number = _number(value, 2 - math.floor(math.log10(value)))
        else:
            number = _number(value, decimals if value < 99.9 else 2)
    return _("%(number)s%%") % {"number": number}


def exact(probability: Fraction) -> str:
    """The exact chance: "135/216", or, when its fraction runs long, "about 1 in 1.03 × 10²⁶"."""
    p = Fraction(probability)
    text = f"{p.numerator}/{p.denominator}"
    if len(text) <= LONGEST_FRACTION or p <= 0:
        return text
    if p >= 1:
        return text
    if p > Fraction(1, 2):  # a near certainty: how rarely it fails
        return _("fails about 1 time in %(n)s") % {"n": _one_in(1 / (1 - p))}
    return _("about 1 in %(n)s") % {"n": _one_in(1 / p)}


def _one_in(odds: Fraction) -> str:
    if odds < 1_000_000:
        return formats.number_format(round(float(odds)), use_l10n=True, force_grouping=True)
    mantissa, exponent = f"{float(odds):.2e}".split("e")
    superscript = str(int(exponent)).translate(str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"))
    return f"{formats.number_format(float(mantissa), decimal_pos=2, use_l10n=True)} × 10{superscript}"
