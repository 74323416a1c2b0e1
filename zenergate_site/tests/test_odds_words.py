"""Odds in words beside their numbers ("83.8 % — likely")."""

from fractions import Fraction

import pytest

from economy.tests.conftest import make_character  # noqa: F401  (a fixture)
from zenergate_site.templatetags.odds import likelihood


@pytest.mark.parametrize("value, words", [
    (Fraction(1), "certain"), ("216/216", "certain"), (0, "impossible"), ("0/216", "impossible"),
    (Fraction(215, 216), "very likely"), (0.838, "likely"), ("83.8%", "likely"), ("135/216", "about even"),
    (Fraction(1, 2), "about even"), ("23.9%", "unlikely"), (Fraction(1, 216), "very unlikely"),
    (None, ""), ("", ""), ("n/a", ""), (True, ""),
])
def test_a_chance_in_words(value, words):
    assert likelihood(value) == words


@pytest.mark.django_db
def test_the_roller_and_the_sheet_say_the_odds_in_words(personas, make_character, client):
    from django.urls import reverse

    character = make_character("player")
    client.force_login(personas["player"])
    odds = client.get(reverse("sheet-roll-form", args=[character.pk]), {"line": "stat:AWA"}).content.decode()
    assert " — " in odds and any(w in odds for w in ("likely", "about even", "unlikely", "certain"))
    sheet = client.get(reverse("character-sheet", args=[character.pk])).content.decode()
    assert '<span class="visually-hidden"> (' in sheet
