"""Therapies, Stimutabs and the hyperbaric chamber through the API.

Article: "Radiation Damage" (Anti-Radiation Therapies, efficacy lost with repeated usage),
"Other Drugs and Medications" (Stimutabs), "Other Medical Treatments" (the hyperbaric chamber).
RULINGS section 7. Expected numbers are worked out by hand from the article and the rulings.
"""

import pytest

from campaign.models import Event, Job, LogEntry
from campaign.testing import arranged
from characters.models import Character
from characters.wounds import track_from_json
from downtime import services
from downtime.models import Therapy, Treatment
from downtime.tests.helpers import all_wounds, stored_wounds
from rulebook.tests.scripted import ScriptedRng
from rulebook.therapies import Therapy as RulesTherapy
from rulebook.therapies import apply_therapy, roll_therapy

pytestmark = pytest.mark.django_db

#: A CON whose Zener save (target CON − 15 = 9 on 4d6) needs no miracle dice.
TOUGH = {"CON": 24}
#: A failed save (24 > 9), then category 3A's 2d6 = 12: 12 long-term CON, ⌈12 / 2⌉ = 6 shock and trauma.
FAILED_3A = [6, 6, 6, 6, 6, 6]


_stored = stored_wounds


def _everything() -> dict:
    """What a treatment can change, to show that a refused request changed none of it."""
    return {
        "wounds": all_wounds(),
        "therapies": list(Therapy.objects.order_by("pk").values_list("pk", "name")),
        "treatments": list(Treatment.objects.order_by("pk").values_list("pk", "undone_at")),
        "log": LogEntry.objects.count(),
        "events": Event.objects.count(),
    }


def _wounds(api, character) -> dict:
    response = api.get(f"/api/v1/characters/{character.pk}/wounds/")
    assert response.status_code == 200, response.content
    return response.json()


def _exposed(api, campaign, character, *, key="exposure"):
    """Put the character through a failed category 3A transition: 12 long-term CON loss."""
    response = api.post(f"/api/v1/campaigns/{campaign.pk}/transitions/",
                        {"category": "3A", "characters": [character.pk], "idempotency_key": key,
                         "dice": {str(character.pk): FAILED_3A}}, format="json")
    assert response.status_code == 201, response.content
    assert _wounds(api, character)["long_term_con"] == 12


