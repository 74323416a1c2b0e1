"""A real Celery worker process picks up a job that a view enqueued on commit."""

import time

import pytest

from campaign.models import Job

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_downtime_job_runs_on_a_real_worker(personas, api_as, celery_worker_process):
    campaign = personas["campaign"]
    response = api_as("gm").post(f"/api/v1/campaigns/{campaign.pk}/downtime/", {"hours": 36}, format="json")
    assert response.status_code == 202
    job_id = response.json()["id"]
    deadline = time.monotonic() + 30
    while Job.objects.get(pk=job_id).status != Job.Status.DONE:
        assert time.monotonic() < deadline, "the worker did not finish the job in 30 s"
        time.sleep(0.2)
    campaign.refresh_from_db()
    assert campaign.game_hours == 36
    assert api_as("player").get(f"/api/v1/jobs/{job_id}/").json()["percent"] == 100
