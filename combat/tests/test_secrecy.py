"""What the GM hides in a fight stays hidden: an unrevealed NPC is never named, counted, ordered or
targetable for players and viewers (DESIGN.md, "Conventions that cross apps": audience at the source).

Each test reproduces a leak over HTTP, as a curious player would, and says which one in its
docstring; each also checks that the GM still sees what is hidden, so that none of them can pass
by hiding everything. Leak 3 (the dashboard's "Recent events") is in
campaign/tests/test_recent_events_secrecy.py, leak 5 (a sheet's history) in
characters/tests/test_history_secrecy.py.

Leaks covered here:
  1. the combat log (initiative, turns, holds, undo, the end of combat) names an unrevealed NPC,
     and the initiative event's data orders it and holds its dice;
  2. a player previews and makes an attack on an unrevealed NPC by its id through the API, and
     the approval request naming it is public;
  4. a dying check of an unrevealed NPC lands in the public roll feed and on the live stream.
"""

from __future__ import annotations

import html
import json
import re

import pytest
from django.db.models import F
from django.test import Client
from django.urls import reverse

from characters import items
from combat.models import Combatant, CombatEvent
from economy.tests.conftest import campaign_gm
from rolls.models import Roll

pytestmark = pytest.mark.django_db

NINJA = "Hidden Ninja"
#: An NPC with no stats given: 14 everywhere (AWA rank 0 and MEL rank +2 against the PCs' AWA 16, MEL 10).
NINJA_NPC = {"name": NINJA, "weapons": [{"name": "Katana", "damage_points": 4, "melee": True, "ranks": 1}]}
#: Initiative d6 per combatant: the NPC 6 + 0 + 2 = 8, alice 1 + 1 = 2, bob 1 + 1 = 2: the NPC acts first.
NINJA_FIRST = ("ninja", 6), ("alice", 1), ("bob", 1)
#: Alice 6 + 1 = 7, the NPC 1 + 2 = 3, bob 1 + 1 = 2: alice acts first, the NPC second.
ALICE_FIRST = ("alice", 6), ("ninja", 1), ("bob", 1)
#: Alice 3 + 1 = 4 and the NPC 2 + 2 = 4 tie (micro-time, alice first by her lower RES), bob 1 + 1 = 2:
#: the summary names alice, but the NPC is in the order, the dice and the micro-time group.
TIED = ("alice", 3), ("ninja", 2), ("bob", 1)
WATCHERS = ("player", "other_player", "viewer")
#: Keys of an event's data that name one combatant by id.
ID_KEYS = ("combatant", "acting", "attacker", "target")


# --- Set-up --------------------------------------------------------------------------------
def _arm(character, weapon: str) -> None:
    items.item_create(character=character, kind_name="weapons", by=campaign_gm(character.campaign), is_gm=True,
                      data={"name": weapon, "damage_points": 3, "melee": True})


@pytest.fixture
def fight(personas, api_as, make_character):
    """Alice (player's, with a baton) and Bob (other_player's, unarmed) against an unrevealed NPC, set up by
    the GM through the API; initiative is not rolled yet (``roll``)."""
    alice = make_character("player", name="Alice")
    bob = make_character("other_player", name="Bob")
    _arm(alice, "Baton")
    gm = api_as("gm")
    e = gm.post(f"/api/v1/campaigns/{personas['campaign'].pk}/encounters/", {"name": "Night market"},
                format="json").json()["id"]
    ids = {}
    for key, body in (("alice", {"character": alice.pk}), ("bob", {"character": bob.pk}), ("ninja", NINJA_NPC)):
        response = gm.post(f"/api/v1/encounters/{e}/combatants/", body, format="json")
        assert response.status_code == 201, response.content
        ids[key] = response.json()["id"]
    assert Combatant.objects.get(pk=ids["ninja"]).revealed is False

    def roll(dice) -> dict:
        response = gm.post(f"/api/v1/encounters/{e}/initiative/",
                           {"dice": {str(ids.get(who, who)): [face] for who, face in dice}}, format="json")
        assert response.status_code == 200, response.content
        return response.json()

    def act(path: str, body: dict | None = None) -> dict:
        response = gm.post(f"/api/v1/encounters/{e}/{path}", body or {}, format="json")
        assert response.status_code in (200, 201), response.content
        return response.json()

    return {"gm": gm, "e": e, "roll": roll, "act": act, **ids, "alice_pc": alice, "bob_pc": bob,
            "campaign": personas["campaign"]}


