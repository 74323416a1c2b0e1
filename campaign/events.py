"""The campaign's live stream: typed events, and reading what came after an id.

DESIGN.md, "Live parts": MacGuffin pools, combat, the roll feed, wounds and job progress share
one append-only stream per campaign. A client remembers the last id it saw and asks for what
came after it, so a reconnect neither misses nor repeats an event.

Every event kind is a class (Zulip's ``event_types``): its fields are declared, unknown ones
are refused by the constructor, and it carries its audience. Events are published only by a
change set (``campaign.changes``), which writes them when the write's transaction closes.
Each app declares the kinds it publishes next to its services. Page parts follow no kind: they
name the data keys they show, and every write publishes the keys it changed (``KeysChanged``,
campaign.keys); the typed kinds are for the roll feed, the logs and page logic ("your turn").
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import ClassVar

from .audience import EVERYONE, Seen, visible
from .models import Campaign, Event

#: One page of events; a client that is further behind asks again from the last id it got.
PAGE = 200

#: Every kind of event by its name on the stream, filled as the classes are defined.
KINDS: dict[str, type[LiveEvent]] = {}


@dataclass(frozen=True, kw_only=True)
class LiveEvent:
    """One kind of event. Subclasses are frozen keyword-only dataclasses with a ``kind``."""

    kind: ClassVar[str]
    seen: Seen = field(default=EVERYONE, compare=True)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "kind" in cls.__dict__:
            if cls.kind in KINDS and KINDS[cls.kind].__qualname__ != cls.__qualname__:
                raise TypeError(f"Two event classes publish {cls.kind!r}.")
            KINDS[cls.kind] = cls

    def data(self) -> dict:
        """What a client receives: every field but the audience."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "seen"}


# --- Kinds of the table itself --------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class KeysChanged(LiveEvent):
    """What a write changed, as data keys (campaign.keys): published by the change set itself,
    once per audience, just before the write commits. Open pages refresh the parts showing them."""

    kind: ClassVar[str] = "changed"
    keys: list[str]


@dataclass(frozen=True, kw_only=True)
class CampaignChanged(LiveEvent):
    """The campaign's settings changed (its rule set among them): open rollers re-read their form."""

    kind: ClassVar[str] = "campaign"
    fields: list[str]


@dataclass(frozen=True, kw_only=True)
class JobProgressed(LiveEvent):
    """A background job moved: queued, a batch done, finished, failed or undone."""

    kind: ClassVar[str] = "job"
    job: int
    status: str
    done: int | None = None
    total: int | None = None
    game_hours: int | None = None


# --- Reading -------------------------------------------------------------------------------------
def events_after(*, campaign: Campaign, after: int, user, is_gm: bool, limit: int = PAGE) -> list[Event]:
    """Return the events after ``after`` that the viewer may see, oldest first."""
    rows = visible(Event.objects.filter(campaign=campaign, id__gt=after), user=user, is_gm=is_gm)
    return list(rows.order_by("id")[:limit])


def last_event_id(*, campaign: Campaign) -> int:
    """Return the id a page opened now starts listening after."""
    return last_event_id_of(campaign.pk)


def last_event_id_of(campaign_id: int) -> int:
    return Event.objects.filter(campaign_id=campaign_id).order_by("-id").values_list("id", flat=True).first() or 0
