"""The campaign log: every audit line a member may read, filtered by kind and character, paged.

Issue: the stat roller promised "every roll goes into the campaign log for the GM", and no page
listed the log; the GM now finds a character's rolled stats (and a reroll) there.
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign.audience import GM_ONLY
from campaign.testing import arranged
from characters import services_rolls
from characters.tests.factories import create_draft
from rulebook.words import said

pytestmark = pytest.mark.django_db


@pytest.fixture
def rolled(personas):
    campaign = personas["campaign"]
    with arranged(campaign):
        campaign.stat_entry = "roll"
        campaign.save()
    draft = create_draft(personas, name="Vesna")
    for _ in range(2):  # rolled, then rolled again
        services_rolls.stats_roll(campaign=campaign, by=personas["player"], character=draft)
    with arranged(campaign) as write:
        write.audit("combat.secret", said("The ambush waits behind the door"), seen=GM_ONLY)
    return draft


def test_the_gm_finds_a_characters_rolled_stats_and_the_reroll(rolled, client, personas):
    client.force_login(personas["gm"])
    url = reverse("campaign-log", args=[personas["campaign"].pk])
    page = client.get(url, {"character": rolled.pk}).content.decode()
    assert page.count("rolled stats for Vesna") == 2
    assert "The ambush waits" not in page  # filtered to the character
    assert "The ambush waits" in client.get(url).content.decode()


def test_players_read_only_the_lines_shared_with_them(rolled, client, personas, api_as):
    url = reverse("campaign-log", args=[personas["campaign"].pk])
    client.force_login(personas["player"])
    page = client.get(url).content.decode()
    assert "rolled stats for Vesna" in page and "The ambush waits" not in page
    api = f"/api/v1/campaigns/{personas['campaign'].pk}/log/"
    mine = api_as("player").get(api).json()["entries"]
    assert mine and all(not e["gm_only"] and e["data"] == {} for e in mine)
    gm = api_as("gm").get(api, {"kind": "character"}).json()["entries"]
    assert {e["action"] for e in gm} >= {"character.roll", "character.create"}
    assert all(e["action"].startswith("character.") for e in gm)
    rolls = [e for e in gm if e["action"] == "character.roll"]
    assert len(rolls) == 2 and rolls[0]["data"]["character"] == rolled.pk and "stats" in rolls[0]["data"]


def test_pages_of_the_log_and_their_queries(rolled, client, personas, api_as):
    api = f"/api/v1/campaigns/{personas['campaign'].pk}/log/"
    first = api_as("gm").get(api, {"limit": 2}).json()
    second = api_as("gm").get(api, {"limit": 2, "before": first["next_before"]}).json()
    assert len(first["entries"]) == 2 and not {e["id"] for e in first["entries"]} & {e["id"] for e in second["entries"]}
    client.force_login(personas["gm"])
    url = reverse("campaign-log", args=[personas["campaign"].pk])
    with CaptureQueriesContext(connection) as few:
        client.get(url)
    for _ in range(5):
        services_rolls.stats_roll(campaign=personas["campaign"], by=personas["player"], character=rolled)
    with CaptureQueriesContext(connection) as many:
        client.get(url)
    assert len(many) == len(few)


@pytest.mark.parametrize("query", [{"kind": "Bad!"}, {"before": "x"}, {"limit": 0}, {"character": -1},
                                   {"surprise": 1}])
def test_a_bad_query_is_400(personas, api_as, query):
    response = api_as("gm").get(f"/api/v1/campaigns/{personas['campaign'].pk}/log/", query)
    assert response.status_code == 400


def test_the_filter_by_character_follows_them_into_a_fight(personas, api_as, make_character):
    """A character who attacks and misses, is hit, and gets first aid: "Combat" with that character
    lists each of those fight lines, and "Everything" with them shows them too."""
    from combat import services as combat

    from characters import items

    hero = make_character("player", name="Theo")
    items.item_create(character=hero, kind_name="weapons", by=personas["gm"], is_gm=True,
                      data={"name": "Pistol", "damage_points": 4})
    other = make_character("other_player", name="Mira")
    gm = api_as("gm")
    campaign = personas["campaign"]
    encounter = combat.encounter_create(campaign=campaign, by=personas["gm"], name="Docks")
    theo = combat.combatant_add(encounter=encounter, by=personas["gm"], character_id=hero.pk)
    mira = combat.combatant_add(encounter=encounter, by=personas["gm"], character_id=other.pk)
    thug = combat.combatant_add(encounter=encounter, by=personas["gm"], npc={"name": "Thug", "revealed": True,
                                                                                "weapons": [{"name": "Club", "damage_points": 3}]})
    gm.post(f"/api/v1/encounters/{encounter.pk}/initiative/",
            {"dice": {str(theo.pk): [6], str(thug.pk): [3], str(mira.pk): [1]}}, format="json")
    missed = gm.post(f"/api/v1/encounters/{encounter.pk}/attacks/",
                     {"attacker": theo.pk, "target": thug.pk, "dice": {"attack": [6, 6, 6]}}, format="json")
    assert missed.status_code == 201 and missed.json()["data"]["outcome"] == "miss", missed.json()
    gm.post(f"/api/v1/encounters/{encounter.pk}/next-turn/", {}, format="json")
    hit = gm.post(f"/api/v1/encounters/{encounter.pk}/attacks/",
                  {"attacker": thug.pk, "target": theo.pk, "dice": {"attack": [1, 2, 2]}}, format="json")
    assert hit.status_code == 201, hit.json()
    url = f"/api/v1/campaigns/{campaign.pk}/log/"
    fights = gm.get(url, {"kind": "combat", "character": hero.pk}).json()["entries"]
    said = [e["summary"] for e in fights]
    assert any("Theo attacks Thug" in s and ": miss" in s for s in said), said
    assert any("Thug attacks Theo" in s for s in said), said
    assert any("Theo joins the fight" in s for s in said), said
    assert not any("Mira joins" in s for s in said)  # another character's line is not Theo's
    everything = [e["summary"] for e in gm.get(url, {"character": hero.pk}).json()["entries"]]
    assert any("Thug attacks Theo" in s for s in everything)
