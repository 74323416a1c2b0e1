"""Leak 5: a sheet's history shows players the hidden Stimutabs duration.

Stimutabs (rulebook/drugs.py ``take_stimutabs``) give +d3 STR for d3 + 3 hours, "the players
told the bonus but not the time": the boost phase is stored with ``hidden: True`` in the
character's ``wounds_detail["effects"]``, its ``minutes_left`` and its breakdown's "(hidden)"
terms included. The treatment writes that column with a bare UPDATE (no history row), but the
next save of the sheet (here: the owner renames her) makes a history row whose diff lists every
column that changed since, ``wounds detail`` among them, old → new, as ``str()`` of the JSON
(characters/lifecycle.py ``_changes``/``history``, rendered by the history API and page).

DESIGN.md, "Audience at the source": what the GM hides (hidden durations) is never shown to
players in the history. The owner, the other player and the viewer must not read it; the GM must.
"""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from characters.tests.factories import create_active

pytestmark = pytest.mark.django_db

#: Stimutabs dice in the rulebook's order: d3 STR bonus 2, d3 hours 3 (3 + 3 = 6 h = 360 minutes,
#: hidden), d6 shakes points 3 (9: NIM, DEX, ACC −3 each), d6 shakes duration 2 (30 minutes, shown).
DOSE = [2, 3, 3, 2]
HIDDEN_MINUTES = "360"
HIDDEN_TERMS = ("duration d3 (hidden)", "duration hours added to the d3 (hidden)", "duration (minutes, hidden)")
WATCHERS = ("player", "other_player", "viewer")


@pytest.fixture
def dosed(personas, api_as):
    """Mara (player's, active) given Stimutabs by the GM, then renamed by her player."""
    mara = create_active(personas)
    response = api_as("gm").post(f"/api/v1/characters/{mara.pk}/treatments/",
                                 {"kind": "stimutabs", "dice": DOSE, "idempotency_key": "dose"}, format="json")
    assert response.status_code == 201, response.content
    (boost,) = type(mara).objects.get(pk=mara.pk).wounds_detail["effects"]
    assert boost["hidden"] is True and boost["minutes_left"] == int(HIDDEN_MINUTES)
    response = api_as("player").patch(f"/api/v1/characters/{mara.pk}/", {"name": "Mara the Bold"}, format="json")
    assert response.status_code == 200, response.content
    return mara


def _api_changes(api, character) -> str:
    """Every change the history API lists, as text: field, old, new."""
    response = api.get(f"/api/v1/characters/{character.pk}/history/")
    assert response.status_code == 200, response.content
    return "\n".join(" | ".join(str(part) for part in change) for row in response.json() for change in row["changes"])


def _page_changes(personas, persona: str, character) -> str:
    """The history page's list as the persona reads it, times left out (they hold any digits)."""
    client = Client()
    client.force_login(personas[persona])
    response = client.get(reverse("character-history", args=[character.pk]))
    assert response.status_code == 200
    listing = re.search(r'<ul class="history">(.*)</ul>\s*</section>', response.content.decode(), re.S)
    assert listing, "no history list on the page"
    return html.unescape(re.sub(r"<time[^>]*>.*?</time>", "", listing.group(1), flags=re.S))


def _hidden_parts(text: str) -> list[str]:
    found = [term for term in HIDDEN_TERMS if term in text]
    found += [match.group(0) for match in re.finditer(rf".{{0,40}}\b{HIDDEN_MINUTES}\b.{{0,10}}", text)]
    return found


def test_the_gm_reads_the_hidden_duration_in_the_history(personas, api_as, dosed):
    """Leak 5, control: the GM still reads the Stimutabs boost's duration, API and page."""
    assert _hidden_parts(_api_changes(api_as("gm"), dosed))
    assert _hidden_parts(_page_changes(personas, "gm", dosed))


@pytest.mark.parametrize("persona", WATCHERS)
def test_the_history_api_never_shows_the_hidden_duration(personas, api_as, dosed, persona):
    """Leak 5: GET /api/v1/characters/{id}/history/ lists "wounds detail" old → new with the boost's
    ``minutes_left`` 360 and its "(hidden)" breakdown terms to the owner, the other player and the viewer."""
    changes = _api_changes(api_as(persona), dosed)
    assert "Mara the Bold" in changes  # the rename itself stays visible
    shown = _hidden_parts(changes)
    assert shown == [], f"{persona} reads the hidden Stimutabs duration in the history API: {shown}"


@pytest.mark.parametrize("persona", WATCHERS)
def test_the_history_page_never_shows_the_hidden_duration(personas, dosed, persona):
    """Leak 5: the history page (/characters/{id}/history/) renders the same diff."""
    changes = _page_changes(personas, persona, dosed)
    assert "Mara the Bold" in changes
    shown = _hidden_parts(changes)
    assert shown == [], f"{persona} reads the hidden Stimutabs duration on the history page: {shown}"
