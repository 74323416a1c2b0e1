"""Game sessions: the GM starts and ends a game night; what the log and the feed hold between
belongs to it. After it the GM edits the drafted recap and publishes it; members add notes."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from rulebook.words import said
from zenergate_site import limits

from .changes import change_set
from .errors import CampaignConflict, CampaignError
from .events import CampaignChanged
from .models import Campaign, GameSession, SessionNote

#: The longest recap or note a member writes (zenergate_site.limits).
TEXT_LIMIT = limits.SESSION_TEXT


@transaction.atomic
def session_start(*, campaign: Campaign, by) -> GameSession:
    """Open tonight's session (GM); one at a time."""
    changes = change_set(campaign=campaign, by=by)
    changes.lock(Campaign.objects.filter(pk=campaign.pk))
    if GameSession.objects.filter(campaign=campaign, ended_at__isnull=True).exists():
        raise CampaignConflict(_("A session is running already: end it first."), field="session")
    number = (GameSession.objects.filter(campaign=campaign).aggregate(n=Max("number"))["n"] or 0) + 1
    session = GameSession.objects.create(campaign=campaign, number=number, started_at=timezone.now())
    changes.audit("session.start", said("%(by)s started session %(number)s", by=str(by), number=number),
                  data={"session": session.pk})
    changes.publish(CampaignChanged(fields=["session"]))
    return session


@transaction.atomic
def session_end(*, campaign: Campaign, by, recap: str = "", at=None) -> GameSession:
    """Close the running session (GM), with the recap drafted from it (not yet published).

    ``by`` None and ``at`` a past moment: the app closing a night left open (dashboard.recap)."""
    changes = change_set(campaign=campaign, by=by)
    session = (GameSession.objects.select_for_update().filter(campaign=campaign, ended_at__isnull=True).first())
    if session is None:
        raise CampaignConflict(_("No session is running."), field="session")
    session.ended_at = at or timezone.now()
    session.recap = recap[:TEXT_LIMIT]
    session.save(update_fields=["ended_at", "recap"])
    ended = (said("%(by)s ended session %(number)s", by=str(by), number=session.number) if by is not None else
             said("The app ended session %(number)s after hours of quiet", number=session.number))
    changes.audit("session.end", ended, data={"session": session.pk})
    changes.publish(CampaignChanged(fields=["session"]))
    return session


@transaction.atomic
def session_recap_save(*, session: GameSession, by, recap: str, publish: bool) -> GameSession:
    """The GM's edit of a recap; published, the players read it."""
    changes = change_set(campaign=session.campaign_id, by=by)
    if session.ended_at is None:
        raise CampaignConflict(_("End the session before its recap."), field="session")
    if len(recap or "") > TEXT_LIMIT:
        raise CampaignError(_("A recap is at most %(n)s characters.") % {"n": f"{TEXT_LIMIT:,}"}, field="recap")
    session.recap = recap or ""
    if publish and session.published_at is None:
        session.published_at = timezone.now()
        changes.audit("session.recap", said("%(by)s published the recap of session %(number)s", by=str(by),
                                           number=session.number),
                      data={"session": session.pk})
    session.save(update_fields=["recap", "published_at"])
    changes.publish(CampaignChanged(fields=["session"]))
    return session


@transaction.atomic
def session_note_add(*, session: GameSession, by, text: str) -> SessionNote:
    """A member's note on a session."""
    change_set(campaign=session.campaign_id, by=by)
    text = (text or "").strip()
    if not text:
        raise CampaignError(_("Write something first."), field="text")
    if len(text) > TEXT_LIMIT:
        raise CampaignError(_("A note is at most %(n)s characters.") % {"n": f"{TEXT_LIMIT:,}"}, field="text")
    return SessionNote.objects.create(session=session, author=by, text=text)


@transaction.atomic
def next_session_set(*, campaign: Campaign, by, when) -> Campaign:
    """When the group meets next (GM); None clears it."""
    changes = change_set(campaign=campaign, by=by)
    if when is not None and when <= timezone.now():
        raise CampaignError(_("The next session is in the future."), field="next_session_at")
    Campaign.objects.filter(pk=campaign.pk).update(next_session_at=when)
    changes.changed(campaign)
    # The date as numbers (its time zone the site's): the same in every language.
    changes.audit("session.next", said("%(by)s set the next session: %(when)s", by=str(by),
                                       when=f"{timezone.localtime(when):%Y-%m-%d %H:%M}") if when
                  else said("%(by)s cleared the next session's date", by=str(by)))
    changes.publish(CampaignChanged(fields=["next_session_at"]))
    campaign.refresh_from_db()
    return campaign
