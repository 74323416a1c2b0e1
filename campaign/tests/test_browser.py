"""In Chromium: log in, open the dashboard, run downtime and watch the progress bar finish."""

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_gm_logs_in_and_runs_downtime(personas, page_for, live_server, celery_worker_process):
    page = page_for(personas["gm"], width=390, height=844)  # a phone-sized screen
    assert page.locator("h1").inner_text() == "Your campaigns"
    page.click("text=Test campaign")
    page.fill("#id_hours", "12")
    page.click("text=Advance downtime")
    page.wait_for_selector(".job >> text=Done", timeout=30_000)
    assert "0 h → 12 h" in page.locator(".report").inner_text()
    assert page.locator("#clock").inner_text().startswith("12 h")  # updated without a reload
    personas["campaign"].refresh_from_db()
    assert personas["campaign"].game_hours == 12


def test_wrong_password_shows_a_message(personas, page_for, live_server):
    page = page_for(None)
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "gm")
    page.fill("#id_password", "not-it")
    page.click("button[type=submit]")
    assert "do not match" in page.locator("[role=alert]").inner_text()
