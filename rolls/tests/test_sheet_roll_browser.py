"""In Chromium on a phone: a player rolls a skill from their sheet, fails, and rerolls it for one
Karma with one tap (tapped twice, spent once); the feed shows both rolls, linked."""

import pytest
from django.urls import reverse

from characters import items
from economy.models import KarmaEntry
from rolls.models import Roll

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_roll_a_skill_from_the_sheet_and_reroll_it_for_karma(personas, make_character, page_for, live_server):
    from playwright.sync_api import expect

    character = make_character("player", karma=2, stats={"PRAC": 12})
    stealth = items.item_create(character=character, kind_name="skills", by=personas["gm"], is_gm=True,
                                data={"name": "Stealth", "breadth": "narrow", "ranks": 2, "stat": "PRAC"})
    page = page_for(personas["player"], width=390, height=844)
    page.goto(live_server.url + reverse("character-sheet", args=[character.pk]))

    line = page.locator(f"#skills-{stealth.pk}")
    line.locator(".roll-line > summary").click()
    modifier = line.get_by_label("Modifier")
    expect(modifier).to_be_visible()
    expect(line.locator(".sheet-roll-odds")).to_contain_text("≤ 10 on 3d6")  # 2 ranks + ⌈12/2⌉ + 2
    modifier.fill("-2")
    expect(line.locator(".sheet-roll-odds")).to_contain_text("≤ 8 on 3d6 · 25.9%")
    for n, face in enumerate(("6", "5", "6"), 1):
        line.get_by_label(f"Die {n} of 3").fill(face)
    line.get_by_role("button", name="Roll Stealth").click()
    result = line.locator(".roll-result")
    expect(result).to_contain_text("= 17 against ≤ 8")
    expect(result).to_contain_text("failure")
    failed = Roll.objects.get(character=character, reroll_of=None)

    reroll = result.get_by_role("button", name="Reroll for 1 Karma")
    expect(reroll).to_contain_text("2 left")
    # On the first screen of the phone: the result is brought into view with its offer.
    box = reroll.bounding_box()
    assert 0 <= box["y"] and box["y"] + box["height"] <= 844, f"the reroll is {box['y']:.0f} px down"
    reroll.dblclick()  # a nervous double tap
    expect(result.locator(".sheet-roll-result.reroll")).to_contain_text("Karma reroll")
    expect(result.locator(".sheet-roll-result")).to_have_count(2)  # the failed roll, then its reroll
    page.wait_for_load_state("networkidle")
    assert KarmaEntry.objects.filter(character=character, kind="reroll").count() == 1
    character.refresh_from_db()
    assert character.karma == 1
    again = Roll.objects.get(reroll_of=failed)

    # A stat rolls the same way; its form opens under the table, which keeps its width on a phone.
    page.get_by_role("button", name="Roll AWA").click()
    expect(page.locator("#stat-roll").get_by_label("Modifier")).to_be_visible()
    # The form is htmx's once its swap has settled; a click before that would be a plain post.
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-settling, .htmx-swapping')")
    page.locator("#stat-roll").get_by_role("button", name="Roll AWA").click()
    expect(page.locator("#stat-roll .roll-result")).to_contain_text("against ≤")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert Roll.objects.filter(character=character, params__line="stat:AWA").count() == 1

    page.goto(live_server.url + reverse("campaign-dashboard", args=[personas["campaign"].pk]))
    feed = page.locator("#roll-feed")
    expect(feed.locator(f"#roll-{again.pk}")).to_contain_text("1 Karma spent to reroll")
    expect(feed.locator(f'#roll-{again.pk} a[href="#roll-{failed.pk}"]')).to_have_count(1)
    expect(feed.locator(f"#roll-{failed.pk}")).to_contain_text("Stealth check")


def test_a_roll_pressed_with_the_network_down_is_sent_once_when_it_is_back(personas, make_character, page_for,
                                                                           live_server):
    from playwright.sync_api import expect

    character = make_character("player", karma=1)
    page = page_for(personas["player"], width=390, height=844)
    page.goto(live_server.url + reverse("character-sheet", args=[character.pk]))
    page.get_by_role("button", name="Roll AWA").click()
    form = page.locator("#stat-roll form.sheet-roll")
    expect(form.get_by_label("Modifier")).to_be_visible()
    form.get_by_label("Modifier").fill("3")
    page.context.set_offline(True)
    form.get_by_role("button", name="Roll AWA").click()
    expect(form.locator("[data-send-state]")).to_contain_text("Not sent yet")
    expect(form.get_by_label("Modifier")).to_have_value("3")  # what was typed stays
    assert not Roll.objects.exists()
    page.context.set_offline(False)
    expect(page.locator("#stat-roll .roll-result")).to_contain_text("against ≤", timeout=10000)
    page.wait_for_load_state("networkidle")
    assert Roll.objects.filter(character=character).count() == 1
    assert Roll.objects.get(character=character).params["modifier"] == 3
