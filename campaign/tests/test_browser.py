"""In Chromium: logging in."""

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_wrong_password_shows_a_message(personas, page_for, live_server):
    page = page_for(None)
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "gm")
    page.fill("#id_password", "not-it")
    page.click("button[type=submit]")
    assert "do not match" in page.locator("[role=alert]").inner_text()
