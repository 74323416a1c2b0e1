"""In Chromium: flows a player and a GM finish on their own (issue "every flow can be finished")."""

import pytest
from playwright.sync_api import expect

from campaign.testing import arranged
from characters.models import Character
from characters.tests.test_pages_support import STATS, make_character

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True),
              pytest.mark.filterwarnings("ignore::DeprecationWarning:lark")]


def test_alice_sees_a_trade_change_the_odds_before_saving(personas, page_for, live_server):
    character = make_character(personas, skills=1)
    page = page_for(personas["player"], width=390, height=844)
    page.goto(f"{live_server.url}/characters/{character.pk}/build/")
    row = page.locator("#sec-stats [data-stat-row]").filter(has=page.locator("#id_trade_STR"))
    dex_row = page.locator("#sec-stats [data-stat-row]").filter(has=page.locator("#id_trade_DEX"))
    str_before = int(row.locator("[data-stat-value]").inner_text())
    pct_before = row.locator("[data-stat-pct]").inner_text()
    remaining = int(page.locator("#budget [data-budget=remaining]").inner_text())
    page.click("#sec-stats button[aria-label='STR −1']")
    expect(row.locator("[data-stat-value]")).to_have_text(str(str_before - 1))  # the server's preview
    page.click("#sec-stats button[aria-label='DEX +1']")
    # +1 costs 3, −1 gives 2: the budget box moves with the steppers, before any saving.
    expect(page.locator("#budget [data-budget=remaining]")).to_have_text(str(remaining - 1))
    assert row.locator("[data-stat-pct]").inner_text() != pct_before
    assert dex_row.locator("[data-stat-target]").inner_text().startswith("≤")
    summary = page.locator("[data-trade-summary]")
    assert summary.is_visible() and f"{remaining - 1} skill points left once saved" in summary.inner_text()
    assert Character.objects.get(pk=character.pk).stat_trades in ({}, None)  # nothing saved yet


def test_a_4d6_campaign_refuses_str_1_on_the_new_character_page(personas, page_for, live_server):
    campaign = personas["campaign"]
    campaign.stat_dice = "4d6"
    with arranged(campaign):
        campaign.save(update_fields=["stat_dice"])
    page = page_for(personas["player"], width=390, height=844)
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/characters/new/")
    page.fill("#id_name", "Weakling")
    for code, value in {**STATS, "STR": 1}.items():
        page.fill(f"#id_{code}", str(value))
    page.fill("#id_int_plus", "3")
    page.fill("#id_int_minus", "3")
    page.click("button:has-text('Create')")
    assert "4–24" in page.locator("main").inner_text()
    assert not Character.objects.filter(name="Weakling").exists()


def test_the_gm_makes_an_account_and_the_new_player_sees_the_campaign(personas, page_for, live_server, browser):
    gm = page_for(personas["gm"], width=390, height=844)
    gm.goto(f"{live_server.url}/campaigns/{personas['campaign'].pk}/settings/")
    gm.fill("#id_account-username", "dora")
    gm.click("button:has-text('Make the account')")
    assert "Account made for dora" in gm.locator("#shown-once").inner_text()
    password = gm.locator("#shown-once code.secret").inner_text()
    dora = page_for(None, width=390, height=844)
    dora.goto(f"{live_server.url}/accounts/login/")
    dora.fill("#id_username", "dora")
    dora.fill("#id_password", password)
    dora.click("main button[type=submit]")
    # The one-time password gives way to dora's own before anything else.
    dora.get_by_label("Old password").fill(password)
    dora.get_by_label("New password", exact=True).fill("dora-Chooses-2-words")
    dora.get_by_label("New password confirmation").fill("dora-Chooses-2-words")
    dora.get_by_role("button", name="Save my password").click()
    dora.wait_for_url(f"{live_server.url}/")
    assert "Test campaign" in dora.locator("main").inner_text()
