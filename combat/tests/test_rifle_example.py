"""The article's worked examples through the API, with the dice rolled at the table."""

import pytest

from characters import items
from characters.models import Character
from characters.wounds import WOUND_COLUMNS
from combat.models import Combatant, Encounter

pytestmark = pytest.mark.django_db

#: HP 2·7 + 8 + 8 = 30 → SHK ⌈30 / 5⌉ = 6, as in the article's example; CON 7 saves at 7 − 2.
FRAIL = {"CON": 7, "RES": 8, "NIM": 8}
RIFLE = {"name": "Rifle", "damage_points": 5, "ranks": 2}  # 3d6


def _wounds(character_id: int) -> dict:
    row = Character.objects.get(pk=character_id)
    return {name: getattr(row, name) for name in WOUND_COLUMNS}


@pytest.fixture
def fight(personas, api_as, make_character):
    """alice's character in chest armour 5 against a rifleman; the rifleman acts first."""
    alice = make_character("player", stats=FRAIL)
    gm = personas["campaign"].memberships.get(role="gm").user
    items.item_create(character=alice, kind_name="armour", by=gm, is_gm=True,
                      data={"name": "Ballistic vest", "hardness": 5, "coverage": 4, "nim_penalty": 0})
    api = api_as("gm")
    encounter = api.post(f"/api/v1/campaigns/{personas['campaign'].pk}/encounters/",
                         {"name": "Ambush at the depot"}, format="json").json()["id"]
    pc = api.post(f"/api/v1/encounters/{encounter}/combatants/", {"character": alice.pk}, format="json").json()["id"]
    npc = api.post(f"/api/v1/encounters/{encounter}/combatants/",
                   {"name": "Rifleman", "stats": {"ACC": 14, "AWA": 18}, "weapons": [RIFLE], "revealed": True},
                   format="json").json()["id"]
    order = api.post(f"/api/v1/encounters/{encounter}/initiative/", {"dice": {str(npc): [6], str(pc): [1]}},
                     format="json")
    assert order.status_code == 200, order.json()
    assert order.json()["acting"] == npc
    return {"api": api, "encounter": encounter, "pc": pc, "npc": npc, "alice": alice}


def test_the_rifle_example_end_to_end(fight):
    """Article, "Damage & Recovery": 9 − 5 = 4 trauma; shock 8 against SHK 6; the CON save at −2
    fails; d10 6 → 10 seconds out cold; a missed action, then 3 shock back; the chest's d8 of 4
    costs 1 RES. Undo restores the exact state before."""
    api, encounter, alice = fight["api"], fight["encounter"], fight["alice"]
    before = _wounds(alice.pk)
    body = {"attacker": fight["npc"], "target": fight["pc"], "weapon": "Rifle", "stat": "ACC"}
    preview = api.post(f"/api/v1/encounters/{encounter}/attacks/", {**body, "preview": True}, format="json")
    assert preview.status_code == 200, preview.json()
    assert preview.json()["dice"] == 3 and "/" in preview.json()["probability"]
    assert _wounds(alice.pk) == before

    dice = {"attack": [1, 2, 3], "location": [50], "effect": [6, 4], "damage": [2, 3, 3], "shock": [4],
            "save": [6, 6, 6, 6], "unconscious": [6]}
    response = api.post(f"/api/v1/encounters/{encounter}/attacks/", {**body, "dice": dice}, format="json")
    assert response.status_code == 201, response.json()
    outcome = response.json()["data"]
    assert outcome["outcome"] == "hit" and outcome["location"]["location"] == "right_chest"
    assert outcome["damage"]["rolled"] == 8
    assert outcome["trauma"] == 4  # 8 + 1 (chest) − 5 (armour)
    assert outcome["shock_rolled"] == 8 and outcome["shock_threshold"] == 6  # ⌈4 / 2⌉ + 4 + 2 (chest)
    assert outcome["save"]["target"] == 5 and not outcome["save"]["saved"]  # CON 7 − 2 over the threshold
    assert outcome["unconscious_seconds"] == 10 and outcome["actions_missed"] == 1
    assert outcome["stat_damage"] == {"RES": 1}
    assert outcome["end_paid"] == 1  # a trigger pull
    # The log line says everything the hit did, to every reader: the victim is a player character.
    line = api.get(f"/api/v1/encounters/{encounter}/log/").json()["events"][-1]["summary"]
    assert line == ("Rifleman attacks Ambush-victim with Rifle: hit at the right chest: 4 trauma, 8 shock, "
                    "shock save failed (needs ≤ 5 on 4d6, rolled 24), RES −1, out cold 10 s — misses 1 action"
                    ).replace("Ambush-victim", alice.name), line

    wounds = api.get(f"/api/v1/characters/{alice.pk}/wounds/").json()
    assert (wounds["trauma"], wounds["shock"], wounds["stat_damage"]) == (4, 8, {"RES": 1})

    # alice's turn comes: she is out cold, misses it, and gets ⌈8 / 3⌉ = 3 shock back after it.
    turn = api.post(f"/api/v1/encounters/{encounter}/next-turn/")
    assert turn.status_code == 200
    assert turn.json()["round"] == 2 and turn.json()["acting"] == fight["npc"]
    assert api.get(f"/api/v1/characters/{alice.pk}/wounds/").json()["shock"] == 5
    log = api.get(f"/api/v1/encounters/{encounter}/log/").json()["events"]
    assert "misses the action" in log[-1]["summary"] and "3 shock back" in log[-1]["summary"]

    # Undo the turn, then the attack: alice is exactly as before, the rifleman acts again.
    undo = api.post(f"/api/v1/encounters/{encounter}/undo/")
    assert undo.status_code == 201, undo.json()
    assert api.get(f"/api/v1/characters/{alice.pk}/wounds/").json()["shock"] == 8
    assert api.post(f"/api/v1/encounters/{encounter}/undo/").status_code == 201
    assert _wounds(alice.pk) == before
    rifleman = Combatant.objects.get(pk=fight["npc"])
    assert rifleman.end_spent == 0
    encounter_row = Encounter.objects.get(pk=encounter)
    assert (encounter_row.round, encounter_row.turn) == (1, 0)
    assert Combatant.objects.get(pk=fight["pc"]).out_cold_until is None


