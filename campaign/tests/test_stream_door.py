"""The stream processes' door (zenergate_site/asgi.py, ``campaign.stream.door``): a stream opened
through the very ASGI application uvicorn serves, past Django's per-request thread and middleware.

It must answer as the view does (who may follow, the catch-up, the parts with each page's own CSRF
token) and read nothing outside the readers' threads, however many pages open at once.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading

import pytest
from asgiref.sync import sync_to_async
from django.db import connections
from django.test import Client

from campaign.tests.test_stream import _roll, run
from combat import services as combat

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.stack]


@pytest.fixture
def application(monkeypatch):
    monkeypatch.setenv("DB_POOL_SIZE", "0")  # the test process's own settings stand
    from zenergate_site.asgi import application

    return application


def _cookies(user) -> str:
    """A browser's cookies after it opened a page: its session and its CSRF secret."""
    client = Client()
    if user is not None:
        client.force_login(user)
    client.get("/accounts/login/")
    return "; ".join(f"{name}={morsel.value}" for name, morsel in client.cookies.items())


class Door:
    """One request to the ASGI application, read as a browser reads it."""

    def __init__(self, application, path: str, cookies: str = "", *, method: str = "GET", host: str = "testserver"):
        self.scope = {
            "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
            "scheme": "http", "path": path.split("?")[0], "raw_path": path.split("?")[0].encode(),
            "query_string": path.partition("?")[2].encode(), "root_path": "",
            "headers": [(b"host", host.encode()), (b"cookie", cookies.encode()), (b"accept", b"text/event-stream")],
            "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", 80)}
        self.status = None
        self.headers: dict = {}
        self.body = ""
        self.arrived = asyncio.Event()
        self.gone = asyncio.Event()
        self.asked = False
        self.task = asyncio.ensure_future(application(self.scope, self._receive, self._send))

    async def _receive(self):
        if not self.asked:
            self.asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await self.gone.wait()
        return {"type": "http.disconnect"}

    async def _send(self, message):
        if message["type"] == "http.response.start":
            self.status = message["status"]
            self.headers = {k.decode().lower(): v.decode() for k, v in message["headers"]}
        else:
            self.body += message.get("body", b"").decode()
        self.arrived.set()

    async def until(self, text: str, seconds: float = 3.0) -> str:
        ends = asyncio.get_running_loop().time() + seconds
        while text not in self.body and not self.task.done():
            self.arrived.clear()
            left = ends - asyncio.get_running_loop().time()
            if left <= 0:
                break
            try:
                await asyncio.wait_for(self.arrived.wait(), left)
            except TimeoutError:
                break
        return self.body

    async def leave(self) -> None:
        self.gone.set()
        await asyncio.wait_for(self.task, 5)


def test_a_player_follows_the_campaign_through_the_door(application, personas):
    campaign, player, gm = personas["campaign"], personas["player"], personas["gm"]
    _roll(campaign, gm, "before")
    cookies = _cookies(player)

    async def body():
        door = Door(application, f"/campaigns/{campaign.pk}/stream/?after=0", cookies)
        assert '"kind":"roll"' in await door.until('"kind":"roll"')  # the catch-up
        assert door.status == 200
        assert door.headers["content-type"] == "text/event-stream"
        assert door.headers["cache-control"] == "no-store"
        assert door.headers["x-content-type-options"] == "nosniff"
        seen = door.body.count('"kind":"roll"')
        await sync_to_async(_roll)(campaign, gm, "pushed")
        await door.until("zg", 0.1)
        for _ in range(30):
            if door.body.count('"kind":"roll"') > seen:
                break
            await door.until("never", 0.1)
        assert door.body.count('"kind":"roll"') == seen + 1  # pushed as it committed
        await door.leave()  # the browser goes: the stream ends with it
        assert door.task.done()

    run(body)


