"""In Chromium on a phone: the GM builds a spot check in the check builder, term by term, rolls it
with dice typed from the table, then makes the party's secret surprise check with one tap.

Article, "Spot/Listen Checks" (range and size count; actively looking up to +5) and "Initiative &
Surprise" (the GM's secret AWA check against the party's collective AWA).
"""

import pytest
from django.urls import reverse

from rolls.models import Roll

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_spot_check_built_term_by_term_and_a_secret_surprise_check(personas, make_character, page_for,
                                                                      live_server):
    from playwright.sync_api import expect

    mara = make_character("player", name="Mara", stats={"AWA": 14})
    page = page_for(personas["gm"], width=390, height=844)
    page.goto(live_server.url + reverse("check-builder", args=[personas["campaign"].pk]))
    page.get_by_label("What is rolled").select_option(label="Mara: AWA")
    page.wait_for_url(f"**subject={mara.pk}%2Fstat%3AAWA")  # the page comes back for the line chosen
    expect(page.locator("#builder-odds")).to_contain_text("AWA on the sheet +14")  # her line, not the party
    expect(page.locator("#builder-odds")).to_contain_text("≤ 14 on 4d6")
    page.locator("summary", has_text="Range and size").click()
    page.get_by_label("Range (m)").fill("40")
    page.get_by_label("Actively looking out for it (+0 to +5)").fill("5")
    odds = page.locator("#builder-odds")
    expect(odds).to_contain_text("≤ 15 on 4d6")
    expect(odds).to_contain_text("range 40 m against size index +0")
    expect(odds).to_contain_text("66.4%")  # 861 of 1,296
    for n, face in enumerate(("1", "2", "3", "4"), 1):
        page.get_by_label(f"Die {n}", exact=True).fill(face)
    page.locator("#builder-form").get_by_role("button", name="Roll", exact=True).click()
    expect(page.locator("#builder-result")).to_contain_text("= 10 against ≤ 15")
    expect(page.locator("#builder-result")).to_contain_text("success")
    spot = Roll.objects.get(character=mara)
    assert spot.params["target"] == 15 and spot.params["looking"] == 5

    page.get_by_role("button", name="Secret surprise check").click()
    expect(page.locator(".surprise-box .surprise-verdict")).to_contain_text("urprised")
    secret = Roll.objects.get(params__line="party:AWA")
    assert secret.gm_only and secret.params["target"] == 14  # Mara alone: her AWA, no one to assist
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
