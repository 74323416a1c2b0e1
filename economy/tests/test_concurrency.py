"""The ledger under concurrent requests, on the real PostgreSQL: row locks, never below zero,
an idempotency key spends once, MacGuffin pools add up exactly.

Each request runs in its own thread with its own database connection (closed when the
request is done) through the whole HTTP stack, so what is tested is what a double-clicking
player or a retrying script would get.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection
from rest_framework.test import APIClient

from characters.models import Character
from economy import services as economy
from economy.models import KarmaEntry, MacGuffin

pytestmark = [pytest.mark.stack, pytest.mark.django_db(transaction=True)]  # stack: up to 16 real connections at once

WORKERS = 16


def run_concurrently(calls):
    """Run each zero-argument call on a pool of threads; return their results in order.

    Also checks that the calls really overlapped: several were in flight at the same time.
    """
    in_flight, peak, lock = 0, 0, threading.Lock()

    def run(call):
        nonlocal in_flight, peak
        with lock:
            in_flight += 1
            peak = max(peak, in_flight)
        try:
            return call()
        finally:
            with lock:
                in_flight -= 1
            connection.close()  # each thread's own connection; Django would not close it here

    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        results = list(pool.map(run, calls))
    assert peak > 1, "the calls ran one after another"
    return results


def post_as(user, url, body):
    def call():
        client = APIClient()
        client.force_authenticate(user)
        response = client.post(url, body, format="json")
        return response.status_code, response.json()
    return call


def assert_ledger_chains(character) -> list[KarmaEntry]:
    """Every entry's balance_after ≥ 0 and equal to the previous one plus its amount; the cached
    balance equals the ledger's sum and its last balance_after."""
    entries = list(KarmaEntry.objects.filter(character=character).order_by("id"))
    running = 0
    for entry in entries:
        running += entry.amount
        assert entry.balance_after == running, entry
        assert entry.balance_after >= 0
    assert Character.objects.get(pk=character.pk).karma == running == entries[-1].balance_after
    return entries


def test_200_concurrent_spends_succeed_exactly_as_often_as_the_balance_covers(personas, make_character):
    k = 37
    hero = make_character("player", karma=k)
    url = f"/api/v1/characters/{hero.pk}/karma/"
    calls = [post_as(personas["player"], url, {"kind": "reroll", "idempotency_key": f"spend-{i}"})
             for i in range(200)]

    started = time.perf_counter()
    results = run_concurrently(calls)
    elapsed = time.perf_counter() - started

    codes = Counter(code for code, _ in results)
    assert codes == {201: k, 409: 200 - k}, codes
    refused = [body for code, body in results if code == 409]
    assert all("has 0 Karma" in body["errors"]["amount"][0] for body in refused)
    entries = assert_ledger_chains(hero)
    assert Character.objects.get(pk=hero.pk).karma == 0
    assert [e.kind for e in entries].count("reroll") == k
    assert sorted(body["balance"] for code, body in results if code == 201) == list(range(k))
    print(f"\nCONCURRENCY spends: K={k}, 200 requests on {WORKERS} threads: {codes[201]} × 201, "
          f"{codes[409]} × 409, {elapsed:.2f} s")


def test_one_idempotency_key_sent_20_times_at_once_spends_once(personas, make_character):
    hero = make_character("player", karma=10)
    url = f"/api/v1/characters/{hero.pk}/karma/"
    body = {"kind": "skill_points", "amount": 3, "idempotency_key": "double-click"}
    results = run_concurrently([post_as(personas["player"], url, body) for _ in range(20)])

    codes = Counter(code for code, _ in results)
    assert codes == {201: 1, 200: 19}, codes
    assert len({body["entry"]["id"] for _, body in results}) == 1
    assert {body["balance"] for _, body in results} == {7}
    hero.refresh_from_db()
    assert hero.karma == 7 and hero.karma_converted == 3
    assert KarmaEntry.objects.filter(character=hero, idempotency_key="client:double-click").count() == 1
    assert_ledger_chains(hero)


