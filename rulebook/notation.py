"""Free-form dice notation for the roll feed: "2d6+3", "4d6kh3", "1d20+5 - 1d4".

Parsed and evaluated by the ``d20`` library, within bounds a table never needs: at most
``MAX_LENGTH`` characters, ``MAX_DICE`` dice rolled in one expression (rerolls and exploding
dice included), and dice of 2 to ``MAX_SIDES`` sides. Every die is returned with its face and
whether it counted, so the feed shows the whole roll.

d20 draws from the ``random`` module; the caller's generator is put in its place for the
length of one roll, under a lock, so rolls are seeded (tests) and threads do not meet.
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass

import d20
import d20.expression

from rulebook import RulesError
from rulebook.words import gettext as _

MAX_LENGTH = 100
MAX_DICE = 100
MAX_SIDES = 1000

_LOCK = threading.Lock()


@dataclass(frozen=True)
class NotationRoll:
    """A rolled expression: its total, every die, and the expression as rolled."""

    notation: str
    total: int
    dice: tuple[dict, ...]  # {"sides", "face", "kept"}
    text: str  # the expression with each die's face, e.g. "4d6kh3 (3, 5, ~~1~~, 6) = 14"


def _check_bounds(node) -> None:
    if isinstance(node, d20.ast.Dice):
        if isinstance(node.size, int) and not 2 <= node.size <= MAX_SIDES:
            raise RulesError(_("Dice have 2 to %(max)s sides (d%(sides)s asked for).")
                             % {"max": MAX_SIDES, "sides": node.size})
        if isinstance(node.num, int) and node.num > MAX_DICE:
            raise RulesError(_("At most %(max)s dice in one roll (%(count)s asked for).")
                             % {"max": MAX_DICE, "count": node.num})
    for child in getattr(node, "children", ()):
        _check_bounds(child)


def _dice(node) -> list[dict]:
    """Every die under ``node``: a rerolled or exploded die shows each face it took."""
    if isinstance(node, d20.expression.Die):
        return [{"sides": node.size, "face": int(value.number), "kept": bool(node.kept and value.kept)}
                for value in node.values]
    children = node.values if isinstance(node, d20.expression.Set) else getattr(node, "children", ())
    return [die for child in children for die in _dice(child)]


def parse(notation: object) -> str:
    """Return the notation, stripped, if it reads as dice within the bounds; raise RulesError."""
    if not isinstance(notation, str) or not notation.strip():
        raise RulesError(_("Write the dice to roll, e.g. 2d6+3 or 4d6kh3."))
    text = notation.strip()
    if len(text) > MAX_LENGTH:
        raise RulesError(_("Dice notation is at most %(max)s characters.") % {"max": MAX_LENGTH})
    try:
        tree = d20.parse(text)
    except d20.RollSyntaxError as exc:
        raise RulesError(_("That is not dice notation (%(error)s); try 2d6+3 or 4d6kh3.") % {"error": exc}) from None
    _check_bounds(tree)
    return text


def roll(notation: object, rng: random.Random | None = None) -> NotationRoll:
    """Roll ``notation`` with ``rng`` (the module's generator by default); raise RulesError if it is not dice."""
    text = parse(notation)
    roller = d20.Roller(d20.RollContext(max_rolls=MAX_DICE))
    with _LOCK:
        saved = d20.expression.random
        d20.expression.random = rng or random._inst
        try:
            result = roller.roll(text, stringifier=d20.SimpleStringifier())
            total, dice, shown = result.total, tuple(_dice(result.expr)), result.result
        except d20.TooManyRolls:
            raise RulesError(_("That roll would throw more than %(max)s dice.") % {"max": MAX_DICE}) from None
        except (d20.RollError, ZeroDivisionError, OverflowError, ValueError) as exc:
            raise RulesError(_("That roll cannot be made: %(error)s") % {"error": exc}) from None
        finally:
            d20.expression.random = saved
    if not isinstance(total, int) or abs(total) > 10**9:
        raise RulesError(_("Dice notation must give a whole number."))
    return NotationRoll(notation=text, total=total, dice=dice, text=shown)
