"""WCAG 2.2 AA on every page: axe-core finds no serious or critical violation, for the GM and a
player, at 390 and 1280 px.

The pages come from the URLconf (the authorization matrix's discovery): every route a signed-in
user reads with GET is either in ``PAGES`` (checked) or in ``NOT_PAGES`` with why (a fragment
that lives inside a checked page, a PDF, JSON, a redirect). A new page without an entry fails
``test_every_page_has_an_entry``. A fragment listed as such must really be one (no ``<html>``),
so an entry cannot hide a page.

Each page is checked as each persona the matrix lets read it (the GM always; the player who owns
the character where a player may), loaded once at 1280 px, then narrowed to 390 px (the layout's
media queries apply on resize) and checked again.
"""

from __future__ import annotations

import pytest
from django.test import Client

from conftest import PASSWORD
from tests.accessibility import serious_violations
from tests.test_authorization_matrix import ALLOWED, MATRIX, ROUTES, build_world, url_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDE, NARROW = 1280, 390

#: Every page, each with the query its useful state needs (None: the bare address).
PAGES: dict[str, dict | None] = {
    # Accounts
    "login": None, "password-change": None, "password_reset": None, "password_reset_done": None,
    "password_reset_confirm": None, "password_reset_complete": None, "join": None, "account": None,
    # The table
    "home": None, "campaign-dashboard": None, "campaign-settings": None, "campaign-sessions": None,
    "campaign-session": None, "campaign-log": None, "campaign-imported": None,
    # Characters
    "character-party": None, "character-new": None, "character-sheet": None, "character-build": None,
    "character-line-edit": None, "character-line-new": None, "character-history": None, "character-karma": None, "system-sheet": None,
    # Economy, downtime, combat
    "campaign-adventures": None, "adventure-close": None, "campaign-macguffins": None, "campaign-downtime": None,
    "campaign-job": None, "campaign-transition-new": None, "campaign-transition": None,
    "campaign-encounters": None, "encounter": None, "encounter-table": None,
    "campaign-system-fights": None, "system-fight": None,
    # Rolls and reference
    "campaign-roller": None, "check-builder": None, "tables": None, "glossary": None,
}

FRAGMENT = "a fragment swapped into a checked page (htmx), checked there"
NOT_PAGES: dict[str, str] = {
    "healthz": "JSON for load balancers",
    "favicon": "a redirect to the icon",
    "character-pdf": "a PDF (its text is tagged by the PDF writer, not a web page)",
    "campaign-stream": "the live event stream (text/event-stream)",
    "character-wounds-panel": FRAGMENT,
    "character-karma-preview": FRAGMENT,
    "campaign-macguffins-live": FRAGMENT,
    "encounter-live": FRAGMENT,
    "encounter-preview": FRAGMENT,
    "sheet-roll-form": FRAGMENT,
    "campaign-rolls-feed": FRAGMENT,
    "javascript-catalog": "the scripts' words (JavaScript, not a page)",
    "signup": "404 where the site takes no sign-ups (the default); an open site's page is checked by "
              "zenergate_site/tests/test_signup_browser.py",
    "email-confirm": "a mailed link: only a valid signed token renders it (one button, as the password "
                     "pages); any other lands on the account page, checked above",
}


def _get_routes():
    return [route for route in ROUTES if not route.is_api and "GET" in route.methods]


def test_every_page_has_an_entry():
    names = {route.name for route in _get_routes()}
    missing = sorted(names - set(PAGES) - set(NOT_PAGES))
    stale = sorted((set(PAGES) | set(NOT_PAGES)) - names)
    assert not missing, f"pages with no accessibility entry (tests/test_accessibility.py PAGES): {missing}"
    assert not stale, f"entries whose route is gone: {stale}"
    assert not set(PAGES) & set(NOT_PAGES)


def _readers(name: str) -> list[str]:
    """The personas who read the page: the GM, and the owning player where the matrix allows."""
    rule = MATRIX[name]["GET"]
    return [persona for persona in ("gm", "owner") if rule.who.get(persona) == ALLOWED]


def test_fragments_are_not_pages(live_server):
    """A route excused as a fragment answers HTML without a document around it."""
    world = build_world()
    client = Client()
    client.force_login(world.users["gm"])
    routes = {route.name: route for route in _get_routes()}
    for name, why in NOT_PAGES.items():
        if why != FRAGMENT:
            continue
        route = routes[name]
        rule = MATRIX[name]["GET"]
        query = rule.query(world) if callable(rule.query) else rule.query
        response = client.get(url_of(route, rule, world), query or {}, HTTP_HX_REQUEST="true")
        assert response.status_code == 200, f"{name}: {response.status_code}"
        assert b"<html" not in response.content.lower(), f"{name} answers a whole page: check it in PAGES"


def test_no_page_has_a_serious_accessibility_violation(browser, live_server):
    world = build_world()
    users = {"gm": world.users["gm"], "owner": world.users["player"]}
    for user in users.values():
        user.set_password(PASSWORD)
        user.save(update_fields=["password"])
    routes = {route.name: route for route in _get_routes()}
    found: list[str] = []
    checked = 0
    for persona, user in users.items():
        context = browser.new_context(viewport={"width": WIDE, "height": 900}, bypass_csp=True)
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("#id_username", user.username)
        page.fill("#id_password", PASSWORD)
        page.click("main button[type=submit]")
        page.wait_for_url(f"{live_server.url}/")
        for name, query in PAGES.items():
            if persona not in _readers(name):
                continue
            rule = MATRIX[name]["GET"]
            address = live_server.url + url_of(routes[name], rule, world)
            page.set_viewport_size({"width": WIDE, "height": 900})
            page.goto(address + (("?" + "&".join(f"{k}={v}" for k, v in query.items())) if query else ""))
            for width in (WIDE, NARROW):
                page.set_viewport_size({"width": width, "height": 900 if width == WIDE else 844})
                found += [f"{name} as {persona} at {width}px: {line}" for line in serious_violations(page)]
                checked += 1
        context.close()
    assert checked >= 2 * len(PAGES), f"only {checked} checks ran"
    assert not found, "axe-core found serious or critical violations:\n" + "\n".join(found)
