"""Game-session pages: the list (start, end, the next date), and one night's recap and notes."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from campaign import sessions as services
from campaign.errors import CampaignError
from campaign.models import GameSession
from campaign.permissions import access_campaign
from zenergate_site.errors import DomainError

from . import recap


def _when(raw: str):
    """A datetime-local field's value in the site's time zone, or None (empty or unreadable)."""
    value = parse_datetime((raw or "").strip())
    if value is not None and timezone.is_naive(value):
        value = timezone.make_aware(value)
    return value


def sessions_seen(access):
    """The nights a member may read: every one for the GM, the published ones for the others."""
    sessions = access.campaign.sessions.order_by("number")
    return sessions if access.is_gm else sessions.filter(published_at__isnull=False)


def session_for(access, number: int) -> GameSession:
    """One night as ``access`` may read it: a recap not yet published is the GM's alone (404 else)."""
    session = GameSession.objects.filter(campaign=access.campaign, number=number).first()
    if session is None or (not access.is_gm and session.published_at is None):
        raise Http404("No such session.")
    return session


def session_end_drafted(*, campaign, by) -> GameSession:
    """End the running night with its recap drafted from what happened in it (the page and the API)."""
    running = campaign.sessions.filter(ended_at__isnull=True).first()
    return services.session_end(campaign=campaign, by=by, recap=recap.draft(running) if running is not None else "")


@login_required
@require_http_methods(["GET", "POST"])
def sessions_page(request, campaign_id: int):
    access = access_campaign(user=request.user, campaign_id=campaign_id, write=request.method == "POST")
    campaign = access.campaign
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "start":
                session = services.session_start(campaign=campaign, by=request.user)
                messages.success(request, _("Session %(number)s started: everything from now on belongs to it.")
                                 % {"number": session.number})
            elif action == "end":
                session = session_end_drafted(campaign=campaign, by=request.user)
                messages.success(request, _("Session %(number)s ended: its recap is drafted for you to edit.")
                                 % {"number": session.number})
                return redirect("campaign-session", campaign_id=campaign.pk, number=session.number)
            elif action == "next":
                when = _when(request.POST.get("next_session_at", ""))
                if request.POST.get("next_session_at") and when is None:
                    raise CampaignError(_("Give the date and time of the next session."), field="next_session_at")
                services.next_session_set(campaign=campaign, by=request.user, when=when)
                messages.success(request, _("The next session's date is on the dashboard.") if when else
                                 _("The next session's date is cleared."))
        except DomainError as exc:
            messages.error(request, exc.message)
        return redirect("campaign-sessions", campaign_id=campaign.pk)
    listed = sessions_seen(access)
    return render(request, "campaign/sessions.html", {
        "campaign": campaign, "access": access, "sessions": listed,
        "running": campaign.sessions.filter(ended_at__isnull=True).first()})


@login_required
@require_http_methods(["GET", "POST"])
def session_page(request, campaign_id: int, number: int):
    access = access_campaign(user=request.user, campaign_id=campaign_id)
    session = session_for(access, number)
    if request.method == "POST":
        action = request.POST.get("action")
        if action in ("save", "publish", "redraft") and not access.is_gm:
            raise PermissionDenied(_("Only the GM edits the recap."))
        if action == "note" and access.role == "viewer":
            raise PermissionDenied(_("Viewers read; players and the GM write notes."))
        try:
            if action == "redraft":
                text = recap.draft(session, include_gm=request.POST.get("include_gm") == "on")
                services.session_recap_save(session=session, by=request.user, recap=text, publish=False)
                messages.success(request, _("Recap drafted again from the session's events."))
            elif action in ("save", "publish"):
                services.session_recap_save(session=session, by=request.user, recap=request.POST.get("recap", ""),
                                            publish=action == "publish")
                messages.success(request, _("Recap published: the players read it now.") if action == "publish"
                                 else _("Recap saved."))
            elif action == "note":
                services.session_note_add(session=session, by=request.user, text=request.POST.get("text", ""))
                messages.success(request, _("Note added."))
        except DomainError as exc:
            messages.error(request, exc.message)
        return redirect("campaign-session", campaign_id=access.campaign.pk, number=session.number)
    return render(request, "campaign/session.html", {
        "campaign": access.campaign, "access": access, "session": session,
        "notes": session.notes.select_related("author")})