def _page_client(personas, name: str) -> Client:
    client = Client()
    client.force_login(personas[name])
    return client


def _text(response) -> str:
    """A page as a reader sees it: entities decoded."""
    assert response.status_code == 200, response.status_code
    return html.unescape(response.content.decode())


def _log(api, e) -> list[dict]:
    response = api.get(f"/api/v1/encounters/{e}/log/")
    assert response.status_code == 200, response.content
    return response.json()["events"]


def _traces(events: list[dict], *, name: str, hidden_id: int) -> list[str]:
    """Every place in ``events`` (log entries as served) that names, orders or counts the hidden combatant."""
    found = []

    def walk(value, where: str) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if str(key) == str(hidden_id):
                    found.append(f"{where}: a key for combatant {hidden_id} ({key!r})")
                if key in ID_KEYS and item == hidden_id:
                    found.append(f"{where}.{key} == {hidden_id}")
                walk(item, f"{where}.{key}")
        elif isinstance(value, list):
            for index, item in enumerate(value):
                walk(item, f"{where}[{index}]")
        elif isinstance(value, str) and name in value:
            found.append(f"{where} names it: {value!r}")

    for event in events:
        if name in event["summary"]:
            found.append(f"event {event['id']} ({event['kind']}) summary: {event['summary']!r}")
        data = event.get("data") or {}
        walk(data, f"event {event['id']} ({event['kind']}).data")
        for group in data.get("micro_time") or []:
            if hidden_id in group:
                found.append(f"event {event['id']} ({event['kind']}).data.micro_time holds {hidden_id}: {group}")
    return found


def _assert_hidden_everywhere(api_as, personas, f, *, name: str = NINJA, hidden_id: int | None = None) -> None:
    """As each watcher: the tracker, the log API, the tracker page and its live fragments show no trace."""
    hidden_id = hidden_id or f["ninja"]
    e = f["e"]
    for persona in WATCHERS:
        tracker = api_as(persona).get(f"/api/v1/encounters/{e}/").json()
        assert hidden_id not in [c["id"] for c in tracker["combatants"]], persona
        assert name not in json.dumps(tracker), persona
        assert tracker["acting"] != hidden_id, persona
        traces = _traces(_log(api_as(persona), e), name=name, hidden_id=hidden_id)
        assert traces == [], f"{persona} sees the unrevealed NPC in the combat log API:\n" + "\n".join(traces)
        pages = _page_client(personas, persona)
        for url in (reverse("encounter", args=[e]), reverse("encounter-live", args=[e]),
                    reverse("encounter-live", args=[e]) + "?part=log"):
            page = _text(pages.get(url))
            assert name not in page, f"{persona} reads {name!r} on {url}"
            assert f'data-combatant="{hidden_id}"' not in page, f"{persona} finds the NPC's id on {url}"


def _assert_gm_sees(api_as, f, *, kinds: set[str], name: str = NINJA) -> None:
    """Control: the GM's log still names the NPC in events of each kind given."""
    gm_log = _log(api_as("gm"), f["e"])
    named = {event["kind"] for event in gm_log if name in event["summary"]}
    assert kinds <= named, f"the GM should read {name!r} in {kinds}, reads it in {named}"


# --- Leak 1: the combat log ------------------------------------------------------------------
def test_initiative_never_names_or_orders_an_unrevealed_npc_for_players(api_as, personas, fight):
    """Leak 1: "Round 1: initiative rolled; Hidden Ninja acts first" with its initiative breakdown
    (combat/services.py initiative_roll) is served to players and viewers by the log API and the
    tracker page's log; the initiative event's data orders the NPC and holds its die."""
    fight["roll"](NINJA_FIRST)
    gm_log = _log(api_as("gm"), fight["e"])
    initiative = next(event for event in gm_log if event["kind"] == "initiative")
    assert NINJA in initiative["summary"]  # control: the GM reads who acts first
    assert fight["ninja"] in [entry["combatant"] for entry in initiative["data"]["order"]]
    assert str(fight["ninja"]) in initiative["data"]["dice"]

    _assert_hidden_everywhere(api_as, personas, fight)
    for persona in WATCHERS:  # the PCs are still ordered for everyone
        shown = next(e for e in _log(api_as(persona), fight["e"]) if e["kind"] == "initiative")
        assert [o["combatant"] for o in shown["data"]["order"]] == [fight["alice"], fight["bob"]], persona


