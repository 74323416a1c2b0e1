"""The economy API for every persona: Karma ledger and spends, awards, adventures, MacGuffins,
Karmic Debt / Starvation and Complications.

Every refused request is checked to have changed nothing: balances, ledger, sheets, pools,
adventures and the campaign log are compared before and after.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from campaign.models import LogEntry
from characters.models import Character, Disadvantage
from characters.selectors import character_with_sheet
from characters.sheet import compute_sheet
from conftest import PASSWORD, cast_personas, fresh
from economy import services as economy
from economy.models import Adventure, BadNewsToken, Complication, KarmaEntry, MacGuffin
from economy.tests.conftest import character_maker

pytestmark = pytest.mark.django_db

PERSONAS = ["gm", "player", "other_player", "viewer", "outsider", None]
READ = {"gm": "ok", "player": "ok", "other_player": "ok", "viewer": "ok", "outsider": 404, None: 401}
GM_WRITE = {"gm": "ok", "player": 403, "other_player": 403, "viewer": 403, "outsider": 404, None: 401}
OWNER_OR_GM = {"gm": "ok", "player": "ok", "other_player": 403, "viewer": 403, "outsider": 404, None: 401}


def snapshot() -> dict:
    """Everything the economy can change, to prove a refused request changed none of it."""
    return {
        "sheets": list(Character.objects.order_by("pk").values_list(
            "pk", "karma", "karma_converted", "str", "con", "starvation_relief", "state")),
        "entries": list(KarmaEntry.objects.order_by("pk").values_list("pk", "amount", "balance_after")),
        "log": LogEntry.objects.count(),
        "adventures": list(Adventure.objects.order_by("pk").values_list("pk", "closed_at")),
        "tokens": list(BadNewsToken.objects.order_by("pk").values_list("pk", "voided")),
        "macguffins": list(MacGuffin.objects.order_by("pk").values_list("pk", "progress", "status")),
        "complications": Complication.objects.count(),
        "disadvantages": list(Disadvantage.objects.order_by("pk").values_list("pk", "ranks")),
    }


def balance(character) -> int:
    return Character.objects.get(pk=character.pk).karma


def ledger_sum(character) -> int:
    return sum(KarmaEntry.objects.filter(character=character).values_list("amount", flat=True))


@pytest.fixture(scope="module")
def _cast(module_db):
    """Built once for the module (``module_db``): the personas, Alice (the player's) and Bob (the
    other player's), each with 10 Karma, and a pool."""
    from django.contrib.auth import get_user_model

    cast = cast_personas(lambda name: get_user_model().objects.create_user(username=name, password=PASSWORD))
    make_character = character_maker(cast)
    cast["alice"] = make_character("player", name="Alice")
    cast["bob"] = make_character("other_player", name="Bob")
    cast["macguffin"] = economy.macguffin_create(campaign=cast["campaign"], name="Crystal radio set",
                                                 limitation="No word home", target=10, upgrade="", by=cast["gm"])
    return cast


@pytest.fixture
def personas(_cast, db):
    """The module's personas, read afresh for each test."""
    return fresh({name: _cast[name] for name in ("gm", "player", "other_player", "viewer", "outsider", "campaign")})


@pytest.fixture
def world(_cast, personas):
    """Alice, Bob and the pool, and an open adventure with a token (each test opens its own)."""
    gm, campaign = personas["gm"], personas["campaign"]
    adventure = economy.adventure_start(campaign=campaign, name="Lisbon, 1755", base_xp=3, by=gm)
    token = economy.token_add(adventure=adventure, note="The quake is three days early", by=gm)
    return SimpleNamespace(campaign=campaign, gm=gm, alice=fresh(_cast["alice"]), bob=fresh(_cast["bob"]),
                           adventure=adventure, token=token, macguffin=fresh(_cast["macguffin"]))


def _close(w):
    economy.adventure_close(adventure=w.adventure, outcome="none", permanent=False, selfish=[], by=w.gm)


# (id, method, url, body, who may, success status, changes state, set-up)
ENDPOINTS = [
    ("karma-get", "get", lambda w: f"/api/v1/characters/{w.alice.pk}/karma/", None, READ, 200, False, None),
    ("karma-spend", "post", lambda w: f"/api/v1/characters/{w.alice.pk}/karma/",
     lambda w: {"kind": "reroll", "idempotency_key": "persona-1"}, OWNER_OR_GM, 201, True, None),
    ("karma-flags", "get", lambda w: f"/api/v1/characters/{w.alice.pk}/karma-flags/", None, READ, 200, False, None),
    ("complications-get", "get", lambda w: f"/api/v1/characters/{w.alice.pk}/complications/", None, READ, 200,
     False, None),
    ("complication-record", "post", lambda w: f"/api/v1/characters/{w.alice.pk}/complications/",
     lambda w: {"cause": "starvation", "form": "blown_roll", "ranks": 1, "description": "The radio dies mid-call"},
     GM_WRITE, 201, True, None),
    ("award", "post", lambda w: f"/api/v1/campaigns/{w.campaign.pk}/awards/",
     lambda w: {"kind": "npc_boost", "characters": [w.alice.pk], "reason": "Saved the ferryman"},
     GM_WRITE, 201, True, None),
    ("adventures-get", "get", lambda w: f"/api/v1/campaigns/{w.campaign.pk}/adventures/", None, READ, 200, False, None),
    ("adventure-start", "post", lambda w: f"/api/v1/campaigns/{w.campaign.pk}/adventures/",
     lambda w: {"name": "Pompeii, 79", "base_xp": 2}, GM_WRITE, 201, True, _close),
    ("adventure-get", "get", lambda w: f"/api/v1/adventures/{w.adventure.pk}/", None, READ, 200, False, None),
    ("token-add", "post", lambda w: f"/api/v1/adventures/{w.adventure.pk}/tokens/",
     lambda w: {"note": "The gate flickers"}, GM_WRITE, 201, True, None),
    ("token-void", "post", lambda w: f"/api/v1/adventures/{w.adventure.pk}/tokens/{w.token.pk}/void/",
     lambda w: {}, GM_WRITE, 200, True, None),
    ("close-preview", "post", lambda w: f"/api/v1/adventures/{w.adventure.pk}/close/",
     lambda w: {"outcome": "solution", "preview": True}, GM_WRITE, 200, False, None),
    ("close", "post", lambda w: f"/api/v1/adventures/{w.adventure.pk}/close/",
     lambda w: {"outcome": "solution"}, GM_WRITE, 200, True, None),
    ("macguffins-get", "get", lambda w: f"/api/v1/campaigns/{w.campaign.pk}/macguffins/", None, READ, 200, False,
     None),
    ("macguffin-create", "post", lambda w: f"/api/v1/campaigns/{w.campaign.pk}/macguffins/",
     lambda w: {"name": "Meitner lattice", "limitation": "Only clothes survive", "target": 20}, GM_WRITE, 201,
     True, None),
    ("macguffin-get", "get", lambda w: f"/api/v1/macguffins/{w.macguffin.pk}/", None, READ, 200, False, None),
    ("contribute", "post", lambda w: f"/api/v1/macguffins/{w.macguffin.pk}/contributions/",
     lambda w: {"character": w.alice.pk, "amount": 2, "idempotency_key": "persona-2"}, OWNER_OR_GM, 201, True, None),
]


@pytest.mark.parametrize("persona", PERSONAS, ids=lambda p: p or "anonymous")
@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=[e[0] for e in ENDPOINTS])
def test_every_endpoint_for_every_persona(world, api_as, endpoint, persona):
    _, method, url, body, who, ok_status, changes, setup = endpoint
    if setup:
        setup(world)
    before = snapshot()
    client = api_as(persona)
    response = getattr(client, method)(url(world), body(world), format="json") if body else getattr(client, method)(
        url(world))
    expected = ok_status if who[persona] == "ok" else who[persona]
    assert response.status_code == expected, response.content
    if who[persona] != "ok":
        assert "errors" in response.json()
        assert snapshot() == before
    elif changes:
        assert snapshot() != before and LogEntry.objects.count() > before["log"]
    else:
        assert snapshot() == before


