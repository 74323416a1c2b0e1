"""In Chromium: the GM closes an adventure, Alice sees her Karma rise and gives 3 to a MacGuffin,
and Bob's open pool page shows the new total without a reload."""

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from economy import services as economy

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
    fragment_url = url + reverse("campaign-macguffins-live", args=[campaign.pk])
    fetches, pushed = [], []
    bob_page.on("request", lambda request: fetches.append(request) if request.url == fragment_url else None)
    bob_page.on("response", lambda response: pushed.append(response.text()) if "/stream/" in response.url else None)

    alice_page.goto(url + reverse("campaign-macguffins", args=[campaign.pk]))
    alice_page.fill(f"#id_pool{pool.pk}_amount", "3")
    alice_page.locator(f"form[action$='/macguffins/{pool.pk}/contribute/'] button").click()
    expect(alice_page.locator(".msg-success")).to_contain_text("Alia gave 3 Karma to Crystal radio set")

    # The stream brings the pools rendered for the players: a wait, however long the machine takes.
    expect(live).to_have_text("3")
    expect(bob_page.locator(f"#pool-{pool.pk}-live")).to_contain_text("Alia 3")
    assert bob_page.evaluate("window.stillTheSamePage") is True  # no reload
    carried = [value for text in pushed for value in re.findall(r"data-progress>(\d+)<", text)]
    assert "3" in carried, carried  # the pushed part delivered it, not a navigation
    assert fetches == [], fetches  # swapped in as pushed: no second request for the fragment
    assert any("event: part" in text for text in pushed), pushed
    # Bob's give form stayed his own, in its slot, with its token filled in.
    assert bob_page.locator(f"#give-{pool.pk} input[name=csrfmiddlewaretoken]").get_attribute("value").isalnum()
    alia.refresh_from_db()
    assert alia.karma == 35


def test_alice_buys_skill_points_adds_a_skill_and_the_gm_approves_it(personas, make_character, page_for,
                                                                     live_server):
    """Issue flows: Karma → skill points → a new skill on an active sheet → the GM's ruling."""
    alia = make_character(personas["player"], name="Alia", karma=10)
    page = page_for(personas["player"], width=390, height=844)
    page.goto(live_server.url + reverse("character-karma", args=[alia.pk]))
    page.click("label:has-text('Skill points')")
    page.fill("#id_amount", "2")
    page.click("button:has-text('Spend')")
    page.wait_for_load_state()
    alia.refresh_from_db()
    assert alia.karma == 8 and alia.karma_converted == 2

    page.goto(live_server.url + reverse("character-sheet", args=[alia.pk]))
    assert "Spend earned skill points here" in page.locator(".advance-hint").inner_text()
    remaining = page.locator("#budget [data-budget=remaining]")
    before = int(remaining.inner_text())
    page.click("#sec-skills summary:has-text('+ Add skill')")
    page.fill("#id_skills-new-name", "Lock picking")
    page.select_option("#id_skills-new-breadth", "narrow")
    page.select_option("#id_skills-new-stat", "DEX")
    page.click("#sec-skills button:has-text('Add skill')")
    expect(page.locator("#budget [data-budget=remaining]")).to_have_text(str(before - 2), timeout=15_000)
    assert "awaiting GM" in page.locator("#budget").inner_text()

    gm = page_for(personas["gm"], width=390, height=844)
    gm.goto(live_server.url + reverse("character-sheet", args=[alia.pk]))
    gm.select_option("#sec-skills .classify select", "narrow")
    gm.click("#sec-skills .classify button")
    gm.wait_for_selector("#sec-skills .classify", state="detached")

    page.reload()
    line = page.locator("#sec-skills .line").filter(has_text="Lock picking")
    assert "%" in line.locator("[data-odds]").inner_text()
    assert "awaiting GM" not in page.locator("#budget").inner_text()
