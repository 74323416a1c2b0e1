"""ZeroSpace ("Aktionen"): 2d6 + action value against 2d6 + difficulty value.

Source sections: "Rolling Dice", "Action Value", "Difficulty Value" (opposed and unopposed
tasks, the difficulty table), "Bonuses And Penalties", "Combining Effort", "Extended Tasks",
"Consequences" with the optional "Margin Of Success" sidebar, "Endurance And Recovery",
"Exploding" and "Penetrating" attacks, and "Distracting" (an opposed roll that must beat,
not tie).

The roller's total (2d6 + AV) succeeds when it equals or exceeds the target number, which
is itself rolled: 2d6 + DV. The odds chart shows the margin, roller − target number.

Rulings (``RULE_SET.rulings``):

- ``bonus_dice_mode`` 0 (default, as the text reads): each bonus die adds a die to the roll
  and each penalty die removes one, all dice summed; at zero dice the task is impossible.
  1: roll 2 + |n| dice and keep the best two (bonus) or the worst two (penalty).
- ``margin_of_success`` 0 (default, the sidebar calls the rule optional) or 1: a hit deals
  one more Endurance per full 3 of margin.

Readings that are not configurable: a defense roll whose dice are all removed is the
difficulty value alone; a penetrating die showing 1 is rolled again until it shows more;
a distance exactly at half the blast radius still takes the full action value.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb
from types import MappingProxyType

from rulebook import RulesError
from rulebook._numbers import require_int
from rulebook.dice import EnteredDice
from rulebook.systems.base import (
    ODDS_CACHE_SIZE,
    Breakdown,
    Param,
    ParamError,
    RuleSet,
    SystemOdds,
    SystemRoll,
    as_distribution,
    chance,
    dice_record,
    difference,
    frozen,
    language_key,
    pool_counts,
    table_dice,
)
from rulebook.words import gettext as _
from rulebook.words import gettext_noop

DIE_SIDES = 6
#: Every roll starts from two dice.
BASE_DICE = 2
#: Action and difficulty values the app accepts (attributes plus equipment ratings).
MAX_VALUE = 30
#: The most bonus (or penalty) dice on one roll.
MAX_BONUS_DICE = 5
#: The most characters combining their effort on one roll.
MAX_HELPERS = 10
#: The most rolls an extended task takes, and the most successes it asks for.
MAX_ATTEMPTS, MAX_SUCCESSES = 100, 20

#: "Difficulty value examples": routine tasks are not rolled at all. The names are keys, in
#: English, marked for the catalogue: translated where shown.
DIFFICULTY: dict[str, int | None] = {
    gettext_noop("routine"): None,
    gettext_noop("moderate"): 3,
    gettext_noop("remarkable"): 6,
    gettext_noop("extreme"): 9,
    gettext_noop("inconceivable"): 12,
}

ADD_DICE, KEEP_TWO = 0, 1


# --- Dice pools ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Pool:
    """The dice one side rolls: how many, how many count, which ones, and from which face."""

    rolled: int
    kept: int
    highest: bool = True
    penetrating: bool = False

    @property
    def describe(self) -> str:
        """Say the pool in words ("3d6", "best 2 of 4d6", "no dice")."""
        if self.rolled == 0:
            return _("no dice")
        said = {"kept": self.kept, "rolled": self.rolled}
        text = f"{self.rolled}d6" if self.kept == self.rolled else (
            _("best %(kept)s of %(rolled)sd6") % said if self.highest else _("worst %(kept)s of %(rolled)sd6") % said)
        return text + (", " + _("1s rolled again") if self.penetrating else "")


def dice_pool(bonus_dice: int, bonus_dice_mode: int = ADD_DICE, penetrating: bool = False) -> Pool:
    """Return the pool for a roll with ``bonus_dice`` net bonus dice (negative: penalty dice).

    "Bonuses And Penalties": by the text each bonus die adds a die and each penalty die
    removes one (``bonus_dice_mode`` 0); the keep-two reading is ruling 1. A pool of no dice
    means the task is impossible (for a defense roll: the difficulty value alone).
    """
    if bonus_dice_mode == ADD_DICE:
        rolled = max(0, BASE_DICE + bonus_dice)
        return Pool(rolled, rolled, True, penetrating)
    return Pool(BASE_DICE + abs(bonus_dice), BASE_DICE, bonus_dice >= 0, penetrating)


@lru_cache(maxsize=None)
def pool_totals(pool: Pool) -> Mapping[int, Fraction]:
    """Return the exact distribution of the counted dice's sum for ``pool``."""
    if pool.rolled == 0:
        return MappingProxyType({0: Fraction(1)})
    # A penetrating die can never end on 1: it is a uniform die over 2–6, i.e. a d5 + 1.
    sides = DIE_SIDES - 1 if pool.penetrating else DIE_SIDES
    shift = pool.kept if pool.penetrating else 0
    counts = pool_counts(pool.rolled, pool.kept, sides, pool.highest)
    whole = sides**pool.rolled
    return MappingProxyType({total + shift: Fraction(ways, whole) for total, ways in counts.items()})