def test_an_initiative_tie_with_an_unrevealed_npc_does_not_show_it_in_the_data(api_as, personas, fight):
    """Leak 1: even when the summary names a PC first, the initiative event's data (its order with
    each breakdown, the micro-time groups and the dice per combatant id) lists the unrevealed NPC."""
    state = fight["roll"](TIED)
    assert state["acting"] == fight["alice"]
    gm_event = next(e for e in _log(api_as("gm"), fight["e"]) if e["kind"] == "initiative")
    assert NINJA not in gm_event["summary"]
    assert [g for g in gm_event["data"]["micro_time"] if fight["ninja"] in g]  # control: the GM sees the tie

    for persona in WATCHERS:
        shown = next(e for e in _log(api_as(persona), fight["e"]) if e["kind"] == "initiative")
        traces = _traces([shown], name=NINJA, hidden_id=fight["ninja"])
        assert traces == [], f"{persona}:\n" + "\n".join(traces)
        assert len(shown["data"]["order"]) == 2, f"{persona} counts {len(shown['data']['order'])} combatants"


def test_turns_never_name_an_unrevealed_npc_for_players(api_as, personas, fight):
    """Leak 1: turn_next (combat/services.py) writes "Hidden Ninja acts", "Hidden Ninja is out cold
    and misses the action", "... gets 2 shock back" into a public event, with ``acting`` = its id."""
    fight["roll"](ALICE_FIRST)
    Combatant.objects.filter(pk=fight["ninja"]).update(out_cold_until=10, shock=6)  # knocked out earlier, till round 2
    fight["act"]("next-turn/")  # the NPC is out cold: 2 shock back, comes round; bob acts
    fight["act"]("next-turn/")  # round 2: alice acts
    state = fight["act"]("next-turn/")  # the NPC acts
    assert state["acting"] == fight["ninja"]  # the GM's tracker
    gm_turns = [e for e in _log(api_as("gm"), fight["e"]) if e["kind"] == "turn"]
    assert any(e["data"]["acting"] == fight["ninja"] for e in gm_turns)  # control
    _assert_gm_sees(api_as, fight, kinds={"turn"})

    _assert_hidden_everywhere(api_as, personas, fight)
    for persona in WATCHERS:
        assert api_as(persona).get(f"/api/v1/encounters/{fight['e']}/").json()["acting"] is None, persona


def test_holding_acting_now_undo_and_the_end_never_name_an_unrevealed_npc(api_as, personas, fight):
    """Leak 1: hold ("Hidden Ninja holds its action"), act_now ("Hidden Ninja comes back and acts
    now"), undo ("Undone: ..." copies the summary it takes back, with that event's audience) and the
    end of combat ("shock back at the end of combat: Hidden Ninja 2") are public events."""
    fight["roll"](NINJA_FIRST)
    Combatant.objects.filter(pk=fight["ninja"]).update(shock=6)
    fight["act"]("hold/")  # the NPC holds; alice acts
    fight["act"]("act-now/", {"combatant": fight["ninja"]})
    fight["act"]("undo/")
    fight["act"]("end/")
    _assert_gm_sees(api_as, fight, kinds={"turn", "act_now", "undo", "end"})

    _assert_hidden_everywhere(api_as, personas, fight)


