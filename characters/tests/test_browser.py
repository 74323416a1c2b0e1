"""In Chromium: a player builds a character, the GM approves it, the player reads the odds and
prints the sheet; and the builder and sheet fit a phone and a laptop."""

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from campaign import services as campaign_services
from campaign.testing import arranged
from characters import lifecycle
from characters.models import Character
from characters.tests.test_pages_support import STATS, make_character, pdf_page_count

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True),
              pytest.mark.filterwarnings("ignore::DeprecationWarning:lark")]

#: Set SHOTS_DIR to keep full-page screenshots of the pages (they are looked at, not compared).
SHOTS_DIR = os.environ.get("SHOTS_DIR")


def test_alice_builds_submits_and_the_gm_approves(personas, make_user, page_for, live_server, tmp_path):
    campaign = personas["campaign"]
    alice = make_user("alice")
    campaign_services.membership_add(campaign=campaign, username="alice", role="player", by=personas["gm"])

    page = page_for(alice, width=390, height=844)  # a phone
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/characters/")
    page.click("text=+ New character")
    page.fill("#id_name", "Vera Okafor")
    for stat, value in STATS.items():
        page.fill(f"#id_{stat}", str(value))
    page.fill("#id_int_plus", "4")
    page.fill("#id_int_minus", "2")
    page.click("text=Create draft")
    page.wait_for_url("**/build/")
    remaining = page.locator("#budget [data-budget=remaining]")
    assert remaining.inner_text() == "28"  # 2 × INT 14

    page.click("#sec-skills summary:has-text('+ Add skill')")
    page.fill("#id_skills-new-name", "Pilot")
    page.select_option("#id_skills-new-breadth", "broad")
    page.select_option("#id_skills-new-stat", "ACC")
    url_before = page.url
    page.click("#sec-skills button:has-text('Add skill')")
    expect(page.locator("#budget [data-budget=remaining]")).to_have_text("24", timeout=15_000)
    assert page.url == url_before  # updated in place, no reload
    assert "1 awaiting GM" in page.locator("#budget").inner_text()
    assert page.locator("#sec-skills .line").count() == 1

    page.click("#review button:has-text('Submit to the GM')")
    page.wait_for_url("**/characters/*/")
    assert page.locator(".sheet-head .state").inner_text() == "Submitted"

    gm_page = page_for(personas["gm"])
    character = Character.objects.get(name="Vera Okafor")
    gm_page.goto(f"{live_server.url}/characters/{character.pk}/")
    gm_page.select_option("#sec-skills .classify select", "broad")
    gm_page.click("#sec-skills .classify button")
    gm_page.wait_for_selector("#sec-skills .classify", state="detached")
    gm_page.click("#review button:has-text('Approve')")
    gm_page.wait_for_selector(".sheet-head .state:has-text('Active')")

    page.reload()
    assert page.locator(".sheet-head .state").inner_text() == "Active"
    skill = page.locator("#sec-skills .line").first
    assert "Pilot" in skill.inner_text()
    assert skill.locator("[data-odds]").inner_text() == "62.5%"  # 3d6 ≤ 1 + ⌈15 / 2⌉ + 2 = 11: 135 / 216
    assert page.locator("#karma [data-karma]").inner_text() == "10"

    with page.expect_download() as download_info:
        page.click("text=Printable sheet (PDF)")
    path = tmp_path / "sheet.pdf"
    download_info.value.save_as(path)
    data = path.read_bytes()
    assert data.startswith(b"%PDF") and pdf_page_count(data) == 2


def _full_characters(personas):
    """A draft with pending lines (the builder) and an approved, wounded character (the sheet)."""
    draft = make_character(personas, name="Ada Quill", skills=9, lines=True)
    active = make_character(personas, owner="other_player", name="Brannoc Vale", skills=7, lines=True,
                            classified=True, gm_notes="Owes the Syndicate a favour.")
    lifecycle.character_submit(character=active, by=personas["other_player"])
    lifecycle.character_approve(character=active, by=personas["gm"])
    Character.objects.filter(pk=active.pk).update(trauma=9, shock=4, endurance_spent=5)
    return draft, active


