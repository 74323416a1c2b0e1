"""The data keys of the table's own rows (campaign.keys): settings, members, the log, jobs, nights."""

from .audience import GM_ONLY
from .keys import campaign, register
from .models import Campaign, GameSession, Invitation, Job, LogEntry, Membership, SessionNote

register(Campaign, lambda row, _: [campaign(row.pk, "about")])
register(Membership, lambda row, _: [campaign(row.campaign_id, "members")])
register(LogEntry, lambda row, _: [(campaign(row.campaign_id, "log"), row.seen)])
register(Job, lambda row, _: [f"job:{row.pk}", campaign(row.campaign_id, "jobs")])
# The links are the GM's to pass on: nobody else hears of them.
register(Invitation, lambda row, _: [(campaign(row.campaign_id, "invitations"), GM_ONLY)])
register(GameSession, lambda row, _: [f"session:{row.pk}", campaign(row.campaign_id, "sessions")])
register(SessionNote, lambda row, _: [f"session:{row.session_id}/notes"])