def test_the_dying_example(fight, personas):
    """Article, "Death": CON checks in rounds D, D+1, D+2 at 0, −1, −2 (the article's +0, +1,
    +2 on the roll); in D+3 medical help turns the step to +1 (−1); in D+4 help again (0), the
    check succeeds with help and he is back at 1 HP."""
    api, encounter = fight["api"], fight["encounter"]
    Character.objects.filter(pk=fight["alice"].pk).update(trauma=30)  # HP 30 − 30 = 0: dying
    assert api.get(f"/api/v1/encounters/{encounter}/").json()["combatants"][1]["hp"] == 0
    url = f"/api/v1/encounters/{encounter}/dying/"
    low = [1, 1, 1, 1]  # 4 on 4d6: succeeds at any of these targets (CON 7 − 2 at worst)
    modifiers = []
    for help_ in (False, False, False, True):
        body = {"combatant": fight["pc"], "medical_help": help_, "dice": {"save": low}}
        response = api.post(url, body, format="json")
        assert response.status_code == 201, response.json()
        modifiers.append(response.json()["data"]["modifier"])
        assert response.json()["data"]["survived"] and not response.json()["data"]["restored"]
    # The medic rolls their check at the table: 3d6 = 5 against 12 succeeds.
    last = api.post(url, {"combatant": fight["pc"], "medical_target": 12,
                          "dice": {"medical": [1, 2, 2], "save": low}}, format="json").json()["data"]
    modifiers.append(last["modifier"])
    assert modifiers == [0, -1, -2, -1, 0]
    assert last["medical"]["success"] and last["restored"]
    wounds = api.get(f"/api/v1/characters/{fight['alice'].pk}/wounds/").json()
    assert wounds["trauma"] == 29  # back to 1 HP of 30
    pc = Combatant.objects.get(pk=fight["pc"])
    assert pc.dying_modifier is None
    assert not api.get(f"/api/v1/encounters/{encounter}/").json()["combatants"][1]["dying"]
    # One more round is refused: nobody is dying now.
    assert api.post(url, {"combatant": fight["pc"], "dice": {"save": low}}, format="json").status_code == 409


def test_a_failed_dying_check_is_death(fight):
    api, encounter = fight["api"], fight["encounter"]
    Character.objects.filter(pk=fight["alice"].pk).update(trauma=30)  # HP 30 − 30 = 0: dying
    response = api.post(f"/api/v1/encounters/{encounter}/dying/",
                        {"combatant": fight["pc"], "dice": {"save": [6, 6, 6, 6]}}, format="json")
    assert response.status_code == 201 and not response.json()["data"]["survived"]
    assert Combatant.objects.get(pk=fight["pc"]).dead


