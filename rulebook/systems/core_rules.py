"""Core Rules, chapter V: the Action Resolution Check (ARC), reactions and declaration order.

Source sections: V.5 "Reaction", V.6 "Sequence of the game", V.7 "Performing an action",
V.8 "Action resolution checks" and V.9 "Bonus and malus application".

ARC = KS score + US score + ES adjustment + other adjustments. The ES adjustment is a die
chosen by the ES score: a face at or below the score adds itself, a face above it subtracts
the excess (ES 5 on a d8: 1–5 add 1–5, 6–8 subtract 1–3). A check against a threshold
(ARCT) or an opponent's ARC (ARCO) succeeds only when strictly higher; a tie fails.

The chapter's tables are not in the text, so the app rules on them (``RULE_SET.rulings``):

- ``es_dice`` — the die for each ES score. 0 (default) "pairs": ES 1–2 d4, 3–4 d6,
  5–6 d8, 7–8 d10, 9–10 d12. 1 "ES + 3": the smallest standard die with at least ES + 3
  faces (ES 1 d4, 2–3 d6, 4–5 d8, 6–7 d10, 8–10 d12). Both give ES 5 the d8 of the text's
  example.
- ``threshold_step`` — the named thresholds run in steps of this size around "average" 9,
  the one value the text gives (default 3: 3, 6, 9, 12, 15, 18).
- ``actions_step`` — one more action per turn for every this many points of ES (default 5:
  ES 1–4 one action, 5–9 two, 10 three).

Not configurable: ties in declaration order that survive SOM, Empathy and Perception are
settled by a d10, lowest first, and those still tied roll again.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from types import MappingProxyType

from rulebook import RulesError
from rulebook._numbers import require_int
from rulebook.dice import EnteredDice
from rulebook.systems.base import (
    ODDS_CACHE_SIZE,
    Param,
    RuleSet,
    SystemOdds,
    SystemRoll,
    as_distribution,
    chance,
    dice_record,
    difference,
    frozen,
    language_key,
    table_dice,
)
from rulebook.words import gettext as _
from rulebook.words import gettext_noop

SCORE_MIN, SCORE_MAX = 1, 10
THRESHOLD_MIN, THRESHOLD_MAX = 1, 40
AVERAGE_THRESHOLD = 9
PAIRS, PLUS_THREE = 0, 1

#: The ES die by score, for each reading of the missing table.
ES_DICE: dict[int, dict[int, int]] = {
    PAIRS: {1: 4, 2: 4, 3: 6, 4: 6, 5: 8, 6: 8, 7: 10, 8: 10, 9: 12, 10: 12},
    PLUS_THREE: {1: 4, 2: 6, 3: 6, 4: 8, 5: 8, 6: 10, 7: 10, 8: 12, 9: 12, 10: 12},
}
#: The named thresholds, easiest first; "average" is the text's 9. Keys, in English, marked for the
#: catalogue: translated where shown.
THRESHOLD_LEVELS = (gettext_noop("very easy"), gettext_noop("easy"), gettext_noop("average"), gettext_noop("hard"),
                    gettext_noop("very hard"), gettext_noop("extreme"))


# --- The ES adjustment -----------------------------------------------------------------------
def es_die(es: int, es_dice: int = PAIRS) -> int:
    """Return the sides of the die rolled for an ES score (the missing core table; see rulings)."""
    es = RULE_SET.param_named("es").coerce(es)
    return ES_DICE[RULE_SET.param_named("es_dice").coerce(es_dice)][es]


def es_adjustment(es: int, face: int) -> int:
    """Return the ES adjustment for a face: the face if at or below the ES, else ES − face (V.7)."""
    es = RULE_SET.param_named("es").coerce(es)
    face = require_int(face, gettext_noop("The ES die"), minimum=1)
    return face if face <= es else es - face


@lru_cache(maxsize=None)
def _adjustments(es: int, es_dice: int) -> Mapping[int, Fraction]:
    sides = ES_DICE[es_dice][es]
    out: dict[int, Fraction] = {}
    for face in range(1, sides + 1):
        adj = face if face <= es else es - face
        out[adj] = out.get(adj, Fraction(0)) + Fraction(1, sides)
    return MappingProxyType(out)


# --- The ARC against a threshold --------------------------------------------------------------
def check_odds(ks: int, us: int, es: int, threshold: int = AVERAGE_THRESHOLD, other: int = 0, *,
               es_dice: int = PAIRS) -> SystemOdds:
    """Return the exact odds of an ARCT: ARC strictly above the threshold (V.7, V.8).

    The distribution is the ARC itself. Cached.

    Args:
        ks: the KS score (the example's Control 7).
        us: the US score (the example's Accuracy 4).
        es: the ES score, which picks the die.
        threshold: the threshold of the action's complexity (9 average).
        other: the GM's other adjustments, +1 per advantage and −1 per disadvantage (V.9).
        es_dice: the ruling on the die table.
    """
    return _odds(RULE_SET.clean({"ks": ks, "us": us, "es": es, "threshold": threshold, "other": other,
                                 "es_dice": es_dice}))


def _odds(p: dict) -> SystemOdds:
    return _check_odds(p["ks"], p["us"], p["es"], p["threshold"], p["other"], p["es_dice"], language_key())


@lru_cache(maxsize=ODDS_CACHE_SIZE)
def _check_odds(ks: int, us: int, es: int, threshold: int, other: int, es_dice: int, language: str) -> SystemOdds:
    """The odds, cached per language (``language_key``): they carry words."""
    base = ks + us + other
    distribution = as_distribution({base + adj: p for adj, p in _adjustments(es, es_dice).items()})
    success = frozenset(arc for arc, _ in distribution if arc > threshold)
    probability = chance(distribution, success)
    sides = ES_DICE[es_dice][es]
    return SystemOdds(probability, distribution, success, "ARC",
                      (("KS", ks), ("US", us),
                       (_("ES adjustment (d%(sides)s)") % {"sides": sides},
                        _("%(low)s to +%(high)s") % {"low": es - sides, "high": es}),
                       (_("other adjustments"), other), (_("threshold (must beat)"), threshold),
                       (_("chance of success"), probability)))


def roll_check(ks: int, us: int, es: int, threshold: int = AVERAGE_THRESHOLD, other: int = 0, *,
               es_dice: int = PAIRS, rng: random.Random | None = None,
               dice: Sequence[int] | None = None) -> SystemRoll:
    """Roll an ARCT: the ES die, then KS + US + adjustment + other against the threshold.

    Dice order: the one ES die. Details: ``es_die`` (its sides), ``adjustment``,
    ``threshold`` and ``margin`` (ARC − threshold; success needs at least 1).
    """
    p = RULE_SET.clean({"ks": ks, "us": us, "es": es, "threshold": threshold, "other": other, "es_dice": es_dice})
    return _roll(p, rng, dice)


def _roll(p: dict, rng: random.Random | None, dice: Sequence[int] | None) -> SystemRoll:
    odds = _odds(p)
    sides = ES_DICE[p["es_dice"]][p["es"]]
    roller = table_dice(dice, rng)
    face = roller.randint(1, sides)
    roller.check_all_used()
    adj = es_adjustment(p["es"], face)
    arc = p["ks"] + p["us"] + adj + p["other"]
    return SystemRoll(
        faces=(face,), kept=(face,), total=arc, success=arc > p["threshold"],
        breakdown=(("KS", p["ks"]), ("US", p["us"]), (_("ES die (d%(sides)s)") % {"sides": sides}, face),
                   (_("ES adjustment"), adj), (_("other adjustments"), p["other"]), ("ARC", arc),
                   (_("threshold (must beat)"), p["threshold"])),
        details=frozen({"outcome": arc, "es_die": sides, "adjustment": adj, "threshold": p["threshold"],
                        "margin": arc - p["threshold"], "rolls": dice_record(roller)}),
        probability=odds.probability,
    )


# --- Opposed checks ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Performer:
    """One side of an ARCO: its KS, US and ES scores and the GM's other adjustments."""

    ks: int
    us: int
    es: int
    other: int = 0

    def __post_init__(self) -> None:
        for name in ("ks", "us", "es", "other"):
            RULE_SET.param_named(name).coerce(getattr(self, name))


def _es_dice(value: object) -> int:
    return RULE_SET.param_named("es_dice").coerce(value)


def opposed_odds(first: Performer, second: Performer, *, es_dice: int = PAIRS) -> SystemOdds:
    """Return the exact odds of an ARCO: the first side wins only with a strictly higher ARC (V.8).

    The distribution is the difference, first ARC − second ARC. Cached.
    """
    return _opposed_odds(first, second, _es_dice(es_dice), language_key())


@lru_cache(maxsize=ODDS_CACHE_SIZE)
def _opposed_odds(first: Performer, second: Performer, es_dice: int, language: str) -> SystemOdds:
    """The odds, cached per language (``language_key``): they carry words."""
    arcs = [{p.ks + p.us + p.other + adj: w for adj, w in _adjustments(p.es, es_dice).items()}
            for p in (first, second)]
    distribution = as_distribution(difference(arcs[0], arcs[1]))
    success = frozenset(d for d, _ in distribution if d > 0)
    probability = chance(distribution, success)
    return SystemOdds(probability, distribution, success, _("first ARC − second ARC"),
                      ((_("first KS + US + other"), first.ks + first.us + first.other),
                       (_("first ES die"), f"d{ES_DICE[es_dice][first.es]}"),
                       (_("second KS + US + other"), second.ks + second.us + second.other),
                       (_("second ES die"), f"d{ES_DICE[es_dice][second.es]}"),
                       (_("a tie"), _("fails")), (_("chance of success"), probability)))


def roll_opposed(first: Performer, second: Performer, *, es_dice: int = PAIRS, rng: random.Random | None = None,
                 dice: Sequence[int] | None = None) -> SystemRoll:
    """Roll an ARCO: the first side's ES die, then the second's. ``total`` is the first ARC."""
    es_dice = _es_dice(es_dice)
    odds = _opposed_odds(first, second, es_dice, language_key())
    roller = table_dice(dice, rng)
    faces = tuple(roller.randint(1, ES_DICE[es_dice][p.es]) for p in (first, second))
    roller.check_all_used()
    arcs = tuple(p.ks + p.us + p.other + es_adjustment(p.es, face) for p, face in zip((first, second), faces))
    return SystemRoll(
        faces=faces, kept=faces, total=arcs[0], success=arcs[0] > arcs[1],
        breakdown=((_("first ES die"), faces[0]), (_("first ARC"), arcs[0]), (_("second ES die"), faces[1]),
                   (_("second ARC"), arcs[1]), (_("a tie"), _("fails"))),
        details=frozen({"outcome": arcs[0] - arcs[1], "first_arc": arcs[0], "second_arc": arcs[1],
                        "rolls": dice_record(roller)}),
        probability=odds.probability,
    )


# --- Reaction checks ---------------------------------------------------------------------------
def _som(value: object) -> int:
    return Param("som", "SOM", SCORE_MIN, SCORE_MAX).coerce(value)


def reaction_odds(som: int) -> Fraction:
    """Return the chance of a reaction check: a d10 at or below SOM (V.5)."""
    return Fraction(_som(som), 10)


def reaction_check(som: int, rng: random.Random | None = None, dice: Sequence[int] | None = None) -> SystemRoll:
    """Roll a reaction check: a d10 against SOM (V.5). A failure loses the turn.

    SOM 10 (Exalted) never fails; SOM 1 (Panicked) succeeds only on a 1.
    """
    som = _som(som)
    roller = table_dice(dice, rng)
    face = roller.randint(1, 10)
    roller.check_all_used()
    success = face <= som
    return SystemRoll(
        faces=(face,), kept=(face,), total=face, success=success,
        breakdown=(("SOM", som), ("d10", face), (_("result"), _("acts normally") if success else _("loses the turn"))),
        details=frozen({"outcome": face, "loses_turn": not success, "rolls": dice_record(roller)}),
        probability=Fraction(som, 10),
    )


# --- Declaration order, actions, thresholds ----------------------------------------------------
@dataclass(frozen=True)
class Declarant:
    """A character taking part in a turn (V.6); an unaware one (surprised, unconscious) sits it out."""

    name: str
    som: int
    empathy: int
    perception: int
    aware: bool = True

    def __post_init__(self) -> None:
        for label, value in (("SOM", self.som), (gettext_noop("Empathy"), self.empathy),
                             (gettext_noop("Perception"), self.perception)):
            require_int(value, f"{self.name}: {_(label)}", minimum=SCORE_MIN, maximum=SCORE_MAX)


@dataclass(frozen=True)
class DeclarationOrder:
    """Who declares when: ``order`` first to last, who sits the turn out, and any tie-break d10s."""

    order: tuple[str, ...]
    sitting_out: tuple[str, ...]
    tie_rolls: tuple[tuple[str, tuple[int, ...]], ...]
    rolls: tuple = ()


def declaration_order(declarants: Sequence[Declarant], rng: random.Random | None = None,
                      dice: Sequence[int] | None = None) -> DeclarationOrder:
    """Order the declarations of a turn: lowest SOM first, then Empathy, then Perception, then a d10 (V.6).

    Dice order: for each tied group (in declaration order), a d10 per member in the order
    given; members still tied roll again, in the same way.
    """
    names = [d.name for d in declarants]
    if len(set(names)) != len(names):
        raise RulesError(_("Every character in the declaration order needs a distinct name."))
    roller = table_dice(dice, rng)
    aware = [d for d in declarants if d.aware]
    groups: dict[tuple[int, int, int], list[Declarant]] = {}
    for d in aware:
        groups.setdefault((d.som, d.empathy, d.perception), []).append(d)
    tie_rolls: dict[str, list[int]] = {}
    order: list[str] = []
    for key in sorted(groups):
        order += _settle([d.name for d in groups[key]], roller, tie_rolls)
    roller.check_all_used()
    return DeclarationOrder(tuple(order), tuple(d.name for d in declarants if not d.aware),
                            tuple((name, tuple(faces)) for name, faces in tie_rolls.items()), dice_record(roller))


def _settle(names: list[str], roller: EnteredDice, tie_rolls: dict[str, list[int]]) -> list[str]:
    if len(names) == 1:
        return names
    faces = {}
    for name in names:
        faces[name] = roller.randint(1, 10)
        tie_rolls.setdefault(name, []).append(faces[name])
    out: list[str] = []
    for face in sorted(set(faces.values())):
        out += _settle([n for n in names if faces[n] == face], roller, tie_rolls)
    return out


def actions_per_turn(es: int, *, actions_step: int = 5) -> int:
    """Return how many actions an ES score allows in a turn (V.7; the table is a ruling)."""
    es = RULE_SET.param_named("es").coerce(es)
    return 1 + es // RULE_SET.param_named("actions_step").coerce(actions_step)


def threshold_for(level: str, *, threshold_step: int = 3) -> int:
    """Return the threshold of a named complexity (V.8; only "average" 9 is in the text)."""
    if level not in THRESHOLD_LEVELS:
        raise RulesError(_("Unknown complexity %(level)s: use %(levels)s.")
                         % {"level": repr(level), "levels": ", ".join(THRESHOLD_LEVELS)})
    step = RULE_SET.param_named("threshold_step").coerce(threshold_step)
    return AVERAGE_THRESHOLD + step * (THRESHOLD_LEVELS.index(level) - THRESHOLD_LEVELS.index("average"))


RULE_SET = RuleSet(
    key="core_rules",
    name=gettext_noop("Core Rules (chapter V)"),
    params=(
        Param("ks", gettext_noop("KS score"), SCORE_MIN, SCORE_MAX,
              help=gettext_noop("The key stat: the attribute the task leans on most (Control, to steer a vehicle).")),
        Param("us", gettext_noop("US score"), SCORE_MIN, SCORE_MAX,
              help=gettext_noop("The second stat: the attribute that helps (Accuracy, when steering).")),
        Param("es", gettext_noop("ES score"), SCORE_MIN, SCORE_MAX,
              help=gettext_noop("The skill's score; it picks the die.")),
        Param("threshold", gettext_noop("Threshold"), THRESHOLD_MIN, THRESHOLD_MAX, default=AVERAGE_THRESHOLD,
              help=gettext_noop("The ARC must be higher; 9 is average.")),
        Param("other", gettext_noop("Other adjustments"), -10, 10, default=0,
              help=gettext_noop("+1 per advantage, −1 per disadvantage.")),
    ),
    rulings=(
        Param("es_dice", gettext_noop("ES dice table"), 0, 1, default=PAIRS, choices=(PAIRS, PLUS_THREE),
              help=gettext_noop("0: ES 1–2 d4, 3–4 d6, 5–6 d8, 7–8 d10, 9–10 d12; 1: the smallest die with ES + 3 "
                                "faces (ES 1 d4, 2–3 d6, 4–5 d8, 6–7 d10, 8–10 d12).")),
        Param("threshold_step", gettext_noop("Threshold step"), 2, 5, default=3,
              help=gettext_noop("The named thresholds lie this far apart around average 9.")),
        Param("actions_step", gettext_noop("ES per extra action"), 2, 10, default=5,
              help=gettext_noop("One more action per turn for every this many points of ES.")),
    ),
    summary=gettext_noop("ARC = KS + US + ES adjustment (+ other) must beat the threshold; a tie fails."),
    odds_function=_odds,
    roll_function=_roll,
)
