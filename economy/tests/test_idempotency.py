"""Idempotency keys on every endpoint that writes the Karma ledger: spends, MacGuffin
contributions and GM awards.

A replayed key returns the first entry before anything is checked again: the balance, the
character's state, the stat, the disadvantage or the pool may have changed since, and the
replay still answers with the first entry and posts nothing. A key that already posted a
different kind of entry is a 409 that changes nothing.
"""

from __future__ import annotations

import pytest

from campaign.models import LogEntry
from characters import lifecycle
from characters.models import Character, Disadvantage
from economy import services as economy
from economy.models import KarmaEntry, MacGuffin

pytestmark = pytest.mark.django_db


def spend(api, character, /, **body):
    return api.post(f"/api/v1/characters/{character.pk}/karma/", body, format="json")


def contribute(api, pool, character, amount, key):
    return api.post(f"/api/v1/macguffins/{pool.pk}/contributions/",
                    {"character": character.pk, "amount": amount, "idempotency_key": key}, format="json")


def award(api, campaign, **body):
    return api.post(f"/api/v1/campaigns/{campaign.pk}/awards/", body, format="json")


def ledger() -> list:
    """The ledger, the balances and the log: what a replay must leave exactly as it was."""
    return [list(KarmaEntry.objects.order_by("pk").values_list("pk", "character_id", "amount", "balance_after")),
            list(Character.objects.order_by("pk").values_list("pk", "karma", "karma_converted", "str")),
            list(MacGuffin.objects.order_by("pk").values_list("pk", "progress", "status")),
            LogEntry.objects.count()]


def assert_replayed(response, first) -> None:
    assert response.status_code == 200, response.content
    assert response.json() == first.json()


@pytest.fixture
def pool(personas):
    return economy.macguffin_create(campaign=personas["campaign"], name="Crystal radio set", limitation="",
                                    target=10, upgrade="", by=personas["gm"])


# --- Karma spends -------------------------------------------------------------------------
def test_a_replayed_spend_returns_the_first_entry_once_the_balance_no_longer_covers_it(api_as, make_character):
    hero = make_character("player", karma=1)
    first = spend(api_as("player"), hero, kind="reroll", idempotency_key="last-karma")
    assert first.status_code == 201 and first.json()["balance"] == 0
    before = ledger()
    assert_replayed(spend(api_as("player"), hero, kind="reroll", idempotency_key="last-karma"), first)
    assert ledger() == before
    # What the replay skipped: the same spend under a new key is refused.
    assert spend(api_as("player"), hero, kind="reroll", idempotency_key="new").status_code == 409


def test_a_replayed_stat_raise_returns_the_first_entry_after_the_stat_and_its_price_changed(api_as, make_character):
    """RULINGS §4: STR 25 costs 2 to raise, 26 costs 4; the replay is still the first raise."""
    hero = make_character("player", karma=10, stats={"STR": 25})
    first = spend(api_as("player"), hero, kind="stat_raise", stat="STR", idempotency_key="raise")
    assert first.status_code == 201 and first.json()["entry"]["amount"] == -2
    assert spend(api_as("player"), hero, kind="stat_raise", stat="STR", idempotency_key="raise-2").status_code == 201
    before = ledger()
    replay = spend(api_as("player"), hero, kind="stat_raise", stat="STR", idempotency_key="raise")
    assert_replayed(replay, first)
    assert replay.json()["entry"]["data"] == {"stat": "STR", "from": 25, "to": 26}
    assert ledger() == before
    hero.refresh_from_db()
    assert (hero.str, hero.karma, hero.stat_raises) == (27, 4, {"STR": 2})


def test_a_replayed_removal_returns_the_first_entry_after_the_disadvantage_is_gone(api_as, make_character):
    hero = make_character("player", disadvantages=[{"name": "Vertigo", "value": 1, "ranks": 1}])
    vertigo = hero.disadvantages.get()
    first = spend(api_as("player"), hero, kind="disadvantage_removal", disadvantage=vertigo.pk, idempotency_key="d")
    assert first.status_code == 201
    assert not Disadvantage.objects.filter(pk=vertigo.pk).exists()
    before = ledger()
    assert_replayed(spend(api_as("player"), hero, kind="disadvantage_removal", disadvantage=vertigo.pk,
                          idempotency_key="d"), first)
    assert ledger() == before


def test_a_replayed_spend_returns_the_first_entry_after_the_character_retired(personas, api_as, make_character):
    hero = make_character("player")
    first = spend(api_as("player"), hero, kind="skill_points", amount=2, idempotency_key="study")
    assert first.status_code == 201
    lifecycle.character_set_state(character=hero, state=Character.State.RETIRED, by=personas["gm"])
    before = ledger()
    assert_replayed(spend(api_as("player"), hero, kind="skill_points", amount=2, idempotency_key="study"), first)
    assert ledger() == before
    refused = spend(api_as("player"), hero, kind="skill_points", amount=2, idempotency_key="study-more")
    assert refused.status_code == 409 and "retired" in refused.json()["errors"]["character"][0]


def test_a_replay_with_other_parameters_of_the_same_kind_is_the_first_spend(api_as, make_character):
    hero = make_character("player")
    first = spend(api_as("player"), hero, kind="skill_points", amount=3, idempotency_key="study")
    before = ledger()
    assert_replayed(spend(api_as("player"), hero, kind="skill_points", amount=5, idempotency_key="study"), first)
    assert ledger() == before
    hero.refresh_from_db()
    assert (hero.karma, hero.karma_converted) == (7, 3)


