"""Pages and API under load: gunicorn, a scaled-up campaign, wrk, one table of results.

Starts the app under gunicorn (the settings `make run` uses: DEBUG off, 2 workers) on a
campaign scaled up to what a long campaign holds (bench/load/scale.py), logs in as a player
over HTTP like a browser, and drives each route with wrk in two ways:

- **throughput**: 16 connections asking as fast as they can (requests/s, and the ratio to
  `/healthz`, the floor: one query and a Redis ping);
- **a table of users**: 50 users, each on its own connection, waiting 0.5–1.5 s between
  requests as phones polling a page do (p50 and p99 latency), for twice as long.

Without DATABASE_URL / REDIS_URL it starts a throw-away embedded PostgreSQL and Redis, as
`make test` does. See bench/README.md for how to read the table.
"""

from __future__ import annotations

import argparse
import http.client
import http.cookiejar
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

THROUGHPUT = {"connections": 16, "threads": 2}
USERS = {"connections": 50, "think_ms": (500, 1500)}
#: The goals of the performance budget (DESIGN.md): at least half the floor, p99 within 150 ms.
MIN_RATIO, MAX_P99_MS = 0.5, 150.0

# Each thread numbers its own requests; the thread id keeps keys unique across threads.
LUA_SPEND = """
local counter = 0
local thread_id = 0
local threads = {{}}
function setup(thread)
  thread:set("tid", #threads + 1)
  table.insert(threads, thread)
end
function init(args)
  thread_id = tonumber(tid)
end
function request()
  counter = counter + 1
  local body = '{{"kind": "reroll", "idempotency_key": "bench-{run}-' .. thread_id .. '-' .. counter .. '"}}'
  return wrk.format("POST", nil, nil, body)
end
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zenergate_site.settings")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def _prepare() -> dict:
    """Build the campaign, a draft for the builder, a Karma float for the spends, and a token."""
    import scale
    from rest_framework.authtoken.models import Token

    from campaign.models import Campaign
    from characters import items
    from characters import services as character_services
    from characters.models import Character
    from economy import services as economy

    ids = scale.build()
    campaign = Campaign.objects.get(pk=ids["campaign"])
    owner = Character.objects.get(pk=ids["character"]).owner
    gm = campaign.memberships.get(role="gm").user
    draft = Character.objects.filter(campaign=campaign, owner=owner, state=Character.State.DRAFT).first()
    if draft is None:
        draft = character_services.character_create(campaign=campaign, owner=owner, name="Draft for the builder",
                                                    stats=scale.STATS, int_dice=[3, 4], trades={}, by=owner)
        for i in range(30):
            items.item_create(character=draft, kind_name="skills", by=owner, is_gm=False,
                              data={"name": f"Idea {i:02d}", "breadth": "specific", "ranks": 1,
                                    "stat": scale.STAT_NAMES[i % 13]})
    economy.award(campaign=campaign, kind="manual", character_ids=[ids["character"]], by=gm, amount=200_000,
                  reason="Bench float for Karma spends", idempotency_key=f"bench-float-{time.time_ns()}")
    token, _ = Token.objects.get_or_create(user=owner)
    return {**ids, "draft": draft.pk, "token": token.key, "username": owner.username}


def _gunicorn(port: int, env: dict) -> subprocess.Popen:
    command = [sys.executable, "-m", "gunicorn", "zenergate_site.wsgi", "-c", str(ROOT / "zenergate_site" / "gunicorn.conf.py"),
               "--bind", f"127.0.0.1:{port}"]
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               start_new_session=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as response:
                if response.status == 200:
                    return process
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit("gunicorn did not answer /healthz within 30 s:\n" + process.stderr.read().decode()[-2000:])


def _login(base: str, username: str, password: str) -> str:
    """Log in through the login form, as a browser does; return the Cookie header."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    page = opener.open(f"{base}/accounts/login/").read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    data = urllib.parse.urlencode({"username": username, "password": password, "csrfmiddlewaretoken": token})
    opener.open(urllib.request.Request(f"{base}/accounts/login/", data=data.encode(),
                                       headers={"Referer": f"{base}/accounts/login/"}))
    cookies = {c.name: c.value for c in jar}
    if "sessionid" not in cookies:
        raise SystemExit(f"Logging in as {username} failed.")
    return "; ".join(f"{k}={v}" for k, v in cookies.items())


