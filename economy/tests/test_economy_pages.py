"""The economy's pages: who may see and post what, what bad input does, and what the pages show.

Personas (root conftest): gm, player (owns Alia), other_player (owns Bram), viewer, outsider.
"""

from __future__ import annotations

import re
import uuid

import pytest
from django.urls import reverse

from campaign.models import LogEntry
from characters.models import Character, Disadvantage
from conftest import PASSWORD, cast_personas, fresh
from economy import services as economy
from economy.models import Adventure, BadNewsToken, Complication, KarmaEntry, MacGuffin
from economy.tests.conftest import character_maker

pytestmark = pytest.mark.django_db

MEMBERS = ["gm", "player", "other_player", "viewer"]


def key() -> str:
    return uuid.uuid4().hex


@pytest.fixture(scope="module")
def _party(module_db, django_db_blocker):
    """Built once for the module (``module_db``): the personas, Alia (player's, 10 Karma), Bram
    (other_player's, 10 Karma), an open adventure with a token and a pool."""
    from django.contrib.auth import get_user_model

    cast = cast_personas(lambda name: get_user_model().objects.create_user(username=name, password=PASSWORD))
    make_character, gm = character_maker(cast), cast["gm"]
    alia = make_character("player", name="Alia")
    bram = make_character("other_player", name="Bram")
    adventure = economy.adventure_start(campaign=cast["campaign"], name="Lisbon, 1755", base_xp=3, by=gm)
    token = economy.token_add(adventure=adventure, note="The quake comes early", by=gm)
    pool = economy.macguffin_create(campaign=cast["campaign"], name="Crystal radio set",
                                    limitation="No word from Zener Command", target=10, upgrade="", by=gm)
    return {"alia": alia, "bram": bram, "adventure": adventure, "token": token, "pool": pool, **cast}


@pytest.fixture
def personas(_party, db):
    """The module's personas, read afresh for each test."""
    return fresh({name: _party[name] for name in (*MEMBERS, "outsider", "campaign")})


@pytest.fixture
def party(_party, personas):
    return {**fresh(_party), **personas}


def snapshot() -> tuple:
    """Everything a post could change: rows of the ledger, adventures, pools, the audit trail…"""
    return (
        list(KarmaEntry.objects.order_by("id").values_list("id", "amount")),
        list(Character.objects.order_by("id").values_list("id", "karma", "str", "karma_converted")),
        list(Adventure.objects.order_by("id").values_list("id", "closed_at")),
        list(BadNewsToken.objects.order_by("id").values_list("id", "voided")),
        list(MacGuffin.objects.order_by("id").values_list("id", "progress", "status")),
        list(Disadvantage.objects.order_by("id").values_list("id", "ranks")),
        Complication.objects.count(),
        LogEntry.objects.count(),
    )


