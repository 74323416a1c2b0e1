"""In Chromium: alice rolls on the roller, bob's open dashboard shows it without a reload, and a
GM's private roll never reaches a player's page or the API."""

import pytest
from django.urls import reverse

from rolls.models import Roll

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_roll_reaches_every_open_dashboard_and_a_private_one_only_the_gm(personas, page_for, live_server):
    from playwright.sync_api import expect

    alice, bob, gm, campaign = personas["player"], personas["other_player"], personas["gm"], personas["campaign"]
    url = live_server.url

    bob_page = page_for(bob, width=390, height=844)  # bob watches on his phone
    bob_page.goto(url + reverse("campaign-dashboard", args=[campaign.pk]))
    expect(bob_page.locator("#roll-feed")).to_contain_text("No rolls yet")

    alice_page = page_for(alice)
    alice_page.goto(url + reverse("campaign-roller", args=[campaign.pk]))
    alice_page.fill("#id_target", "11")
    expect(alice_page.locator("#roller-odds")).to_contain_text("62.50%")  # 3d6 ≤ 11: 135/216
    expect(alice_page.locator("#roller-odds svg rect.bar-success")).to_have_count(9)  # totals 3…11
    alice_page.fill("#id_label", "Mara picks the customs lock")
    alice_page.get_by_role("button", name="Roll the check").click()
    expect(alice_page.locator("#roll-feed")).to_contain_text("Mara picks the customs lock")
    roll = Roll.objects.get(label="Mara picks the customs lock")

    # Bob's page was never reloaded: the live stream brought the roll (it polls every 1.5 s).
    expect(bob_page.locator(f'#roll-feed [data-roll="{roll.pk}"]')).to_contain_text(str(roll.total), timeout=4000)
    # Inside a live log: a screen reader announces the new roll without a reload.
    log = bob_page.get_by_role("log", name="Rolls")
    expect(log.locator(f'[data-roll="{roll.pk}"]')).to_be_visible()
    expect(log).to_have_attribute("aria-live", "polite")

    gm_page = page_for(gm)
    gm_page.goto(url + reverse("campaign-roller", args=[campaign.pk]))
    gm_page.fill("#id_notation", "1d20+4")
    gm_page.locator("form:has(#id_notation)").get_by_label("GM only").check()
    gm_page.fill("#id_free_label", "Sniper spots them")
    gm_page.locator("form:has(#id_notation)").get_by_role("button", name="Roll").click()
    expect(gm_page.locator("#roll-feed")).to_contain_text("Sniper spots them")
    secret = Roll.objects.get(label="Sniper spots them")
    assert secret.private

    # A later public roll proves bob's feed refreshed after the private one was made.
    alice_page.fill("#id_notation", "2d6")
    alice_page.fill("#id_free_label", "After the ambush")
    alice_page.locator("form:has(#id_notation)").get_by_role("button", name="Roll").click()
    expect(bob_page.locator("#roll-feed")).to_contain_text("After the ambush", timeout=4000)
    assert "Sniper spots them" not in bob_page.content()
    bob_page.reload()
    assert "Sniper spots them" not in bob_page.content()
    api = bob_page.request.get(url + f"/api/v1/campaigns/{campaign.pk}/rolls/").json()
    assert secret.pk not in [r["id"] for r in api["rolls"]] and len(api["rolls"]) == 2
