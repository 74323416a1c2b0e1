"""What a page costs the server to render: CPU per request, cached and uncached, against /healthz.

Builds the long campaign of bench/load (bench/load/scale.py: six characters with 30 skills and
lines of every kind, a ledger of about 200 entries, three pools) in a throw-away embedded
PostgreSQL and Redis (or DATABASE_URL / REDIS_URL), then asks each page in-process through
Django's test client, as a logged-in player and as the GM, and measures the process's CPU time
per request (median of ``--repeat`` rounds of ``--requests`` requests), with the page cache off
(every request renders) and on (the reads a table makes between writes). The live parts the
stream pushes are measured as one render each, for the players and for the GM. /healthz, in the
same run, is the baseline of the ratios. No HTTP server: this is the view's own cost, which
bench/load measures from outside under load.

    .venv/bin/python bench/pages/bench_render.py
    .venv/bin/python bench/pages/bench_render.py --requests 50 --repeat 7
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench" / "load"))


def _cpu_per_call(call, *, requests: int, repeat: int) -> float:
    """Median over rounds of the process CPU time per call, in milliseconds."""
    call()  # warm: imports, template loading, the first cache fill
    rounds = []
    for _ in range(repeat):
        start = time.process_time()
        for _ in range(requests):
            call()
        rounds.append((time.process_time() - start) * 1000 / requests)
    return statistics.median(rounds)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--only", help="measure only the reads whose name contains this text")
    parser.add_argument("--profile", metavar="READ:WHO",
                        help="after measuring, profile one uncached read (e.g. 'character sheet:GM') "
                             "and print the project's 40 costliest functions")
    parser.add_argument("--templates", metavar="READ:WHO",
                        help="after measuring, time each template of one uncached read (renders a "
                             "request, inclusive and own milliseconds)")
    args = parser.parse_args()

    from zenergate_site.devstack import Stack

    root = Path(tempfile.mkdtemp(prefix="zg-bench-render-"))
    stack = Stack(root, throwaway=True)
    try:
        os.environ.update({**stack.start(), "DEBUG": "0", "SECRET_KEY": "bench-" + "x" * 50,
                           "ALLOWED_HOSTS": "testserver,127.0.0.1", "LOG_LEVEL": "WARNING"})
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zenergate_site.settings")
        import django
        from django.core.management import call_command

        django.setup()
        call_command("migrate", verbosity=0)
        rows = _measure(args)
    finally:
        stack.stop()

    floor = rows[0][2]
    print(f"\nCPU per request in one process, median of {args.repeat} rounds of {args.requests}; "
          "ratios against /healthz in the same run\n")
    print("| read | who | uncached | × /healthz | cached | × /healthz |")
    print("|---|---|---:|---:|---:|---:|")
    for name, who, uncached, cached in rows:
        cached_text = f"{cached:.2f} ms | {cached / floor:.1f}×" if cached is not None else "– | –"
        print(f"| {name} | {who} | {uncached:.2f} ms | {uncached / floor:.1f}× | {cached_text} |")
    return 0


def _measure(args) -> list[tuple[str, str, float, float | None]]:
    import scale
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.test.utils import override_settings

    from campaign import pagecache, parts
    from campaign.models import Campaign
    from characters.models import Character
    from combat import services as combat

    ids = scale.build()
    campaign = Campaign.objects.get(pk=ids["campaign"])
    gm = campaign.memberships.get(role="gm").user
    player = get_user_model().objects.get(username=ids["owner"])
    encounter = campaign.encounters.first()
    if encounter is None:
        encounter = combat.encounter_create(campaign=campaign, by=gm, name="The customs house")
        for character in Character.objects.filter(campaign=campaign, state=Character.State.ACTIVE):
            combat.combatant_add(encounter=encounter, by=gm, character_id=character.pk)
        combat.initiative_roll(encounter=encounter, by=gm)
    clients = {}
    for who, user in (("player", player), ("GM", gm)):
        client = Client()
        client.force_login(user)
        client.get("/")  # the CSRF cookie, as a browser has it
        clients[who] = client

    def get(who: str, path: str, **headers):
        def call():
            response = clients[who].get(path, headers=headers)
            if response.status_code != 200:
                raise SystemExit(f"{path} answered {response.status_code}")
        return call

    pages = [
        ("/healthz", "anyone", "/healthz", {}),
        ("character sheet", "player", f"/characters/{ids['character']}/", {}),
        ("character sheet", "GM", f"/characters/{ids['character']}/", {}),
        ("campaign dashboard", "player", f"/campaigns/{campaign.pk}/", {}),
        ("campaign dashboard", "GM", f"/campaigns/{campaign.pk}/", {}),
        ("encounter page", "player", f"/encounters/{encounter.pk}/", {}),
        ("encounter page", "GM", f"/encounters/{encounter.pk}/", {}),
        ("MacGuffin pools, fragment", "player", f"/campaigns/{campaign.pk}/macguffins/live/", {"HX-Request": "true"}),
        ("GET /api/v1/characters/{id}/", "player", f"/api/v1/characters/{ids['character']}/",
         {"Accept": "application/json"}),
    ]
    rows = []
    for name, who, path, headers in pages:
        call = get("player" if who == "anyone" else who, path, **headers)
        if args.profile == f"{name}:{who}":
            _profile(call, requests=args.requests)
        if args.templates == f"{name}:{who}":
            _template_times(call, requests=args.requests)
        if args.only and args.only not in name and name != "/healthz":
            continue
        with override_settings(PAGE_CACHE_SECONDS=0):
            uncached = _cpu_per_call(call, requests=args.requests, repeat=args.repeat)
        cached = _cpu_per_call(call, requests=args.requests, repeat=args.repeat)
        rows.append((name, who, uncached, None if name == "/healthz" else cached))
        if name == "encounter page":
            # Its tracker comes from the audience's copy, kept across requests whatever the page
            # cache says; the first read after a write renders that copy (and the numbers) itself.
            def after_write(call=call):
                pagecache.move_version(campaign.pk)
                call()
            rows.append((f"{name}, first read after a write", who,
                         _cpu_per_call(after_write, requests=args.requests, repeat=args.repeat), None))
    for name, key in (("roll-feed", None), ("pools", None), ("encounter", encounter.pk)):
        if args.only and args.only not in f"live part `{name}`":
            continue
        part = parts.PARTS[name]
        for who, gm_copy in (("players", False), ("GM", True)):
            cost = _cpu_per_call(lambda part=part, key=key, gm_copy=gm_copy: part.render(campaign, key, gm_copy),
                                 requests=args.requests, repeat=args.repeat)
            rows.append((f"live part `{name}`, one render", who, cost, None))
    return rows


def _profile(call, *, requests: int) -> None:
    """cProfile of ``requests`` uncached calls, the project's own functions by cumulative time."""
    import cProfile
    import pstats

    from django.test.utils import override_settings

    with override_settings(PAGE_CACHE_SECONDS=0):
        call()
        profile = cProfile.Profile()
        profile.enable()
        for _ in range(requests):
            call()
        profile.disable()
    stats = pstats.Stats(profile)
    stats.sort_stats("cumulative").print_stats(rf"{ROOT}/(?!\.venv)", 40)