def test_unknown_ids_are_404(world, api_as):
    gm = api_as("gm")
    for url in ("/api/v1/characters/987654/karma/", "/api/v1/characters/987654/karma-flags/",
                "/api/v1/adventures/987654/", "/api/v1/macguffins/987654/",
                f"/api/v1/adventures/{world.adventure.pk}/tokens/987654/void/"):
        method = gm.post if url.endswith("void/") else gm.get
        assert method(url).status_code == 404, url
    before = snapshot()
    assert gm.post("/api/v1/campaigns/987654/awards/", {"kind": "npc_boost", "characters": [world.alice.pk],
                                                          "reason": "x"}, format="json").status_code == 404
    assert gm.post("/api/v1/macguffins/987654/contributions/",
                   {"character": world.alice.pk, "amount": 1, "idempotency_key": "k"}, format="json").status_code == 404
    assert snapshot() == before


def test_a_token_of_another_adventure_is_404(world, api_as):
    _close(world)
    later = economy.adventure_start(campaign=world.campaign, name="Later", base_xp=1, by=world.gm)
    before = snapshot()
    response = api_as("gm").post(f"/api/v1/adventures/{later.pk}/tokens/{world.token.pk}/void/")
    assert response.status_code == 404
    assert snapshot() == before


# --- The ledger ---------------------------------------------------------------------------
def test_ledger_lists_entries_newest_first_with_the_balance(world, api_as):
    for key in ("a", "b"):
        api_as("player").post(f"/api/v1/characters/{world.alice.pk}/karma/", {"kind": "reroll", "idempotency_key": key},
                              format="json")
    body = api_as("viewer").get(f"/api/v1/characters/{world.alice.pk}/karma/").json()
    assert body["balance"] == 8 == ledger_sum(world.alice)
    assert [e["kind"] for e in body["results"]] == ["reroll", "reroll", "opening"]
    assert [e["balance_after"] for e in body["results"]] == [8, 9, 10]
    newest = body["results"][0]
    assert set(newest) >= {"id", "kind", "amount", "balance_after", "reason", "adventure", "created_at", "by"}
    assert newest["amount"] == -1 and newest["by"] == "player" and newest["adventure"] == world.adventure.pk
    assert body["results"][-1]["by"] == "gm" and body["results"][-1]["reason"] == "Starting Karma at approval"


def test_ledger_query_count_does_not_grow_with_entries(world, api_as, django_assert_max_num_queries):
    client = api_as("player")
    url = f"/api/v1/characters/{world.alice.pk}/karma/"
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as one_entry:
        client.get(url)
    queries = len(one_entry)  # read now: the next request clears the connection's query log
    for i in range(8):
        client.post(url, {"kind": "reroll", "idempotency_key": f"q{i}"}, format="json")
    with django_assert_max_num_queries(queries):
        assert len(client.get(url).json()["results"]) == 9


# --- Spends -------------------------------------------------------------------------------
def spend(api, character, /, **body):
    return api.post(f"/api/v1/characters/{character.pk}/karma/", body, format="json")


def test_reroll_costs_one_and_a_replayed_key_spends_nothing_more(world, api_as):
    first = spend(api_as("player"), world.alice, kind="reroll", idempotency_key="click-1")
    assert first.status_code == 201
    assert first.json()["balance"] == 9 and first.json()["entry"]["amount"] == -1
    entries = KarmaEntry.objects.count()
    again = spend(api_as("player"), world.alice, kind="reroll", idempotency_key="click-1")
    assert again.status_code == 200
    assert again.json() == first.json()
    assert balance(world.alice) == 9 and KarmaEntry.objects.count() == entries


def test_a_spend_key_cannot_swallow_the_adventure_payout(world, api_as):
    # Whatever a client sends lives in the clients' namespace, apart from the app's own keys.
    for key in (f"payout:{world.adventure.pk}", f"system:payout:{world.adventure.pk}", "opening"):
        assert spend(api_as("player"), world.alice, kind="reroll", idempotency_key=key).status_code == 201
    api_as("gm").post(f"/api/v1/adventures/{world.adventure.pk}/close/", {"outcome": "none"}, format="json")
    assert KarmaEntry.objects.get(character=world.alice, kind="payout").amount == 4
    assert KarmaEntry.objects.filter(character=world.alice, kind="reroll").count() == 3