def text(response) -> str:
    """Return the page's visible text, whitespace collapsed (for messages that wrap in templates)."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


# --- Access: every page ----------------------------------------------------------------------
PAGES = {
    "dashboard": (lambda p: reverse("campaign-dashboard", args=[p["campaign"].pk]), MEMBERS),
    "karma": (lambda p: reverse("character-karma", args=[p["alia"].pk]), MEMBERS),
    "karma-preview": (lambda p: reverse("character-karma-preview", args=[p["alia"].pk]) + "?kind=reroll", MEMBERS),
    "adventures": (lambda p: reverse("campaign-adventures", args=[p["campaign"].pk]), MEMBERS),
    "close": (lambda p: reverse("adventure-close", args=[p["adventure"].pk]), ["gm"]),
    "macguffins": (lambda p: reverse("campaign-macguffins", args=[p["campaign"].pk]), MEMBERS),
    "macguffins-live": (lambda p: reverse("campaign-macguffins-live", args=[p["campaign"].pk]), MEMBERS),
}


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("persona", [*MEMBERS, "outsider", None])
def test_page_access(party, client, page, persona):
    url_of, readers = PAGES[page]
    url = url_of(party)
    if persona is None:
        response = client.get(url)
        assert response.status_code == 302 and response.url.startswith(reverse("login"))
        return
    client.force_login(party[persona])
    expected = 200 if persona in readers else 404 if persona == "outsider" else 403
    assert client.get(url).status_code == expected


# --- Access: every POST ------------------------------------------------------------------------
def _spend(p):
    return reverse("character-karma", args=[p["alia"].pk]), {"kind": "reroll", "idempotency_key": key()}


def _complication(p):
    # Alia owes nothing; the GM may still record one (the service decides), so it changes the sheet.
    return reverse("character-complication", args=[p["alia"].pk]), {
        "cause": "debt", "form": "blown_roll", "ranks": 1, "description": "The radio gives them away"}


def _start(p):
    economy.adventure_close(adventure=p["adventure"], outcome="none", permanent=False, selfish=[], by=p["gm"])
    return reverse("campaign-adventures", args=[p["campaign"].pk]), {"name": "Vienna, 1683", "base_xp": 2}


POSTS = {
    "spend": (_spend, {"gm", "player"}),
    "complication": (_complication, {"gm"}),
    "adventure-start": (_start, {"gm"}),
    "token-add": (lambda p: (reverse("adventure-token-add", args=[p["adventure"].pk]), {"note": "Storm"}), {"gm"}),
    "token-void": (lambda p: (reverse("adventure-token-void", args=[p["adventure"].pk, p["token"].pk]), {}), {"gm"}),
    "close": (lambda p: (reverse("adventure-close", args=[p["adventure"].pk]), {"outcome": "solution"}), {"gm"}),
    "award": (lambda p: (reverse("campaign-awards", args=[p["campaign"].pk]), {
        "kind": "npc_boost", "characters": [p["alia"].pk], "reason": "Saved the consul", "idempotency_key": key()}),
        {"gm"}),
    "macguffin-create": (lambda p: (reverse("campaign-macguffins", args=[p["campaign"].pk]), {
        "name": "Meitner lattice", "target_preset": "20"}), {"gm"}),
    "contribute": (lambda p: (reverse("macguffin-contribute", args=[p["pool"].pk]), {
        "character": p["alia"].pk, "amount": 2, "idempotency_key": key()}), {"gm", "player"}),
}


@pytest.mark.parametrize("post", POSTS)
@pytest.mark.parametrize("persona", [*MEMBERS, "outsider", None])
def test_post_access(party, client, post, persona):
    build, writers = POSTS[post]
    url, data = build(party)
    before = snapshot()
    if persona is not None:
        client.force_login(party[persona])
    response = client.post(url, data)
    if persona is None:
        assert response.status_code == 302 and response.url.startswith(reverse("login"))
    elif persona in writers:
        assert response.status_code == 302, text(response)[:2000]
    else:
        assert response.status_code == (404 if persona == "outsider" else 403)
    assert (snapshot() != before) == (persona in writers)


def test_a_foreign_character_cannot_be_spent_or_given(party, client, make_character, elsewhere):
    stranger_pc = make_character(elsewhere.memberships.get(role="player").user, name="Stranger", campaign=elsewhere)
    client.force_login(party["player"])
    before = snapshot()
    assert client.post(reverse("character-karma", args=[stranger_pc.pk]),
                       {"kind": "reroll", "idempotency_key": key()}).status_code == 404
    assert client.post(reverse("macguffin-contribute", args=[party["pool"].pk]),
                       {"character": stranger_pc.pk, "amount": 1, "idempotency_key": key()}).status_code == 404
    assert client.get(reverse("character-karma", args=[999999])).status_code == 404
    assert client.post(reverse("adventure-close", args=[999999]), {"outcome": "none"}).status_code == 404
    assert snapshot() == before


# --- The Karma page ---------------------------------------------------------------------------
def test_karma_page_shows_balance_ledger_and_the_form_only_to_writers(party, client):
    economy.karma_spend(character=party["alia"], kind="reroll", idempotency_key="k1", by=party["player"],
                        is_gm=False, params={"reason": "missed the lock"})
    client.force_login(party["player"])
    page = text(client.get(reverse("character-karma", args=[party["alia"].pk])))
    assert "9 Karma" in page and "missed the lock" in page and "Starting Karma" in page
    assert page.index("missed the lock") < page.index("Starting Karma")  # newest first
    assert "Spend Karma" in page and "Stroke of good fortune" not in page  # the GM's spend
    assert "STR 12 → 13 · 2 Karma" in page  # the cost per RULINGS for the stat's current value
    client.force_login(party["other_player"])
    page = text(client.get(reverse("character-karma", args=[party["alia"].pk])))
    assert "missed the lock" in page and "Spend Karma" not in page
    client.force_login(party["gm"])
    assert "Stroke of good fortune" in text(client.get(reverse("character-karma", args=[party["alia"].pk])))


def test_spend_posts_and_redirects_with_a_message(party, client):
    client.force_login(party["player"])
    response = client.post(reverse("character-karma", args=[party["alia"].pk]),
                           {"kind": "stat_raise", "stat": "STR", "idempotency_key": key()}, follow=True)
    assert "Alia spent 2 Karma: STR +1. Balance 8." in text(response)
    party["alia"].refresh_from_db()
    assert (party["alia"].karma, party["alia"].str) == (8, 13)


def test_double_post_with_the_same_key_spends_once(party, client):
    client.force_login(party["player"])
    url = reverse("character-karma", args=[party["alia"].pk])
    data = {"kind": "skill_points", "amount": 3, "idempotency_key": "double-click-1"}
    first = client.post(url, data)
    second = client.post(url, data, follow=True)
    assert first.status_code == 302 and second.status_code == 200
    assert "already posted" in text(second)
    party["alia"].refresh_from_db()
    assert party["alia"].karma == 7 and party["alia"].karma_converted == 3
    assert KarmaEntry.objects.filter(character=party["alia"], kind="skill_points").count() == 1


def test_the_form_carries_a_fresh_key_each_time(party, client):
    client.force_login(party["player"])
    url = reverse("character-karma", args=[party["alia"].pk])
    keys = {re.search(r'name="idempotency_key" value="([0-9a-f]{32})"', client.get(url).content.decode())[1]
            for _ in range(2)}
    assert len(keys) == 2


@pytest.mark.parametrize("data, status, message", [
    ({"kind": "transmute"}, 400, "Select a valid choice"),
    ({"kind": "skill_points"}, 400, "Say how much Karma to convert."),
    ({"kind": "skill_points", "amount": "lots"}, 400, "Enter a whole number."),
    ({"kind": "skill_points", "amount": 0}, 400, "greater than or equal to 1"),
    ({"kind": "skill_points", "amount": 11}, 409, "Alia has 10 Karma; this needs 11."),
    ({"kind": "stat_raise"}, 400, "Pick the stat to raise."),
    ({"kind": "stat_raise", "stat": "LUCK"}, 400, "Select a valid choice"),
    ({"kind": "assist"}, 400, "Pick the character you help."),
    ({"kind": "good_fortune", "cost": 2}, 400, "The GM sets the price of a stroke of good fortune"),
    ({"kind": "delay_transition", "time_index": 3}, 409, "still missing: enlarged Meitner field"),
    ({"kind": "disadvantage_removal", "disadvantage": 999999}, 400, "Select a valid choice"),
])
def test_bad_spends_show_the_message_keep_the_input_and_change_nothing(party, client, data, status, message):
    client.force_login(party["player"])
    before = snapshot()
    response = client.post(reverse("character-karma", args=[party["alia"].pk]),
                           {**data, "reason": "kept reason", "idempotency_key": key()})
    assert response.status_code == status
    page = response.content.decode()
    assert message in text(response)
    assert 'value="kept reason"' in page
    if data["kind"] in ("skill_points", "stat_raise", "delay_transition") and "amount" in data:
        assert f'value="{data["amount"]}"' in page
    assert snapshot() == before


def test_refused_stat_raise_keeps_the_chosen_stat(party, client, make_character):
    poor = make_character("player", name="Poor", karma=1)
    client.force_login(party["player"])
    response = client.post(reverse("character-karma", args=[poor.pk]),
                           {"kind": "stat_raise", "stat": "CON", "idempotency_key": key()})
    assert response.status_code == 409
    assert "Poor has 1 Karma; this needs 2." in text(response)
    assert re.search(r'<option value="CON"[^>]*selected', response.content.decode())


def test_disadvantage_removal_once_per_adventure(party, client, make_character):
    pc = make_character("player", name="Sorrow", disadvantages=[
        {"name": "Nightmares", "value": 2, "ranks": 3}])
    item = pc.disadvantages.get()
    client.force_login(party["player"])
    url = reverse("character-karma", args=[pc.pk])
    ok = client.post(url, {"kind": "disadvantage_removal", "disadvantage": item.pk, "idempotency_key": key()})
    assert ok.status_code == 302
    before = snapshot()
    again = client.post(url, {"kind": "disadvantage_removal", "disadvantage": item.pk, "idempotency_key": key()})
    assert again.status_code == 409 and "Only one rank of a disadvantage" in text(again)
    assert snapshot() == before
    # The player cannot override; the GM can.
    override = client.post(url, {"kind": "disadvantage_removal", "disadvantage": item.pk, "override": "on",
                                 "idempotency_key": key()})
    assert override.status_code == 400 and snapshot() == before
    client.force_login(party["gm"])
    assert client.post(url, {"kind": "disadvantage_removal", "disadvantage": item.pk, "override": "on",
                             "idempotency_key": key()}).status_code == 302
    item.refresh_from_db()
    assert item.ranks == 1


def test_gm_spends_good_fortune_and_assist(party, client):
    client.force_login(party["gm"])
    url = reverse("character-karma", args=[party["alia"].pk])
    assert client.post(url, {"kind": "good_fortune", "cost": 3, "idempotency_key": key()}).status_code == 302
    assert client.post(url, {"kind": "assist", "helped": party["bram"].pk, "idempotency_key": key()}).status_code == 302
    party["alia"].refresh_from_db()
    assert party["alia"].karma == 6
    assert KarmaEntry.objects.get(character=party["alia"], kind="assist").data["helped"] == party["bram"].pk


@pytest.mark.parametrize("query, expected", [
    ("kind=reroll", "Costs 1 Karma · balance 10 → 9"),
    ("kind=skill_points&amount=4", "Costs 4 Karma · balance 10 → 6"),
    ("kind=skill_points&amount=12", "Alia has 10 Karma; this needs 12."),
    ("kind=stat_raise&stat=STR", "Costs 2 Karma · balance 10 → 8"),
    ("kind=stat_raise", "Pick the stat to raise."),
    ("kind=delay_transition&time_index=2", "can be delayed only once these upgrades are in effect"),
    ("kind=good_fortune&cost=2", "The GM sets the price"),
])
def test_preview_shows_cost_and_balance_after_or_the_reason(party, client, query, expected):
    client.force_login(party["player"])
    before = snapshot()
    response = client.get(reverse("character-karma-preview", args=[party["alia"].pk]) + "?" + query,
                          HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert expected in text(response)
    assert "<html" not in response.content.decode()  # a fragment
    assert snapshot() == before


def test_preview_of_a_stat_above_25_shows_its_price(party, client, make_character):
    strong = make_character("player", name="Strong", karma=9, stats={"STR": 27})
    client.force_login(party["player"])
    response = client.get(reverse("character-karma-preview", args=[strong.pk]) + "?kind=stat_raise&stat=STR")
    assert "Costs 4 Karma · balance 9 → 5" in text(response)
    page = text(client.get(reverse("character-karma", args=[strong.pk])))
    assert "STR 27 → 28 · 4 Karma" in page


# --- Karmic Debt and Complications ---------------------------------------------------------------
@pytest.fixture
def indebted(party, make_character):
    """A character whose two disadvantages outnumber its Karma (1): Karmic Debt."""
    pc = make_character("player", name="Debtor", disadvantages=[
        {"name": "Vertigo", "value": 2, "ranks": 1}, {"name": "Stammer", "value": 1, "ranks": 1}])
    economy.award(campaign=party["campaign"], kind="manual", character_ids=[pc.pk], amount=-9,
                  reason="Spent in play", by=party["gm"])
    pc.refresh_from_db()
    return pc


def test_flags_show_on_karma_page_and_dashboard(party, client, indebted):
    client.force_login(party["viewer"])
    karma_page = text(client.get(reverse("character-karma", args=[indebted.pk])))
    dashboard = text(client.get(reverse("campaign-dashboard", args=[party["campaign"].pk])))
    for page in (karma_page, dashboard):
        assert "Karmic Debt: Stammer earns nothing with 1 Karma" in page
    assert "Record a Complication" not in karma_page  # the viewer reads only
    client.force_login(party["gm"])
    assert "Record a Complication" in text(client.get(reverse("character-karma", args=[indebted.pk])))


def test_gm_records_a_complication_that_clears_the_flag(party, client, indebted):
    client.force_login(party["gm"])
    stammer = indebted.disadvantages.get(name="Stammer")
    response = client.post(reverse("character-complication", args=[indebted.pk]), {
        "cause": "debt", "form": "blown_roll", "ranks": 1, "description": "Fumbles the password",
        "nullify": stammer.pk}, follow=True)
    page = text(response)
    assert "Complication recorded for Debtor." in page and "earns nothing" not in page
    assert not Disadvantage.objects.filter(pk=stammer.pk).exists()


@pytest.mark.parametrize("data, message", [
    ({"cause": "debt", "form": "worsen", "ranks": 1, "description": ""}, "This field is required."),
    ({"cause": "debt", "form": "worsen", "ranks": 1, "description": "x"}, "Name the disadvantages to worsen."),
    ({"cause": "debt", "form": "stat_loss", "ranks": 1, "description": "x"}, "Name the stat that is lost"),
    ({"cause": "debt", "form": "worsen", "ranks": 0, "description": "x"}, "greater than or equal to 1"),
    ({"cause": "greed", "form": "worsen", "ranks": 1, "description": "x"}, "Select a valid choice"),
])
def test_bad_complications_show_the_message_and_change_nothing(party, client, indebted, data, message):
    client.force_login(party["gm"])
    before = snapshot()
    response = client.post(reverse("character-complication", args=[indebted.pk]), data)
    assert response.status_code == 400
    assert message in text(response)
    assert snapshot() == before


# --- Adventures, tokens, awards, close-out --------------------------------------------------------
def test_adventures_page_shows_the_adventure_and_its_tokens(party, client):
    client.force_login(party["player"])
    page = text(client.get(reverse("campaign-adventures", args=[party["campaign"].pk])))
    assert "Lisbon, 1755" in page and "The quake comes early" in page
    assert "Add token" not in page and "GM awards" not in page and "Close-out" not in page
    client.force_login(party["gm"])
    page = text(client.get(reverse("campaign-adventures", args=[party["campaign"].pk])))
    assert "Add token" in page and "GM awards" in page and "Close-out" in page


@pytest.mark.parametrize("data, status, message", [
    ({"name": "", "base_xp": 2}, 400, "This field is required."),
    ({"name": "Rome", "base_xp": 500}, 400, "less than or equal to 100"),
    ({"name": "Rome", "base_xp": "three"}, 400, "Enter a whole number."),
    ({"name": "Rome", "base_xp": 2}, 409, "Close the current adventure first."),
])
def test_bad_adventure_starts(party, client, data, status, message):
    client.force_login(party["gm"])
    before = snapshot()
    response = client.post(reverse("campaign-adventures", args=[party["campaign"].pk]), data)
    assert response.status_code == status and message in text(response)
    assert snapshot() == before


def test_tokens_are_added_and_voided(party, client):
    client.force_login(party["gm"])
    adventure = party["adventure"]
    client.post(reverse("adventure-token-add", args=[adventure.pk]), {"note": "Storm at sea"})
    assert adventure.tokens.count() == 2
    client.post(reverse("adventure-token-void", args=[adventure.pk, party["token"].pk]))
    assert list(adventure.tokens.filter(voided=False).values_list("note", flat=True)) == ["Storm at sea"]
    assert client.post(reverse("adventure-token-add", args=[adventure.pk]), {"note": "x" * 300}).status_code == 400


@pytest.mark.parametrize("data, status, message", [
    ({"kind": "manual", "reason": "fix"}, 400, "A manual award needs a non-zero amount."),
    ({"kind": "manual", "amount": -11, "reason": "fix"}, 409, "Alia has 10 Karma; this needs 11."),
    ({"kind": "npc_boost", "reason": "fix"}, 400, "This field is required."),
    ({"kind": "complication", "reason": ""}, 400, "This field is required."),
    ({"kind": "bribe", "reason": "fix"}, 400, "Select a valid choice"),
])
def test_bad_awards_change_nothing(party, client, data, status, message):
    client.force_login(party["gm"])
    if data["kind"] != "npc_boost":
        data = {**data, "characters": [party["alia"].pk, party["bram"].pk]}
    before = snapshot()
    response = client.post(reverse("campaign-awards", args=[party["campaign"].pk]), {**data, "idempotency_key": key()})
    assert response.status_code == status and message in text(response)
    assert snapshot() == before


def test_awards_pay_at_once(party, client):
    client.force_login(party["gm"])
    url = reverse("campaign-awards", args=[party["campaign"].pk])
    response = client.post(url, {"kind": "complication", "characters": [party["alia"].pk, party["bram"].pk],
                                 "reason": "The radio gives them away", "idempotency_key": key()}, follow=True)
    assert "Karma awarded: Alia +2, Bram +2." in text(response)
    client.post(url, {"kind": "manual", "characters": [party["bram"].pk], "amount": -3, "reason": "Double-counted",
                      "idempotency_key": key()})
    party["bram"].refresh_from_db()
    assert party["bram"].karma == 9


def test_close_out_preview_posts_nothing_then_close_pays_once(party, client):
    """The article's XP balance example: base 3, four tokens, permanent PC solution → 28 each."""
    gm, adventure = party["gm"], party["adventure"]
    for note in ("Storm", "Mutiny", "Plague"):
        economy.token_add(adventure=adventure, note=note, by=gm)
    client.force_login(gm)
    url = reverse("adventure-close", args=[adventure.pk])
    before = snapshot()
    preview = client.get(url, {"outcome": "solution", "permanent": "on", "preview": "1"})
    assert preview.status_code == 200
    rows = re.findall(r"(Alia|Bram)<span class=\"breakdown\">[^<]*</span></td>\s*<td[^>]*><strong>\+(\d+)",
                      preview.content.decode())
    assert rows == [("Alia", "28"), ("Bram", "28")]
    assert "permanent solution (×2) 14" in text(preview)
    fragment = client.get(url, {"outcome": "solution", "permanent": "on", "selfish": [party["bram"].pk]},
                          HTTP_HX_REQUEST="true")
    assert "<html" not in fragment.content.decode() and "+27" in text(fragment)
    assert snapshot() == before

    paid = client.post(url, {"outcome": "solution", "permanent": "on"}, follow=True)
    assert "is closed and paid: Alia +28, Bram +28." in text(paid)
    again = client.post(url, {"outcome": "solution", "permanent": "on"})
    assert again.status_code == 409 and "already closed; its payout was posted" in text(again)
    assert KarmaEntry.objects.filter(adventure=adventure, kind="payout").count() == 2
    party["alia"].refresh_from_db()
    assert party["alia"].karma == 38
    assert "Paid" in text(client.get(url))


