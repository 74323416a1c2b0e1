"""Cached pages and API reads, correct by construction: a version per campaign moved by every write.

A sheet of 30 skills takes tens of milliseconds to render, and a table of phones asks for it
over and over while nothing changes. So the expensive part of a read (the rendered page, or
the data an API read serialises) is cached under a key made of

    the page · the object · the viewer (user and, for pages, their CSRF secret) · the campaign's version

and every committed write to anything in the campaign moves the version on (``touch``), so no
cached copy outlives the data it shows. Access is always checked before the cache is asked:
the key includes the viewer, so what a GM sees (their notes) is never served to a player.

Writes are noticed in two ways:

- ``post_save`` / ``post_delete`` on every model of the campaign's apps (``connect_signals``),
  which covers ``save()``, ``create()``, ``delete()`` and queryset deletes;
- an explicit ``touch(campaign_id)`` wherever code writes past the ORM's signals
  (``QuerySet.update``, ``bulk_create``, raw SQL).

The number moves after the commit (``on_commit``): a reader that renders between the commit
and the move caches fresh data under the old number, which nobody asks for again. Entries
also expire after ``PAGE_CACHE_SECONDS``, a bound on staleness should a process die between a
commit and its move. With the cache server down, reads render as if nothing were cached.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import zlib
from collections.abc import Callable
from functools import partial

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, connection, transaction
from django.db.models.signals import post_delete, post_save
from django.http import HttpResponse

from .models import Campaign, Event, PageVersion

log = logging.getLogger(__name__)

#: Models whose writes change no cached page: the live stream (read through its own endpoint)
#: and the version itself.
IGNORED = {PageVersion, Event}
#: Apps whose models live inside a campaign.
APPS = ("campaign", "characters", "combat", "downtime", "transfer")


# --- The version ---------------------------------------------------------------------------
def version(campaign_id: int) -> int:
    """The campaign's current version: a random number that each committed write replaces."""
    # Asked on every cached read, so plain SQL: the ORM would cost more than the look-up.
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT version FROM {PageVersion._meta.db_table} WHERE campaign_id = %s", [campaign_id])
        row = cursor.fetchone()
    return row[0] if row else 0


def touch(campaign_id: int | None) -> None:
    """Move the campaign's version on once the current transaction commits (at once outside one)."""
    if campaign_id is None:
        return
    if connection.in_atomic_block:
        # Once per campaign per transaction: an adventure's payout saves dozens of rows. A move
        # registered inside a savepoint that rolls back is dropped with it, so the next write
        # registers again.
        if any(getattr(func, "campaign_id", None) == campaign_id for _, func, *_ in connection.run_on_commit):
            return
    move = partial(_move, campaign_id)
    move.campaign_id = campaign_id
    transaction.on_commit(move)


def _move(campaign_id: int) -> None:
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


# --- Which campaign a row belongs to ---------------------------------------------------------
_PATHS: dict[type, tuple[str, ...] | None] = {}


def _path_to_campaign(model: type) -> tuple[str, ...] | None:
    """The foreign keys from ``model`` to Campaign (e.g. ("character", "campaign")), found once."""
    if model in _PATHS:
        return _PATHS[model]
    found = None
    queue = [(model, ())]
    seen = {model}
    while queue and found is None:
        current, path = queue.pop(0)
        for field in current._meta.concrete_fields:
            target = getattr(field, "related_model", None)
            if not field.many_to_one and not field.one_to_one or target is None or target in seen:
                continue
            if target is Campaign:
                found = path + (field.name,)
                break
            if target._meta.app_label in APPS and len(path) < 3:
                seen.add(target)
                queue.append((target, path + (field.name,)))
    _PATHS[model] = found
    return found


def campaign_of(instance) -> int | None:
    """The id of the campaign a saved or deleted row belongs to, or None."""
    if isinstance(instance, Campaign):
        return instance.pk
    path = _path_to_campaign(type(instance))
    if not path:
        return None
    first = type(instance)._meta.get_field(path[0])
    value = getattr(instance, first.attname, None)
    if value is None or len(path) == 1:
        return value
    related = first.related_model
    return related.objects.filter(pk=value).values_list("__".join(path[1:]), flat=True).first()


def _on_write(sender, instance, **kwargs) -> None:
    if sender in IGNORED or kwargs.get("raw"):
        return
    touch(campaign_of(instance))


def connect_signals() -> None:
    """Watch every model of the campaign's apps (called from CampaignConfig.ready)."""
    from django.apps import apps

    for model in apps.get_models(include_auto_created=False):
        if model._meta.app_label in APPS and model not in IGNORED:
            uid = f"pagecache:{model._meta.label}"
            post_save.connect(_on_write, sender=model, dispatch_uid=uid + ":save", weak=False)
            post_delete.connect(_on_write, sender=model, dispatch_uid=uid + ":delete", weak=False)


# --- Reading through the cache ---------------------------------------------------------------
def _key(kind: str, name: str, object_id: int, request, campaign_id: int, extra: str = "",
         known: int | None = None) -> str:
    current = version(campaign_id) if known is None else known
    return f"zg:{kind}:{name}:{object_id}:{request.user.pk}:{extra}:{campaign_id}:{current}"


def _get(key: str):
    try:
        return cache.get(key)
    except Exception:  # the cache is a convenience: without it, render
        log.warning("page cache unavailable", exc_info=True)
        return None


def _set(key: str, value) -> None:
    try:
        cache.set(key, value, settings.PAGE_CACHE_SECONDS)
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
    """
    secret = request.META.get("CSRF_COOKIE")
    if (not settings.PAGE_CACHE_SECONDS or request.method != "GET" or request.GET or not secret
            or _has_messages(request)):
        return render()
    # The CSRF secret is part of the key: a page's forms carry a token made from it.
    device = hashlib.blake2b(secret.encode(), digest_size=8).hexdigest()
    htmx = "hx" if request.headers.get("HX-Request") else "page"
    key = _key("page", name, object_id, request, campaign_id, f"{device}:{htmx}", version)
    hit = _get(key)
    if hit is not None:
        packed, content_type = hit
        response = HttpResponse(zlib.decompress(packed), content_type=content_type)
        response["X-Page-Cache"] = "hit"
        return response
    response = render()
    if response.status_code == 200 and not response.streaming and not response.cookies:
        # Stored compressed: a sheet's 70 KB of HTML is a tenth of that, and moves to and from
        # the cache server ten times faster; inflating it costs far less than the transfer.
        _set(key, (zlib.compress(response.content, 1), response["Content-Type"]))
    response["X-Page-Cache"] = "miss"
    return response


def cached_data(request, *, name: str, object_id: int, campaign_id: int, build: Callable[[], object],
                version: int | None = None):
    """Return what ``build`` returns (an API read's data), from the cache when it is current."""
    if not settings.PAGE_CACHE_SECONDS:
        return build()
    key = _key("data", name, object_id, request, campaign_id, known=version)
    hit = _get(key)
    if hit is not None:
        return hit
    data = build()
    _set(key, data)
    return data
