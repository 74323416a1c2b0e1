"""In Chromium: the GM attacks alice's character from the console; alice's open player view
shows the hit and her new wounds without a reload; bob cannot attack with alice's character."""

import json

import pytest
from playwright.sync_api import expect

from combat import services
from combat.models import Combatant

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_gm_attacks_and_alice_sees_it_live(personas, make_character, page_for, live_server):
    alice = make_character("player", name="Alice Varga")
    gm = personas["gm"]
    encounter = services.encounter_create(campaign=personas["campaign"], by=gm, name="Ambush at the depot")
    pc = services.combatant_add(encounter=encounter, by=gm, character_id=alice.pk)
    npc = services.combatant_add(encounter=encounter, by=gm, npc={
        "name": "Rifleman", "revealed": True, "stats": {"ACC": 16},
        "weapons": [{"name": "Rifle", "damage_points": 5, "ranks": 2}]})
    services.initiative_roll(encounter=encounter, by=gm, dice={npc.pk: [6], pc.pk: [1]})

    player = page_for(personas["player"], width=390, height=844)
    player.goto(f"{live_server.url}/encounters/{encounter.pk}/")
    alice_card = player.locator(f"[data-combatant='{pc.pk}']")
    assert alice_card.locator("[data-trauma]").inner_text() == "0"

    console = page_for(gm, width=390, height=844)
    console.goto(f"{live_server.url}/encounters/{encounter.pk}/")
    console.select_option("#id_target", str(pc.pk))
    console.wait_for_selector("#attack-preview [data-percent]")
    console.click("summary:has-text('Dice rolled at the table')")
    console.fill("#id_dice_attack_1", "7")  # no 7 on a d6: the box says so as it is typed
    assert console.eval_on_selector("#id_dice_attack_1", "box => box.matches(':invalid')")
    for n, face in enumerate(("1", "2", "3"), 1):  # one box per die
        console.fill(f"#id_dice_attack_{n}", face)
    console.fill("#id_dice_location_1", "50")  # right chest
    console.fill("#id_dice_damage", "6 6 6")  # 18 on the rifle's 3d6
    console.fill("#id_dice_shock_1", "3")
    console.click("button:has-text('Roll the attack')")
    assert "hit" in console.locator(".messages").inner_text()

    # alice's page was open all along: the live stream brings the hit and the wounds.
    expect(player.locator(f"[data-combatant='{pc.pk}'] [data-trauma]")).not_to_have_text(
        "0", use_inner_text=True, timeout=5_000)
    trauma = int(alice_card.locator("[data-trauma]").inner_text())
    assert trauma >= 18 - 5  # 18 + the chest's trauma, less any armour she wears
    assert "Rifleman attacks Alice Varga" in player.locator("#combat-log").inner_text()
    assert player.evaluate("performance.getEntriesByType('navigation').length") == 1

    # bob may not attack with alice's character, whatever he sends.
    bob = page_for(personas["other_player"], width=390, height=844)
    bob.goto(f"{live_server.url}/encounters/{encounter.pk}/")
    assert bob.locator("button:has-text('Roll the attack')").count() == 0
    headers = json.loads(bob.evaluate("document.body.getAttribute('hx-headers')"))
    status = bob.evaluate("""async ([url, token, body]) => (await fetch(url, {method: 'POST',
        headers: {'Content-Type': 'application/json', 'X-CSRFToken': token}, body: JSON.stringify(body)})).status""",
                          [f"/api/v1/encounters/{encounter.pk}/attacks/", headers["X-CSRFToken"],
                           {"attacker": pc.pk, "target": npc.pk, "dice": {"attack": [6, 6, 6]}}])
    assert status == 403
    assert Combatant.objects.get(pk=npc.pk).trauma == 0
