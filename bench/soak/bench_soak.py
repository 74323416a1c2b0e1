"""A night of faults: tables play under `make run`'s own supervisor while every process of the
stack is killed, stopped or restarted in turn; then every acknowledged write is checked.

Starts `python -m zenergate_site.devstack run` (the command `make run` runs: embedded PostgreSQL
and Redis, gunicorn, the stream's uvicorn processes, a Celery worker with its beat, and the
supervisor that starts again whatever dies) in a directory of its own, builds one campaign per
table (a GM and five players with a browser each, following the stream as static/js/live.js does,
bench/gamenight's browsers; a player's character with Karma, a MacGuffin pool, an encounter), and
plays: per table a roll every 5 s, the GM's attack every 20 s, a Karma award and a contribution to
the pool every 30 s, a downtime of an hour of game time every few minutes, and one transition.
Every write carries an idempotency key; a write that gets no answer, or a 503, is sent again with
the same key, as a client would, until it is answered.

A fault every ``--gap`` seconds, each kind ``--rounds`` times, in turn:

- ``worker``: the Celery worker SIGKILLed while a downtime job runs;
- ``redis-kill``: Redis SIGKILLed (the supervisor starts it again);
- ``redis-stop``: Redis stopped (SIGSTOP) for 20 s, then continued;
- ``postgres``: PostgreSQL stopped (fast shutdown; the supervisor starts it again);
- ``stream``: a stream process (uvicorn) SIGKILLed;
- ``web``: a web process (a gunicorn worker) SIGKILLed;
- ``backup``: `manage.py backup` taken mid-play (table 0 holds its writes meanwhile, so that its
  export at that moment can be compared with the backup restored into a database of its own).

What it checks, printed as a table and written as JSON (``--json-out``):

- every acknowledged (2xx) write is in the database exactly once: rolls by their labels, attacks
  by their keys, Karma ledgers against the characters' balances and the awards' keys, the pools'
  progress against their contributions, downtime jobs done once each;
- every refused write was refused with a clear status: no 5xx but 503 with Retry-After, and no
  answer later than 5 s;
- every browser caught up after each fault: the time from the fault's end until a roll made then
  shows at every browser of its table (p50 / p95 / max per kind of fault);
- the backup restores to a campaign whose export matches the one taken when it was made;
- each server process's memory (RSS) over the last 20 minutes grows less than 10 % (a process a
  fault replaced is judged from five minutes after its start); file descriptors come back to
  their idle counts, give or take what each process's pools hold, and database connections too.

    .venv/bin/python bench/soak/bench_soak.py                                   # 20 tables, 30 min, each fault twice
    .venv/bin/python bench/soak/bench_soak.py --tables 2 --minutes 2 --rounds 1 --gap 8 --downtime-every 20  # CI
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench" / "gamenight"))

import bench_gamenight as night  # noqa: E402  (the game night's browsers and tables)

FAULTS = ("worker", "redis-kill", "redis-stop", "postgres", "stream", "web", "backup")
ROLL_EVERY, ATTACK_EVERY, KARMA_EVERY = 5.0, 20.0, 30.0
SLOW = 5.0  # an answer later than this is a hang
REDIS_STOPPED = 20.0
CAUGHT_UP_WITHIN = 5.0
GIVE_UP = 120.0  # a write not answered after this long is counted as lost


# --- The stack, as `make run` starts it ---------------------------------------------------------------
class Stack:
    def __init__(self, directory: Path, port: int):
        self.dir, self.port = directory, port
        self.log = open(directory / "devstack.log", "w")  # noqa: SIM115 - open for the night
        env = {**os.environ, "DEVSTACK_DIR": str(directory / "devstack"), "STATIC_ROOT": str(directory / "static"),
               "PORT": str(port), "LOG_LEVEL": "WARNING", "SECRET_KEY": "soak-" + "x" * 50,
               "ALLOWED_HOSTS": "127.0.0.1,localhost", "STREAM_WORKERS": "2"}
        env.pop("DATABASE_URL", None)
        env.pop("REDIS_URL", None)
        self.process = subprocess.Popen([sys.executable, "-m", "zenergate_site.devstack", "run", "--port", str(port)],
                                        env=env, cwd=ROOT, stdout=self.log, stderr=subprocess.STDOUT,
                                        start_new_session=True)

    def env(self) -> dict:
        path = self.dir / "devstack" / "env"
        deadline = time.monotonic() + 180
        while not path.exists() or "REDIS_URL" not in path.read_text():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the stack did not start: see {self.dir / 'devstack.log'}")
            time.sleep(0.5)
        return dict(line.split("=", 1) for line in path.read_text().splitlines() if "=" in line)

    def processes(self) -> dict[str, list]:
        """The stack's processes by role (found afresh: the supervisor replaces what dies)."""
        import psutil

        roles = defaultdict(list)
        try:
            tree = psutil.Process(self.process.pid).children(recursive=True)
        except psutil.Error:
            return roles
        devstack = str(self.dir)
        for proc in psutil.process_iter(["pid", "cmdline", "ppid"]):
            line = " ".join(proc.info["cmdline"] or [])
            if devstack in line and "redis-server" in line:
                roles["redis"].append(proc)
            elif devstack in line and "postgres" in line and "-D" in line:
                roles["postgres"].append(proc)
        for proc in tree:
            try:
                line = " ".join(proc.cmdline())
            except psutil.Error:
                continue
            if "gunicorn" in line:
                roles["web"].append(proc)
            elif "uvicorn" in line or "multiprocessing" in line and "spawn_main" in line:
                roles["stream"].append(proc)
            elif "celery" in line:
                roles["worker"].append(proc)
        return roles

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
        self.log.close()


