"""A ZeroSpace fight at the table, through the API: the article's Soraya fight (001,
"Zugreihenfolge" … "Eine Aktion erzwingen") played by the GM and Soraya's player, every round
checked against the text; Zener Gate characters refused by name."""

import pytest
from django.test import Client

from campaign import services as campaign_services
from characters import system_sheets
from characters.tests.factories import create_draft
from combat.models import SystemFight
from conftest import PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture
def zerospace(personas):
    campaign = campaign_services.campaign_update(campaign=personas["campaign"], by=personas["gm"],
                                                 rule_set="zerospace")
    soraya = system_sheets.system_sheet_create(campaign=campaign, owner=personas["player"], by=personas["player"],
                                               name="Soraya", lines=[{"name": "Close combat", "inputs": {"av": 6}}])
    issvisk = system_sheets.system_sheet_create(campaign=campaign, owner=personas["other_player"],
                                                by=personas["other_player"], name="Issvisk")
    return campaign, soraya, issvisk


def _act(client, fight_id, action, **body):
    response = client.post(f"/api/v1/system-fights/{fight_id}/actions/", {"action": action, **body}, format="json")
    assert response.status_code == 200, response.json()
    return response.json()


def _round(gm, fight_id, during=None):
    """Play every regular turn of the next round; ``during(acting)`` may act at each."""
    body = _act(gm, fight_id, "next")
    while True:
        if during:
            during(body["acting"])
        body = gm.get(f"/api/v1/system-fights/{fight_id}/").json()
        if body["order"][-1]["acting"]:
            return body
        body = _act(gm, fight_id, "next")


def _played(body, number):
    turns = next(r["turns"] for r in body["rounds"] if r["round"] == number)
    return [t for t in turns if not t.endswith(("(delayed)", "(given up)"))]


def test_the_soraya_fight_through_the_api(api_as, zerospace):
    campaign, soraya, issvisk = zerospace
    gm, player = api_as("gm"), api_as("player")
    started = gm.post(f"/api/v1/campaigns/{campaign.pk}/system-fights/", {"name": "Warehouse", "fighters": [
        {"name": "Virek-Kohl", "total": 11, "action_value": 3},
        {"sheet": soraya.pk, "total": 14, "action_value": 4},
        {"name": "Lackeys", "total": 7},
    ]}, format="json")
    assert started.status_code == 201, started.json()
    fight = started.json()["id"]
    assert [f["name"] for f in started.json()["order"]] == ["Soraya", "Virek-Kohl", "Lackeys"]

    body = _round(gm, fight)
    assert _played(body, 1) == ["Soraya", "Virek-Kohl", "Lackeys"]
    _act(gm, fight, "insert", sheet=issvisk.pk, after="Virek-Kohl")  # round 2: Issvisk turns up
    body = _round(gm, fight)
    assert _played(body, 2) == ["Soraya", "Virek-Kohl", "Issvisk", "Lackeys"]

    def round_3(acting):  # Soraya's player holds, then helps Issvisk
        if acting == "Soraya":
            _act(player, fight, "hold", name="Soraya")
        if acting == "Issvisk":
            _act(player, fight, "take_held", name="Soraya")

    body = _round(gm, fight, round_3)
    assert _played(body, 3) == ["Virek-Kohl", "Issvisk", "Soraya (held)", "Lackeys"]
    body = _round(gm, fight)
    body = _round(gm, fight)
    assert _played(body, 5) == ["Soraya", "Virek-Kohl", "Issvisk", "Lackeys"]

    def round_6(acting):  # she dives in front of Issvisk during Virek-Kohl's turn
        if acting == "Virek-Kohl":
            _act(player, fight, "force", name="Soraya")

    body = _round(gm, fight, round_6)
    assert _played(body, 6) == ["Soraya", "Virek-Kohl", "Soraya (forced)", "Issvisk", "Lackeys"]
    body = _round(gm, fight)
    assert _played(body, 7) == ["Virek-Kohl", "Issvisk", "Lackeys"]
    body = _round(gm, fight)
    assert _played(body, 8) == ["Soraya", "Virek-Kohl", "Issvisk", "Lackeys"]


