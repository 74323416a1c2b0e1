"""Reads for the campaign app, always scoped by the viewer."""

from django.db.models import QuerySet

from .audience import visible
from .models import Campaign, Job, LogEntry, Membership


def campaign_list(*, viewer) -> QuerySet[Campaign]:
    """Return the campaigns the viewer belongs to (any role)."""
    if not viewer.is_authenticated:
        return Campaign.objects.none()
    return Campaign.objects.filter(memberships__user=viewer).distinct().order_by("name", "id")


def membership_list(*, campaign: Campaign) -> QuerySet[Membership]:
    return campaign.memberships.select_related("user").order_by("role", "user__username")


def role_of(*, viewer, campaign: Campaign) -> str | None:
    return campaign.memberships.filter(user=viewer).values_list("role", flat=True).first()


def log_recent(*, campaign: Campaign, user, is_gm: bool, limit: int = 20) -> QuerySet[LogEntry]:
    """The audit lines this member may read, newest first."""
    return visible(campaign.log_entries.select_related("actor"), user=user, is_gm=is_gm)[:limit]


def job_get(*, campaign: Campaign, job_id: int) -> Job:
    return campaign.jobs.get(pk=job_id)
