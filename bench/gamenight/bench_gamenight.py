"""Game nights: simulated tables, each a GM and five players with a browser each.

Starts a throw-away embedded PostgreSQL and Redis (or uses DATABASE_URL / REDIS_URL), builds one
campaign per table (a GM, five players, an encounter with two revealed NPCs), and runs the app as
`make run` does: gunicorn with the production settings (2 workers x 4 threads) for pages, the API
and writes, and the stream's ASGI processes (uvicorn, 2 by default) for pushed events. Then, for each number of
tables, every browser opens the encounter page with the roll feed beside it and behaves as
static/js/live.js does:

* push (the default): one server-sent event stream per browser, asking for the page's parts; a
  part arrives rendered and is swapped in, and the tracker is fetched only when its attack-form
  slot is new (a new turn) or the server could not render it;
* poll (``--mode poll``, the pages before the push): the events API every 1.5 s, then a fetch of
  every fragment an event changes, a refresh that arrives while the same fragment is being
  fetched being dropped as htmx drops it.

Writes, per table: a player's roll every 5 s (the API), the GM's attack every 20 s (the API),
each at a random offset. Measured per run: requests per second by kind, errors, write latency,
visible latency (the write's answer, when its commit is done, to each other browser at the table
holding a part that shows it) p50/p95/p99, server CPU (gunicorn and uvicorn; PostgreSQL and Redis
apart) per event and per browser, idle CPU, and updates missed (a roll or an attack that some
browser at the table never showed).

    .venv/bin/python bench/gamenight/bench_gamenight.py                  # 1, 10, 30, 100 tables, push
    .venv/bin/python bench/gamenight/bench_gamenight.py --mode poll --tables 1 10 30
    .venv/bin/python bench/gamenight/bench_gamenight.py --tables 10 --players 2 --players 11
    .venv/bin/python bench/gamenight/bench_gamenight.py --tables 100 --stream-workers 1
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

ROLL_EVERY = 5.0
ATTACK_EVERY = 20.0
POLL_EVERY = 1.5
IDLE_SECONDS = 10.0
SETTLE_SECONDS = 6.0
ROLL_IN = re.compile(r'data-roll="(\d+)"')
EVENT_IN = re.compile(r'data-event="(\d+)"')
SLOT = re.compile(r'id="(attack-[0-9a-f]+)"')
# A part the page fetches with itself (no data-live-part): its name and the data keys it shows.
FETCHED_PART = re.compile(r'<[a-z]+\b(?=[^>]*\sdata-live="[^"]+")(?![^>]*data-live-part)[^>]*\sdata-live-keys="([^"]*)"')


def _covers(shown: str, changed: str) -> bool:
    return shown == changed or changed.startswith(shown + "/") or shown.startswith(changed + "/")


# --- A small HTTP/1.1 client: one kept-alive connection per browser, as a browser has ----------------
class Http:
    def __init__(self, port: int, cookies: dict, stats: Counter):
        self.port, self.cookies, self.stats = port, cookies, stats
        self.reader = self.writer = None
        self.lock = asyncio.Lock()

    async def _connect(self) -> None:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port, limit=2**22)

    def _cookie(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())

    async def request(self, method: str, path: str, kind: str, *, body: bytes = b"", headers: dict | None = None):
        """``(status, body text)``; the connection is opened again if the server closed it."""
        async with self.lock:  # one request at a time on a connection, as HTTP/1.1 wants
            for attempt in (1, 2):
                try:
                    if self.writer is None:
                        await self._connect()
                    head = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}", f"Cookie: {self._cookie()}"]
                    head += [f"{k}: {v}" for k, v in (headers or {}).items()]
                    if body:
                        head.append(f"Content-Length: {len(body)}")
                    self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
                    await self.writer.drain()
                    status, answer = await self._response()
                    break
                except (ConnectionError, asyncio.IncompleteReadError, OSError):
                    self.writer = None
                    if attempt == 2:
                        self.stats["errors"] += 1
                        return 0, ""
        self.stats[kind] += 1
        if status >= 400:
            self.stats["errors"] += 1
            self.stats[f"error {kind} {status}: {answer[:120]}"] += 1
        return status, answer

    async def _response(self):
        head = await self.reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = {}
        for line in lines[1:]:
            if ": " in line:
                name, value = line.split(": ", 1)
                headers.setdefault(name.lower(), []).append(value)
        for cookie in headers.get("set-cookie", []):
            name, _, rest = cookie.partition("=")
            self.cookies[name] = rest.split(";", 1)[0]
        if "chunked" in ",".join(headers.get("transfer-encoding", [])):
            chunks = []
            while True:
                size = int((await self.reader.readline()).strip() or b"0", 16)
                data = await self.reader.readexactly(size + 2)
                if size == 0:
                    break
                chunks.append(data[:-2])
            body = b"".join(chunks)
        else:
            body = await self.reader.readexactly(int(headers.get("content-length", ["0"])[0]))
        if "close" in ",".join(headers.get("connection", [])).lower():
            self.writer.close()
            self.writer = None
        return status, body.decode()


# --- One browser ------------------------------------------------------------------------------------------
@dataclass
class Browser:
    table: Table
    cookies: dict
    web: int
    stream_port: int
    stats: Counter
    mode: str
    http: Http = None
    after: int = 0
    slot: str = ""
    rolls_shown: dict = field(default_factory=dict)   # roll id -> when first shown
    events_shown: dict = field(default_factory=dict)  # combat event id -> when first shown
    in_flight: set = field(default_factory=set)
    opened: asyncio.Event = field(default_factory=asyncio.Event)
    fetched_keys: set = field(default_factory=set)  # the keys of the page's parts it fetches itself
    refetching: bool = False
    refetch_again: bool = False
    last_id: int = 0  # the last event id the stream delivered: EventSource's Last-Event-ID
    opened_at: list = field(default_factory=list)  # when each stream connection was answered

    def __post_init__(self):
        self.http = Http(self.web, self.cookies, self.stats)

    def show(self, part: str, html: str) -> None:
        now = time.time()
        if part == "roll-feed":
            for roll in ROLL_IN.findall(html):
                self.rolls_shown.setdefault(int(roll), now)
        else:
            for event in EVENT_IN.findall(html):
                self.events_shown.setdefault(int(event), now)
            for roll in ROLL_IN.findall(html):
                self.rolls_shown.setdefault(int(roll), now)

    async def load(self) -> None:
        """Open the encounter page (the tracker) and the roll feed beside it."""
        status, page = await self.http.request("GET", f"/encounters/{self.table.encounter}/", "page")
        if status != 200:
            raise SystemExit(f"the encounter page answered {status}")
        self.after = int(re.search(r'data-after="(\d+)"', page)[1])
        self.slot = (SLOT.search(page) or [None, ""])[1]
        self.fetched_keys = {key for keys in FETCHED_PART.findall(page) for key in keys.split()}
        self.show("encounter", page)
        _, feed = await self.http.request("GET", f"/campaigns/{self.table.campaign}/rolls/", "page")
        self.show("roll-feed", feed)

    async def fetch(self, part: str, *, drop: bool) -> None:
        """Fetch a part as htmx does; ``drop``: a refresh during a fetch of the same part is lost."""
        if part in self.in_flight:
            if drop:
                self.stats["dropped"] += 1
                return
            while part in self.in_flight:  # live.js: once more when the fetch in flight is done
                await asyncio.sleep(0.01)
        self.in_flight.add(part)
        try:
            path = (f"/campaigns/{self.table.campaign}/rolls/" if part == "roll-feed"
                    else f"/encounters/{self.table.encounter}/live/")
            status, html = await self.http.request("GET", path, "fragment", headers={"HX-Request": "true"})
            if status == 200:
                if part == "encounter":
                    self.slot = (SLOT.search(html) or [None, self.slot])[1]
                self.show(part, html)
        finally:
            self.in_flight.discard(part)

    async def refetch(self) -> None:
        """Fetch the page for its parts that are no one else's (live.js's fetch of stale parts):
        never twice at once, once more when a change came during a fetch."""
        if self.refetching:
            self.refetch_again = True
            return
        self.refetching = True
        try:
            while True:
                self.refetch_again = False
                await self.http.request("GET", f"/encounters/{self.table.encounter}/", "page refetch")
                if not self.refetch_again:
                    return
        finally:
            self.refetching = False

    async def run_push(self) -> None:
        asked = quote(f"roll-feed,encounter:{self.table.encounter}")
        # EventSource keeps the last id it saw for every reconnect, a dropped connection's too.
        last = max(self.after, self.last_id)
        while True:
            reader, writer = await asyncio.open_connection("127.0.0.1", self.stream_port, limit=2**22)
            cookie = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
            writer.write((f"GET /campaigns/{self.table.campaign}/stream/?after={self.after}&parts={asked} HTTP/1.1\r\n"
                          f"Host: 127.0.0.1:{self.stream_port}\r\nCookie: {cookie}\r\nLast-Event-ID: {last}\r\n"
                          "Accept: text/event-stream\r\n\r\n").encode())
            await writer.drain()
            head = await reader.readuntil(b"\r\n\r\n")
            if b" 200 " not in head.split(b"\r\n", 1)[0]:
                # live.js gives the stream up for polling: counted, and the page polls from here on
                self.stats["errors"] += 1
                self.stats["error stream " + head.split(b"\r\n", 1)[0].decode(errors="replace")] += 1
                self.stats["fallbacks"] += 1
                writer.close()
                self.opened.set()
                await self.run_poll()
                return
            self.stats["stream opened"] += 1
            self.opened_at.append(time.time())
            self.opened.set()
            buffer = b""
            while data := await reader.read(1 << 20):
                buffer += data
                while b"\n\n" in buffer:
                    raw, buffer = buffer.split(b"\n\n", 1)
                    fields = {}
                    for line in raw.split(b"\n"):
                        # uvicorn sends the body chunked: skip the chunk sizes between frames
                        if b": " in line:
                            name, value = line.split(b": ", 1)
                            fields[name.split(b"\r")[-1].strip()] = value
                    kind = fields.get(b"event")
                    if kind == b"zg":
                        self.stats["events received"] += 1
                        last = self.last_id = int(fields[b"id"])
                        event = json.loads(fields[b"data"])
                        if event["kind"] == "changed" and any(
                                _covers(shown, key) for shown in self.fetched_keys for key in event["data"]["keys"]):
                            asyncio.create_task(self.refetch())  # live.js: the page's own parts
                    elif kind == b"part":
                        self.stats["parts received"] += 1
                        part = json.loads(fields[b"data"])
                        if part["html"] is None:
                            asyncio.create_task(self.fetch(part["part"], drop=False))
                            continue
                        self.show(part["part"], part["html"])
                        if part["part"] == "encounter":
                            slot = (SLOT.search(part["html"]) or [None, self.slot])[1]
                            if slot != self.slot:  # a new turn: the page fetches its own attack form
                                asyncio.create_task(self.fetch("encounter", drop=False))
            writer.close()

    async def run_poll(self) -> None:
        while True:
            started = time.monotonic()
            status, body = await self.http.request(
                "GET", f"/api/v1/campaigns/{self.table.campaign}/events/?after={self.after}", "poll",
                headers={"Accept": "application/json"})
            if status == 200:
                answer = json.loads(body)
                kinds = {event["kind"] for event in answer["events"]}
                self.after = max(self.after, answer["last"])
                self.stats["events received"] += len(answer["events"])
                for part, kind in (("roll-feed", "roll"), ("encounter", "combat")):
                    if kind in kinds:
                        asyncio.create_task(self.fetch(part, drop=True))
            await asyncio.sleep(max(0.0, POLL_EVERY - (time.monotonic() - started)))


@dataclass
class Table:
    campaign: int
    encounter: int
    npcs: tuple[int, int]
    gm: dict
    players: list[dict]
    browsers: list[Browser] = field(default_factory=list)
    rolls: dict = field(default_factory=dict)     # roll id -> (writer, answered at)
    attacks: dict = field(default_factory=dict)   # combat event id -> (writer, answered at)
    write_ms: list = field(default_factory=list)


async def _write(browser: Browser, path: str, payload: dict, kind: str):
    body = json.dumps(payload).encode()
    started = time.time()
    status, answer = await browser.http.request("POST", path, kind, body=body, headers={
        "Content-Type": "application/json", "X-CSRFToken": browser.cookies.get("csrftoken", ""),
        "Accept": "application/json"})
    done = time.time()
    browser.table.write_ms.append((done - started) * 1000)
    return (json.loads(answer) if status in (200, 201) else None), done


async def _table_writes(table: Table, seconds: float, rng: random.Random) -> None:
    """A roll every 5 s by the players in turn, an attack every 20 s by the GM, from a random offset."""
    ends = time.monotonic() + seconds
    next_roll = time.monotonic() + rng.uniform(0, ROLL_EVERY)
    next_attack = time.monotonic() + rng.uniform(0, ATTACK_EVERY)
    turn = 0
    while True:
        soonest = min(next_roll, next_attack)
        if soonest >= ends:
            return
        await asyncio.sleep(max(0.0, soonest - time.monotonic()))
        if next_roll <= next_attack:
            writer = table.browsers[1 + turn % (len(table.browsers) - 1)]
            turn += 1
            roll, at = await _write(writer, f"/api/v1/campaigns/{table.campaign}/rolls/",
                                    {"notation": "3d6", "label": "bench"}, "roll")
            if roll:
                table.rolls[roll["id"]] = (writer, at)
            next_roll += ROLL_EVERY
        else:
            attacker, target = table.npcs if len(table.attacks) % 2 == 0 else table.npcs[::-1]
            event, at = await _write(table.browsers[0], f"/api/v1/encounters/{table.encounter}/attacks/",
                                     {"attacker": attacker, "target": target, "range_m": 3,
                                      "dice": {"attack": [6, 6, 6]}},  # a miss: the fight never ends
                                     "attack")
            if event:
                table.attacks[event["id"]] = (table.browsers[0], at)
            next_attack += ATTACK_EVERY


def _pick(values: list, q: float) -> float:
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


async def _run(tables: list[Table], *, mode: str, seconds: float, processes) -> dict:
    stats = Counter()
    for table in tables:
        for browser in table.browsers:
            browser.stats = browser.http.stats = stats
            browser.rolls_shown.clear()
            browser.events_shown.clear()
    # Open every page, then the live connections, a few at a time as a table's browsers would.
    await asyncio.gather(*(b.load() for t in tables for b in t.browsers))
    runner = "run_push" if mode == "push" else "run_poll"
    tasks = [asyncio.create_task(getattr(b, runner)()) for t in tables for b in t.browsers]
    if mode == "push":
        await asyncio.wait_for(asyncio.gather(*(b.opened.wait() for t in tables for b in t.browsers)), 120)
    await asyncio.sleep(2.0)

    def cpu() -> dict:
        return _cpu_seconds(processes())

    idle_start, stats_idle = cpu(), Counter(stats)
    await asyncio.sleep(IDLE_SECONDS)
    idle = {k: v - idle_start[k] for k, v in cpu().items()}
    idle_requests = sum(stats[k] - stats_idle[k] for k in ("poll", "fragment"))

    busy_start, stats_busy = cpu(), Counter(stats)
    rng = random.Random(7)
    await asyncio.gather(*(_table_writes(t, seconds, rng) for t in tables))
    await asyncio.sleep(SETTLE_SECONDS)
    busy = {k: v - busy_start[k] for k, v in cpu().items()}
    elapsed = seconds + SETTLE_SECONDS
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)

    visible, missed, early = [], 0, 0
    writes = 0
    for table in tables:
        for shown_in, written in (("rolls_shown", table.rolls), ("events_shown", table.attacks)):
            for ident, (writer, at) in written.items():
                writes += 1
                for browser in table.browsers:
                    if browser is writer:
                        continue
                    seen = getattr(browser, shown_in).get(ident)
                    if seen is None:
                        missed += 1
                    else:
                        early += seen < at
                        visible.append(max(0.0, seen - at) * 1000)
    visible.sort()
    write_ms = sorted(ms for t in tables for ms in t.write_ms)
    browsers = sum(len(t.browsers) for t in tables)
    by_kind = {k: (stats[k] - stats_busy[k]) / elapsed for k in ("page", "poll", "fragment", "roll", "attack")}
    # What the writes cost: the busy window's CPU less what the same open pages cost idle.
    app_busy = max(0.0, busy["app"] - idle["app"] * elapsed / IDLE_SECONDS)
    return {
        "tables": len(tables), "browsers": browsers, "mode": mode, "writes": writes,
        "rps": by_kind, "rps_total": sum(by_kind.values()),
        "errors": stats["errors"], "dropped": stats["dropped"], "fallbacks": stats["fallbacks"],
        "missed": missed, "early": early,
        "write_p50": _pick(write_ms, 0.5), "write_p99": _pick(write_ms, 0.99),
        "visible_p50": _pick(visible, 0.5), "visible_p95": _pick(visible, 0.95), "visible_p99": _pick(visible, 0.99),
        "app_cores": busy["app"] / elapsed, "db_cores": busy["db"] / elapsed,
        "web_cores": busy["web"] / elapsed, "stream_cores": busy["stream"] / elapsed,
        "browser_cores": busy["browsers"] / elapsed,
        "app_ms_per_write": app_busy * 1000 / writes if writes else float("nan"),
        "app_ms_per_browser_minute": app_busy * 1000 / browsers * 60 / elapsed,
        "idle_app_ms_per_browser_minute": idle["app"] * 1000 / browsers * 60 / IDLE_SECONDS,
        "idle_requests": idle_requests,
        "parts": stats["parts received"], "events": stats["events received"],
        "error_kinds": {k: v for k, v in stats.items() if k.startswith("error ")},
    }


async def _open_stream(browser: Browser, port: int, answered: list, hold: asyncio.Event) -> None:
    """Open a browser's stream as EventSource does, note (status, seconds to the first frame) in
    ``answered``, and hold the stream open until ``hold`` is set: the crowd stays connected while
    the rest of it opens."""
    started = time.monotonic()
    writer = None
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=2**22)
        cookie = "; ".join(f"{k}={v}" for k, v in browser.cookies.items())
        # From the last event the page saw, as a page just loaded (data-after) or a reconnecting
        # EventSource (Last-Event-ID) asks.
        writer.write((f"GET /campaigns/{browser.table.campaign}/stream/?after={browser.after}&parts=roll-feed "
                      "HTTP/1.1\r\n"
                      f"Host: 127.0.0.1:{port}\r\nCookie: {cookie}\r\nAccept: text/event-stream\r\n\r\n").encode())
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1])
        if status == 200:
            await reader.readuntil(b"\n\n")  # the first frame
        answered.append((status, time.monotonic() - started))
        if status == 200:
            await hold.wait()
    except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError, IndexError):
        answered.append((0, time.monotonic() - started))
    finally:
        if writer is not None:
            writer.close()


async def _burst(browsers: list[Browser], port: int, *, spread: float, connections) -> dict:
    """Every browser opens its stream within ``spread`` seconds: how long each waits for its first
    frame, how many are refused, and the most connections PostgreSQL held meanwhile."""
    hold, answered, peak = asyncio.Event(), [], [0]

    async def sample() -> None:
        while not hold.is_set():
            peak[0] = max(peak[0], await asyncio.to_thread(connections))
            await asyncio.sleep(0.1)

    rng = random.Random(11)

    async def one(browser: Browser) -> None:
        await asyncio.sleep(rng.uniform(0, spread))
        await _open_stream(browser, port, answered, hold)

    sampler = asyncio.create_task(sample())
    tasks = [asyncio.create_task(one(b)) for b in browsers]
    deadline = time.monotonic() + 60
    while len(answered) < len(browsers) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    hold.set()
    await asyncio.gather(*tasks, sampler)
    waits = sorted(seconds * 1000 for status, seconds in answered if status == 200)
    return {"browsers": len(browsers), "opened": len(waits), "errors": len(browsers) - len(waits),
            "statuses": dict(Counter(status for status, _ in answered if status != 200)),
            "p50": _pick(waits, 0.5), "p95": _pick(waits, 0.95), "p99": _pick(waits, 0.99),
            "max": waits[-1] if waits else float("nan"), "db_connections": peak[0]}


def _build_tables(count: int, players: int, row: int, *, endurance: int | None = None) -> list[dict]:
    """A campaign per table: its GM, its players, an encounter with two revealed NPCs (with
    ``endurance``, that much END each: an attack spends END, and a fighter at 0 is dying)."""
    from django.contrib.auth import get_user_model

    from campaign import services as campaign_services
    from combat import services as combat

    User = get_user_model()
    built = []
    for n in range(count):
        gm = User.objects.create_user(username=f"bench-gm-{row}-{n}")
        campaign = campaign_services.campaign_create(name=f"Table {n}", by=gm)
        users = []
        for p in range(players):
            name = f"bench-p{p}-{row}-{n}"
            users.append(User.objects.create_user(username=name))
            campaign_services.membership_add(campaign=campaign, username=name, role="player", by=gm)
        encounter = combat.encounter_create(campaign=campaign, by=gm, name="The customs house")
        npcs = tuple(combat.combatant_add(encounter=encounter, by=gm, npc={
            "name": name, "revealed": True, "stats": {"ACC": 12, "AWA": 12},
            "armour_rating": 6, "armour_type": 3,
            "weapons": [{"name": "Pistol", "damage_points": 1, "ranks": 1}],
            **({"endurance_max": endurance} if endurance else {})}).pk for name in ("Guard", "Smuggler"))
        combat.initiative_roll(encounter=encounter, by=gm, dice={npcs[0]: [6], npcs[1]: [1]})
        built.append({"campaign": campaign.pk, "encounter": encounter.pk, "npcs": npcs, "gm": gm, "players": users})
    return built


def _session(user) -> dict:
    from django.test import Client

    client = Client()
    client.force_login(user)
    return {"sessionid": client.cookies["sessionid"].value}


def _wait_for(port: int, what: str) -> None:
    deadline = time.monotonic() + 60
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise SystemExit(f"{what} did not start") from None
            time.sleep(0.2)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _db_connections() -> int:
    """Client connections PostgreSQL holds now (this one not counted)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend' "
                       "AND pid <> pg_backend_pid()")
        return cursor.fetchone()[0]


