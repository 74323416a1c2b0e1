"""Campaign services: the writes, their audit rows and their idempotent job runner."""

import pytest

from campaign import services
from campaign.errors import CampaignConflict, CampaignError
from campaign.models import Job, LogEntry

pytestmark = pytest.mark.django_db


def test_job_run_is_idempotent(personas):
    campaign = personas["campaign"]
    job = services.downtime_start(campaign=campaign, hours=10, by=personas["gm"])
    services.job_run(job_id=job.pk)
    services.job_run(job_id=job.pk)  # a redelivered message must not advance the clock twice
    campaign.refresh_from_db()
    job.refresh_from_db()
    assert campaign.game_hours == 10
    assert job.status == Job.Status.DONE and job.percent == 100
    assert job.report[0]["detail"] == "0 h → 10 h"
    assert LogEntry.objects.filter(campaign=campaign, action="downtime.done").count() == 1


def test_membership_add_refuses_duplicates_and_unknown_roles(personas):
    campaign = personas["campaign"]
    with pytest.raises(CampaignConflict):
        services.membership_add(campaign=campaign, username="player", role="gm", by=personas["gm"])
    with pytest.raises(CampaignError) as excinfo:
        services.membership_add(campaign=campaign, username="outsider", role="boss", by=personas["gm"])
    assert excinfo.value.field == "role"


def test_campaign_needs_a_name(personas):
    with pytest.raises(CampaignError):
        services.campaign_create(name="   ", by=personas["gm"])
