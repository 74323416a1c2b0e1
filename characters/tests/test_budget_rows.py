"""A party's overview reads each character's lines as light rows (selectors.budget_lines): the
budget from those rows must be the budget the sheet computes from its loaded lines."""

import pytest

from characters import sheet as sheet_rules
from characters.selectors import budget_lines, character_with_sheet
from characters.tests.test_pages_support import make_character

pytestmark = pytest.mark.django_db


def test_the_budget_from_rows_is_the_sheets(personas):
    first = make_character(personas, skills=4, lines=True)
    second = make_character(personas, owner="other_player", name="Bo", skills=2, lines=True, classified=True)
    lines = budget_lines([first.pk, second.pk])
    for character in (first, second):
        loaded = character_with_sheet(character_id=character.pk)
        assert sheet_rules.budget(loaded, lines[character.pk]) == sheet_rules.budget(loaded)
    assert sheet_rules.budget(loaded).spent > 0  # lines of every kind were priced
    assert len(lines[first.pk]["weapons"]) == 2 and len(lines[first.pk]["armour"]) == 2