@pytest.mark.parametrize("data, message", [
    ({"outcome": "triumph"}, "Select a valid choice"),
    ({"outcome": "none", "permanent": "on"}, "A permanent solution needs an outcome"),
    ({"outcome": "none", "selfish": ["999999"]}, "Select a valid choice"),
])
def test_bad_close_out_changes_nothing(party, client, data, message):
    client.force_login(party["gm"])
    before = snapshot()
    response = client.post(reverse("adventure-close", args=[party["adventure"].pk]), data)
    assert response.status_code == 400 and message in text(response)
    assert snapshot() == before


# --- MacGuffin pools ------------------------------------------------------------------------------
def test_pools_page_shows_progress_and_contributors(party, client):
    economy.macguffin_contribute(macguffin=party["pool"], character=party["alia"], amount=3,
                                 idempotency_key="g1", by=party["player"])
    client.force_login(party["viewer"])
    page = text(client.get(reverse("campaign-macguffins", args=[party["campaign"].pk])))
    assert "Crystal radio set" in page and "3 / 10 Karma" in page and "Alia 3" in page
    assert "Give" not in page and "Open a pool" not in page
    live = client.get(reverse("campaign-macguffins-live", args=[party["campaign"].pk]))
    assert 'id="pool-' in live.content.decode() and "Alia 3" in text(live) and "<html" not in live.content.decode()
    client.force_login(party["player"])
    page = client.get(reverse("campaign-macguffins", args=[party["campaign"].pk])).content.decode()
    assert "Give" in page and "Bram" not in page.split('class="give"')[1]  # only her own character


