"""Downtime pages: who may see and do what, what a preview and a start do, query counts."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign.models import Job
from characters.models import Character
from characters.wounds import healing_state
from downtime import services
from downtime.models import TransitionBatch

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("persona, status", [("gm", 200), ("player", 200), ("viewer", 200), ("outsider", 404)])
def test_everyone_in_the_campaign_reads_the_downtime_page_and_only_the_gm_gets_the_form(personas, client,
                                                                                        persona, status):
    client.force_login(personas[persona])
    response = client.get(reverse("campaign-downtime", args=[personas["campaign"].pk]))
    assert response.status_code == status
    if status == 200:
        assert (b"Start downtime" in response.content) == (persona == "gm")


def test_anonymous_is_sent_to_log_in(personas, client):
    response = client.get(reverse("campaign-downtime", args=[personas["campaign"].pk]))
    assert response.status_code == 302 and reverse("login") in response.url


@pytest.mark.parametrize("persona, status", [("player", 403), ("viewer", 403), ("outsider", 404)])
def test_only_the_gm_may_post_a_downtime_or_a_transition(personas, client, wounded, persona, status):
    alice = wounded("player", trauma=3)
    client.force_login(personas[persona])
    campaign = personas["campaign"]
    body = {"hours": 24, "rest": "comfortable", "idempotency_key": "k", "action": "start"}
    assert client.post(reverse("campaign-downtime", args=[campaign.pk]), body).status_code == status
    transition = {"category": "1", "characters": [alice.pk], "idempotency_key": "k"}
    assert client.post(reverse("campaign-transition-new", args=[campaign.pk]), transition).status_code == status
    assert not Job.objects.exists() and not TransitionBatch.objects.exists()


def test_preview_shows_the_report_and_changes_nothing(personas, client, wounded):
    alice = wounded("player", trauma=4, shock=3)
    start = healing_state(alice)
    client.force_login(personas["gm"])
    response = client.post(reverse("campaign-downtime", args=[personas["campaign"].pk]),
                           {"hours": 24, "rest": "comfortable", "idempotency_key": "k", "action": "preview"})
    assert response.status_code == 200
    assert b"nothing has changed yet" in response.content
    assert f'data-character="{alice.pk}"'.encode() in response.content
    assert healing_state(Character.objects.get(pk=alice.pk)) == start
    assert not Job.objects.exists()


def test_start_redirects_to_the_job_and_a_reload_starts_nothing_more(personas, client, wounded):
    wounded("player", trauma=4)
    client.force_login(personas["gm"])
    url = reverse("campaign-downtime", args=[personas["campaign"].pk])
    body = {"hours": 24, "rest": "rough", "idempotency_key": "once", "action": "start"}
    first = client.post(url, body)
    job = Job.objects.get()
    assert first.status_code == 302 and first.url == reverse("campaign-job", args=[personas["campaign"].pk, job.pk])
    assert client.post(url, body).url == first.url  # the form posted again: the same job
    assert Job.objects.count() == 1


def test_bad_dice_stand_beside_the_field(personas, client, wounded):
    alice = wounded("player", end=4)
    client.force_login(personas["gm"])
    response = client.post(reverse("campaign-downtime", args=[personas["campaign"].pk]),
                           {"hours": 2, "rest": "comfortable", "idempotency_key": "k", "action": "preview",
                            f"dice_{alice.pk}": "six"})
    assert response.status_code == 400
    assert b"whole numbers" in response.content
    assert not Job.objects.exists()


def test_job_page_of_another_campaign_is_404(personas, client, wounded, elsewhere):
    wounded("player", trauma=1)
    job, _ = services.downtime_start(campaign=personas["campaign"], by=personas["gm"],
                                     request={"hours": 4, "rest": "comfortable", "idempotency_key": "k"})
    client.force_login(personas["gm"])
    assert client.get(reverse("campaign-job", args=[elsewhere.pk, job.pk])).status_code == 404
    assert client.get(reverse("campaign-job", args=[personas["campaign"].pk, 999999])).status_code == 404


@pytest.mark.parametrize("page", ["downtime", "job"])
def test_queries_do_not_grow_with_the_party(personas, client, wounded, page):
    """The downtime page and a finished job's report cost the same for 2 and 20 characters."""
    client.force_login(personas["gm"])
    first = wounded("player", trauma=5, shock=2)
    fields = {f.attname: getattr(first, f.attname) for f in Character._meta.concrete_fields
              if f.attname not in ("id", "created_at", "updated_at")}
    counts = []
    for size in (2, 20):
        have = Character.objects.filter(campaign=personas["campaign"]).count()
        Character.objects.bulk_create([Character(**{**fields, "name": f"Copy {n}"}) for n in range(have, size)])
        url = reverse("campaign-downtime", args=[personas["campaign"].pk])
        if page == "job":
            job, _ = services.downtime_start(campaign=personas["campaign"], by=personas["gm"],
                                             request={"hours": 24, "rest": "comfortable",
                                                      "idempotency_key": f"q{size}"})
            services.downtime_run(job_id=job.pk)
            url = reverse("campaign-job", args=[personas["campaign"].pk, job.pk])
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


def test_gm_defines_a_therapy_on_the_page_and_players_never_see_its_dice(personas, client):
    client.force_login(personas["gm"])
    url = reverse("campaign-downtime", args=[personas["campaign"].pk])
    body = {"action": "therapy", "name": "Prussian blue", "con_healed": 2, "extra_reduction": "2d6",
            "track_steps_back": "d3", "shock": "3d6", "trauma": "d3", "efficacy_loss": 1}
    assert client.post(url, body).status_code == 302
    assert b"Prussian blue" in client.get(url).content and b"3d6" in client.get(url).content
    bad = client.post(url, {**body, "name": "Typo", "shock": "d7"})
    assert bad.status_code == 400 and b"shock" in bad.content
    client.force_login(personas["player"])
    page = client.get(url).content
    assert b"Prussian blue" in page and b"3d6" not in page


def test_gm_treats_now_and_undoes_it(personas, client, wounded):
    from downtime.models import Treatment

    alice = wounded("player")
    client.force_login(personas["gm"])
    campaign = personas["campaign"]
    response = client.post(reverse("campaign-treat", args=[campaign.pk]),
                           {"character": alice.pk, "treatment": "stimutabs", "dice": "2 1 3 2",
                            "idempotency_key": "pill"})
    assert response.status_code == 302
    treatment = Treatment.objects.get()
    assert treatment.outcome["effect"]["stat_changes"] == {"STR": 2}
    assert Character.objects.get(pk=alice.pk).wounds_detail["effects"]
    client.post(reverse("campaign-treatment-undo", args=[campaign.pk, treatment.pk]))
    assert not Character.objects.get(pk=alice.pk).wounds_detail.get("effects")
    client.force_login(personas["player"])
    assert client.post(reverse("campaign-treat", args=[campaign.pk]),
                       {"character": alice.pk, "treatment": "stimutabs", "idempotency_key": "x"}).status_code == 403


def test_a_form_sent_again_after_a_change_starts_nothing_and_says_so(personas, client, wounded):
    wounded("player", trauma=4)
    client.force_login(personas["gm"])
    url = reverse("campaign-downtime", args=[personas["campaign"].pk])
    client.post(url, {"hours": 24, "rest": "rough", "idempotency_key": "once", "action": "start"})
    response = client.post(url, {"hours": 48, "rest": "rough", "idempotency_key": "once", "action": "start"},
                           follow=True)
    assert response.status_code == 200
    assert b"already started a downtime" in response.content
    assert Job.objects.count() == 1 and Job.objects.get().params["hours"] == 24