def roll_pool(pool: Pool, roller: EnteredDice) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Roll ``pool``: return every face in roll order and the faces that count.

    "Penetrating": a die showing 1 is rolled again until it shows more; every face, the 1s
    included, is kept in the record.
    """
    faces: list[int] = []
    finals: list[int] = []
    for _ in range(pool.rolled):
        face = roller.randint(1, DIE_SIDES)
        faces.append(face)
        while pool.penetrating and face == 1:
            face = roller.randint(1, DIE_SIDES)
            faces.append(face)
        finals.append(face)
    order = sorted(range(len(finals)), key=lambda i: finals[i], reverse=pool.highest)
    chosen = sorted(order[: pool.kept])
    return tuple(faces), tuple(finals[i] for i in chosen)


# --- The check -------------------------------------------------------------------------------
def check_odds(av: int, dv: int, bonus_dice: int = 0, defense_dice: int = 0, penetrating: int = 0,
               strict: int = 0, *, bonus_dice_mode: int = ADD_DICE) -> SystemOdds:
    """Return the exact odds of 2d6 + AV against 2d6 + DV ("Rolling Dice").

    The roller succeeds on a total equal to or above the target number; with ``strict`` 1
    a tie fails (the "Distracting" roll must be higher). Opposed and unopposed tasks differ
    only in where the DV comes from. The distribution is the margin (roller − target
    number). Cached.

    Args:
        av: action value (attribute + equipment rating; the rating alone when unskilled).
        dv: difficulty value (3 moderate … 12 inconceivable, or the opponent's attribute +
            equipment).
        bonus_dice: the roller's bonus dice minus penalty dice.
        defense_dice: the same for the roll of the target number (cover, prone …).
        penetrating: 1 when the roller's 1s are rolled again ("Penetrating").
        strict: 1 when a tie fails.
        bonus_dice_mode: the ruling on bonus dice (see the module docstring).

    Raises:
        ParamError: naming the input that is out of range.
    """
    p = RULE_SET.clean({"av": av, "dv": dv, "bonus_dice": bonus_dice, "defense_dice": defense_dice,
                        "penetrating": penetrating, "strict": strict, "bonus_dice_mode": bonus_dice_mode})
    return _odds(p)


def _odds(p: dict) -> SystemOdds:
    return _check_odds(p["av"], p["dv"], p["bonus_dice"], p["defense_dice"], p["penetrating"], p["strict"],
                       p["bonus_dice_mode"], language_key())


def _impossible_odds(breakdown: Breakdown) -> SystemOdds:
    return SystemOdds(Fraction(0), ((0, Fraction(1)),), frozenset(), _("margin (no roll: the task is impossible)"),
                      breakdown + ((_("chance of success"), Fraction(0)),))


@lru_cache(maxsize=ODDS_CACHE_SIZE)
def _check_odds(av: int, dv: int, bonus_dice: int, defense_dice: int, penetrating: int, strict: int,
                mode: int, language: str) -> SystemOdds:
    """The odds, cached per language (``language_key``): they carry words."""
    attack = dice_pool(bonus_dice, mode, bool(penetrating))
    defense = dice_pool(defense_dice, mode)
    breakdown: Breakdown = (
        (_("action value"), av), (_("bonus dice"), bonus_dice), (_("roller's dice"), attack.describe),
        (_("difficulty value"), dv), (_("defense bonus dice"), defense_dice),
        (_("target number dice"), defense.describe), (_("a tie"), _("fails") if strict else _("succeeds")),
    )
    if attack.rolled == 0:
        return _impossible_odds(breakdown)
    margins = difference({t + av: p for t, p in pool_totals(attack).items()},
                         {t + dv: p for t, p in pool_totals(defense).items()})
    distribution = as_distribution(margins)
    success = frozenset(m for m, _ in distribution if m >= (1 if strict else 0))
    probability = chance(distribution, success)
    return SystemOdds(probability, distribution, success, _("margin (2d6 + AV − (2d6 + DV))"),
                      breakdown + ((_("chance of success"), probability),))


def extra_endurance(margin: int) -> int:
    """Return the extra Endurance a hit deals: one per full 3 of margin ("Margin Of Success")."""
    return max(0, require_int(margin, gettext_noop("The margin"))) // 3


def endurance_damage(margin: int, *, margin_of_success: int = 0) -> int:
    """Return the Endurance a combat roll with this margin deals ("Consequences / Success").

    A miss (negative margin) deals none; a hit deals 1, plus ``extra_endurance`` when the
    optional margin-of-success rule is on.
    """
    margin = require_int(margin, gettext_noop("The margin"))
    if margin < 0:
        return 0
    return 1 + (extra_endurance(margin) if margin_of_success else 0)


def _attempt(p: dict, roller: EnteredDice) -> dict:
    attack = dice_pool(p["bonus_dice"], p["bonus_dice_mode"], bool(p["penetrating"]))
    if attack.rolled == 0:
        return {"impossible": True}
    attack_faces, attack_kept = roll_pool(attack, roller)
    defense_faces, defense_kept = roll_pool(dice_pool(p["defense_dice"], p["bonus_dice_mode"]), roller)
    attack_total = sum(attack_kept) + p["av"]
    target_number = sum(defense_kept) + p["dv"]
    margin = attack_total - target_number
    return {
        "impossible": False, "attack_faces": attack_faces, "attack_kept": attack_kept,
        "attack_total": attack_total, "defense_faces": defense_faces, "defense_kept": defense_kept,
        "target_number": target_number, "margin": margin,
        "success": margin >= (1 if p["strict"] else 0),
    }


def _impossible_roll(breakdown: Breakdown, roller: EnteredDice) -> SystemRoll:
    return SystemRoll((), (), 0, False,
                      breakdown + ((_("roll"), _("none: every die was removed, the task is impossible")),),
                      frozen({"outcome": 0, "impossible": True, "margin": None, "endurance_damage": 0,
                              "extra_endurance": 0, "eureka": False, "rolls": dice_record(roller)}),
                      Fraction(0))


def _as_roll(p: dict, rolled: dict, roller: EnteredDice, probability: Fraction) -> SystemRoll:
    if rolled["impossible"]:
        return _impossible_roll(((_("action value"), p["av"]), (_("bonus dice"), p["bonus_dice"])), roller)
    margin, success = rolled["margin"], rolled["success"]
    extra = extra_endurance(margin) if success and p["margin_of_success"] else 0
    breakdown: Breakdown = (
        (_("faces rolled"), rolled["attack_faces"]), (_("faces counted"), rolled["attack_kept"]),
        (_("action value"), p["av"]), (_("roll total"), rolled["attack_total"]),
        (_("target number faces"), rolled["defense_faces"]),
        (_("target number faces counted"), rolled["defense_kept"]),
        (_("difficulty value"), p["dv"]), (_("target number"), rolled["target_number"]), (_("margin"), margin),
    )
    if p["margin_of_success"] and success:
        breakdown += ((_("extra Endurance damage (margin ÷ 3)"), extra),)
    return SystemRoll(
        faces=rolled["attack_faces"] + rolled["defense_faces"],
        kept=rolled["attack_kept"] + rolled["defense_kept"],
        total=rolled["attack_total"],
        success=success,
        breakdown=breakdown,
        details=frozen({
            "outcome": margin, "impossible": False, "margin": margin,
            "attack_faces": rolled["attack_faces"], "attack_kept": rolled["attack_kept"],
            "defense_faces": rolled["defense_faces"], "defense_kept": rolled["defense_kept"],
            "target_number": rolled["target_number"],
            "endurance_damage": (1 + extra) if success else 0, "extra_endurance": extra,
            "eureka": bool(p["margin_of_success"] and success and margin >= 3),
            "rolls": dice_record(roller),
        }),
        probability=probability,
    )


def roll_check(av: int, dv: int, bonus_dice: int = 0, defense_dice: int = 0, penetrating: int = 0,
               strict: int = 0, *, bonus_dice_mode: int = ADD_DICE, margin_of_success: int = 0,
               rng: random.Random | None = None, dice: Sequence[int] | None = None) -> SystemRoll:
    """Roll 2d6 + AV against 2d6 + DV ("Rolling Dice", "Consequences").

    Dice order: the roller's dice (a penetrating 1 is followed by its re-roll), then the
    target number's dice. Details: ``margin``, ``target_number``, the faces of each side,
    ``endurance_damage`` (what the roll deals if it is an attack), ``extra_endurance`` and
    ``eureka`` (margin of 3 or more with the margin-of-success rule on), ``impossible``.

    Raises:
        ParamError: as for ``check_odds``.
        RulesError: an entered face above 6, or more faces than the check rolls.
    """
    p = RULE_SET.clean({"av": av, "dv": dv, "bonus_dice": bonus_dice, "defense_dice": defense_dice,
                        "penetrating": penetrating, "strict": strict, "bonus_dice_mode": bonus_dice_mode,
                        "margin_of_success": margin_of_success})
    return _roll(p, rng, dice)


def _roll(p: dict, rng: random.Random | None, dice: Sequence[int] | None) -> SystemRoll:
    roller = table_dice(dice, rng)
    rolled = _attempt(p, roller)
    roller.check_all_used()
    return _as_roll(p, rolled, roller, _odds(p).probability)


def action_value(attribute: int, rating: int = 0, *, skilled: bool = True) -> int:
    """Return an action value: the attribute plus the equipment rating ("Action Value").

    "Being Unskilled": without the skill the attribute does not count, only the rating.
    """
    attribute = require_int(attribute, gettext_noop("The attribute"), minimum=0)
    return (attribute if skilled else 0) + require_int(rating, gettext_noop("The equipment rating"), minimum=0)


def defense_value(attribute: int, ratings: Sequence[int] = ()) -> int:
    """Return a defender's DV: the attribute plus the best defensive rating ("Opposed Tasks").

    Layers of defense do not stack; only the highest counts.
    """
    attribute = require_int(attribute, gettext_noop("The attribute"), minimum=0)
    return attribute + max((require_int(r, gettext_noop("A defensive rating"), minimum=0) for r in ratings), default=0)


def opposed_odds(av: int, dv: int, bonus_dice: int = 0, defense_dice: int = 0, *, must_beat: bool = False,
                 bonus_dice_mode: int = ADD_DICE) -> SystemOdds:
    """Return the odds of an opposed task ("Opposed Tasks"): the opponent's roll is the target number.

    Most opposed rolls (an attack, a grapple, a slam) succeed on a tie; ``must_beat`` is for
    those that must roll higher, such as a distraction.
    """
    return check_odds(av, dv, bonus_dice, defense_dice, strict=int(bool(must_beat)), bonus_dice_mode=bonus_dice_mode)


def roll_opposed(av: int, dv: int, bonus_dice: int = 0, defense_dice: int = 0, *, must_beat: bool = False,
                 bonus_dice_mode: int = ADD_DICE, margin_of_success: int = 0, rng: random.Random | None = None,
                 dice: Sequence[int] | None = None) -> SystemRoll:
    """Roll an opposed task: the roller's dice, then the opponent's (see ``roll_check``)."""
    return roll_check(av, dv, bonus_dice, defense_dice, strict=int(bool(must_beat)), bonus_dice_mode=bonus_dice_mode,
                      margin_of_success=margin_of_success, rng=rng, dice=dice)


def routine_roll(av: int) -> SystemRoll:
    """Return the result of a routine task: no roll, certain success ("Unopposed Tasks")."""
    av = RULE_SET.param_named("av").coerce(av)
    return SystemRoll((), (), av, True, ((_("action value"), av), (_("difficulty"), _("routine: no roll"))),
                      frozen({"outcome": None, "routine": True, "rolls": ()}), Fraction(1))


def difficulty_value(level: str) -> int | None:
    """Return the DV of a named difficulty ("Difficulty value examples"); None for routine."""
    try:
        return DIFFICULTY[level]
    except KeyError:
        raise RulesError(_("Unknown difficulty %(level)s: use %(levels)s.")
                         % {"level": repr(level), "levels": ", ".join(DIFFICULTY)}) from None


# --- Combining effort ------------------------------------------------------------------------
def _helpers(avs: Sequence[int], bonus_dice: Sequence[int] | None) -> tuple[tuple[int, ...], tuple[int, ...]]:
    if isinstance(avs, (str, bytes)) or not isinstance(avs, Sequence) or not 1 <= len(avs) <= MAX_HELPERS:
        raise ParamError("avs", _("Give the action value of each of 1 to %(max)s characters working together.")
                         % {"max": MAX_HELPERS})
    checked = tuple(RULE_SET.param_named("av").coerce(av) for av in avs)
    if bonus_dice is None:
        return checked, (0,) * len(checked)
    if isinstance(bonus_dice, (str, bytes)) or not isinstance(bonus_dice, Sequence) or len(bonus_dice) != len(avs):
        raise ParamError("bonus_dice", _("Give one bonus-dice number per character working together."))
    return checked, tuple(RULE_SET.param_named("bonus_dice").coerce(b) for b in bonus_dice)


def combine_effort(totals: Sequence[int | None]) -> int:
    """Return the combined roll: the highest total plus the number of characters ("Combining Effort").

    A character whose dice were all removed (None) has no roll to keep but still counts.
    """
    rolled = [total for total in totals if total is not None]
    if not rolled:
        raise RulesError(_("Nobody working together has a roll: every task was impossible."))
    return max(rolled) + len(totals)


def combined_effort_odds(avs: Sequence[int], dv: int, bonus_dice: Sequence[int] | None = None,
                         defense_dice: int = 0, *, bonus_dice_mode: int = ADD_DICE) -> SystemOdds:
    """Return the exact odds of characters combining their effort ("Combining Effort").

    Everyone rolls 2d6 + their own AV; the highest roll plus the number of characters is
    compared to the target number. The distribution is the margin.
    """
    avs, bonus = _helpers(avs, bonus_dice)
    p = RULE_SET.clean({"av": 0, "dv": dv, "defense_dice": defense_dice, "bonus_dice_mode": bonus_dice_mode})
    return _combined_odds(avs, bonus, p["dv"], p["defense_dice"], p["bonus_dice_mode"], language_key())


@lru_cache(maxsize=ODDS_CACHE_SIZE)
def _combined_odds(avs: tuple[int, ...], bonus: tuple[int, ...], dv: int, defense_dice: int, mode: int,
                   language: str) -> SystemOdds:
    """The odds, cached per language (``language_key``): they carry words."""
    breakdown: Breakdown = ((_("action values"), avs), (_("bonus dice"), bonus),
                            (_("characters working together"), len(avs)), (_("difficulty value"), dv),
                            (_("target number dice"), dice_pool(defense_dice, mode).describe))
    rolls = [{t + av: p for t, p in pool_totals(dice_pool(b, mode)).items()}
             for av, b in zip(avs, bonus) if dice_pool(b, mode).rolled]
    if not rolls:
        return _impossible_odds(breakdown)
    # The best of independent rolls: P(best ≤ x) is the product of each P(roll ≤ x).
    outcomes = sorted({t for roll in rolls for t in roll})
    best: dict[int, Fraction] = {}
    previous = Fraction(0)
    for x in outcomes:
        at_most = Fraction(1)
        for roll in rolls:
            at_most *= sum((p for t, p in roll.items() if t <= x), Fraction(0))
        best[x + len(avs)] = at_most - previous
        previous = at_most
    defense = {t + dv: p for t, p in pool_totals(dice_pool(defense_dice, mode)).items()}
    distribution = as_distribution(difference(best, defense))
    success = frozenset(m for m, _ in distribution if m >= 0)
    probability = chance(distribution, success)
    return SystemOdds(probability, distribution, success, _("margin (best roll + helpers − (2d6 + DV))"),
                      breakdown + ((_("chance of success"), probability),))


def roll_combined_effort(avs: Sequence[int], dv: int, bonus_dice: Sequence[int] | None = None,
                         defense_dice: int = 0, *, bonus_dice_mode: int = ADD_DICE, margin_of_success: int = 0,
                         rng: random.Random | None = None, dice: Sequence[int] | None = None) -> SystemRoll:
    """Roll a combined effort ("Combining Effort"): each character's dice in order, then the target's.

    ``total`` is the combined roll; details add ``totals`` (each character's roll, None when
    their dice were all removed) and ``best``.
    """
    avs, bonus = _helpers(avs, bonus_dice)
    p = RULE_SET.clean({"av": 0, "dv": dv, "defense_dice": defense_dice, "bonus_dice_mode": bonus_dice_mode,
                        "margin_of_success": margin_of_success})
    odds = _combined_odds(avs, bonus, p["dv"], p["defense_dice"], p["bonus_dice_mode"], language_key())
    roller = table_dice(dice, rng)
    faces: list[int] = []
    kept: list[int] = []
    totals: list[int | None] = []
    for av, b in zip(avs, bonus):
        pool = dice_pool(b, p["bonus_dice_mode"])
        if pool.rolled == 0:
            totals.append(None)
            continue
        rolled, counted = roll_pool(pool, roller)
        faces += rolled
        kept += counted
        totals.append(sum(counted) + av)
    if all(total is None for total in totals):
        roller.check_all_used()
        return _impossible_roll(((_("action values"), avs), (_("bonus dice"), bonus)), roller)
    defense_faces, defense_kept = roll_pool(dice_pool(p["defense_dice"], p["bonus_dice_mode"]), roller)
    roller.check_all_used()
    combined = combine_effort(totals)
    target_number = sum(defense_kept) + p["dv"]
    margin = combined - target_number
    success = margin >= 0
    extra = extra_endurance(margin) if success and p["margin_of_success"] else 0
    return SystemRoll(
        faces=tuple(faces) + defense_faces,
        kept=tuple(kept) + defense_kept,
        total=combined,
        success=success,
        breakdown=((_("each character's roll"), tuple(totals)),
                   (_("best roll"), max(t for t in totals if t is not None)),
                   (_("characters working together"), len(avs)), (_("combined roll"), combined),
                   (_("target number faces"), defense_faces), (_("difficulty value"), p["dv"]),
                   (_("target number"), target_number), (_("margin"), margin)),
        details=frozen({"outcome": margin, "impossible": False, "margin": margin, "totals": tuple(totals),
                        "best": max(t for t in totals if t is not None), "target_number": target_number,
                        "defense_faces": defense_faces, "defense_kept": defense_kept,
                        "endurance_damage": (1 + extra) if success else 0, "extra_endurance": extra,
                        "eureka": bool(p["margin_of_success"] and success and margin >= 3),
                        "rolls": dice_record(roller)}),
        probability=odds.probability,
    )


# --- Extended tasks --------------------------------------------------------------------------
def _extended(successes: object, attempts: object) -> tuple[int, int]:
    needed = Param("successes", gettext_noop("Successes needed"), 1, MAX_SUCCESSES).coerce(successes)
    limit = Param("attempts", gettext_noop("Attempts allowed"), 1, MAX_ATTEMPTS).coerce(attempts)
    if limit < needed:
        raise ParamError("attempts", _("%(attempts)s attempts can never reach %(needed)s successes.")
                         % {"attempts": limit, "needed": needed})
    return needed, limit


def extended_task_odds(av: int, dv: int, successes: int, attempts: int, bonus_dice: int = 0,
                       defense_dice: int = 0, *, bonus_dice_mode: int = ADD_DICE) -> SystemOdds:
    """Return the exact odds of an extended task ("Extended Tasks").

    The GM sets the DV, the successes needed and the most attempts allowed; each attempt is
    one check. The distribution is the number of successes had every attempt been rolled
    (the task is won once it reaches ``successes``). Without a limit on attempts a task with
    any chance at all succeeds eventually.
    """
    needed, limit = _extended(successes, attempts)
    return _extended_odds(check_odds(av, dv, bonus_dice, defense_dice, bonus_dice_mode=bonus_dice_mode).probability,
                          needed, limit, language_key())


@lru_cache(maxsize=ODDS_CACHE_SIZE)
def _extended_odds(p: Fraction, needed: int, limit: int, language: str) -> SystemOdds:
    """The odds, cached per language (``language_key``): they carry words."""
    counts = {k: comb(limit, k) * p**k * (1 - p) ** (limit - k) for k in range(limit + 1)}
    distribution = tuple((k, Fraction(w)) for k, w in sorted(counts.items()) if w)
    success = frozenset(k for k, _ in distribution if k >= needed)
    probability = chance(distribution, success)
    return SystemOdds(probability, distribution, success, _("successes in %(attempts)s attempts") % {"attempts": limit},
                      ((_("chance per attempt"), p), (_("successes needed"), needed), (_("attempts allowed"), limit),
                       (_("chance of success"), probability)))


@dataclass(frozen=True)
class ExtendedTaskRoll:
    """An extended task as rolled: each attempt, the successes and the outcome."""

    attempts: tuple[SystemRoll, ...]
    successes: int
    needed: int
    allowed: int
    success: bool
    probability: Fraction


def roll_extended_task(av: int, dv: int, successes: int, attempts: int, bonus_dice: int = 0,
                       defense_dice: int = 0, *, bonus_dice_mode: int = ADD_DICE,
                       rng: random.Random | None = None, dice: Sequence[int] | None = None) -> ExtendedTaskRoll:
    """Roll an extended task attempt by attempt until it succeeds or can no longer succeed.

    Entered dice run through the attempts in order, each attempt taking its dice as
    ``roll_check`` does.
    """
    needed, limit = _extended(successes, attempts)
    p = RULE_SET.clean({"av": av, "dv": dv, "bonus_dice": bonus_dice, "defense_dice": defense_dice,
                        "bonus_dice_mode": bonus_dice_mode})
    probability = extended_task_odds(av, dv, needed, limit, bonus_dice, defense_dice,
                                     bonus_dice_mode=bonus_dice_mode).probability
    single = _odds(p).probability
    roller = table_dice(dice, rng)
    rolls: list[SystemRoll] = []
    won = 0
    while won < needed and needed - won <= limit - len(rolls):
        start = len(roller.rolls)
        attempt = _as_roll(p, _attempt(p, roller), roller, single)
        rolls.append(SystemRoll(attempt.faces, attempt.kept, attempt.total, attempt.success, attempt.breakdown,
                                frozen({**attempt.details, "rolls": dice_record(roller)[start:]}), single))
        won += attempt.success
        if attempt.details["impossible"]:
            break
    roller.check_all_used()
    return ExtendedTaskRoll(tuple(rolls), won, needed, limit, won >= needed, probability)


@dataclass(frozen=True)
class RaceOdds:
    """Who finishes an extended opposed task first: the first side, the second, or both at once."""

    first: Fraction
    second: Fraction
    together: Fraction


def extended_race_odds(first: Fraction, second: Fraction, successes: int) -> RaceOdds:
    """Return the odds of an extended opposed task ("Extended Tasks"): first to ``successes`` wins.

    Both sides roll once per attempt, with chances ``first`` and ``second`` of a success
    (``check_odds(...).probability`` of each). Reaching the count on the same attempt is
    ``together``; the GM decides what that means.
    """
    needed = Param("successes", gettext_noop("Successes needed"), 1, MAX_SUCCESSES).coerce(successes)
    p, q = Fraction(first), Fraction(second)
    if not (0 <= p <= 1 and 0 <= q <= 1):
        raise RulesError(_("A chance of success lies between 0 and 1."))
    return _race_odds(p, q, needed)


@lru_cache(maxsize=ODDS_CACHE_SIZE)
def _race_odds(p: Fraction, q: Fraction, needed: int) -> RaceOdds:
    moves = 1 - (1 - p) * (1 - q)
    if moves == 0:
        raise RulesError(_("Neither side can ever succeed, so the race never ends."))
    # Attempts where nobody succeeds change nothing, so only the attempts that do are counted.
    both, only_first, only_second = p * q / moves, p * (1 - q) / moves, (1 - p) * q / moves
    states = {(0, 0): Fraction(1)}
    result = {"first": Fraction(0), "second": Fraction(0), "together": Fraction(0)}
    for _step in range(2 * needed):
        following: dict[tuple[int, int], Fraction] = {}
        for (a, b), mass in states.items():
            for (da, db), step in (((1, 1), both), ((1, 0), only_first), ((0, 1), only_second)):
                if not step:
                    continue
                na, nb = a + da, b + db
                if na == needed and nb == needed:
                    result["together"] += mass * step
                elif na == needed:
                    result["first"] += mass * step
                elif nb == needed:
                    result["second"] += mass * step
                else:
                    following[(na, nb)] = following.get((na, nb), Fraction(0)) + mass * step
        states = following
    return RaceOdds(result["first"], result["second"], result["together"])


# --- Endurance, explosions -------------------------------------------------------------------
def base_endurance(brawn: int, presence: int) -> int:
    """Return a character's Endurance: Brawn or Presence, whichever is greater."""
    return max(require_int(brawn, gettext_noop("Brawn"), minimum=0),
               require_int(presence, gettext_noop("Presence"), minimum=0))


