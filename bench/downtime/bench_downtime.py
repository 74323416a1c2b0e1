"""Downtime at scale: many wounded characters advanced by one job, on a real PostgreSQL.

Runs four ways of letting a day pass for every character, from the same starting wounds, and
prints each one's time and its ratio to the floor measured in the same run:

- floor: one SQL UPDATE touching the same rows (what no rules engine can beat);
- naive: a Python loop that asks the rulebook and saves each character with ``.save()``;
- job, in process: ``downtime_run`` (batches, claims, undo records, events), no broker;
- job, one worker: the same job sent through Redis to one real Celery worker process, timed
  from the request to the job being done.

Without DATABASE_URL / REDIS_URL it starts a throw-away embedded PostgreSQL and Redis, as
``make test`` does. See bench/README.md.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

#: Wounds with no dice in a day's healing, so every run does the same work.
WOUNDS = {"trauma": 6, "shock": 3, "endurance_spent": 0, "stat_damage": {"RES": 2, "NIM": 1}}
STATS = {"STR": 12, "CON": 14, "RES": 13, "NIM": 15, "DEX": 16, "ACC": 12, "MEL": 10,
         "PRAC": 15, "THEO": 14, "ENC": 13, "LAN": 12, "AWA": 16, "PERS": 14}


def _setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zenergate_site.settings")
    os.environ.setdefault("LOG_FORMAT", "plain")
    os.environ["DEBUG"] = "0"  # no query log growing by 10,000s of entries
    os.environ.setdefault("SECRET_KEY", "bench-only-" + "x" * 50)  # DEBUG off needs one
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def _party(size: int):
    """Create a campaign with ``size`` approved, identically wounded characters; return it."""
    from django.contrib.auth import get_user_model

    from campaign import services as campaign_services
    from characters import items, lifecycle, services
    from characters.models import Character

    users = get_user_model().objects
    gm = users.create_user(username=f"bench-gm-{time.time_ns()}", password="bench")
    campaign = campaign_services.campaign_create(name="Benchmark", by=gm)
    first = services.character_create(campaign=campaign, owner=gm, name="Trooper 0", stats=STATS, int_dice=[4, 2],
                                      by=gm)
    items.item_create(character=first, kind_name="skills", by=gm, is_gm=True,
                      data={"name": "Temporal physics", "breadth": "narrow", "ranks": 1, "stat": "THEO"})
    lifecycle.character_submit(character=first, by=gm)
    first = lifecycle.character_approve(character=first, by=gm)
    fields = {f.attname: getattr(first, f.attname) for f in Character._meta.concrete_fields
              if f.attname not in ("id", "created_at", "updated_at")}
    Character.objects.bulk_create([Character(**{**fields, "name": f"Trooper {n}"}) for n in range(1, size)],
                                  batch_size=1000)
    return campaign, gm


def _reset(campaign) -> None:
    """Put every character back to the starting wounds and forget earlier jobs."""
    from campaign.models import Job
    from characters.models import Character

    Job.objects.filter(campaign=campaign).delete()
    Character.objects.filter(campaign=campaign).update(
        **WOUNDS, long_term_con_damage=0, radiation_track={}, transitions_taken=0, wounds_detail={})
    campaign.game_hours = 0
    campaign.save(update_fields=["game_hours"])


def _timed(call) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def floor(campaign) -> float:
    from django.db import connection, transaction

    def run():
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(
                "UPDATE characters_character SET trauma = GREATEST(trauma - 2, 0), shock = 0, "
                "stat_damage = '{}'::jsonb, updated_at = now() WHERE campaign_id = %s", [campaign.pk])
    return _timed(run)


def naive(campaign) -> float:
    from characters.models import Character
    from characters.wounds import base_con, healing_state, store
    from rulebook.recovery import advance

    def run():
        for character in Character.objects.filter(campaign=campaign).order_by("pk"):
            state, _ = advance(healing_state(character), hours=24, rest="comfortable", con=base_con(character))
            store(character, state)
            character.save()
    return _timed(run)


def _request(key: str) -> dict:
    return {"hours": 24, "rest": "comfortable", "idempotency_key": key}


def job_in_process(campaign, gm) -> float:
    from campaign.models import Job
    from downtime import services

    def run():
        # Created directly: no broker in this measurement, only the job's own work.
        job = Job.objects.create(campaign=campaign, kind=Job.Kind.DOWNTIME, created_by=gm,
                                 params={**_request("in-process"), "characters": list(
                                     campaign.characters.order_by("pk").values_list("pk", flat=True))},
                                 total=campaign.characters.count(), idempotency_key="in-process")
        services.downtime_run(job_id=job.pk)
    return _timed(run)


def job_on_worker(campaign, gm) -> float:
    from django.conf import settings

    from campaign.models import Job
    from downtime import services

    log = tempfile.NamedTemporaryFile(prefix="bench-worker-", suffix=".log", delete=False)
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "zenergate_site", "worker", "--pool", "solo", "--loglevel", "WARNING",
         "--without-gossip", "--without-mingle", "--hostname", f"bench-{os.getpid()}@%h"],
        cwd=ROOT, env={**os.environ, "REDIS_URL": settings.REDIS_URL}, stdout=log, stderr=subprocess.STDOUT)
    try:
        time.sleep(1)
        deadline = time.monotonic() + 60
        from zenergate_site.celery import app

        while not app.control.ping(timeout=0.5):
            if worker.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("the worker did not start:\n" + Path(log.name).read_text())

        def run():
            job, _ = services.downtime_start(campaign=campaign, by=gm, request=_request("worker"))
            while Job.objects.filter(pk=job.pk, status=Job.Status.DONE).count() == 0:
                status = Job.objects.get(pk=job.pk).status
                if status == Job.Status.FAILED:
                    raise SystemExit("the job failed: " + Job.objects.get(pk=job.pk).error)
                time.sleep(0.02)
        return _timed(run)
    finally:
        worker.terminate()
        worker.wait(timeout=30)
        os.unlink(log.name)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--characters", type=int, default=10_000)
    args = parser.parse_args()
    stack = None
    if not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")):
        from zenergate_site.devstack import Stack

        stack = Stack(Path(tempfile.mkdtemp(prefix="zg-bench-")), throwaway=True)
        os.environ.update(stack.start())
    try:
        _setup_django()
        from django.conf import settings

        campaign, gm = _party(args.characters)
        rows = []
        for label, measure in (("floor: one SQL UPDATE of the same rows", lambda: floor(campaign)),
                               ("naive: rulebook + .save() per character", lambda: naive(campaign)),
                               ("downtime job, in process (no broker)", lambda: job_in_process(campaign, gm)),
                               ("downtime job, one Celery worker", lambda: job_on_worker(campaign, gm))):
            _reset(campaign)
            rows.append((label, measure()))
        base = rows[0][1]
        print(f"\n{args.characters} characters, 24 h of comfortable rest, batches of {settings.DOWNTIME_BATCH}\n")
        print(f"| {'case':<42} | {'seconds':>8} | {'× floor':>8} | {'chars/s':>8} |")
        print(f"|{'-' * 44}|{'-' * 10}|{'-' * 10}|{'-' * 10}|")
        for label, seconds in rows:
            print(f"| {label:<42} | {seconds:8.2f} | {seconds / base:8.1f} | {args.characters / seconds:8.0f} |")
        return 0
    finally:
        if stack:
            stack.stop()


if __name__ == "__main__":
    sys.exit(main())
