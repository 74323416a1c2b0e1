"""Zener Transitions through the API: the CON save, the damage lines, delays, undo, personas, bad input.

Article: "Radiation Damage". RULINGS sections 1 (every stat check on 4d6, modifiers on the
target side: the "CON roll at +15" is target − 15) and 7 (radiation). Every expected number
below is worked out by hand from the article, not by calling the code under test.
"""

import pytest
from django.urls import reverse

from campaign.models import Event, LogEntry
from downtime.models import TransitionBatch, TransitionRecord
from downtime.tests.helpers import all_wounds, stored_wounds
from economy import services as economy
from economy.models import KarmaEntry

pytestmark = pytest.mark.django_db

#: CON high enough that four successful transitions never push the save into miracle dice:
#: after three saved transitions the loss is 1 + 2 + 3 = 6, and 26 − 6 − 15 = 5 ≥ 4 dice.
TOUGH = {"CON": 26}
ONES = [1, 1, 1, 1]  # a 4d6 total of 4: saves against any target of 4 or more


def _transition(api, campaign, *, characters, key=None, category="1", dice=None, **extra):
    body = {"category": category, "characters": [c.pk for c in characters], **extra}
    if key is not None:
        body["idempotency_key"] = key
    if dice is not None:
        body["dice"] = {str(c.pk): faces for c, faces in dice.items()}
    return api.post(f"/api/v1/campaigns/{campaign.pk}/transitions/", body, format="json")


def _wounds(api, character) -> dict:
    response = api.get(f"/api/v1/characters/{character.pk}/wounds/")
    assert response.status_code == 200, response.content
    return response.json()


_stored = stored_wounds


def _everything() -> dict:
    """What a transition can change, to show that a refused request changed none of it."""
    return {
        "wounds": all_wounds(),
        "batches": TransitionBatch.objects.count(),
        "records": TransitionRecord.objects.count(),
        "log": LogEntry.objects.count(),
        "events": Event.objects.count(),
        "karma": list(KarmaEntry.objects.order_by("pk").values_list("pk", "amount")),
    }


def _three_saved_transitions(api, campaign, character):
    """Put the character through transitions 1–3, each saved with a d3 of 1.

    Saved: 1 long-term CON and d3 shock and trauma, each line + 1 per earlier transition:
    CON 1, 2, 3 (total 6), shock and trauma 1, 2, 3 (total 6).
    """
    for n in range(3):
        response = _transition(api, campaign, characters=[character], key=f"earlier-{n}",
                               dice={character: [*ONES, 1]})
        assert response.status_code == 201, response.content
        assert response.json()["characters"][0]["save"]["success"] is True