def test_a_key_used_for_something_else_is_409(world, api_as):
    spend(api_as("player"), world.alice, kind="reroll", idempotency_key="mine")
    before = snapshot()
    response = spend(api_as("player"), world.alice, kind="assist", character=world.bob.pk, idempotency_key="mine")
    assert response.status_code == 409
    assert snapshot() == before


def test_assist_helps_another_character_of_the_campaign(world, api_as, make_character, elsewhere):
    response = spend(api_as("player"), world.alice, kind="assist", character=world.bob.pk, idempotency_key="help")
    assert response.status_code == 201
    assert response.json()["entry"]["data"] == {"helped": world.bob.pk}
    assert balance(world.alice) == 9 and balance(world.bob) == 10
    foreign = make_character(elsewhere.memberships.get(role="player").user, campaign=elsewhere, name="Foreigner")
    before = snapshot()
    for helped in (world.alice.pk, foreign.pk, 987654, None):
        body = {"kind": "assist", "idempotency_key": f"help-{helped}"}
        if helped is not None:
            body["character"] = helped
        response = spend(api_as("player"), world.alice, **body)
        assert response.status_code == 400, helped
        assert "character" in response.json()["errors"]
    assert snapshot() == before


def test_skill_points_raise_karma_converted_and_the_budget(world, api_as):
    available = compute_sheet(character_with_sheet(character_id=world.alice.pk)).budget.available
    response = spend(api_as("player"), world.alice, kind="skill_points", amount=3, idempotency_key="study")
    assert response.status_code == 201 and response.json()["balance"] == 7
    alice = character_with_sheet(character_id=world.alice.pk)
    assert alice.karma_converted == 3
    assert compute_sheet(alice).budget.available == available + 6


def test_stat_raise_costs_per_the_rulings(personas, api_as, make_character):
    """RULINGS §4: 2 Karma while the stat is ≤ 25 before the raise, 4 above 25, 8 above 30."""
    hero = make_character("player", karma=30, stats={"STR": 25, "CON": 30, "RES": 31})
    client = api_as("player")
    steps = [("STR", 25, 2), ("STR", 26, 4), ("CON", 30, 4), ("RES", 31, 8)]
    karma = 30
    for i, (stat, before, cost) in enumerate(steps):
        response = spend(client, hero, kind="stat_raise", stat=stat, idempotency_key=f"raise-{i}")
        assert response.status_code == 201, response.content
        karma -= cost
        entry = response.json()["entry"]
        assert entry["amount"] == -cost and response.json()["balance"] == karma
        assert entry["data"] == {"stat": stat, "from": before, "to": before + 1}
    hero.refresh_from_db()
    assert (hero.str, hero.con, hero.res) == (27, 31, 32)
    assert hero.stat_raises == {"STR": 2, "CON": 1, "RES": 1}
    before = snapshot()
    for bad in ("LUCK", "", None, 3):
        response = spend(client, hero, kind="stat_raise", stat=bad, idempotency_key=f"bad-{bad}")
        assert response.status_code == 400 and "stat" in response.json()["errors"]
    response = spend(client, hero, kind="stat_raise", idempotency_key="no-stat")
    assert response.status_code == 400 and "stat" in response.json()["errors"]
    assert snapshot() == before


def test_disadvantage_removal_one_rank_per_adventure_unless_the_gm_overrides(personas, api_as, make_character):
    gm = personas["gm"]
    hero = make_character("player", disadvantages=[{"name": "Phobia: water", "value": 2, "ranks": 3}])
    phobia = hero.disadvantages.get()
    economy.adventure_start(campaign=personas["campaign"], name="Atlantis", base_xp=1, by=gm)
    player, gm_api = api_as("player"), api_as("gm")

    first = spend(player, hero, kind="disadvantage_removal", disadvantage=phobia.pk, idempotency_key="d1")
    assert first.status_code == 201 and first.json()["balance"] == 9
    assert first.json()["entry"]["data"]["ranks_before"] == 3
    assert Disadvantage.objects.get(pk=phobia.pk).ranks == 2

    before = snapshot()
    second = spend(player, hero, kind="disadvantage_removal", disadvantage=phobia.pk, idempotency_key="d2")
    assert second.status_code in (400, 409)  # 409 per the issue; see test_second_removal_is_a_conflict
    assert "one rank" in " ".join(sum(second.json()["errors"].values(), []))
    not_yours = spend(player, hero, kind="disadvantage_removal", disadvantage=phobia.pk, override=True,
                      idempotency_key="d3")
    assert not_yours.status_code == 400 and "override" in not_yours.json()["errors"]
    assert snapshot() == before

    allowed = spend(gm_api, hero, kind="disadvantage_removal", disadvantage=phobia.pk, override=True,
                    idempotency_key="d4")
    assert allowed.status_code == 201 and Disadvantage.objects.get(pk=phobia.pk).ranks == 1

    # A new adventure: one more rank may come off without the GM, and the last rank removes it.
    economy.adventure_close(adventure=economy.current_adventure(personas["campaign"]), outcome="none",
                            permanent=False, selfish=[], by=gm)
    economy.adventure_start(campaign=personas["campaign"], name="Mu", base_xp=1, by=gm)
    last = spend(player, hero, kind="disadvantage_removal", disadvantage=phobia.pk, idempotency_key="d5")
    assert last.status_code == 201
    assert not Disadvantage.objects.filter(pk=phobia.pk).exists()


def test_second_removal_is_a_conflict(personas, api_as, make_character):
    hero = make_character("player", disadvantages=[{"name": "Greed", "value": 2, "ranks": 2}])
    greed = hero.disadvantages.get()
    spend(api_as("player"), hero, kind="disadvantage_removal", disadvantage=greed.pk, idempotency_key="g1")
    response = spend(api_as("player"), hero, kind="disadvantage_removal", disadvantage=greed.pk, idempotency_key="g2")
    assert response.status_code == 409


