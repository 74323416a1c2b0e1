"""In Chromium: the stream's server process dies while rolls are being made, and a new one starts
on the same port. The open roller page reconnects by itself and shows every roll exactly once,
without a reload.

Issue requirement: "A browser test cuts the stream (the server process restarted) while events
are published and checks the page shows every event exactly once after it reconnects."

The stream is served as under `make run`: a real uvicorn process (campaign/stream.py under ASGI)
beside the web server (here Django's live server) on another port of the same host. The page
reaches it cross-origin with its cookies (LIVE_STREAM_URL, LIVE_STREAM_ALLOWED_ORIGINS). The
process is killed in the middle of a burst of rolls, and more rolls are made while it is down.
With SIGKILL it says no goodbye and loses any frames in flight. With SIGTERM, uvicorn shuts down
as a deploy would. Then a new process starts. The page must resume from the last event id it saw
(the browser's Last-Event-ID). An event it got before the cut must not come twice, and one made
during the outage must not be missed.

The uvicorn process reads the test database itself (its own LISTEN for commits, its own reader
threads), so writes here commit for real (``transaction=True``).
"""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.db import connection
from django.urls import reverse
from playwright.sync_api import expect

from campaign.models import Event
from conftest import BASE_DIR, _database_url
from rolls import services as rolls

pytestmark = [pytest.mark.browser, pytest.mark.stack, pytest.mark.django_db(transaction=True)]

WAIT_MS = 15_000  # generous: the browser retries a refused stream every LIVE_STREAM_RETRY_MS (1 s)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class StreamProcess:
    """``uvicorn zenergate_site.asgi:application`` on one port, on the test's database and Redis,
    launched as bench/stream/bench_stream.py and `make run` launch it. ``start`` may be called
    again after ``stop``: a restart on the same port."""

    def __init__(self, port: int, *, host: str, allowed_origin: str):
        from django.conf import settings

        self.port = port
        self.origin = f"http://{host}:{port}"
        self.logfile = tempfile.NamedTemporaryFile(prefix="uvicorn-", suffix=".log", delete=False)
        self.env = {
            **os.environ,
            "DATABASE_URL": _database_url(),  # the test database, not the one settings.py names
            "REDIS_URL": settings.CACHES["default"]["LOCATION"],  # under xdist, this worker's own
            "LIVE_STREAM_ALLOWED_ORIGINS": allowed_origin,  # the live server's pages may read it
            "LOG_FORMAT": "plain",
        }
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "zenergate_site.asgi:application", "--host", "127.0.0.1",
             "--port", str(self.port), "--no-access-log", "--log-level", "warning",
             "--timeout-graceful-shutdown", "2"],  # as `make run`: open streams do not hold a SIGTERM up
            env=self.env, cwd=BASE_DIR, stdout=self.logfile, stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 60
        while True:  # uvicorn listens once Django is set up
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError("uvicorn did not start:\n" + self.log()) from None
                time.sleep(0.1)

    def stop(self, sig: int = signal.SIGKILL) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def log(self) -> str:
        return Path(self.logfile.name).read_text(errors="replace")

    def close(self) -> None:
        self.stop()
        Path(self.logfile.name).unlink(missing_ok=True)


class Roller(threading.Thread):
    """Bob rolls every ``every`` seconds in a thread of its own until ``finish()``, so the stream
    can be cut while rolls are being committed. ``made`` lists the roll ids so far."""

    def __init__(self, campaign, by, *, every: float):
        super().__init__(daemon=True)
        self.campaign, self.by, self.every = campaign, by, every
        self.made: list[int] = []
        self.error: BaseException | None = None
        self.done = threading.Event()

    def run(self) -> None:
        try:
            while not self.done.is_set():
                n = len(self.made) + 1
                roll = rolls.roll_notation(campaign=self.campaign, by=self.by, text="2d6", label=f"burst {n}",
                                           rng=random.Random(n))
                self.made.append(roll.pk)
                self.done.wait(self.every)
        except BaseException as exc:  # reported by the test, not lost in the thread
            self.error = exc
        finally:
            connection.close()  # this thread's own connection: the test database is flushed next

    def wait_for(self, count: int, *, seconds: float = 30) -> None:
        deadline = time.monotonic() + seconds
        while len(self.made) < count and self.error is None:
            assert time.monotonic() < deadline, f"only {len(self.made)} of {count} rolls made"
            time.sleep(0.02)
        assert self.error is None, self.error

    def finish(self) -> list[int]:
        self.done.set()
        self.join(timeout=30)
        return list(self.made)


def _received(page) -> list[int]:
    return page.evaluate("window.zgRolls.slice()")