# --- The rules ------------------------------------------------------------------------------
def test_the_articles_fourth_category_1_transition(personas, api_as, make_character):
    """"Radiation Damage": "If the fourth Zener Transition is a Category-1 event, for example, the
    character would experience 1/2 d6 +3 temporary CON damage and 1d6+3 shock and trauma."

    A failed CON save at +15 (target CON − 15 on 4d6), d6 = 5: CON ⌈5 / 2⌉ + 3 = 6, shock and
    trauma 5 + 3 = 8. A new exposure restarts the recovery track.
    """
    gm, campaign = api_as("gm"), personas["campaign"]
    alice = make_character("player", stats=TOUGH)
    _three_saved_transitions(gm, campaign, alice)
    before = _wounds(gm, alice)
    assert (before["transitions"], before["long_term_con"], before["shock"], before["trauma"]) == (3, 6, 6, 6)

    response = _transition(gm, campaign, characters=[alice], key="fourth", dice={alice: [6, 6, 6, 6, 5]})

    assert response.status_code == 201, response.content
    body = response.json()
    assert body["category"] == "1" and body["id"] == TransitionBatch.objects.get(idempotency_key="fourth").pk
    (result,) = body["characters"]
    assert result["character"] == alice.pk and result["number"] == 4 and result["postponed"] is None
    # CON now 26 − 6 = 20; the save's target is 20 − 15 = 5 on 4d6. P(4d6 ≤ 5) = (1 + 4) / 1296.
    save = result["save"]
    assert save["target"] == 5
    assert save["breakdown"] == [["CON", 20], ["Zener Transition: +15 on the roll, −15 on the target", -15], ["target on 4d6", 5]]
    assert save["odds"]["probability"] == "5/1296" and save["odds"]["dice"] == 4
    assert save["faces"] == [6, 6, 6, 6] and save["total"] == 24
    assert save["success"] is False and save["margin"] == 5 - 24
    assert result["repeat_extra"] == 3
    assert result["extra_breakdown"] == [["earlier transitions", 3], ["removed by therapies", 0],
                                         ["extra on every damage line (min 0)", 3]]
    assert result["damage"] == {
        "long-term CON damage": {"amount": 6, "terms": [["d6", 5], ["half, rounded up", 3],
                                                         ["repeat-transition extra", 3], ["long-term CON damage", 6]]},
        "shock": {"amount": 8, "terms": [["d6", 5], ["repeat-transition extra", 3], ["shock", 8]]},
        "trauma": {"amount": 8, "terms": [["d6", 5], ["repeat-transition extra", 3], ["trauma", 8]]},
    }
    assert [d["face"] for d in result["dice"]] == [6, 6, 6, 6, 5]
    assert all(d["entered"] and d["sides"] == 6 for d in result["dice"])
    assert result["track"]["restarted"] is True and result["track"]["step"] == 0
    assert result["track"]["long_term_loss"] == {"CON": 12}

    after = _wounds(gm, alice)
    assert after["long_term_con"] == before["long_term_con"] + 6
    assert after["shock"] == before["shock"] + 8
    assert after["trauma"] == before["trauma"] + 8
    assert after["transitions"] == 4
    assert after["radiation"]["step"] == 0 and after["radiation"]["step_hours"] == 0
    assert LogEntry.objects.filter(action="transition.make").count() == 4


def test_a_saved_transition_costs_1_con_and_d3_shock_and_trauma_plus_the_extra(personas, api_as, make_character):
    """"Radiation Damage": "If the character succeeds, he takes 1 point of long-term CON damage and
    d3 points of Trauma and Shock"; every transition after the first adds +1 per earlier one.

    Second transition, saved, d3 = 3: CON 1 + 1 = 2, shock and trauma 3 + 1 = 4.
    """
    gm, campaign = api_as("gm"), personas["campaign"]
    alice = make_character("player", stats=TOUGH)
    first = _transition(gm, campaign, characters=[alice], key="first", dice={alice: [*ONES, 2]})
    assert first.status_code == 201, first.content
    assert first.json()["characters"][0]["damage"]["shock"]["amount"] == 2  # d3 = 2, no extra yet
    before = _wounds(gm, alice)
    assert (before["long_term_con"], before["shock"], before["trauma"]) == (1, 2, 2)

    response = _transition(gm, campaign, characters=[alice], key="second", dice={alice: [2, 3, 1, 2, 3]})

    assert response.status_code == 201, response.content
    (result,) = response.json()["characters"]
    # CON 26 − 1 = 25 → target 10; 2 + 3 + 1 + 2 = 8 ≤ 10 saves with a margin of 2.
    assert result["save"]["target"] == 10 and result["save"]["success"] is True and result["save"]["margin"] == 2
    assert result["number"] == 2 and result["repeat_extra"] == 1
    assert result["damage"]["long-term CON damage"] == {
        "amount": 2, "terms": [["saved: long-term CON", 1], ["repeat-transition extra", 1],
                               ["long-term CON damage", 2]]}
    assert result["damage"]["shock"]["terms"] == [["saved: d3", 3], ["repeat-transition extra", 1], ["shock", 4]]
    assert result["dice"][-1] == {"sides": 3, "face": 3, "entered": True}
    after = _wounds(gm, alice)
    assert after["long_term_con"] == before["long_term_con"] + 2
    assert after["shock"] == before["shock"] + 4
    assert after["trauma"] == before["trauma"] + 4