# --- Writes a client sends until they are answered -------------------------------------------------------
class Ledger:
    """What was sent, what the server acknowledged, and how each answer came."""

    def __init__(self):
        self.acked: dict[str, list] = defaultdict(list)  # kind -> [(key, answer)]
        self.statuses = Counter()
        self.bad: list[str] = []  # 5xx other than 503 with Retry-After, or an answer past SLOW
        self.lost: list[str] = []
        self.unanswered = Counter()  # why a request got no answer: the exception's name
        self.refused = Counter()  # writes the game refused (409), by kind
        self.reasons = Counter()  # the game's refusals: (kind, what it said)

    async def send(self, browser, kind: str, path: str, payload: dict, key: str) -> dict | None:
        """POST until a 2xx or a refusal that is final (4xx): a 503, a dropped connection or no
        answer is retried after a pause, with the same idempotency key."""
        body = json.dumps({**payload, "idempotency_key": key}).encode()
        started = time.monotonic()
        pause = 0.5
        last = "no answer"
        while time.monotonic() - started < GIVE_UP:
            sent = time.monotonic()
            try:
                status, answer, headers = await asyncio.wait_for(_post(browser, path, body), timeout=30)
            except (asyncio.TimeoutError, ConnectionError, OSError, asyncio.IncompleteReadError) as exc:
                status, answer, headers = 0, "", {}
                self.unanswered[type(exc).__name__] += 1
            took = time.monotonic() - sent
            self.statuses[status] += 1
            last = f"{status} {answer[:160]}"
            if took > SLOW:
                self.bad.append(f"{kind}: answered {status} after {took:.1f} s")
            if 200 <= status < 300:
                parsed = json.loads(answer) if answer else {}
                self.acked[kind].append((key, parsed))
                return parsed
            if status >= 500 and not (status == 503 and "retry-after" in headers):
                self.bad.append(f"{kind}: {status} {answer[:160]}")
            if status == 409 and "again" not in answer:  # the game's refusal, said clearly: final
                self.refused[kind] += 1
                self.reasons[f"{kind}: {answer[:120]}"] += 1
                return None
            if 400 <= status < 500 and status not in (408, 409, 429):  # 409 "try again": a lock was busy
                self.bad.append(f"{kind}: refused {status} {answer[:160]}")
                return None
            await asyncio.sleep(pause)
            pause = min(pause * 2, 4.0)
        self.lost.append(f"{kind} {key}: last answer {last}")
        return None


async def _post(browser, path: str, body: bytes):
    """One POST on the browser's connection: (status, body, headers). A kept-alive connection the
    server closed while idle is opened again and the request sent on it, as browsers do (nothing
    was answered on the old one)."""
    http = browser.http
    async with http.lock:
        head = [f"POST {path} HTTP/1.1", f"Host: 127.0.0.1:{http.port}", f"Cookie: {http._cookie()}",
                "Content-Type: application/json", "Accept: application/json",
                f"X-CSRFToken: {browser.cookies.get('csrftoken', '')}", f"Content-Length: {len(body)}"]
        for attempt in (1, 2):
            reused = http.writer is not None
            if not reused:
                await http._connect()
            try:
                http.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
                await http.writer.drain()
                line = await http.reader.readuntil(b"\r\n\r\n")
                break
            except (ConnectionError, asyncio.IncompleteReadError) as exc:
                http.writer = None
                nothing = not getattr(exc, "partial", b"")
                if not (reused and nothing and attempt == 1):
                    raise
            except Exception:
                http.writer = None
                raise
        lines = line.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = {k.lower(): v for k, v in (part.split(": ", 1) for part in lines[1:] if ": " in part)}
        size = int(headers.get("content-length", "0"))
        answer = (await http.reader.readexactly(size)).decode() if size else ""
        if "chunked" in headers.get("transfer-encoding", ""):
            http.writer = None  # not read here: start a fresh connection
        if "close" in headers.get("connection", "").lower():
            http.writer.close()
            http.writer = None
        return status, answer, headers