def test_disadvantage_of_another_character_is_refused(world, api_as, make_character):
    other = make_character("other_player", name="Carla", disadvantages=[{"name": "Vertigo", "value": 1, "ranks": 1}])
    before = snapshot()
    response = spend(api_as("player"), world.alice, kind="disadvantage_removal",
                     disadvantage=other.disadvantages.get().pk, idempotency_key="steal")
    assert response.status_code == 400 and "disadvantage" in response.json()["errors"]
    assert snapshot() == before


def test_good_fortune_is_priced_by_the_gm(world, api_as):
    before = snapshot()
    response = spend(api_as("player"), world.alice, kind="good_fortune", cost=1, idempotency_key="luck")
    assert response.status_code == 400 and "kind" in response.json()["errors"]
    no_price = spend(api_as("gm"), world.alice, kind="good_fortune", idempotency_key="luck-0")
    assert no_price.status_code == 400 and "cost" in no_price.json()["errors"]
    assert snapshot() == before
    response = spend(api_as("gm"), world.alice, kind="good_fortune", cost=3, idempotency_key="luck-gm")
    assert response.status_code == 201 and response.json()["balance"] == 7
    assert response.json()["entry"]["data"] == {"cost": 3}


def _fund(api, macguffin, character, key):
    response = api.post(f"/api/v1/macguffins/{macguffin['id']}/contributions/",
                        {"character": character.pk, "amount": macguffin["target"], "idempotency_key": key},
                        format="json")
    assert response.status_code == 201, response.content
    return response


def test_delay_transition_waits_for_the_three_upgrades_in_effect(world, api_as):
    gm, player = api_as("gm"), api_as("player")
    pools = {}
    for upgrade, name in (("enlarged_meitner_field", "Meitner lattice"), ("limited_comms", "Crystal radio"),
                          ("transition_threshold_detection", "Threshold detector")):
        response = gm.post(f"/api/v1/campaigns/{world.campaign.pk}/macguffins/",
                           {"name": name, "limitation": "", "target": 1, "upgrade": upgrade}, format="json")
        assert response.status_code == 201 and response.json()["upgrade"] == upgrade
        pools[upgrade] = response.json()

    def delay(key):
        return spend(player, world.alice, kind="delay_transition", time_index=2, idempotency_key=key)

    refused = delay("early")
    assert refused.status_code == 409
    message = refused.json()["errors"]["kind"][0]
    assert "enlarged Meitner field" in message and "limited comms" in message and "threshold detection" in message

    _fund(player, pools["enlarged_meitner_field"], world.alice, "f1")
    _fund(player, pools["limited_comms"], world.alice, "f2")
    assert gm.get(f"/api/v1/macguffins/{pools['limited_comms']['id']}/").json()["status"] == "funded"
    still = delay("funded-not-in-effect")
    assert still.status_code == 409 and "limited comms" in still.json()["errors"]["kind"][0]

    gm.post(f"/api/v1/adventures/{world.adventure.pk}/close/", {"outcome": "none"}, format="json")
    next_adventure = gm.post(f"/api/v1/campaigns/{world.campaign.pk}/adventures/", {"name": "Next", "base_xp": 1},
                             format="json").json()
    assert gm.get(f"/api/v1/macguffins/{pools['limited_comms']['id']}/").json()["status"] == "in_effect"
    two = delay("two-of-three")
    assert two.status_code == 409
    message = two.json()["errors"]["kind"][0]
    assert "threshold detection" in message and "Meitner" not in message and "limited comms" not in message

    _fund(player, pools["transition_threshold_detection"], world.alice, "f3")
    assert delay("third-funded").status_code == 409  # funded during this adventure: not in effect yet
    gm.post(f"/api/v1/adventures/{next_adventure['id']}/close/", {"outcome": "none"}, format="json")
    gm.post(f"/api/v1/campaigns/{world.campaign.pk}/adventures/", {"name": "After", "base_xp": 1}, format="json")
    karma = balance(world.alice)
    done = delay("in-effect")
    assert done.status_code == 201, done.content
    assert done.json()["entry"]["amount"] == -2 and done.json()["balance"] == karma - 2
    bad = spend(player, world.alice, kind="delay_transition", idempotency_key="no-index")
    assert bad.status_code == 400


def test_spending_on_a_draft_is_409(personas, api_as, make_character):
    draft = make_character("player", approve=False)
    before = snapshot()
    response = spend(api_as("player"), draft, kind="reroll", idempotency_key="too-soon")
    assert response.status_code == 409 and "approved" in response.json()["errors"]["character"][0]
    assert snapshot() == before


def test_a_short_balance_is_409_and_spends_nothing(personas, api_as, make_character):
    poor = make_character("player", karma=2)
    before = snapshot()
    response = spend(api_as("player"), poor, kind="skill_points", amount=3, idempotency_key="too-much")
    assert response.status_code == 409
    assert "has 2 Karma" in response.json()["errors"]["amount"][0]
    assert snapshot() == before


@pytest.mark.parametrize("amount", [0, -1, "3", 2.5, 2.0, None, True, 10**12, [3], {"n": 3}])
def test_bad_amounts_are_400_and_change_nothing(world, api_as, amount):
    before = snapshot()
    client = api_as("player")
    response = spend(client, world.alice, kind="skill_points", amount=amount, idempotency_key="bad")
    assert response.status_code == 400 and "amount" in response.json()["errors"], response.content
    response = client.post(f"/api/v1/macguffins/{world.macguffin.pk}/contributions/",
                           {"character": world.alice.pk, "amount": amount, "idempotency_key": "bad"}, format="json")
    assert response.status_code == 400 and "amount" in response.json()["errors"], response.content
    if amount != -1:  # a manual award of −1 is a correction, not a bad amount
        response = api_as("gm").post(f"/api/v1/campaigns/{world.campaign.pk}/awards/",
                                     {"kind": "manual", "characters": [world.alice.pk], "amount": amount,
                                      "reason": "x"}, format="json")
        assert response.status_code == 400 and "amount" in response.json()["errors"], response.content
    assert snapshot() == before


