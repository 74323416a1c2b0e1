"""Downtime through the API: preview equals commit equals the rulebook; personas; bad input."""

import pytest

from campaign.models import Job, LogEntry
from characters.models import Character
from characters.wounds import healing_state
from downtime import services
from rulebook.recovery import advance
from rulebook.tests.scripted import ScriptedRng

pytestmark = pytest.mark.django_db


def _downtime(api, campaign, **body):
    return api.post(f"/api/v1/campaigns/{campaign.pk}/downtime/", body, format="json")


def test_a_day_of_comfortable_rest_heals_as_the_rulebook_says(personas, api_as, wounded):
    """Issue "Done when": trauma 4, shock 3, 5 END spent and 1 RES damage, 24 h comfortable rest."""
    campaign = personas["campaign"]
    alice = wounded("player", trauma=4, shock=3, end=5, stat_damage={"RES": 1})
    start = healing_state(alice)
    gm = api_as("gm")
    # The GM rolls the quick END d6 at the table: a 4.
    body = {"hours": 24, "rest": "comfortable", "dice": {str(alice.pk): [4]}, "idempotency_key": "day-1"}
    preview = _downtime(gm, campaign, **body, preview=True)
    assert preview.status_code == 200, preview.json()
    assert healing_state(Character.objects.get(pk=alice.pk)) == start  # the preview changed nothing
    assert not Job.objects.exists()

    expected, report = advance(start, hours=24, rest="comfortable", con=alice.con, rng=ScriptedRng(4))
    (entry,) = preview.json()["report"]
    assert entry["after"] == {"trauma": expected.trauma, "shock": expected.shock, "end_spent": expected.end_spent,
                              "stat_damage": expected.stat_damage, "long_term_con": 0}
    assert [h["amount"] for h in entry["healed"]] == [h.amount for h in report.healed]

    response = _downtime(gm, campaign, **body)
    assert response.status_code == 202, response.json()
    job = Job.objects.get(pk=response.json()["job"])
    services.downtime_run(job_id=job.pk)  # what the worker does (the worker tests run it for real)
    assert healing_state(Character.objects.get(pk=alice.pk)) == expected
    wounds = gm.get(f"/api/v1/characters/{alice.pk}/wounds/").json()
    assert (wounds["trauma"], wounds["shock"], wounds["end_spent"]) == (expected.trauma, expected.shock,
                                                                         expected.end_spent)
    # Trauma 4 → ⌈4 / 3⌉ = 2 after the first day; shock: a third at once, a third after 40 − CON
    # minutes, the rest after 4 h of sleep; END: d6 (4) after 30 min then 1 per half hour asleep.
    assert expected.trauma == 2 and expected.shock == 0 and expected.end_spent == 0
    job_view = api_as("player").get(f"/api/v1/jobs/{job.pk}/").json()
    assert job_view["status"] == "done" and job_view["progress"] == {"done": 1, "total": 1}
    assert job_view["report"][0]["after"] == entry["after"]
    campaign.refresh_from_db()
    assert campaign.game_hours == 24


def test_the_same_key_makes_one_job(personas, api_as, wounded):
    wounded("player", trauma=2)
    gm, campaign = api_as("gm"), personas["campaign"]
    first = _downtime(gm, campaign, hours=8, idempotency_key="double-click")
    second = _downtime(gm, campaign, hours=8, idempotency_key="double-click")
    # A replay answers 200 with the same job, as every replayed key does.
    assert (first.status_code, second.status_code) == (202, 200)
    assert first.json()["job"] == second.json()["job"] == second.json()["id"]
    assert Job.objects.count() == 1


def test_a_key_that_started_another_downtime_is_refused(personas, api_as, wounded):
    wounded("player", trauma=2)
    gm, campaign = api_as("gm"), personas["campaign"]
    assert _downtime(gm, campaign, hours=8, idempotency_key="k").status_code == 202
    response = _downtime(gm, campaign, hours=48, idempotency_key="k")
    assert response.status_code == 409 and "idempotency_key" in response.json()["errors"]
    assert Job.objects.count() == 1


@pytest.mark.parametrize("persona, status", [("player", 403), ("other_player", 403), ("viewer", 403),
                                             ("outsider", 404), (None, 401)])
