"""Turns, conditions that start and end by themselves, reactions and players' attacks."""

import pytest

from characters.models import Character
from combat.models import Combatant, CombatEvent, Encounter

pytestmark = pytest.mark.django_db

GOON = {"name": "Goon", "revealed": True, "weapons": [{"name": "Club", "damage_points": 3, "melee": True}]}


@pytest.fixture
def fight(personas, api_as, make_character):
    alice = make_character("player")
    gm = api_as("gm")
    e = gm.post(f"/api/v1/campaigns/{personas['campaign'].pk}/encounters/", {"name": "Brawl"}, format="json").json()["id"]
    pc = gm.post(f"/api/v1/encounters/{e}/combatants/", {"character": alice.pk}, format="json").json()["id"]
    goon = gm.post(f"/api/v1/encounters/{e}/combatants/", GOON, format="json").json()["id"]
    second = gm.post(f"/api/v1/encounters/{e}/combatants/", {**GOON, "name": "Second goon"},
                     format="json").json()["id"]
    gm.post(f"/api/v1/encounters/{e}/initiative/",
            {"dice": {str(pc): [6], str(goon): [3], str(second): [1]}}, format="json")
    return {"gm": gm, "e": e, "pc": pc, "goon": goon, "second": second, "alice": alice}


def test_a_skipped_action_gives_a_third_of_the_shock_and_two_skipped_rounds_the_quick_end(fight):
    """"Damage & Recovery": shock heals a third per skipped action; END d6 per two skipped rounds."""
    gm, e, alice = fight["gm"], fight["e"], fight["alice"]
    Character.objects.filter(pk=alice.pk).update(shock=9, endurance_spent=6)
    gm.post(f"/api/v1/encounters/{e}/next-turn/", {"skip": True}, format="json")  # alice skips: ⌈9 / 3⌉ = 3
    assert Character.objects.get(pk=alice.pk).shock == 6
    for _ in range(2):
        gm.post(f"/api/v1/encounters/{e}/next-turn/", {}, format="json")
    # Round 2, alice skips again: ⌈6 / 3⌉ = 2 shock back, and a d6 of 4 END for the two rounds.
    response = gm.post(f"/api/v1/encounters/{e}/next-turn/", {"skip": True, "dice": {"end": [4]}}, format="json")
    assert response.status_code == 200, response.json()
    row = Character.objects.get(pk=alice.pk)
    assert (row.shock, row.endurance_spent) == (4, 2)


def test_a_held_action_comes_back_before_the_one_acting(fight):
    gm, e = fight["gm"], fight["e"]
    state = gm.post(f"/api/v1/encounters/{e}/hold/").json()  # alice holds; the goon acts
    assert state["acting"] == fight["goon"]
    state = gm.post(f"/api/v1/encounters/{e}/act-now/", {"combatant": fight["pc"]}, format="json").json()
    assert state["acting"] == fight["pc"]
    order = [c["id"] for c in state["combatants"]]
    assert order.index(fight["pc"]) < order.index(fight["goon"])
    assert gm.post(f"/api/v1/encounters/{e}/act-now/", {"combatant": fight["second"]},
                   format="json").status_code == 409  # the second goon held nothing
    # Undo twice: alice is back to acting first, holding nothing.
    gm.post(f"/api/v1/encounters/{e}/undo/")
    state = gm.post(f"/api/v1/encounters/{e}/undo/").json()
    assert Combatant.objects.get(pk=fight["pc"]).held is False
    assert gm.get(f"/api/v1/encounters/{e}/").json()["acting"] == fight["pc"]


def test_the_end_of_combat_gives_back_a_third_of_the_shock(fight):
    gm, e, alice = fight["gm"], fight["e"], fight["alice"]
    from characters import wounds
    from economy.tests.conftest import campaign_gm

    wounds.wounds_record(character=alice, by=campaign_gm(alice.campaign), reason="a punch", shock=8)
    Combatant.objects.filter(pk=fight["goon"]).update(shock=5)
    assert gm.post(f"/api/v1/encounters/{e}/end/").status_code == 200
    assert Character.objects.get(pk=alice.pk).shock == 8 - 3
    assert Combatant.objects.get(pk=fight["goon"]).shock == 5 - 2
    assert Encounter.objects.get(pk=e).state == "ended"
    assert gm.post(f"/api/v1/encounters/{e}/next-turn/").status_code == 409