def _template_times(call, *, requests: int) -> None:
    """Each template's renders per request and its time, with and without the templates it includes."""
    from collections import defaultdict

    import django.template.base as template_base
    from django.test.utils import override_settings

    times = defaultdict(lambda: [0, 0.0, 0.0])  # renders, inclusive, own
    inside: list[float] = []
    original = template_base.Template._render

    def timed(self, context):
        start = time.perf_counter()
        inside.append(0.0)
        try:
            return original(self, context)
        finally:
            spent, children = time.perf_counter() - start, inside.pop()
            entry = times[self.origin.template_name if self.origin else "?"]
            entry[0] += 1
            entry[1] += spent
            entry[2] += spent - children
            if inside:
                inside[-1] += spent

    with override_settings(PAGE_CACHE_SECONDS=0):
        call()
        template_base.Template._render = timed
        try:
            for _ in range(requests):
                call()
        finally:
            template_base.Template._render = original
    print("template | renders a request | inclusive ms | own ms")
    for name, (count, inclusive, own) in sorted(times.items(), key=lambda kv: -kv[1][2])[:16]:
        print(f"{name} | {count / requests:.0f} | {inclusive * 1000 / requests:.2f} | {own * 1000 / requests:.2f}")


if __name__ == "__main__":
    sys.exit(main())
