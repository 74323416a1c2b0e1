"""The pushed event stream (campaign/stream.py): catch-up from the last id, pushes on commit,
the audience rule, and what happens when the listener or the server goes away.

The stream runs as it does under uvicorn: Django's AsyncClient makes an ASGI request, and the
test reads the response's frames as a browser's EventSource would. Writes commit for real
(``transaction=True``): PostgreSQL delivers a NOTIFY only on commit.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref.sync import sync_to_async
from django.db import connection, connections, transaction
from django.test import AsyncClient

from campaign import stream
from campaign.models import Event
from campaign.wakeup import wakeup
from rolls import services as rolls

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.stack]


def _stream_url(campaign) -> str:
    return f"/campaigns/{campaign.pk}/stream/"


def _roll(campaign, user, label: str, *, private: bool = False):
    return rolls.roll_notation(campaign=campaign, by=user, text="2d6", label=label, private=private,
                               rng=random.Random(7))


class Reader:
    """A stream's frames as an EventSource sees them: ``(event, id, data)``."""

    def __init__(self, response):
        self.response = response
        self.chunks = response.streaming_content.__aiter__()
        self.buffer = ""
        self.next: asyncio.Future | None = None
        self.ended = False

    async def frames(self, seconds: float, *, until_event: bool = False) -> list[tuple[str, int | None, dict]]:
        """Every frame that arrives within ``seconds`` (or up to the first event, ``until_event``)."""
        found = []
        ends = time.monotonic() + seconds
        while not self.ended and (left := ends - time.monotonic()) > 0:
            # The read in flight is kept, not cancelled, when time is up: cancelling it would
            # cancel the stream itself, which no browser does by waiting.
            self.next = self.next or asyncio.ensure_future(self.chunks.__anext__())
            done, _ = await asyncio.wait({self.next}, timeout=left)
            if not done:
                break
            next_chunk, self.next = self.next, None
            try:
                chunk = next_chunk.result()
            except StopAsyncIteration:
                self.ended = True
                break
            self.buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
            while "\n\n" in self.buffer:
                raw, self.buffer = self.buffer.split("\n\n", 1)
                fields = dict(line.split(": ", 1) for line in raw.splitlines() if ": " in line)
                if "event" in fields:
                    found.append((fields["event"], int(fields["id"]) if "id" in fields else None,
                                  json.loads(fields.get("data", "{}"))))
            if until_event and any(kind == "zg" for kind, _, _ in found):
                break
        return found

    async def close(self) -> None:
        if self.next is not None:
            self.next.cancel()
            with contextlib.suppress(asyncio.CancelledError, StopAsyncIteration):
                await self.next
        await self.chunks.aclose()


def run(coroutine_function):
    """Run an async test body on an event loop of its own, in a thread of its own (a browser test
    before it may have left Playwright's loop on this one), and stop what it started."""
    async def body():
        try:
            await coroutine_function()
        finally:
            await wakeup.stop()
            await sync_to_async(connections.close_all)()

    try:
        with ThreadPoolExecutor(max_workers=1) as thread:
            thread.submit(asyncio.run, body()).result()
    finally:
        stream.close_readers()


async def _open(user, campaign, **headers):
    client = AsyncClient()
    if user is not None:
        await client.aforce_login(user)
    return await client.get(_stream_url(campaign), headers=headers)


def _labels(frames) -> list[str]:
    from rolls.models import Roll

    ids = [data["data"]["roll"] for kind, _, data in frames if kind == "zg" and data["kind"] == "roll"]
    by_id = dict(Roll.objects.filter(pk__in=ids).values_list("pk", "label"))
    return [by_id[i] for i in ids]


def test_a_player_gets_the_backlog_then_each_public_roll_as_it_commits(personas):
    campaign, gm, player = personas["campaign"], personas["gm"], personas["player"]
    _roll(campaign, gm, "before")
    _roll(campaign, gm, "gm secret before", private=True)

    async def body():
        response = await _open(player, campaign)
        assert response.status_code == 200
        assert response["Content-Type"] == "text/event-stream"
        assert response["X-Accel-Buffering"] == "no"
        reader = Reader(response)
        backlog = await reader.frames(1.0)
        assert backlog[0][0] == "ping"  # first, the retry interval and a sign of life
        assert wakeup.listening
        assert await sync_to_async(_labels)(backlog) == ["before"]

        await sync_to_async(_roll)(campaign, gm, "pushed")
        committed = time.monotonic()
        pushed = await reader.frames(2.0, until_event=True)
        assert time.monotonic() - committed < 0.5  # pushed on commit, not found by a poll
        await sync_to_async(_roll)(campaign, gm, "gm secret", private=True)
        pushed += await reader.frames(1.0)
        assert await sync_to_async(_labels)(pushed) == ["pushed"]
        ids = [frame_id for kind, frame_id, _ in backlog + pushed if kind == "zg"]
        assert ids == sorted(set(ids))  # increasing, each once
        await reader.close()

    run(body)


