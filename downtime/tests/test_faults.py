"""Downtime jobs on real Celery workers, through faults: killed workers, a Redis that goes away.

Each character must be advanced exactly once per job, whatever happens to the worker or the
broker, and no job may stay queued for ever.
"""

from __future__ import annotations

import signal
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

import psutil
import pytest
from django.test import Client
from django.urls import reverse

from campaign.models import Job
from characters.models import Character
from characters.wounds import healing_state
from downtime.models import DowntimeClaim
from rulebook.recovery import advance
from zenergate_site.devstack import EmbeddedRedis

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

#: Wounds with no dice in a day's healing (no END spent), so "advanced twice" shows in the numbers.
WOUNDS = {"trauma": 6, "shock": 3, "stat_damage": {"RES": 2}}


def _wait(predicate, what: str, seconds: float = 90, *workers):
    deadline = time.monotonic() + seconds
    while not predicate():
        logs = "\n".join(w.log()[-3000:] for w in workers)
        assert time.monotonic() < deadline, f"timed out waiting for {what}\n{logs}"
        time.sleep(0.05)


def _party(wounded, size: int) -> list[Character]:
    """Return ``size`` identical wounded characters in play (copies of one built by the services)."""
    first = wounded("player", **WOUNDS)
    fields = {f.attname: getattr(first, f.attname) for f in Character._meta.concrete_fields
              if f.attname not in ("id", "created_at", "updated_at")}
    copies = [Character(**{**fields, "name": f"Trooper {n}"}) for n in range(size - 1)]
    Character.objects.bulk_create(copies)
    return list(Character.objects.filter(campaign=first.campaign).order_by("pk"))


def _start(api_as, campaign, key: str, hours: int = 24):
    response = api_as("gm").post(f"/api/v1/campaigns/{campaign.pk}/downtime/",
                                 {"hours": hours, "rest": "comfortable", "idempotency_key": key}, format="json")
    assert response.status_code == 202, response.json()
    return response.json()["job"]


def _assert_each_advanced_once(job_id: int, party: list[Character], hours: int = 24):
    start = healing_state(party[0])
    expected, _ = advance(start, hours=hours, rest="comfortable", con=party[0].con)
    twice, _ = advance(expected, hours=hours, rest="comfortable", con=party[0].con)
    assert twice != expected  # the check below can tell once from twice
    claims = DowntimeClaim.objects.filter(job_id=job_id)
    assert claims.count() == len(party)
    assert set(claims.values_list("character_id", flat=True)) == {c.pk for c in party}
    for character in Character.objects.filter(pk__in=[c.pk for c in party]):
        assert healing_state(character) == expected, character.name


@pytest.mark.parametrize("kill", ["worker", "pool-process"])
def test_a_killed_worker_leaves_every_character_advanced_exactly_once(personas, api_as, wounded, start_worker,
                                                                      kill):
    """SIGKILL mid-job: the whole worker (the sweep re-sends the job to a new worker), or its
    pool process (the worker rejects the message on worker loss and runs it again)."""
    party = _party(wounded, 500)
    campaign = personas["campaign"]
    slow = {"DOWNTIME_BATCH": "10", "DOWNTIME_BATCH_PAUSE_SECONDS": "0.05"}
    first = start_worker(extra_env=slow, pool="prefork" if kill == "pool-process" else "solo", name="doomed")
    job_id = _start(api_as, campaign, "kill-test")
    _wait(lambda: Job.objects.get(pk=job_id).progress >= 50, "the job to get going", 90, first)
    victim = first.process if kill == "worker" else psutil.Process(first.process.pid).children()[0]
    victim.send_signal(signal.SIGKILL)
    if kill == "worker":
        first.process.wait()
    done_at_kill = Job.objects.get(pk=job_id).progress
    assert 0 < done_at_kill < 500, "the worker was killed in the middle of the job"
    if kill == "worker":
        # The job page says so while no worker answers, then that the job went to a worker again:
        # a new worker with the beat sweep (default timings) finds the heartbeat stopped.
        killed_at = time.monotonic()
        gm = Client()
        gm.force_login(personas["gm"])
        page = reverse("campaign-job", args=[campaign.pk, job_id])
        _wait(lambda: "The worker stopped answering" in gm.get(page).content.decode(), "the page to notice", 15)
        start_worker(extra_env=slow, beat=True, name="rescuer")
        _wait(lambda: Job.objects.get(pk=job_id).sends >= 2, "the job to be sent again", 60)
        assert time.monotonic() - killed_at <= 30
        retried = gm.get(page).content.decode()
        assert "sent to a worker again" in retried or Job.objects.get(pk=job_id).status == Job.Status.DONE
    _wait(lambda: Job.objects.get(pk=job_id).status == Job.Status.DONE, "the job to finish")
    _assert_each_advanced_once(job_id, party)
    campaign.refresh_from_db()
    assert campaign.game_hours == 24  # the clock moved once


