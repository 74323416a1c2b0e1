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
