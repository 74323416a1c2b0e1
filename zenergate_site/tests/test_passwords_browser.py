"""In Chromium on a phone: a new player logs in with the one-time password the GM passed on, is
sent to choose their own, and lands where they meant to go; then forgets it and comes back by the
emailed link."""

import re

import pytest
from django.urls import reverse

from campaign import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OWN = "my-Own-secret-phrase-7"


def test_a_new_player_chooses_a_password_then_resets_it_by_email(personas, page_for, live_server, settings,
                                                                   tmp_path, monkeypatch):
    from playwright.sync_api import expect

    from zenergate_site.celery import app

    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    settings.EMAIL_FILE_PATH = str(tmp_path)
    # The reset mail's job runs in the live server's thread as the worker would run it.
    monkeypatch.setitem(app.conf, "task_always_eager", True)
    campaign = personas["campaign"]
    _, one_time = services.account_create(campaign=campaign, username="newbie", role="player", by=personas["gm"],
                                          email="newbie@example.org")
    page = page_for(width=390, height=844)
    page.goto(live_server.url + reverse("campaign-dashboard", args=[campaign.pk]))
    page.fill("#id_username", "newbie")
    page.fill("#id_password", one_time)
    page.click("main button[type=submit]")
    expect(page.get_by_role("heading", name="Choose your own password")).to_be_visible()
    page.get_by_label("Old password").fill(one_time)
    page.get_by_label("New password", exact=True).fill(OWN)
    page.get_by_label("New password confirmation").fill(OWN)
    page.get_by_role("button", name="Save my password").click()
    page.wait_for_url(live_server.url + reverse("campaign-dashboard", args=[campaign.pk]))
    expect(page.locator("main")).to_contain_text("Your password is changed.")

    page.get_by_role("button", name="Log out newbie").click()
    page.goto(live_server.url + reverse("login"))
    page.get_by_role("link", name="Forgotten your password?").click()
    page.get_by_label("Email").fill("newbie@example.org")
    page.get_by_role("button", name="Send the link").click()
    expect(page.get_by_role("heading", name="Check your email")).to_be_visible()
    (mail,) = list(tmp_path.iterdir())
    link = re.search(r"https?://\S+/accounts/password/reset/\S+", mail.read_text()).group(0)
    page.goto(link)
    page.get_by_label("New password", exact=True).fill("another-Secret-phrase-9")
    page.get_by_label("New password confirmation").fill("another-Secret-phrase-9")
    page.get_by_role("button", name="Save my password").click()
    expect(page.get_by_role("heading", name="Your new password is saved")).to_be_visible()
    page.get_by_role("link", name="Log in").last.click()
    page.fill("#id_username", "newbie")
    page.fill("#id_password", "another-Secret-phrase-9")
    page.click("main button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
