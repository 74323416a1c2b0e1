"""In Chromium at 390×844, in German: the sheet, the fight and the roller speak German from top to
bottom (no English sentence of the catalogue left on screen) and nothing runs wider than the
phone. Axe finds nothing serious either (the page's language is declared)."""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest

from combat.tests.test_your_turn import _warehouse
from economy.tests.conftest import make_character  # noqa: F401  (a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH, HEIGHT = 390, 844
CATALOGUE = Path(__file__).resolve().parent.parent / "locale" / "de" / "LC_MESSAGES" / "django.po"


def _english_left() -> list[str]:
    """Catalogue sentences whose German differs: none of them may be on a German page. Short
    words ("Roll", "OK") are left out: they may be names, and notation is the same in both."""
    sentences = []
    for entry in polib.pofile(str(CATALOGUE)):
        text = re.sub(r"%\(\w+\)[sd]|<[^>]+>", "\x00", entry.msgid)
        for piece in text.split("\x00"):
            piece = " ".join(piece.split()).strip(" .:,;·—-()")
            if len(piece.split()) >= 3 and entry.msgstr and piece not in entry.msgstr:
                sentences.append(piece)
    return sentences


def _walk(page, url: str, sentences: list[str]) -> list[str]:
    page.goto(url)
    text = " ".join(page.locator("body").inner_text().split())
    left = sorted({sentence for sentence in sentences if sentence in text})
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    # Text past the phone's right edge, unless a scrolling strip (the campaign's nav) holds it.
    wide = page.evaluate("""() => {
        const edge = window.innerWidth + 1;
        const held = e => { for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
            const o = getComputedStyle(a).overflowX;
            if (o !== 'visible' && a.getBoundingClientRect().right <= edge) return true; } return false; };
        return [...document.querySelectorAll('main *')].filter(e => {
            const r = e.getBoundingClientRect(); return r.width > 0 && r.right > edge && !held(e);
        }).slice(0, 5).map(e => e.tagName + '.' + e.className + ': ' + (e.innerText || '').slice(0, 40)); }""")
    problems = [f"{url}: English left: {sentence!r}" for sentence in left]
    if overflow > 0 or wide:
        problems.append(f"{url}: {overflow}px wider than the phone; {wide}")
    return problems


def test_the_sheet_the_fight_and_the_roller_speak_german_on_a_phone(personas, make_character, page_for,
                                                                      live_server):
    gm = personas["gm"]
    encounter = _warehouse(personas, make_character, alice_first=True)  # Alice and her pistol against a thug
    alice = encounter.combatants.get(character__isnull=False).character

    sentences = _english_left()
    assert len(sentences) > 200  # the catalogue is there to check against
    problems = []
    for user, path in ((personas["player"], f"/characters/{alice.pk}/"),
                       (personas["player"], f"/encounters/{encounter.pk}/"),
                       (gm, f"/encounters/{encounter.pk}/"),
                       (personas["player"], f"/campaigns/{personas['campaign'].pk}/roller/")):
        page = page_for(user, width=WIDTH, height=HEIGHT)
        page.context.add_cookies([{"name": "zg_language", "value": "de", "url": live_server.url}])
        problems += _walk(page, live_server.url + path, sentences)
        assert page.locator("html").get_attribute("lang") == "de"
    assert not problems, "\n".join(problems)