@pytest.mark.parametrize("width, height", [(390, 844), (1280, 900)])
def test_pages_fit_the_screen(personas, page_for, live_server, width, height):
    draft, active = _full_characters(personas)
    cid = personas["campaign"].pk
    views = [("builder", personas["player"], f"/characters/{draft.pk}/build/"),
             ("sheet", personas["gm"], f"/characters/{active.pk}/"),
             ("classify", personas["gm"], f"/characters/{draft.pk}/"),
             ("new", personas["player"], f"/campaigns/{cid}/characters/new/"),
             ("party", personas["viewer"], f"/campaigns/{cid}/characters/"),
             ("history", personas["gm"], f"/characters/{active.pk}/history/")]
    for name, user, url in views:
        page = page_for(user, width=width, height=height)
        page.goto(live_server.url + url)
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{name} is {overflow}px wider than a {width}px screen"
        if SHOTS_DIR:
            Path(SHOTS_DIR).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=f"{SHOTS_DIR}/{name}-{width}.png", full_page=True)


def test_stats_rolled_in_the_app_fill_the_form(personas, page_for, live_server):
    from campaign.models import LogEntry

    campaign = personas["campaign"]
    campaign.stat_entry = "roll"
    with arranged(campaign):
        campaign.save()
    page = page_for(personas["player"], width=390, height=844)
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/characters/new/")
    page.fill("#id_name", "Ilse Marr")
    page.click("text=🎲 Roll stats")
    expect(page.locator("#id_STR")).not_to_have_value("", timeout=15_000)
    entry = LogEntry.objects.get(action="character.roll")
    assert page.input_value("#id_STR") == str(entry.data["stats"]["STR"])
    assert page.input_value("#id_name") == "Ilse Marr"  # the roll did not touch what was typed
    page.click("text=Create draft")
    page.wait_for_url("**/build/")
    assert Character.objects.get(name="Ilse Marr").rolled_stats == entry.data["stats"]


def test_a_stat_trade_moves_the_budget_and_the_skill_odds_in_place(personas, page_for, live_server):
    character = make_character(personas, skills=1)  # Pilot: 1 rank on ACC 15, 3d6 ≤ 11
    page = page_for(personas["player"])
    page.goto(f"{live_server.url}/characters/{character.pk}/build/")
    assert page.locator("#budget [data-budget=remaining]").inner_text() == "27"
    assert page.locator("#sec-skills [data-odds]").inner_text() == "62.5%"
    page.click("#sec-stats button[aria-label='ACC +1']")
    page.click("#sec-stats button[aria-label='ACC +1']")
    assert page.input_value("#id_trade_ACC") == "2"
    # Before saving, the server renders the budget and the odds with the unsaved stats: 2 × 3 points
    # off the budget, ACC 17 in the skill's odds, and a badge saying they are not saved yet.
    expect(page.locator("#budget [data-budget=unsaved]")).to_have_text("with unsaved stats", timeout=15_000)
    expect(page.locator("#budget [data-budget=remaining]")).to_have_text("21")
    expect(page.locator("#sec-skills [data-odds]")).to_have_text("74.1%")
    page.click("text=Save stats")
    # The preview already showed 21: the badge leaving is what says the save's answer arrived.
    expect(page.locator("#budget [data-budget=unsaved]")).to_have_count(0, timeout=15_000)
    expect(page.locator("#budget [data-budget=remaining]")).to_have_text("21")
    assert page.locator("#sec-skills [data-odds]").inner_text() == "74.1%"  # ACC 17: 1 + 9 + 2 = 12
    assert page.locator("#budget [data-budget=karma]").inner_text() == "9"  # a stat of 17 costs 1 Karma


def test_a_refused_line_shows_the_reason_and_keeps_the_input(personas, page_for, live_server):
    character = make_character(personas, skills=1)
    page = page_for(personas["player"], width=390, height=844)
    page.goto(f"{live_server.url}/characters/{character.pk}/build/")
    page.click("#sec-skills summary:has-text('+ Add skill')")
    page.fill("#id_skills-new-name", "Astrogation")
    page.select_option("#id_skills-new-breadth", "narrow")
    page.fill("#id_skills-new-ranks", "5")
    page.click("#sec-skills button:has-text('Add skill')")
    page.wait_for_selector("#sec-skills .has-error")
    assert "Ranks are capped at 3" in page.locator("#sec-skills .has-error").inner_text()
    assert page.input_value("#id_skills-new-name") == "Astrogation"
    assert page.input_value("#id_skills-new-ranks") == "5"
    assert page.locator("#budget [data-budget=remaining]").inner_text() == "27"