def test_the_service_replays_before_it_looks_at_anything_else(personas, make_character):
    hero = make_character("player", karma=2)
    entry, created = economy.karma_spend(character=hero, kind="skill_points", idempotency_key="k",
                                         by=personas["player"], is_gm=False, params={"amount": 2})
    assert created and hero.karma == 0
    # Nothing that would be refused now is looked at: no balance, a bad amount, the player not the GM.
    for params in ({"amount": 2}, {"amount": "lots"}, {}):
        again, created = economy.karma_spend(character=hero, kind="skill_points", idempotency_key="k",
                                             by=personas["gm"], is_gm=True, params=params)
        assert (again.pk, created) == (entry.pk, False)
    assert KarmaEntry.objects.filter(character=hero).exclude(kind="opening").count() == 1


OTHER_SPENDS = [
    {"kind": "assist", "character": "bob"},
    {"kind": "skill_points", "amount": 1},
    {"kind": "stat_raise", "stat": "STR"},
    {"kind": "disadvantage_removal", "disadvantage": "greed"},
    {"kind": "good_fortune", "cost": 1},
    {"kind": "setback_payoff", "stat": "STR"},
    {"kind": "delay_transition", "time_index": 2},
]


@pytest.mark.parametrize("body", OTHER_SPENDS, ids=[b["kind"] for b in OTHER_SPENDS])
def test_a_spend_key_reused_for_another_kind_of_spend_is_409(api_as, make_character, body):
    alice = make_character("player", name="Alice", disadvantages=[{"name": "Greed", "value": 2, "ranks": 2}])
    bob = make_character("other_player", name="Bob")
    assert spend(api_as("player"), alice, kind="reroll", idempotency_key="mine").status_code == 201
    body = {**body, "character": bob.pk} if "character" in body else body
    body = {**body, "disadvantage": alice.disadvantages.get().pk} if "disadvantage" in body else body
    before = ledger()
    response = spend(api_as("gm"), alice, **body, idempotency_key="mine")
    assert response.status_code == 409, response.content
    assert "already used" in response.json()["errors"]["idempotency_key"][0]
    assert ledger() == before


# --- MacGuffin contributions ----------------------------------------------------------------
def test_a_replayed_contribution_returns_the_first_entry_once_the_pool_is_funded(api_as, make_character, pool):
    hero = make_character("player", karma=10)
    first = contribute(api_as("player"), pool, hero, 10, "all-in")
    assert first.status_code == 201 and first.json()["progress"] == 10 and first.json()["balance"] == 0
    assert MacGuffin.objects.get(pk=pool.pk).status == MacGuffin.Status.FUNDED
    before = ledger()
    assert_replayed(contribute(api_as("player"), pool, hero, 10, "all-in"), first)
    assert ledger() == before
    # What the replay skipped: the pool is full and the balance empty.
    assert contribute(api_as("player"), pool, hero, 1, "one-more").status_code == 409


def test_a_contribution_key_reused_elsewhere_is_409(personas, api_as, make_character, pool):
    hero = make_character("player")
    other_pool = economy.macguffin_create(campaign=personas["campaign"], name="Meitner lattice", limitation="",
                                          target=10, upgrade="", by=personas["gm"])
    assert contribute(api_as("player"), pool, hero, 2, "gift").status_code == 201
    assert spend(api_as("player"), hero, kind="reroll", idempotency_key="spent").status_code == 201
    before = ledger()
    for response in (contribute(api_as("player"), other_pool, hero, 2, "gift"),  # another pool
                     spend(api_as("player"), hero, kind="reroll", idempotency_key="gift"),  # a spend
                     contribute(api_as("player"), pool, hero, 2, "spent")):  # a spend's key
        assert response.status_code == 409, response.content
        assert "idempotency_key" in response.json()["errors"]
    assert ledger() == before


# --- GM awards ----------------------------------------------------------------------------
def test_a_replayed_correction_returns_the_first_entries_once_the_balance_no_longer_covers_it(
        personas, api_as, make_character):
    alice = make_character("player", name="Alice", karma=3)
    bob = make_character("other_player", name="Bob", karma=3)
    body = {"kind": "manual", "characters": [alice.pk, bob.pk], "amount": -3, "reason": "Counted twice",
            "idempotency_key": "fix-1"}
    first = award(api_as("gm"), personas["campaign"], **body)
    assert first.status_code == 201 and [e["balance_after"] for e in first.json()["entries"]] == [0, 0]
    before = ledger()
    assert_replayed(award(api_as("gm"), personas["campaign"], **body), first)
    assert ledger() == before
    body["idempotency_key"] = "fix-2"  # what the replay skipped: the same correction is now refused
    assert award(api_as("gm"), personas["campaign"], **body).status_code == 409


def test_a_replayed_award_returns_the_first_entries_after_a_character_retired(personas, api_as, make_character):
    alice = make_character("player", name="Alice")
    body = {"kind": "npc_boost", "characters": [alice.pk], "reason": "Saved the ferryman", "idempotency_key": "b1"}
    first = award(api_as("gm"), personas["campaign"], **body)
    assert first.status_code == 201
    lifecycle.character_set_state(character=alice, state=Character.State.RETIRED, by=personas["gm"])
    before = ledger()
    assert_replayed(award(api_as("gm"), personas["campaign"], **body), first)
    assert ledger() == before


def test_an_award_key_reused_for_another_kind_of_award_is_409(personas, api_as, make_character):
    alice = make_character("player", name="Alice")
    key = {"characters": [alice.pk], "reason": "The radio gives them away", "idempotency_key": "award-1"}
    assert award(api_as("gm"), personas["campaign"], kind="npc_boost", **key).status_code == 201
    before = ledger()
    for other in ({"kind": "complication"}, {"kind": "manual", "amount": 5}):
        response = award(api_as("gm"), personas["campaign"], **other, **key)
        assert response.status_code == 409, response.content
        assert "idempotency_key" in response.json()["errors"]
    assert ledger() == before
