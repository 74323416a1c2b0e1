"""Benchmark the rulebook's dice against icepool and d20.

Run from the repository root:  python bench/dice/bench_dice.py  [--repeat N]

Every case is timed the same way (timeit, best of N repeats, per call) and reported as a
ratio to a baseline measured in the same run: three ``rng.randint(1, 6)`` calls summed in
plain Python, i.e. rolling 3d6 by hand. Ratios, not microseconds, are what carry over
between machines.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import d20  # noqa: E402
import icepool  # noqa: E402

from rulebook.dice import check_odds, clear_caches, extra_benefit_odds, roll_check  # noqa: E402


def per_call(func, repeat: int) -> float:
    """Return the best seconds per call of ``func`` over ``repeat`` timing runs."""
    timer = timeit.Timer(func)
    number, _ = timer.autorange()
    return min(timer.repeat(repeat=repeat, number=number)) / number


def fresh_d6():
    return icepool.Die(range(1, 7))


def cold(func):
    def run():
        clear_caches()
        return func()
    return run


def cases() -> list[tuple[str, object]]:
    rng = random.Random(2026)
    random.seed(2026)  # d20 rolls with the module-level generator
    return [
        ("baseline: 3 × rng.randint(1, 6) summed", lambda: rng.randint(1, 6) + rng.randint(1, 6) + rng.randint(1, 6)),
        ("check_odds(10, 3), cached", lambda: check_odds(10, 3)),
        ("check_odds(10, 3), cold", cold(lambda: check_odds(10, 3))),
        ("check_odds(0, 3), cold (miracle: 6d6)", cold(lambda: check_odds(0, 3))),
        ("check_odds(40, 12), cold", cold(lambda: check_odds(40, 12))),
        ("extra_benefit_odds(20, 3, 2), cached", lambda: extra_benefit_odds(20, 3, 2)),
        ("extra_benefit_odds(20, 3, 2), cold", cold(lambda: extra_benefit_odds(20, 3, 2))),
        ("roll_check(10, 3, seeded rng)", lambda: roll_check(10, 3, rng)),
        ("extra_benefit_odds(30, 4, 4), cold (8d6 keep lowest 4)", cold(lambda: extra_benefit_odds(30, 4, 4))),
        ("extra_benefit_odds(38, 4, 8), cold (12d6 keep lowest 4)", cold(lambda: extra_benefit_odds(38, 4, 8))),
        # icepool "from scratch": a new die each call, so none of its per-die caches help.
        ("icepool: 3d6 P(≤ 10), from scratch", lambda: (3 @ fresh_d6()).probability("<=", 10)),
        ("icepool: 12d6 P(≤ 40), from scratch", lambda: (12 @ fresh_d6()).probability("<=", 40)),
        ("icepool: 5d6 keep lowest 3 P(≤ 16), from scratch",
         lambda: fresh_d6().pool(5).lowest(3).sum().probability("<=", 16)),
        ("icepool: 8d6 keep lowest 4 P(≤ 22), from scratch",
         lambda: fresh_d6().pool(8).lowest(4).sum().probability("<=", 22)),
        ("icepool: 12d6 keep lowest 4 P(≤ 22), from scratch",
         lambda: fresh_d6().pool(12).lowest(4).sum().probability("<=", 22)),
        ("icepool: (3 @ d6) P(≤ 10), its d6 reused", lambda: (3 @ icepool.d6).probability("<=", 10)),
        ("icepool: (12 @ d6) P(≤ 40), its d6 reused", lambda: (12 @ icepool.d6).probability("<=", 40)),
        ("d20.roll('3d6'), seeded", lambda: d20.roll("3d6")),
    ]


def check_agreement() -> None:
    """Refuse to report speed for answers that differ from the reference."""
    assert check_odds(10, 3).probability == (3 @ icepool.d6).probability("<=", 10)
    assert check_odds(40, 12).probability == (12 @ icepool.d6).probability("<=", 40)
    assert extra_benefit_odds(20, 3, 2).probability == (
        icepool.d6.pool(5).lowest(3).sum().probability("<=", 16))
    assert extra_benefit_odds(30, 4, 4).probability == icepool.d6.pool(8).lowest(4).sum().probability("<=", 22)
    assert extra_benefit_odds(38, 4, 8).probability == icepool.d6.pool(12).lowest(4).sum().probability("<=", 22)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="timing runs per case (best is kept)")
    args = parser.parse_args()

    check_agreement()
    results = [(label, per_call(func, args.repeat)) for label, func in cases()]
    baseline = results[0][1]
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores; "
          f"icepool {icepool.__version__}; best of {args.repeat}")
    width = max(len(label) for label, _ in results)
    print(f"{'case':<{width}}  {'µs/call':>10}  {'× baseline':>10}")
    print(f"{'-' * width}  {'-' * 10}  {'-' * 10}")
    for label, seconds in results:
        print(f"{label:<{width}}  {seconds * 1e6:>10.2f}  {seconds / baseline:>10.1f}")


if __name__ == "__main__":
    main()