def test_a_miracle_save_rolls_the_extra_dice_first(personas, api_as, make_character):
    """RULINGS 1 (impossible chances) with "Radiation Damage": CON 14 gives target −1 on 4d6, so the
    save rolls 9d6 against 9 (one die and +2 per step until success is possible)."""
    gm, campaign = api_as("gm"), personas["campaign"]
    bob = make_character("other_player")
    assert bob.con == 14
    response = _transition(gm, campaign, characters=[bob], key="miracle", category="2",
                           dice={bob: [1] * 9 + [3]})
    assert response.status_code == 201, response.content
    (result,) = response.json()["characters"]
    # One target and one dice count, the ones rolled; the breakdown says how −1 on 4d6 became them.
    assert (result["save"]["target"], result["save"]["dice"], len(result["save"]["faces"])) == (9, 9, 9)
    assert result["save"]["breakdown"][-2:] == [["impossible on 4d6: miracle rule, 5 more dice", 10],
                                                ["target on 9d6", 9]]
    odds = result["save"]["odds"]
    assert (odds["probability"], odds["dice"], odds["effective_target"]) == ("1/10077696", 9, 9)
    assert result["save"]["success"] is True  # nine ones: 9 ≤ 9
    assert result["damage"]["shock"]["amount"] == 3  # saved: the d3, whatever the category
    assert _wounds(gm, bob)["long_term_con"] == 1


def test_dice_by_slot_keep_the_damage_die_for_the_damage_under_miracle_dice(personas, api_as, make_character,
                                                                            client):
    """The save of CON 14 rolls 9d6. Typed by slot, four save dice and a damage d6 of 5: the app
    rolls the other five save dice and the damage die is the 5 typed (one list would have spent
    the 5 as the fifth save die). The same on the page: one box per save die, then the damage."""
    gm, campaign = api_as("gm"), personas["campaign"]
    bob = make_character("other_player")
    response = _transition(gm, campaign, characters=[bob], key="slots", category="2",
                           dice={bob: {"save": [6, 6, 6, 6], "damage": [5]}})
    assert response.status_code == 201, response.content
    (result,) = response.json()["characters"]
    assert len(result["save"]["faces"]) == 9 and result["save"]["faces"][:4] == [6, 6, 6, 6]
    assert result["save"]["success"] is False  # four sixes alone are past 9
    # Category 2: long-term CON d6, shock and trauma d6 + 6 (article, "Radiation Damage").
    assert result["damage"]["long-term CON damage"]["amount"] == 5
    assert result["damage"]["shock"]["amount"] == result["damage"]["trauma"]["amount"] == 11
    assert [d["entered"] for d in result["dice"]["save"]] == [True] * 4 + [False] * 5
    assert result["dice"]["damage"] == [{"sides": 6, "face": 5, "entered": True}]

    alice = make_character("player")  # CON 14 too: nine save boxes on the page
    client.force_login(personas["gm"])
    url = reverse("campaign-transition-new", args=[campaign.pk])
    page = client.get(url).content.decode()
    assert page.count(f'name="save_{alice.pk}"') == 9 and "CON save 9d6" in page
    posted = client.post(url, {"category": "2", "characters": [alice.pk], "idempotency_key": "page-slots",
                               f"save_{alice.pk}": ["6", "6", "6", "6", "6", "6", "6", "6", "6"],
                               f"damage_{alice.pk}": "4"})
    assert posted.status_code == 302, posted.content.decode()[:2000]
    batch = TransitionBatch.objects.get(idempotency_key="page-slots")
    (outcome,) = batch.response["characters"]
    assert outcome["save"]["faces"] == [6] * 9 and outcome["damage"]["shock"]["amount"] == 10


