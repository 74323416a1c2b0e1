"""In Chromium, two browsers at once: what one write changes reaches the other's open page, with
no reload, wherever it shows (the eleven places a game night found stale before every part named
its data keys; DESIGN.md, "Live by construction").

Each test opens the page a player (or the GM) keeps open, marks the loaded document (a reload
would wipe the mark), makes the write as the other person would, and waits for the page to show
what a reload shows. The test server answers the stream as a poll every 1.5 s, so "at once" here
is within a few seconds.
"""

import pytest
from playwright.sync_api import expect

from campaign import sessions
from characters import items, lifecycle
from combat import attacks
from combat import services as combat
from downtime import transitions
from economy import services as economy
from economy.models import MacGuffin
from economy.tests.conftest import character_maker

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SOON = 6_000  # ms


@pytest.fixture
def make(personas):
    return character_maker(personas)


def _mark(page) -> None:
    page.evaluate("window.zgNotReloaded = true")


def _not_reloaded(page) -> bool:
    return page.evaluate("window.zgNotReloaded === true")


def _open(page_for, user, url, *, width=390, height=844):
    page = page_for(user, width=width, height=height)
    page.goto(url)
    expect(page.locator(".live-state")).to_have_text("Live")
    _mark(page)
    return page


def test_1_a_new_weapon_skill_is_offered_for_a_weapon_at_once(personas, make, page_for, live_server):
    draft = make("player", name="Mira", approve=False)
    phone = _open(page_for, personas["player"], f"{live_server.url}/characters/{draft.pk}/build/")
    phone.click("#sec-weapons summary:has-text('+ Add weapon')")  # the form loads as it opens
    skill = phone.locator("#id_weapons-new-skill")
    expect(skill.locator("option")).to_have_count(1)  # none (unproficient)
    phone.fill("#id_weapons-new-name", "Service pistol")  # being typed when the change comes
    items.item_create(character=draft, kind_name="skills", by=personas["player"], is_gm=False,
                      data={"name": "Pistol", "breadth": "weapon_type", "ranks": 2, "stat": "ACC",
                            "weapon_category": "Firearm"})
    expect(skill.locator("option", has_text="Pistol")).to_have_count(1, timeout=SOON)
    expect(phone.locator("#id_weapons-new-name")).to_have_value("Service pistol")  # what was typed stays
    assert _not_reloaded(phone)


def test_2_armour_moves_the_builders_stat_odds_at_once(personas, make, page_for, live_server):
    draft = make("player", name="Mira", approve=False)
    phone = _open(page_for, personas["player"], f"{live_server.url}/characters/{draft.pk}/build/")
    stats = phone.locator("#sec-stats")
    before = stats.inner_text()
    items.item_create(character=draft, kind_name="armour", by=personas["player"], is_gm=False,
                      data={"name": "Plate", "hardness": 4, "coverage": 4})
    expect(stats).not_to_have_text(before, timeout=SOON)
    assert _not_reloaded(phone)


def test_3_the_gms_classification_reaches_the_players_open_builder(personas, make, page_for, live_server):
    draft = make("player", name="Mira", approve=False)
    line = items.item_create(character=draft, kind_name="skills", by=personas["player"], is_gm=False,
                             data={"name": "Sailing", "breadth": "narrow", "ranks": 1, "stat": "PRAC"})
    phone = _open(page_for, personas["player"], f"{live_server.url}/characters/{draft.pk}/build/")
    expect(phone.locator("main")).to_contain_text("awaiting the GM's classification")
    items.lines_classify(character=draft, kind_name="skills", by=personas["gm"],
                         rulings={line.pk: {"breadth": "narrow"}})
    expect(phone.locator("main")).not_to_contain_text("1 line awaiting", timeout=SOON)
    assert _not_reloaded(phone)


def test_4_approval_reaches_the_players_open_sheet(personas, make, page_for, live_server):
    draft = make("player", name="Mira", approve=False)
    lifecycle.character_submit(character=draft, by=personas["player"])
    phone = _open(page_for, personas["player"], f"{live_server.url}/characters/{draft.pk}/")
    expect(phone.locator(".page-head .badge")).to_have_text("Submitted")
    lifecycle.character_approve(character=draft, by=personas["gm"])
    expect(phone.locator(".page-head .badge")).to_have_text("Active", timeout=SOON)
    assert _not_reloaded(phone)


def test_5_an_award_moves_the_open_sheets_karma_box(personas, make, page_for, live_server):
    mira = make("player", name="Mira", karma=8)
    phone = _open(page_for, personas["player"], f"{live_server.url}/characters/{mira.pk}/")
    expect(phone.locator("[data-karma]")).to_have_text("8")
    economy.award(campaign=personas["campaign"], kind="manual", character_ids=[mira.pk], by=personas["gm"],
                  amount=1, reason="A good night")
    expect(phone.locator("[data-karma]")).to_have_text("9", timeout=SOON)
    assert _not_reloaded(phone)


