"""In Chromium on a phone, on a site that takes sign-ups: the log-in page leads to the sign-up
page, which axe finds nothing serious on; a refused form keeps what was typed; the new account
lands on its campaigns, told to confirm its e-mail."""

import pytest
from django.core.cache import cache
from playwright.sync_api import expect

from tests.accessibility import serious_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_new_gm_signs_up_on_a_phone(settings, browser, live_server):
    settings.SIGNUP = "open"
    cache.clear()
    context = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)  # axe is injected
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_role("link", name="Make an account").click()
    expect(page.get_by_role("heading", name="Make an account")).to_be_visible()
    assert not serious_violations(page)
    page.get_by_label("Username").fill("mira")
    page.get_by_label("E-mail").fill("mira@example.org")
    page.get_by_label("Password").fill("1234")
    page.get_by_role("button", name="Make my account").click()
    expect(page.locator("div.errorlist")).to_contain_text("too short")
    expect(page.get_by_label("E-mail")).to_have_value("mira@example.org")  # nothing to type again
    page.get_by_label("Password").fill("a long walk home")
    page.get_by_role("button", name="Make my account").click()
    page.wait_for_url(f"{live_server.url}/")
    expect(page.locator(".messages")).to_contain_text("A link is on its way to mira@example.org")
    expect(page.locator("main")).to_contain_text("not confirmed yet")
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    context.close()
