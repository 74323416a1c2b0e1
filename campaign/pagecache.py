"""Cached pages and API reads, correct by construction: a version per campaign moved by every write.

A sheet of 30 skills takes tens of milliseconds to render, and a table of phones asks for it
over and over while nothing changes. So the expensive part of a read (the rendered page, or
the data an API read serialises) is cached under a key made of

    the page · the object · the viewer · the language

stamped with the campaign's version, and every committed write to anything in the campaign
moves the version on. A copy is served only while its stamp is the current version, so no
cached copy outlives the data it shows; the next render takes the stale copy's place. Access is
always checked before the cache is asked: the key includes the viewer, so what a GM sees (their
notes) is never served to a player.

The version is a stamp rather than part of the key so that the cache holds one copy per page
and viewer, however busy the night: with the version in the key, every write left a copy of
every page behind that nobody would ask for again, and the cache server grew with the writes
until they expired.

Writes are noticed in one place: every write goes through a change set (``campaign.changes``),
which moves the version of each campaign it touched once its transaction commits. A reader
that renders between the commit and the move keeps fresh data stamped with the old number,
which the next reader does not take. Entries also expire after ``PAGE_CACHE_SECONDS``, a bound
on staleness should a process die between a commit and its move. With the cache server down,
reads render as if nothing were cached.
"""

from __future__ import annotations

import logging
import secrets
import zlib
from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, connection
from django.http import HttpResponse
from django.utils import translation

from zenergate_site import csrf

from .models import PageVersion

log = logging.getLogger(__name__)


# --- The version ---------------------------------------------------------------------------
def version(campaign_id: int) -> int:
    """The campaign's current version: a random number that each committed write replaces."""
    # Asked on every cached read, so plain SQL: the ORM would cost more than the look-up.
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT version FROM {PageVersion._meta.db_table} WHERE campaign_id = %s", [campaign_id])
        row = cursor.fetchone()
    return row[0] if row else 0


def move_version(campaign_id: int) -> None:
    """Replace the campaign's version (called by the change set once a write commits)."""
    # A fresh random number rather than a count: numbers never repeat, so neither a database
    # restored from a backup (its counters back where they were) nor a new database reusing
    # campaign ids can meet cached copies made for other data.
    try:
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {PageVersion._meta.db_table} (campaign_id, version) VALUES (%s, %s) "
                "ON CONFLICT (campaign_id) DO UPDATE SET version = EXCLUDED.version",
                [campaign_id, secrets.randbits(62)])
    except IntegrityError:  # the campaign was deleted meanwhile: nothing of it is served again
        pass


# --- Reading through the cache ---------------------------------------------------------------
def _key(kind: str, name: str, object_id: int, request, campaign_id: int, extra: str = "") -> str:
    # The viewer's language too: the same page in German is another page.
    return f"zg:{kind}:{name}:{object_id}:{request.user.pk}:{translation.get_language()}:{extra}:{campaign_id}"


def _stamp(campaign_id: int, known: int | None) -> int:
    """The campaign's version: as the access check read it, else asked now."""
    return version(campaign_id) if known is None else known


def kept(key: str, stamp):
    """What is kept under ``key`` if it was kept with this stamp, else None (a stale or no copy)."""
    try:
        hit = cache.get(key)
    except Exception:  # the cache is a convenience: without it, render
        log.warning("page cache unavailable", exc_info=True)
        return None
    # A copy kept by an older release (no stamp) is never taken: its first item is no version.
    if isinstance(hit, tuple) and len(hit) == 2 and hit[0] == stamp:
        return hit[1]
    return None


def keep(key: str, stamp, value, seconds: int | None = None) -> None:
    """Keep ``value`` under ``key`` with its stamp, in place of any older copy."""
    try:
        cache.set(key, (stamp, value), settings.PAGE_CACHE_SECONDS if seconds is None else seconds)
    except Exception:
        log.warning("page cache unavailable", exc_info=True)


def _has_messages(request) -> bool:
    storage = getattr(request, "_messages", None)
    if storage is None:
        return False
    # Looking marks them as shown; a page with messages is rendered (and shows them) anyway.
    return any(True for _ in storage)


def cached_page(request, *, name: str, object_id: int, campaign_id: int,
                render: Callable[[], HttpResponse], version: int | None = None) -> HttpResponse:
    """Serve a page from the cache, or render it and keep it. Call after the access check.

    ``version``: the campaign's version if the access check already read it (``page_version``).
    The page is rendered and kept with the CSRF placeholder, and each copy served gets the
    visitor's own token (zenergate_site.csrf): the key does not depend on the session, so a
    log-in keeps a player's cached pages.
    """
    if not settings.PAGE_CACHE_SECONDS or request.method != "GET" or request.GET or _has_messages(request):
        return render()
    htmx = "hx" if request.headers.get("HX-Request") else "page"
    key = _key("page", name, object_id, request, campaign_id, htmx)
    stamp = _stamp(campaign_id, version)
    hit = kept(key, stamp)
    if hit is not None:
        packed, content_type = hit
        response = HttpResponse(csrf.fill(zlib.decompress(packed), request), content_type=content_type)
        response["X-Page-Cache"] = "hit"
        return response
    with csrf.placeholder_tokens(request):
        response = render()
    if response.status_code == 200 and not response.streaming and not response.cookies:
        # Stored compressed: a sheet's 70 KB of HTML is a tenth of that, and moves to and from
        # the cache server ten times faster; inflating it costs far less than the transfer.
        keep(key, stamp, (zlib.compress(response.content, 1), response["Content-Type"]))
    if not response.streaming:
        response.content = csrf.fill(response.content, request)
    response["X-Page-Cache"] = "miss"
    return response


def cached_data(request, *, name: str, object_id: int, campaign_id: int, build: Callable[[], object],
                version: int | None = None):
    """Return what ``build`` returns (an API read's data), from the cache when it is current."""
    if not settings.PAGE_CACHE_SECONDS:
        return build()
    key = _key("data", name, object_id, request, campaign_id)
    stamp = _stamp(campaign_id, version)
    hit = kept(key, stamp)
    if hit is not None:
        return hit
    data = build()
    keep(key, stamp, data)
    return data
