"""The pushed event stream: what open pages cost while idle, and how fast a commit reaches them.

Starts a throw-away embedded PostgreSQL and Redis (or uses DATABASE_URL / REDIS_URL), loads the
demo campaign, and runs the stream's ASGI process (uvicorn, as `make run` and compose do). For
each number of open pages it opens that many streams as a logged-in player, measures the
process's CPU while they sit idle, then commits rolls one at a time and measures, per page,
the time from the commit to the frame arriving, and the process's CPU per commit. One open
page is the baseline every other row is compared with.

    .venv/bin/python bench/stream/bench_stream.py              # 1, 30, 100 and 300 pages
    .venv/bin/python bench/stream/bench_stream.py --pages 1 600
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

IDLE_SECONDS = 20.0
COMMITS = 5


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def _page(port: int, campaign: int, cookie: str, after: int, opened: list, arrivals: dict) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write((f"GET /campaigns/{campaign}/stream/?after={after} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                  f"Cookie: sessionid={cookie}\r\nAccept: text/event-stream\r\n\r\n").encode())
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    if b" 200 " not in head.split(b"\r\n", 1)[0]:
        raise SystemExit(f"the stream refused: {head[:200]!r}")
    opened.append(1)
    buffer = b""
    while data := await reader.read(65536):
        now = time.time()
        buffer += data
        while b"\n\n" in buffer:
            frame, buffer = buffer.split(b"\n\n", 1)
            for line in frame.split(b"\n"):
                if line.startswith(b"id: "):
                    arrivals.setdefault(int(line[4:]), []).append(now)


async def _measure(pages: int, *, port: int, process, campaign, cookie: str, commit,
                   idle: float = IDLE_SECONDS) -> dict:
    from campaign.models import Event

    after = await asyncio.to_thread(lambda: Event.objects.order_by("-id").values_list("id", flat=True).first() or 0)
    opened, arrivals = [], {}
    cpu = lambda: sum(process.cpu_times()[:2])  # noqa: E731
    before_open = cpu()
    tasks = [asyncio.create_task(_page(port, campaign.pk, cookie, after, opened, arrivals)) for _ in range(pages)]
    while len(opened) < pages:
        await asyncio.sleep(0.05)
    open_cpu = cpu() - before_open
    memory = process.memory_info().rss
    idle_start = cpu()
    await asyncio.sleep(idle)
    idle_cpu = cpu() - idle_start
    committed = {}
    busy_start = cpu()
    for _ in range(COMMITS):
        event_id, at = await asyncio.to_thread(commit)
        committed[event_id] = at
        await asyncio.sleep(1.0)
    busy_cpu = cpu() - busy_start - idle_cpu * COMMITS / idle
    latencies = sorted((t - committed[i]) * 1000 for i in committed for t in arrivals.get(i, []))
    missed = pages * COMMITS - len(latencies)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    pick = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] if latencies else float("nan")  # noqa: E731
    return {"pages": pages, "open_ms": open_cpu * 1000 / pages, "memory": memory,
            "idle_ms_per_min": idle_cpu * 1000 / pages * 60 / idle,
            "commit_ms": busy_cpu * 1000 / COMMITS, "p50": pick(0.5), "p95": pick(0.95), "p99": pick(0.99),
            "missed": missed}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, nargs="+", default=[1, 30, 100, 300])
    args = parser.parse_args()

    import psutil

    from zenergate_site.devstack import Stack

    root = Path(tempfile.mkdtemp(prefix="zg-bench-stream-"))
    stack = Stack(root, throwaway=True)
    server = None
    try:
        env = {**os.environ, **stack.start(), "DEBUG": "0", "SECRET_KEY": "bench-" + "x" * 50, "LOG_FORMAT": "plain",
               "ALLOWED_HOSTS": "127.0.0.1,localhost"}
        os.environ.update(env)
        manage = [sys.executable, str(ROOT / "manage.py")]
        subprocess.run([*manage, "migrate", "-v", "0"], env=env, check=True, cwd=ROOT)
        subprocess.run([*manage, "seed_demo"], env=env, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
        port = _free_port()
        server = subprocess.Popen([sys.executable, "-m", "uvicorn", "zenergate_site.asgi:application", "--port",
                                   str(port), "--no-access-log", "--log-level", "warning"], env=env, cwd=ROOT)
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zenergate_site.settings")
        import django

        django.setup()
        from django.contrib.auth import get_user_model
        from django.test import Client

        from campaign.models import Campaign, Event
        from rolls import services as rolls

        campaign = Campaign.objects.order_by("pk").first()
        gm = get_user_model().objects.get(username="gm")
        client = Client()
        client.force_login(get_user_model().objects.get(username="alice"))
        cookie = client.cookies["sessionid"].value
        rng = random.Random(1)

        def commit() -> tuple[int, float]:
            rolls.roll_notation(campaign=campaign, by=gm, text="3d6", label="bench", rng=rng)
            at = time.time()
            return Event.objects.order_by("-id").values_list("id", flat=True).first(), at

        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise SystemExit("uvicorn did not start") from None
                time.sleep(0.2)
        process = psutil.Process(server.pid)
        # Warm up (imports, the listener, the reader threads) before anything is timed.
        asyncio.run(_measure(3, port=port, process=process, campaign=campaign, cookie=cookie, commit=commit,
                             idle=1.0))
        rows = [asyncio.run(_measure(n, port=port, process=process, campaign=campaign, cookie=cookie, commit=commit))
                for n in args.pages]
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=15)
        stack.stop()

    base = rows[0]
    print(f"\nThe stream process (uvicorn, 1 process), {COMMITS} commits per row, idle {IDLE_SECONDS:.0f} s; "
          f"ratios against {base['pages']} open page(s)\n")
    print("| open pages | CPU to open, per page | idle CPU per page-minute | CPU per commit (ratio) | "
          "commit → page p50 / p95 / p99 | missed |")
    print("|---:|---:|---:|---:|---:|---:|")
    for row in rows:
        ratio = row["commit_ms"] / base["commit_ms"] if base["commit_ms"] > 0 else float("nan")
        print(f"| {row['pages']} | {row['open_ms']:.1f} ms | {row['idle_ms_per_min']:.2f} ms | "
              f"{row['commit_ms']:.1f} ms ({ratio:.1f}×) | {row['p50']:.0f} / {row['p95']:.0f} / {row['p99']:.0f} ms "
              f"| {row['missed']} |")
    return 0 if all(row["missed"] == 0 for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