def _therapy(api, campaign, **fields):
    body = {"name": "Radex", "con_healed": 2, "extra_reduction": "d3", "track_steps_back": "d3", "shock": "d6",
            "trauma": "d3", **fields}
    response = api.post(f"/api/v1/campaigns/{campaign.pk}/therapies/", body, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def _treat(api, character, **body):
    return api.post(f"/api/v1/characters/{character.pk}/treatments/", body, format="json")


def _downtime(api, campaign, **body):
    response = api.post(f"/api/v1/campaigns/{campaign.pk}/downtime/", body, format="json")
    assert response.status_code == 202, response.content
    job_id = response.json()["job"]
    services.downtime_run(job_id=job_id)  # what the worker does
    return job_id


def _report(api, job_id, character) -> dict:
    job = api.get(f"/api/v1/jobs/{job_id}/").json()
    assert job["status"] == "done", job
    return next(entry for entry in job["report"] if entry["character"] == character.pk)


def _terms(breakdown) -> dict:
    """The breakdown's terms by label; repeated labels ("lowered by earlier uses") as lists."""
    out: dict = {}
    for label, value in breakdown:
        out.setdefault(label, []).append(value)
    return {label: values[0] if len(values) == 1 else values for label, values in out.items()}


# --- Defining therapies ---------------------------------------------------------------------
def test_the_gm_defines_a_therapy_and_players_see_only_its_name(personas, api_as):
    """"Anti-Radiation Therapies": the GM controls them; their dice stay behind the GM's screen."""
    campaign = personas["campaign"]
    made = _therapy(api_as("gm"), campaign, name="Prussian blue", extra_reduction="2d6", efficacy_loss=1)
    assert made == {"id": made["id"], "name": "Prussian blue", "con_healed": 2, "extra_reduction": "2d6",
                    "track_steps_back": "d3", "shock": "d6", "trauma": "d3", "efficacy_loss": 1}
    assert LogEntry.objects.filter(action="therapy.define").count() == 1

    url = f"/api/v1/campaigns/{campaign.pk}/therapies/"
    assert api_as("gm").get(url).json() == [made]
    for persona in ("player", "other_player", "viewer"):
        response = api_as(persona).get(url)
        assert response.status_code == 200
        assert response.json() == [{"id": made["id"], "name": "Prussian blue"}]
    assert api_as("outsider").get(url).status_code == 404
    assert api_as(None).get(url).status_code == 401


def test_a_therapy_with_defaults_takes_the_articles_mildest_dice(personas, api_as):
    response = api_as("gm").post(f"/api/v1/campaigns/{personas['campaign'].pk}/therapies/", {"name": "Iodide"},
                                 format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["con_healed"], body["extra_reduction"], body["track_steps_back"], body["shock"], body["trauma"],
            body["efficacy_loss"]) == (1, "d3", "d3", "d6", "d3", 0)


@pytest.mark.parametrize("fields, field", [
    ({"extra_reduction": "d7"}, "extra_reduction"),  # only d3 and d6 dice
    ({"shock": "5d6"}, "shock"),  # the article: shock from d6 to 3d6
    ({"shock": "d3"}, "shock"),  # below d6
    ({"trauma": "3d6"}, "trauma"),  # the article: trauma d3 to 2d6
    ({"track_steps_back": "4d6"}, "track_steps_back"),
    ({"con_healed": 4}, "con_healed"),  # 1, 2 or 3 points (0 allowed: no CON healed)
    ({"efficacy_loss": -1}, "efficacy_loss"),
    ({"name": "  "}, "name"),
    ({"name": "x", "dose": 2}, "dose"),
])
def test_bad_therapy_dice_are_400_and_define_nothing(personas, api_as, fields, field):
    """"Anti-Radiation Therapies": d3 to 3d6 extra reduction and steps, d6 to 3d6 shock, d3 to 2d6 trauma."""
    body = {"name": "Bad", **fields}
    before = _everything()
    response = api_as("gm").post(f"/api/v1/campaigns/{personas['campaign'].pk}/therapies/", body, format="json")
    assert response.status_code == 400, response.content
    assert field in response.json()["errors"], response.json()
    assert _everything() == before


def test_a_bad_value_is_blamed_on_its_own_field(personas, api_as):
    response = api_as("gm").post(f"/api/v1/campaigns/{personas['campaign'].pk}/therapies/",
                                 {"name": "Typo", "trauma": "shock"}, format="json")
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["trauma"]


@pytest.mark.parametrize("persona, status", [("player", 403), ("other_player", 403), ("viewer", 403),
                                             ("outsider", 404), (None, 401)])
def test_only_the_gm_defines_therapies(personas, api_as, persona, status):
    before = _everything()
    response = api_as(persona).post(f"/api/v1/campaigns/{personas['campaign'].pk}/therapies/", {"name": "Mine"},
                                    format="json")
    assert response.status_code == status
    assert _everything() == before


# --- A therapy given at once ----------------------------------------------------------------
def test_a_therapy_heals_con_moves_the_track_back_cuts_the_extra_and_hurts(personas, api_as, make_character):
    """"Anti-Radiation Therapies" (RULINGS 7): a therapy heals long-term CON at once, moves the track
    back toward its first steps, cuts the repeat-transition extra and adds shock and trauma.

    12 long-term CON from a failed 3A transition; 24 h of comfortable rest complete the track's
    first step ("24 hours after first exposure ... up to 6 points"): 6 left, step 1 (the 4-point
    day). Radex (2 CON, d3, d3, d6, d3) with dice 2, 1, 4, 3 and the 4d6 END delay 1, 2, 3, 4:
    CON 6 − 2 = 4; extra removed 2; the track goes back 1 step to the 6-point day; shock +4,
    trauma +3. The next transition (the second) has its +1 extra cut to 0.
    """
    gm, campaign = api_as("gm"), personas["campaign"]
    alice = make_character("player", stats=TOUGH)
    _exposed(gm, campaign, alice)
    _downtime(gm, campaign, hours=24, idempotency_key="rest")
    before = _wounds(gm, alice)
    assert before["long_term_con"] == 6 and before["radiation"]["step"] == 1
    radex = _therapy(gm, campaign)
    preview = gm.post(f"/api/v1/campaigns/{campaign.pk}/transitions/",
                      {"category": "1", "characters": [alice.pk], "preview": True}, format="json").json()
    assert preview["characters"][0]["repeat_extra"] == 1

    dice = [2, 1, 4, 3, 1, 2, 3, 4]
    response = _treat(gm, alice, kind="therapy", therapy=radex["id"], dice=dice, idempotency_key="radex-1")

    assert response.status_code == 201, response.content
    body = response.json()
    assert body["character"] == alice.pk and body["kind"] == "therapy" and body["therapy"] == radex["id"]
    outcome = body["outcome"]
    assert outcome["name"] == "Radex" and outcome["earlier_uses"] == 0
    terms = _terms(outcome["breakdown"])
    assert terms["long-term loss healed at once"] == 2
    assert terms["repeat-transition extra removed"] == 2
    assert terms["recovery-track steps back"] == 1
    assert (terms["shock suffered"], terms["trauma suffered"], terms["END lost until the delay is over"]) == (4, 3, 0)
    assert [d["face"] for d in outcome["dice"]] == dice and all(d["entered"] for d in outcome["dice"])
    # The same therapy, rolled by the rulebook with the same dice, on the track as it stood.
    rules = apply_therapy(track_from_json(before["radiation"]),
                          roll_therapy(RulesTherapy(name="Radex", con_healed=2), rng=ScriptedRng(*dice)))
    assert outcome["breakdown"] == [[label, value] for label, value in rules.breakdown]

    after = _wounds(gm, alice)
    assert after["long_term_con"] == 4
    assert after["radiation"]["step"] == 0 and after["radiation"]["step_hours"] == 0
    assert after["radiation"]["extra_reduction"] == 2
    assert after["shock"] == before["shock"] + 4
    assert after["trauma"] == before["trauma"] + 3
    assert after["transitions"] == 1
    preview = gm.post(f"/api/v1/campaigns/{campaign.pk}/transitions/",
                      {"category": "1", "characters": [alice.pk], "preview": True}, format="json").json()
    assert preview["characters"][0]["repeat_extra"] == 0
    assert LogEntry.objects.filter(action="treatment.give").count() == 1


def test_shock_and_trauma_taken_as_end_come_off_both_and_cost_twice_the_end(personas, api_as, make_character):
    """"Anti-Radiation Therapies": "up to 1/2 the Shock and Trauma damage inflicted as END damage ...
    if you reduce trauma by 4 you must also reduce shock by 4, suffering 8 END loss".

    Shock 2d6 = 3 + 3 = 6, trauma d6 = 4: at most min(6 // 2, 4 // 2) = 2 as END. Taking 2: shock
    +4, trauma +2, 4 END held back for the 4d6 = 1 + 1 + 1 + 2 = 5 hours.
    """
    gm, campaign = api_as("gm"), personas["campaign"]
    alice = make_character("player", stats=TOUGH)
    _exposed(gm, campaign, alice)
    harsh = _therapy(gm, campaign, name="Harsh", con_healed=1, shock="2d6", trauma="d6")
    before = _wounds(gm, alice)
    dice = [1, 1, 3, 3, 4, 1, 1, 1, 2]

    too_much = _treat(gm, alice, kind="therapy", therapy=harsh["id"], as_end=3, dice=dice, idempotency_key="h0")
    assert too_much.status_code == 400 and "as_end" in too_much.json()["errors"]
    assert _wounds(gm, alice) == before

    response = _treat(gm, alice, kind="therapy", therapy=harsh["id"], as_end=2, dice=dice, idempotency_key="h1")

    assert response.status_code == 201, response.content
    outcome = response.json()["outcome"]
    terms = _terms(outcome["breakdown"])
    assert (terms["shock suffered"], terms["trauma suffered"], terms["END lost until the delay is over"]) == (4, 2, 4)
    assert outcome["end_delay_hours"] == 5
    after = _wounds(gm, alice)
    assert after["shock"] == before["shock"] + 4 and after["trauma"] == before["trauma"] + 2
    assert after["end_held"] == 4 and after["end_spent"] == before["end_spent"]
    assert after["long_term_con"] == 11


def test_a_therapy_loses_efficacy_with_each_earlier_use(personas, api_as, make_character):
    """"Radiation Damage": "Some anti-radiation therapies reduce in efficacy with repeated usage."
    Reading (docs/rules.md): each benefit loses efficacy_loss per earlier use, never below 0.

    With efficacy loss 1, the second dose heals 1 CON instead of 2, removes 1 extra instead of
    2 and moves the track back 1 step less, on the same dice.
    """
    gm, campaign = api_as("gm"), personas["campaign"]
    alice = make_character("player", stats=TOUGH)
    _exposed(gm, campaign, alice)
    fading = _therapy(gm, campaign, name="Fading", efficacy_loss=1)
    dice = [2, 2, 1, 1, 1, 1, 1, 1]  # extra 2, steps 2, shock 1, trauma 1, END delay 4

    first = _treat(gm, alice, kind="therapy", therapy=fading["id"], dice=dice, idempotency_key="dose-1")
    second = _treat(gm, alice, kind="therapy", therapy=fading["id"], dice=dice, idempotency_key="dose-2")

    assert first.status_code == second.status_code == 201, (first.content, second.content)
    one, two = first.json()["outcome"], second.json()["outcome"]
    assert (one["earlier_uses"], two["earlier_uses"]) == (0, 1)
    t1, t2 = _terms(one["breakdown"]), _terms(two["breakdown"])
    assert t1["lowered by earlier uses"] == [0, 0, 0]
    assert t2["lowered by earlier uses"] == [-1, -1, -1]
    assert t2["each benefit lowered by (never below 0)"] == 1
    assert (t1["long-term loss healed at once"], t2["long-term loss healed at once"]) == (2, 1)
    assert (t1["repeat-transition extra removed"], t2["repeat-transition extra removed"]) == (2, 1)
    assert t1["recovery-track steps rolled"] == t2["recovery-track steps rolled"] == 2
    # Shock and trauma do not weaken.
    assert t1["shock suffered"] == t2["shock suffered"] == 1
    wounds = _wounds(gm, alice)
    assert wounds["long_term_con"] == 12 - 2 - 1
    assert wounds["radiation"]["extra_reduction"] == 2 + 1


def test_an_undone_dose_does_not_count_as_an_earlier_use(personas, api_as, make_character):
    gm, campaign = api_as("gm"), personas["campaign"]
    alice = make_character("player", stats=TOUGH)
    _exposed(gm, campaign, alice)
    fading = _therapy(gm, campaign, name="Fading", efficacy_loss=1)
    dice = [2, 2, 1, 1, 1, 1, 1, 1]
    first = _treat(gm, alice, kind="therapy", therapy=fading["id"], dice=dice, idempotency_key="dose-1").json()
    assert gm.post(f"/api/v1/treatments/{first['id']}/undo/").status_code == 200
    again = _treat(gm, alice, kind="therapy", therapy=fading["id"], dice=dice, idempotency_key="dose-2").json()
    assert again["outcome"]["earlier_uses"] == 0
    assert _wounds(gm, alice)["long_term_con"] == 10


def test_a_therapy_given_during_a_downtime_counts_as_an_earlier_use(personas, api_as, make_character):
    """"Radiation Damage" (efficacy with repeated usage): a dose given by a downtime is a use too.

    The downtime's dice are the therapy's first (extra 2, steps 2, shock 1, trauma 1, END delay
    1, 1, 1, 1); 12 long-term CON − 2 = 10 before any track step (the 24 h are not over).
    Players see the treatment's name, not its dice.
    """
    gm, campaign = api_as("gm"), personas["campaign"]
    alice = make_character("player", stats=TOUGH)
    _exposed(gm, campaign, alice)
    fading = _therapy(gm, campaign, name="Fading", efficacy_loss=1)
    job_id = _downtime(gm, campaign, hours=1, rest="awake", idempotency_key="clinic",
                       therapies=[{"character": alice.pk, "kind": "therapy", "therapy": fading["id"]}],
                       dice={str(alice.pk): [2, 2, 1, 1, 1, 1, 1, 1]})
    report = _report(gm, job_id, alice)
    (given,) = report["treatments"]
    assert given["name"] == "Fading" and given["earlier_uses"] == 0
    assert _terms(given["breakdown"])["long-term loss healed at once"] == 2
    assert report["after"]["long_term_con"] == 10 == _wounds(gm, alice)["long_term_con"]
    shown = _report(api_as("player"), job_id, alice)
    assert shown["treatments"] == [{"kind": "therapy", "name": "Fading"}] and shown["dice"] == []

    later = _treat(gm, alice, kind="therapy", therapy=fading["id"], dice=[2, 2, 1, 1, 1, 1, 1, 1],
                   idempotency_key="later").json()
    assert later["outcome"]["earlier_uses"] == 1
    assert _terms(later["outcome"]["breakdown"])["long-term loss healed at once"] == 1


# --- Stimutabs ------------------------------------------------------------------------------
def test_stimutabs_boost_then_the_shakes_then_nothing(personas, api_as, make_character):
    """"Other Drugs and Medications": "Stimutabs provide +1d3 STR for 1d3+3 hours ... when the drug
    wears off, 1d6+6 points of damage divided evenly between NIM, DEX, and ACC ... for 60 x 1d6/4
    minutes."

    Dice 2, 1, 3, 2: STR +2 for 1 + 3 = 4 h; then 3 + 6 = 9 points, 3 each off NIM, DEX and
    ACC, for 60 × 2 / 4 = 30 minutes.
    """
    gm, campaign = api_as("gm"), personas["campaign"]
    alice = make_character("player")
    response = _treat(gm, alice, kind="stimutabs", dice=[2, 1, 3, 2], idempotency_key="dose")

    assert response.status_code == 201, response.content
    assert response.json()["outcome"]["name"] == "Stimutabs"
    (boost,) = Character.objects.get(pk=alice.pk).wounds_detail["effects"]
    assert boost["phase"] == "boost" and boost["stat_changes"] == {"STR": 2}
    assert boost["minutes_left"] == 4 * 60 and boost["hidden"] is True and boost["end_per_use"] == 1
    shakes = boost["next_phase"]
    assert shakes["phase"] == "shakes" and shakes["stat_changes"] == {"NIM": -3, "DEX": -3, "ACC": -3}
    assert shakes["minutes_left"] == 30

    first = _downtime(gm, campaign, hours=4, rest="awake", idempotency_key="wait-4h")
    (now,) = Character.objects.get(pk=alice.pk).wounds_detail["effects"]
    assert now["phase"] == "shakes" and now["minutes_left"] == 30
    assert now["stat_changes"] == {"NIM": -3, "DEX": -3, "ACC": -3}
    notes = _report(gm, first, alice)["notes"]
    assert [n["when"] for n in notes] == ["after 4 h"]
    assert "wear off" in notes[0]["text"] and "shakes begin" in notes[0]["text"]
    assert "NIM −3, DEX −3, ACC −3" in notes[0]["text"]

    second = _downtime(gm, campaign, hours=1, rest="awake", idempotency_key="wait-1h")
    assert Character.objects.get(pk=alice.pk).wounds_detail["effects"] == []
    notes = _report(gm, second, alice)["notes"]
    assert [n["when"] for n in notes] == ["after 30 min"]
    assert "shakes from Stimutabs are over" in notes[0]["text"]


def test_one_downtime_runs_the_boost_and_the_shakes_through(personas, api_as, make_character):
    """"Other Drugs and Medications": 5 h covers the 4 h boost and the 30 minutes of shakes."""
    gm, campaign = api_as("gm"), personas["campaign"]
    alice = make_character("player")
    assert _treat(gm, alice, kind="stimutabs", dice=[2, 1, 3, 2], idempotency_key="dose").status_code == 201
    job_id = _downtime(gm, campaign, hours=5, idempotency_key="five-hours")
    assert Character.objects.get(pk=alice.pk).wounds_detail["effects"] == []
    notes = _report(gm, job_id, alice)["notes"]
    assert [n["when"] for n in notes] == ["after 4 h", "after 4 h 30 min"]
    assert "shakes begin" in notes[0]["text"] and "are over" in notes[1]["text"]


def test_players_do_not_learn_the_hidden_stimutabs_duration_from_a_later_downtime(personas, api_as, make_character):
    """"Other Drugs and Medications": "the players should know the first result and not the second"."""
    gm, campaign = api_as("gm"), personas["campaign"]
    alice = make_character("player")
    assert _treat(gm, alice, kind="stimutabs", dice=[2, 1, 3, 2], idempotency_key="dose").status_code == 201
    job_id = _downtime(gm, campaign, hours=4, rest="awake", idempotency_key="wait-4h")
    shown = _report(api_as("player"), job_id, alice)
    assert not [n for n in shown["notes"] if "wear off" in n["text"]], shown["notes"]


def test_stimutabs_faces_must_fit_and_be_used(personas, api_as, make_character):
    gm = api_as("gm")
    alice = make_character("player")
    before = _everything()
    for dice in ([4, 1, 3, 2], [2, 1, 3, 2, 1]):  # a 4 on the d3; a fifth face no die asks for
        response = _treat(gm, alice, kind="stimutabs", dice=dice, idempotency_key=f"bad-{len(dice)}-{dice[0]}")
        assert response.status_code == 400 and "dice" in response.json()["errors"], response.content
    assert _everything() == before


# --- The hyperbaric chamber -----------------------------------------------------------------
def test_the_hyperbaric_chamber_heals_the_first_day_three_fold(personas, api_as, wounded):
    """"Other Medical Treatments": a hyperbaric chamber "can increase recovery from trauma ... 3-fold".
    RULINGS 7: the first day of rest heals ⌈trauma / 3⌉ (+ healing ranks).

    Trauma 10, 24 h of comfortable rest: ⌈10 / 3⌉ = 4 without the chamber (6 left); 4 × 3 = 12,
    capped at the 10 there are, in it (0 left).
    """
    gm, campaign = api_as("gm"), personas["campaign"]
    alice = wounded("player", trauma=10)
    bob = wounded("other_player", trauma=10)

    job_id = _downtime(gm, campaign, hours=24, idempotency_key="chamber",
                       therapies=[{"character": alice.pk, "kind": "hyperbaric"}])

    assert _wounds(gm, alice)["trauma"] == 0
    assert _wounds(gm, bob)["trauma"] == 6
    report = _report(gm, job_id, alice)
    assert report["treatments"] == [{"kind": "hyperbaric", "name": "Hyperbaric chamber",
                                     "breakdown": [["trauma and stat recovery ×", 3]]}]
    (heal,) = [h for h in report["healed"] if h["kind"] == "trauma"]
    assert heal["amount"] == 10 and heal["when"] == "after 1 d"
    assert ["hyperbaric chamber ×", "3"] in heal["terms"]
    assert [h["amount"] for h in _report(gm, job_id, bob)["healed"] if h["kind"] == "trauma"] == [4]
    assert Treatment.objects.filter(kind="hyperbaric", character=alice, job_id=job_id).count() == 1


def test_the_hyperbaric_chamber_heals_a_further_day_three_fold(personas, api_as, wounded):
    """RULINGS 7: after the first day, trauma heals 1 + max(healing ranks − 1, 0) a day; in the chamber 3.

    Trauma 10 → 6 after a first day for both; the next day heals 1 out of the chamber (5 left)
    and 3 in it (3 left).
    """
    gm, campaign = api_as("gm"), personas["campaign"]
    alice = wounded("player", trauma=10)
    bob = wounded("other_player", trauma=10)
    _downtime(gm, campaign, hours=24, idempotency_key="day-1")
    assert _wounds(gm, alice)["trauma"] == _wounds(gm, bob)["trauma"] == 6

    _downtime(gm, campaign, hours=24, idempotency_key="day-2",
              therapies=[{"character": alice.pk, "kind": "hyperbaric"}])

    assert _wounds(gm, alice)["trauma"] == 3
    assert _wounds(gm, bob)["trauma"] == 5


def test_the_hyperbaric_chamber_is_given_only_during_a_downtime(personas, api_as, wounded):
    alice = wounded("player", trauma=4)
    before = _everything()
    response = _treat(api_as("gm"), alice, kind="hyperbaric", idempotency_key="k")
    assert response.status_code == 400 and "kind" in response.json()["errors"]
    assert _everything() == before


# --- Undo, idempotency, personas, bad input -------------------------------------------------
def test_treatment_undo_restores_the_exact_wounds_once(personas, api_as, make_character):
    gm, campaign = api_as("gm"), personas["campaign"]
    alice = make_character("player", stats=TOUGH)
    _exposed(gm, campaign, alice)
    radex = _therapy(gm, campaign)
    before = _stored(alice)
    treatment = _treat(gm, alice, kind="therapy", therapy=radex["id"], dice=[2, 1, 4, 3, 1, 2, 3, 4],
                       idempotency_key="radex").json()
    assert _stored(alice) != before

    response = gm.post(f"/api/v1/treatments/{treatment['id']}/undo/")

    assert response.status_code == 200, response.content
    assert response.json()["id"] == treatment["id"] and response.json()["undone_at"] is not None
    assert _stored(alice) == before
    assert LogEntry.objects.filter(action="treatment.undo").count() == 1
    again = gm.post(f"/api/v1/treatments/{treatment['id']}/undo/")
    assert again.status_code == 409 and "already undone" in again.json()["errors"]["detail"][0]
    assert _stored(alice) == before


def test_treatment_undo_is_refused_once_the_character_changed(personas, api_as, make_character):
    gm = api_as("gm")
    alice = make_character("player")
    treatment = _treat(gm, alice, kind="stimutabs", dice=[2, 1, 3, 2], idempotency_key="dose").json()
    assert gm.post(f"/api/v1/characters/{alice.pk}/wounds/", {"shock": 2, "reason": "a brawl"},
                   format="json").status_code == 201
    now = _stored(alice)
    response = gm.post(f"/api/v1/treatments/{treatment['id']}/undo/")
    assert response.status_code == 409 and alice.name in response.json()["errors"]["detail"][0]
    assert _stored(alice) == now


def test_a_treatment_given_by_a_downtime_is_undone_with_the_downtime(personas, api_as, wounded):
    gm, campaign = api_as("gm"), personas["campaign"]
    alice = wounded("player", trauma=6)
    job_id = _downtime(gm, campaign, hours=24, idempotency_key="chamber",
                       therapies=[{"character": alice.pk, "kind": "hyperbaric"}])
    treatment = Treatment.objects.get(job_id=job_id)
    response = gm.post(f"/api/v1/treatments/{treatment.pk}/undo/")
    assert response.status_code == 409 and "downtime" in response.json()["errors"]["detail"][0]
    assert Job.objects.get(pk=job_id).undone_at is None


def test_the_same_key_gives_one_treatment(personas, api_as, make_character):
    gm, campaign = api_as("gm"), personas["campaign"]
    alice = make_character("player", stats=TOUGH)
    _exposed(gm, campaign, alice)
    radex = _therapy(gm, campaign)
    body = {"kind": "therapy", "therapy": radex["id"], "dice": [2, 1, 4, 3, 1, 2, 3, 4], "idempotency_key": "once"}
    first = _treat(gm, alice, **body)
    assert first.status_code == 201, first.content
    after_first = _everything()

    again = _treat(gm, alice, **body)

    assert again.status_code == 200, again.content
    assert again.json() == first.json()
    assert _everything() == after_first
    assert _wounds(gm, alice)["long_term_con"] == 10
    assert Treatment.objects.count() == 1


@pytest.mark.parametrize("persona, status", [("player", 403), ("other_player", 403), ("viewer", 403),
                                             ("outsider", 404), (None, 401)])
def test_only_the_gm_gives_and_undoes_treatments(personas, api_as, make_character, persona, status):
    gm, campaign = api_as("gm"), personas["campaign"]
    alice = make_character("player", stats=TOUGH)
    _exposed(gm, campaign, alice)
    radex = _therapy(gm, campaign)
    given = _treat(gm, alice, kind="therapy", therapy=radex["id"], dice=[2, 1, 4, 3, 1, 2, 3, 4],
                   idempotency_key="gm").json()
    before = _everything()

    client = api_as(persona)
    assert _treat(client, alice, kind="stimutabs", dice=[2, 1, 3, 2], idempotency_key="p").status_code == status
    assert _treat(client, alice, kind="therapy", therapy=radex["id"], idempotency_key="p2").status_code == status
    assert client.post(f"/api/v1/treatments/{given['id']}/undo/").status_code == status

    assert _everything() == before


@pytest.mark.parametrize("body, status, field", [
    ({"kind": "therapy", "idempotency_key": "k"}, 400, "therapy"),
    ({"kind": "therapy", "therapy": 987654, "idempotency_key": "k"}, 400, "therapy"),
    ({"kind": "surgery", "idempotency_key": "k"}, 400, "kind"),
    ({"kind": "stimutabs"}, 400, "idempotency_key"),
    ({"kind": "stimutabs", "idempotency_key": "k", "dice": [2, "x"]}, 400, "dice"),
    ({"kind": "stimutabs", "idempotency_key": "k", "as_end": -1}, 400, "as_end"),
    ({"kind": "stimutabs", "idempotency_key": "k", "when": "now"}, 400, "when"),
])
def test_bad_treatment_input_names_the_field_and_changes_nothing(personas, api_as, make_character, body, status,
                                                                 field):
    alice = make_character("player")
    before = _everything()
    response = _treat(api_as("gm"), alice, **body)
    assert response.status_code == status, response.content
    assert field in response.json()["errors"], response.json()
    assert _everything() == before


def test_another_campaigns_therapy_cannot_be_given(personas, api_as, make_character, elsewhere):
    from economy.tests.conftest import campaign_gm

    with arranged(elsewhere):
        foreign = Therapy.objects.create(campaign=elsewhere, name="Theirs", created_by=campaign_gm(elsewhere))
    alice = make_character("player")
    before = _everything()
    response = _treat(api_as("gm"), alice, kind="therapy", therapy=foreign.pk, idempotency_key="k")
    assert response.status_code == 400 and "therapy" in response.json()["errors"]
    assert _everything() == before


def test_a_draft_takes_no_treatment(personas, api_as, make_character):
    draft = make_character("player", approve=False)
    before = _everything()
    response = _treat(api_as("gm"), draft, kind="stimutabs", dice=[2, 1, 3, 2], idempotency_key="k")
    assert response.status_code == 409 and "character" in response.json()["errors"]
    assert _everything() == before


def test_a_key_used_for_another_treatment_is_refused(personas, api_as, make_character):
    """Replaying a key must not silently treat nobody: another character or kind is a 409."""
    alice, bob = make_character("player"), make_character("other_player")
    gm = api_as("gm")
    first = gm.post(f"/api/v1/characters/{alice.pk}/treatments/",
                    {"kind": "stimutabs", "idempotency_key": "dose-1", "dice": [1, 1, 1, 1]}, format="json")
    assert first.status_code == 201
    again = gm.post(f"/api/v1/characters/{alice.pk}/treatments/",
                    {"kind": "stimutabs", "idempotency_key": "dose-1", "dice": [1, 1, 1, 1]}, format="json")
    assert again.status_code == 200 and again.json()["id"] == first.json()["id"]
    other = gm.post(f"/api/v1/characters/{bob.pk}/treatments/",
                    {"kind": "stimutabs", "idempotency_key": "dose-1"}, format="json")
    assert other.status_code == 409 and "idempotency_key" in other.json()["errors"]
    bob.refresh_from_db()
    assert not (bob.wounds_detail or {}).get("effects")


def test_stats_in_play_carry_the_drug_and_the_radiation_loss(personas, api_as, make_character):
    """"Other Drugs and Medications" and "Radiation Damage": the sheet's stats in play follow them."""
    from characters.models import Character
    from characters.selectors import character_with_sheet
    from characters.sheet import current_stats, stat_terms

    alice = make_character("player")
    gm = api_as("gm")
    before = current_stats(character_with_sheet(character_id=alice.pk))
    response = gm.post(f"/api/v1/characters/{alice.pk}/treatments/",
                       {"kind": "stimutabs", "idempotency_key": "pill", "dice": [3, 2, 6, 4]}, format="json")
    assert response.status_code == 201
    transition = gm.post(f"/api/v1/campaigns/{personas['campaign'].pk}/transitions/",
                         {"category": "2", "characters": [alice.pk], "idempotency_key": "jump",
                          # CON 14 − 15 is a miracle save: 9d6 against 9; then the category's d6.
                          "dice": {str(alice.pk): [6] * 9 + [4]}}, format="json")
    assert transition.status_code == 201, transition.json()
    alice = character_with_sheet(character_id=alice.pk)
    now = current_stats(alice)
    assert now["STR"] == before["STR"] + 3  # the d3 boost came up 3
    assert now["CON"] == before["CON"] - 4  # a failed category-2 save: d6 (4) long-term CON
    assert ("Stimutabs (boost)", 3) in stat_terms(alice)["STR"]
    assert Character.objects.get(pk=alice.pk).long_term_con_damage == 4
