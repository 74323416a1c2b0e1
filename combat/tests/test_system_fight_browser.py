"""A ZeroSpace fight on phones: the GM moves it on; Soraya's player holds her turn and takes it
later from her own phone, and sees the order after each step."""

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

    gm.reload()
    gm.get_by_role("button", name="Next turn").click()
    expect(gm.get_by_role("heading", level=2).first).to_have_text("Round 1: Virek-Kohl acts")
    player.reload()
    player.locator(".fight-order li", has_text="Soraya").get_by_role("button", name="Take the held turn").click()
    expect(player.locator("#record-h + p")).to_have_text("Round 1: Soraya (delayed), Virek-Kohl, Soraya (held)")
    assert player.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    if os.environ.get("SCREENSHOT_DIR"):
        gm.reload()
        gm.screenshot(path=os.path.join(os.environ["SCREENSHOT_DIR"], "system-fight-390.png"), full_page=True)