def endurance_penalty_dice(base: int, current: int) -> int:
    """Return −1 (a penalty die on every action but talk) once more than half the Endurance is lost."""
    base = require_int(base, gettext_noop("Endurance"), minimum=0)
    current = require_int(current, gettext_noop("Current Endurance"), minimum=0, maximum=base)
    return -1 if 2 * (base - current) > base else 0


def lose_endurance(current: int, damage: int) -> int:
    """Return Endurance after ``damage``; it never drops below 0, where the character is defeated."""
    return max(0, require_int(current, gettext_noop("Current Endurance"), minimum=0)
               - require_int(damage, gettext_noop("Damage"), minimum=0))


def rest_endurance(base: int, current: int) -> int:
    """Return Endurance after half an hour's rest (or a rally): half the loss back, rounded down."""
    base = require_int(base, gettext_noop("Endurance"), minimum=0)
    current = require_int(current, gettext_noop("Current Endurance"), minimum=0, maximum=base)
    return current + (base - current) // 2


def explosion_action_value(av: int, distance: int, radius: int = 10) -> int | None:
    """Return an explosion's action value at ``distance`` metres ("Exploding").

    Full within half the radius, half (rounded down) out to the radius, None beyond it.
    """
    av = require_int(av, gettext_noop("The action value"), minimum=0)
    distance = require_int(distance, gettext_noop("The distance"), minimum=0)
    radius = require_int(radius, gettext_noop("The radius"), minimum=1)
    if 2 * distance <= radius:
        return av
    return av // 2 if distance <= radius else None


