"""A Success Check sheet on a phone: the chances of every check at every target number, and Edge
spent with one tap."""

import os

import pytest
from playwright.sync_api import expect

from campaign import services as campaign_services
from characters import system_sheets

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_reads_the_odds_and_spends_edge_on_a_phone(personas, page_for, live_server):
    campaign = campaign_services.campaign_update(campaign=personas["campaign"], by=personas["gm"],
                                                 rule_set="success_check")
    sheet = system_sheets.system_sheet_create(
        campaign=campaign, owner=personas["player"], by=personas["player"], name="Kestrel",
        lines=[{"name": "Deception", "inputs": {"bonus": 15}}, {"name": "Athletics", "inputs": {"bonus": 10}}],
        numbers={"strength": 2, "edge_max": 3})
    page = page_for(personas["player"], width=390, height=844)
    page.goto(f"{live_server.url}/system-sheets/{sheet.pk}/")
    row = page.locator(".check-lines li", has_text="Deception")
    expect(row).to_contain_text("94.0%")  # TN 20, +15: 002's "about 95 %"
    expect(page.locator("#pool-edge .big strong")).to_have_text("3")
    spend = page.get_by_role("button", name="Spend one")
    box = spend.bounding_box()
    assert box["y"] + box["height"] <= 844, "Spend is below the first screen"
    spend.click()
    expect(page.locator("#pool-edge .big strong")).to_have_text("2")
    wide = page.evaluate("""() => [...document.querySelectorAll('body *')]
        .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
        .slice(0, 5).map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))""")
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0, wide
    if os.environ.get("SCREENSHOT_DIR"):
        page.screenshot(path=os.path.join(os.environ["SCREENSHOT_DIR"], "system-sheet-390.png"), full_page=True)


def test_a_blow_in_the_gms_fight_lands_on_the_players_open_sheet(personas, page_for, live_server):
    """Two phones: the player watches Gareth's sheet; the GM strikes the Puce Knight's round on the
    fight page (61 under 72: 6 − 2 + 3 − 4 = 3, a basic wound); the sheet's condition follows, no reload."""
    from combat import system_fights

    campaign = campaign_services.campaign_update(campaign=personas["campaign"], by=personas["gm"],
                                                 rule_set="rocket_house")
    gareth = system_sheets.system_sheet_create(campaign=campaign, owner=personas["player"], by=personas["player"],
                                               name="Sir Gareth", numbers={"toughness": 60, "armour": 4})
    fight = system_fights.system_fight_start(campaign=campaign, by=personas["gm"], name="The field", fighters=[
        {"sheet": gareth.pk, "total": 9}, {"name": "Puce Knight", "total": 4}])
    player = page_for(personas["player"], width=390, height=844)
    player.goto(f"{live_server.url}/system-sheets/{gareth.pk}/")
    fatigue = player.locator("#sheet-live dl div", has_text="Fatigue").locator("dd")
    expect(fatigue).to_have_text("12 of 12")
    gm = page_for(personas["gm"], width=390, height=844)
    gm.goto(f"{live_server.url}/system-fights/{fight.pk}/")
    gm.get_by_label("First fighter").select_option("Puce Knight")
    gm.get_by_label("against", exact=True).select_option("Sir Gareth")
    for label, value in (("First's combat Trait %", "72"), ("Second's combat Trait %", "93"),
                         ("First's weapon Effect", "3"), ("Dice rolled", "61 21 15")):
        gm.get_by_label(label, exact=True).fill(value)
    gm.get_by_role("button", name="Fight the round").click()
    expect(fatigue).to_have_text("9 of 12", timeout=5000)
    expect(player.locator("#sheet-live")).to_contain_text("-10% to every action")
