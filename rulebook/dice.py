"""Dice: seeded rolling helpers, exact check distributions, miracle and extra-benefit dice.

Article: "Stat Checks", "Skill Checks", "Additional Rules / Impossible Chances".
"""

from __future__ import annotations

import random

#: The rng used when a caller passes none. Tests always inject their own.
default_rng = random.Random()


def _rng(rng: random.Random | None) -> random.Random:
    return default_rng if rng is None else rng


def roll_die(sides: int, rng: random.Random | None = None) -> int:
    """Roll one die with ``sides`` faces (1..sides)."""
    return _rng(rng).randint(1, sides)


def roll_dice(count: int, sides: int = 6, rng: random.Random | None = None) -> list[int]:
    """Roll ``count`` dice with ``sides`` faces and return the faces in roll order."""
    r = _rng(rng)
    return [r.randint(1, sides) for _ in range(count)]


# --- Exact distributions ------------------------------------------------------------------
from dataclasses import dataclass  # noqa: E402
from fractions import Fraction  # noqa: E402
from functools import lru_cache  # noqa: E402


@lru_cache(maxsize=None)
def sum_counts(dice: int, sides: int = 6) -> tuple[int, ...]:
    """Return the number of ways to roll each total 0..dice*sides on ``dice`` dice."""
    counts = [1]
    for _ in range(dice):
        nxt = [0] * (len(counts) + sides)
        for total, ways in enumerate(counts):
            if ways:
                for face in range(1, sides + 1):
                    nxt[total + face] += ways
        counts = nxt
    return tuple(counts)


@lru_cache(maxsize=None)
def _at_most_counts(dice: int, sides: int) -> tuple[int, ...]:
    running, out = 0, []
    for ways in sum_counts(dice, sides):
        running += ways
        out.append(running)
    return tuple(out)


def probability_at_most(target: int, dice: int, sides: int = 6) -> Fraction:
    """Return P(sum of ``dice`` dice ≤ target), exactly."""
    if target < dice:
        return Fraction(0)
    if target >= dice * sides:
        return Fraction(1)
    return Fraction(_at_most_counts(dice, sides)[target], sides**dice)


def miracle_dice(target: int, dice: int = 3) -> tuple[int, int]:
    """Apply the impossible-chances rule: return (dice, target) actually rolled.

    While no roll can succeed (target < number of dice), one more die is added and the
    target rises by 2 ("Impossible Chances"; RULINGS.md section 1).
    """
    while target < dice:
        dice += 1
        target += 2
    return dice, target


@dataclass(frozen=True)
class CheckOdds:
    target: int
    base_dice: int
    dice: int
    effective_target: int
    probability: Fraction

    @property
    def miracle(self) -> bool:
        return self.dice > self.base_dice


def check_odds(target: int, dice: int = 3) -> CheckOdds:
    """Return the exact chance of a check succeeding (sum ≤ target), miracle rule applied."""
    rolled, effective = miracle_dice(target, dice)
    return CheckOdds(target, dice, rolled, effective, probability_at_most(effective, rolled))


@dataclass(frozen=True)
class CheckRoll:
    target: int
    effective_target: int
    dice: int
    faces: tuple[int, ...]
    total: int
    success: bool
    margin: int
    critical: bool


def roll_check(target: int, dice: int = 3, rng: random.Random | None = None) -> CheckRoll:
    """Roll a check: sum ``dice`` d6 (more under the miracle rule) and succeed on ≤ target.

    Margin is effective target − total. A critical needs every die on 1 and a total strictly
    below the target (RULINGS.md section 1).
    """
    rolled, effective = miracle_dice(target, dice)
    faces = tuple(roll_dice(rolled, 6, rng))
    total = sum(faces)
    return CheckRoll(
        target=target,
        effective_target=effective,
        dice=rolled,
        faces=faces,
        total=total,
        success=total <= effective,
        margin=effective - total,
        critical=all(f == 1 for f in faces) and total < effective,
    )
