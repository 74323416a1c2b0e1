"""The recap of a game night, drafted from what happened: the campaign log's lines and the feed's
notable rolls between the session's start and end, in order, in the language of the GM who drafts
it (a night the app closes: in the language the campaign's GM chose for their account).

Bookkeeping (edits to sheets and settings, invitations, accounts) stays out. GM-only lines and
rolls stay out unless the GM asks for them. The GM edits the draft before publishing it.
"""

from __future__ import annotations

from django.utils import formats, translation
from django.utils.translation import gettext as _

from campaign.audience import Audience
from campaign.models import Account, GameSession, LogEntry, Membership
from rolls.models import Roll

#: Kinds of log line a recap tells (the action before the dot), and single actions it tells too.
TOLD = ("combat", "karma", "macguffin", "adventure", "downtime", "transition", "treatment", "complication",
        "language", "wounds")
TOLD_ACTIONS = ("character.approve", "character.create", "character.state", "membership.add")


def _line_told(entry: LogEntry) -> bool:
    kind = entry.action.split(".", 1)[0]
    return kind in TOLD or entry.action in TOLD_ACTIONS


def _roll_told(roll: Roll) -> str:
    """What makes a roll worth telling: a critical, a miracle, a reroll bought with Karma. An
    attack's roll is not told apart: its log line, told already, names the critical hit."""
    detail = roll.detail or {}
    if roll.kind == Roll.Kind.COMBAT:
        return ""
    if detail.get("critical"):
        return _("a critical!")
    if roll.reroll_of_id:
        return _("rerolled with Karma: it worked") if roll.success else _("rerolled with Karma: it failed again")
    dice, base = (roll.params or {}).get("dice"), len(roll.dice or [])
    if isinstance(dice, int) and base > dice and not (roll.params or {}).get("extra"):
        return _("a miracle attempt: it worked") if roll.success else _("a miracle attempt: it failed")
    return ""


def draft(session: GameSession, *, include_gm: bool = False) -> str:
    """The recap's first draft: one line per event worth telling, oldest first."""
    window = {"created_at__gte": session.started_at}
    if session.ended_at is not None:
        window["created_at__lte"] = session.ended_at
    entries = LogEntry.objects.filter(campaign_id=session.campaign_id, **window)
    rolls = Roll.objects.filter(campaign_id=session.campaign_id, **window)
    if not include_gm:
        entries = entries.filter(audience=Audience.EVERYONE)
        rolls = rolls.filter(audience=Audience.EVERYONE)
    told = [(e.created_at, e.pk, e.told) for e in entries.order_by("created_at", "id") if _line_told(e)]
    for roll in rolls.order_by("created_at", "id"):
        why = _roll_told(roll)
        if why:
            values = {"label": roll.told or _("A roll"), "total": roll.total, "why": why}
            told.append((roll.created_at, roll.pk,
                         _("%(label)s (rolled %(total)s: %(why)s)") % values if roll.success is None else
                         _("%(label)s (rolled %(total)s (success): %(why)s)") % values if roll.success else
                         _("%(label)s (rolled %(total)s (failure): %(why)s)") % values))
    told.sort(key=lambda t: (t[0], t[1]))
    heading = _("Session %(number)s, %(date)s") % {
        "number": session.number, "date": formats.date_format(session.started_at, _("D d M Y"))}
    if not told:
        return heading + "\n\n" + _("A quiet night: nothing to tell yet.")
    return heading + "\n\n" + "\n".join(f"- {text}" for _when, _pk, text in told)


def gm_language(campaign_id: int) -> str:
    """The language the campaign's (first) GM chose for their account, else the site's."""
    from django.conf import settings

    chosen = (Account.objects.filter(user__memberships__campaign_id=campaign_id,
                                     user__memberships__role=Membership.Role.GM).exclude(language="")
              .order_by("user__memberships__joined_at").values_list("language", flat=True).first())
    return chosen or settings.LANGUAGE_CODE


def last_activity(session: GameSession):
    """When anything last happened in the session's campaign: a log line or a roll (or its start)."""
    from django.db.models import Max

    moments = [session.started_at,
               LogEntry.objects.filter(campaign_id=session.campaign_id).aggregate(at=Max("created_at"))["at"],
               Roll.objects.filter(campaign_id=session.campaign_id).aggregate(at=Max("created_at"))["at"]]
    return max(moment for moment in moments if moment is not None)


def close_quiet_sessions(now=None) -> list[int]:
    """End each running session with nothing new for ``SESSION_QUIET_HOURS`` (a night the GM
    forgot to close), at its last activity, with its recap drafted for the GM to edit."""
    from datetime import timedelta

    from django.conf import settings
    from django.utils import timezone

    from campaign import sessions

    now = now or timezone.now()
    quiet = timedelta(hours=settings.SESSION_QUIET_HOURS)
    ended = []
    for session in GameSession.objects.filter(ended_at__isnull=True).select_related("campaign"):
        last = last_activity(session)
        if now - last < quiet or session.campaign.archived_at is not None:
            continue
        session.ended_at = last  # the draft tells the night, not the quiet hours after it
        with translation.override(gm_language(session.campaign_id)):
            recap = draft(session)
        sessions.session_end(campaign=session.campaign, by=None, recap=recap, at=last)
        ended.append(session.pk)
    return ended