def _wrk(url: str, *, connections: int, threads: int, seconds: int, headers: dict, script: str | None) -> dict:
    command = ["wrk", "-t", str(threads), "-c", str(connections), "-d", f"{seconds}s", "--latency", "--timeout", "10s"]
    for name, value in headers.items():
        command += ["-H", f"{name}: {value}"]
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as lua:
        lua.write(script or "")
    command += ["-s", lua.name, url]
    try:
        out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    finally:
        os.unlink(lua.name)
    return _parse_wrk(out)


def _ms(text: str) -> float:
    value, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0}[unit]


def _parse_wrk(out: str) -> dict:
    requests = int(re.search(r"(\d+) requests in", out).group(1))
    errors = int(m.group(1)) if (m := re.search(r"Non-2xx or 3xx responses: (\d+)", out)) else 0
    socket_errors = sum(int(n) for n in re.findall(r"(?:connect|read|write|timeout) (\d+)", out))
    return {
        "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
        "p50": _ms(re.search(r"\s50%\s+(\S+)", out).group(1)),
        "p99": _ms(re.search(r"\s99%\s+(\S+)", out).group(1)),
        "requests": requests,
        "errors": errors + socket_errors,
    }


def _users(port: int, path: str, *, headers: dict, seconds: int, spend: str | None) -> dict:
    """50 users, each on its own kept-alive connection: ask, read the answer, think, ask again.

    Users start at random moments within the first think time, as players do, rather than all
    at once. wrk cannot do this: with a think time it opens every connection first and sends
    later, and an open connection that sends nothing holds a server thread.
    """
    low, high = (ms / 1000 for ms in USERS["think_ms"])
    latencies: list[float] = []
    errors = [0]
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def user(n: int) -> None:
        rng = random.Random(n)
        time.sleep(rng.uniform(0, high))
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        count = 0
        while time.monotonic() < stop:
            count += 1
            body = (json.dumps({"kind": "reroll", "idempotency_key": f"bench-{spend}-{n}-{count}"})
                    if spend else None)
            start = time.perf_counter()
            try:
                connection.request("POST" if spend else "GET", path, body=body, headers=headers)
                response = connection.getresponse()
                response.read()
                ok = response.status < 400
            except (OSError, http.client.HTTPException):
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                ok = False
            elapsed = (time.perf_counter() - start) * 1000
            with lock:
                latencies.append(elapsed)
                errors[0] += not ok
            time.sleep(rng.uniform(low, high))
        connection.close()

    threads = [threading.Thread(target=user, args=(n,)) for n in range(USERS["connections"])]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    latencies.sort()

    def pct(p: float) -> float:
        return latencies[min(int(p * len(latencies)), len(latencies) - 1)]

    return {"rps": len(latencies) / seconds, "p50": pct(0.50), "p99": pct(0.99), "requests": len(latencies),
            "errors": errors[0]}


