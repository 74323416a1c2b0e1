"""An attack adds the ranks of the skill that covers the weapon in hand, and aims as long as that
weapon's class allows.

Article, "Combat" (the attack summary: "the attacker's weapon skill ranks in the weapon being
employed"), "Skills" (Unproficient: the skill foundation alone), "Additional Rules" (Aiming:
pistols capped at 2 s, rifles at 10 s, sniper attacks at 10 min).
"""

import pytest

from characters import items
from characters.models import Weapon
from rulebook.skills import skill_foundation
from rulebook.tables import aiming_bonus

pytestmark = pytest.mark.django_db


@pytest.fixture
def fight(personas, api_as, make_character):
    """alice's character (ACC 15, MEL 13) with 2 ranks of Pistol, a pistol and a knife, against a
    revealed NPC with a Club (2 ranks) and a Sling (0 ranks)."""
    gm = personas["campaign"].memberships.get(role="gm").user
    alice = make_character("player", stats={"ACC": 15, "MEL": 13})
    pistol_skill = items.item_create(character=alice, kind_name="skills", by=gm, is_gm=True,
                                     data={"name": "Pistol", "breadth": "weapon_type", "ranks": 2, "stat": "ACC"})
    for weapon in ({"name": "Pistol", "damage_points": 3}, {"name": "Knife", "damage_points": 2, "melee": True}):
        items.item_create(character=alice, kind_name="weapons", by=gm, is_gm=True, data=weapon)
    api = api_as("gm")
    encounter = api.post(f"/api/v1/campaigns/{personas['campaign'].pk}/encounters/", {"name": "Alley"},
                         format="json").json()["id"]
    pc = api.post(f"/api/v1/encounters/{encounter}/combatants/", {"character": alice.pk}, format="json").json()["id"]
    npc = api.post(f"/api/v1/encounters/{encounter}/combatants/", {
        "name": "Thug", "stats": {"ACC": 14, "MEL": 14, "RES": 14}, "revealed": True,
        "weapons": [{"name": "Club", "damage_points": 3, "ranks": 2, "melee": True},
                    {"name": "Sling", "damage_points": 2, "ranks": 0}]}, format="json").json()["id"]
    assert api.post(f"/api/v1/encounters/{encounter}/initiative/", {"dice": {str(pc): [6], str(npc): [1]}},
                    format="json").status_code == 200
    return {"api": api, "encounter": encounter, "pc": pc, "npc": npc, "alice": alice, "pistol_skill": pistol_skill,
            "gm": gm, "player_api": api_as("player")}


def _preview(fight, attacker, target, **body):
    response = fight["api"].post(f"/api/v1/encounters/{fight['encounter']}/attacks/",
                                 {"attacker": attacker, "target": target, "preview": True, **body}, format="json")
    assert response.status_code == 200, response.json()
    return {label: value for label, value in response.json()["breakdown"]}


def test_a_new_weapon_takes_the_skill_its_name_matches_and_its_aiming_class(fight):
    weapons = {w.name: w for w in Weapon.objects.filter(character=fight["alice"])}
    assert weapons["Pistol"].skill == fight["pistol_skill"] and weapons["Pistol"].aiming == "pistol"
    assert weapons["Knife"].skill is None


def test_the_pistol_adds_its_skills_ranks_and_the_knife_none(fight):
    """Two ranks of Pistol help the pistol; stabbing with a knife is unproficient (foundation alone)."""
    pistol = _preview(fight, fight["pc"], fight["npc"], weapon="Pistol", stat="ACC")
    assert pistol["weapon skill ranks (Pistol)"] == 2
    knife = _preview(fight, fight["pc"], fight["npc"], weapon="Knife", stat="MEL")
    assert knife["unproficient: no weapon skill covers the Knife"] == 0
    foundation = next(v for k, v in knife.items() if k.startswith("skill foundation"))
    assert foundation == skill_foundation(13)


def test_an_npc_weapon_adds_its_own_ranks(fight):
    """The Sling has 0 ranks: it does not borrow the Club's 2."""
    club = _preview(fight, fight["npc"], fight["pc"], weapon="Club", stat="MEL")
    sling = _preview(fight, fight["npc"], fight["pc"], weapon="Sling", stat="ACC")
    assert club["weapon skill ranks (Club)"] == 2
    assert sling["unproficient: no weapon skill covers the Sling"] == 0


def test_aiming_is_capped_by_the_weapons_class(fight):
    """Aiming 5 s: a pistol's aim stops paying at 2 s, a rifle's goes on to 10 s."""
    aimed = _preview(fight, fight["pc"], fight["npc"], weapon="Pistol", range_m=10, aim_seconds=5)
    assert aimed["aiming"] == aiming_bonus(2, "pistol") == aiming_bonus(5, "pistol")
    Weapon.objects.filter(character=fight["alice"], name="Pistol").update(aiming="rifle")
    rifle = _preview(fight, fight["pc"], fight["npc"], weapon="Pistol", range_m=10, aim_seconds=5)
    assert rifle["aiming"] == aiming_bonus(5, "rifle") > aimed["aiming"]