def test_the_gm_sees_secret_rolls_too(personas):
    campaign, gm = personas["campaign"], personas["gm"]

    async def body():
        reader = Reader(await _open(gm, campaign))
        await reader.frames(0.5)
        await sync_to_async(_roll)(campaign, gm, "gm secret", private=True)
        assert await sync_to_async(_labels)(await reader.frames(1.5)) == ["gm secret"]
        await reader.close()

    run(body)


def test_a_reconnect_resumes_after_the_last_event_id(personas):
    campaign, gm, player = personas["campaign"], personas["gm"], personas["player"]
    first = _roll(campaign, gm, "seen")
    _roll(campaign, gm, "missed while away")
    seen = first_event_id = None

    async def body():
        nonlocal seen, first_event_id
        first_reader = Reader(await _open(player, campaign))
        frames = await first_reader.frames(0.8)
        await first_reader.close()
        ids = [frame_id for kind, frame_id, data in frames if kind == "zg" and data["kind"] == "roll"]
        first_event_id = ids[0]
        # The browser sends the last id it saw; it wins over the page's ?after=0.
        again = Reader(await _open(player, campaign, **{"Last-Event-ID": str(first_event_id)}))
        seen = await sync_to_async(_labels)(await again.frames(0.8))
        await again.close()

    run(body)
    assert first.label == "seen"
    assert seen == ["missed while away"]


def test_a_rolled_back_write_wakes_no_one_and_sends_nothing(personas):
    campaign, gm, player = personas["campaign"], personas["gm"], personas["player"]

    def roll_then_fail():
        with pytest.raises(RuntimeError), transaction.atomic():
            _roll(campaign, gm, "never happened")
            raise RuntimeError("the write fails after publishing")

    async def body():
        reader = Reader(await _open(player, campaign))
        await reader.frames(0.5)
        await sync_to_async(roll_then_fail)()
        assert [kind for kind, _, _ in await reader.frames(1.0)] == []
        await sync_to_async(_roll)(campaign, gm, "real")
        assert await sync_to_async(_labels)(await reader.frames(1.5)) == ["real"]
        await reader.close()

    run(body)


def test_the_listener_comes_back_when_its_connection_is_killed(personas):
    """A database restart cuts the listener: it listens again and the stream misses nothing."""
    campaign, gm, player = personas["campaign"], personas["gm"], personas["player"]

    def kill_listeners() -> int:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                           "WHERE query LIKE 'LISTEN %%' AND pid <> pg_backend_pid()")
            return cursor.rowcount

    async def body():
        reader = Reader(await _open(player, campaign))
        await reader.frames(0.5)
        assert wakeup.listening
        assert await sync_to_async(kill_listeners)() == 1
        await sync_to_async(_roll)(campaign, gm, "during the outage")
        # Woken when the listener is back (within RETRY_SECONDS), reading from its last id.
        assert await sync_to_async(_labels)(await reader.frames(3.0)) == ["during the outage"]
        await sync_to_async(_roll)(campaign, gm, "after")
        assert await sync_to_async(_labels)(await reader.frames(1.5)) == ["after"]
        await reader.close()

    run(body)


def test_an_idle_stream_pings_and_ends_for_the_browser_to_reconnect(personas, settings):
    settings.LIVE_STREAM_PING = 0.3
    settings.LIVE_STREAM_SECONDS = 1.0
    campaign, player = personas["campaign"], personas["player"]
    last = str(Event.objects.filter(campaign=campaign).order_by("-id").values_list("id", flat=True).first() or 0)

    async def body():
        reader = Reader(await _open(player, campaign, **{"Last-Event-ID": last}))
        frames = await reader.frames(2.0)
        pings = [data for kind, _, data in frames if kind == "ping"]
        assert 3 <= len(pings) <= 5 and [kind for kind, _, _ in frames if kind != "ping"] == []
        assert reader.ended  # by the server: the browser's EventSource reconnects

    run(body)


@pytest.mark.parametrize("who, status", [(None, 401), ("outsider", 404)])
def test_strangers_get_no_stream(personas, who, status):
    campaign = personas["campaign"]

    async def body():
        response = await _open(personas[who] if who else None, campaign)
        assert response.status_code == status
        assert "event-stream" not in response["Content-Type"]

    run(body)


def test_a_user_with_a_one_time_password_must_choose_their_own_first(personas):
    """The stream checks the one-time password itself (the middleware leaves its viewer unread)."""
    from zenergate_site.accounts import MUST_CHANGE

    campaign, player = personas["campaign"], personas["player"]

    async def body():
        client = AsyncClient()
        await client.aforce_login(player)

        def must_change() -> None:
            session = client.session
            session[MUST_CHANGE] = True
            session.save()

        await sync_to_async(must_change)()
        response = await client.get(_stream_url(campaign))
        assert response.status_code == 403
        assert b"Choose your own password" in response.content

    run(body)


@pytest.mark.parametrize("after", ["-1", "x", "99999999999999999999"])
def test_a_bad_last_id_is_a_400(personas, after):
    campaign, player = personas["campaign"], personas["player"]

    async def body():
        response = await _open(player, campaign, **{"Last-Event-ID": after})
        assert response.status_code == 400
        assert b"whole number" in response.content

    run(body)


