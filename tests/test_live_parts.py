"""Every page part says what it shows, in data keys (DESIGN.md, "Live by construction").

The live matrix (tests/test_live_matrix.py) proves that parts and keys agree page by page; these
checks keep the rules that make it possible: every campaign page is a live part of its own, a
part with no key cannot be written, and no part follows event kinds listed by hand.
"""

from pathlib import Path

import pytest
from django.template import Context, Template, TemplateSyntaxError

from campaign import keys

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"

#: Pages that extend base.html and show no campaign's data, each with why.
NOT_CAMPAIGN_PAGES = {
    "403.html": "an error page", "404.html": "an error page", "409.html": "an error page",
    "500.html": "an error page",
    "campaign/home.html": "the list of one's campaigns: no campaign's stream to follow",
    "campaign/join.html": "an invitation, before joining",
    "rolls/tables.html": "the rulebook's tables", "rolls/glossary.html": "the game's words",
}


def _pages():
    for path in sorted(TEMPLATES.rglob("*.html")):
        name = str(path.relative_to(TEMPLATES))
        text = path.read_text()
        if '{% extends "base.html" %}' in text and not name.startswith("registration/"):
            yield name, text


PAGES = list(_pages())


@pytest.mark.parametrize("name, text", PAGES, ids=[name for name, _ in PAGES])
def test_every_campaign_page_is_a_live_part_with_its_keys(name, text):
    if name in NOT_CAMPAIGN_PAGES:
        assert "{% block live %}" not in text, f"{name} is listed as no campaign page"
        return
    assert '{% block live %}' in text and '{% live "page"' in text, (
        f"{name}: a campaign page declares the data keys its main content shows, "
        '{% block live %}{% live "page" … %}{% endblock %} (or is listed in NOT_CAMPAIGN_PAGES with why)')


def test_no_template_follows_event_kinds_by_hand():
    for path in TEMPLATES.rglob("*.html"):
        text = path.read_text()
        assert "live_on" not in text and "data-live-on" not in text, f"{path}: name data keys, not event kinds"


def test_a_part_without_a_key_is_an_error():
    with pytest.raises(TemplateSyntaxError, match="names no data key"):
        Template('{% load live %}<div {% live "empty" %}></div>').render(Context({}))
    with pytest.raises(TemplateSyntaxError, match="is not a data key"):
        Template('{% load live %}<div {% live "bad" "Karma" %}></div>').render(Context({}))


@pytest.mark.django_db
def test_a_part_renders_its_name_and_keys(personas):
    campaign = personas["campaign"]
    html = Template('{% load live %}<div {% live "give" 7 campaign|key:"characters" campaign %}></div>').render(
        Context({"campaign": campaign}))
    assert html == (f'<div data-live="give:7" data-live-keys="campaign:{campaign.pk}/characters '
                    f'campaign:{campaign.pk}"></div>')


@pytest.mark.parametrize("shown, changed, covered", [
    ("character:12", "character:12/karma", True),  # the sheet shows its ledger's balance
    ("character:12/karma", "character:12", True),  # a part of the sheet, when the sheet changes
    ("character:12", "character:1", False),
    ("character:1", "character:12", False),  # a prefix of the number is another character
    ("encounter:9/about", "encounter:9/fighters", False),  # siblings: a blow leaves the header
    ("campaign:3/pools", "campaign:3/pools", True),
])
def test_keys_cover_along_the_slash(shown, changed, covered):
    assert keys.covers(shown, changed) is covered


@pytest.mark.parametrize("key, good", [("character:12", True), ("campaign:3/npc-setups", True),
                                       ("session:4/notes", True), ("character:x", False), ("Karma", False),
                                       ("character:1/<b>", False), ("", False)])
def test_keys_are_well_formed(key, good):
    assert keys.well_formed(key) is good
