"""Pushed parts: the page parts rendered once per audience and sent by the stream itself.

Every part of a page says which data keys it shows ({% live %}, campaign.keys); most are
fetched again by the page when one of them changes. A part that every player sees alike (the
roll feed, the pools' progress, the tracker's public view) does not need one fetch per browser.
Each app registers such a part here with the keys it shows and a function that renders it for
an audience: the GM, or the players (everyone in the campaign who is not the GM; a part rendered
for them shows only what every member may see). When a write's keys (the ``changed`` events)
meet a part's keys, the stream (campaign/stream.py) sends each page showing it the part already
rendered, right after the write's events, and the page swaps it in without asking.

What differs between two players stays out of these renders and small: a give form or an
attack form sits in a *slot*, an element with an id and ``hx-preserve``. The audience render
leaves an empty slot; the page keeps the one it has (with what was typed in it), and fetches
its own copy of the part only when a slot is new (a new pool, a new turn). Forms in a render
carry the CSRF placeholder, which each page's copy gets its own token for (zenergate_site.csrf).

Renders are kept in the page cache stamped with the campaign's version and the last event id,
so the players' copy is made once per write across every process, every stream and every poll,
and each new copy takes the place of the one before.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.utils import translation
from django.template.loader import render_to_string

from zenergate_site import csrf

from . import keys as data_keys
from . import pagecache
from .events import KeysChanged
from .models import Campaign

#: How long a render stays in the cache: a page that catches up later re-renders.
KEEP_SECONDS = 120
#: Most parts one page may follow (a stream asking for more is cut to this many).
MOST = 8


@dataclass(frozen=True)
class LivePart:
    """A part of a page rendered once per audience, for one object (``per_object``) or the campaign.

    ``shows(campaign_id, key)`` names the data keys it shows, from the ids alone (the stream asks
    on its event loop, where no query may run). ``render(campaign, key, gm)`` returns the part's
    HTML for the GM (``gm=True``) or for the players, with no request.
    """

    name: str
    shows: Callable[[int, int | None], list[str]]
    render: Callable[[Campaign, int | None, bool], str]
    per_object: bool = False


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
        if part is None or part.per_object != (key != ""):
            continue
        if key:
            if not key.isdigit() or len(key) > 18:
                continue
            asked.append((part, int(key)))
        else:
            asked.append((part, None))
    return list(dict.fromkeys(asked))


def changed_keys(rows) -> set[str]:
    """The data keys these events (rows the viewer may see) say were changed."""
    return {key for row in rows if row.kind == KeysChanged.kind for key in row.data.get("keys", [])}


def changed(asked: Iterable[tuple[LivePart, int | None]], rows, campaign_id: int) -> list[tuple[LivePart, int | None]]:
    """The asked-for parts whose keys these events (rows the viewer may see) changed."""
    keys = changed_keys(rows)
    if not keys:
        return []
    return [(part, key) for part, key in asked if data_keys.any_covered(part.shows(campaign_id, key), keys)]


def audience_cached(what: str, key: int | None, *, campaign_id: int, gm: bool, last_event: int,
                    make: Callable[[], object], language: str | None = None):
    """What ``make`` returns for an audience, made once per write: from the cache, else made and kept.

    Stamped with the campaign's version *and* the last event id read: a stream woken by a commit
    may read the version a moment before the change set moves it, and must not take the copy
    made before that write. ``make`` returns ``None`` for nothing to keep (not kept, not counted).
    """
    audience = "gm" if gm else "players"
    language = language or translation.get_language()  # a copy per audience and per language
    # One copy per part and audience, stamped (pagecache.kept): a stale copy is replaced, not
    # left beside the new one until it expires.
    cache_key = f"zg:part:{what}:{key}:{audience}:{language}:{campaign_id}"
    stamp = (pagecache.version(campaign_id), last_event)
    held = pagecache.kept(cache_key, stamp)
    if held is not None:
        return held
    with translation.override(language):
        made = make()
    if made is None:
        return None
    RENDERS[(what, audience)] += 1
    pagecache.keep(cache_key, stamp, made, KEEP_SECONDS)
    return made


def render(part: LivePart, key: int | None, *, campaign_id: int, gm: bool, last_event: int,
           language: str | None = None) -> str:
    """The part's HTML for an audience in a language (the active one unless given), rendered once
    per write (``audience_cached``)."""
    def make() -> str | None:
        campaign = Campaign.objects.filter(pk=campaign_id).first()
        return None if campaign is None else part.render(campaign, key, gm)  # deleted meanwhile: nothing

    return audience_cached(part.name, key, campaign_id=campaign_id, gm=gm, last_event=last_event, make=make,
                           language=language) or ""
