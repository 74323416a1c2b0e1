"""The table display: a screen facing the players shows the order, whose turn, wounds as how hurt
each looks and the last rolls, and nothing the GM hides, even on the GM's own laptop."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from characters import items
from combat import parts
from rolls import services as rolls

pytestmark = pytest.mark.django_db

GUARD = {"name": "Customs guard", "revealed": True, "hit_points": 30,
         "weapons": [{"name": "Flintlock pistol", "damage_points": 4, "ranks": 1}]}
SNIPER = {"name": "Rooftop sniper", "weapons": [{"name": "Long rifle", "damage_points": 5, "ranks": 2}]}


@pytest.fixture
def fight(personas, api_as, make_character):
    alice = make_character("player", name="Alice")
    items.item_create(character=alice, kind_name="weapons", by=personas["gm"], is_gm=True,
                      data={"name": "Pistol", "damage_points": 4})
    gm = api_as("gm")
    campaign = personas["campaign"]
    e = gm.post(f"/api/v1/campaigns/{campaign.pk}/encounters/",
                {"name": "The customs house", "gm_notes": "GM-ONLY-NOTE"}, format="json").json()["id"]
    ids = [gm.post(f"/api/v1/encounters/{e}/combatants/", body, format="json").json()["id"]
           for body in ({"character": alice.pk}, GUARD, SNIPER)]
    gm.post(f"/api/v1/encounters/{e}/initiative/", {"dice": {str(ids[0]): [6], str(ids[1]): [2],
                                                             str(ids[2]): [1]}}, format="json")
    hit = gm.post(f"/api/v1/encounters/{e}/attacks/", {"attacker": ids[0], "target": ids[1], "stat": "ACC",
                                                       "dice": {"attack": [1, 2, 2], "location": [40]}},
                  format="json")
    assert hit.status_code == 201, hit.content
    rolls.roll_notation(campaign=campaign, by=personas["player"], text="2d6", label="Alice climbs")
    rolls.roll_notation(campaign=campaign, by=personas["gm"], text="1d6", label="GM-SECRET-ROLL", private=True)
    return {"e": e, "ids": ids, "campaign": campaign}


def _page(personas, persona: str, url: str):
    browser = Client()
    browser.force_login(personas[persona])
    return browser.get(url)


@pytest.mark.parametrize("persona", ["gm", "player", "viewer"])
def test_everyone_sees_the_players_view(fight, personas, persona):
    response = _page(personas, persona, reverse("encounter-table", args=[fight["e"]]))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Round 1" in page and "Customs guard" in page and "Alice climbs" in page
    guard_line = page[page.index(f'data-combatant="{fight["ids"][1]}"'):]
    guard_line = guard_line[:guard_line.index("</li>")]
    assert "hurt" in guard_line, guard_line  # the guard took a hit: its band, not its numbers
    for secret in ("Rooftop sniper", "Long rifle", "GM-SECRET-ROLL", "GM-ONLY-NOTE", "trauma", "Undo last"):
        assert secret not in page, (persona, secret)


def test_the_pushed_parts_are_the_players_view_for_the_gm_too(fight):
    campaign = fight["campaign"]
    for gm in (True, False):
        order = parts.TABLE.render(campaign, fight["e"], gm)
        assert "Customs guard" in order and "Rooftop sniper" not in order, gm
        assert "GM-SECRET-ROLL" not in parts.TABLE_ROLLS.render(campaign, None, gm)
    assert parts.TABLE.render(campaign, 10**9, True) == ""  # no such encounter in this campaign


def test_the_fragments_follow_and_outsiders_get_404(fight, personas):
    url = reverse("encounter-table", args=[fight["e"]])
    order = _page(personas, "player", url + "?part=table").content.decode()
    assert "<html" not in order and "Customs guard" in order
    rolls_part = _page(personas, "player", url + "?part=table-rolls").content.decode()
    assert "Alice climbs" in rolls_part and "GM-SECRET-ROLL" not in rolls_part
    assert _page(personas, "outsider", url).status_code == 404
