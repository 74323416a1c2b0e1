"""The GM's NPC library: save a fight's NPCs as a set-up, start the next fight from it, run a
fight again; the GM's alone, because a set-up names hidden NPCs."""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse

from campaign.changes import change_set
from campaign.services import campaign_create
from combat.models import Combatant, Encounter, NpcSetup
from zenergate_site import limits

pytestmark = pytest.mark.django_db

GUARD = {"name": "Customs guard", "revealed": True, "stats": {"ACC": 13, "MEL": 14}, "armour_rating": 2,
         "armour_type": 2, "weapons": [{"name": "Flintlock pistol", "damage_points": 4, "ranks": 1}]}
SNIPER = {"name": "Rooftop sniper", "stats": {"ACC": 17, "AWA": 15},
          "weapons": [{"name": "Long rifle", "damage_points": 5, "ranks": 2}]}


@pytest.fixture
def fight(personas, api_as, make_character):
    """Alice with a guard and a hidden sniper; the guard takes a hit, the fight ends."""
    alice = make_character("player", name="Alice")
    gm = api_as("gm")
    e = gm.post(f"/api/v1/campaigns/{personas['campaign'].pk}/encounters/",
                {"name": "The customs house", "gm_notes": "The sniper deserted"}, format="json").json()["id"]
    for body in ({"character": alice.pk}, GUARD, SNIPER):
        assert gm.post(f"/api/v1/encounters/{e}/combatants/", body, format="json").status_code == 201
    ids = {c.name: c.pk for c in Combatant.objects.filter(encounter_id=e)}
    with setting_up(personas["campaign"]):
        Combatant.objects.filter(pk=ids["Customs guard"]).update(trauma=7, shock=3, stat_damage={"DEX": 2})
    return {"gm": gm, "e": e, "ids": ids, "alice": alice, "campaign": personas["campaign"]}


@contextmanager
def setting_up(campaign):
    """A write the test makes by hand, through the one write path like any other."""
    with transaction.atomic():
        change_set(campaign=campaign.pk)
        yield


def _stat_block(combatant: Combatant) -> tuple:
    return (combatant.name, combatant.revealed, combatant.stats, combatant.hit_points, combatant.shock_threshold,
            combatant.armour_rating, combatant.weapons)


def test_the_gm_saves_a_set_up_and_starts_a_second_fight_from_it(fight, api_as):
    gm, campaign = fight["gm"], fight["campaign"]
    saved = gm.post(f"/api/v1/campaigns/{campaign.pk}/npc-setups/", {"encounter": fight["e"], "name": "Customs"},
                    format="json")
    assert saved.status_code == 201, saved.content
    assert [npc["name"] for npc in saved.json()["npcs"]] == ["Customs guard", "Rooftop sniper"]
    assert "trauma" not in saved.json()["npcs"][0]  # a set-up keeps stat blocks, never wounds

    started = gm.post(f"/api/v1/npc-setups/{saved.json()['id']}/fights/", {}, format="json")
    assert started.status_code == 201, started.content
    second = Encounter.objects.get(pk=started.json()["id"])
    assert second.name == "Customs" and second.gm_notes == "The sniper deserted" and second.state == "setup"
    old = {c.name: c for c in Combatant.objects.filter(encounter_id=fight["e"])}
    new = {c.name: c for c in Combatant.objects.filter(encounter=second)}
    assert set(new) == {"Alice", "Customs guard", "Rooftop sniper"}  # with the characters in play
    for name in ("Customs guard", "Rooftop sniper"):
        assert _stat_block(new[name]) == _stat_block(old[name]), name
    assert not new["Rooftop sniper"].revealed  # hidden stays hidden
    assert (new["Customs guard"].trauma, new["Customs guard"].shock, new["Customs guard"].stat_damage) == (0, 0, {})
    for persona in ("player", "viewer"):  # the players' view of the new fight does not name the sniper
        assert "Rooftop sniper" not in api_as(persona).get(f"/api/v1/encounters/{second.pk}/").content.decode()

    again = gm.post(f"/api/v1/npc-setups/{saved.json()['id']}/fights/", {"characters": False, "name": "Docks"},
                    format="json")
    assert again.status_code == 201
    assert {c["name"] for c in again.json()["combatants"]} == {"Customs guard", "Rooftop sniper"}
    assert again.json()["name"] == "Docks"