def test_wounds_recorded_outside_the_fight_make_the_fighter_dying(fight):
    """Dying is a state of the character (article, "Death"), whatever wrote the wound: trauma
    recorded through the wounds form has the tracker, the dying check and the sheet agree."""
    api, encounter, alice = fight["api"], fight["encounter"], fight["alice"]
    recorded = api.post(f"/api/v1/characters/{alice.pk}/wounds/", {"trauma": 30, "reason": "the roof fell"},
                        format="json")
    assert recorded.status_code == 201, recorded.json()
    assert recorded.json()["dying"] is True and recorded.json()["dying_causes"] == ["HP"]
    (pc,) = [c for c in api.get(f"/api/v1/encounters/{encounter}/").json()["combatants"] if c["id"] == fight["pc"]]
    assert pc["dying"] is True
    assert api.get(f"/api/v1/characters/{alice.pk}/").json()["wounds"]["dying"] is True
    check = api.post(f"/api/v1/encounters/{encounter}/dying/",
                     {"combatant": fight["pc"], "dice": {"save": [1, 1, 1, 1]}}, format="json")
    assert check.status_code == 201, check.json()
    assert check.json()["data"]["modifier"] == 0  # the first round
    # Healed at the GM's word (trauma back under HP): no longer dying anywhere, and no check to roll.
    healed = api.post(f"/api/v1/characters/{alice.pk}/wounds/", {"trauma": -5, "reason": "stitched"}, format="json")
    assert healed.status_code == 201 and healed.json()["dying"] is False
    (pc,) = [c for c in api.get(f"/api/v1/encounters/{encounter}/").json()["combatants"] if c["id"] == fight["pc"]]
    assert pc["dying"] is False
    refused = api.post(f"/api/v1/encounters/{encounter}/dying/", {"combatant": fight["pc"]}, format="json")
    assert refused.status_code == 409 and "not dying" in str(refused.json())


def test_a_transition_that_takes_the_last_con_makes_the_fighter_dying(fight):
    """Dying is read from the wounds whatever wrote them: a Zener Transition's radiation CON loss
    that takes CON to 0 has the tracker and the dying check agree with the sheet (article,
    "Death": zero or less in any stat). Alice's CON 7, 6 of it wounded away, then a failed save
    of a category 1 transition takes the rest."""
    api, encounter, alice = fight["api"], fight["encounter"], fight["alice"]
    hurt = api.post(f"/api/v1/characters/{alice.pk}/wounds/", {"stat_damage": {"CON": 6}, "reason": "a fever"},
                    format="json")
    assert hurt.status_code == 201 and hurt.json()["dying"] is False
    (pc,) = [c for c in api.get(f"/api/v1/encounters/{encounter}/").json()["combatants"] if c["id"] == fight["pc"]]
    assert pc["dying"] is False
    gone = api.post(f"/api/v1/campaigns/{alice.campaign_id}/transitions/", {
        "category": "1", "characters": [alice.pk], "idempotency_key": "the-last-con",
        "dice": {str(alice.pk): {"save": [6, 6, 6, 6], "damage": [6]}}}, format="json")
    assert gone.status_code == 201, gone.json()
    assert api.get(f"/api/v1/characters/{alice.pk}/").json()["wounds"]["dying"] is True
    (pc,) = [c for c in api.get(f"/api/v1/encounters/{encounter}/").json()["combatants"] if c["id"] == fight["pc"]]
    assert pc["dying"] is True
    check = api.post(f"/api/v1/encounters/{encounter}/dying/",
                     {"combatant": fight["pc"], "dice": {"save": [1, 1, 1, 1]}}, format="json")
    assert check.status_code == 201, check.json()


def test_hit_points_count_below_zero(fight, client, personas):
    """Article, "Death": "a character goes to -2 hit points in round D"; RULINGS §8: HP may go
    below zero. Trauma 32 against HP 30 reads −2 in the tracker, on the sheet and the dashboard."""
    api, encounter, alice = fight["api"], fight["encounter"], fight["alice"]
    Character.objects.filter(pk=alice.pk).update(trauma=32)
    (pc,) = [c for c in api.get(f"/api/v1/encounters/{encounter}/").json()["combatants"] if c["id"] == fight["pc"]]
    assert pc["hp"] == -2 and pc["hp_max"] == 30 and pc["dying"] is True
    client.force_login(personas["gm"])
    sheet = client.get(f"/characters/{alice.pk}/").content.decode()
    assert "<strong>-2 / 30</strong>" in sheet
    tracker = client.get(f"/encounters/{encounter}/").content.decode()
    assert 'data-hp>-2/30</span>' in tracker and 'aria-valuenow="0" aria-valuetext="-2 of 30"' in tracker
    dashboard = client.get(f"/campaigns/{personas['campaign'].pk}/").content.decode()
    assert '<span class="v-num">-2/30</span>' in dashboard