@pytest.mark.parametrize("body, field", [
    ({"kind": "teleport", "idempotency_key": "k"}, "kind"),
    ({"kind": "macguffin", "amount": 1, "idempotency_key": "k"}, "kind"),
    ({"kind": "", "idempotency_key": "k"}, "kind"),
    ({"idempotency_key": "k"}, "kind"),
    ({"kind": "reroll"}, "idempotency_key"),
    ({"kind": "reroll", "idempotency_key": ""}, "idempotency_key"),
    ({"kind": "reroll", "idempotency_key": "k" * 101}, "idempotency_key"),
    ({"kind": "skill_points", "idempotency_key": "k"}, "amount"),
    ({"kind": "assist", "character": "2", "idempotency_key": "k"}, "character"),
])
def test_bad_spends_are_400_and_change_nothing(world, api_as, body, field):
    before = snapshot()
    response = api_as("player").post(f"/api/v1/characters/{world.alice.pk}/karma/", body, format="json")
    assert response.status_code == 400
    assert field in response.json()["errors"], response.json()
    assert snapshot() == before


def test_garbage_bodies_are_400(world, api_as):
    before = snapshot()
    for url in (f"/api/v1/characters/{world.alice.pk}/karma/", f"/api/v1/campaigns/{world.campaign.pk}/awards/",
                f"/api/v1/adventures/{world.adventure.pk}/close/",
                f"/api/v1/macguffins/{world.macguffin.pk}/contributions/"):
        response = api_as("gm").post(url, "not json{", content_type="application/json")
        assert response.status_code == 400 and "errors" in response.json(), url
        assert api_as("gm").post(url, [1, 2], format="json").status_code == 400, url
    assert snapshot() == before


def test_the_gm_spends_on_any_character(world, api_as):
    response = spend(api_as("gm"), world.bob, kind="reroll", idempotency_key="gm-reroll")
    assert response.status_code == 201 and response.json()["entry"]["by"] == "gm"
    assert balance(world.bob) == 9


def test_a_foreign_character_is_404_to_outsiders_of_its_campaign(world, api_as, make_character, elsewhere):
    foreign = make_character(elsewhere.memberships.get(role="player").user, campaign=elsewhere, name="Foreigner")
    before = snapshot()
    for persona in ("gm", "player", "viewer"):
        assert spend(api_as(persona), foreign, kind="reroll", idempotency_key="x").status_code == 404
        assert api_as(persona).get(f"/api/v1/characters/{foreign.pk}/karma/").status_code == 404
    assert snapshot() == before


# --- Awards -------------------------------------------------------------------------------
def award(api, campaign, **body):
    return api.post(f"/api/v1/campaigns/{campaign.pk}/awards/", body, format="json")


def test_complication_and_npc_boost_awards_pay_each_character(world, api_as):
    gm = api_as("gm")
    response = award(gm, world.campaign, kind="complication", characters=[world.alice.pk, world.bob.pk],
                     reason="The gate opened under the cathedral")
    assert response.status_code == 201
    assert [(e["kind"], e["amount"], e["balance_after"]) for e in response.json()["entries"]] == [
        ("complication", 2, 12), ("complication", 2, 12)]
    response = award(gm, world.campaign, kind="npc_boost", characters=[world.bob.pk], reason="Boosted the ferryman")
    assert response.status_code == 201 and response.json()["entries"][0]["amount"] == 1
    assert (balance(world.alice), balance(world.bob)) == (12, 13)
    before = snapshot()
    wrong = award(gm, world.campaign, kind="complication", characters=[world.alice.pk], amount=5, reason="x")
    assert wrong.status_code == 400 and "amount" in wrong.json()["errors"]
    assert award(gm, world.campaign, kind="bribe", characters=[world.alice.pk], reason="x").status_code == 400
    assert award(gm, world.campaign, kind="npc_boost", characters=[], reason="x").status_code == 400
    assert award(gm, world.campaign, kind="npc_boost", characters=[world.alice.pk], reason="").status_code == 400
    assert award(gm, world.campaign, kind="npc_boost", characters=[str(world.alice.pk)], reason="x").status_code == 400
    assert snapshot() == before


def test_a_correction_below_zero_posts_nothing_for_anyone(personas, api_as, make_character):
    rich = make_character("player", name="Rich", karma=10)
    poor = make_character("other_player", name="Poor", karma=1)
    before = snapshot()
    response = award(api_as("gm"), personas["campaign"], kind="manual", characters=[rich.pk, poor.pk], amount=-3,
                     reason="Double-counted payout")
    assert response.status_code == 409
    assert "Poor has 1 Karma" in response.json()["errors"]["amount"][0]
    assert snapshot() == before
    fine = award(api_as("gm"), personas["campaign"], kind="manual", characters=[rich.pk], amount=-3, reason="Fix")
    assert fine.status_code == 201 and balance(rich) == 7


def test_awards_refuse_foreign_and_unapproved_characters(world, api_as, make_character, elsewhere):
    foreign = make_character(elsewhere.memberships.get(role="player").user, campaign=elsewhere, name="Foreigner")
    draft = make_character("player", name="Draft", approve=False)
    before = snapshot()
    response = award(api_as("gm"), world.campaign, kind="npc_boost", characters=[world.alice.pk, foreign.pk],
                     reason="x")
    assert response.status_code == 400 and "characters" in response.json()["errors"]
    response = award(api_as("gm"), world.campaign, kind="npc_boost", characters=[world.alice.pk, draft.pk], reason="x")
    assert response.status_code == 409
    # The other campaign's GM cannot reach this campaign at all.
    client = api_as(None)
    client.force_authenticate(elsewhere.memberships.get(role="gm").user)
    assert award(client, world.campaign, kind="npc_boost", characters=[world.alice.pk], reason="x").status_code == 404
    assert snapshot() == before


def test_an_award_replayed_with_its_key_pays_once(world, api_as):
    body = {"kind": "npc_boost", "characters": [world.alice.pk, world.bob.pk], "reason": "x",
            "idempotency_key": "boost-1"}
    first = award(api_as("gm"), world.campaign, **body)
    again = award(api_as("gm"), world.campaign, **body)
    assert first.status_code == 201
    assert [e["id"] for e in again.json()["entries"]] == [e["id"] for e in first.json()["entries"]]
    assert (balance(world.alice), balance(world.bob)) == (11, 11)


