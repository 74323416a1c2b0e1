"""The campaign's live stream: publish an event, read what came after an id.

DESIGN.md, "Live parts": MacGuffin pools, combat, the roll feed and job progress share one
append-only stream per campaign. A client remembers the last id it saw and asks for what came
after it, so a reconnect neither misses nor repeats an event.
"""

from django.db import connection, transaction

from .models import Campaign, Event

#: One page of events; a client that is further behind asks again from the last id it got.
PAGE = 200
# Keeps the advisory-lock key space of the event stream apart from any other use of such locks.
_LOCK_SPACE = 0x5A47


def event_publish(*, campaign: Campaign | int, kind: str, data: dict | None = None, gm_only: bool = False) -> Event:
    """Append an event to the campaign's stream, inside the caller's transaction.

    Ids come from a sequence when the row is inserted, but transactions commit in their own
    order: a reader could see id 12 before a slower transaction commits id 11 and then never
    ask for 11 again. The transaction-scoped advisory lock makes publishers in one campaign
    queue up until the earlier one commits, so ids become visible in order.
    """
    campaign_id = campaign if isinstance(campaign, int) else campaign.pk
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("event_publish must run inside the write's transaction")
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [_LOCK_SPACE, campaign_id])
    return Event.objects.create(campaign_id=campaign_id, kind=kind, data=data or {}, gm_only=gm_only)


def events_after(*, campaign: Campaign, after: int, is_gm: bool, limit: int = PAGE) -> list[Event]:
    """Return the events after ``after`` that the viewer may see, oldest first."""
    events = Event.objects.filter(campaign=campaign, id__gt=after)
    if not is_gm:
        events = events.filter(gm_only=False)
    return list(events.order_by("id")[:limit])


def last_event_id(*, campaign: Campaign) -> int:
    """Return the id a page opened now starts listening after."""
    return Event.objects.filter(campaign=campaign).order_by("-id").values_list("id", flat=True).first() or 0