# --- The rule set ----------------------------------------------------------------------------
def _flag(name: str, label: str, help: str) -> Param:
    return Param(name, label, 0, 1, default=0, choices=(0, 1), help=help)


RULE_SET = RuleSet(
    key="zerospace",
    name=gettext_noop("ZeroSpace"),
    params=(
        Param("av", gettext_noop("Action value"), 0, MAX_VALUE,
              help=gettext_noop("Attribute + equipment rating (the rating alone if unskilled).")),
        Param("dv", gettext_noop("Difficulty value"), 0, MAX_VALUE,
              help=gettext_noop("3 moderate, 6 remarkable, 9 extreme, 12 inconceivable; or the opponent's attribute "
                                "+ rating.")),
        Param("bonus_dice", gettext_noop("Bonus dice"), -MAX_BONUS_DICE, MAX_BONUS_DICE, default=0,
              help=gettext_noop("Bonus dice minus penalty dice on the roll.")),
        Param("defense_dice", gettext_noop("Defense bonus dice"), -MAX_BONUS_DICE, MAX_BONUS_DICE, default=0,
              help=gettext_noop("Bonus dice minus penalty dice on the target number's roll (cover, prone …).")),
        _flag("penetrating", gettext_noop("Penetrating"),
              gettext_noop("1: the roller's dice showing 1 are rolled again.")),
        _flag("strict", gettext_noop("Must beat"), gettext_noop("1: a tie fails (a distraction must roll higher).")),
    ),
    rulings=(
        Param("bonus_dice_mode", gettext_noop("Bonus dice"), 0, 1, default=ADD_DICE, choices=(ADD_DICE, KEEP_TWO),
              help=gettext_noop("0: each bonus die adds a die and each penalty die removes one, all summed (the "
                                "text); 1: roll the extra dice and keep the best (bonus) or worst (penalty) two.")),
        _flag("margin_of_success", gettext_noop("Margin of success"),
              gettext_noop("1: a hit deals one more Endurance per full 3 of margin (the optional sidebar rule).")),
    ),
    summary=gettext_noop("2d6 + action value against 2d6 + difficulty value; a tie succeeds."),
    odds_function=_odds,
    roll_function=_roll,
)
