"""In Chromium on a phone: a person with no account opens the GM's invitation link, makes an
account in one form and lands in the campaign."""

import pytest
from django.urls import reverse

from campaign import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_person_without_an_account_joins_from_the_link(personas, page_for, live_server):
    from playwright.sync_api import expect

    invitation = services.invitation_create(campaign=personas["campaign"], role="player", by=personas["gm"])
    page = page_for(width=390, height=844)
    page.goto(live_server.url + reverse("join", args=[invitation.token]))
    expect(page.get_by_role("heading", name="Join Test campaign")).to_be_visible()
    page.get_by_label("Username").fill("dora")
    page.get_by_label("Password").fill("dora-Chooses-2-words")
    page.get_by_role("button", name="Make my account and join").click()
    page.wait_for_url(live_server.url + reverse("campaign-dashboard", args=[personas["campaign"].pk]))
    expect(page.locator("main")).to_contain_text("Welcome to Test campaign.")
    assert personas["campaign"].memberships.filter(user__username="dora", role="player").exists()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