def test_through_a_wsgi_server_the_stream_answers_once_and_says_when_to_ask_again(personas, client):
    campaign, gm, player = personas["campaign"], personas["gm"], personas["player"]
    _roll(campaign, gm, "there")
    client.force_login(player)
    response = client.get(_stream_url(campaign))
    assert response.status_code == 200 and response["Content-Type"] == "text/event-stream"
    body = response.content.decode()
    assert body.startswith("retry: 1500\nevent: ping\n")
    assert body.count('"kind":"roll"') == 1 and body.count("event: zg") == 1 + body.count('"kind":"changed"')


def test_the_page_names_the_stream_on_its_own_origin_or_the_stream_servers(personas, client, settings):
    campaign, player = personas["campaign"], personas["player"]
    client.force_login(player)
    page = client.get(f"/campaigns/{campaign.pk}/").content.decode()
    assert f'data-stream="/campaigns/{campaign.pk}/stream/"' in page
    settings.LIVE_STREAM_PORT = 8001  # make run: the next port, on whatever host the page came from
    page = client.get(f"/campaigns/{campaign.pk}/", HTTP_HOST="localhost:8000").content.decode()
    assert f'data-stream="http://localhost:8001/campaigns/{campaign.pk}/stream/"' in page
    settings.LIVE_STREAM_URL = "https://live.example.org"
    page = client.get(f"/campaigns/{campaign.pk}/").content.decode()
    assert f'data-stream="https://live.example.org/campaigns/{campaign.pk}/stream/"' in page


def test_only_the_pages_own_origins_may_read_a_stream_from_another_origin(personas, client, settings):
    settings.LIVE_STREAM_ALLOWED_ORIGINS = ["http://127.0.0.1:8000"]
    campaign, player = personas["campaign"], personas["player"]
    client.force_login(player)
    allowed = client.get(_stream_url(campaign), headers={"Origin": "http://127.0.0.1:8000"})
    assert allowed["Access-Control-Allow-Origin"] == "http://127.0.0.1:8000"
    assert allowed["Access-Control-Allow-Credentials"] == "true"
    other = client.get(_stream_url(campaign), headers={"Origin": "http://evil.example"})
    assert "Access-Control-Allow-Origin" not in other
    # make run (LIVE_STREAM_PORT): the web server's pages on this host, whatever its name
    settings.LIVE_STREAM_PORT = 8001
    same_host = client.get(_stream_url(campaign), HTTP_HOST="localhost:8001",
                           headers={"Origin": "http://localhost:8000"})
    assert same_host["Access-Control-Allow-Origin"] == "http://localhost:8000"
    elsewhere = client.get(_stream_url(campaign), HTTP_HOST="localhost:8001",
                           headers={"Origin": "http://evil.example:8000"})
    assert "Access-Control-Allow-Origin" not in elsewhere
    # The same host name on any other port, or by another scheme, is someone else's page.
    for foreign in ("http://localhost:9999", "https://localhost", "https://localhost:8000", "http://localhost"):
        probe = client.get(_stream_url(campaign), HTTP_HOST="localhost:8001", headers={"Origin": foreign})
        assert "Access-Control-Allow-Origin" not in probe, foreign
    settings.LIVE_STREAM_PAGE_PORT = 8080  # a web server set elsewhere: that port, and no other
    moved = client.get(_stream_url(campaign), HTTP_HOST="localhost:8001", headers={"Origin": "http://localhost:8080"})
    assert moved["Access-Control-Allow-Origin"] == "http://localhost:8080"
    old = client.get(_stream_url(campaign), HTTP_HOST="localhost:8001", headers={"Origin": "http://localhost:8000"})
    assert "Access-Control-Allow-Origin" not in old


def test_a_commit_costs_one_read_however_many_pages_watch(personas, make_user, monkeypatch):
    """Six pages of one table (the GM's, five players') are woken by one roll: one query reads it
    for all of them, and each still gets only what its viewer may see."""
    from campaign import services as campaign_services

    campaign, gm = personas["campaign"], personas["gm"]
    players = [personas["player"], personas["other_player"]]
    for n in range(3):
        players.append(make_user(f"extra{n}"))
        campaign_services.membership_add(campaign=campaign, username=f"extra{n}", role="player", by=gm)
    reads = []
    real = stream._read_all
    monkeypatch.setattr(stream, "_read_all", lambda *args: reads.append(args) or real(*args))

    async def body():
        readers = [Reader(await _open(user, campaign)) for user in [gm, *players]]
        for reader in readers:
            await reader.frames(0.3)
        reads.clear()
        await sync_to_async(_roll)(campaign, gm, "for everyone")
        await sync_to_async(_roll)(campaign, gm, "for the GM", private=True)
        seen = [await sync_to_async(_labels)(await reader.frames(1.0)) for reader in readers]
        assert seen[0] == ["for everyone", "for the GM"]
        assert seen[1:] == [["for everyone"]] * 5
        assert len(reads) <= 2  # once per commit (two rolls), not once per page
        for reader in readers:
            await reader.close()

    run(body)
