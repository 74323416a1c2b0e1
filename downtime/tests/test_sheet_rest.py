"""Downtime rests the other rule sets' sheets by their own rules, once per job, and undoes it.

- Rocket House (003, "First Aid and Healing"): a Fatigue per half hour of sleep and per hour of
  restful activity; a wound one level lighter per week.
- Success Check (002, "Edge Recovery"): a long rest gives all Edge back, a short one a point.
- ZeroSpace (001, "Erholung"): each half hour of rest gives back half the Endurance lost.
"""

import pytest

from campaign import services as campaign_services
from characters import system_sheets
from characters.models import PoolEntry, SystemSheet
from downtime import services

pytestmark = pytest.mark.django_db


def _sheet(personas, rule_set, **numbers):
    campaign = campaign_services.campaign_update(campaign=personas["campaign"], by=personas["gm"], rule_set=rule_set)
    return campaign, system_sheets.system_sheet_create(campaign=campaign, owner=personas["player"],
                                                       by=personas["player"], name="Rested", numbers=numbers)


def _set(sheet, **fields):
    from campaign.testing import arranged

    with arranged(sheet.campaign):
        SystemSheet.objects.filter(pk=sheet.pk).update(**fields)


def _downtime(api_as, campaign, hours, key):
    response = api_as("gm").post(f"/api/v1/campaigns/{campaign.pk}/downtime/", {
        "hours": hours, "rest": "comfortable", "idempotency_key": key}, format="json")
    assert response.status_code == 202, response.json()
    return response.json()["job"]


def test_rocket_house_fatigue_and_wounds_heal(personas, api_as):
    campaign, sheet = _sheet(personas, "rocket_house", toughness=76)
    _set(sheet, condition={"fatigue": 2, "wounds": ["serious", "basic"], "unconscious": True, "dead": False})
    preview = api_as("gm").post(f"/api/v1/campaigns/{campaign.pk}/downtime/", {
        "hours": 3, "rest": "comfortable", "preview": True}, format="json").json()
    assert preview["sheets"] == [{"sheet": sheet.pk, "name": "Rested", "lines": ["Fatigue 2 → 8 of 15"]}]
    job = _downtime(api_as, campaign, 3, "nap")  # 3 h asleep: 6 Fatigue; he wakes up
    services.downtime_run(job_id=job)
    sheet.refresh_from_db()
    assert sheet.condition == {"fatigue": 8, "wounds": ["serious", "basic"], "unconscious": False, "dead": False,
                               "bandaged": True}  # seen to between fights: no more bleeding
    job = _downtime(api_as, campaign, 24 * 7, "a-week")
    services.downtime_run(job_id=job)
    sheet.refresh_from_db()
    assert sheet.condition["fatigue"] == 15 and sheet.condition["wounds"] == ["basic"]
    view = api_as("player").get(f"/api/v1/jobs/{job}/").json()
    assert view["progress"] == {"done": 1, "total": 1}
    assert view["sheets"][0]["lines"] == ["Fatigue 8 → 15 of 15", "wounds serious, basic → basic"]


def test_the_dead_stay_dead(personas, api_as):
    campaign, sheet = _sheet(personas, "rocket_house")
    _set(sheet, condition={"fatigue": -60, "wounds": ["splat"], "unconscious": False, "dead": True})
    services.downtime_run(job_id=_downtime(api_as, campaign, 24 * 30, "month"))
    sheet.refresh_from_db()
    assert sheet.condition["dead"] and sheet.condition["fatigue"] == -60


def test_success_check_edge_comes_back_by_the_ledger_and_undo_takes_it(personas, api_as):
    campaign, sheet = _sheet(personas, "success_check", edge_max=3)
    _set(sheet, pools={"edge": 0}, condition={"damage": 7, "burned": 0})
    short = _downtime(api_as, campaign, 2, "short")
    services.downtime_run(job_id=short)
    services.downtime_run(job_id=short)  # delivered twice: rested once
    sheet.refresh_from_db()
    assert sheet.pools["edge"] == 1 and sheet.condition["damage"] == 7  # no healing rate in the text
    long = _downtime(api_as, campaign, 8, "long")
    services.downtime_run(job_id=long)
    sheet.refresh_from_db()
    assert sheet.pools["edge"] == 3
    rests = list(PoolEntry.objects.filter(sheet=sheet).order_by("pk").values_list("action", "amount", "balance_after"))
    assert rests == [("short_rest", 1, 1), ("long_rest", 2, 3)]
    undone = api_as("gm").post(f"/api/v1/jobs/{long}/undo/")
    assert undone.status_code == 200, undone.json()
    sheet.refresh_from_db()
    assert sheet.pools["edge"] == 1
    assert PoolEntry.objects.filter(sheet=sheet, action="undo").get().amount == -2


def test_zerospace_endurance_comes_back_half_once_then_all_with_sleep(personas, api_as):
    """001, "Endurance" (RULINGS §8): an hour's rest gives half the loss back once (Brawn 4 at 1:
    3 lost, 1 back → 2); another hour gives nothing; a night's sleep gives all of it."""
    campaign, sheet = _sheet(personas, "zerospace", brawn=4, presence=2)
    _set(sheet, condition={"endurance": 1})
    services.downtime_run(job_id=_downtime(api_as, campaign, 1, "hour"))
    sheet.refresh_from_db()
    assert sheet.condition == {"endurance": 2, "half_back": True}
    services.downtime_run(job_id=_downtime(api_as, campaign, 1, "another hour"))
    sheet.refresh_from_db()
    assert sheet.condition["endurance"] == 2
    services.downtime_run(job_id=_downtime(api_as, campaign, 8, "a night"))
    sheet.refresh_from_db()
    assert sheet.condition == {"endurance": 4}


def test_undo_is_refused_for_a_sheet_changed_since(personas, api_as):
    campaign, sheet = _sheet(personas, "zerospace", brawn=4)
    _set(sheet, condition={"endurance": 0})
    job = _downtime(api_as, campaign, 8, "night")
    services.downtime_run(job_id=job)
    _set(sheet, condition={"endurance": 1})  # a blow since
    refused = api_as("gm").post(f"/api/v1/jobs/{job}/undo/")
    assert refused.status_code == 409 and "Rested changed since" in str(refused.json())
    sheet.refresh_from_db()
    assert sheet.condition == {"endurance": 1}
