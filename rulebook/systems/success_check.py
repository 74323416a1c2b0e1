"""The Success Check (2d10): 2d10 + skill bonus against a Target Number, and PT/DR armour.

Source: "Chapter 1: Core Mechanics" — the Success Check workflow (steps 1–9), "Advantage
and Disadvantage", "Using Edge with Advantage", "Margin of Success", the Triumph/Despair
rule, "Variable damage rolls", the "Armor system" and "Edge" (spending, recovery, burn).

A check succeeds when the total meets or beats the TN. Advantage rolls 3d10 and drops the
lowest; Disadvantage rolls 3d10 and drops the highest. Spending Edge either grants
Advantage with the roller choosing the die to drop, or cancels Disadvantage (plain 2d10).
A double on the two dice that count is a Triumph (success: margin + 5) or a Despair
(failure: margin − 5); the margin after that sets the band.

Ruling (``RULE_SET.rulings``): ``advantage_drop`` 0 (default) — without Edge, Advantage
drops the lowest die and Disadvantage the highest, as the summary of the chapter says;
1 — as step 4 words it, the roller picks the die under Advantage and the GM under
Disadvantage. Whoever picks is taken to pick the best final margin for themselves (Triumph
counted), the roller preferring the higher total when two picks tie.

Reading that is not configurable: armour's DR percentage is rounded down, as in the pistol
example (30 % of 16 soaks 4).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import product

from rulebook import RulesError
from rulebook._numbers import require_int
from rulebook.dice import sum_counts
from rulebook.systems.base import (
    ODDS_CACHE_SIZE,
    Breakdown,
    Param,
    ParamError,
    RuleSet,
    SystemOdds,
    SystemRoll,
    as_distribution,
    dice_record,
    frozen,
    language_key,
    table_dice,
)
from rulebook.words import gettext as _
from rulebook.words import gettext_noop

DIE_SIDES = 10
#: Triumph adds this to the margin of a success; Despair takes it from a failure's.
TRIUMPH_SHIFT = 5
BONUS_MIN, BONUS_MAX = -20, 80
TN_MIN, TN_MAX = 1, 100

#: "Difficulty levels": 20 is the default.
TARGET_NUMBERS: dict[str, int] = {
    "very easy": 10, "easy": 15, "moderate": 20, "challenging": 25,
    "difficult": 30, "very difficult": 35, "near impossible": 40,
}

# How the die to drop is chosen: keys (a roll's ``mode``), in English, marked for the catalogue and
# translated where shown.
PLAIN = "2d10"
DROP_LOWEST = gettext_noop("3d10, the lowest dropped")
DROP_HIGHEST = gettext_noop("3d10, the highest dropped")
ROLLER_CHOOSES = gettext_noop("3d10, the roller drops one")
GM_CHOOSES = gettext_noop("3d10, the GM drops one")


def roll_mode(advantage: int, edge: int, advantage_drop: int = 0) -> str:
    """Return how a check is rolled for this Advantage (−1/0/1), Edge spent (0/1) and ruling.

    "Edge": spending it on a check with Disadvantage only cancels the Disadvantage;
    otherwise it gives Advantage with the roller's choice of die (no fourth die if the
    check already had Advantage).
    """
    if edge:
        return PLAIN if advantage < 0 else ROLLER_CHOOSES
    if advantage > 0:
        return ROLLER_CHOOSES if advantage_drop else DROP_LOWEST
    if advantage < 0:
        return GM_CHOOSES if advantage_drop else DROP_HIGHEST
    return PLAIN


# --- Margin of success ----------------------------------------------------------------------
@dataclass(frozen=True)
class Band:
    """A band of the margin of success ("Magnitude of Success/Failure").

    ``attack_dice`` is the d6 an attack adds to its damage; ``next_check`` is +1 for
    Advantage and −1 for Disadvantage on the next (related) check, as the GM rules. ``name``
    (a key: a roll's ``band``) and ``note`` are in English, marked for the catalogue and
    translated where shown.
    """

    name: str
    success: bool
    attack_dice: int
    next_check: int
    note: str


BANDS = (
    Band(gettext_noop("complete success"), True, 2, 1,
         gettext_noop("Advantage on the next check of any kind, or another benefit.")),
    Band(gettext_noop("significant success"), True, 1, 1,
         gettext_noop("Advantage on the next related check, at the GM's discretion.")),
    Band(gettext_noop("marginal success"), True, 0, 0, gettext_noop("A success, only just.")),
    Band(gettext_noop("marginal failure"), False, 0, 0, gettext_noop("A failure, only just.")),
    Band(gettext_noop("significant failure"), False, 0, -1, gettext_noop("Disadvantage on the next related check.")),
    Band(gettext_noop("complete failure"), False, 0, -1,
         gettext_noop("Disadvantage on the next check, and more at the GM's discretion.")),
)


def margin_band(margin: int) -> Band:
    """Return the band of a margin of success (Triumph or Despair already applied)."""
    margin = require_int(margin, gettext_noop("The margin of success"))
    if margin >= 10:
        return BANDS[0]
    if margin >= 5:
        return BANDS[1]
    if margin >= 0:
        return BANDS[2]
    if margin >= -5:
        return BANDS[3]
    if margin >= -10:
        return BANDS[4]
    return BANDS[5]


def _judge(kept: tuple[int, ...], bonus: int, tn: int) -> tuple[int, int, bool, int]:
    """Return (total, margin, double, margin after Triumph/Despair) for the two dice that count."""
    total = sum(kept) + bonus
    margin = total - tn
    double = kept[0] == kept[1]
    final = margin + (TRIUMPH_SHIFT if margin >= 0 else -TRIUMPH_SHIFT) if double else margin
    return total, margin, double, final


def drop_index(faces: Sequence[int], mode: str, bonus: int, tn: int) -> int | None:
    """Return which of the three faces is dropped (None on 2d10), as ``mode`` says."""
    if mode == PLAIN:
        return None
    if mode == DROP_LOWEST:
        return faces.index(min(faces))
    if mode == DROP_HIGHEST:
        return faces.index(max(faces))
    outcomes = []
    for i in range(len(faces)):
        total, _, _, final = _judge(tuple(f for j, f in enumerate(faces) if j != i), bonus, tn)
        outcomes.append((final, total))
    pick = max(outcomes) if mode == ROLLER_CHOOSES else min(outcomes)
    return outcomes.index(pick)


# --- The check -------------------------------------------------------------------------------
def check_odds(bonus: int, tn: int, advantage: int = 0, edge: int = 0, *, advantage_drop: int = 0) -> SystemOdds:
    """Return the exact odds of a Success Check (steps 1–8 of the workflow).

    The distribution is the total, 2d10 (the two dice that count) + bonus; the successes
    are the totals at or above the TN. The breakdown adds the chances of Triumph, Despair
    and each band. Cached.

    Args:
        bonus: skill ranks + the two governing attributes (+ any flat modifier).
        tn: the Target Number (10 very easy … 20 moderate … 40 near impossible).
        advantage: 1 Advantage, −1 Disadvantage, 0 neither (they never stack).
        edge: 1 if the roller spends Edge on the check.
        advantage_drop: the ruling on who drops a die (see the module docstring).
    """
    p = RULE_SET.clean({"bonus": bonus, "tn": tn, "advantage": advantage, "edge": edge,
                        "advantage_drop": advantage_drop})
    return _odds(p)


def _odds(p: dict) -> SystemOdds:
    return _check_odds(p["bonus"], p["tn"], roll_mode(p["advantage"], p["edge"], p["advantage_drop"]))


def _check_odds(bonus: int, tn: int, mode: str) -> SystemOdds:
    return _check_odds_in(bonus, tn, mode, language_key())


@lru_cache(maxsize=ODDS_CACHE_SIZE)
def _check_odds_in(bonus: int, tn: int, mode: str, language: str) -> SystemOdds:
    """The odds, cached per language (``language_key``): they carry words."""
    rolled = 2 if mode == PLAIN else 3
    totals: Counter[int] = Counter()
    triumphs = despairs = 0
    bands: Counter[str] = Counter()
    for faces in product(range(1, DIE_SIDES + 1), repeat=rolled):
        dropped = drop_index(faces, mode, bonus, tn)
        kept = tuple(f for i, f in enumerate(faces) if i != dropped)
        total, margin, double, final = _judge(kept, bonus, tn)
        totals[total] += 1
        triumphs += double and margin >= 0
        despairs += double and margin < 0
        bands[margin_band(final).name] += 1
    whole = DIE_SIDES**rolled
    distribution = as_distribution(totals)
    success = frozenset(t for t, _ in distribution if t >= tn)
    probability = sum((Fraction(w, whole) for t, w in totals.items() if t >= tn), Fraction(0))
    breakdown: Breakdown = (
        (_("target number"), tn), (_("skill bonus"), bonus), (_("dice"), _(mode)),
        (_("chance of success"), probability),
        (_("chance of Triumph"), Fraction(triumphs, whole)), (_("chance of Despair"), Fraction(despairs, whole)),
    ) + tuple((_("chance of a %(band)s") % {"band": _(band.name)}, Fraction(bands[band.name], whole)) for band in BANDS)
    return SystemOdds(probability, distribution, success, _("2d10 + bonus"), breakdown)


def _validate(p: dict) -> None:
    if p["drop"] and roll_mode(p["advantage"], p["edge"], p["advantage_drop"]) not in (ROLLER_CHOOSES, GM_CHOOSES):
        raise ParamError("drop", _("Only a check where someone chooses which of 3d10 to drop takes a die to drop."))


def roll_check(bonus: int, tn: int, advantage: int = 0, edge: int = 0, drop: int = 0, *, advantage_drop: int = 0,
               rng: random.Random | None = None, dice: Sequence[int] | None = None) -> SystemRoll:
    """Roll a Success Check: 2d10 (or 3d10, one dropped) + bonus against the TN.

    Dice order: the two or three d10. ``drop`` (1–3) names the die the chooser dropped at
    the table; 0 lets the rules pick (the best final margin for the roller, the worst under
    a GM's choice). Details: ``margin`` (total − TN), ``margin_of_success`` (after Triumph
    or Despair), ``double``, ``triumph``, ``despair``, ``band``, ``attack_dice``,
    ``next_check``, ``dropped`` (the face), ``mode`` and ``edge_spent``.

    Raises:
        ParamError: an input out of range, or ``drop`` on a check where nobody chooses.
        RulesError: an entered face above 10, or more faces than the check rolls.
    """
    p = RULE_SET.clean({"bonus": bonus, "tn": tn, "advantage": advantage, "edge": edge, "drop": drop,
                        "advantage_drop": advantage_drop})
    return _roll(p, rng, dice)


def _roll(p: dict, rng: random.Random | None, dice: Sequence[int] | None) -> SystemRoll:
    mode = roll_mode(p["advantage"], p["edge"], p["advantage_drop"])
    odds = _check_odds(p["bonus"], p["tn"], mode)
    roller = table_dice(dice, rng)
    faces = tuple(roller.randint(1, DIE_SIDES) for _ in range(2 if mode == PLAIN else 3))
    roller.check_all_used()
    dropped = p["drop"] - 1 if p["drop"] else drop_index(faces, mode, p["bonus"], p["tn"])
    kept = tuple(f for i, f in enumerate(faces) if i != dropped)
    total, margin, double, final = _judge(kept, p["bonus"], p["tn"])
    success = margin >= 0
    band = margin_band(final)
    breakdown: Breakdown = ((_("dice"), _(mode)), (_("faces rolled"), faces))
    if dropped is not None:
        breakdown += ((_("face dropped"), faces[dropped]),)
    breakdown += ((_("faces counted"), kept), (_("skill bonus"), p["bonus"]), (_("total"), total),
                  (_("target number"), p["tn"]), (_("margin"), margin))
    if double:
        breakdown += ((_("Triumph") if success else _("Despair"), TRIUMPH_SHIFT if success else -TRIUMPH_SHIFT),)
    breakdown += ((_("margin of success"), final), (_("band"), _(band.name)))
    return SystemRoll(
        faces=faces, kept=kept, total=total, success=success, breakdown=breakdown,
        details=frozen({
            "outcome": total, "margin": margin, "margin_of_success": final, "double": double,
            "triumph": double and success, "despair": double and not success, "band": band.name,
            "attack_dice": band.attack_dice, "next_check": band.next_check,
            "dropped": None if dropped is None else faces[dropped], "mode": mode, "edge_spent": bool(p["edge"]),
            "rolls": dice_record(roller),
        }),
        probability=odds.probability,
    )


# --- Damage and armour -----------------------------------------------------------------------
#: "Weapon examples": (d6, modifier).
WEAPONS: dict[str, tuple[int, int]] = {
    "light pistol": (2, 4), "heavy pistol": (3, 5), "assault rifle": (4, 6),
    "sniper rifle": (6, 8), "assault cannon": (8, 10),
}
#: "Armor system", rule of thumb: (PT, DR %). Assault armour is given as PT 35 / DR 60 too.
ARMOUR: dict[str, tuple[int, int]] = {"light": (15, 20), "medium": (25, 40), "heavy": (35, 60)}

MAX_WEAPON_DICE, MAX_EXTRA_DICE = 12, 6


@dataclass(frozen=True)
class ArmourHit:
    """What armour does to one damage roll: stopped below PT, else reduced by DR %."""

    damage: int
    penetration_threshold: int
    damage_reduction: int
    penetrated: bool
    reduction: int
    taken: int

    @property
    def breakdown(self) -> Breakdown:
        """Return the hit term by term."""
        lines: Breakdown = ((_("damage"), self.damage), (_("penetration threshold"), self.penetration_threshold))
        if not self.penetrated:
            return lines + ((_("stopped"), _("below the threshold")), (_("damage taken"), 0))
        reduced = _("damage reduction %(dr)s%% (rounded down)") % {"dr": self.damage_reduction}
        return lines + ((reduced, -self.reduction), (_("damage taken"), self.taken))


def armour_damage(damage: int, pt: int, dr: int) -> ArmourHit:
    """Apply PT/DR armour to a damage total ("Armor system").

    Damage below the Penetration Threshold is stopped; damage at or above it is reduced by
    DR percent of itself, rounded down (the pistol example: 16 against DR 30 loses 4).
    """
    damage = require_int(damage, gettext_noop("The damage"), minimum=0)
    pt = require_int(pt, gettext_noop("The penetration threshold"), minimum=0)
    dr = require_int(dr, gettext_noop("The damage reduction"), minimum=0, maximum=100)
    if damage < pt:
        return ArmourHit(damage, pt, dr, False, 0, 0)
    reduction = damage * dr // 100
    return ArmourHit(damage, pt, dr, True, reduction, damage - reduction)


def attack_extra_dice(margin: int, edge: int = 0) -> int:
    """Return the d6 an attack adds to its damage: 1 or 2 by its band, +1 for Edge spent."""
    return margin_band(margin).attack_dice + (1 if require_int(edge, gettext_noop("Edge"), minimum=0, maximum=1) else 0)


_DAMAGE_PARAMS = (
    Param("weapon_dice", gettext_noop("Weapon dice"), 1, MAX_WEAPON_DICE),
    Param("modifier", gettext_noop("Damage modifier"), -10, 40,
          help=gettext_noop("The weapon's (or wielder's) Strength.")),
    Param("pt", gettext_noop("Penetration threshold"), 0, 100, default=0),
    Param("dr", gettext_noop("Damage reduction %"), 0, 100, default=0),
    Param("extra_dice", gettext_noop("Extra damage dice"), 0, MAX_EXTRA_DICE, default=0,
          help=gettext_noop("From the attack's band and Edge.")),
)


def _damage_inputs(**values: object) -> tuple[int, ...]:
    return tuple(param.coerce(values[param.name]) for param in _DAMAGE_PARAMS)


def damage_odds(weapon_dice: int, modifier: int, pt: int = 0, dr: int = 0, extra_dice: int = 0) -> SystemOdds:
    """Return the exact distribution of damage taken through PT/DR armour ("Variable damage rolls").

    The successes are the outcomes that hurt (damage taken above 0); the breakdown adds the
    chance to penetrate. Cached.
    """
    return _damage_odds(*_damage_inputs(weapon_dice=weapon_dice, modifier=modifier, pt=pt, dr=dr,
                                        extra_dice=extra_dice))


def _damage_odds(weapon_dice: int, modifier: int, pt: int, dr: int, extra_dice: int) -> SystemOdds:
    return _damage_odds_in(weapon_dice, modifier, pt, dr, extra_dice, language_key())


@lru_cache(maxsize=ODDS_CACHE_SIZE)
def _damage_odds_in(weapon_dice: int, modifier: int, pt: int, dr: int, extra_dice: int, language: str) -> SystemOdds:
    """The odds, cached per language (``language_key``): they carry words."""
    rolled = weapon_dice + extra_dice
    taken: Counter[int] = Counter()
    penetrating = 0
    for total, ways in enumerate(sum_counts(rolled)):
        if ways:
            hit = armour_damage(max(0, total + modifier), pt, dr)
            taken[hit.taken] += ways
            penetrating += ways * hit.penetrated
    distribution = as_distribution(taken)
    success = frozenset(t for t, _ in distribution if t > 0)
    probability = sum((p for t, p in distribution if t > 0), Fraction(0))
    return SystemOdds(probability, distribution, success, _("damage taken"),
                      ((_("damage dice"), f"{rolled}d6"), (_("modifier"), modifier), (_("penetration threshold"), pt),
                       (_("damage reduction %"), dr), (_("chance to penetrate"), Fraction(penetrating, 6**rolled)),
                       (_("chance to hurt"), probability)))


def roll_damage(weapon_dice: int, modifier: int, pt: int = 0, dr: int = 0, extra_dice: int = 0,
                rng: random.Random | None = None, dice: Sequence[int] | None = None) -> SystemRoll:
    """Roll damage (weapon d6 + extra d6 + modifier) and apply PT/DR armour to it.

    Dice order: the weapon's d6, then the extra d6. ``total`` is the damage rolled; details
    give ``taken``, ``penetrated`` and ``reduction``. A negative total counts as 0.
    """
    weapon_dice, modifier, pt, dr, extra_dice = _damage_inputs(
        weapon_dice=weapon_dice, modifier=modifier, pt=pt, dr=dr, extra_dice=extra_dice)
    odds = _damage_odds(weapon_dice, modifier, pt, dr, extra_dice)
    roller = table_dice(dice, rng)
    faces = tuple(roller.randint(1, 6) for _ in range(weapon_dice + extra_dice))
    roller.check_all_used()
    damage = max(0, sum(faces) + modifier)
    hit = armour_damage(damage, pt, dr)
    return SystemRoll(
        faces=faces, kept=faces, total=damage, success=hit.taken > 0,
        breakdown=((_("faces rolled"), faces), (_("modifier"), modifier)) + hit.breakdown,
        details=frozen({"outcome": hit.taken, "taken": hit.taken, "penetrated": hit.penetrated,
                        "reduction": hit.reduction, "rolls": dice_record(roller)}),
        probability=odds.probability,
    )


# --- Edge --------------------------------------------------------------------------------------
def _edge(current: object, maximum: object) -> tuple[int, int]:
    maximum = require_int(maximum, gettext_noop("Maximum Edge"), minimum=0)
    return require_int(current, gettext_noop("Current Edge"), minimum=0, maximum=maximum), maximum


def edge_spend(current: int, maximum: int) -> int:
    """Return Edge after spending one point ("Using Edge")."""
    current, _maximum = _edge(current, maximum)
    if current == 0:
        raise RulesError(_("No Edge left to spend."))
    return current - 1


def edge_rest(current: int, maximum: int, *, long: bool = False) -> int:
    """Return Edge after a rest ("Edge Recovery"): 1 point after a short rest, all after a long one."""
    current, maximum = _edge(current, maximum)
    return maximum if long else min(maximum, current + 1)


def edge_burn(current: int, maximum: int) -> tuple[int, int]:
    """Return (current, maximum) Edge after an Edge Burn: one less of each ("Edge Burn").

    Only to escape death, and only with a point of Edge to burn.
    """
    current, maximum = _edge(current, maximum)
    if current == 0:
        raise RulesError(_("An Edge Burn needs a point of Edge to burn."))
    return current - 1, maximum - 1


RULE_SET = RuleSet(
    key="success_check",
    name=gettext_noop("Success Check (2d10)"),
    params=(
        Param("bonus", gettext_noop("Skill bonus"), BONUS_MIN, BONUS_MAX,
              help=gettext_noop("Skill ranks + the two governing attributes.")),
        Param("tn", gettext_noop("Target number"), TN_MIN, TN_MAX,
              help=gettext_noop("10 very easy, 15 easy, 20 moderate … 40 near impossible.")),
        Param("advantage", gettext_noop("Advantage"), -1, 1, default=0, choices=(-1, 0, 1),
              help=gettext_noop("1 Advantage (3d10, drop the lowest), −1 Disadvantage (3d10, drop the highest).")),
        Param("edge", gettext_noop("Edge spent"), 0, 1, default=0, choices=(0, 1),
              help=gettext_noop("1: Advantage with the roller's choice of die, or cancels Disadvantage.")),
        Param("drop", gettext_noop("Die dropped"), 0, 3, default=0,
              help=gettext_noop("When someone chooses: which of the three dice (1–3) was dropped; 0 lets the rules "
                                "pick.")),
    ),
    rulings=(
        Param("advantage_drop", gettext_noop("Dropping a die"), 0, 1, default=0, choices=(0, 1),
              help=gettext_noop("0: Advantage drops the lowest and Disadvantage the highest unless Edge is spent; "
                                "1: the roller picks under Advantage and the GM under Disadvantage.")),
    ),
    summary=gettext_noop("2d10 + skill bonus, success at or above the target number; doubles are Triumph or Despair."),
    odds_function=_odds,
    roll_function=_roll,
    validate=_validate,
)