@pytest.mark.parametrize("who, method, host, status", [
    (None, "GET", "testserver", 401),
    ("outsider", "GET", "testserver", 404),
    ("player", "POST", "testserver", 405),
    ("player", "GET", "evil.example", 400),
])
def test_the_door_turns_away_what_the_view_turns_away(application, personas, who, method, host, status):
    cookies = _cookies(personas[who] if who else None)

    async def body():
        door = Door(application, f"/campaigns/{personas['campaign'].pk}/stream/", cookies, method=method, host=host)
        await asyncio.wait_for(door.task, 5)
        assert door.status == status
        assert "event-stream" not in door.headers.get("content-type", "")

    run(body)


def test_everything_else_still_goes_through_django(application):
    async def body():
        door = Door(application, "/healthz")
        await asyncio.wait_for(door.task, 10)
        assert door.status == 200

    run(body)


def test_a_pushed_form_carries_the_pages_own_token_and_it_works(application, personas, make_character):
    campaign, gm = personas["campaign"], personas["gm"]
    alice = make_character("player", name="Alice")
    encounter = combat.encounter_create(campaign=campaign, by=gm, name="Docks")
    combat.combatant_add(encounter=encounter, by=gm, character_id=alice.pk)
    npc = combat.combatant_add(encounter=encounter, by=gm, npc={"name": "Lurker", "stats": {"AWA": 9}})
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(gm)
    browser.get(f"/campaigns/{campaign.pk}/")
    cookies = "; ".join(f"{name}={morsel.value}" for name, morsel in browser.cookies.items())

    async def body():
        door = Door(application, f"/campaigns/{campaign.pk}/stream/?after=0&parts=encounter:{encounter.pk}", cookies)
        text = await door.until("event: part")
        await door.leave()
        return text

    found = {}
    run(lambda: _keep(body, found))
    part = json.loads(re.search(r"event: part\ndata: (.*)\n", found["text"])[1])
    token = re.search(r'name="csrfmiddlewaretoken" value="(\w+)"', part["html"])[1]
    answer = browser.post(f"/encounters/{encounter.pk}/act/", {"action": "reveal", "combatant": npc.pk,
                                                               "csrfmiddlewaretoken": token})
    assert answer.status_code == 302
    npc.refresh_from_db()
    assert npc.revealed


async def _keep(body, found: dict) -> None:
    found["text"] = await body()


def test_a_crowd_opening_at_once_reads_only_on_the_readers_connections(application, personas, make_user, settings):
    """Thirty pages opening together (a night starting, a restart): their sessions, users, access
    and catch-up are all read on the stream's few reader threads, so the process asks PostgreSQL
    for at most LIVE_STREAM_READERS connections, not one per page."""
    from django.db.backends.signals import connection_created

    from campaign import services as campaign_services

    campaign, gm = personas["campaign"], personas["gm"]
    users = [gm, personas["player"], personas["other_player"]]
    for n in range(3):
        users.append(make_user(f"crowd{n}"))
        campaign_services.membership_add(campaign=campaign, username=f"crowd{n}", role="player", by=gm)
    _roll(campaign, gm, "before the night")
    cookies = [_cookies(user) for user in users] * 5
    connections.close_all()
    made = []

    def created(sender, connection, **kwargs):
        made.append(threading.current_thread().name)

    async def body():
        connection_created.connect(created)
        try:
            doors = [Door(application, f"/campaigns/{campaign.pk}/stream/?after=0", jar) for jar in cookies]
            texts = await asyncio.gather(*(door.until('"kind":"roll"') for door in doors))
        finally:
            connection_created.disconnect(created)
        assert [door.status for door in doors] == [200] * 30
        assert all('"kind":"roll"' in text for text in texts)  # every catch-up came
        for door in doors:
            await door.leave()

    run(body)
    assert made and all(name.startswith("zg-stream") for name in made), made
    assert len(made) <= settings.LIVE_STREAM_READERS