def test_saving_under_the_same_name_replaces_the_set_up(fight):
    gm, campaign = fight["gm"], fight["campaign"]
    url = f"/api/v1/campaigns/{campaign.pk}/npc-setups/"
    assert gm.post(url, {"encounter": fight["e"], "name": "Customs"}, format="json").status_code == 201
    with setting_up(campaign):
        Combatant.objects.filter(pk=fight["ids"]["Rooftop sniper"]).delete()
    replaced = gm.post(url, {"encounter": fight["e"], "name": "Customs"}, format="json")
    assert replaced.status_code == 200
    assert [npc["name"] for npc in replaced.json()["npcs"]] == ["Customs guard"]
    assert NpcSetup.objects.filter(campaign=campaign).count() == 1


@pytest.mark.parametrize("body, field", [
    ({"name": "  "}, "name"),
    ({"name": "X", "encounter": 10**9}, "encounter"),
    ({"name": "X" * 121}, "name"),
    ({"name": "X", "npcs": []}, "npcs"),
])
def test_bad_input_is_a_400_that_saves_nothing(fight, body, field):
    body = {"encounter": fight["e"], **body}
    response = fight["gm"].post(f"/api/v1/campaigns/{fight['campaign'].pk}/npc-setups/", body, format="json")
    assert response.status_code == 400, response.content
    assert field in response.json()["errors"]
    assert not NpcSetup.objects.exists()


def test_a_fight_with_no_npcs_and_another_campaigns_fight_are_refused(fight, personas):
    gm, campaign = fight["gm"], fight["campaign"]
    with setting_up(campaign):
        Combatant.objects.filter(encounter_id=fight["e"], character__isnull=True).delete()
    empty = gm.post(f"/api/v1/campaigns/{campaign.pk}/npc-setups/", {"encounter": fight["e"], "name": "Nobody"},
                    format="json")
    assert empty.status_code == 409 and "no NPCs" in empty.content.decode()
    other = campaign_create(name="Elsewhere", by=personas["gm"])  # the same GM runs a second campaign
    elsewhere = gm.post(f"/api/v1/campaigns/{other.pk}/npc-setups/", {"encounter": fight["e"], "name": "Stolen"},
                        format="json")
    assert elsewhere.status_code == 400
    assert not NpcSetup.objects.exists()


def test_the_library_is_the_gms_alone(fight, api_as, personas):
    gm, campaign = fight["gm"], fight["campaign"]
    setup = gm.post(f"/api/v1/campaigns/{campaign.pk}/npc-setups/", {"encounter": fight["e"], "name": "Customs"},
                    format="json").json()["id"]
    for persona, code in (("player", 403), ("other_player", 403), ("viewer", 403), ("outsider", 404)):
        client = api_as(persona)
        assert client.get(f"/api/v1/campaigns/{campaign.pk}/npc-setups/").status_code == code, persona
        # A set-up (it names hidden NPCs) does not exist for anyone but the GM: word for word as an
        # id never used, so probing ids tells nothing.
        for url in (f"/api/v1/npc-setups/{{}}/", f"/api/v1/npc-setups/{{}}/fights/"):
            call = client.get if url.endswith("/{}/") and "fights" not in url else client.post
            real, never = call(url.format(setup), {}, format="json"), call(url.format(987654), {}, format="json")
            assert real.status_code == never.status_code == 404, persona
            assert real.json() == never.json(), persona
    # The set-up's audit line is the GM's: the players' "Recent events" never show it.
    dashboard = reverse("campaign-dashboard", args=[campaign.pk])
    for persona in ("player", "viewer", "gm"):
        browser = Client()
        browser.force_login(personas[persona])
        shown = "saved the NPC set-up Customs" in browser.get(dashboard).content.decode()
        assert shown == (persona == "gm"), persona


