"""The campaign's ``typed_dice`` setting: which dice a player may type for their own actions
(none / their own attack and damage dice, the default / all); the GM types any; the feed marks
typed dice."""

import pytest
from django.test import Client
from django.urls import reverse

from campaign.models import Campaign
from combat.models import CombatEvent
from rolls.models import Roll

pytestmark = pytest.mark.django_db

GOON = {"name": "Goon", "revealed": True, "weapons": [{"name": "Club", "damage_points": 3, "melee": True}]}


@pytest.fixture
def fight(personas, api_as, make_character):
    from characters import items
    from economy.tests.conftest import campaign_gm

    alice = make_character("player")
    items.item_create(character=alice, kind_name="weapons", by=campaign_gm(alice.campaign), is_gm=True,
                      data={"name": "Baton", "damage_points": 3, "melee": True})
    gm = api_as("gm")
    e = gm.post(f"/api/v1/campaigns/{personas['campaign'].pk}/encounters/", {"name": "Brawl"}, format="json").json()["id"]
    pc = gm.post(f"/api/v1/encounters/{e}/combatants/", {"character": alice.pk}, format="json").json()["id"]
    goon = gm.post(f"/api/v1/encounters/{e}/combatants/", GOON, format="json").json()["id"]
    gm.post(f"/api/v1/encounters/{e}/initiative/", {"dice": {str(pc): [6], str(goon): [1]}}, format="json")
    return {"gm": gm, "e": e, "pc": pc, "goon": goon, "alice": alice, "campaign": personas["campaign"]}


def typed_dice(campaign, value: str, gm) -> None:
    response = gm.patch(f"/api/v1/campaigns/{campaign.pk}/", {"typed_dice": value}, format="json")
    assert response.status_code == 200 and response.json()["typed_dice"] == value


def attack(api, fight, dice):
    return api.post(f"/api/v1/encounters/{fight['e']}/attacks/",
                    {"attacker": fight["pc"], "target": fight["goon"], "stat": "MEL", "dice": dice}, format="json")


def test_by_default_a_player_types_their_own_attack_and_damage_dice_only(fight, api_as):
    assert Campaign.objects.get(pk=fight["campaign"].pk).typed_dice == "own"
    refused = attack(api_as("player"), fight, {"attack": [1, 1, 1], "location": [50]})
    assert refused.status_code == 400
    assert refused.json()["errors"]["dice"] == [
        "You type your own attack and damage dice only; the location dice are the GM's or the app's in this campaign."]
    assert not CombatEvent.objects.filter(kind="attack").exists()
    made = attack(api_as("player"), fight, {"attack": [6, 6, 6]})  # 18: a miss, whatever the target
    assert made.status_code == 201, made.json()
    assert made.json()["data"]["roll"]["faces"] == [6, 6, 6]


def test_with_none_a_player_types_no_die_and_the_gm_still_types_any(fight, api_as, make_character):
    typed_dice(fight["campaign"], "none", fight["gm"])
    refused = attack(api_as("player"), fight, {"attack": [6, 6, 6]})
    assert refused.status_code == 400
    assert refused.json()["errors"]["dice"] == ["In this campaign the app rolls the players' dice: leave the dice empty."]
    assert not CombatEvent.objects.filter(kind="attack").exists()
    alice = fight["alice"]
    sheet = api_as("player").post(f"/api/v1/characters/{alice.pk}/rolls/",
                                  {"line": "stat:STR", "dice": [1, 1, 1, 1], "idempotency_key": "k1"}, format="json")
    assert sheet.status_code == 400 and "leave the dice empty" in sheet.json()["errors"]["dice"][0]
    rolled = api_as("player").post(f"/api/v1/characters/{alice.pk}/rolls/",
                                   {"line": "stat:STR", "idempotency_key": "k2"}, format="json")
    assert rolled.status_code == 201
    assert Roll.objects.filter(character=alice).count() == 1
    by_gm = api_as("gm").post(f"/api/v1/characters/{alice.pk}/rolls/",
                              {"line": "stat:STR", "dice": [1, 1, 1, 1], "idempotency_key": "k3"}, format="json")
    assert by_gm.status_code == 201 and [d["face"] for d in by_gm.json()["dice"]] == [1, 1, 1, 1]
    assert attack(fight["gm"], fight, {"attack": [1, 1, 2], "location": [50]}).status_code == 201


def test_with_all_a_player_types_the_location_too(fight, api_as):
    typed_dice(fight["campaign"], "all", fight["gm"])
    made = attack(api_as("player"), fight, {"attack": [1, 1, 2], "location": [50]})  # 4: a hit
    assert made.status_code == 201, made.json()
    dice = made.json()["data"]["dice"]
    assert dice["attack"] == [{"sides": 6, "face": f, "entered": True} for f in (1, 1, 2)]
    assert dice["location"] == [{"sides": 100, "face": 50, "entered": True}]


def test_a_bad_setting_is_refused_and_changes_nothing(fight):
    response = fight["gm"].patch(f"/api/v1/campaigns/{fight['campaign'].pk}/", {"typed_dice": "some"}, format="json")
    assert response.status_code == 400 and "typed_dice" in response.json()["errors"]
    assert Campaign.objects.get(pk=fight["campaign"].pk).typed_dice == "own"


def test_the_players_attack_form_offers_only_the_dice_they_may_type(fight, api_as):
    client = Client()
    client.force_login(fight["alice"].owner)
    page = reverse("encounter", args=[fight["e"]])
    html = client.get(page).content.decode()
    assert 'name="dice_attack"' in html and 'name="dice_damage"' in html
    assert 'name="dice_location"' not in html and 'name="dice_shock"' not in html
    typed_dice(fight["campaign"], "none", fight["gm"])
    html = client.get(page).content.decode()
    assert 'name="dice_attack"' not in html and "Dice rolled at the table" not in html
    typed_dice(fight["campaign"], "all", fight["gm"])
    assert 'name="dice_location"' in client.get(page).content.decode()


def test_the_feed_marks_typed_dice(fight, api_as):
    alice = fight["alice"]
    api_as("player").post(f"/api/v1/characters/{alice.pk}/rolls/",
                          {"line": "stat:STR", "dice": [2, 2, 2, 2], "idempotency_key": "typed"}, format="json")
    api_as("player").post(f"/api/v1/characters/{alice.pk}/rolls/", {"line": "stat:STR", "idempotency_key": "app"},
                          format="json")
    typed, rolled = Roll.objects.filter(character=alice).order_by("pk")
    assert typed.typed and not rolled.typed
    client = Client()
    client.force_login(fight["alice"].owner)
    html = client.get(reverse("campaign-dashboard", args=[fight["campaign"].pk])).content.decode()
    assert html.count("typed at the table</span>") == 1


def test_the_gm_sets_it_on_the_settings_page_and_players_read_it(fight, personas):
    campaign = fight["campaign"]
    gm = Client()
    gm.force_login(personas["gm"])
    page = reverse("campaign-settings", args=[campaign.pk])
    assert 'name="typed_dice"' in gm.get(page).content.decode()
    response = gm.post(page, {"action": "settings", "name": campaign.name, "description": "", "stat_entry": "enter",
                              "stat_dice": "4d6", "max_skill_ranks": 3, "typed_dice": "none", "rule_set": "zener"})
    assert response.status_code == 302
    assert Campaign.objects.get(pk=campaign.pk).typed_dice == "none"
    player = Client()
    player.force_login(personas["player"])
    assert "None: the app rolls them" in player.get(page).content.decode()