@pytest.mark.parametrize("data, status, message", [
    ({"name": "", "target_preset": "4"}, 400, "This field is required."),
    ({"name": "Lattice", "target_preset": "other"}, 400, "Enter the target in Karma."),
    ({"name": "Lattice", "target_preset": "other", "target": 0}, 400, "greater than or equal to 1"),
    ({"name": "Lattice", "target_preset": "7"}, 400, "Select a valid choice"),
    ({"name": "Lattice", "target_preset": "4", "upgrade": "warp_drive"}, 400, "Select a valid choice"),
])
def test_bad_pools_change_nothing(party, client, data, status, message):
    client.force_login(party["gm"])
    before = snapshot()
    response = client.post(reverse("campaign-macguffins", args=[party["campaign"].pk]), data)
    assert response.status_code == status and message in text(response)
    assert 'value="Lattice"' in response.content.decode() or not data["name"]
    assert snapshot() == before


def test_pool_targets_preset_or_any_and_one_per_upgrade(party, client):
    client.force_login(party["gm"])
    url = reverse("campaign-macguffins", args=[party["campaign"].pk])
    client.post(url, {"name": "Lattice", "target_preset": "20", "upgrade": "enlarged_meitner_field"})
    client.post(url, {"name": "Beacon", "target_preset": "other", "target": 7})
    assert dict(MacGuffin.objects.values_list("name", "target")) == {
        "Crystal radio set": 10, "Lattice": 20, "Beacon": 7}
    before = snapshot()
    again = client.post(url, {"name": "Lattice II", "target_preset": "4", "upgrade": "enlarged_meitner_field"})
    assert again.status_code == 409 and "That upgrade already has a MacGuffin." in text(again)
    assert snapshot() == before