class ResilientBrowser(night.Browser):
    """bench/gamenight's browser, reconnecting as EventSource does when the stream process is gone
    (a refused or dropped connection: again after its retry), and polling meanwhile when the
    stream answers with an error (live.js's fallback, tried again later)."""

    async def run_push(self) -> None:
        while True:
            try:
                await super().run_push()
                return
            except (ConnectionError, OSError, asyncio.IncompleteReadError):
                self.stats["stream reconnects"] += 1
                await asyncio.sleep(1.0)

    async def run_poll(self) -> None:
        """Poll until the stream is tried again (30 s on, as live.js does), then push."""
        poller = asyncio.create_task(super().run_poll())
        await asyncio.sleep(30)
        poller.cancel()
        await self.run_push()


# --- The night ------------------------------------------------------------------------------------------
def _build(count: int) -> list[dict]:
    """bench/gamenight's tables, each with a player's character holding Karma and a pool."""
    from characters import lifecycle, services as characters
    from economy import services as economy
    from economy.tests.conftest import BASE_STATS, HIGH_ORDER, PROFESSION
    from characters import items

    # Each attack spends the attacker's END, and a fighter at END 0 is dying and acts no more:
    # fighters with END 100 last the night's attacks (one every 20 s per table, in turn).
    tables = night._build_tables(count, 5, 0, endurance=100)
    for table in tables:
        from campaign.models import Campaign

        campaign = Campaign.objects.get(pk=table["campaign"])
        owner, gm = table["players"][0], table["gm"]
        stats = dict(BASE_STATS) | {code: 17 for code in HIGH_ORDER[:5]}
        character = characters.character_create(campaign=campaign, owner=owner, name=f"{owner.username}'s PC",
                                                stats=stats, int_dice=[4, 2], by=owner, is_gm=True,
                                                override_reason="soak: the stats it needs")
        items.item_create(character=character, kind_name="skills", data=PROFESSION, by=gm, is_gm=True)
        lifecycle.character_submit(character=character, by=owner)
        lifecycle.character_approve(character=character, by=gm)
        economy.award(campaign=campaign, kind="manual", character_ids=[character.pk], by=gm, amount=500,
                      reason="soak: a night's Karma")
        pool = economy.macguffin_create(campaign=campaign, by=gm, name="The far gate", target=1000, limitation="",
                                        upgrade="")
        table.update(character=character.pk, pool=pool.pk)
    return tables


async def _play(table, ledger: Ledger, ends: float, hold: asyncio.Event, rng: random.Random) -> None:
    """One table's writes until ``ends``; table 0 waits while ``hold`` is clear (a backup)."""
    gm, players = table.browsers[0], table.browsers[1:]
    due = {"roll": time.monotonic() + rng.uniform(0, ROLL_EVERY), "attack": time.monotonic() + rng.uniform(0, 20),
           "award": time.monotonic() + rng.uniform(0, 30), "contribute": time.monotonic() + rng.uniform(0, 30)}
    turn = 0
    while True:
        kind = min(due, key=due.get)
        if due[kind] >= ends or time.monotonic() >= ends:
            return
        await asyncio.sleep(max(0.0, due[kind] - time.monotonic()))
        if table.index == 0:
            await hold.wait()
        key = f"soak-{kind}-{uuid.uuid4().hex[:16]}"
        if kind == "roll":
            writer = players[turn % len(players)]
            turn += 1
            roll = await ledger.send(writer, "roll", f"/api/v1/campaigns/{table.campaign}/rolls/",
                                     {"notation": "3d6", "label": key}, key)
            if roll:
                table.rolls[roll["id"]] = (writer, time.time())
            due[kind] += ROLL_EVERY
        elif kind == "attack":
            attacker, target = table.npcs if len(table.attacks) % 2 == 0 else table.npcs[::-1]
            event = await ledger.send(gm, "attack", f"/api/v1/encounters/{table.encounter}/attacks/",
                                      {"attacker": attacker, "target": target, "range_m": 3,
                                       "dice": {"attack": [6, 6, 6]}}, key)  # a miss: the fight goes on
            if event:
                table.attacks[event["id"]] = (gm, time.time())
            due[kind] += ATTACK_EVERY
        elif kind == "award":
            await ledger.send(gm, "award", f"/api/v1/campaigns/{table.campaign}/awards/",
                              {"kind": "manual", "characters": [table.character], "amount": 1,
                               "reason": "soak"}, key[:80])
            due[kind] += KARMA_EVERY
        else:
            await ledger.send(players[0], "contribute", f"/api/v1/macguffins/{table.pool}/contributions/",
                              {"character": table.character, "amount": 1}, key)
            due[kind] += KARMA_EVERY


