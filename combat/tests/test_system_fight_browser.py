"""Fights of the other rule sets on phones, live: a ZeroSpace fight where Soraya's player holds her
turn and takes it later while the GM moves the fight on (each phone follows the other without a
reload); a Rocket House round struck from the GM's phone that lands on the player's open page."""

import os

import pytest
from playwright.sync_api import expect

from campaign import services as campaign_services
from characters import system_sheets
from combat import system_fights

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_held_turn_from_the_players_phone(personas, page_for, live_server):
    campaign = campaign_services.campaign_update(campaign=personas["campaign"], by=personas["gm"],
                                                 rule_set="zerospace")
    soraya = system_sheets.system_sheet_create(campaign=campaign, owner=personas["player"], by=personas["player"],
                                               name="Soraya")
    fight = system_fights.system_fight_start(campaign=campaign, by=personas["gm"], name="Warehouse", fighters=[
        {"sheet": soraya.pk, "total": 14}, {"name": "Virek-Kohl", "total": 11}, {"name": "Lackeys", "total": 7}])
    url = f"{live_server.url}/system-fights/{fight.pk}/"
    gm = page_for(personas["gm"], width=390, height=844)
    gm.goto(url)
    gm.get_by_role("button", name="Next turn").click()
    expect(gm.get_by_role("heading", level=2).first).to_have_text("Round 1: Soraya acts")

    player = page_for(personas["player"], width=390, height=844)
    player.goto(url)
    soraya_row = player.locator(".fight-order li", has_text="Soraya")
    expect(player.locator(".fight-order li", has_text="Virek-Kohl").get_by_role("button")).to_have_count(0)
    soraya_row.get_by_role("button", name="Hold").click()
    expect(player.locator(".fight-order li", has_text="Soraya")).to_contain_text("holds a turn")

    expect(gm.locator(".fight-order li", has_text="Soraya")).to_contain_text("holds a turn")  # live, no reload
    gm.get_by_role("button", name="Next turn").click()
    expect(gm.get_by_role("heading", level=2).first).to_have_text("Round 1: Virek-Kohl acts")
    expect(player.get_by_role("heading", level=2).first).to_have_text("Round 1: Virek-Kohl acts")
    player.locator(".fight-order li", has_text="Soraya").get_by_role("button", name="Take the held turn").click()
    expect(player.locator("#record-h + p")).to_have_text("Round 1: Soraya (delayed), Virek-Kohl, Soraya (held)")
    assert player.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    if os.environ.get("SCREENSHOT_DIR"):
        gm.reload()
        gm.screenshot(path=os.path.join(os.environ["SCREENSHOT_DIR"], "system-fight-390.png"), full_page=True)


def test_a_rocket_house_round_lands_on_the_players_phone(personas, page_for, live_server):
    """003, "Combat": Gareth (93 %, great sword +4) against the Puce Knight (72 %), 82 against 44:
    the knight takes 4 and keeps fighting (the player sees his wound, the GM his Fatigue too); then
    the knight's blow lands on Gareth's open page."""
    campaign = campaign_services.campaign_update(campaign=personas["campaign"], by=personas["gm"],
                                                 rule_set="rocket_house")
    gareth = system_sheets.system_sheet_create(campaign=campaign, owner=personas["player"], by=personas["player"],
                                               name="Sir Gareth", lines=[{"name": "Fighting", "inputs": {"trait": 93}}],
                                               numbers={"toughness": 60, "armour": 4})
    fight = system_fights.system_fight_start(campaign=campaign, by=personas["gm"], name="The field", fighters=[
        {"sheet": gareth.pk, "total": 9}, {"name": "Puce Knight", "total": 4,
                                            "numbers": {"toughness": 76, "armour": 4}}])
    url = f"{live_server.url}/system-fights/{fight.pk}/"
    player = page_for(personas["player"], width=390, height=844)
    player.goto(url)
    gm = page_for(personas["gm"], width=390, height=844)
    gm.goto(url)
    gm.get_by_label("First fighter").select_option("Sir Gareth")
    gm.get_by_label("against", exact=True).select_option("Puce Knight")
    for label, value in (("First's combat Trait %", "93"), ("Second's combat Trait %", "72"),
                         ("First's weapon Effect", "4"), ("Second's weapon Effect", "3"), ("Dice rolled", "82 44 47")):
        gm.get_by_label(label, exact=True).fill(value)
    gm.get_by_role("button", name="Show the odds").click()
    expect(gm.locator(".odds-line")).to_contain_text("60.9% chance Puce Knight takes damage")
    gm.get_by_role("button", name="Fight the round").click()
    knight = player.locator(".fight-order li", has_text="Puce Knight")
    expect(knight).to_contain_text("Wounds basic", timeout=5000)  # on the player's page, no reload
    expect(knight).not_to_contain_text("of 15")  # an NPC's Fatigue is the GM's
    expect(gm.locator(".fight-order li", has_text="Puce Knight")).to_contain_text("Fatigue 11 of 15")
    expect(player.get_by_role("log", name="Blows, newest first")).to_contain_text("a basic wound")

    gm.get_by_label("First fighter").select_option("Puce Knight")
    gm.get_by_label("against", exact=True).select_option("Sir Gareth")
    for label, value in (("First's combat Trait %", "72"), ("Second's combat Trait %", "93"),
                         ("First's weapon Effect", "3"), ("Second's weapon Effect", "4"), ("Dice rolled", "61 21 15")):
        gm.get_by_label(label, exact=True).fill(value)
    gm.get_by_role("button", name="Fight the round").click()  # 61 under 72 − 10: 6 − 2 + 3 − 4 = 3, a basic wound
    expect(player.locator(".fight-order li", has_text="Sir Gareth")).to_contain_text("Fatigue 9 of 12", timeout=5000)
    assert player.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    if os.environ.get("SCREENSHOT_DIR"):
        player.screenshot(path=os.path.join(os.environ["SCREENSHOT_DIR"], "rocket-house-fight-390.png"),
                          full_page=True)