def test_contributions(party, client):
    client.force_login(party["player"])
    url = reverse("macguffin-contribute", args=[party["pool"].pk])
    data = {"character": party["alia"].pk, "amount": 3, "idempotency_key": "give-1"}
    assert "Alia gave 3 Karma to Crystal radio set." in text(client.post(url, data, follow=True))
    assert "already posted" in text(client.post(url, data, follow=True))  # the same key: once
    party["pool"].refresh_from_db()
    party["alia"].refresh_from_db()
    assert (party["pool"].progress, party["alia"].karma) == (3, 7)


@pytest.mark.parametrize("data, status, message", [
    ({"amount": 8}, 409, "Crystal radio set needs only 7 more."),
    ({"amount": 0}, 400, "greater than or equal to 1"),
    ({"amount": ""}, 400, "This field is required."),
    ({"character": ""}, 400, "This field is required."),
])
def test_bad_contributions_change_nothing(party, client, data, status, message):
    economy.macguffin_contribute(macguffin=party["pool"], character=party["bram"], amount=3,
                                 idempotency_key="g0", by=party["other_player"])
    client.force_login(party["player"])
    before = snapshot()
    response = client.post(reverse("macguffin-contribute", args=[party["pool"].pk]),
                           {"character": party["alia"].pk, "amount": 1, "idempotency_key": key(), **data})
    assert response.status_code == status and message in text(response)
    assert snapshot() == before