async def _marker(table, ledger: Ledger) -> tuple[int | None, float]:
    """A roll right after a fault, to time how soon every browser shows it."""
    key = f"soak-marker-{uuid.uuid4().hex[:12]}"
    roll = await ledger.send(table.browsers[1], "roll", f"/api/v1/campaigns/{table.campaign}/rolls/",
                             {"notation": "1d6", "label": key}, key)
    if roll:
        table.rolls[roll["id"]] = (table.browsers[1], time.time())
        return roll["id"], time.time()
    return None, time.time()


async def _caught_up(tables, ended: float) -> list[float]:
    """Seconds from the fault's end until every browser of each table shows a roll made then."""
    markers = await asyncio.gather(*(_marker(t, LEDGER) for t in tables))
    times = []
    deadline = time.time() + 60
    slowest = None
    for table, (roll, answered) in zip(tables, markers, strict=True):
        for browser in table.browsers[2:]:
            while roll is not None and roll not in browser.rolls_shown and time.time() < deadline:
                await asyncio.sleep(0.1)
            seen = browser.rolls_shown.get(roll)
            times.append((seen - ended) if seen else float("inf"))
            if slowest is None or times[-1] > slowest["caught_up"]:
                # What the slowest page waited on: the marker's write, or its own stream's reopening.
                slowest = {"caught_up": times[-1], "table": table.index, "marker_answered": answered - ended,
                           "stream_reopened": [round(at - ended, 2) for at in browser.opened_at
                                               if ended - 30 <= at <= (seen or time.time())]}
    return times, slowest


LEDGER = Ledger()


async def _fault(kind: str, stack: Stack, env: dict, tables, hold: asyncio.Event, workdir: Path,
                 downtime_started) -> dict:
    """Bring one fault about; return when it has ended (what the supervisor restarts, it restarts)."""
    started = time.time()
    note = {"fault": kind, "at": started}
    procs = stack.processes()
    if kind == "worker":
        await downtime_started()  # a job is running when the worker dies
        await asyncio.sleep(0.3)
        started = note["at"] = time.time()  # the fault lasts from the kill, not from the wait for a job
        main = min(procs["worker"], key=lambda p: p.pid)
        main.send_signal(signal.SIGKILL)
    elif kind == "redis-kill":
        procs["redis"][0].send_signal(signal.SIGKILL)
        await asyncio.to_thread(_gone, procs["redis"][0])
    elif kind == "redis-stop":
        redis = procs["redis"][0]
        redis.send_signal(signal.SIGSTOP)
        await asyncio.sleep(REDIS_STOPPED)
        redis.send_signal(signal.SIGCONT)
    elif kind == "postgres":
        postmaster = min(procs["postgres"], key=lambda p: p.pid)
        postmaster.send_signal(signal.SIGINT)  # fast shutdown; the supervisor starts it again
        await asyncio.to_thread(_gone, postmaster)
    elif kind == "stream":
        workers = [p for p in procs["stream"] if "spawn_main" in " ".join(p.cmdline())] or procs["stream"]
        random.choice(workers).send_signal(signal.SIGKILL)
    elif kind == "web":
        workers = [p for p in procs["web"] if p.ppid() != stack.process.pid] or procs["web"]
        random.choice(workers).send_signal(signal.SIGKILL)
    elif kind == "backup":
        hold.clear()  # table 0 waits: its export and the backup see the same campaign
        await asyncio.sleep(1.0)
        export = await asyncio.to_thread(_export, env, tables[0].campaign)
        dump = workdir / f"backup-{int(started)}.dump"
        done = await asyncio.to_thread(subprocess.run, [sys.executable, "manage.py", "backup", "--output", str(dump)],
                                       env={**os.environ, **env}, cwd=ROOT, capture_output=True, text=True)
        hold.set()
        note.update(backup=str(dump), backup_rc=done.returncode, export=export, campaign=tables[0].campaign)
    # The fault has ended once every process is back and answering.
    await _back(stack, env)
    note["ended"] = time.time()
    note["caught_up"], note["slowest"] = await _caught_up(tables, note["ended"])
    return note