def test_concurrent_contributions_from_two_characters_add_up_exactly(personas, make_character):
    alice = make_character("player", name="Alice", karma=40)
    bob = make_character("other_player", name="Bob", karma=40)
    pool = economy.macguffin_create(campaign=personas["campaign"], name="Meitner lattice", limitation="",
                                    target=30, upgrade="", by=personas["gm"])
    url = f"/api/v1/macguffins/{pool.pk}/contributions/"
    calls = []
    for i in range(20):  # interleaved: Alice pays 2 at a time, Bob 3
        calls.append(post_as(personas["player"], url, {"character": alice.pk, "amount": 2, "idempotency_key": f"a{i}"}))
        calls.append(post_as(personas["other_player"], url, {"character": bob.pk, "amount": 3,
                                                               "idempotency_key": f"b{i}"}))

    started = time.perf_counter()
    results = run_concurrently(calls)
    elapsed = time.perf_counter() - started

    codes = Counter(code for code, _ in results)
    assert set(codes) <= {201, 400, 409}, codes
    pool.refresh_from_db()
    paid = {c.pk: -sum(KarmaEntry.objects.filter(character=c, macguffin=pool).values_list("amount", flat=True))
            for c in (alice, bob)}
    assert pool.progress == paid[alice.pk] + paid[bob.pk] <= pool.target
    assert pool.target - pool.progress <= 1  # nothing of 2 or 3 fits any more
    assert (pool.status == MacGuffin.Status.FUNDED) == (pool.progress == pool.target)
    assert paid[alice.pk] > 0 and paid[bob.pk] > 0
    assert codes[201] == paid[alice.pk] // 2 + paid[bob.pk] // 3
    for character in (alice, bob):
        assert_ledger_chains(character)
        assert Character.objects.get(pk=character.pk).karma == 40 - paid[character.pk]
    # Each 201 reported the pool as its own contribution left it: all different, all ≤ the target.
    progresses = [body["progress"] for code, body in results if code == 201]
    assert len(set(progresses)) == len(progresses) and max(progresses) == pool.progress
    print(f"\nCONCURRENCY MacGuffin: 40 contributions on {WORKERS} threads, {codes[201]} accepted "
          f"(Alice {paid[alice.pk]}, Bob {paid[bob.pk]}), pool {pool.progress}/{pool.target}, {elapsed:.2f} s")


def test_awards_naming_the_same_characters_in_any_order_all_succeed(personas, make_character):
    alice = make_character("player", name="Alice")
    bob = make_character("other_player", name="Bob")
    url = f"/api/v1/campaigns/{personas['campaign'].pk}/awards/"

    def award(order):
        def call():
            client = APIClient(raise_request_exception=False)
            client.force_authenticate(personas["gm"])
            return client.post(url, {"kind": "npc_boost", "characters": order, "reason": "Boost"},
                               format="json").status_code
        return call

    codes = Counter(run_concurrently([award([alice.pk, bob.pk]), award([bob.pk, alice.pk])] * 8))
    assert codes == {201: 16}, codes


# --- The unique constraint as the last word -------------------------------------------------
@pytest.mark.parametrize("write", ["spend", "contribution"])
def test_two_requests_that_both_pass_the_key_check_post_once(personas, make_character, monkeypatch, write):
    """The same key, twice at the same moment, both past the check before either inserts: the
    unique constraint refuses the second insert, and its request answers with the first entry.

    The character's row lock normally orders such requests so that the second one's check
    sees the first entry; here that lock is lifted for the ledger, so that the check really
    is raced and the constraint, with the ledger's IntegrityError branch, is what decides.
    A barrier holds each request right after its check until both have checked.
    """
    from django.db import IntegrityError

    from economy import ledger

    hero = make_character("player", karma=10)
    pool = economy.macguffin_create(campaign=personas["campaign"], name="Meitner lattice", limitation="",
                                    target=10, upgrade="", by=personas["gm"])
    if write == "spend":
        url, body = f"/api/v1/characters/{hero.pk}/karma/", {"kind": "reroll", "idempotency_key": "same-time"}
    else:
        url, body = f"/api/v1/macguffins/{pool.pk}/contributions/", {"character": hero.pk, "amount": 1,
                                                                       "idempotency_key": "same-time"}

    monkeypatch.setattr(ledger.Character.objects, "select_for_update", lambda **_: Character.objects.all())
    barrier, checked, first_check = threading.Barrier(2, timeout=30), [], threading.local()
    real_existing = ledger._existing

    def existing(character_id, key, kind):
        found = real_existing(character_id, key, kind)
        checked.append(found)
        if not getattr(first_check, "done", False):
            first_check.done = True
            barrier.wait()  # both requests have checked; neither has inserted
        return found

    monkeypatch.setattr(ledger, "_existing", existing)
    collisions, real_create = [], KarmaEntry.objects.create

    def create(**fields):
        try:
            return real_create(**fields)
        except IntegrityError:
            collisions.append(fields["idempotency_key"])
            raise

    monkeypatch.setattr(KarmaEntry.objects, "create", create)

    results = run_concurrently([post_as(personas["player"], url, body)] * 2)

    assert sorted(code for code, _ in results) == [200, 201], results
    assert results[0][1] == results[1][1]  # the loser answers with the winner's entry
    assert collisions == ["client:same-time"]  # the second insert hit the unique constraint…
    assert checked[:2] == [None, None] and checked[2].pk == results[0][1]["entry"]["id"]  # …and was replayed
    assert KarmaEntry.objects.filter(character=hero, idempotency_key="client:same-time").count() == 1
    entries = assert_ledger_chains(hero)
    assert Character.objects.get(pk=hero.pk).karma == 9 and len(entries) == 2
    if write == "contribution":
        assert MacGuffin.objects.get(pk=pool.pk).progress == 1  # the loser's pool update was rolled back