def test_a_funded_pool_refuses_more(party, client):
    economy.award(campaign=party["campaign"], kind="manual", character_ids=[party["alia"].pk], amount=5,
                  reason="set-up", by=party["gm"])
    economy.macguffin_contribute(macguffin=party["pool"], character=party["alia"], amount=10,
                                 idempotency_key="fund", by=party["player"])
    client.force_login(party["gm"])
    before = snapshot()
    response = client.post(reverse("macguffin-contribute", args=[party["pool"].pk]),
                           {"character": party["alia"].pk, "amount": 1, "idempotency_key": key()})
    assert response.status_code == 409 and "already funded" in text(response)
    assert snapshot() == before


# --- The dashboard ----------------------------------------------------------------------------
def test_dashboard_shows_the_party_pools_adventure_and_ledger(party, client):
    from characters.models import Character as C

    C.objects.filter(pk=party["bram"].pk).update(trauma=4, shock=3, endurance_spent=5)
    economy.macguffin_contribute(macguffin=party["pool"], character=party["alia"], amount=3,
                                 idempotency_key="g1", by=party["player"])
    client.force_login(party["other_player"])
    response = client.get(reverse("campaign-dashboard", args=[party["campaign"].pk]))
    page = text(response)
    bram = party["bram"]
    assert "Alia" in page and "played by player" in page and "Bram" in page
    assert f"{bram.hit_points - 4}/{bram.hit_points}" in page           # HP less trauma of HP
    assert f"3/{bram.shock_threshold}" in page                           # shock against SHK
    assert f"{bram.endurance_max - 5}/{bram.endurance_max}" in page      # END less spent
    assert "Crystal radio set 3 / 10" in page
    assert "Lisbon, 1755" in page and "Base XP 3" in page and "Bad-news tokens 1" in page
    assert "Alia · Campaign MacGuffin" in page and "Towards Crystal radio set" in page
    assert "Close-out" not in page  # the GM's link
    client.force_login(party["gm"])
    assert reverse("adventure-close", args=[party["adventure"].pk]) in client.get(
        reverse("campaign-dashboard", args=[party["campaign"].pk])).content.decode()