def _cpu_seconds(groups: dict) -> dict:
    found = {}
    for name, group in groups.items():
        found[name] = 0.0
        for process in group:
            try:
                times = process.cpu_times()
                found[name] += times.user + times.system
            except Exception:  # a process gone meanwhile
                pass
    return found


def _burst_run(args, servers: list, stream_server, processes, web: int, live: int) -> int:
    """The crowd: ``--burst`` pages open their streams within a second, once with the stream
    processes warm, once right after they restart (every page reconnecting at once)."""
    specs = _build_tables(-(-args.burst // 6), 5, 0)
    stats = Counter()
    browsers = []
    for spec in specs:
        table = Table(spec["campaign"], spec["encounter"], spec["npcs"], spec["gm"], spec["players"])
        for user in [spec["gm"], *spec["players"]]:
            browsers.append(Browser(table, _session(user), web, live, stats, "push"))
    browsers = browsers[:args.burst]
    from django.db import connections
    from django.db.models import Max

    from campaign.models import Event

    last = dict(Event.objects.values_list("campaign_id").annotate(Max("id")))
    for browser in browsers:
        browser.after = last.get(browser.table.campaign, 0)

    connections.close_all()
    rows = []
    for phase in ("opening", "after a restart"):
        if phase == "after a restart":  # uvicorn stops, its streams end; a new one starts
            servers[1].terminate()
            servers[1].wait(timeout=30)
            servers[1] = stream_server()
            _wait_for(live, "uvicorn")
        before = _cpu_seconds(processes())
        row = asyncio.run(_burst(browsers, live, spread=1.0, connections=_db_connections))
        after = _cpu_seconds(processes())
        row["phase"] = phase
        row["cpu_seconds"] = {name: after[name] - before[name] for name in before}
        rows.append(row)
        connections.close_all()
    print(f"\nA crowd: {args.burst} pages open their streams within one second "
          f"({args.stream_workers} stream processes)\n")
    print("| phase | opened | errors | to the first frame p50 / p95 / p99 / max | PostgreSQL connections, most |"
          " CPU-seconds: stream, PostgreSQL |")
    print("|---|---:|---:|---:|---:|---:|")
    for row in rows:
        print(f"| {row['phase']} | {row['opened']} of {row['browsers']} | {row['errors']} | "
              f"{row['p50']:.0f} / {row['p95']:.0f} / {row['p99']:.0f} / {row['max']:.0f} ms | "
              f"{row['db_connections']} | {row['cpu_seconds']['stream']:.1f}, {row['cpu_seconds']['db']:.1f} |")
        if row["statuses"]:
            print(f"  {row['phase']}: refused {row['statuses']}")
    if args.json:
        print(json.dumps(rows, indent=1, default=str))
    return 0 if all(row["errors"] == 0 for row in rows) else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[1, 10, 30, 100])
    parser.add_argument("--mode", choices=["push", "poll"], default="push")
    parser.add_argument("--seconds", type=float, default=60.0, help="writes per run (then a settle)")
    parser.add_argument("--players", type=int, action="append",
                        help="players per table (default 5); given twice or more, one run of --tables[0] each")
    parser.add_argument("--stream-workers", type=int, default=2,
                        help="uvicorn processes for the stream (default 2, as make run and compose start)")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON too")
    parser.add_argument("--burst", type=int, metavar="PAGES",
                        help="instead of game nights: PAGES pages (six a table) open their streams within a second, "
                             "then again right after the stream processes restart")
    args = parser.parse_args()
    seats = args.players or [5]

    import psutil

    from zenergate_site.devstack import Stack

    root = Path(tempfile.mkdtemp(prefix="zg-bench-gamenight-"))
    stack = Stack(root, throwaway=True)
    servers = []
    rows = []
    try:
        web, live = _free_port(), _free_port()
        env = {**os.environ, **stack.start(), "DEBUG": "0", "SECRET_KEY": "bench-" + "x" * 50, "LOG_FORMAT": "plain",
               "ALLOWED_HOSTS": "127.0.0.1,localhost", "PORT": str(web), "LOG_LEVEL": "WARNING",
               "LIVE_STREAM_PORT": str(live)}
        os.environ.update(env)
        manage = [sys.executable, str(ROOT / "manage.py")]
        subprocess.run([*manage, "migrate", "-v", "0"], env=env, check=True, cwd=ROOT)
        servers.append(subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "zenergate_site/gunicorn.conf.py",
                                         "zenergate_site.wsgi:application"], env=env, cwd=ROOT))

        def stream_server() -> subprocess.Popen:
            return subprocess.Popen([sys.executable, "-m", "uvicorn", "zenergate_site.asgi:application", "--port",
                                     str(live), "--no-access-log", "--log-level", "warning",
                                     "--workers", str(args.stream_workers), "--timeout-graceful-shutdown", "2",
                                     "--timeout-keep-alive", "30"], env=env, cwd=ROOT)

        servers.append(stream_server())
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zenergate_site.settings")
        import django

        django.setup()
        _wait_for(web, "gunicorn")
        _wait_for(live, "uvicorn")

        def processes() -> dict:
            app, db, groups = [], [], {}
            for name, server in zip(("web", "stream"), servers, strict=True):
                parent = psutil.Process(server.pid)
                groups[name] = [parent, *parent.children(recursive=True)]
                app += groups[name]
            for process in psutil.process_iter(["name", "cmdline"]):
                line = " ".join(process.info["cmdline"] or [])
                if str(root) in line and ("postgres" in line or "redis" in line):
                    db.append(process)
            for pid in {p.pid for p in db}:
                try:
                    db += psutil.Process(pid).children(recursive=True)
                except psutil.Error:
                    pass
            return {"app": app, "db": list({p.pid: p for p in db}.values()), **groups,
                    "browsers": [psutil.Process()]}

        if args.burst:
            return _burst_run(args, servers, stream_server, processes, web, live)
        plan = [(n, seats[0]) for n in args.tables] if len(seats) == 1 else [(args.tables[0], s) for s in seats]
        for row_number, (count, players) in enumerate(plan):
            specs = _build_tables(count, players, row_number)
            stats = Counter()
            tables = []
            for spec in specs:
                table = Table(spec["campaign"], spec["encounter"], spec["npcs"], spec["gm"], spec["players"])
                for user in [spec["gm"], *spec["players"]]:
                    table.browsers.append(Browser(table, _session(user), web, live, stats, args.mode))
                tables.append(table)
            from django.db import connections

            connections.close_all()
            row = asyncio.run(_run(tables, mode=args.mode, seconds=args.seconds, processes=processes))
            row["players"] = players
            rows.append(row)
            print(f"  {row['tables']} table(s) x {players + 1} browsers: done", flush=True)
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
        stack.stop()

    base = rows[0]
    print(f"\nGame nights, {args.mode}: a roll every {ROLL_EVERY:.0f} s and an attack every {ATTACK_EVERY:.0f} s per "
          f"table for {args.seconds:.0f} s (+{SETTLE_SECONDS:.0f} s to settle); ratios against the first row\n")
    print("| tables | browsers | requests/s (pages, polls, fragments, writes) | errors | write p50 / p99 | "
          "visible p50 / p95 / p99 | app CPU (cores) | DB CPU (cores) | app CPU per write (ratio) | "
          "idle app CPU per browser-minute | missed | dropped | fallbacks to polling |")
    print("|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for row in rows:
        r = row["rps"]
        ratio = row["app_ms_per_write"] / base["app_ms_per_write"] if base["app_ms_per_write"] else float("nan")
        print(f"| {row['tables']} | {row['browsers']} | {row['rps_total']:.0f} ({r['page']:.0f}, {r['poll']:.0f}, "
              f"{r['fragment']:.0f}, {r['roll'] + r['attack']:.1f}) | {row['errors']} | "
              f"{row['write_p50']:.0f} / {row['write_p99']:.0f} ms | "
              f"{row['visible_p50']:.0f} / {row['visible_p95']:.0f} / {row['visible_p99']:.0f} ms | "
              f"{row['app_cores']:.2f} | {row['db_cores']:.2f} | {row['app_ms_per_write']:.1f} ms "
              f"({ratio:.2f}x) | {row['idle_app_ms_per_browser_minute']:.1f} ms | {row['missed']} | {row['dropped']} | "
              f"{row['fallbacks']} |")
    print("\n| tables | app CPU: gunicorn + uvicorn (cores) | the simulated browsers (cores) |\n|---:|---:|---:|")
    for row in rows:
        print(f"| {row['tables']} | {row['web_cores']:.2f} + {row['stream_cores']:.2f} | {row['browser_cores']:.2f} |")
    for row in rows:
        for what, count in row["error_kinds"].items():
            print(f"  {row['tables']} table(s): {count} x {what}")
    if args.json:
        print(json.dumps(rows, indent=1, default=str))
    return 0 if all(row["errors"] == 0 and row["missed"] == 0 for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
