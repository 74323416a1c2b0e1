"""In Chromium: the GM closes an adventure, Alice sees her Karma rise and gives 3 to a MacGuffin,
and Bob's open pool page shows the new total without a reload."""

import time

import pytest
from django.urls import reverse

from campaign.economy import services as economy

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_close_out_pays_and_a_pool_fills_live(personas, make_character, page_for, live_server):
    from playwright.sync_api import expect

    gm, alice, bob, campaign = personas["gm"], personas["player"], personas["other_player"], personas["campaign"]
    alia = make_character(alice, name="Alia")
    make_character(bob, name="Bram")
    adventure = economy.adventure_start(campaign=campaign, name="Lisbon, 1755", base_xp=3, by=gm)
    for note in ("The quake comes early", "Fire in the Baixa", "The tsunami", "Looters"):
        economy.token_add(adventure=adventure, note=note, by=gm)
    pool = economy.macguffin_create(campaign=campaign, name="Crystal radio set", limitation="No word home",
                                    target=10, upgrade="", by=gm)
    url = live_server.url

    alice_page = page_for(alice, width=390, height=844)  # Alice plays on her phone
    alice_page.goto(url + reverse("character-karma", args=[alia.pk]))
    expect(alice_page.locator("#balance")).to_have_text("10")

    # The GM previews the payout (the article's example: base 3 + 4 tokens, permanent solution → 28).
    gm_page = page_for(gm)
    gm_page.goto(url + reverse("adventure-close", args=[adventure.pk]))
    gm_page.get_by_label("PCs implement the solution (×2)").check()
    gm_page.locator("#id_permanent").check()
    expect(gm_page.locator("#payout-preview tr", has_text="Alia")).to_contain_text("+28")
    assert not alia.karma_entries.filter(kind="payout").exists()  # a preview posts nothing
    gm_page.get_by_role("button", name="Close and pay").click()
    expect(gm_page.locator(".msg-success")).to_contain_text("closed and paid: Alia +28, Bram +28")

    alice_page.reload()
    expect(alice_page.locator("#balance")).to_have_text("38")
    expect(alice_page.locator(".ledger li").first).to_contain_text("Adventure payout")

    # Bob has the pool page open; Alice gives 3 from her phone.
    bob_page = page_for(bob)
    bob_page.goto(url + reverse("campaign-macguffins", args=[campaign.pk]))
    live = bob_page.locator(f"#pool-{pool.pk}-live [data-progress]")
    expect(live).to_have_text("0")
    bob_page.evaluate("window.stillTheSamePage = true")

    alice_page.goto(url + reverse("campaign-macguffins", args=[campaign.pk]))
    alice_page.fill(f"#id_pool{pool.pk}_amount", "3")
    alice_page.locator(f"form[action$='/macguffins/{pool.pk}/contribute/'] button").click()
    expect(alice_page.locator(".msg-success")).to_contain_text("Alia gave 3 Karma to Crystal radio set")
    given_at = time.monotonic()

    expect(live).to_have_text("3", timeout=3_000)
    assert time.monotonic() - given_at < 3
    expect(bob_page.locator(f"#pool-{pool.pk}-live")).to_contain_text("Alia 3")
    assert bob_page.evaluate("window.stillTheSamePage") is True  # no reload
    alia.refresh_from_db()
    assert alia.karma == 35
