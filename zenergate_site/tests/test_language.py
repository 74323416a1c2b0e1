"""Which language a person gets (zenergate_site/language.py): the account's choice, else the top
bar's switch (a cookie), else the browser's Accept-Language, else English; pages, API errors,
cached pages and pushed parts all speak it."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.utils import translation

from campaign.models import Account
from conftest import PASSWORD

pytestmark = pytest.mark.django_db


def german(text: str) -> str:
    """``text`` as the German catalogue has it; a test of a translated page needs it translated."""
    with translation.override("de"):
        said = translation.gettext(text)
    assert said != text, f"the German catalogue has no translation of {text!r}"
    return said


def test_the_browser_language_is_used_when_no_one_chose(client):
    assert german("Log in") in client.get("/accounts/login/", headers={"accept-language": "de-DE,de;q=0.9"}
                                          ).content.decode()
    page = client.get("/accounts/login/", headers={"accept-language": "fr-FR,fr;q=0.9"})
    assert ">Log in</h1>" in page.content.decode() and page["Content-Language"] == "en"  # none we speak: English
    assert "Accept-Language" in page["Vary"]


def test_the_switch_sets_a_cookie_that_beats_the_browser(client):
    switched = client.post("/language/", {"language": "de", "next": "/accounts/login/"})
    assert switched.status_code == 302 and switched.url == "/accounts/login/"
    assert client.cookies["zg_language"].value == "de"
    page = client.get("/accounts/login/", headers={"accept-language": "en"}).content.decode()
    assert f'<html lang="de">' in page and german("Log in") in page
    # A language the site does not speak, and a way back to another site, change nothing.
    client.post("/language/", {"language": "xx", "next": "/"})
    assert client.cookies["zg_language"].value == "de"
    away = client.post("/language/", {"language": "en", "next": "https://elsewhere.example/"})
    assert away.url == "/"


def test_the_accounts_choice_beats_the_cookie_and_the_browser(client, personas):
    user = personas["player"]
    client.force_login(user)
    assert client.post("/accounts/", {"action": "language", "language": "de"}).status_code == 302
    assert Account.objects.get(user=user).language == "de"
    client.cookies["zg_language"] = "en"
    page = client.get("/", headers={"accept-language": "en"}).content.decode()
    assert german("Campaigns") in page
    # On another device: the choice comes with the log-in.
    other = type(client)()
    other.post("/accounts/login/", {"username": user.username, "password": PASSWORD})
    assert german("Campaigns") in other.get("/", headers={"accept-language": "en"}).content.decode()
    # "As my browser says" hands the choice back to the browser.
    client.post("/accounts/", {"action": "language", "language": ""})
    assert Account.objects.get(user=user).language == ""
    client.cookies.pop("zg_language")
    assert ">Campaigns<" in client.get("/", headers={"accept-language": "en"}).content.decode()
    assert client.post("/accounts/", {"action": "language", "language": "klingon"}).status_code == 400


def test_api_errors_follow_accept_language_and_field_names_stay_english(client, personas):
    client.force_login(personas["gm"])
    refused = client.post("/api/v1/campaigns/", {"name": " "}, content_type="application/json",
                          headers={"accept-language": "de"})
    assert refused.status_code == 400
    errors = refused.json()["errors"]
    assert "name" in errors  # the field's name stays English
    assert errors["name"][0] in (german("Give the campaign a name."), german("This field may not be blank."))


def test_a_cached_page_is_kept_per_language(client, personas):
    client.force_login(personas["gm"])
    url = f"/campaigns/{personas['campaign'].pk}/"
    english = client.get(url, headers={"accept-language": "en"}).content.decode()
    deutsch = client.get(url, headers={"accept-language": "de"}).content.decode()
    assert '<html lang="en">' in english and '<html lang="de">' in deutsch
    assert client.get(url, headers={"accept-language": "en"}).content.decode().count('<html lang="en">') == 1


@pytest.mark.stack
@pytest.mark.django_db(transaction=True)
def test_pushed_parts_speak_each_viewers_language(personas):
    from campaign import parts
    from campaign.tests.test_parts import _open_parts, _parts_of
    from campaign.tests.test_stream import Reader, _roll, run

    campaign, gm = personas["campaign"], personas["gm"]
    expected = german("Rolls")  # the roll feed's heading

    async def body():
        english = Reader(await _open_parts(personas["player"], campaign, "roll-feed", **{"accept-language": "en"}))
        deutsch = Reader(await _open_parts(personas["other_player"], campaign, "roll-feed",
                                           **{"accept-language": "de"}))
        for reader in (english, deutsch):
            await reader.frames(0.3)
        parts.RENDERS.clear()
        await sync_to_async(_roll)(campaign, gm, "for everyone")
        (en_part,) = _parts_of(await english.frames(1.5))
        (de_part,) = _parts_of(await deutsch.frames(1.5))
        return en_part["html"], de_part["html"]

    got = {}

    async def keep():
        got['en'], got['de'] = await body()

    run(keep)
    en_html, de_html = got['en'], got['de']
    assert "for everyone" in en_html and "for everyone" in de_html  # what was typed stays as typed
    assert ">Rolls</h2>" in en_html and f">{expected}</h2>" in de_html
    assert parts.RENDERS[("roll-feed", "players")] == 2  # once per language


def test_dates_are_written_the_readers_way():
    from datetime import datetime, timezone

    from django.template import Context, Template

    shown = Template('{{ when|date:_("M j, H:i") }}')
    when = Context({"when": datetime(2026, 11, 29, 10, 35, tzinfo=timezone.utc)})
    assert shown.render(when) == "Nov 29, 10:35"
    with translation.override("de"):
        assert shown.render(when) == "29. Nov, 10:35"
