"""The campaign's events, pushed: a server-sent event stream with exact catch-up.

``GET /campaigns/<id>/stream/`` answers ``text/event-stream``. It first sends every event the
viewer may see after the last id they saw (the ``Last-Event-ID`` header a reconnecting browser
sends, else ``?after=``), then waits, at no cost, until a write to the campaign commits
(campaign/wakeup.py) and sends what that write published. Each frame carries the event's id,
so a reconnect resumes exactly where the last frame ended: nothing missed, nothing twice. A
``ping`` every ``LIVE_STREAM_PING`` seconds keeps proxies from closing an idle connection and
tells the page the connection is alive; after ``LIVE_STREAM_SECONDS`` the stream ends and the
browser reconnects (to any server process) from its last id.

It is served by the ASGI process (uvicorn), where a waiting stream does no work and holds no
database connection: every stream's access check and reads share a few reader threads
(``LIVE_STREAM_READERS``), each with one connection, so a process holding hundreds of pages uses
a handful of connections. Reached
through a WSGI server instead (runserver, the test server), it answers with what is there and
ends, and the browser asks again after ``LIVE_STREAM_POLL_MS``: polling, with the same catch-up.
The poll endpoint (``/api/v1/campaigns/<id>/events/``) stays for clients that cannot stream.
Both send the events ``events.events_after`` reads, filtered by the one audience rule.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import re
import threading
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from importlib import import_module
from urllib.parse import urlsplit

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth import get_user
from django.core.exceptions import DisallowedHost
from django.core.handlers.asgi import ASGIRequest
from django.db import InterfaceError, OperationalError, connection, connections
from django.http import Http404, HttpResponse, HttpResponseBadRequest, HttpResponseNotAllowed, StreamingHttpResponse
from django.middleware.csrf import CsrfViewMiddleware
from django.utils import translation
from django.utils.functional import SimpleLazyObject
from django.views.decorators.http import require_GET

from zenergate_site import csrf
from zenergate_site import language as site_language
from zenergate_site.accounts import checks_viewer_itself, must_choose_password

from . import events, parts
from .audience import can_see
from .models import Event
from .permissions import access_campaign
from .serializers import EventOut
from .wakeup import wakeup

logger = logging.getLogger(__name__)

#: How many events one read sends at most; a longer backlog is sent in several reads.
BATCH = events.PAGE


def _frame(row) -> str:
    """An event's frame, made once however many streams send it."""
    text = getattr(row, "_frame", None)
    if text is None:
        data = json.dumps(EventOut(row).data, separators=(",", ":"))
        text = row._frame = f"id: {row.id}\nevent: zg\ndata: {data}\n\n"
    return text


def _frames(rows) -> str:
    return "".join(_frame(row) for row in rows)


def _part_frame(part: parts.LivePart, key: int | None, html: str | None) -> str:
    """A part's frame, made once per audience: the page swaps ``html`` in (no id: it is not an event)."""
    data = json.dumps({"part": part.name, "key": key, "html": html}, separators=(",", ":"))
    return f"event: part\ndata: {data}\n\n"


def _render_part(campaign_id: int, part: parts.LivePart, key: int | None, gm: bool, last_event: int,
                 language: str) -> str:
    try:
        html = parts.render(part, key, campaign_id=campaign_id, gm=gm, last_event=last_event, language=language)
    except (OperationalError, InterfaceError):
        raise  # the reader reconnects and tries again
    except Exception:
        # A part that fails to render must not end the stream past its events: the page is
        # told to fetch that part itself (html null), and the error is logged.
        logger.exception("live part %s failed to render", part.name)
        html = None
    return _part_frame(part, key, html)


def _ping(*, retry: bool = False) -> str:
    # No id and no count: how far the stream has read includes events this viewer may not see.
    head = f"retry: {settings.LIVE_STREAM_RETRY_MS}\n" if retry else ""
    return f"{head}event: ping\ndata: {{}}\n\n"