def test_players_see_the_npc_from_its_reveal_on(api_as, personas, fight):
    """Leak 1 (and the guard against over-hiding): hidden until combatant_update(revealed=True), then
    named in the events that follow and listed in the tracker, for players and viewers alike."""
    fight["roll"](ALICE_FIRST)
    fight["act"]("next-turn/")  # the NPC acts, unrevealed
    _assert_hidden_everywhere(api_as, personas, fight)

    last = _log(api_as("gm"), fight["e"])[-1]["id"]
    response = fight["gm"].patch(f"/api/v1/encounters/{fight['e']}/combatants/{fight['ninja']}/",
                                 {"revealed": True}, format="json")
    assert response.status_code == 200, response.content
    fight["act"]("next-turn/")  # bob acts
    fight["act"]("next-turn/")  # round 2: alice acts
    fight["act"]("next-turn/")  # the NPC acts, revealed
    for persona in WATCHERS:
        tracker = api_as(persona).get(f"/api/v1/encounters/{fight['e']}/").json()
        assert fight["ninja"] in [c["id"] for c in tracker["combatants"]], persona
        assert tracker["acting"] == fight["ninja"], persona
        later = api_as(persona).get(f"/api/v1/encounters/{fight['e']}/log/?after={last}").json()["events"]
        assert any(e["kind"] == "turn" and e["data"].get("acting") == fight["ninja"] and NINJA in e["summary"]
                   for e in later), (persona, later)
        assert NINJA in _text(_page_client(personas, persona).get(reverse("encounter", args=[fight["e"]])))


# --- Leak 2: targeting an unrevealed NPC ------------------------------------------------------
#: An id no combatant has.
UNKNOWN = 987654


def _same_answer(hidden, unknown, *, hidden_id: int) -> tuple:
    """A response as a client can compare it: the status, and the body with the id asked for masked."""
    def masked(response, pk):
        body = response.content.decode()
        return response.status_code, re.sub(rf"\b{pk}\b", "<id>", body)
    return masked(hidden, hidden_id), masked(unknown, UNKNOWN)


def _snapshot() -> tuple:
    return (list(Combatant.objects.order_by("pk").values()), CombatEvent.objects.count(), Roll.objects.count())


@pytest.mark.parametrize("persona, attacker, armed", [("player", "alice", True), ("other_player", "bob", True),
                                                       ("other_player", "bob", False)])
def test_a_player_cannot_preview_or_attack_an_unrevealed_npc_by_its_id(api_as, personas, fight, persona, attacker,
                                                                       armed):
    """Leak 2: the page offers only visible targets, but the attacks API previews (200, with the
    NPC's Defense) and makes (201) an attack on an unrevealed NPC named by its id. It must answer
    exactly as for a made-up id: the same status and the same message, and change nothing. Alice
    acts now; Bob does not (his attack fails on the turn, 409, after the target passed); unarmed,
    Bob's preview fails on the weapon (400 "Bob has no weapon.") only after the target passed: each
    a different answer from a made-up id's, so each tells the NPC is there."""
    if armed:
        _arm(fight["bob_pc"], "Cleaver")
    fight["roll"](ALICE_FIRST)  # alice acts, so only the target can stop her
    client, e = api_as(persona), fight["e"]
    url = f"/api/v1/encounters/{e}/attacks/"
    base = {"attacker": fight[attacker], "stat": "MEL", "dice": {"attack": [6, 6, 6]}}

    # The pages already answer alike (the form's targets are the tracker's): kept that way.
    pages = _page_client(personas, persona)
    preview_page = reverse("encounter-preview", args=[e])
    form = {"attacker": fight[attacker], "stat": "MEL", "aimed_area": "whole_body"}
    hidden_page = pages.get(preview_page, {**form, "target": fight["ninja"]})
    unknown_page = pages.get(preview_page, {**form, "target": UNKNOWN})
    assert NINJA not in _text(hidden_page)
    a, b = _same_answer(hidden_page, unknown_page, hidden_id=fight["ninja"])
    assert a == b

    before = _snapshot()
    for extra in ({"preview": True}, {}):
        hidden = client.post(url, {**base, **extra, "target": fight["ninja"]}, format="json")
        unknown = client.post(url, {**base, **extra, "target": UNKNOWN}, format="json")
        assert unknown.status_code == 400 and "target" in unknown.json()["errors"], unknown.content
        assert NINJA not in hidden.content.decode(), hidden.content
        a, b = _same_answer(hidden, unknown, hidden_id=fight["ninja"])
        assert a == b, f"{'preview' if extra else 'attack'} on the unrevealed NPC: {a} ≠ unknown id: {b}"
    assert _snapshot() == before