def test_dashboard_query_count_does_not_grow_with_characters(personas, client, make_character):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    campaign = personas["campaign"]  # with the module's open adventure and pool, and Alia and Bram
    url = reverse("campaign-dashboard", args=[campaign.pk])
    client.force_login(personas["gm"])

    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        return len(queries.captured_queries)

    make_character("player", name="PC 1", disadvantages=[{"name": "Vertigo", "value": 2, "ranks": 1}])
    one = count()
    for i in range(2, 9):
        make_character("player" if i % 2 else "other_player", name=f"PC {i}",
                       skills=[{"name": f"Skill {i}", "breadth": "narrow", "ranks": 1, "stat": "THEO"},
                               {"name": f"Other {i}", "breadth": "specific", "ranks": 2, "stat": "PRAC"}],
                       disadvantages=[{"name": f"Flaw {i}", "value": 1, "ranks": 1}])
    make_character("player", name="Draft PC", approve=False)
    assert campaign.characters.count() == 11
    assert count() == one
    # A long campaign's ledger: awards for everyone, twenty times over.
    for n in range(20):
        economy.award(campaign=campaign, kind="complication", character_ids=list(
            campaign.characters.filter(state="active").values_list("pk", flat=True)), by=personas["gm"],
            reason=f"Trouble {n}")
    assert count() == one
    assert one <= 25
