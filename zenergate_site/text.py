"""Checks on the names people give things: a name must show something, and must not turn text around.

A name made only of zero-width characters, spaces or combining marks looks empty in every list
it appears in; a bidirectional control (U+202E RIGHT-TO-LEFT OVERRIDE…) makes the text after it
read differently from what it is, in the name and in whatever a page prints next to it. Both
are refused wherever a name is typed: page forms, API serializers.
"""

from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

#: Explicit direction marks, embeddings, overrides and isolates (Unicode's Bidi_Control set).
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")

#: Controls, format characters (zero-width space, joiners, BOM…), separators and marks that
#: draw nothing on their own.
_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zs", "Zl", "Zp", "Mn", "Me"})

#: Letters and symbols that are drawn blank: the Hangul fillers and the empty Braille pattern.
_BLANK_CHARACTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def is_visible(char: str) -> bool:
    """Return whether ``char`` draws something by itself."""
    return char not in _BLANK_CHARACTERS and unicodedata.category(char) not in _INVISIBLE_CATEGORIES


def validate_name(value: str) -> None:
    """Refuse a name that carries a bidirectional control or shows nothing at all."""
    control = next((char for char in value if char in BIDI_CONTROLS), None)
    if control is not None:
        raise ValidationError(_("A name cannot contain text-direction controls (U+%(code)s).")
                              % {"code": f"{ord(control):04X}"}, code="bidi_control")
    if not any(is_visible(char) for char in value):
        raise ValidationError(_("A name needs at least one visible character."), code="invisible")


def with_suffix(name: str, suffix: str, limit: int) -> str:
    """``name`` followed by ``suffix`` (" · 2", " (imported 2026-11-29)"), shortened so that the
    whole stays within the column's ``limit``: a name at its longest still takes its suffix."""
    return name[:max(limit - len(suffix), 0)].rstrip() + suffix