def _routes(ids: dict, cookie: str) -> list[tuple[str, str, dict, str | None]]:
    page = {"Cookie": cookie}
    api = {"Authorization": f"Token {ids['token']}", "Accept": "application/json"}
    spend = {**api, "Content-Type": "application/json"}
    return [
        ("/healthz (the floor)", "/healthz", {}, None),
        ("character sheet", f"/characters/{ids['character']}/", page, None),
        ("campaign dashboard", f"/campaigns/{ids['campaign']}/", page, None),
        ("character builder", f"/characters/{ids['draft']}/build/", page, None),
        ("GET /api/v1/characters/{id}/", f"/api/v1/characters/{ids['character']}/", api, None),
        ("MacGuffin pools, live fragment", f"/campaigns/{ids['campaign']}/macguffins/live/",
         {**page, "HX-Request": "true"}, None),
        ("Karma spend (POST)", f"/api/v1/characters/{ids['character']}/karma/", spend, "spend"),
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=int, default=10, help="how long wrk drives each route, per phase")
    parser.add_argument("--only", help="measure only routes whose label contains this (the floor always runs)")
    args = parser.parse_args()
    if not shutil.which("wrk"):
        raise SystemExit("wrk is not installed (Debian: apt-get install wrk).")
    stack = None
    if not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")):
        from zenergate_site.devstack import Stack

        stack = Stack(Path(tempfile.mkdtemp(prefix="zg-load-")), throwaway=True)
        os.environ.update(stack.start())
    env = {**os.environ, "DEBUG": "0", "SECRET_KEY": os.environ.get("SECRET_KEY", "bench-" + "x" * 50),
           "ALLOWED_HOSTS": "127.0.0.1,localhost", "LOG_LEVEL": "WARNING"}
    os.environ.update({k: env[k] for k in ("DEBUG", "SECRET_KEY", "ALLOWED_HOSTS")})
    server = None
    try:
        _setup_django()
        ids = _prepare()
        port = _free_port()
        server = _gunicorn(port, env)
        base = f"http://127.0.0.1:{port}"
        import scale

        cookie = _login(base, ids["username"], scale.PASSWORD)
        run = str(time.time_ns())
        rows = []
        for label, path, headers, kind in _routes(ids, cookie):
            if args.only and not label.startswith("/healthz") and args.only not in label:
                continue
            spend = LUA_SPEND.format(run=run) if kind == "spend" else ""
            fast = _wrk(base + path, connections=THROUGHPUT["connections"], threads=THROUGHPUT["threads"],
                        seconds=args.seconds, headers=headers, script=spend)
            users = _users(port, path, headers=headers, seconds=args.seconds * 2, spend=f"{run}-u" if spend else None)
            rows.append((label, fast, users))
        _print(rows)
        return 0
    finally:
        if server is not None:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=20)
        if stack:
            stack.stop()


def _print(rows) -> None:
    floor = rows[0][1]["rps"]
    print(f"\n{THROUGHPUT['connections']} connections flat out for requests/s; {USERS['connections']} users "
          f"waiting {USERS['think_ms'][0]}–{USERS['think_ms'][1]} ms between requests for latency.\n")
    print(f"| {'route':<32} | {'req/s':>7} | {'× floor':>7} | {'p50 ms':>7} | {'p99 ms':>7} | "
          f"{'users p50':>9} | {'users p99':>9} | {'errors':>6} |")
    print(f"|{'-' * 34}|{'-' * 9}|{'-' * 9}|{'-' * 9}|{'-' * 9}|{'-' * 11}|{'-' * 11}|{'-' * 8}|")
    verdicts = []
    for label, fast, users in rows:
        ratio = fast["rps"] / floor
        errors = fast["errors"] + users["errors"]
        print(f"| {label:<32} | {fast['rps']:7.0f} | {ratio:7.2f} | {fast['p50']:7.1f} | {fast['p99']:7.1f} | "
              f"{users['p50']:9.1f} | {users['p99']:9.1f} | {errors:6d} |")
        if ratio < MIN_RATIO or users["p99"] > MAX_P99_MS or errors:
            verdicts.append(label)
    print()
    print("Every route within the budget (≥ 0.5 × floor, users' p99 ≤ 150 ms, no errors)." if not verdicts
          else "Outside the budget: " + ", ".join(verdicts))
    print(json.dumps({label: {"fast": fast, "users": users} for label, fast, users in rows}))


if __name__ == "__main__":
    sys.exit(main())