def test_preview_shows_each_characters_odds_and_changes_nothing(personas, api_as, make_character):
    """"Radiation Damage" with RULINGS 1: the save is a 4d6 CON check at target CON − 15.

    CON 26: target 11; 4d6 totals 4..11 can be rolled 1 + 4 + 10 + 20 + 35 + 56 + 80 + 104 = 310
    ways of 1296, so 155/648. CON 14: target −1, a miracle roll of 9d6 against 9: 1 in 6⁹.
    """
    gm, campaign = api_as("gm"), personas["campaign"]
    alice = make_character("player", stats=TOUGH)
    bob = make_character("other_player")
    before = _everything()

    response = _transition(gm, campaign, characters=[bob, alice], category="2", preview=True)

    assert response.status_code == 200, response.content
    by_id = {row["character"]: row for row in response.json()["characters"]}
    assert set(by_id) == {alice.pk, bob.pk}
    assert by_id[alice.pk]["target"] == 11 and by_id[alice.pk]["number"] == 1
    assert by_id[alice.pk]["odds"]["probability"] == "155/648"
    assert by_id[alice.pk]["odds"]["percent"] == pytest.approx(310 / 1296 * 100, abs=0.01)
    assert by_id[alice.pk]["category"] == "2" and by_id[alice.pk]["postponed"] is None
    assert by_id[alice.pk]["repeat_extra"] == 0
    assert by_id[bob.pk]["target"] == -1
    odds = by_id[bob.pk]["odds"]
    assert (odds["probability"], odds["dice"], odds["effective_target"]) == ("1/10077696", 9, 9)
    assert odds["percent"] == pytest.approx(100 / 6**9, abs=0.01)
    assert _everything() == before
    assert not TransitionBatch.objects.exists()


def test_the_same_key_twice_transitions_once_and_answers_the_same(personas, api_as, make_character):
    gm, campaign = api_as("gm"), personas["campaign"]
    alice = make_character("player", stats=TOUGH)
    first = _transition(gm, campaign, characters=[alice], key="double-click", dice={alice: [6, 6, 6, 6, 2]})
    assert first.status_code == 201, first.content
    after_first = _everything()

    again = _transition(gm, campaign, characters=[alice], key="double-click", dice={alice: [6, 6, 6, 6, 2]})

    assert again.status_code == 200, again.content
    assert again.json() == first.json()
    assert _everything() == after_first
    wounds = _wounds(gm, alice)
    # Category 1, first transition, d6 = 2: CON ⌈2 / 2⌉ = 1, shock and trauma 2, taken once.
    assert (wounds["transitions"], wounds["long_term_con"], wounds["shock"], wounds["trauma"]) == (1, 1, 2, 2)
    assert TransitionBatch.objects.count() == 1 and TransitionRecord.objects.count() == 1


def test_a_key_used_for_another_transition_is_refused(personas, api_as, make_character):
    gm, campaign = api_as("gm"), personas["campaign"]
    alice, bob = make_character("player", stats=TOUGH), make_character("other_player", stats=TOUGH)
    assert _transition(gm, campaign, characters=[alice], key="k", dice={alice: [6, 6, 6, 6, 2]}).status_code == 201
    after_first = _everything()
    for other in ({"characters": [bob]}, {"characters": [alice], "category": "2"}):
        response = _transition(gm, campaign, key="k", **{"characters": [alice], **other})
        assert response.status_code == 409 and "idempotency_key" in response.json()["errors"]
    assert _everything() == after_first