def test_a_gm_still_previews_and_attacks_an_unrevealed_npc(api_as, fight):
    """Leak 2, control: the GM targets an unrevealed NPC (and players may target it once revealed)."""
    fight["roll"](ALICE_FIRST)
    url = f"/api/v1/encounters/{fight['e']}/attacks/"
    body = {"attacker": fight["alice"], "target": fight["ninja"], "stat": "MEL"}
    assert fight["gm"].post(url, {**body, "preview": True}, format="json").status_code == 200
    made = fight["gm"].post(url, {**body, "dice": {"attack": [6, 6, 6]}}, format="json")
    assert made.status_code == 201, made.content
    Combatant.objects.filter(pk=fight["ninja"]).update(revealed=True)
    assert api_as("player").post(url, {**body, "preview": True}, format="json").status_code == 200


def test_an_attack_request_on_an_unrevealed_npc_is_refused_like_an_unknown_one(api_as, personas, fight):
    """Leak 2: with encounter.require_approval on, combat/attacks.py attack_request records a public
    "Alice wants to attack Hidden Ninja" (202) that every member reads in the log. It must answer as
    for a made-up id and record nothing."""
    fight["roll"](ALICE_FIRST)
    e = fight["e"]
    assert fight["gm"].patch(f"/api/v1/encounters/{e}/", {"require_approval": True},
                             format="json").status_code == 200
    url = f"/api/v1/encounters/{e}/attacks/"
    base = {"attacker": fight["alice"], "stat": "MEL", "dice": {"attack": [6, 6, 6]}}
    # control: a request on a visible target still waits for the GM
    visible = api_as("player").post(url, {**base, "target": fight["bob"]}, format="json")
    assert visible.status_code == 202, visible.content

    before = _snapshot()
    hidden = api_as("player").post(url, {**base, "target": fight["ninja"]}, format="json")
    unknown = api_as("player").post(url, {**base, "target": UNKNOWN}, format="json")
    assert NINJA not in hidden.content.decode(), hidden.content
    a, b = _same_answer(hidden, unknown, hidden_id=fight["ninja"])
    assert a == b, f"a request on the unrevealed NPC: {a} ≠ unknown id: {b}"
    assert _snapshot() == before
    assert not [r for r in CombatEvent.objects.filter(kind="request")
                if r.data["request"]["target"] == fight["ninja"]]
    for persona in WATCHERS:  # no member reads a request naming it
        requests = [ev for ev in _log(api_as(persona), e) if ev["kind"] == "request"]
        assert _traces(requests, name=NINJA, hidden_id=fight["ninja"]) == [], persona
        page = _text(_page_client(personas, persona).get(reverse("encounter-live", args=[e]) + "?part=log"))
        assert f"wants to attack {NINJA}" not in page, persona


# --- Leak 4: a dying check in the roll feed ----------------------------------------------------
DIER = "Hidden Dier"


@pytest.fixture
def dying_npc(fight):
    """An unrevealed NPC at death's door in a running fight (its last hit is no part of this test)."""
    response = fight["gm"].post(f"/api/v1/encounters/{fight['e']}/combatants/",
                                {"name": DIER, "weapons": []}, format="json")
    assert response.status_code == 201, response.content
    dier = response.json()["id"]
    fight["roll"]((*ALICE_FIRST, (dier, 1)))  # the dier 1 + 2 = 3 acts after alice
    Combatant.objects.filter(pk=dier).update(trauma=F("hit_points"))  # HP left 0: dying
    return dier


def _rolls(api, campaign) -> list[dict]:
    response = api.get(f"/api/v1/campaigns/{campaign.pk}/rolls/")
    assert response.status_code == 200, response.content
    return response.json()["rolls"]


def _stream(api, campaign, after: int) -> list[dict]:
    response = api.get(f"/api/v1/campaigns/{campaign.pk}/events/?after={after}")
    assert response.status_code == 200, response.content
    return response.json()["events"]