def test_the_attack_follows_the_skill_the_sheet_names(fight, api_as):
    """Linking the knife to the Pistol skill (the GM's call) adds its ranks; a skill that is not a
    weapon skill, or another character's, is refused and changes nothing."""
    gm = api_as("gm")
    alice = fight["alice"]
    knife = Weapon.objects.get(character=alice, name="Knife")
    url = f"/api/v1/characters/{alice.pk}/weapons/{knife.pk}/"
    assert gm.patch(url, {"skill": fight["pistol_skill"].pk}, format="json").status_code == 200
    assert _preview(fight, fight["pc"], fight["npc"], weapon="Knife", stat="MEL")["weapon skill ranks (Pistol)"] == 2
    medic = items.item_create(character=alice, kind_name="skills", by=fight["gm"], is_gm=True,
                              data={"name": "Medic", "breadth": "narrow", "ranks": 3, "stat": "PRAC"})
    for wrong in (medic.pk, 10**9):
        refused = gm.patch(url, {"skill": wrong}, format="json")
        assert refused.status_code == 400 and "skill" in refused.json()["errors"], refused.json()
    assert Weapon.objects.get(pk=knife.pk).skill_id == fight["pistol_skill"].pk
    assert gm.patch(url, {"skill": None}, format="json").status_code == 200
    assert Weapon.objects.get(pk=knife.pk).skill_id is None


def test_suppression_fire_is_minus_5_in_place_of_any_aiming(fight):
    """Article, "Additional Rules", Extra Time Spent/Rushing: pointing a weapon roughly at the
    target and pulling the trigger is −5 to hit; the time spent aiming then counts for nothing."""
    aimed = _preview(fight, fight["pc"], fight["npc"], weapon="Pistol", range_m=10, aim_seconds=2,
                     suppression=True)
    assert aimed["suppression fire (no aiming)"] == -5 and "aiming" not in aimed


def test_a_waiting_request_stored_with_the_old_weapon_class_is_still_approved(fight):
    """A request made before weapons carried their aiming class kept a weapon_class of its own;
    approving it reads the request with today's fields."""
    from django.db import transaction

    from campaign.changes import change_set
    from combat.models import CombatEvent

    api, e = fight["api"], fight["encounter"]
    assert api.patch(f"/api/v1/encounters/{e}/", {"require_approval": True}, format="json").status_code == 200
    player = fight["player_api"]
    waiting = player.post(f"/api/v1/encounters/{e}/attacks/", {"attacker": fight["pc"], "target": fight["npc"],
                                                               "weapon": "Pistol"}, format="json")
    assert waiting.status_code == 202, waiting.json()
    event = CombatEvent.objects.get(kind="request")
    with transaction.atomic():
        change_set(campaign=event.encounter.campaign_id)
        CombatEvent.objects.filter(pk=event.pk).update(
            data={**event.data, "request": {**event.data["request"], "weapon_class": "rifle"}})
    approved = api.post(f"/api/v1/encounters/{e}/requests/{event.pk}/", {"approve": True}, format="json")
    assert approved.status_code == 201, approved.json()
    assert approved.json()["kind"] == "attack"


def test_the_gm_may_mandate_a_smaller_hit_location_die(fight):
    """Article, "Hit Location": the GM can mandate a smaller die, making some results likelier. On a
    d20 the whole-body column reads only its first 20 rows: a 20 is the left chest (16–30), never a leg."""
    url = f"/api/v1/encounters/{fight['encounter']}/attacks/"
    body = {"attacker": fight["pc"], "target": fight["npc"], "weapon": "Pistol", "location_die": 20}
    too_high = fight["api"].post(url, {**body, "dice": {"attack": [1, 1, 2], "location": [21]}}, format="json")
    assert too_high.status_code == 400
    hit = fight["api"].post(url, {**body, "dice": {"attack": [1, 1, 2], "location": [20]}}, format="json")
    assert hit.status_code == 201, hit.json()
    location = hit.json()["data"]["location"]
    assert location["location"] == "left_chest" and location["breakdown"][0][0].startswith("d20 (the GM's smaller die)")


def test_only_the_gm_mandates_a_smaller_hit_location_die(fight):
    response = fight["player_api"].post(f"/api/v1/encounters/{fight['encounter']}/attacks/",
                                        {"attacker": fight["pc"], "target": fight["npc"], "weapon": "Pistol",
                                         "location_die": 20}, format="json")
    assert response.status_code == 400 and "location_die" in response.json()["errors"]
