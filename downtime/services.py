"""Downtime: preview it, start it as a job, run the job exactly once per character, undo it.

A downtime job advances every character in play through the same hours of rest. It is built
to survive faults: the job row is committed before its message is sent; each character is
claimed (a unique row) in the same transaction that stores its new wounds, so a redelivered or
duplicated message skips what is done; a sweep re-sends jobs the broker lost or whose worker
died. The campaign clock moves once, when the last character is done.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from contextlib import contextmanager
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, connection, connections, transaction
from django.db.models import Count, F
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from campaign.changes import Recorded, change_set, undo
from campaign.errors import CampaignConflict, CampaignError
from campaign.events import JobProgressed
from campaign.models import Campaign, Job
from characters.events import WoundsChanged
from characters.models import Character
from characters.wounds import WOUND_COLUMNS, save_wounds_many
from rolls.services import record_rolls_many
from rulebook import RulesError
from rulebook.words import said
from zenergate_site import limits
from zenergate_site.celery import app as celery_app
from zenergate_site.errors import DomainError, UnavailableError

from . import sheets as sheet_rest
from .models import DowntimeClaim, SheetClaim, Therapy, Treatment
from .plan import Plan, advance_one, build_plans, seeded_rng

log = logging.getLogger(__name__)

#: The Celery task that runs a downtime job (downtime/tasks.py).
RUN_DOWNTIME_TASK = "campaign.downtime.tasks.run_downtime"
#: Longest downtime one job may advance (a year): beyond that a typo is likelier than intent.
MAX_DOWNTIME_HOURS = 24 * 365


#: Each kind of rest as a log line names it (rulebook.recovery.REST_KINDS).
REST_SAID = {"comfortable": said("comfortable"), "rough": said("rough"), "awake": said("awake"), "none": said("none")}


def _in_play(campaign: Campaign):
    return Character.objects.filter(campaign=campaign, state=Character.State.ACTIVE)


def earlier_uses(character_ids) -> dict:
    rows = (Treatment.objects.filter(character_id__in=character_ids, kind=Treatment.Kind.THERAPY, undone_at=None)
            .values("character_id", "therapy_id").annotate(n=Count("id")))
    return {(r["character_id"], r["therapy_id"]): r["n"] for r in rows}


def _plans(campaign: Campaign, characters: list[Character], request: dict) -> dict[int, Plan]:
    medic_ids = {care["medic"] for care in request.get("medical", {}).values() if care.get("medic") is not None}
    medics = {m.pk: m for m in Character.objects.filter(campaign=campaign, pk__in=medic_ids)
              .prefetch_related("skills")}
    return build_plans(characters=characters, rest=request["rest"],
                       rest_by_character=request.get("rest_by_character", {}),
                       medical=request.get("medical", {}), therapies=request.get("therapies", []),
                       dice=request.get("dice", {}),
                       campaign_therapies={t.pk: t for t in campaign.therapies.all()}, medics=medics)


def _check_hours(hours) -> None:
    if not isinstance(hours, int) or isinstance(hours, bool) or not 1 <= hours <= MAX_DOWNTIME_HOURS:
        raise CampaignError(_("Hours must be a whole number from 1 to %(most)s.") % {"most": MAX_DOWNTIME_HOURS},
                            field="hours")


def downtime_preview(*, campaign: Campaign, request: dict) -> list[dict]:
    """Return what the downtime would do to each character in play, changing nothing.

    With the same idempotency key (and entered dice) the job rolls exactly these dice.
    """
    _check_hours(request["hours"])
    characters = list(_in_play(campaign).order_by("pk"))
    plans = _plans(campaign, characters, request)
    therapies = {t.pk: t for t in campaign.therapies.all()}
    uses = earlier_uses([c.pk for c in characters])
    key = request.get("idempotency_key") or ""
    out = []
    for character in characters:
        try:
            outcome = advance_one(character, hours=request["hours"], plan=plans[character.pk], therapies=therapies,
                                  earlier_uses=uses, rng=seeded_rng(campaign.pk, key, character.pk))
        except RulesError as exc:
            raise CampaignError(f"{character.name}: {exc}", field="dice") from None
        out.append(outcome.report)
    return out


def broker_reachable() -> bool:
    """Tell whether the job broker answers now (a quick check before anything is written)."""
    try:
        with celery_app.connection_for_write() as broker:
            broker.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=2)
        return True
    except Exception:  # kombu raises the transport's own errors; any of them means "not now"
        log.warning("job broker unreachable", exc_info=True)
        return False


def _send(job_id: int) -> None:
    """Hand a committed job to the broker; a failure leaves it queued for the sweep to re-send."""
    try:
        # By name: the task module calls these services, so they do not import it back.
        celery_app.send_task(RUN_DOWNTIME_TASK, args=(job_id,), retry=False)
    except Exception:
        log.warning("could not send job %s; the sweep will re-send it", job_id, exc_info=True)
        return
    Job.objects.filter(pk=job_id).update(sends=F("sends") + 1)


def downtime_start(*, campaign: Campaign, by, request: dict) -> tuple[Job, bool]:
    """Start a downtime job (GM); return (job, created). The same key again returns the same job.

    Raises:
        UnavailableError: the broker cannot be reached: nothing is written.
        CampaignError: bad input (the preview would refuse it too).
    """
    key = request.get("idempotency_key")
    if not key:
        raise CampaignError(_("Send an idempotency key, so that a repeated request starts one job."),
                            field="idempotency_key")
    existing = Job.objects.filter(campaign=campaign, kind=Job.Kind.DOWNTIME, idempotency_key=key).first()
    if existing is not None:
        return _replay(existing, request), False
    _check_hours(request["hours"])
    characters = list(_in_play(campaign).order_by("pk"))
    plans = _plans(campaign, characters, request)
    if not broker_reachable():
        raise UnavailableError(_("The job queue cannot be reached, so the downtime was not started and nothing "
                                 "changed. Try again in a minute."))
    sheets = sheet_rest.sheets_in_play(campaign)
    params = {"hours": request["hours"], "rest": request["rest"], "idempotency_key": key,
              "characters": [c.pk for c in characters], "sheets": sheets,
              "plans": {str(pk): plan.as_json() for pk, plan in plans.items()
                        if plan.as_json() != Plan(rest=request["rest"]).as_json()}}
    try:
        with transaction.atomic():
            write = change_set(campaign=campaign.pk, by=by)
            job = Job.objects.create(campaign=campaign, kind=Job.Kind.DOWNTIME, params=params, created_by=by,
                                     total=len(characters) + len(sheets), idempotency_key=key)
            write.audit("downtime.start",
                        said("%(by)s started %(hours)s h of downtime (%(rest)s rest) for %(n)s characters", by=str(by),
                             hours=request["hours"], rest=REST_SAID.get(request["rest"], request["rest"]),
                             n=len(characters) + len(sheets)),
                        data={"job": job.pk, "hours": request["hours"]})
            write.publish(JobProgressed(job=job.pk, status=job.status, done=0, total=job.total))
            transaction.on_commit(lambda: _send(job.pk))
    except IntegrityError:  # the same key, sent twice at once: the other request made the job
        existing = Job.objects.get(campaign=campaign, kind=Job.Kind.DOWNTIME, idempotency_key=key)
        return _replay(existing, request), False
    return job, True


def _replay(job: Job, request: dict) -> Job:
    """Return the job a key made, or refuse a key that made a different downtime."""
    if (job.params.get("hours"), job.params.get("rest")) != (request["hours"], request["rest"]):
        raise CampaignConflict(_("This idempotency key already started another downtime; send a new key."),
                               field="idempotency_key")
    return job


# --- Running a job --------------------------------------------------------------------------------
def _plan_for(job: Job, character_id: int) -> Plan:
    data = job.params.get("plans", {}).get(str(character_id))
    return Plan(**data) if data else Plan(rest=job.params["rest"])


def _run_batch(job: Job, ids: list[int], therapies: dict) -> int:
    """Advance one batch of characters in one transaction; return how many this call advanced."""
    with transaction.atomic():
        write = change_set(campaign=job.campaign_id)
        characters = list(Character.objects.select_for_update(of=("self",), no_key=True)
                          .filter(pk__in=ids).order_by("pk"))
        done = set(DowntimeClaim.objects.filter(job=job, character_id__in=ids).values_list("character_id", flat=True))
        todo = [c for c in characters if c.pk not in done and c.state == Character.State.ACTIVE]
        uses = earlier_uses([c.pk for c in todo])
        claims, treatments, wounds, now = [], [], {}, timezone.now()
        key = job.params.get("idempotency_key", job.pk)
        for character in todo:
            before = {name: getattr(character, name) for name in WOUND_COLUMNS}
            outcome = advance_one(character, hours=job.params["hours"], plan=_plan_for(job, character.pk),
                                  therapies=therapies, earlier_uses=uses,
                                  rng=seeded_rng(job.campaign_id, key, character.pk))
            wounds[character.pk] = after = outcome.columns(character)
            claims.append({"character_id": character.pk, "before": before, "after": after,
                           "report": outcome.report})
            treatments += [Treatment(campaign_id=job.campaign_id, character=character, kind=t["kind"],
                                     therapy_id=t.get("therapy"), job=job, before=before, after=after, outcome=t,
                                     by_id=job.created_by_id) for t in outcome.treatments]
        save_wounds_many(wounds)
        _claim_many(job, claims)
        record_rolls_many(campaign_id=job.campaign_id, rolls=[
            {"by_id": job.created_by_id, "kind": "downtime",
             "label": said("%(name)s: %(hours)s h of downtime", name=c.name, hours=job.params["hours"]),
             "dice": [{"kept": True, **die} for die in claim["report"].get("dice", [])],
             "total": sum(die["face"] for die in claim["report"].get("dice", [])),
             # Therapies keep their dice from the players.
             "private": any(t.get("kind") == "therapy" for t in claim["report"].get("treatments", []))}
            for c, claim in zip(todo, claims) if claim["report"].get("dice")])
        Treatment.objects.bulk_create(treatments)
        progress = _progress(job)
        Job.objects.filter(pk=job.pk).update(progress=min(progress, job.total), heartbeat_at=now)
        write.changed(job, *treatments)
        write.publish(JobProgressed(job=job.pk, status="running", done=min(progress, job.total), total=job.total))
        if todo:
            write.publish(WoundsChanged(characters=[c.pk for c in todo]))
    return len(todo)


def _progress(job: Job) -> int:
    return DowntimeClaim.objects.filter(job=job).count() + SheetClaim.objects.filter(job=job).count()


def _rest_sheet_batch(job: Job, ids: list[int]) -> int:
    """Rest a batch of the other rule set's sheets and move the job's progress with it."""
    rested = sheet_rest.rest_sheets(job, ids)
    with transaction.atomic():
        write = change_set(campaign=job.campaign_id)
        progress = min(_progress(job), job.total)
        Job.objects.filter(pk=job.pk).update(progress=progress, heartbeat_at=timezone.now())
        write.changed(job)
        write.publish(JobProgressed(job=job.pk, status="running", done=progress, total=job.total))
    return rested


def _claim_many(job: Job, claims: list[dict]) -> None:
    """Insert the batch's claims in one statement (see ``characters.wounds.save_wounds_many``).

    The unique (job, character) constraint still guards them: a claim taken twice fails the
    whole batch, which then rolls back with the wounds it would have stored.
    """
    if not claims:
        return
    table = connection.ops.quote_name(DowntimeClaim._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (job_id, character_id, before, after, report, created_at) "
            "SELECT %s, v.character_id, v.before, v.after, v.report, now() "
            "FROM jsonb_to_recordset(%s::jsonb) AS v(character_id bigint, before jsonb, after jsonb, report jsonb)",
            [job.pk, json.dumps(claims)],
        )


def downtime_run(*, job_id: int) -> Job:
    """Run (or resume) a downtime job. Running it again, or twice at once, advances no one twice."""
    job = Job.objects.filter(pk=job_id).first()
    if job is None or job.status in (Job.Status.DONE, Job.Status.FAILED):
        return job
    with transaction.atomic():
        write = change_set(campaign=job.campaign_id)  # the dashboard shows the last downtime's status
        if Job.objects.filter(pk=job.pk, status=Job.Status.QUEUED).update(status=Job.Status.RUNNING,
                                                                          heartbeat_at=timezone.now()):
            write.changed(job)
            write.publish(JobProgressed(job=job.pk, status=Job.Status.RUNNING, done=job.progress, total=job.total))
    therapies = {t.pk: t for t in Therapy.objects.filter(campaign_id=job.campaign_id)}
    ids, size = job.params["characters"], max(settings.DOWNTIME_BATCH, 1)
    try:
        with _heartbeat(job.pk):
            for start in range(0, len(ids), size):
                if _run_batch(job, ids[start:start + size], therapies) and settings.DOWNTIME_BATCH_PAUSE_SECONDS:
                    time.sleep(settings.DOWNTIME_BATCH_PAUSE_SECONDS)
            sheets = job.params.get("sheets", [])
            for start in range(0, len(sheets), size):
                if _rest_sheet_batch(job, sheets[start:start + size]) and settings.DOWNTIME_BATCH_PAUSE_SECONDS:
                    time.sleep(settings.DOWNTIME_BATCH_PAUSE_SECONDS)
    except (RulesError, DomainError, ValueError, KeyError, TypeError) as exc:
        # A rules or data error fails the same way on every retry: record it and stop. Anything
        # else (the database restarting, a lost connection) leaves the job running; the sweep
        # sends it again once its heartbeat is stale.
        log.exception("downtime job %s failed", job.pk)
        with transaction.atomic():
            write = change_set(campaign=job.campaign_id)
            Job.objects.filter(pk=job.pk).update(status=Job.Status.FAILED, error=str(exc)[:limits.JOB_ERROR],
                                                 finished_at=timezone.now())
            write.changed(job)
            write.publish(JobProgressed(job=job.pk, status=Job.Status.FAILED))
        raise
    return _finish(job.pk)


@contextmanager
def _heartbeat(job_id: int):
    """Move the job's heartbeat every ``JOB_HEARTBEAT_SECONDS`` while the block runs, from a thread
    of its own: a slow batch is no silence, and a dead worker is noticed within seconds."""
    stop = threading.Event()

    def beat():
        try:
            while not stop.wait(settings.JOB_HEARTBEAT_SECONDS):
                try:
                    Job.objects.filter(pk=job_id, status=Job.Status.RUNNING).update(heartbeat_at=timezone.now())
                except Exception:  # a lock wait or a lost connection: the next beat tries again
                    log.warning("job %s: heartbeat not stored", job_id, exc_info=True)
        finally:
            connections.close_all()  # this thread's own connection

    thread = threading.Thread(target=beat, name=f"job-{job_id}-heartbeat", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


def _finish(job_id: int) -> Job:
    """Close the job and move the campaign clock, once."""
    with transaction.atomic():
        job = Job.objects.select_for_update(no_key=True).get(pk=job_id)
        if job.status == Job.Status.DONE:
            return job
        write = change_set(campaign=job.campaign_id)
        campaign = Campaign.objects.select_for_update(no_key=True).get(pk=job.campaign_id)
        hours = int(job.params["hours"])
        before = campaign.game_hours
        campaign.game_hours = before + hours
        campaign.save(update_fields=["game_hours"])
        job.status, job.progress, job.finished_at = Job.Status.DONE, job.total, timezone.now()
        # Stored in English, shown in the reader's language (the job page translates the label).
        job.report = [{"label": gettext_noop("Campaign clock"), "detail": f"{before} h → {campaign.game_hours} h"}]
        job.save(update_fields=["status", "progress", "finished_at", "report"])
        write.audit("downtime.done", said("Downtime of %(hours)s h applied to %(n)s characters", hours=hours,
                                          n=job.total), data={"job": job.pk})
        write.publish(JobProgressed(job=job.pk, status=Job.Status.DONE, done=job.total, total=job.total,
                                    game_hours=campaign.game_hours))
    return job


def jobs_sweep() -> list[int]:
    """Re-send jobs left behind: queued and never picked up, or running with a silent worker."""
    now = timezone.now()
    queued = Job.objects.filter(kind=Job.Kind.DOWNTIME, status=Job.Status.QUEUED,
                                created_at__lt=now - timedelta(seconds=settings.JOB_QUEUED_SECONDS))
    running = Job.objects.filter(kind=Job.Kind.DOWNTIME, status=Job.Status.RUNNING,
                                 heartbeat_at__lt=now - timedelta(seconds=settings.JOB_STALE_SECONDS))
    jobs = [*queued.values_list("pk", "campaign_id", "status"), *running.values_list("pk", "campaign_id", "status")]
    for job_id, campaign_id, status in jobs:
        with transaction.atomic():
            # Moving the heartbeat first keeps two sweeps in a row from sending the job twice.
            Job.objects.filter(pk=job_id).update(heartbeat_at=now)
            # Open job pages fetch the job again and say it was sent to a worker again.
            write = change_set(campaign=campaign_id)
            write.changed(Job(pk=job_id, campaign_id=campaign_id))
            write.publish(JobProgressed(job=job_id, status=status))
        _send(job_id)
    return [job_id for job_id, _, _ in jobs]


def job_health(job: Job, now=None) -> dict | None:
    """What a job page says about a job whose worker fell silent or that was sent again:
    ``{"stalled": bool, "since": time, "retry_by": time, "sends": n}``, or None when all is well."""
    if job.status not in (Job.Status.QUEUED, Job.Status.RUNNING):
        return None
    now = now or timezone.now()
    silent_after = timedelta(seconds=settings.JOB_HEARTBEAT_SECONDS * 2 + 1)
    if job.status == Job.Status.RUNNING and job.heartbeat_at and now - job.heartbeat_at > silent_after:
        retry_by = job.heartbeat_at + timedelta(seconds=settings.JOB_STALE_SECONDS + settings.JOB_SWEEP_SECONDS)
        return {"stalled": True, "since": job.heartbeat_at, "retry_by": max(retry_by, now), "sends": job.sends}
    if job.sends > 1:
        return {"stalled": False, "since": job.heartbeat_at, "retry_by": None, "sends": job.sends}
    return None


# --- Undo -----------------------------------------------------------------------------------------
def restore_wounds(records, *, what: str) -> list[Character]:
    """Put each record's character's wounds back (``campaign.changes.undo``), or refuse naming who
    changed since. ``records`` have ``character_id``, ``before`` and ``after``."""
    def refuse(names):
        return CampaignConflict(_("Cannot undo %(what)s: %(names)s changed since (new wounds, healing or treatment). "
                                  "Undo those first or correct the wounds by hand.")
                                % {"what": what, "names": ", ".join(names)}, field="detail")

    return undo([Recorded(Character, r.character_id, r.before, r.after) for r in records], refuse=refuse,
                name=lambda character: character.name)


@transaction.atomic
def downtime_undo(*, job: Job, by) -> Job:
    """Put every character back as the downtime found them and turn the clock back (GM)."""
    write = change_set(campaign=job.campaign_id, by=by)
    job = Job.objects.select_for_update(no_key=True).get(pk=job.pk)
    if job.kind != Job.Kind.DOWNTIME:
        raise CampaignConflict(_("Only a downtime can be undone here."), field="job")
    if job.undone_at is not None:
        raise CampaignConflict(_("This downtime was already undone."), field="job")
    if job.status != Job.Status.DONE:
        raise CampaignConflict(_("Wait for the downtime to finish before undoing it."), field="job")
    claims = list(job.downtime_claims.all())
    characters = restore_wounds(claims, what=_("this downtime"))
    sheets = sheet_rest.restore_sheets(job)
    write.changed(*Treatment.objects.filter(job=job))
    Treatment.objects.filter(job=job).update(undone_at=timezone.now())
    campaign = Campaign.objects.select_for_update(no_key=True).get(pk=job.campaign_id)
    campaign.game_hours = max(campaign.game_hours - int(job.params["hours"]), 0)
    campaign.save(update_fields=["game_hours"])
    job.undone_at = timezone.now()
    job.save(update_fields=["undone_at"])
    write.audit("downtime.undo", said("%(by)s undid the downtime of %(hours)s h (%(n)s characters)", by=str(by),
                                      hours=job.params["hours"], n=len(claims) + len(sheets)), data={"job": job.pk})
    write.publish(WoundsChanged(characters=[c.pk for c in characters]),
                  JobProgressed(job=job.pk, status="undone", game_hours=campaign.game_hours))
    return job


def job_report(job: Job) -> list[dict]:
    """Return the per-character report of a downtime job, in character order."""
    return [claim.report for claim in job.downtime_claims.order_by("character_id")]