def _upgrades_in_effect(campaign, gm, payer):
    """Fund the three upgrades that allow delaying a transition; they take effect next adventure."""
    upgrades = ("enlarged_meitner_field", "limited_comms", "transition_threshold_detection")
    for upgrade in upgrades:
        pool = economy.macguffin_create(campaign=campaign, name=upgrade, limitation="", target=1, upgrade=upgrade,
                                        by=gm)
        economy.macguffin_contribute(macguffin=pool, character=payer, amount=1, idempotency_key=f"fund-{upgrade}",
                                     by=gm)
    economy.adventure_start(campaign=campaign, name="With the upgrades", base_xp=1, by=gm)
    assert economy.upgrades_in_effect(campaign) == set(upgrades)


def _delay(api, character, key="delay"):
    response = api.post(f"/api/v1/characters/{character.pk}/karma/",
                        {"kind": "delay_transition", "time_index": 2, "idempotency_key": key}, format="json")
    assert response.status_code == 201, response.content
    return KarmaEntry.objects.get(pk=response.json()["entry"]["id"])


def test_a_bought_delay_postpones_the_transition_once(personas, api_as, make_character):
    """RULINGS 4: Karma delays a Zener Transition (cost = the delay's time-chart index) once the three
    upgrades are in effect; the transition that meets the delay postpones it and consumes it."""
    gm, campaign = api_as("gm"), personas["campaign"]
    alice = make_character("player", stats=TOUGH)
    bob = make_character("other_player", stats=TOUGH)
    _upgrades_in_effect(campaign, personas["gm"], alice)
    entry = _delay(api_as("player"), alice)
    assert entry.amount == -2
    alice_before = _stored(alice)

    response = _transition(gm, campaign, characters=[alice, bob], key="jump",
                           dice={bob: [6, 6, 6, 6, 4]})

    assert response.status_code == 201, response.content
    results = {r["character"]: r for r in response.json()["characters"]}
    assert results[alice.pk]["karma_entry"] == entry.pk
    assert "postponed" in results[alice.pk]["postponed"] and "index 2" in results[alice.pk]["postponed"]
    assert "2 Karma" in results[alice.pk]["postponed"]
    assert "save" not in results[alice.pk]
    assert _stored(alice) == alice_before
    assert _wounds(gm, alice)["transitions"] == 0
    assert results[bob.pk]["postponed"] is None and results[bob.pk]["number"] == 1
    assert _wounds(gm, bob)["trauma"] == 4  # category 1, d6 = 4
    entry.refresh_from_db()
    assert TransitionRecord.objects.get(character=alice).delay_entry_id == entry.pk

    # The delay is spent: the next transition goes ahead.
    second = _transition(gm, campaign, characters=[alice], key="jump-2", dice={alice: [6, 6, 6, 6, 4]})
    assert second.status_code == 201, second.content
    (result,) = second.json()["characters"]
    assert result["postponed"] is None and result["number"] == 1
    wounds = _wounds(gm, alice)
    assert (wounds["transitions"], wounds["long_term_con"], wounds["trauma"]) == (1, 2, 4)


def test_undoing_a_postponed_transition_frees_the_delay_again(personas, api_as, make_character):
    gm, campaign = api_as("gm"), personas["campaign"]
    alice = make_character("player", stats=TOUGH)
    _upgrades_in_effect(campaign, personas["gm"], alice)
    entry = _delay(api_as("player"), alice)
    first = _transition(gm, campaign, characters=[alice], key="jump")
    assert first.json()["characters"][0]["karma_entry"] == entry.pk
    assert gm.post(f"/api/v1/transitions/{first.json()['id']}/undo/").status_code == 200

    again = _transition(gm, campaign, characters=[alice], key="jump-again")

    assert again.status_code == 201, again.content
    assert again.json()["characters"][0]["karma_entry"] == entry.pk
    assert _wounds(gm, alice)["transitions"] == 0


