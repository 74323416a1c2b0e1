"""The printable sheet: two A4 pages rendered by WeasyPrint, on the page route and the API route."""

import os
import sys

import pytest
from django.urls import reverse
from rest_framework.authtoken.models import Token

from characters import items, pdf
from characters.permissions import access_character
from characters.tests.test_pages_support import (
    make_character,
    pdf_objects,
    pdf_page_count,
    pdf_titles,
)
from characters.views.page import sheet_data

if not pdf.pdf_available():
    # WeasyPrint's wheel installs anywhere, but it needs Debian's Pango to lay text out.
    message = "PDF TESTS SKIPPED: WeasyPrint cannot load Pango (apt-get install libpango-1.0-0 libpangoft2-1.0-0)"
    if os.environ.get("REQUIRE_BROWSER"):
        raise RuntimeError(message + " and REQUIRE_BROWSER is set")
    sys.stderr.write("\n" + "!" * 78 + f"\n{message}\n" + "!" * 78 + "\n")
    pytest.skip(message, allow_module_level=True)

pytestmark = pytest.mark.django_db

A4 = b"/MediaBox [0 0 595.275591 841.889764]"


@pytest.fixture
def character(personas):
    return make_character(personas, name="Ada Quill", skills=3, lines=True, gm_notes="Secretly a Syndicate plant.")


def _check_pdf(data: bytes, name: str) -> None:
    assert data.startswith(b"%PDF-")
    assert pdf_page_count(data) == 2
    titles = pdf_titles(data)
    assert f"{name} · Zener Gate character sheet" in titles  # the document's title
    assert name in titles  # the sheet's heading, as a bookmark


@pytest.mark.parametrize("route", ["character-pdf", "api-character-pdf"])
@pytest.mark.parametrize("persona", ["gm", "player", "other_player", "viewer"])
def test_members_get_a_two_page_a4_pdf(personas, character, client, route, persona):
    client.force_login(personas[persona])
    response = client.get(reverse(route, args=[character.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == 'inline; filename="Ada-Quill-sheet.pdf"'
    _check_pdf(response.content, "Ada Quill")
    assert pdf_objects(response.content).count(A4) == 2


@pytest.mark.parametrize("route", ["character-pdf", "api-character-pdf"])
def test_outsiders_get_404(personas, character, client, route):
    client.force_login(personas["outsider"])
    assert client.get(reverse(route, args=[character.pk])).status_code == 404


def test_anonymous(personas, character, client):
    response = client.get(reverse("character-pdf", args=[character.pk]))
    assert response.status_code == 302 and response.url.startswith(reverse("login"))
    assert client.get(reverse("api-character-pdf", args=[character.pk])).status_code == 401


def test_api_route_takes_a_token_and_asks_for_pdf(personas, character, client):
    token = Token.objects.create(user=personas["viewer"])
    response = client.get(reverse("api-character-pdf", args=[character.pk]), HTTP_AUTHORIZATION=f"Token {token.key}",
                          HTTP_ACCEPT="application/pdf")
    assert response.status_code == 200
    _check_pdf(response.content, "Ada Quill")
    outsider = Token.objects.create(user=personas["outsider"])
    response = client.get(reverse("api-character-pdf", args=[character.pk]), HTTP_AUTHORIZATION=f"Token {outsider.key}")
    assert response.status_code == 404 and response.json() == {"errors": {"detail": ["Not found."]}}


def test_the_sheet_links_to_the_pdf(personas, character, client):
    client.force_login(personas["viewer"])
    html = client.get(reverse("character-sheet", args=[character.pk])).content.decode()
    assert f'href="{reverse("character-pdf", args=[character.pk])}"' in html


def _html_for(personas, persona, character) -> str:
    access = access_character(user=personas[persona], character_id=character.pk)
    return pdf.sheet_html(sheet_data(access, page="print"))


def test_gm_notes_are_only_on_the_gms_copy(personas, character, client):
    for persona in ("player", "other_player", "viewer"):
        html = _html_for(personas, persona, character)
        assert "Syndicate plant" not in html and "GM notes" not in html
    assert "Secretly a Syndicate plant." in _html_for(personas, "gm", character)
    url = reverse("character-pdf", args=[character.pk])
    client.force_login(personas["player"])
    assert "GM notes · GM's copy only" not in pdf_titles(client.get(url).content)
    client.force_login(personas["gm"])
    assert "GM notes · GM's copy only" in pdf_titles(client.get(url).content)


def test_page_one_and_two_hold_what_the_paper_sheet_holds(personas, character):
    html = _html_for(personas, "player", character)
    page_one, page_two = html.split('<section class="page" id="page-2">')
    assert "@page { size: A4" in html
    for text in ("Ada Quill", "Stats · 4d6 ≤ stat", "Derived", "Wounds", "Skills · 3d6 ≤ target",
                 "Pilot (profession)", "62.5%", "49 / 49"):
        assert text in page_one, text
    for text in ("Honour-bound", "Field medkit", "Service pistol", "2d6", "Kevlar vest", "RES -2", "Latin",
                 "Starting Karma 10", "Notes"):
        assert text in page_two, text


def test_a_crowded_sheet_stays_two_pages(personas, client):
    character = make_character(personas, name="Hoarder", skills=45, lines=True)
    gm = personas["gm"]
    for i in range(12):
        items.item_create(character=character, kind_name="equipment", by=gm, is_gm=True,
                          data={"name": f"Gadget {i}", "breadth": "specific", "ranks": 1})
        items.item_create(character=character, kind_name="weapons", by=gm, is_gm=True,
                          data={"name": f"Blaster {i} with a very long name indeed", "damage_points": 5})
        items.item_create(character=character, kind_name="languages", by=gm, is_gm=True,
                          data={"name": f"Tongue {i}", "spoken": 1})
    client.force_login(gm)
    response = client.get(reverse("character-pdf", args=[character.pk]))
    _check_pdf(response.content, "Hoarder")
    html = _html_for(personas, "gm", character)
    assert "+ 14 more skills: see the sheet in the app" in html  # 45 skills, 31 rows and the note
    assert "+ 7 more" in html  # 14 equipment lines in 8 rows