def test_a_dying_check_of_an_unrevealed_npc_stays_out_of_the_public_roll_feed(api_as, personas, fight, dying_npc):
    """Leak 4: combat/attacks.py dying_check records its roll with record_roll(...) and no
    ``private``, so "Hidden Dier fails the CON check and dies" is in the rolls API, the roll feed
    and the roller page for players and viewers, and its "roll" event is on their live stream."""
    campaign = fight["campaign"]
    mark = _stream(api_as("gm"), campaign, 0)[-1]["id"]
    seen_before = {p: len(_rolls(api_as(p), campaign)) for p in WATCHERS}
    response = fight["gm"].post(f"/api/v1/encounters/{fight['e']}/dying/",
                                {"combatant": dying_npc, "dice": {"save": [6, 6, 6, 6]}}, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["summary"] == f"{DIER} fails the CON check and dies"

    # control: the GM sees the roll, in the API, the feed and on the stream
    gm_rolls = _rolls(api_as("gm"), campaign)
    assert any(DIER in r["label"] for r in gm_rolls)
    gm_pages = _page_client(personas, "gm")
    assert DIER in _text(gm_pages.get(reverse("campaign-rolls-feed", args=[campaign.pk])))
    assert any(e["kind"] == "roll" for e in _stream(api_as("gm"), campaign, mark))

    for persona in WATCHERS:
        rolls = _rolls(api_as(persona), campaign)
        assert not [r["label"] for r in rolls if DIER in r["label"]], f"{persona} reads it in the rolls API"
        assert len(rolls) == seen_before[persona], f"{persona} counts one roll more"
        pages = _page_client(personas, persona)
        for url in (reverse("campaign-rolls-feed", args=[campaign.pk]), reverse("campaign-roller", args=[campaign.pk])):
            assert DIER not in _text(pages.get(url)), f"{persona} reads {DIER!r} on {url}"
        stream = _stream(api_as(persona), campaign, mark)
        assert [e for e in stream if e["kind"] == "roll"] == [], f"{persona}'s live stream announces the roll: {stream}"
        assert DIER not in json.dumps(stream)
        assert _traces(_log(api_as(persona), fight["e"]), name=DIER, hidden_id=dying_npc) == [], persona


def test_a_revealed_npcs_defense_terms_stay_behind_the_screen_in_a_players_preview(api_as, fight):
    """docs/api.md: players never see an NPC's numbers. The preview still gives the target number
    and the odds; the NPC's Defense terms (its RES and armour) go to the GM alone."""
    revealed = fight["gm"].patch(f"/api/v1/encounters/{fight['e']}/combatants/{fight['ninja']}/",
                                 {"revealed": True}, format="json")
    assert revealed.status_code == 200, revealed.content
    fight["roll"](ALICE_FIRST)
    body = {"attacker": fight["alice"], "target": fight["ninja"], "stat": "MEL", "preview": True}
    url = f"/api/v1/encounters/{fight['e']}/attacks/"
    player = api_as("player").post(url, body, format="json")
    gm = fight["gm"].post(url, body, format="json")
    assert player.status_code == gm.status_code == 200, (player.content, gm.content)
    assert player.json()["target_number"] == gm.json()["target_number"]
    assert "defense" not in player.json() and gm.json()["defense"]


# --- Probing ids: hidden means absent, in every field a player may fill ---------------------------
NEVER_USED = 987_654


@pytest.mark.parametrize("preview", [True, False], ids=["preview", "attack"])
@pytest.mark.parametrize("field", ["attacker", "target"])
def test_probing_ids_finds_no_unrevealed_npc(api_as, personas, fight, field, preview):
    """Every field of the attack API that names a combatant answers a player the same for an
    unrevealed NPC as for an id never used: same status, same body (the probe that found 7 of 7)."""
    fight["roll"](ALICE_FIRST)
    alice = api_as("player")

    def probe(combatant_id: int):
        body = {"attacker": fight["alice"], "target": fight["bob"], "weapon": "Baton", "stat": "MEL",
                "preview": preview, field: combatant_id}
        response = alice.post(f"/api/v1/encounters/{fight['e']}/attacks/", body, format="json")
        return response.status_code, response.json()

    hidden_status, hidden_body = probe(fight["ninja"])
    unknown_status, unknown_body = probe(NEVER_USED)
    assert hidden_status == unknown_status == 400
    assert json.dumps(hidden_body).replace(str(fight["ninja"]), "ID") == \
        json.dumps(unknown_body).replace(str(NEVER_USED), "ID")
    # The GM, who sees the NPC, is answered about it (so the test cannot pass by refusing everything).
    gm_body = {"attacker": fight["ninja"], "target": fight["alice"], "weapon": "Katana", "stat": "MEL",
               "preview": True}
    assert fight["gm"].post(f"/api/v1/encounters/{fight['e']}/attacks/", gm_body, format="json").status_code == 200