def test_a_reaction_save_reads_the_milliseconds_on_the_time_chart(fight):
    """Micro-time: 250 ms is a NIM save at −8 (RULINGS 5)."""
    gm, e = fight["gm"], fight["e"]
    response = gm.post(f"/api/v1/encounters/{e}/reactions/",
                       {"combatant": fight["pc"], "milliseconds": 250, "dice": {"save": [1, 1, 1, 1]}}, format="json")
    assert response.status_code == 201, response.json()
    data = response.json()["data"]
    assert data["modifier"] == -8 and data["success"] and data["faces"] == [1, 1, 1, 1]
    assert (data["target"], data["dice_count"]) == (15 - 8, 4)  # NIM 15 at −8, on 4d6
    automatic = gm.post(f"/api/v1/encounters/{e}/reactions/",
                        {"combatant": fight["pc"], "milliseconds": 250, "has_next_initiative": True}, format="json")
    assert automatic.json()["data"]["automatic"]


def test_an_impossible_reaction_save_says_the_target_and_dice_it_was_rolled_at(fight):
    """10 ms is −16 (RULINGS 5): NIM 15 − 16 = −1 on 4d6 cannot succeed, so the miracle rule
    (RULINGS 1) adds a die and 2 to the target until a roll can: 9d6 against −1 + 10 = 9. The
    event says that target and those dice."""
    gm, e = fight["gm"], fight["e"]
    response = gm.post(f"/api/v1/encounters/{e}/reactions/",
                       {"combatant": fight["pc"], "milliseconds": 10, "dice": {"save": [1] * 9}}, format="json")
    assert response.status_code == 201, response.json()
    data = response.json()["data"]
    assert (data["modifier"], data["target"], data["dice_count"], data["success"]) == (-16, 9, 9, True)


def test_a_player_attack_waits_for_the_gm_when_the_gm_says_so(fight, api_as):
    gm, e = fight["gm"], fight["e"]
    alice = Character.objects.get(pk=fight["alice"].pk)
    from characters import items
    from economy.tests.conftest import campaign_gm

    items.item_create(character=alice, kind_name="weapons", by=campaign_gm(alice.campaign), is_gm=True,
                      data={"name": "Baton", "damage_points": 3, "melee": True})
    gm.patch(f"/api/v1/encounters/{e}/", {"require_approval": True}, format="json")
    body = {"attacker": fight["pc"], "target": fight["goon"], "stat": "MEL", "dice": {"attack": [6, 6, 6]}}
    asked = api_as("player").post(f"/api/v1/encounters/{e}/attacks/", body, format="json")
    assert asked.status_code == 202, asked.json()
    assert not CombatEvent.objects.filter(kind="attack").exists()
    answer = gm.post(f"/api/v1/encounters/{e}/requests/{asked.json()['id']}/", {"approve": True}, format="json")
    assert answer.status_code == 201 and answer.json()["data"]["outcome"] == "miss"  # 18 on 3d6
    again = gm.post(f"/api/v1/encounters/{e}/requests/{asked.json()['id']}/", {"approve": True}, format="json")
    assert again.status_code == 409
    assert api_as("player").post(f"/api/v1/encounters/{e}/requests/{asked.json()['id']}/", {"approve": False},
                                 format="json").status_code == 403


def test_an_attack_sent_twice_with_one_key_is_made_once(fight):
    gm, e = fight["gm"], fight["e"]
    body = {"attacker": fight["goon"], "target": fight["pc"], "idempotency_key": "tap", "stat": "MEL",
            "dice": {"attack": [6, 6, 6]}}
    first = gm.post(f"/api/v1/encounters/{e}/attacks/", body, format="json")
    second = gm.post(f"/api/v1/encounters/{e}/attacks/", body, format="json")
    assert first.status_code == 201 and second.json()["id"] == first.json()["id"]
    assert CombatEvent.objects.filter(kind="attack").count() == 1
    assert Combatant.objects.get(pk=fight["goon"]).end_spent == 2  # a physical attack, paid once
