"""Leak 3: the dashboard's "Recent events" lists every audit line, GM-only combat included.

dashboard/views.py renders ``selectors.log_recent`` (campaign.models.LogEntry), and every
combat event writes one (combat/log.py ``record`` → ``log_action``) whatever its audience, so players
and viewers read "Secret Assassin joins the fight" and the unrevealed NPC's hit with its location
and trauma. DESIGN.md, "Audience at the source": every audit line carries who may see it.

The fight is set up through the API only, as the GM would (this app does not import combat).
"""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from campaign.models import LogEntry

pytestmark = pytest.mark.django_db

ASSASSIN = "Secret Assassin"
WATCHERS = ("player", "other_player", "viewer")
DICE = {"attack": [1, 2, 3], "location": [50], "effect": [6, 4], "damage": [5], "shock": [4]}


@pytest.fixture
def secret_fight(personas, api_as, make_character):
    """Alice (player's) in a fight the GM runs against an unrevealed NPC that strikes her.

    Returns the audit summaries of the GM-only combat events and of the public ones.
    """
    alice = make_character("player", name="Alice")
    gm = api_as("gm")
    e = gm.post(f"/api/v1/campaigns/{personas['campaign'].pk}/encounters/", {"name": "Rooftops"},
                format="json").json()["id"]
    pc = gm.post(f"/api/v1/encounters/{e}/combatants/", {"character": alice.pk}, format="json").json()["id"]
    npc = gm.post(f"/api/v1/encounters/{e}/combatants/",
                  {"name": ASSASSIN, "stats": {"MEL": 20}, "weapons": [{"name": "Garrotte", "damage_points": 3,
                                                                        "melee": True, "ranks": 3}]},
                  format="json").json()["id"]
    # Alice 6 + 1 (AWA 16 against 14) + 0 = 7 acts first; the assassin 1 + 0 + 2 = 3: the
    # initiative line names Alice, not the assassin (that is leak 1's, combat/tests/test_secrecy.py).
    response = gm.post(f"/api/v1/encounters/{e}/initiative/", {"dice": {str(pc): [6], str(npc): [1]}},
                       format="json")
    assert response.status_code == 200, response.content
    response = gm.patch(f"/api/v1/encounters/{e}/combatants/{npc}/", {"prone": True}, format="json")
    assert response.status_code == 200, response.content
    # The GM strikes Alice with the assassin, every die entered: "hit at the right chest: 6 trauma, 9 shock".
    hit = gm.post(f"/api/v1/encounters/{e}/attacks/",
                  {"attacker": npc, "target": pc, "stat": "MEL", "dice": DICE}, format="json")
    assert hit.status_code == 201, hit.content
    assert hit.json()["data"]["location"]["location"] == "right_chest", hit.json()

    # Which combat events are GM-only: those the GM's combat log lists and a player's does not.
    def logged(persona):
        return {event["id"] for event in api_as(persona).get(f"/api/v1/encounters/{e}/log/").json()["events"]}

    secret_events = logged("gm") - logged("player")
    lines = LogEntry.objects.filter(campaign=personas["campaign"], action__startswith="combat.")
    secret = [line.summary for line in lines if line.data.get("event") in secret_events]
    public = [line.summary for line in lines if line.data.get("event") not in secret_events]
    assert len(secret) == 3, secret  # joins, is made prone, strikes
    assert any(" trauma" in s and " at the " in s for s in secret), secret  # the hit, its location and trauma
    return {"secret": secret, "public": public, "alice": alice}


def _recent_events(personas, persona: str) -> str:
    """The dashboard's "Recent events" card as the persona reads it."""
    client = Client()
    client.force_login(personas[persona])
    response = client.get(reverse("campaign-dashboard", args=[personas["campaign"].pk]))
    assert response.status_code == 200
    page = response.content.decode()
    card = re.search(r"<h2>Recent events</h2>(.*?)</section>", page, re.S)
    assert card, "no Recent events card"
    return html.unescape(card.group(1))


def test_the_gm_reads_every_combat_line_in_recent_events(personas, secret_fight):
    """Leak 3, control: the GM still reads the GM-only lines (and the public ones)."""
    card = _recent_events(personas, "gm")
    for line in secret_fight["secret"] + secret_fight["public"]:
        assert line in card, line


@pytest.mark.parametrize("persona", WATCHERS)
def test_players_and_viewers_never_read_gm_only_combat_in_recent_events(personas, secret_fight, persona):
    """Leak 3: "Rooftops: Secret Assassin joins the fight", "...: Secret Assassin: prone on" and
    "...: Secret Assassin attacks Alice with Garrotte: hit at the <location>: N trauma, M shock"
    are GM-only combat events, but their audit lines are on every member's dashboard."""
    card = _recent_events(personas, persona)
    shown = [line for line in secret_fight["secret"] if line in card]
    assert shown == [], f"{persona} reads GM-only combat lines in Recent events: {shown}"
    assert ASSASSIN not in card, f"{persona} reads {ASSASSIN!r} in Recent events"
    # The public lines stay: hiding everything would not do.
    assert f"Rooftops: {secret_fight['alice'].name} joins the fight" in card
