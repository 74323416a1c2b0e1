"""The glossary: every stat spelled out, on its page and as the title of the stat on the sheet."""

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from characters.models import STAT_CHOICES
from rulebook.glossary import BY_CODE, GROUPS, TERMS, explain

pytestmark = pytest.mark.django_db


def test_every_stat_and_calculated_stat_has_an_entry():
    for code, _ in STAT_CHOICES:
        assert code in BY_CODE, code
    for code in ("INT", "HP", "SHK", "END"):
        assert code in BY_CODE, code
    assert {t.group for t in TERMS} == set(GROUPS)
    assert len({t.code for t in TERMS}) == len(TERMS)  # one entry per term
    assert explain("awa").name == "Awareness" and explain("nothing") is None


def test_the_page_lists_every_term_by_group(personas):
    client = Client()
    client.force_login(personas["viewer"])
    html = client.get(reverse("glossary")).content.decode()
    for group in GROUPS:
        assert f">{escape(group)}</h2>" in html
    assert "<strong>AWA</strong> · Awareness" in html and "Noticing what is around" in html
    assert "Bad-news token" in html


def test_the_sheet_explains_its_stats(personas, make_character):
    character = make_character("player")
    client = Client()
    client.force_login(personas["player"])
    html = client.get(reverse("character-sheet", args=[character.pk])).content.decode()
    assert '<abbr class="term" title="Resistance: How well the body shrugs off a blow' in html
    assert html.count('<abbr class="term"') >= 13
