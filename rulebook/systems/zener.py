"""The Zener Gate check as a rule set: N d6 at or below a target, miracle and extra dice.

A thin adapter over ``rulebook.dice`` ("Stat Checks", "Skill Checks", "Additional Rules /
Impossible Chances"; RULINGS.md section 1), so the flagship system can be listed, charted
and rolled beside the others. The odds and the roll are exactly those of ``rulebook.dice``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache

from rulebook import dice as zener_dice
from rulebook.systems.base import (
    ODDS_CACHE_SIZE,
    Param,
    ParamError,
    RuleSet,
    SystemOdds,
    SystemRoll,
    as_distribution,
    dice_record,
    frozen,
    language_key,
    pool_counts,
    table_dice,
)
from rulebook.words import gettext as _
from rulebook.words import gettext_noop

#: Targets the app accepts. The lowest, on 12 dice, makes the miracle rule roll 54 dice.
TARGET_MIN, TARGET_MAX = -30, 100
#: 3d6 for skill checks and attacks, 4d6 for stat checks; a rule set never needs more than 12.
MAX_DICE = 12
#: The most extra-benefit dice the rule set takes, whatever a very high target would allow.
MAX_EXTRA = 6


def _validate(params: dict) -> None:
    extra = params["extra"]
    if extra:
        limit = min(zener_dice.extra_benefit_limit(params["target"], params["dice"]), MAX_EXTRA)
        if extra > limit:
            if limit == 0:
                raise ParamError("extra", zener_dice.cannot_fail_needed(params["target"], params["dice"]))
            raise ParamError("extra", zener_dice.at_most_extra(params["target"], params["dice"], limit, extra))


def check_odds(target: int, dice: int = 3, extra: int = 0) -> SystemOdds:
    """Return the exact odds of a Zener check: the sum of the counted d6 at or below the target.

    "Skill Checks" (3d6), "Stat Checks" (4d6); "Additional Rules / Impossible Chances": a
    target below the number of dice rolls miracle dice, and ``extra`` extra-benefit dice on
    a check that cannot fail keep only the lowest ``dice`` faces against a target 2 lower per
    extra die. The distribution is the total of the counted dice. Cached.

    Raises:
        ParamError: a target outside −30…100, dice outside 1…12, or extra dice the target
            does not allow.
    """
    params = RULE_SET.clean({"target": target, "dice": dice, "extra": extra})
    return _check_odds(params["target"], params["dice"], params["extra"])


def _check_odds(target: int, dice: int, extra: int) -> SystemOdds:
    return _check_odds_in(target, dice, extra, language_key())


@lru_cache(maxsize=ODDS_CACHE_SIZE)
def _check_odds_in(target: int, dice: int, extra: int, language: str) -> SystemOdds:
    """The odds, cached per language (``language_key``): they carry words."""
    if extra:
        odds = zener_dice.extra_benefit_odds(target, dice, extra)
        counts = pool_counts(odds.dice, odds.kept, 6, False)
        outcome = _("lowest %(kept)s of %(dice)sd6") % {"kept": odds.kept, "dice": odds.dice}
    else:
        odds = zener_dice.check_odds(target, dice)
        counts = {total: ways for total, ways in enumerate(zener_dice.sum_counts(odds.dice)) if ways}
        outcome = f"{odds.dice}d6"
    distribution = as_distribution(counts)
    success = frozenset(total for total, _ in distribution if total <= odds.effective_target)
    return SystemOdds(odds.probability, distribution, success, outcome, tuple(odds.breakdown))


def roll_check(target: int, dice: int = 3, extra: int = 0, rng: random.Random | None = None,
               faces: Sequence[int] | None = None) -> SystemRoll:
    """Roll a Zener check through ``rulebook.dice.roll_check``.

    Every die the check rolls (miracle and extra dice included) is taken from ``faces``
    first, in roll order, then from ``rng``. Details: ``margin`` (effective target − total),
    ``critical``, ``miracle``, ``effective_target``.

    Args:
        target: the check's target, modifiers included.
        dice: how many dice the check counts (3 skill, 4 stat).
        extra: extra-benefit dice, only on a check that cannot fail.
        rng: the random generator for dice not entered.
        faces: d6 faces rolled at the table (named ``faces`` here because ``dice`` is the
            count, as in ``rulebook.dice``).

    Raises:
        ParamError: as for ``check_odds``.
        RulesError: an entered face above 6, or more faces than the check rolls.
    """
    params = RULE_SET.clean({"target": target, "dice": dice, "extra": extra})
    odds = _check_odds(params["target"], params["dice"], params["extra"])
    roller = table_dice(faces, rng)
    result = zener_dice.roll_check(params["target"], params["dice"], rng=roller, extra=params["extra"])
    roller.check_all_used()
    return SystemRoll(
        faces=result.faces,
        kept=result.kept,
        total=result.total,
        success=result.success,
        breakdown=tuple(result.breakdown),
        details=frozen({
            "outcome": result.total,
            "effective_target": result.effective_target,
            "margin": result.margin,
            "critical": result.critical,
            "miracle": not result.extra and result.dice > params["dice"],
            "dice_rolled": result.dice,
            "rolls": dice_record(roller),
        }),
        probability=odds.probability,
    )


RULE_SET = RuleSet(
    key="zener",
    name=gettext_noop("Zener Gate"),
    params=(
        Param("target", gettext_noop("Target"), TARGET_MIN, TARGET_MAX,
              help=gettext_noop("Ranks + skill foundation (or the stat) + modifiers; succeed at or below it.")),
        Param("dice", gettext_noop("Dice"), 1, MAX_DICE, default=3,
              help=gettext_noop("3 for skill checks and attacks, 4 for stat checks.")),
        Param("extra", gettext_noop("Extra-benefit dice"), 0, MAX_EXTRA, default=0,
              help=gettext_noop("Only on a check that cannot fail: the lowest faces count, the target drops 2 per "
                                "die.")),
    ),
    rulings=(),
    summary=gettext_noop("Roll N d6 and succeed at or below the target; miracle dice when it cannot succeed."),
    odds_function=lambda p: _check_odds(p["target"], p["dice"], p["extra"]),
    roll_function=lambda p, rng, entered: roll_check(p["target"], p["dice"], p["extra"], rng=rng, faces=entered),
    validate=_validate,
)
