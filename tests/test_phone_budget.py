"""On a phone (390×844), each play page's main action is on the first screen and nothing scrolls
sideways: the roller's Roll, a sheet's first Roll, the Karma page's Spend, a pool's Give, the
GM's Start downtime. (A player's attack on their turn: combat/tests/test_your_turn.py.)"""

import pytest
from playwright.sync_api import expect

from economy.pools import macguffin_create
from economy.tests.conftest import make_character  # noqa: F401  (a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTH, HEIGHT = 390, 844


def test_the_main_action_of_every_play_page_is_on_the_first_screen(personas, make_character, page_for,
                                                                    live_server):
    campaign = personas["campaign"]
    alice = make_character("player", name="Alice")
    macguffin_create(campaign=campaign, name="Crystal radio set", limitation="", target=10, upgrade="",
                     by=personas["gm"])
    pages = [
        ("roller", personas["player"], f"/campaigns/{campaign.pk}/roller/", "form.roller-form button.primary[type=submit]"),
        ("sheet", personas["player"], f"/characters/{alice.pk}/", "table.stats .roll-stat"),
        ("karma", personas["player"], f"/characters/{alice.pk}/karma/", "button.primary:has-text('Spend')"),
        ("pools", personas["player"], f"/campaigns/{campaign.pk}/macguffins/", "button.primary:has-text('Give')"),
        ("downtime", personas["gm"], f"/campaigns/{campaign.pk}/downtime/",
         "button.primary:has-text('Start downtime')"),
    ]
    far = []
    for name, user, url, action in pages:
        page = page_for(user, width=WIDTH, height=HEIGHT)
        page.goto(live_server.url + url)
        button = page.locator(action).first
        expect(button).to_be_visible()
        box = button.bounding_box()
        if box["y"] + box["height"] > HEIGHT:
            far.append(f"{name}: {action} is {box['y']:.0f} px down")
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{name} is {overflow}px wider than a {WIDTH}px screen"
    assert not far, "Main actions below the first screen:\n" + "\n".join(far)
