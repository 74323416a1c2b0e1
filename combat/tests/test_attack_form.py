"""The attack form at the table: weapons picked from the attacker's own, what was chosen kept for
its next attack, and no GM-only field for players (nor a way round it through the API)."""

from __future__ import annotations

import re

import pytest
from django.http import QueryDict
from django.test import Client
from django.urls import reverse

from characters import items
from combat.forms import AttackForm
from combat.models import CombatEvent
from economy.tests.conftest import campaign_gm

pytestmark = pytest.mark.django_db

THUG = {"name": "Dock thug", "revealed": True, "stats": {"MEL": 12},
        "weapons": [{"name": "Crowbar", "damage_points": 3, "melee": True, "ranks": 1}]}


@pytest.fixture
def fight(personas, api_as, make_character):
    """Alice (the player's) with a pistol and a knife against a dock thug; Alice acts first."""
    alice = make_character("player", name="Alice")
    for weapon in ({"name": "Pistol", "damage_points": 4}, {"name": "Knife", "damage_points": 2, "melee": True}):
        items.item_create(character=alice, kind_name="weapons", by=campaign_gm(alice.campaign), is_gm=True,
                          data=weapon)
    gm = api_as("gm")
    e = gm.post(f"/api/v1/campaigns/{personas['campaign'].pk}/encounters/", {"name": "Docks"},
                format="json").json()["id"]
    pc = gm.post(f"/api/v1/encounters/{e}/combatants/", {"character": alice.pk}, format="json").json()["id"]
    thug = gm.post(f"/api/v1/encounters/{e}/combatants/", THUG, format="json").json()["id"]
    gm.post(f"/api/v1/encounters/{e}/initiative/", {"dice": {str(pc): [6], str(thug): [1]}}, format="json")
    player = Client()
    player.force_login(personas["player"])
    return {"e": e, "pc": pc, "thug": thug, "gm": gm, "player": player, "api": api_as("player")}


def _form(page: str) -> str:
    return page[page.index('class="attack-form"'):page.index("Roll the attack")]


def test_the_player_picks_a_weapon_of_their_own_and_sees_no_gm_field(fight):
    form = _form(fight["player"].get(reverse("encounter", args=[fight["e"]])).content.decode())
    assert re.search(r'<optgroup label="Alice">\s*<option value="Pistol" selected>Pistol \(', form), form
    assert '<option value="Knife">Knife (' in form
    assert "Crowbar" not in form  # the thug's weapon is not the player's to pick
    assert 'name="modifier"' not in form and "GM modifier" not in form


def test_a_player_cannot_give_themselves_the_gms_modifier_through_the_api(fight):
    before = CombatEvent.objects.count()
    body = {"attacker": fight["pc"], "target": fight["thug"], "weapon": "Pistol", "stat": "ACC", "modifier": 10}
    for preview in (True, False):
        response = fight["api"].post(f"/api/v1/encounters/{fight['e']}/attacks/", {**body, "preview": preview},
                                     format="json")
        assert response.status_code == 400, response.content
        assert "Only the GM gives a situational modifier" in response.json()["errors"]["modifier"][0]
    assert CombatEvent.objects.count() == before
    url = f"/api/v1/encounters/{fight['e']}/attacks/"
    with_it = fight["gm"].post(url, {**body, "preview": True}, format="json")
    without = fight["gm"].post(url, {**body, "preview": True, "modifier": 0}, format="json")
    assert with_it.status_code == 200, with_it.content  # the GM may
    assert with_it.json()["target_number"] == without.json()["target_number"] + 10


def test_what_the_player_chose_is_kept_for_their_next_attack(fight):
    url = reverse("encounter-act", args=[fight["e"]])
    page = fight["player"].get(reverse("encounter", args=[fight["e"]])).content.decode()
    key = re.search(r'name="idempotency_key" value="(\w+)"', page).group(1)
    sent = fight["player"].post(url, {
        "action": "attack", "attacker": fight["pc"], "target": fight["thug"], "weapon": "Knife", "stat": "MEL",
        "aimed_area": "head_torso", "range_m": "2", "aim_seconds": "1",
        "idempotency_key": key, "dice_attack": "6 6 6"})
    assert sent.status_code == 302
    assert CombatEvent.objects.filter(kind="attack").count() == 1
    for _ in range(2):  # the thug's turn, then Alice's again in round 2
        assert fight["gm"].post(f"/api/v1/encounters/{fight['e']}/next-turn/", {}, format="json").status_code == 200
    form = _form(fight["player"].get(reverse("encounter", args=[fight["e"]])).content.decode())
    assert '<option value="Knife" selected>' in form
    assert '<option value="MEL" selected>' in form and '<option value="head_torso" selected>' in form
    assert re.search(r'name="range_m" value="2\.0"', form), form
    assert re.search(r'name="aim_seconds" value="1\.0"', form)


def test_the_stat_follows_the_weapon_unless_chosen():
    """Left at "the weapon's", a knife attacks with MEL and a pistol with ACC; a chosen stat stays."""
    alice = {"id": 1, "name": "Alice", "weapons": [{"name": "Pistol", "damage": "1d6", "melee": False},
                                                   {"name": "Knife", "damage": "½d6", "melee": True}]}
    thug = {"id": 2, "name": "Thug"}
    for weapon, chosen, stat in (("Knife", "", "MEL"), ("Pistol", "", "ACC"), ("", "", "ACC"), ("Knife", "ACC", "ACC")):
        form = AttackForm({"attacker": 1, "target": 2, "weapon": weapon, "stat": chosen, "aimed_area": "whole_body"},
                           attackers=[alice], targets=[alice, thug], is_gm=False)
        assert form.is_valid(), form.errors
        assert form.cleaned_data["stat"] == stat, (weapon, chosen)
        assert form.remembered()["stat"] == chosen


def test_an_attack_waiting_for_the_gm_sent_twice_with_one_key_waits_once(fight):
    """A phone that lost the answer sends the same form again: the request is made once."""
    assert fight["gm"].patch(f"/api/v1/encounters/{fight['e']}/", {"require_approval": True},
                             format="json").status_code == 200
    body = {"attacker": fight["pc"], "target": fight["thug"], "weapon": "Pistol", "idempotency_key": "tap-1"}
    first = fight["api"].post(f"/api/v1/encounters/{fight['e']}/attacks/", body, format="json")
    again = fight["api"].post(f"/api/v1/encounters/{fight['e']}/attacks/", body, format="json")
    assert first.status_code == again.status_code == 202, (first.content, again.content)
    assert first.json()["id"] == again.json()["id"]
    assert CombatEvent.objects.filter(kind="request").count() == 1


def test_table_dice_come_one_box_per_die():
    """The boxes of a slot post its name once per die; empty boxes are left to the app's dice."""
    data = QueryDict(mutable=True)
    data.update({"attacker": "1", "target": "2", "aimed_area": "whole_body"})
    for face in ("6", "", "4"):
        data.appendlist("dice_attack", face)
    data.appendlist("dice_location", "50")
    data.appendlist("dice_damage", "6 5, 4")
    form = AttackForm(data, attackers=[{"id": 1, "name": "Alice"}], targets=[{"id": 2, "name": "Thug"}])
    assert form.is_valid(), form.errors
    assert form.dice() == {"attack": [6, 4], "location": [50], "damage": [6, 5, 4]}