# --- Undo -----------------------------------------------------------------------------------
def test_undo_restores_the_exact_wounds_once(personas, api_as, make_character):
    gm, campaign = api_as("gm"), personas["campaign"]
    alice = make_character("player", stats=TOUGH)
    _three_saved_transitions(gm, campaign, alice)
    before = _stored(alice)
    batch_id = _transition(gm, campaign, characters=[alice], key="fourth", category="3B",
                           dice={alice: [6, 6, 6, 6, 3, 5, 6]}).json()["id"]
    # 3B, fourth transition: CON d6 + 3 = 6, shock and trauma 2d6 + 3 + 3 = 17.
    assert _wounds(gm, alice)["trauma"] == 6 + 17

    response = gm.post(f"/api/v1/transitions/{batch_id}/undo/")

    assert response.status_code == 200, response.content
    assert response.json() == {"id": batch_id, "undone": True}
    assert _stored(alice) == before
    assert _wounds(gm, alice)["transitions"] == 3
    assert TransitionBatch.objects.get(pk=batch_id).undone_at is not None
    assert LogEntry.objects.filter(action="transition.undo").count() == 1

    again = gm.post(f"/api/v1/transitions/{batch_id}/undo/")
    assert again.status_code == 409
    assert "already undone" in again.json()["errors"]["detail"][0]
    assert _stored(alice) == before


def test_undo_is_refused_once_the_character_was_wounded_since(personas, api_as, make_character):
    gm, campaign = api_as("gm"), personas["campaign"]
    alice = make_character("player", stats=TOUGH)
    batch_id = _transition(gm, campaign, characters=[alice], key="jump", dice={alice: [6, 6, 6, 6, 4]}).json()["id"]
    hurt = gm.post(f"/api/v1/characters/{alice.pk}/wounds/", {"trauma": 2, "reason": "a bad landing"},
                   format="json")
    assert hurt.status_code == 201, hurt.content
    now = _stored(alice)

    response = gm.post(f"/api/v1/transitions/{batch_id}/undo/")

    assert response.status_code == 409
    assert alice.name in response.json()["errors"]["detail"][0]
    assert _stored(alice) == now
    assert TransitionBatch.objects.get(pk=batch_id).undone_at is None


def test_undo_of_an_unknown_transition_is_404(personas, api_as):
    assert api_as("gm").post("/api/v1/transitions/987654/undo/").status_code == 404


# --- Personas -------------------------------------------------------------------------------
@pytest.mark.parametrize("persona, status", [("player", 403), ("other_player", 403), ("viewer", 403),
                                             ("outsider", 404), (None, 401)])
def test_only_the_gm_triggers_a_transition(personas, api_as, make_character, persona, status):
    alice = make_character("player", stats=TOUGH)
    before = _everything()
    response = _transition(api_as(persona), personas["campaign"], characters=[alice], key="k",
                           dice={alice: [6, 6, 6, 6, 4]})
    assert response.status_code == status
    assert _everything() == before
    preview = _transition(api_as(persona), personas["campaign"], characters=[alice], key="k", preview=True)
    assert preview.status_code == status


@pytest.mark.parametrize("persona, status", [("player", 403), ("other_player", 403), ("viewer", 403),
                                             ("outsider", 404), (None, 401)])
def test_only_the_gm_undoes_a_transition(personas, api_as, make_character, persona, status):
    alice = make_character("player", stats=TOUGH)
    batch_id = _transition(api_as("gm"), personas["campaign"], characters=[alice], key="k",
                           dice={alice: [6, 6, 6, 6, 4]}).json()["id"]
    before = _everything()
    assert api_as(persona).post(f"/api/v1/transitions/{batch_id}/undo/").status_code == status
    assert _everything() == before
    assert TransitionBatch.objects.get(pk=batch_id).undone_at is None


