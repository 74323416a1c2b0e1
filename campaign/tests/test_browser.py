"""In Chromium: logging in."""

import pytest

from campaign.testing import arranged

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_wrong_password_shows_a_message(personas, page_for, live_server):
    page = page_for(None)
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "gm")
    page.fill("#id_password", "not-it")
    page.click("main button[type=submit]")
    assert "do not match" in page.locator("[role=alert]").inner_text()


def test_long_names_wrap_and_long_descriptions_fold_on_a_phone(personas, page_for, live_server):
    campaign = personas["campaign"]
    campaign.name = "Chronosquad" + "X" * 70
    campaign.description = "A long way home. " * 40
    with arranged(campaign):
        campaign.save(update_fields=["name", "description"])
    page = page_for(personas["gm"], width=390, height=844)
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    details = page.locator("details.description")
    assert details.count() == 1 and not details.evaluate("d => d.open")