def _gone(proc, within: float = 30.0) -> None:
    """Wait until a process has exited: the fault is under way."""
    import psutil

    try:
        proc.wait(timeout=within)
    except psutil.Error:
        pass


async def _back(stack: Stack, env: dict) -> None:
    """Wait until the health check says every part is up."""
    import urllib.request

    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{stack.port}/healthz", timeout=3) as answer:
                if answer.status == 200 and len(stack.processes()["worker"]) > 0:
                    return
        except Exception:  # noqa: BLE001 - not back yet
            pass
        await asyncio.sleep(0.5)


def _export(env: dict, campaign: int) -> str:
    """The campaign's document as the app exports it (its time of export left out)."""
    code = ("import json; from campaign.models import Campaign; from transfer.selectors import campaign_document; "
            f"d = campaign_document(Campaign.objects.get(pk={campaign})); d.get('meta', d).pop('exported_at', None); "
            "print(json.dumps(d, sort_keys=True, default=str))")
    done = subprocess.run([sys.executable, "manage.py", "shell", "-c", code], env={**os.environ, **env}, cwd=ROOT,
                          capture_output=True, text=True, check=True)
    return done.stdout.strip().splitlines()[-1]


async def _downtimes(tables, ledger: Ledger, ends: float, every: float, started: asyncio.Event) -> None:
    """Every ``every`` seconds, an hour of game time at every table: a downtime job each."""
    while time.monotonic() + 5 < ends:
        for table in tables:
            key = f"soak-downtime-{uuid.uuid4().hex[:12]}"
            await ledger.send(table.browsers[0], "downtime", f"/api/v1/campaigns/{table.campaign}/downtime/",
                              {"hours": 1}, key)
        started.set()
        await asyncio.sleep(every)


async def _transitions(tables, ledger: Ledger) -> None:
    """One Zener Transition at every table (category 1, the mildest)."""
    for table in tables:
        key = f"soak-transition-{uuid.uuid4().hex[:12]}"
        await ledger.send(table.browsers[0], "transition", f"/api/v1/campaigns/{table.campaign}/transitions/",
                          {"category": "1", "characters": [table.character]}, key)


def _sample(stack: Stack) -> dict:
    """RSS (MB) and open files of each role's processes, and the database's client connections."""
    import psutil

    found = {}
    for role, procs in stack.processes().items():
        rss = fds = 0
        for proc in procs:
            try:
                rss += proc.memory_info().rss
                fds += proc.num_fds()
            except psutil.Error:
                pass
        found[role] = {"rss_mb": rss / 2**20, "fds": fds, "processes": len(procs),
                       "pids": sorted(p.pid for p in procs)}
    if "redis" in found:
        # What Redis holds, beside its RSS: the page cache's entries expire (PAGE_CACHE_SECONDS),
        # and an allocator keeps pages it has freed, so RSS alone does not tell a fill from a leak.
        import redis

        try:
            client = redis.Redis.from_url(stack.env()["REDIS_URL"], socket_timeout=2)
            found["redis"].update(used_mb=client.info("memory")["used_memory"] / 2**20, keys=client.dbsize())
            client.close()
        except (redis.RedisError, OSError):
            pass
    try:
        found["connections"] = night._db_connections()
    except Exception:  # noqa: BLE001 - the database is down this moment
        found["connections"] = None
    from django.db import connections

    connections.close_all()
    return found


async def _watch(stack: Stack, samples: list, ends: float) -> None:
    while time.monotonic() < ends:
        samples.append({"at": time.time(), **await asyncio.to_thread(_sample, stack)})
        await asyncio.sleep(30)