# --- Bad input ------------------------------------------------------------------------------
BAD = [
    ("unknown category", lambda w: {"category": "4", "characters": [w.alice.pk], "idempotency_key": "k"},
     400, "category"),
    ("no characters", lambda w: {"category": "1", "characters": [], "idempotency_key": "k"}, 400, "characters"),
    ("a character named twice", lambda w: {"category": "1", "characters": [w.alice.pk, w.alice.pk],
                                           "idempotency_key": "k"}, 400, "characters"),
    ("another campaign's character", lambda w: {"category": "1", "characters": [w.alice.pk, w.foreign.pk],
                                                "idempotency_key": "k"}, 400, "characters"),
    ("a draft", lambda w: {"category": "1", "characters": [w.alice.pk, w.draft.pk], "idempotency_key": "k"},
     409, "character"),
    ("a 7 on a d6", lambda w: {"category": "1", "characters": [w.alice.pk], "idempotency_key": "k",
                               "dice": {str(w.alice.pk): [6, 6, 6, 6, 7]}}, 400, "dice"),
    ("a 4 on the saved d3", lambda w: {"category": "1", "characters": [w.alice.pk], "idempotency_key": "k",
                                       "dice": {str(w.alice.pk): [1, 1, 1, 1, 4]}}, 400, "dice"),
    ("too many faces", lambda w: {"category": "1", "characters": [w.alice.pk], "idempotency_key": "k",
                                  "dice": {str(w.alice.pk): [6, 6, 6, 6, 4, 4]}}, 400, "dice"),
    ("more faces than any action", lambda w: {"category": "1", "characters": [w.alice.pk], "idempotency_key": "k",
                                              "dice": {str(w.alice.pk): [1] * 61}}, 400, "dice"),
    ("dice for someone not transitioning", lambda w: {"category": "1", "characters": [w.alice.pk],
                                                      "idempotency_key": "k", "dice": {str(w.bob.pk): [1]}},
     400, "dice"),
    ("a dice key that is no id", lambda w: {"category": "1", "characters": [w.alice.pk], "idempotency_key": "k",
                                            "dice": {"alice": [1]}}, 400, "dice"),
    ("a 7 in the save slot", lambda w: {"category": "1", "characters": [w.alice.pk], "idempotency_key": "k",
                                        "dice": {str(w.alice.pk): {"save": [7]}}}, 400, "dice"),
    ("an unknown dice slot", lambda w: {"category": "1", "characters": [w.alice.pk], "idempotency_key": "k",
                                        "dice": {str(w.alice.pk): {"luck": [1]}}}, 400, "dice"),
    ("a 4 on the saved d3, by slot", lambda w: {"category": "1", "characters": [w.alice.pk], "idempotency_key": "k",
                                                "dice": {str(w.alice.pk): {"save": [1, 1, 1, 1], "damage": [4]}}},
     400, "dice"),
    ("no idempotency key", lambda w: {"category": "1", "characters": [w.alice.pk]}, 400, "idempotency_key"),
    ("an unknown field", lambda w: {"category": "1", "characters": [w.alice.pk], "idempotency_key": "k",
                                    "surprise": True}, 400, "surprise"),
    ("characters not a list", lambda w: {"category": "1", "characters": w.alice.pk, "idempotency_key": "k"},
     400, "characters"),
]


@pytest.fixture
def cast(personas, make_character, elsewhere):
    from types import SimpleNamespace

    stranger = elsewhere.memberships.get(role="player").user
    return SimpleNamespace(
        alice=make_character("player", stats=TOUGH),
        bob=make_character("other_player", stats=TOUGH),
        draft=make_character("other_player", name="Draft", approve=False),
        foreign=make_character(stranger, campaign=elsewhere),
    )


@pytest.mark.parametrize("label, body, status, field", BAD, ids=[b[0] for b in BAD])
def test_bad_input_names_the_field_and_changes_nothing(personas, api_as, cast, label, body, status, field):
    before = _everything()
    response = api_as("gm").post(f"/api/v1/campaigns/{personas['campaign'].pk}/transitions/", body(cast),
                                 format="json")
    assert response.status_code == status, response.content
    assert field in response.json()["errors"], response.json()
    assert _everything() == before
