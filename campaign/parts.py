"""Live parts: the fragments of a page that follow an event kind, rendered once per audience.

A page part that every player sees alike (the roll feed, the pools' progress, the tracker's
public view) does not need one render per browser. Each app registers such a part here with
the event kind it follows and a function that renders it for an audience: the GM, or the
players (everyone in the campaign who is not the GM; a part rendered for them shows only what
every member may see). The stream (campaign/stream.py) sends a page the parts it shows, already
rendered, right after the events that changed them, and the page swaps them in without asking.

What differs between two players stays out of these renders and small: a give form or an
attack form sits in a *slot*, an element with an id and ``hx-preserve``. The audience render
leaves an empty slot; the page keeps the one it has (with what was typed in it), and fetches
its own copy of the part only when a slot is new (a new pool, a new turn). Forms in a render
carry the CSRF placeholder, which each page's copy gets its own token for (zenergate_site.csrf).

Renders are kept in the page cache under the campaign's version and the last event id, so the
players' copy is made once per write across every process, every stream and every poll.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.core.cache import cache
from django.template.loader import render_to_string

from zenergate_site import csrf

from . import pagecache
from .events import LiveEvent
from .models import Campaign

log = logging.getLogger(__name__)

#: How long a render stays in the cache: a page that catches up later re-renders.
KEEP_SECONDS = 120
#: Most parts one page may follow (a stream asking for more is cut to this many).
MOST = 8


@dataclass(frozen=True)
class LivePart:
    """A part of a page that follows ``follows`` (an event kind), for one object or the campaign.

    ``key``: the field of the event that names the object the part shows (``"encounter"``), or
    None for a part of the whole campaign. ``render(campaign, key, gm)`` returns the part's HTML
    for the GM (``gm=True``) or for the players, with no request.
    """

    name: str
    follows: type[LiveEvent]
    render: Callable[[Campaign, int | None, bool], str]
    key: str | None = None

    def trigger(self, key: int | None = None) -> str:
        """The name static/js/live.js dispatches for the events this part follows."""
        return self.follows.trigger(**{self.key: key}) if self.key is not None else self.follows.trigger()

    def changed_by(self, kind: str, data: dict, key: int | None) -> bool:
        """Whether an event (its kind and data) changes this part shown for ``key``."""
        if kind != self.follows.kind:
            return False
        if self.key is None:
            return True
        value = data.get(self.key)
        return key in value if isinstance(value, list) else value == key


PARTS: dict[str, LivePart] = {}
#: Renders made by this process, by (part, "gm" or "players"): the tests and the bench count them.
RENDERS: Counter = Counter()


def render_shared(template: str, context: dict) -> str:
    """Render a part's template for an audience: no request, and the CSRF placeholder where the
    forms' token goes (each page's copy gets its own token as it is sent)."""
    return render_to_string(template, {**context, "csrf_token": csrf.PLACEHOLDER, "shared": True})


def register(part: LivePart) -> LivePart:
    """Make a part known (called from its app's ``ready``)."""
    PARTS[part.name] = part
    return part


def wanted(raw: str) -> list[tuple[LivePart, int | None]]:
    """The parts a page asks for: ``"rolls-feed,encounter:3"`` (unknown or malformed ones are left out)."""
    asked: list[tuple[LivePart, int | None]] = []
    for item in raw.split(",")[:MOST]:
        name, _, key = item.strip().partition(":")
        part = PARTS.get(name)
        if part is None or (part.key is None) != (key == ""):
            continue
        if key:
            if not key.isdigit() or len(key) > 18:
                continue
            asked.append((part, int(key)))
        else:
            asked.append((part, None))
    return list(dict.fromkeys(asked))


def changed(asked: Iterable[tuple[LivePart, int | None]], rows) -> list[tuple[LivePart, int | None]]:
    """The asked-for parts that these events (rows the viewer may see) change."""
    rows = list(rows)
    return [(part, key) for part, key in asked if any(part.changed_by(row.kind, row.data, key) for row in rows)]


def render(part: LivePart, key: int | None, *, campaign_id: int, gm: bool, last_event: int) -> str:
    """The part for an audience, rendered once per write: from the cache, else rendered and kept.

    Keyed by the campaign's version *and* the last event id read: a stream woken by a commit
    may read the version a moment before the change set moves it, and must not find the copy
    rendered before that write.
    """
    audience = "gm" if gm else "players"
    cache_key = (f"zg:part:{part.name}:{key}:{audience}:{campaign_id}:"
                 f"{pagecache.version(campaign_id)}:{last_event}")
    try:
        html = cache.get(cache_key)
    except Exception:  # the cache is a convenience: without it, render
        log.warning("page cache unavailable", exc_info=True)
        html = None
    if html is not None:
        return html
    campaign = Campaign.objects.filter(pk=campaign_id).first()
    if campaign is None:  # deleted meanwhile: nothing to show
        return ""
    html = part.render(campaign, key, gm)
    RENDERS[(part.name, audience)] += 1
    try:
        cache.set(cache_key, html, KEEP_SECONDS)
    except Exception:
        log.warning("page cache unavailable", exc_info=True)
    return html