# --- Adventures ---------------------------------------------------------------------------
def test_start_list_and_show_adventures(world, api_as):
    gm = api_as("gm")
    busy = gm.post(f"/api/v1/campaigns/{world.campaign.pk}/adventures/", {"name": "Two at once", "base_xp": 1},
                   format="json")
    assert busy.status_code == 409
    for body, field in (({"name": "", "base_xp": 1}, "name"), ({"name": "X", "base_xp": -1}, "base_xp"),
                        ({"name": "X", "base_xp": 101}, "base_xp"), ({"name": "X", "base_xp": "2"}, "base_xp"),
                        ({"name": "X"}, "base_xp")):
        response = gm.post(f"/api/v1/campaigns/{world.campaign.pk}/adventures/", body, format="json")
        assert response.status_code == 400 and field in response.json()["errors"], body
    listed = api_as("viewer").get(f"/api/v1/campaigns/{world.campaign.pk}/adventures/").json()
    assert [a["name"] for a in listed] == ["Lisbon, 1755"]
    shown = api_as("player").get(f"/api/v1/adventures/{world.adventure.pk}/").json()
    assert shown["is_open"] and shown["base_xp"] == 3
    assert [(t["note"], t["voided"]) for t in shown["tokens"]] == [("The quake is three days early", False)]


def test_tokens_are_added_and_voided_only_while_open(world, api_as):
    gm = api_as("gm")
    token = gm.post(f"/api/v1/adventures/{world.adventure.pk}/tokens/", {"note": "Soldiers at the gate"},
                    format="json")
    assert token.status_code == 201 and token.json()["voided"] is False
    void = gm.post(f"/api/v1/adventures/{world.adventure.pk}/tokens/{token.json()['id']}/void/")
    assert void.status_code == 200 and void.json()["voided"] is True
    _close(world)
    before = snapshot()
    late = gm.post(f"/api/v1/adventures/{world.adventure.pk}/tokens/", {"note": "late"}, format="json")
    assert late.status_code == 409
    assert gm.post(f"/api/v1/adventures/{world.adventure.pk}/tokens/{world.token.pk}/void/").status_code == 409
    assert snapshot() == before


def test_xp_balance_example_through_the_close_out(world, api_as):
    """Article, "XP Balance": base 3, four bad-news tokens, a permanent solution the PCs put in
    place → ((3 + 4) × 2) × 2 = 28 Karma each. A voided token does not count."""
    gm = api_as("gm")
    for note in ("Soldiers", "Fire", "Flood"):  # the world's adventure already has one token
        gm.post(f"/api/v1/adventures/{world.adventure.pk}/tokens/", {"note": note}, format="json")
    voided = gm.post(f"/api/v1/adventures/{world.adventure.pk}/tokens/", {"note": "Nullified"}, format="json").json()
    gm.post(f"/api/v1/adventures/{world.adventure.pk}/tokens/{voided['id']}/void/")
    url = f"/api/v1/adventures/{world.adventure.pk}/close/"
    body = {"outcome": "solution", "permanent": True, "selfish": []}

    before = snapshot()
    preview = gm.post(url, {**body, "preview": True}, format="json")
    assert preview.status_code == 200 and preview.json()["preview"] is True
    payouts = [(p["character"], p["karma"]) for p in preview.json()["payouts"]]
    assert payouts == [(world.alice.pk, 28), (world.bob.pk, 28)]
    assert dict(map(tuple, preview.json()["payouts"][0]["breakdown"]))["base XP"] == 3
    assert snapshot() == before  # a preview posts nothing

    closed = gm.post(url, body, format="json")
    assert closed.status_code == 200 and closed.json()["preview"] is False
    assert closed.json()["payouts"] == preview.json()["payouts"]
    assert (balance(world.alice), balance(world.bob)) == (38, 38)
    posted = KarmaEntry.objects.filter(kind="payout", adventure=world.adventure)
    assert sorted(posted.values_list("character_id", "amount")) == [(world.alice.pk, 28), (world.bob.pk, 28)]

    before = snapshot()
    again = gm.post(url, body, format="json")
    assert again.status_code == 409
    assert gm.post(url, {**body, "preview": True}, format="json").status_code == 409
    assert snapshot() == before


def test_selfish_characters_lose_one(world, api_as):
    response = api_as("gm").post(f"/api/v1/adventures/{world.adventure.pk}/close/",
                                 {"outcome": "advice", "selfish": [world.bob.pk]}, format="json")
    # (3 + 1 token) × 1.5 = 6; Bob −1.
    payouts = [(p["character"], p["karma"]) for p in response.json()["payouts"]]
    assert payouts == [(world.alice.pk, 6), (world.bob.pk, 5)]
    assert (balance(world.alice), balance(world.bob)) == (16, 15)


@pytest.mark.parametrize("body, field", [
    ({"outcome": "triumph"}, "outcome"),
    ({}, "outcome"),
    ({"outcome": "none", "permanent": True}, "outcome"),
    ({"outcome": "none", "selfish": [987654]}, "selfish"),
    ({"outcome": "none", "selfish": ["1"]}, "selfish"),
    ({"outcome": "none", "selfish": 3}, "selfish"),
])
def test_bad_close_outs_are_400_and_change_nothing(world, api_as, body, field):
    before = snapshot()
    response = api_as("gm").post(f"/api/v1/adventures/{world.adventure.pk}/close/", body, format="json")
    assert response.status_code == 400 and field in response.json()["errors"], response.json()
    assert snapshot() == before


# --- Campaign MacGuffins ------------------------------------------------------------------
def contribute(api, macguffin, character, amount, key):
    return api.post(f"/api/v1/macguffins/{macguffin.pk}/contributions/",
                    {"character": character.pk, "amount": amount, "idempotency_key": key}, format="json")


