"""The builder's what-if (character-stats-preview): the stats a player has typed but not saved,
rendered by the server with the rules the save uses: the budget, each stat's and skill's odds.
It stores nothing."""

import re

import pytest
from django.test import Client

from characters.models import Character
from characters.tests.test_pages_support import INT_DICE, STATS, make_character
from rulebook.stats import PRIMARY_STATS

pytestmark = pytest.mark.django_db


def _form(character, **trades) -> dict:
    body = {"name": character.name, "int_plus": INT_DICE[0], "int_minus": INT_DICE[1]}
    for code in PRIMARY_STATS:
        body[f"rolled_{code}"] = STATS[code]
        body[f"trade_{code}"] = trades.get(code, 0)
    return body


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_trade_moves_the_budget_and_the_odds_before_saving_and_saves_nothing(personas):
    character = make_character(personas, skills=1)  # Pilot: 1 rank on ACC 15
    before = Character.objects.values().get(pk=character.pk)
    response = _client(personas["player"]).post(f"/characters/{character.pk}/stats/preview/", _form(character, ACC=2),
                                                HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    page = response.content.decode()
    assert re.search(r'data-budget="remaining">21<', page)  # 27 − 2 × 3
    assert 'data-budget="unsaved"' in page
    assert "74.1%" in page  # the skill on ACC 17: 3d6 ≤ 12
    assert Character.objects.values().get(pk=character.pk) == before


def test_a_trade_the_rules_refuse_is_said_and_saves_nothing(personas):
    character = make_character(personas, skills=1)
    before = Character.objects.values().get(pk=character.pk)
    response = _client(personas["player"]).post(f"/characters/{character.pk}/stats/preview/",
                                                _form(character, ACC=30), HTTP_HX_REQUEST="true")
    assert response.status_code == 200  # a preview answers with the form and its message
    page = response.content.decode()
    assert "ACC is 45, outside 1–40." in page
    assert re.search(r'data-budget="remaining">27<', page)  # the saved budget stands
    assert Character.objects.values().get(pk=character.pk) == before


@pytest.mark.parametrize("persona", ["other_player", "viewer", "outsider"])
def test_only_the_owner_and_the_gm_preview(personas, persona):
    character = make_character(personas, skills=1)
    response = _client(personas[persona]).post(f"/characters/{character.pk}/stats/preview/", _form(character, ACC=1))
    assert response.status_code in (403, 404)
