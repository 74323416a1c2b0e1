"""A downtime job is seen only through its own campaign: another campaign's job, an unknown id or
one past any database id is a 404 on the page and in the API, for every persona; an anonymous
visitor is sent to log in (page) or told to authenticate (API)."""

import pytest
from django.urls import reverse

from campaign.models import Job
from campaign.testing import arranged

pytestmark = pytest.mark.django_db

MEMBERS = ["gm", "player", "other_player", "viewer"]
PERSONAS = [*MEMBERS, "outsider", None]
UNKNOWN = [999_999, 2**63 - 1, 10**30]


def _job(campaign) -> Job:
    with arranged(campaign):
        return Job.objects.create(campaign=campaign, kind=Job.Kind.DOWNTIME, status=Job.Status.DONE,
                                  params={"hours": 8, "rest": "comfortable"})


@pytest.fixture
def jobs(personas, elsewhere):
    return {"mine": _job(personas["campaign"]), "theirs": _job(elsewhere)}


def _login(client, personas, persona):
    if persona is not None:
        client.force_login(personas[persona])


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_job_page_of_another_campaign_or_an_unknown_job_is_404(personas, jobs, client, persona):
    _login(client, personas, persona)
    campaign = personas["campaign"].pk
    for job_id in [jobs["theirs"].pk, *UNKNOWN]:
        for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
            response = client.get(reverse("campaign-job", args=[campaign, job_id]), **headers)
            if persona is None:
                assert response.status_code == 302 and response.url.startswith(reverse("login"))
            else:
                assert response.status_code == 404, (job_id, headers)
    own = client.get(reverse("campaign-job", args=[campaign, jobs["mine"].pk]))
    assert own.status_code == (200 if persona in MEMBERS else 404 if persona else 302)


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_api_job_of_another_campaign_or_an_unknown_job_is_404(personas, jobs, api_as, persona):
    client = api_as(persona)
    for job_id in [jobs["theirs"].pk, *UNKNOWN]:
        response = client.get(f"/api/v1/jobs/{job_id}/")
        assert response.status_code == (401 if persona is None else 404), job_id
        assert "errors" in response.json()
        undo = client.post(f"/api/v1/jobs/{job_id}/undo/", {}, format="json")
        assert undo.status_code == (401 if persona is None else 404), job_id
    own = client.get(f"/api/v1/jobs/{jobs['mine'].pk}/")
    assert own.status_code == (200 if persona in MEMBERS else 404 if persona else 401)


@pytest.mark.parametrize("persona", MEMBERS)
def test_undoing_another_campaigns_job_from_the_page_changes_nothing(personas, jobs, client, persona):
    _login(client, personas, persona)
    campaign = personas["campaign"].pk
    for job_id in [jobs["theirs"].pk, *UNKNOWN]:
        response = client.post(reverse("campaign-job-undo", args=[campaign, job_id]))
        # The GM learns there is no such job here; the others may not undo anything at all.
        assert response.status_code == (404 if persona == "gm" else 403), job_id
    assert Job.objects.get(pk=jobs["theirs"].pk).undone_at is None