def test_a_fight_runs_again_with_the_same_cast_unhurt(fight):
    gm = fight["gm"]
    assert gm.post(f"/api/v1/encounters/{fight['e']}/initiative/", {}, format="json").status_code == 200
    assert gm.post(f"/api/v1/encounters/{fight['e']}/end/", {}, format="json").status_code == 200
    again = gm.post(f"/api/v1/encounters/{fight['e']}/again/", {}, format="json")
    assert again.status_code == 201, again.content
    assert again.json()["name"] == "The customs house · 2" and again.json()["state"] == "setup"
    assert [c["name"] for c in again.json()["combatants"]] == ["Alice", "Customs guard", "Rooftop sniper"]
    guard = Combatant.objects.get(encounter_id=again.json()["id"], name="Customs guard")
    assert (guard.trauma, guard.stat_damage) == (0, {})
    assert Encounter.objects.get(pk=fight["e"]).state == "ended"  # the old fight stays as it was
    third = gm.post(f"/api/v1/encounters/{again.json()['id']}/again/", {}, format="json")
    assert third.json()["name"] == "The customs house · 3"


def test_the_pages_save_start_and_delete(fight, personas):
    browser = Client()
    browser.force_login(personas["gm"])
    page = reverse("encounter-act", args=[fight["e"]])
    saved = browser.post(page, {"action": "save_setup", "name": "Customs"}, follow=True)
    assert "Saved the NPC set-up Customs" in saved.content.decode()
    setup = NpcSetup.objects.get()
    listing = browser.get(reverse("campaign-encounters", args=[fight["campaign"].pk])).content.decode()
    assert "Rooftop sniper (hidden)" in listing and reverse("npc-setup-act", args=[setup.pk]) in listing
    started = browser.post(reverse("npc-setup-act", args=[setup.pk]), {"action": "fight", "characters": "on"})
    second = Encounter.objects.exclude(pk=fight["e"]).get()
    assert started.status_code == 302 and started["Location"] == reverse("encounter", args=[second.pk])
    assert second.combatants.count() == 3
    again = browser.post(page, {"action": "again"})
    assert again.status_code == 302 and Encounter.objects.count() == 3
    browser.post(reverse("npc-setup-act", args=[setup.pk]), {"action": "delete"})
    assert not NpcSetup.objects.exists() and Encounter.objects.count() == 3

    player = Client()
    player.force_login(personas["player"])
    listing = player.get(reverse("campaign-encounters", args=[fight["campaign"].pk])).content.decode()
    assert "NPC library" not in listing
    assert player.post(reverse("encounter-act", args=[fight["e"]]), {"action": "again"}).status_code == 403


@pytest.mark.parametrize("length", [114, 118, 120])
def test_a_fight_with_a_name_at_its_longest_runs_again_and_again(fight, length):
    """The " · 2" suffix keeps within the column: the name gives way, the fight starts (it was a
    500 from 115 characters up)."""
    gm = fight["gm"]
    long_name = "N" * length
    assert gm.patch(f"/api/v1/encounters/{fight['e']}/", {"name": long_name}, format="json").status_code == 200
    again = gm.post(f"/api/v1/encounters/{fight['e']}/again/", {}, format="json")
    assert again.status_code == 201, again.content
    name = again.json()["name"]
    assert len(name) <= limits.ENCOUNTER_NAME and name.endswith(" · 2") and name.startswith("NNN")
    third = gm.post(f"/api/v1/encounters/{again.json()['id']}/again/", {}, format="json")
    assert third.status_code == 201 and len(third.json()["name"]) <= limits.ENCOUNTER_NAME