def test_a_zener_gate_character_is_refused_by_name(api_as, personas, zerospace):
    campaign, soraya, _ = zerospace
    mara = create_draft(personas, name="Mara")
    response = api_as("gm").post(f"/api/v1/campaigns/{campaign.pk}/system-fights/", {"name": "Mixed", "fighters": [
        {"sheet": soraya.pk, "total": 10}, {"character": mara.pk, "total": 9}]}, format="json")
    assert response.status_code == 400
    message = response.json()["errors"]["fighters.1"][0]
    assert "Mara is a Zener Gate character; this fight plays ZeroSpace" in message
    assert not SystemFight.objects.exists()


def test_a_zener_gate_campaign_fights_in_encounters(api_as, personas):
    response = api_as("gm").post(f"/api/v1/campaigns/{personas['campaign'].pk}/system-fights/",
                                 {"name": "Brawl", "fighters": [{"name": "Goon", "total": 3}]}, format="json")
    assert response.status_code == 409
    assert "Zener Gate fights are Encounters" in response.json()["errors"]["campaign"][0]


def test_players_move_only_their_own_character(api_as, zerospace):
    campaign, soraya, issvisk = zerospace
    gm = api_as("gm")
    fight = gm.post(f"/api/v1/campaigns/{campaign.pk}/system-fights/", {"name": "Warehouse", "fighters": [
        {"sheet": soraya.pk, "total": 14}, {"sheet": issvisk.pk, "total": 9}]}, format="json").json()["id"]
    _act(gm, fight, "next")
    url = f"/api/v1/system-fights/{fight}/actions/"
    assert api_as("other_player").post(url, {"action": "hold", "name": "Soraya"}, format="json").status_code == 403
    assert api_as("player").post(url, {"action": "next"}, format="json").status_code == 403
    assert api_as("viewer").post(url, {"action": "force", "name": "Soraya"}, format="json").status_code == 403
    assert api_as("outsider").get(f"/api/v1/system-fights/{fight}/").status_code == 404
    assert api_as("viewer").get(f"/api/v1/system-fights/{fight}/").status_code == 200
    refused = api_as("other_player").post(url, {"action": "hold", "name": "Issvisk"}, format="json")
    assert refused.status_code == 409 and "it is Soraya's" in str(refused.json())
    twice = api_as("player").post(url, {"action": "force", "name": "Soraya"}, format="json")
    assert twice.status_code == 200
    again = api_as("player").post(url, {"action": "force", "name": "Soraya"}, format="json")
    assert again.status_code == 409 and "already forced" in str(again.json())


def test_the_pages_start_and_run_a_fight(personas, zerospace):
    campaign, soraya, issvisk = zerospace
    gm = Client()
    gm.login(username="gm", password=PASSWORD)
    page = gm.get(f"/campaigns/{campaign.pk}/system-fights/")
    assert page.status_code == 200 and "Start the fight" in page.content.decode()
    made = gm.post(f"/campaigns/{campaign.pk}/system-fights/", {
        "name": "Warehouse", f"sheet-{soraya.pk}-total": "14", f"sheet-{issvisk.pk}-total": "",
        "npc-0-name": "Virek-Kohl", "npc-0-total": "11"})
    assert made.status_code == 302
    fight = SystemFight.objects.get()
    assert list(fight.fighters) == ["Soraya", "Virek-Kohl"]
    gm.post(f"/system-fights/{fight.pk}/act/", {"action": "next"})
    html = gm.get(f"/system-fights/{fight.pk}/").content.decode()
    assert "Round 1: Soraya acts" in html
    bad = gm.post(f"/campaigns/{campaign.pk}/system-fights/", {"name": "Bad", "npc-0-name": "X", "npc-0-total": "lots"})
    assert bad.status_code == 400 and "whole number" in bad.content.decode()
