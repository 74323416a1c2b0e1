"""Wake a campaign's open streams the moment a write to it commits: one LISTEN per process.

Every change set that publishes events also sends ``NOTIFY zg_stream, '<campaign id>'``
(campaign/changes.py). PostgreSQL delivers a notification only when its transaction commits,
and never for one rolled back, so a wake-up always finds its events readable. The database
stays the source of truth: a notification carries only the campaign's id, and a woken stream
reads what it has not sent yet from the event table. A process keeps one listening connection
for all its streams, whatever their number.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict

import psycopg
from django.db import connection

log = logging.getLogger(__name__)

CHANNEL = "zg_stream"
RETRY_SECONDS = 1.0


class Wakeup:
    """The process's listener, and the streams waiting on it, by campaign."""

    def __init__(self) -> None:
        self._waiting: dict[int, set[asyncio.Event]] = defaultdict(set)
        self._commits: dict[int, int] = defaultdict(int)
        self._resets = 0
        self._task: asyncio.Task | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.listening = False

    def register(self, campaign_id: int) -> asyncio.Event:
        """An event set whenever ``campaign_id`` commits a write; ``forget`` it when done."""
        self._start()
        flag = asyncio.Event()
        self._waiting[campaign_id].add(flag)
        return flag

    def forget(self, campaign_id: int, flag: asyncio.Event) -> None:
        waiting = self._waiting.get(campaign_id)
        if waiting is not None:
            waiting.discard(flag)
            if not waiting:
                del self._waiting[campaign_id]  # its generation stays: a read cached under it must not come back

    async def stop(self) -> None:
        """Stop listening (a test's event loop ends; the next stream starts a listener again)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self._task, self._loop, self.listening = None, None, False

    def generation(self, campaign_id: int) -> tuple[int, int]:
        """Moves before the streams of ``campaign_id`` are woken: reads made under one value saw
        everything committed before the wake-up that set it."""
        return self._resets, self._commits[campaign_id]

    def _wake(self, campaign_id: int | None) -> None:
        if campaign_id is None:
            self._resets += 1
        else:
            self._commits[campaign_id] += 1
        groups = self._waiting.values() if campaign_id is None else [self._waiting.get(campaign_id, ())]
        for group in groups:
            for flag in group:
                flag.set()

    def _start(self) -> None:
        loop = asyncio.get_running_loop()
        if self._task is not None and not self._task.done() and self._loop is loop:
            return
        # A new event loop (a test's, a restarted server's) gets a listener of its own.
        self._loop, self.listening = loop, False
        self._task = loop.create_task(self._listen(), name="zg-stream-listener")

    async def _listen(self) -> None:
        params = connection.get_connection_params()
        params.pop("cursor_factory", None)
        params.pop("context", None)
        params.pop("prepare_threshold", None)
        params.pop("options", None)  # the lock timeout: a listener takes no locks
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(**params, autocommit=True) as listener:
                    await listener.execute(f"LISTEN {CHANNEL}")
                    self.listening = True
                    self._wake(None)  # whatever committed while no one listened
                    await self._deliver(listener.pgconn)
            except asyncio.CancelledError:
                raise
            except Exception:  # the database restarted, the network dropped: listen again
                log.warning("stream listener lost its connection; listening again", exc_info=True)
            finally:
                self.listening = False
            self._wake(None)  # streams read once more while the listener is away
            await asyncio.sleep(RETRY_SECONDS)


    async def _deliver(self, pgconn) -> None:
        """Wake streams for each notification, sleeping on the socket in between.

        (psycopg's own ``notifies()`` wakes every 100 ms to look; this sleeps until PostgreSQL
        writes, so an idle process spends no CPU. A connection that dies makes the socket
        readable too, and ``consume_input`` then raises.)"""
        loop = asyncio.get_running_loop()
        readable = asyncio.Event()
        socket = pgconn.socket  # kept: a lost connection has none to ask for
        loop.add_reader(socket, readable.set)
        try:
            while True:
                await readable.wait()
                readable.clear()
                pgconn.consume_input()
                while (note := pgconn.notifies()) is not None:
                    with contextlib.suppress(ValueError):
                        self._wake(int(note.extra.decode()))
        finally:
            loop.remove_reader(socket)


wakeup = Wakeup()