def _read(access, user, after: int) -> list:
    """What this viewer may see after ``after`` (one viewer's read: the WSGI answer)."""
    return events.events_after(campaign=access.campaign, after=after, user=user, is_gm=access.is_gm, limit=BATCH)


def _parts_once(access, asked, rows, token: str) -> str:
    """The asked-for parts these events change, for this viewer's audience (the WSGI answer)."""
    if not rows:
        return ""
    return "".join(_render_part(access.campaign.pk, part, key, access.is_gm, rows[-1].id, translation.get_language())
                   for part, key in parts.changed(asked, rows, access.campaign.pk)).replace(csrf.PLACEHOLDER, token)


def _read_all(campaign_id: int, after: int) -> list:
    """Every event after ``after``, whoever may see it: read once, filtered per stream."""
    return list(Event.objects.filter(campaign_id=campaign_id, id__gt=after).order_by("id")[:BATCH])


#: ``_viewer``'s answer for a user who must first replace their one-time password.
MUST_CHOOSE_PASSWORD = object()


def _viewer(request, campaign_id: int):
    """The logged-in user and their access to the campaign (None where they have none): the
    session, the user and the access, read on whatever connection this thread holds."""
    user = request.user
    if not user.is_authenticated:
        return None, None
    if must_choose_password(request):
        return user, MUST_CHOOSE_PASSWORD
    try:
        return user, access_campaign(user=user, campaign_id=campaign_id)
    except Http404:
        return user, None


_readers: ThreadPoolExecutor | None = None