def test_macguffin_pools_fill_and_take_effect_from_the_next_adventure(world, api_as):
    gm, player, other = api_as("gm"), api_as("player"), api_as("other_player")
    shown = api_as("viewer").get(f"/api/v1/macguffins/{world.macguffin.pk}/").json()
    assert shown == {"id": world.macguffin.pk, "name": "Crystal radio set", "limitation": "No word home",
                     "progress": 0, "target": 10, "status": "funding", "percent": 0, "upgrade": ""}

    first = contribute(player, world.macguffin, world.alice, 3, "radio-a")
    assert first.status_code == 201
    assert (first.json()["progress"], first.json()["balance"]) == (3, 7)
    contribute(other, world.macguffin, world.bob, 5, "radio-b")
    replay = contribute(player, world.macguffin, world.alice, 3, "radio-a")
    assert replay.status_code == 200 and replay.json() == first.json()  # the same answer, nothing more spent
    assert balance(world.alice) == 7

    before = snapshot()
    too_much = contribute(player, world.macguffin, world.alice, 3, "radio-a2")
    assert too_much.status_code == 409 and "needs only 2 more" in too_much.json()["errors"]["amount"][0]
    assert snapshot() == before

    done = contribute(gm, world.macguffin, world.alice, 2, "radio-gm")
    assert done.status_code == 201 and done.json()["progress"] == 10
    shown = api_as("player").get(f"/api/v1/macguffins/{world.macguffin.pk}/").json()
    assert (shown["status"], shown["percent"]) == ("funded", 100)
    before = snapshot()
    assert contribute(other, world.macguffin, world.bob, 1, "radio-late").status_code == 409
    assert snapshot() == before

    _close(world)
    gm.post(f"/api/v1/campaigns/{world.campaign.pk}/adventures/", {"name": "Next", "base_xp": 1}, format="json")
    assert api_as("player").get(f"/api/v1/macguffins/{world.macguffin.pk}/").json()["status"] == "in_effect"
    listed = api_as("viewer").get(f"/api/v1/campaigns/{world.campaign.pk}/macguffins/").json()
    assert [(m["name"], m["progress"]) for m in listed] == [("Crystal radio set", 10)]


def test_contributions_only_from_own_characters_of_the_campaign(world, api_as, make_character, elsewhere):
    foreign = make_character(elsewhere.memberships.get(role="player").user, campaign=elsewhere, name="Foreigner")
    draft = make_character("player", name="Draft", approve=False)
    before = snapshot()
    assert contribute(api_as("other_player"), world.macguffin, world.alice, 1, "k").status_code == 403
    assert contribute(api_as("viewer"), world.macguffin, world.alice, 1, "k").status_code == 403
    for character in (foreign, SimpleNamespace(pk=987654)):
        response = contribute(api_as("gm"), world.macguffin, character, 1, "k")
        assert response.status_code == 400 and "character" in response.json()["errors"]
    assert contribute(api_as("player"), world.macguffin, draft, 1, "k").status_code == 409
    assert snapshot() == before


def test_macguffin_creation_checks_its_input(world, api_as):
    gm = api_as("gm")
    url = f"/api/v1/campaigns/{world.campaign.pk}/macguffins/"
    made = gm.post(url, {"name": "Lattice", "target": 20, "upgrade": "enlarged_meitner_field"}, format="json")
    assert made.status_code == 201 and made.json()["limitation"] == ""
    before = snapshot()
    twice = gm.post(url, {"name": "Lattice II", "target": 4, "upgrade": "enlarged_meitner_field"}, format="json")
    assert twice.status_code == 409
    for body, field in (({"name": "", "target": 4}, "name"), ({"name": "X", "target": 0}, "target"),
                        ({"name": "X", "target": "4"}, "target"), ({"name": "X"}, "target"),
                        ({"name": "X", "target": 4, "upgrade": "time_machine"}, "upgrade")):
        response = gm.post(url, body, format="json")
        assert response.status_code == 400 and field in response.json()["errors"], body
    assert snapshot() == before


# --- Karmic Debt, Karmic Starvation and Complications -------------------------------------
#: Skills spending exactly 2 × INT 15 + 3 (Phobia, value 2, ranks 2) = 33 skill points.
TIGHT_SKILLS = [{"name": n, "breadth": "broad", "ranks": 3, "stat": "PRAC"}
                for n in ("Medicine", "Engineering", "History", "Survival", "Languages")] + [
    {"name": "Latin", "breadth": "narrow", "ranks": 1, "stat": "LAN"},
    {"name": "Lockpicking", "breadth": "specific", "ranks": 1, "stat": "DEX"}]


def flags(api, character):
    response = api.get(f"/api/v1/characters/{character.pk}/karma-flags/")
    assert response.status_code == 200
    return response.json()["flags"]


def test_karmic_starvation_is_flagged_and_a_complication_clears_it(personas, api_as, make_character):
    hero = make_character("player", skills=TIGHT_SKILLS, disadvantages=[{"name": "Phobia", "value": 2, "ranks": 2}])
    player, gm = api_as("player"), api_as("gm")
    assert flags(player, hero) == []
    phobia = hero.disadvantages.get()
    spend(player, hero, kind="disadvantage_removal", disadvantage=phobia.pk, idempotency_key="brave")
    starving = flags(api_as("viewer"), hero)
    assert len(starving) == 1 and starving[0].startswith("Karmic Starvation: 1 skill points overspent")

    before = snapshot()
    assert player.post(f"/api/v1/characters/{hero.pk}/complications/",
                       {"cause": "starvation", "form": "blown_roll", "ranks": 1, "description": "x"},
                       format="json").status_code == 403
    assert gm.post(f"/api/v1/characters/{hero.pk}/complications/",
                   {"cause": "hunger", "form": "blown_roll", "ranks": 1, "description": "x"},
                   format="json").status_code == 400
    assert gm.post(f"/api/v1/characters/{hero.pk}/complications/",
                   {"cause": "starvation", "form": "stat_loss", "ranks": 1, "description": "x"},
                   format="json").status_code == 400  # which stat?
    assert snapshot() == before
    response = gm.post(f"/api/v1/characters/{hero.pk}/complications/",
                       {"cause": "starvation", "form": "stat_loss", "stat": "STR", "ranks": 1,
                        "description": "Frostbite in the Alps"}, format="json")
    assert response.status_code == 201
    assert response.json()["effects"] == {"stat_loss": {"stat": "STR", "points": 1}, "skill_points_relieved": 2}
    assert response.json()["by"] == "gm"
    assert flags(player, hero) == []
    hero.refresh_from_db()
    assert hero.str == 11 and hero.stat_setbacks == {"STR": 1}
    assert [c["description"] for c in player.get(f"/api/v1/characters/{hero.pk}/complications/").json()] == [
        "Frostbite in the Alps"]