def _wait_until_received(page, count: int, *, seconds: float = WAIT_MS / 1000) -> list[int]:
    """Poll the page (``wait_for_function`` with a string is an eval the page's CSP forbids)."""
    deadline = time.monotonic() + seconds
    while len(received := _received(page)) < count and time.monotonic() < deadline:
        time.sleep(0.1)
    return received


@pytest.fixture
def stream_server(transactional_db, live_server, settings):
    """A stream process beside the live server, as under `make run`. The live server's pages
    open their stream on it (their <meta name="zg-live" data-stream>), and their policy lets
    them connect to it (zenergate_site/csp.py adds LIVE_STREAM_URL to connect-src)."""
    host = urlsplit(live_server.url).hostname  # the same host name: the session cookie goes along
    server = StreamProcess(_free_port(), host=host, allowed_origin=live_server.url)
    settings.LIVE_STREAM_URL = server.origin
    try:
        server.start()
        yield server
    finally:
        print(server.log())  # shown by pytest when the test fails
        server.close()


@pytest.mark.parametrize("cut", [signal.SIGKILL, signal.SIGTERM], ids=["killed", "stopped"])
def test_a_page_shows_every_roll_once_across_a_stream_server_restart(personas, page_for, live_server, stream_server,
                                                                      cut):
    campaign, alice, bob = personas["campaign"], personas["player"], personas["other_player"]
    server = stream_server

    # Alice watches the roller. Every roll event the page dispatches is recorded. A mark on the
    # document proves later that the page was never reloaded, since a reload would wipe both
    # the mark and the record.
    page = page_for(alice)
    stream_requests = []  # every (re)connection the browser makes to the stream
    page.on("request", lambda request: request.url.startswith(server.origin) and stream_requests.append(request))
    with page.expect_response(lambda response: response.url.startswith(server.origin)) as opened:
        page.goto(live_server.url + reverse("campaign-roller", args=[campaign.pk]))
    assert opened.value.status == 200  # the stream is open (cross-origin, logged in) before Bob rolls
    expect(page.locator("#roll-feed")).to_contain_text("No rolls yet")
    page.evaluate("""() => {
        window.zgNotReloaded = true;
        window.zgRolls = [];
        document.body.addEventListener("zg:roll", (e) => window.zgRolls.push(e.detail.roll));
    }""")

    # Bob rolls steadily. Once three of his rolls have been pushed to the page, the process is
    # cut in the middle of the burst. Three more rolls commit while it is down.
    roller = Roller(campaign, bob, every=0.4)
    roller.start()
    try:
        assert len(_wait_until_received(page, 3)) >= 3, "the stream never delivered a roll"
        server.stop(cut)
        cut_at = len(stream_requests)
        roller.wait_for(len(roller.made) + 3)
    finally:
        made = roller.finish()
    assert roller.error is None, roller.error
    expect(page.locator(".live-state")).not_to_have_text("Live", timeout=WAIT_MS)  # the page noticed
    had = _received(page)  # nothing arrives from a dead process: what the page will resume from
    assert had and had == made[:len(had)] and len(had) < len(made), (had, made)

    # A new process on the same port. The browser's own retry finds it, and three more rolls follow.
    server.start()
    for n in range(3):
        made.append(rolls.roll_notation(campaign=campaign, by=bob, text="2d6", label=f"after {n + 1}",
                                        rng=random.Random(100 + n)).pk)
    assert len(made) < 20, "the feed shows the latest 20 rolls: more would leave some out"

    # Every roll once, in order: in the events the page dispatched, and in the feed that the
    # stream's rendered copies keep up to date.
    _wait_until_received(page, len(made))
    time.sleep(1.0)  # a duplicate would follow its backlog at once: give it time to arrive
    received = _received(page)
    assert received == made, f"rolls made {made}, the page dispatched {received}"
    feed = page.locator("#roll-feed li[data-roll]")
    expect(feed).to_have_count(len(made), timeout=WAIT_MS)
    shown = [int(roll) for roll in feed.evaluate_all("items => items.map(li => li.dataset.roll)")]
    assert shown == made[::-1], f"rolls made {made}, the feed shows (newest first) {shown}"
    expect(page.locator(".live-state")).to_have_text("Live", timeout=WAIT_MS)
    assert page.evaluate("window.zgNotReloaded === true")

    # The page came back through the stream, not by falling back to polling. Its reconnection
    # asked to resume after the last event the page had (Last-Event-ID), not from the ?after=
    # in its URL, which still names where the page started. (Attempts refused while the process
    # was down never reached a server.)
    reopened = [request for request in stream_requests[cut_at:]
                if (response := request.response()) is not None and response.status == 200]
    assert len(reopened) == 1, "the page should have reopened the stream on the new process, once"
    last_had = Event.objects.get(campaign=campaign, kind="roll", data__roll=had[-1]).pk
    assert reopened[0].header_value("last-event-id") == str(last_had)