async def _night(args, stack: Stack, env: dict, tables, workdir: Path) -> dict:
    stats = Counter()
    for table in tables:
        for browser in table.browsers:
            browser.stats = browser.http.stats = stats
    await asyncio.gather(*(b.load() for t in tables for b in t.browsers))
    streams = [asyncio.create_task(b.run_push()) for t in tables for b in t.browsers]
    await asyncio.wait_for(asyncio.gather(*(b.opened.wait() for t in tables for b in t.browsers)), 120)
    await asyncio.sleep(5)
    idle_before = await asyncio.to_thread(_sample, stack)

    seconds = args.minutes * 60
    ends = time.monotonic() + seconds
    hold, downtime_started = asyncio.Event(), asyncio.Event()
    hold.set()
    samples: list = []
    rng = random.Random(41)
    players = [asyncio.create_task(_play(t, LEDGER, ends, hold, rng)) for t in tables]
    background = [asyncio.create_task(_downtimes(tables, LEDGER, ends, args.downtime_every, downtime_started)),
                  asyncio.create_task(_watch(stack, samples, ends))]

    async def a_job_running():
        downtime_started.clear()
        await downtime_started.wait()

    plan = [kind for _round in range(args.rounds) for kind in args.faults]
    faults = []
    await asyncio.sleep(min(args.gap, seconds / (len(plan) + 1)))
    for number, kind in enumerate(plan):
        if number == len(plan) // 2:
            await _transitions(tables, LEDGER)
        print(f"  {time.strftime('%H:%M:%S')} fault {number + 1} of {len(plan)}: {kind}", flush=True)
        faults.append(await _fault(kind, stack, env, tables, hold, workdir, a_job_running))
        left = ends - time.monotonic()
        await asyncio.sleep(max(0.0, min(args.gap, left / max(1, len(plan) - number))))
    try:  # a write still being sent again when the night ends has GIVE_UP seconds to be answered
        await asyncio.wait_for(asyncio.gather(*players), GIVE_UP + 60)
    except asyncio.TimeoutError:
        print("  the tables' writes did not end in time", flush=True)
    for task in background:
        task.cancel()
    await asyncio.sleep(night.SETTLE_SECONDS + 4)
    for task in streams:
        task.cancel()
    await asyncio.gather(*streams, *background, return_exceptions=True)
    await asyncio.sleep(10)  # the pages closed: the server's idle again
    idle_after = await asyncio.to_thread(_sample, stack)
    return {"stats": stats, "faults": faults, "samples": samples, "idle_before": idle_before,
            "idle_after": idle_after}


# --- What it checks -------------------------------------------------------------------------------------
def _exactly_once(tables) -> dict:
    """Every acknowledged write in the database once, and the books that follow from them balanced."""
    from django.db.models import Sum

    from campaign.models import Job
    from combat.models import CombatEvent
    from downtime.models import DowntimeClaim, TransitionBatch
    from economy.models import KarmaEntry, MacGuffin
    from characters.models import Character
    from rolls.models import Roll

    found = Counter()
    problems = []

    def once(kind, count, key):
        found[kind] += 1
        if count != 1:
            problems.append(f"{kind} {key}: {count} in the database")

    for key, _answer in LEDGER.acked["roll"]:
        once("roll", Roll.objects.filter(label=key).count(), key)
    for key, _answer in LEDGER.acked["attack"]:
        once("attack", CombatEvent.objects.filter(idempotency_key=key).count(), key)
    for kind in ("award", "contribute"):
        for key, _answer in LEDGER.acked[kind]:
            once(kind, KarmaEntry.objects.filter(idempotency_key__contains=key).count(), key)
    for key, answer in LEDGER.acked["downtime"]:
        job = Job.objects.filter(idempotency_key=key)
        once("downtime", job.count(), key)
        job = job.first()
        if job is not None and job.status != Job.Status.DONE:
            problems.append(f"downtime {key}: {job.status}, {job.progress} of {job.total}")
        if job is not None and DowntimeClaim.objects.filter(job=job).count() != job.total:
            problems.append(f"downtime {key}: {DowntimeClaim.objects.filter(job=job).count()} claims of {job.total}")
    for key, _answer in LEDGER.acked["transition"]:
        once("transition", TransitionBatch.objects.filter(idempotency_key__contains=key).count(), key)
    for table in tables:
        character = Character.objects.get(pk=table.character)
        booked = KarmaEntry.objects.filter(character=character).aggregate(s=Sum("amount"))["s"] or 0
        if booked != character.karma:
            problems.append(f"{character.name}: Karma {character.karma}, its ledger says {booked}")
        pool = MacGuffin.objects.get(pk=table.pool)
        given = -(KarmaEntry.objects.filter(macguffin=pool).aggregate(s=Sum("amount"))["s"] or 0)
        if given != pool.progress:
            problems.append(f"{pool.name} of table {table.index}: progress {pool.progress}, contributions {given}")
    return {"checked": dict(found), "problems": problems}


def _jobs_settle(within: float = 120.0) -> None:
    """Wait for the downtimes still open (one a killed worker held is sent again by the sweep)."""
    from campaign.models import Job

    deadline = time.monotonic() + within
    while Job.objects.filter(idempotency_key__startswith="soak-").exclude(status=Job.Status.DONE).exists():
        if time.monotonic() > deadline:
            return
        time.sleep(2)


def _unseen(tables) -> int:
    """Acknowledged rolls and attacks some browser of their table never showed."""
    missed = 0
    for table in tables:
        for shown_in, written in (("rolls_shown", table.rolls), ("events_shown", table.attacks)):
            for ident, (writer, _at) in written.items():
                missed += sum(1 for b in table.browsers if b is not writer and ident not in getattr(b, shown_in))
    return missed