def _reconnecting(func: Callable) -> Callable:
    @functools.wraps(func)
    def call(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except (OperationalError, InterfaceError):
            connection.close()  # the database restarted under this reader: once more, connected anew
            return func(*args, **kwargs)
    return call


def _reader_threads() -> ThreadPoolExecutor:
    global _readers
    if _readers is None:
        _readers = ThreadPoolExecutor(max_workers=settings.LIVE_STREAM_READERS, thread_name_prefix="zg-stream")
    return _readers


def _on_readers(func: Callable) -> Callable:
    """Run ``func`` on the streams' shared reader threads, each keeping its one connection open."""
    return sync_to_async(_reconnecting(func), thread_sensitive=False, executor=_reader_threads())


def close_readers() -> None:
    """Close every reader thread's connection and stop the threads (tests; a process that ends)."""
    global _readers
    if _readers is None:
        return
    readers, _readers = _readers, None
    count = readers._max_workers
    together = threading.Barrier(count)

    def close() -> None:
        connections.close_all()
        together.wait(timeout=10)  # each thread takes one of these, so every thread closes its own

    for future in [readers.submit(close) for _ in range(count)]:
        future.result()
    readers.shutdown()


#: Reads by (campaign, after, wake-up generation): the streams one commit wakes share one query,
#: whether they ask while it runs or after. A later commit moves the generation: a new read.
_reads: dict[tuple[int, int, tuple[int, int]], asyncio.Future] = {}


async def _shared_read(campaign_id: int, after: int) -> list:
    if not wakeup.listening:  # no generation moves without the listener: read for this stream alone
        return await _on_readers(_read_all)(campaign_id, after)
    key = (campaign_id, after, wakeup.generation(campaign_id))
    future = _reads.get(key)
    if future is None or future.get_loop() is not asyncio.get_running_loop():
        for old in [k for k in _reads if k[0] == campaign_id and k[2] != key[2]]:
            del _reads[old]  # an older generation's: no stream asks for it again
        future = _reads[key] = asyncio.ensure_future(_on_readers(_read_all)(campaign_id, after))
        future.add_done_callback(lambda done: done.exception() and _reads.pop(key, None))  # retried, not kept
    return await asyncio.shield(future)  # a stream that goes away does not cancel the others' read


#: Part renders in flight, by (campaign, part, key, audience, last event): the streams one commit
#: wakes share one render per audience; a stream asking after it is done finds it in the cache.
_renders: dict[tuple, asyncio.Future] = {}


async def _shared_part(campaign_id: int, part: parts.LivePart, key: int | None, gm: bool, last_event: int,
                       language: str) -> str:
    ident = (campaign_id, part.name, key, gm, last_event, language)
    future = _renders.get(ident)
    if future is None or future.get_loop() is not asyncio.get_running_loop():
        future = _renders[ident] = asyncio.ensure_future(
            _on_readers(_render_part)(campaign_id, part, key, gm, last_event, language))
        future.add_done_callback(lambda done: _renders.pop(ident, None))
    return await asyncio.shield(future)


async def _events(access, user, after: int, asked=(), request=None, language: str = "en") -> AsyncIterator[str]:
    token = None  # the viewer's CSRF token for the forms in pushed parts, made when one is first sent
    campaign_id = access.campaign.pk
    flag = wakeup.register(campaign_id)  # before the first read: a commit in between still wakes us
    ends = time.monotonic() + settings.LIVE_STREAM_SECONDS
    try:
        yield _ping(retry=True)
        while True:
            flag.clear()
            changed: dict = {}
            while True:  # a backlog longer than a batch is sent in several reads
                rows = await _shared_read(campaign_id, after)
                seen = [row for row in rows if can_see(row.seen, user=user, is_gm=access.is_gm)]
                if seen:
                    yield _frames(seen)
                    changed.update(dict.fromkeys(parts.changed(asked, seen, campaign_id)))
                if rows:
                    after = rows[-1].id  # past what this viewer may not see, too: it never will
                if len(rows) < BATCH:
                    break
            # Then the page's parts those events changed, as they are now: once, after the backlog.
            for part, key in changed:
                frame = await _shared_part(campaign_id, part, key, access.is_gm, after, language)
                if csrf.PLACEHOLDER in frame:
                    token = token or csrf.get_token(request)
                    frame = frame.replace(csrf.PLACEHOLDER, token)
                yield frame
            while True:  # wait for a commit, pinging while idle: an idle stream reads nothing
                left = ends - time.monotonic()
                if left <= 0:
                    return
                try:
                    await asyncio.wait_for(flag.wait(), timeout=min(settings.LIVE_STREAM_PING, left))
                    break
                except TimeoutError:
                    yield _ping()
                    if not wakeup.listening:
                        break  # no listener (the database is coming back): read on each ping instead
    finally:
        wakeup.forget(campaign_id, flag)


def _start_id(request) -> int | None:
    raw = request.headers.get("Last-Event-ID") or request.GET.get("after") or "0"
    try:
        value = int(raw)
    except ValueError:
        return None
    return value if 0 <= value < 2**63 else None


def _page_origin(request) -> str:
    """The origin of the pages that open this stream under ``make run`` (LIVE_STREAM_PAGE_PORT)."""
    host = urlsplit(f"//{request.get_host()}").hostname or ""
    port = settings.LIVE_STREAM_PAGE_PORT or settings.LIVE_STREAM_PORT - 1
    default = {"http": 80, "https": 443}.get(request.scheme)
    host = f"[{host}]" if ":" in host else host
    return f"{request.scheme}://{host}" + ("" if port == default else f":{port}")


def _cors(request, response) -> None:
    """Let the pages' own origin read the stream when it is served from another port or host
    (``make run``: the stream process listens beside gunicorn); cookies come along."""
    origin = request.headers.get("Origin")
    if not origin:
        return
    allowed = origin in settings.LIVE_STREAM_ALLOWED_ORIGINS
    if not allowed and settings.LIVE_STREAM_PORT:
        # A page of the web server beside this process: this very host name and scheme, and the
        # web server's port exactly (any other port or scheme on the host is someone else's).
        allowed = origin == _page_origin(request)
    if allowed:
        response["Access-Control-Allow-Origin"] = origin
        response["Access-Control-Allow-Credentials"] = "true"
        response["Vary"] = "Origin"


def _answer(request, user, access, *, streaming: bool) -> HttpResponse:
    """The stream's answer to a viewer whose access is known: under ASGI the stream itself, under
    WSGI what is there now (a poll)."""
    after = _start_id(request)
    asked = parts.wanted(request.GET.get("parts", ""))
    if user is None:
        response = HttpResponse("Log in to follow the campaign.", status=401, content_type="text/plain")
    elif access is MUST_CHOOSE_PASSWORD:
        response = HttpResponse("Choose your own password first.", status=403, content_type="text/plain")
    elif access is None:
        response = HttpResponse("No such campaign.", status=404, content_type="text/plain")
    elif after is None:
        response = HttpResponse("after (or Last-Event-ID) is an event id: a whole number, 0 or more.",
                                status=400, content_type="text/plain")
    elif streaming:
        # The parts speak the viewer's language, read now: the session is loaded already.
        response = StreamingHttpResponse(_events(access, user, after, asked, request, site_language.for_request(request)),
                                         content_type="text/event-stream")
    else:
        # A WSGI server would hold a thread for as long as a stream stays open: there the answer
        # is what is already there, and the browser asks again after ``retry`` (a poll, with the
        # stream's exact catch-up).
        rows = _read(access, user, after)
        token = csrf.get_token(request) if asked else ""
        response = HttpResponse(f"retry: {settings.LIVE_STREAM_POLL_MS}\nevent: ping\ndata: {{}}\n\n" + _frames(rows)
                                + _parts_once(access, asked, rows, token), content_type="text/event-stream")
    if response.status_code == 200:
        response["Cache-Control"] = "no-store"
        response["X-Accel-Buffering"] = "no"  # nginx: pass each frame on at once
    _cors(request, response)
    return response


@checks_viewer_itself
@require_GET
def campaign_stream(request, campaign_id: int):
    # A plain view, so that it runs as it is under both servers: under ASGI it hands back an
    # async generator that the server streams (no worker thread waits on it); under WSGI it answers
    # at once. The stream processes reach it through ``door`` instead, past the middleware.
    if isinstance(request, ASGIRequest):
        # On the readers' connections: nothing before this line read the database
        # (``checks_viewer_itself``), and this request's thread keeps none for the stream's minutes.
        user, access = _reader_threads().submit(_reconnecting(_viewer), request, campaign_id).result()
        connections.close_all()
        return _answer(request, user, access, streaming=True)
    return _answer(request, *_viewer(request, campaign_id), streaming=False)


# --- The stream processes' door --------------------------------------------------------------
#: The stream's address; ``door`` answers it in the stream processes.
PATH = re.compile(r"/campaigns/([0-9]{1,18})/stream/")
_csrf_secret = CsrfViewMiddleware(lambda request: None)


async def door(request) -> HttpResponse:
    """The stream under the stream processes (zenergate_site/asgi.py), past the middleware.

    Django's ASGI handler gives each request a thread of its own and runs the middleware there:
    six hundred pages opening at once (a night starting, a stream process restarting) would start
    six hundred threads. A stream needs none of it: the host is checked, the session and the CSRF
    secret are read from the cookies as their middleware would, and the viewer (session, user,
    one-time password, access) is read on the readers' threads, like the stream itself.
    """
    campaign_id = int(PATH.fullmatch(request.path_info)[1])
    if request.method != "GET":
        return HttpResponseNotAllowed(["GET"])
    try:
        request.get_host()
    except DisallowedHost:
        return HttpResponseBadRequest("Unknown host.", content_type="text/plain")
    request.session = import_module(settings.SESSION_ENGINE).SessionStore(
        request.COOKIES.get(settings.SESSION_COOKIE_NAME))
    request.user = SimpleLazyObject(lambda: get_user(request))
    _csrf_secret.process_request(request)  # the page's own secret, for the tokens in pushed parts
    user, access = await _on_readers(_viewer)(request, campaign_id)
    response = _answer(request, user, access, streaming=True)
    response["X-Content-Type-Options"] = "nosniff"
    return response