@contextmanager
def _broker(url: str):
    """Send this process's Celery messages to ``url`` (a Redis this test owns) for a while."""
    from zenergate_site.celery import app
    from zenergate_site.settings import _broker_url

    old = app.conf.broker_url
    app.conf.broker_url = _broker_url(url)
    app._after_fork()  # drop pooled connections to the old broker
    try:
        yield
    finally:
        app.conf.broker_url = old
        app._after_fork()


def test_redis_down_is_a_503_and_no_job_is_orphaned(personas, api_as, wounded, start_worker):
    party = _party(wounded, 3)
    campaign = personas["campaign"]
    redis = EmbeddedRedis(Path(tempfile.mkdtemp(prefix="zg-broker-")))
    url = redis.start()
    try:
        with _broker(url):
            redis.stop()
            response = api_as("gm").post(f"/api/v1/campaigns/{campaign.pk}/downtime/",
                                         {"hours": 24, "idempotency_key": "while-down"}, format="json")
            assert response.status_code == 503 and response["Retry-After"] == "5"
            assert "nothing changed" in response.json()["errors"]["detail"][0]
            assert not Job.objects.exists()

            # Redis comes back, takes the job's message, then dies and loses it (no persistence
            # had run yet): the job is committed as queued, but no broker holds it any more.
            url = redis.start()
            job_id = _start(api_as, campaign, "lost-message")
            assert Job.objects.get(pk=job_id).sends == 1
            redis.process.send_signal(signal.SIGKILL)
            redis.process.wait()
            for leftover in Path(redis.data_dir).glob("*.rdb"):
                leftover.unlink()
            url = redis.start()
            # A worker with the beat sweep: the job left queued is sent again and runs.
            start_worker(redis_url=url, beat=True, extra_env={"JOB_QUEUED_SECONDS": "1", "JOB_SWEEP_SECONDS": "1"})
            _wait(lambda: Job.objects.get(pk=job_id).status == Job.Status.DONE, "the orphaned job to run")
            assert Job.objects.get(pk=job_id).sends >= 2
            _assert_each_advanced_once(job_id, party)
    finally:
        redis.stop()


@contextmanager
def _cache(url: str):
    """Point this process's cache at ``url`` (with the site's timeouts) for a while."""
    from django.conf import settings
    from django.test.utils import override_settings

    with override_settings(CACHES={"default": {**settings.CACHES["default"], "LOCATION": url}}):
        yield


def test_a_hung_redis_is_a_503_within_three_seconds_and_pages_render_without_the_cache(
        personas, api_as, client, wounded):
    """redis-server stopped with SIGSTOP: connections are accepted but nothing answers."""
    from django.conf import settings
    from django.urls import reverse
    from django.utils.html import escape

    party = _party(wounded, 2)
    campaign = personas["campaign"]
    client.force_login(personas["player"])
    sheet = reverse("character-sheet", args=[party[0].pk])
    redis = EmbeddedRedis(Path(tempfile.mkdtemp(prefix="zg-hung-")))
    url = redis.start()
    try:
        with _broker(url), _cache(url):
            assert client.get(sheet).status_code == 200  # the cache works and now holds the page
            redis.process.send_signal(signal.SIGSTOP)

            began = time.monotonic()
            response = api_as("gm").post(f"/api/v1/campaigns/{campaign.pk}/downtime/",
                                         {"hours": 24, "idempotency_key": "while-hung"}, format="json")
            assert time.monotonic() - began < 3
            assert response.status_code == 503 and "nothing changed" in response.json()["errors"]["detail"][0]
            assert not Job.objects.exists()

            for _ in range(3):  # the first read pays one timeout at most; the next skip the cache
                began = time.monotonic()
                page = client.get(sheet)
                assert page.status_code == 200 and escape(party[0].name) in page.content.decode()
                assert time.monotonic() - began < 3

            redis.process.send_signal(signal.SIGCONT)
            time.sleep(settings.CACHE_RETRY_SECONDS)  # the breaker lets the cache be tried again
            job_id = _start(api_as, campaign, "after-resume")
            assert Job.objects.get(pk=job_id).sends == 1
            assert client.get(sheet).status_code == 200
    finally:
        if redis.process is not None:
            redis.process.send_signal(signal.SIGCONT)
        redis.stop()