def _restored_matches(env: dict, fault: dict, workdir: Path) -> str:
    """Restore the backup into a database of its own and compare table 0's export with the one
    taken when the backup was made: "" when they match, else what differs."""
    if fault.get("backup_rc") != 0:
        return f"the backup failed (exit {fault.get('backup_rc')})"
    from zenergate_site import backups

    name = f"soak_restored_{int(fault['at'])}"
    libpq, _db = backups._libpq_env("default")
    subprocess.run([str(backups.pg_tool("createdb")), name], env=libpq, check=True, capture_output=True)
    done = subprocess.run([str(backups.pg_tool("pg_restore")), "--no-owner", "-d", name, fault["backup"]],
                          env=libpq, capture_output=True, text=True)
    if done.returncode != 0:
        return f"pg_restore: {done.stderr[-300:]}"
    url = env["DATABASE_URL"].rsplit("/", 1)[0] + "/" + name
    restored = _export({**env, "DATABASE_URL": url}, fault["campaign"])
    return "" if restored == fault["export"] else "the restored campaign's export differs from the one taken then"


#: A process a fault replaced fills its caches and pools again: its memory is judged from this
#: long after its start.
WARM_UP = 300.0


def _grew(samples: list, role: str) -> float | None:
    """RSS growth of a role over the last 20 minutes of the night (the last two thirds of a
    shorter one), as a fraction: the most any of its lives grew there, each life (the same
    processes, between two faults that replaced them) from WARM_UP seconds after its start (from
    the first sample for the processes the night began with) to its end. None when no life in
    the window is old enough to judge."""
    if not samples:
        return None
    window = min(1200.0, (samples[-1]["at"] - samples[0]["at"]) * 2 / 3)
    lives: dict[tuple, list] = defaultdict(list)
    born: dict[tuple, float] = {}
    for sample in samples:
        if not sample.get(role, {}).get("processes"):
            continue
        pids = tuple(sample[role]["pids"])
        born.setdefault(pids, sample["at"] if sample is not samples[0] else float("-inf"))
        if sample["at"] >= samples[-1]["at"] - window and sample["at"] >= born[pids] + WARM_UP:
            lives[pids].append(sample[role]["rss_mb"])
    growth = [(rss[-1] - rss[0]) / rss[0] for rss in lives.values() if len(rss) >= 2 and rss[0]]
    return max(growth) if growth else None


#: Open files a process may hold idle beyond its count before the night: the connections its
#: pools keep (a gunicorn worker's 4 database and cache connections, a stream process's 6
#: readers'), which a process a fault replaced opens anew as the night goes on. A leak grows
#: with the night; this does not.
POOLED_FDS = 10


def _fds_back(before: dict, after: dict) -> bool:
    """File descriptors back to their idle counts, give or take what each process's pools hold."""
    return all(after.get(role, {}).get("fds", 0) <= values["fds"] + POOLED_FDS * max(1, values["processes"])
               for role, values in before.items() if role != "connections")


