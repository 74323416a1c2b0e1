"""Every write of the campaign app: one transaction each, locking what it checks, logged."""

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from .errors import CampaignConflict, CampaignError
from .models import Campaign, Job, LogEntry, Membership

#: Longest downtime one job may advance (a year): beyond that a typo is likelier than intent.
MAX_DOWNTIME_HOURS = 24 * 365


def log_action(*, campaign: Campaign, actor, action: str, summary: str, data: dict | None = None) -> LogEntry:
    """Record who did what in the campaign's audit trail (call inside the write's transaction)."""
    return LogEntry.objects.create(
        campaign=campaign,
        actor=actor if actor is not None and actor.is_authenticated else None,
        action=action,
        summary=summary[:300],
        data=data or {},
    )


@transaction.atomic
def campaign_create(*, name: str, by, description: str = "", stat_entry: str = Campaign.StatEntry.ENTER) -> Campaign:
    """Create a campaign with its creator as GM."""
    name = (name or "").strip()
    if not name:
        raise CampaignError("Give the campaign a name.", field="name")
    campaign = Campaign.objects.create(name=name, description=description, stat_entry=stat_entry)
    Membership.objects.create(campaign=campaign, user=by, role=Membership.Role.GM)
    log_action(campaign=campaign, actor=by, action="campaign.create", summary=f"{by} created the campaign")
    return campaign


@transaction.atomic
def membership_add(*, campaign: Campaign, username: str, role: str, by) -> Membership:
    """Add an existing user to the campaign with a role."""
    if role not in Membership.Role.values:
        raise CampaignError(f"Role must be one of: {', '.join(Membership.Role.values)}.", field="role")
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise CampaignError(f"There is no user called {username!r}.", field="username")
    # Lock the campaign so two GMs adding the same person at once get one clear answer.
    Campaign.objects.select_for_update().get(pk=campaign.pk)
    if Membership.objects.filter(campaign=campaign, user=user).exists():
        raise CampaignConflict(f"{username} is already in this campaign.", field="username")
    membership = Membership.objects.create(campaign=campaign, user=user, role=role)
    log_action(
        campaign=campaign, actor=by, action="membership.add",
        summary=f"{by} added {username} as {membership.get_role_display()}",
        data={"user": user.pk, "role": role},
    )
    return membership


@transaction.atomic
def downtime_start(*, campaign: Campaign, hours: int, by) -> Job:
    """Queue a downtime job that advances the campaign's clock; the worker runs it after commit."""
    if not isinstance(hours, int) or isinstance(hours, bool) or not 1 <= hours <= MAX_DOWNTIME_HOURS:
        raise CampaignError(f"Hours must be a whole number from 1 to {MAX_DOWNTIME_HOURS}.", field="hours")
    job = Job.objects.create(campaign=campaign, kind=Job.Kind.DOWNTIME, params={"hours": hours}, created_by=by)
    log_action(campaign=campaign, actor=by, action="downtime.start", summary=f"{by} started {hours} h of downtime",
               data={"job": job.pk, "hours": hours})
    from .tasks import run_job  # imported here: tasks import services

    transaction.on_commit(lambda: run_job.delay(job.pk))
    return job


def job_run(*, job_id: int) -> Job:
    """Run a queued job once. Running it again (a retried message) changes nothing."""
    with transaction.atomic():
        job = Job.objects.select_for_update().get(pk=job_id)
        if job.status in (Job.Status.DONE, Job.Status.FAILED):
            return job
        campaign = Campaign.objects.select_for_update().get(pk=job.campaign_id)
        hours = int(job.params["hours"])
        before = campaign.game_hours
        campaign.game_hours = before + hours
        campaign.save(update_fields=["game_hours"])
        job.status = Job.Status.DONE
        job.report = [{"label": "Campaign clock", "detail": f"{before} h → {campaign.game_hours} h"}]
        job.finished_at = timezone.now()
        job.save(update_fields=["status", "report", "finished_at"])
        log_action(campaign=campaign, actor=None, action="downtime.done",
                   summary=f"Downtime of {hours} h applied", data={"job": job.pk})
    return job