def test_6_pools_and_contributions_reach_the_dashboard_and_the_givers_karma_the_gms_form(
        personas, make, page_for, live_server):
    mira = make("player", name="Mira", karma=8)
    campaign = personas["campaign"]
    dashboard = _open(page_for, personas["player"], f"{live_server.url}/campaigns/{campaign.pk}/")
    gm_pools = _open(page_for, personas["gm"], f"{live_server.url}/campaigns/{campaign.pk}/macguffins/",
                     width=1280, height=900)
    expect(dashboard.locator("main")).to_contain_text("No pools yet")
    pool = economy.macguffin_create(campaign=campaign, name="Time beacon", limitation="", target=10,
                                    upgrade=MacGuffin.Upgrade.NONE, by=personas["gm"])
    expect(dashboard.locator("main")).to_contain_text("Time beacon", timeout=SOON)
    expect(gm_pools.locator(f"#give-{pool.pk} select")).to_contain_text("(8", timeout=SOON)
    economy.macguffin_contribute(macguffin=pool, character=mira, amount=6, idempotency_key="six", by=personas["player"])
    expect(dashboard.locator("main")).to_contain_text("6 / 10", timeout=SOON)
    expect(gm_pools.locator(f"#give-{pool.pk} select")).to_contain_text("(2", timeout=SOON)
    assert _not_reloaded(dashboard) and _not_reloaded(gm_pools)


def test_7_a_fight_the_gm_starts_appears_on_the_phones_combat_list(personas, page_for, live_server):
    campaign = personas["campaign"]
    phone = _open(page_for, personas["player"], f"{live_server.url}/campaigns/{campaign.pk}/encounters/")
    combat.encounter_create(campaign=campaign, by=personas["gm"], name="Ambush at the docks")
    expect(phone.locator("main")).to_contain_text("Ambush at the docks", timeout=SOON)
    assert _not_reloaded(phone)


def test_8_an_npc_hidden_again_leaves_the_players_open_fight(personas, make, page_for, live_server):
    mira = make("player", name="Mira")
    encounter = combat.encounter_create(campaign=personas["campaign"], by=personas["gm"], name="Alley")
    combat.combatant_add(encounter=encounter, by=personas["gm"], character_id=mira.pk)
    rask = combat.combatant_add(encounter=encounter, by=personas["gm"],
                                npc={"name": "Brute Rask", "revealed": True, "stats": {"MEL": 12}})
    url = f"{live_server.url}/encounters/{encounter.pk}/"
    alice, bob = _open(page_for, personas["player"], url), _open(page_for, personas["other_player"], url)
    for phone in (alice, bob):
        expect(phone.locator("#encounter-live")).to_contain_text("Brute Rask")
    combat.combatant_update(combatant=rask, by=personas["gm"], revealed=False)
    for phone in (alice, bob):
        # Off the tracker and the target list (the log keeps what the players saw happen).
        expect(phone.locator("#encounter-live li.fighter", has_text="Brute Rask")).to_have_count(0, timeout=SOON)
        expect(phone.locator("option", has_text="Brute Rask")).to_have_count(0)
        assert _not_reloaded(phone)


def test_9_a_transition_moves_the_open_sheets_stat_rows(personas, make, page_for, live_server):
    mira = make("player", name="Mira")
    phone = _open(page_for, personas["player"], f"{live_server.url}/characters/{mira.pk}/")
    stats = phone.locator(".sheet-grid")
    before = stats.inner_text()
    transitions.transition_make(campaign=personas["campaign"], by=personas["gm"], category="1",
                                character_ids=[mira.pk], idempotency_key="gate", dice={mira.pk: [6, 6, 6, 6, 6]})
    expect(stats).not_to_have_text(before, timeout=SOON)
    assert _not_reloaded(phone)


def test_10_a_players_note_reaches_another_players_open_session_page(personas, page_for, live_server):
    campaign = personas["campaign"]
    sessions.session_start(campaign=campaign, by=personas["gm"])
    night = sessions.session_end(campaign=campaign, by=personas["gm"], recap="The docks.")
    night = sessions.session_recap_save(session=night, by=personas["gm"], recap="The docks.", publish=True)
    url = f"{live_server.url}/campaigns/{campaign.pk}/sessions/{night.number}/"
    bob = _open(page_for, personas["other_player"], url)
    sessions.session_note_add(session=night, by=personas["player"], text="Bring rope to the docks.")
    expect(bob.locator("main")).to_contain_text("Bring rope to the docks.", timeout=SOON)
    assert _not_reloaded(bob)


def test_11_the_gms_answer_replaces_waiting_for_approval(personas, make, page_for, live_server):
    mira = make("player", name="Mira")
    items.item_create(character=mira, kind_name="weapons", by=personas["gm"], is_gm=True,
                      data={"name": "Baton", "damage_points": 3, "melee": True})
    gm = personas["gm"]
    encounter = combat.encounter_create(campaign=personas["campaign"], by=gm, name="Cellar")
    mine = combat.combatant_add(encounter=encounter, by=gm, character_id=mira.pk)
    rat = combat.combatant_add(encounter=encounter, by=gm, npc={"name": "Rat", "revealed": True, "stats": {"MEL": 8}})
    combat.initiative_roll(encounter=encounter, by=gm, dice={mine.pk: [6], rat.pk: [1]})
    combat.encounter_update(encounter=encounter, by=gm, require_approval=True)
    request = attacks.attack_request(encounter=encounter, by=personas["player"], request=attacks.AttackRequest(
        attacker=mine.pk, target=rat.pk, weapon="Baton", stat="MEL"))
    phone = _open(page_for, personas["player"], f"{live_server.url}/encounters/{encounter.pk}/")
    expect(phone.locator("#encounter-live .waiting")).to_contain_text("Waiting for the GM's approval")
    attacks.request_answer(encounter=encounter, by=gm, request_id=request.pk, approve=False)
    expect(phone.locator("#encounter-live .waiting")).to_have_count(0, timeout=SOON)
    assert _not_reloaded(phone)