def _pct(values: list, q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


# --- The report -----------------------------------------------------------------------------------------
def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--rounds", type=int, default=2, help="how many times each fault comes")
    parser.add_argument("--gap", type=float, default=100.0, help="seconds of play between faults (at most)")
    parser.add_argument("--downtime-every", type=float, default=180.0, help="seconds between downtimes")
    parser.add_argument("--faults", nargs="+", choices=FAULTS, default=list(FAULTS))
    parser.add_argument("--json-out", type=Path, help="write the results here")
    args = parser.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="zg-soak-"))
    port = night._free_port()
    stack = Stack(workdir, port)
    try:
        env = stack.env()
        os.environ.update(env)
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zenergate_site.settings")
        import django

        django.setup()
        night._wait_for(port, "the web server")
        live = int(env.get("LIVE_STREAM_PORT", port + 1))
        night._wait_for(live, "the event stream")
        specs = _build(args.tables)
        tables = []
        for index, spec in enumerate(specs):
            table = night.Table(spec["campaign"], spec["encounter"], spec["npcs"], spec["gm"], spec["players"])
            table.index, table.character, table.pool = index, spec["character"], spec["pool"]
            for user in [spec["gm"], *spec["players"]]:
                table.browsers.append(ResilientBrowser(table, night._session(user), port, live, Counter(), "push"))
            tables.append(table)
        from django.db import connections

        connections.close_all()
        print(f"A night of faults: {args.tables} tables for {args.minutes:.0f} min, each fault "
              f"{args.rounds} time(s), on {workdir}", flush=True)
        result = asyncio.run(_night(args, stack, env, tables, workdir))
        _jobs_settle()
        books = _exactly_once(tables)
        backups_checked = [_restored_matches(env, f, workdir) for f in result["faults"] if f["fault"] == "backup"]
        connections.close_all()
    finally:
        stack.stop()

    by_kind = defaultdict(list)
    for fault in result["faults"]:
        by_kind[fault["fault"]].append(fault)
    unseen = _unseen(tables)
    rows = []
    for kind, faults in by_kind.items():
        caught = [t for f in faults for t in f["caught_up"]]
        rows.append({"fault": kind, "times": len(faults), "p50": _pct(caught, 0.5), "p95": _pct(caught, 0.95),
                     "max": max(caught) if caught else float("nan"),
                     "lasted": sum(f["ended"] - f["at"] for f in faults) / len(faults),
                     "slowest": max((f["slowest"] for f in faults if f.get("slowest")), default=None,
                                    key=lambda slow: slow["caught_up"])})
    growth = {role: _grew(result["samples"], role) for role in ("web", "stream", "worker", "postgres", "redis")}
    before, after = result["idle_before"], result["idle_after"]
    statuses = dict(sorted(LEDGER.statuses.items()))
    print("\n| fault | times | lasted (s) | caught up p50 / p95 / max (s) |\n|---|---:|---:|---:|")
    for row in rows:
        print(f"| {row['fault']} | {row['times']} | {row['lasted']:.1f} | "
              f"{row['p50']:.1f} / {row['p95']:.1f} / {row['max']:.1f} |")
    print("\nThe slowest page after each kind of fault (seconds from the fault's end):")
    for row in rows:
        slow = row["slowest"]
        if slow:
            print(f"  {row['fault']}: caught up at {slow['caught_up']:.1f} (table {slow['table']}); the marker roll "
                  f"was answered at {slow['marker_answered']:.1f}; its stream opened at {slow['stream_reopened']}")
    print(f"\nAcknowledged writes checked: {books['checked']}; problems: {len(books['problems'])}")
    for problem in books["problems"][:20]:
        print("  -", problem)
    print(f"Answers by status: {statuses}; bad answers (5xx but 503 + Retry-After, or > {SLOW:.0f} s): "
          f"{len(LEDGER.bad)}; writes never answered: {len(LEDGER.lost)}; no answer, sent again: "
          f"{dict(LEDGER.unanswered)}; refused by the game (409): {dict(LEDGER.refused)}")
    for bad in LEDGER.bad[:20]:
        print("  -", bad)
    for reason, count in LEDGER.reasons.most_common(5):
        print(f"  - refused {count} ×: {reason}")
    print(f"Unseen by some browser: {unseen}; backups restored and matching: "
          f"{sum(1 for b in backups_checked if not b)} of {len(backups_checked)} {[b for b in backups_checked if b]}")
    print("RSS growth over the last 20 minutes (two thirds of a shorter night): " + ", ".join(
        f"{role} {g * 100:+.1f} %" if g is not None else f"{role} restarted late, not judged"
        for role, g in growth.items()))
    held = [(s["at"], s["redis"]) for s in result["samples"] if "used_mb" in s.get("redis", {})]
    if held:
        print("Redis's own count over the night (minute: MB used, keys): " + ", ".join(
            f"{(at - held[0][0]) / 60:.0f}: {r['used_mb']:.1f}, {r['keys']}" for at, r in held[::max(1, len(held) // 8)]))
    print("Idle before / after: " + ", ".join(
        f"{role} fds {before[role]['fds']} / {after.get(role, {}).get('fds')}" for role in before
        if role != "connections") + f"; database connections {before['connections']} / {after['connections']}")
    ok = (not books["problems"] and not LEDGER.bad and not LEDGER.lost and unseen == 0
          and all(not b for b in backups_checked) and all(row["max"] <= CAUGHT_UP_WITHIN for row in rows)
          and all(g is None or g < 0.10 for g in growth.values()) and _fds_back(before, after)
          and (after["connections"] or 0) <= (before["connections"] or 0) + 2)
    if args.json_out:
        args.json_out.write_text(json.dumps({
            "tables": args.tables, "minutes": args.minutes, "rounds": args.rounds, "faults": rows,
            "writes": books, "statuses": statuses, "unanswered": dict(LEDGER.unanswered),
            "refused": dict(LEDGER.refused), "reasons": dict(LEDGER.reasons), "bad": LEDGER.bad,
            "lost": LEDGER.lost, "unseen": unseen,
            "backups": backups_checked, "rss_growth": growth, "idle_before": before, "idle_after": after,
            "samples": result["samples"], "passed": ok}, indent=1, default=str))
    print("PASSED" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