def test_only_the_gm_starts_a_downtime(personas, api_as, persona, status):
    response = _downtime(api_as(persona), personas["campaign"], hours=8, idempotency_key="k", preview=True)
    assert response.status_code == status
    assert not Job.objects.exists()


@pytest.mark.parametrize("body, field", [
    ({"hours": 0}, "hours"), ({"hours": "8"}, "hours"), ({"hours": 8, "rest": "nap"}, "rest"),
    ({"hours": 8, "rest_by_character": {"x": "rough"}}, "rest_by_character"),
    ({"hours": 8, "medical": {"1": {"medic": "bob"}}}, "medical"),
    ({"hours": 8, "dice": {"1": [7, "x"]}}, "dice"), ({"hours": 8, "surprise": 1}, "surprise"),
    ({"hours": 8}, "idempotency_key"),
])
def test_bad_input_names_the_field_and_changes_nothing(personas, api_as, wounded, body, field):
    wounded("player", trauma=3)
    response = _downtime(api_as("gm"), personas["campaign"], **body)
    assert response.status_code == 400, response.json()
    assert field in response.json()["errors"]
    assert not Job.objects.exists()


def test_dice_for_a_character_not_in_play_is_refused(personas, api_as, wounded, elsewhere):
    alice = wounded("player", trauma=3)
    response = _downtime(api_as("gm"), personas["campaign"], hours=8, idempotency_key="k",
                         dice={str(alice.pk + 999): [3]})
    assert response.status_code == 400 and "dice" in response.json()["errors"]


def test_a_face_that_does_not_fit_the_die_is_refused(personas, api_as, wounded):
    alice = wounded("player", end=5)
    response = _downtime(api_as("gm"), personas["campaign"], hours=1, idempotency_key="k", preview=True,
                         dice={str(alice.pk): [9]})
    assert response.status_code == 400
    assert "d6" in response.json()["errors"]["dice"][0]


def test_undo_restores_every_character_and_the_clock(personas, api_as, wounded):
    alice = wounded("player", trauma=4, shock=3, end=5)
    bob = wounded("other_player", trauma=6)
    before = {c.pk: healing_state(c) for c in (alice, bob)}
    gm, campaign = api_as("gm"), personas["campaign"]
    job_id = _downtime(gm, campaign, hours=48, idempotency_key="two-days").json()["job"]
    services.downtime_run(job_id=job_id)
    assert healing_state(Character.objects.get(pk=alice.pk)) != before[alice.pk]
    assert api_as("player").post(f"/api/v1/jobs/{job_id}/undo/").status_code == 403
    response = gm.post(f"/api/v1/jobs/{job_id}/undo/")
    assert response.status_code == 200, response.json()
    for pk, state in before.items():
        assert healing_state(Character.objects.get(pk=pk)) == state
    campaign.refresh_from_db()
    assert campaign.game_hours == 0
    assert gm.post(f"/api/v1/jobs/{job_id}/undo/").status_code == 409
    assert LogEntry.objects.filter(action="downtime.undo").count() == 1


def test_undo_is_refused_for_a_character_changed_since(personas, api_as, wounded):
    alice = wounded("player", trauma=4)
    gm, campaign = api_as("gm"), personas["campaign"]
    job_id = _downtime(gm, campaign, hours=24, idempotency_key="day").json()["job"]
    services.downtime_run(job_id=job_id)
    after = healing_state(Character.objects.get(pk=alice.pk))
    gm.post(f"/api/v1/characters/{alice.pk}/wounds/", {"trauma": 1, "reason": "a fall"}, format="json")
    response = gm.post(f"/api/v1/jobs/{job_id}/undo/")
    assert response.status_code == 409
    assert alice.name in response.json()["errors"]["detail"][0]
    assert healing_state(Character.objects.get(pk=alice.pk)).trauma == after.trauma + 1


def test_job_is_visible_to_members_only(personas, api_as, wounded):
    wounded("player", trauma=1)
    job_id = _downtime(api_as("gm"), personas["campaign"], hours=4, idempotency_key="k").json()["job"]
    assert api_as("viewer").get(f"/api/v1/jobs/{job_id}/").json()["status"] == "queued"
    assert api_as("outsider").get(f"/api/v1/jobs/{job_id}/").status_code == 404
    assert api_as(None).get(f"/api/v1/jobs/{job_id}/").status_code == 401
    assert api_as("gm").get("/api/v1/jobs/987654/").status_code == 404
