"""A whole turn and a skill roll with the keyboard alone, in Chromium: every control is reached
with Tab, opened and pressed with Enter or Space, and the focused one is visibly outlined."""

import pytest
from playwright.sync_api import expect

from combat.models import CombatEvent
from combat.tests.test_your_turn import _warehouse
from economy.tests.conftest import make_character  # noqa: F401  (a fixture)
from rolls.models import Roll

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def tab_to(page, selector: str, most: int = 250) -> None:
    """Press Tab until the element ``selector`` names has the focus (as a keyboard user would)."""
    for _ in range(most):
        page.keyboard.press("Tab")
        if page.evaluate("s => { const e = document.activeElement; return !!e && e.matches(s); }", selector):
            outline = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
            assert outline not in ("none", ""), f"{selector} has the focus but no visible outline"
            return
    raise AssertionError(f"Tab never reached {selector}")


def test_a_player_rolls_a_skill_from_the_sheet_with_the_keyboard(personas, make_character, page_for, live_server):
    alice = make_character("player", name="Alice", skills=[
        {"name": "Lockpicking", "breadth": "narrow", "ranks": 2, "stat": "DEX"}])
    skill = alice.skills.get()
    page = page_for(personas["player"], width=390, height=844)
    page.goto(f"{live_server.url}/characters/{alice.pk}/")
    tab_to(page, f'details.roll-line[hx-get*="skill%3A{skill.pk}"] > summary')
    page.keyboard.press("Enter")  # opens the Roll form
    button = page.locator("#sec-skills .roll-body button[type=submit]").first
    expect(button).to_be_visible()
    # htmx wires a swapped-in form up when it settles (20 ms later): a key pressed before that
    # would send the form the plain way. A person is never that quick; the test waits for it.
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-settling, .htmx-swapping')")
    tab_to(page, "#sec-skills .roll-body button[type=submit]")
    page.keyboard.press("Enter")
    expect(page.locator("#sec-skills .roll-result").filter(has_text="against")).to_contain_text(
        "against ≤", timeout=5_000)
    roll = Roll.objects.get(character=alice)
    assert roll.params["line"] == f"skill:{skill.pk}" and roll.by == personas["player"]


def test_a_player_makes_an_attack_on_their_turn_with_the_keyboard(personas, make_character, page_for, live_server):
    encounter = _warehouse(personas, make_character, alice_first=True)  # Alice (the player's) acts first
    thug = encounter.combatants.get(name="Thug")

    page = page_for(personas["player"], width=390, height=844)
    page.goto(f"{live_server.url}/encounters/{encounter.pk}/")
    expect(page.locator("#attack-preview")).to_contain_text("to hit", timeout=5_000)
    tab_to(page, "#id_target")
    page.keyboard.press("ArrowDown")  # the target list: the thug is the only other fighter
    tab_to(page, "#id_range_m")
    page.keyboard.type("10")
    expect(page.locator("#attack-preview")).to_contain_text("to hit")
    tab_to(page, "#attack-preview ~ button[type=submit]")
    page.keyboard.press("Enter")
    expect(page.locator(".combat-log")).to_contain_text("Alice attacks Thug", timeout=5_000)
    attack = CombatEvent.objects.get(encounter=encounter, kind="attack")
    assert attack.by == personas["player"] and attack.gm_data["target"] == thug.pk


def test_the_first_tab_offers_a_skip_to_the_content(personas, make_character, page_for, live_server):
    """Past the top bar in one key: the skip link is the first stop, and it lands in the page's
    content, so the next Tab reaches the sheet rather than the menu."""
    alice = make_character("player", name="Alice")
    page = page_for(personas["player"], width=390, height=844)
    page.goto(f"{live_server.url}/characters/{alice.pk}/")
    page.keyboard.press("Tab")
    skip = page.locator("a.skip-link")
    expect(skip).to_be_focused()
    expect(skip).to_be_in_viewport()  # seen when focused, hidden otherwise
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.getElementById('main').contains(document.activeElement)")