def test_karmic_debt_is_flagged_and_a_complication_clears_it(personas, api_as, make_character):
    hero = make_character("player", karma=2, disadvantages=[{"name": "Greed", "value": 4, "ranks": 1},
                                                            {"name": "Vertigo", "value": 1, "ranks": 1}])
    player, gm = api_as("player"), api_as("gm")
    assert flags(player, hero) == []
    spend(player, hero, kind="reroll", idempotency_key="r1")  # 1 Karma left: only one disadvantage earns
    debt = flags(player, hero)
    assert any(f.startswith("Karmic Debt: Vertigo earns nothing with 1 Karma") for f in debt), debt
    vertigo = hero.disadvantages.get(name="Vertigo")
    response = gm.post(f"/api/v1/characters/{hero.pk}/complications/",
                       {"cause": "debt", "form": "blown_roll", "ranks": 1, "nullify": vertigo.pk,
                        "description": "Dizzy on the bell tower: the escape fails"}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["effects"]["nullified"] == {"name": "Vertigo", "ranks": 1}
    assert not any(f.startswith("Karmic Debt") for f in flags(player, hero))


def test_a_lone_surrogate_in_a_choice_is_a_400_not_a_500(world, api_as):
    """JSON may spell a lone surrogate ("\\ud800"); the "not a valid choice" message quoting it crashed."""
    before = snapshot()
    for url, text, field in [
        (f"/api/v1/characters/{world.alice.pk}/karma/", '{"kind": "\\ud800", "idempotency_key": "k"}', "kind"),
        (f"/api/v1/characters/{world.alice.pk}/karma/", '{"kind": "stat_raise", "idempotency_key": "k", '
                                                        '"stat": "\\ud800"}', "stat"),
        (f"/api/v1/adventures/{world.adventure.pk}/close/", '{"outcome": "\\ud800"}', "outcome"),
        (f"/api/v1/campaigns/{world.campaign.pk}/awards/", '{"kind": "npc_boost", "characters": [1], '
                                                           '"reason": "x", "\\ud800": 1}', "detail"),
    ]:
        response = api_as("gm").post(url, text, content_type="application/json")
        assert response.status_code == 400, (url, response.content)
        assert response.json()["errors"] == {field: ["Surrogate characters are not allowed: U+D800."]}, url
    assert snapshot() == before


def test_the_longest_keys_fit_in_their_namespace(world, api_as):
    """A 100-character key (the documented limit) spends, contributes and replays; never a 500."""
    key = "k" * 100
    first = spend(api_as("player"), world.alice, kind="reroll", idempotency_key=key)
    assert first.status_code == 201
    assert spend(api_as("player"), world.alice, kind="reroll", idempotency_key=key).status_code == 200
    given = contribute(api_as("player"), world.macguffin, world.alice, 1, "m" * 100)
    assert given.status_code == 201
    assert contribute(api_as("player"), world.macguffin, world.alice, 1, "m" * 100).status_code == 200


def test_a_setback_is_paid_off_with_earned_karma_by_the_gm(personas, api_as, make_character):
    """"Karma": setbacks are disadvantages worth negative Karma, paid off when the GM deems it
    right with earned Karma (*Reading:* 1 Karma a point, as a disadvantage rank)."""
    hero = make_character("player", skills=TIGHT_SKILLS, disadvantages=[{"name": "Phobia", "value": 2, "ranks": 2}])
    player, gm = api_as("player"), api_as("gm")
    spend(player, hero, kind="disadvantage_removal", disadvantage=hero.disadvantages.get().pk, idempotency_key="b")
    gm.post(f"/api/v1/characters/{hero.pk}/complications/",
            {"cause": "starvation", "form": "stat_loss", "stat": "STR", "ranks": 1, "description": "Frostbite"},
            format="json")
    hero.refresh_from_db()
    karma, strength = hero.karma, hero.str
    refused = spend(player, hero, kind="setback_payoff", stat="STR", idempotency_key="mine")
    assert refused.status_code == 400 and "GM" in refused.json()["errors"]["kind"][0]
    assert spend(gm, hero, kind="setback_payoff", stat="CON", idempotency_key="wrong").status_code == 400
    paid = spend(gm, hero, kind="setback_payoff", stat="STR", idempotency_key="thaw")
    assert paid.status_code == 201, paid.json()
    hero.refresh_from_db()
    assert (hero.karma, hero.str, hero.stat_setbacks) == (karma - 1, strength + 1, {})
    assert spend(gm, hero, kind="setback_payoff", stat="STR", idempotency_key="again").status_code == 400


def test_delaying_a_transition_is_offered_only_once_possible(personas, client, make_character):
    from django.urls import reverse

    hero = make_character("player")
    client.force_login(personas["player"])
    page = client.get(reverse("character-karma", args=[hero.pk])).content.decode()
    assert 'value="delay_transition"' not in page
    for upgrade in ("enlarged_meitner_field", "limited_comms", "transition_threshold_detection"):
        pool = economy.macguffin_create(campaign=hero.campaign, name=upgrade, limitation="", target=1,
                                        upgrade=upgrade, by=personas["gm"])
        economy.macguffin_contribute(macguffin=pool, character=hero, amount=1, idempotency_key=f"f-{upgrade}",
                                     by=personas["player"])
    economy.adventure_start(campaign=hero.campaign, name="Next", base_xp=1, by=personas["gm"])
    page = client.get(reverse("character-karma", args=[hero.pk])).content.decode()
    assert 'value="delay_transition"' in page and "time-chart" in page and "×10" in page
