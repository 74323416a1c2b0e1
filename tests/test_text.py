"""The name check: something visible, and no text-direction controls (zenergate_site/text.py)."""

import pytest
from django.core.exceptions import ValidationError

from zenergate_site.text import BIDI_CONTROLS, validate_name

#: Names people really give: accents, other scripts, emoji sequences joined by U+200D, an
#: Arabic name with its combining vowel marks.
GOOD = ["Mara", "Zoë", "李小龍", "Ольга", "👩\u200d🚀 Ana", "O'Neill-Smith", "محمد\u064e", "a\u200bb", "R2-D2", "·"]
#: Names that show nothing: spaces of every kind, zero-width characters, a BOM, controls, lone
#: combining marks, Hangul fillers, the blank Braille pattern.
INVISIBLE = ["\u200b", "\u200b\u200c\u200d", "\ufeff", "\u2060\u2061", "\u00ad", "\x01\x02", "\u0301\u0302",
             "\u3164", "\u115f\u1160", "\uffa0", "\u2800", "\u180e", "\u2028", "\u2029", " \u200b ", "\u034f"]


@pytest.mark.parametrize("name", GOOD)
def test_names_people_give_pass(name):
    validate_name(name)


@pytest.mark.parametrize("name", INVISIBLE)
def test_a_name_that_shows_nothing_is_refused(name):
    with pytest.raises(ValidationError) as refused:
        validate_name(name)
    assert refused.value.code == "invisible"


@pytest.mark.parametrize("control", sorted(BIDI_CONTROLS))
def test_every_bidi_control_is_refused_even_inside_a_visible_name(control):
    with pytest.raises(ValidationError) as refused:
        validate_name(f"Mara{control}exe.txt")
    assert refused.value.code == "bidi_control"
    assert f"U+{ord(control):04X}" in refused.value.messages[0]


def test_the_bidi_set_is_unicodes_bidi_controls():
    expected = {0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)}
    assert {ord(c) for c in BIDI_CONTROLS} == expected
