"""Reads for the campaign app, always scoped by the viewer."""

from django.db.models import Q, QuerySet

from .audience import visible
from .models import Campaign, Job, LogEntry, Membership


def campaign_list(*, viewer) -> QuerySet[Campaign]:
    """Return the campaigns the viewer belongs to (any role)."""
    if not viewer.is_authenticated:
        return Campaign.objects.none()
    return Campaign.objects.filter(memberships__user=viewer, archived_at__isnull=True).distinct().order_by("name", "id")


def archived_list(*, viewer) -> QuerySet[Campaign]:
    """The archived campaigns the viewer is GM of (to restore or delete)."""
    if not viewer.is_authenticated:
        return Campaign.objects.none()
    return Campaign.objects.filter(memberships__user=viewer, memberships__role=Membership.Role.GM,
                                   archived_at__isnull=False).order_by("name", "id")


def membership_list(*, campaign: Campaign) -> QuerySet[Membership]:
    return campaign.memberships.select_related("user").order_by("role", "user__username")


def role_of(*, viewer, campaign: Campaign) -> str | None:
    return campaign.memberships.filter(user=viewer).values_list("role", flat=True).first()


def log_recent(*, campaign: Campaign, user, is_gm: bool, limit: int = 20) -> QuerySet[LogEntry]:
    """The audit lines this member may read, newest first."""
    return visible(campaign.log_entries.select_related("actor"), user=user, is_gm=is_gm)[:limit]


def job_get(*, campaign: Campaign, job_id: int) -> Job:
    return campaign.jobs.get(pk=job_id)


#: Lines a page of the campaign log holds.
LOG_PAGE = 50


def log_kinds(*, campaign: Campaign) -> list[str]:
    """The kinds of audit line the campaign has (the part of the action before the dot), sorted."""
    actions = campaign.log_entries.values_list("action", flat=True).distinct()
    return sorted({action.split(".", 1)[0] for action in actions})


def log_page(*, campaign: Campaign, user, is_gm: bool, kind: str = "", character: int | None = None,
             session: int | None = None, before: int | None = None,
             limit: int = LOG_PAGE) -> tuple[list[LogEntry], int | None]:
    """A page of the audit lines this member may read, newest first, and the id to ask
    ``before`` for the next page (None at the end). ``kind`` keeps one kind of line
    ("character", "combat", …); ``character`` the lines about one character; ``session`` (a
    game night's number) the lines written while it ran."""
    rows = visible(campaign.log_entries.select_related("actor"), user=user, is_gm=is_gm)
    if session is not None:
        night = campaign.sessions.filter(number=session).values("started_at", "ended_at").first()
        if night is None:
            return [], None
        rows = rows.filter(created_at__gte=night["started_at"])
        if night["ended_at"] is not None:
            rows = rows.filter(created_at__lte=night["ended_at"])
    if kind:
        rows = rows.filter(action__startswith=f"{kind}.")
    if character is not None:  # every line naming them: the one it is about, or among several (a fight)
        rows = rows.filter(Q(data__character=character) | Q(data__characters__contains=[character]))
    if before is not None:
        rows = rows.filter(id__lt=before)
    found = list(rows.order_by("-id")[:limit + 1])
    return found[:limit], (found[limit - 1].id if len(found) > limit else None)


def invitations_open(*, campaign: Campaign) -> list:
    """The campaign's invitations that still let someone in, newest first (for its GM)."""
    from django.utils import timezone

    now = timezone.now()
    return [i for i in campaign.invitations.filter(revoked_at__isnull=True) if i.open_now(now)]


def invitation_get(*, campaign: Campaign, invitation_id: int):
    """One of the campaign's invitations, or 404."""
    from django.http import Http404

    invitation = campaign.invitations.filter(pk=invitation_id).first()
    if invitation is None:
        raise Http404("No such invitation.")
    return invitation


def invitations_for(*, user) -> list:
    """Invitations made for this user by name (a campaign imported with them in it)."""
    from django.utils import timezone

    from .models import Invitation

    if not user.is_authenticated:
        return []
    now = timezone.now()
    rows = Invitation.objects.filter(username=user.username, revoked_at__isnull=True).select_related("campaign")
    return [i for i in rows if i.open_now(now)]
