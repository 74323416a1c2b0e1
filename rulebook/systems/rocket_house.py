"""Tales from the Rocket House: d100 under a Trait, Effect from the tens digit.

Source sections: "Basic Task Resolution", "Difficulty Modifiers", the four kinds of test
(unopposed and opposed, each with or without Margin of Success), "Combat", "Damage"
(Wounds and Fatigue), "First Aid and Healing", "Other Combat Rules" (stances, range,
Strength in combat, weapons and armour) and the "Wounds Only" approach.

A test succeeds on a d100 roll at or below the Trait after difficulty (±10 % a step); 100
("00") always fails. A success's Effect is the tens digit of the roll (93 → 9, 07 → 0).

Rulings (``RULE_SET.rulings``):

- ``stalemate`` — equal rolls in an opposed test: 0 (default) the stalemate stands;
  1 a tie-break die, odd for the first (acting) side and even for the second, as in the
  sneaking example; 2 both roll the test again until the rolls differ.
- ``effect_tie`` — both succeed with the same total Effect in an opposed test with Margin
  of Success (or combat): 0 (default) stalemate, since only the higher Effect wins;
  1 the higher roll wins, with a net Effect of 0.

Readings that are not configurable: the "Effect Dice" the text mentions are the tens digit
itself (every example uses the digit directly); in a test with Margin of Success a success
always beats a failure, even at Effect 0, and two failures are a stalemate; weapons add
to the Effect only once the hit is scored, so a combat round is won on the tens digits.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from rulebook import RulesError
from rulebook._numbers import require_int
from rulebook.systems.base import (
    ODDS_CACHE_SIZE,
    Breakdown,
    Param,
    RuleSet,
    SystemOdds,
    SystemRoll,
    dice_record,
    frozen,
    language_key,
    table_dice,
)
from rulebook.words import gettext as _
from rulebook.words import gettext_noop

D100 = 100
#: A roll of 100 ("00") fails whatever the Trait.
AUTOMATIC_FAILURE = 100
#: Each difficulty step is worth this many percent.
STEP = 10
TRAIT_MAX = 200
STALEMATE, TIEBREAK_DIE, ROLL_AGAIN = 0, 1, 2
#: "Optional Combat Approaches": how damage lands (a campaign's ruling).
WOUNDS_AND_FATIGUE, WOUNDS_ONLY, FATIGUE_ONLY = 0, 1, 2

#: "Difficulty Modifiers", as steps of 10 % (the names marked for the catalogue: translated where shown).
DIFFICULTY: dict[int, str] = {-3: gettext_noop("hardest"), -2: gettext_noop("harder"), -1: gettext_noop("hard"),
                              0: gettext_noop("normal"), 1: gettext_noop("easy"), 2: gettext_noop("easier"),
                              3: gettext_noop("easiest")}
#: The Trait benchmarks.
TRAIT_LEVELS: dict[str, int] = {
    "feeble": 10, "very bad": 20, "bad": 30, "mediocre": 40, "average": 50, "competent": 60, "good": 70,
    "very good": 80, "outstanding": 90, "legendary": 100,
}
#: "Ranged Combat": the modifier by range band, in percent.
RANGE: dict[str, int] = {"melee": 10, "short": 0, "medium": -10, "long": -20, "extreme": -30}
#: "Weapons and Armor": Effect a weapon adds once it hits.
WEAPON_EFFECT: dict[str, int] = {"unarmed": 0, "weak": 1, "average": 2, "strong": 3, "very strong": 4, "extreme": 5}
#: Armour ratings, subtracted from the damage taken.
ARMOUR: dict[str, int] = {"very light": 1, "light": 2, "medium": 3, "heavy": 4, "very heavy": 5, "super heavy": 6}


# --- One test --------------------------------------------------------------------------------
def target(trait: int, difficulty: int = 0, modifier: int = 0) -> int:
    """Return the number to roll under: Trait + 10 % per difficulty step + other modifiers."""
    p = RULE_SET.clean({"trait": trait, "difficulty": difficulty, "modifier": modifier})
    return p["trait"] + STEP * p["difficulty"] + p["modifier"]


def succeeds(roll: int, chance: int) -> bool:
    """Tell whether a d100 roll succeeds against ``chance`` (100 always fails)."""
    roll = require_int(roll, gettext_noop("The d100 roll"), minimum=1, maximum=D100)
    return roll != AUTOMATIC_FAILURE and roll <= require_int(chance, gettext_noop("The target"))


def effect(roll: int) -> int:
    """Return the Effect of a successful roll: its tens digit (82 → 8, 05 → 0)."""
    return require_int(roll, gettext_noop("The d100 roll"), minimum=1, maximum=D100 - 1) // 10


def effect_band(value: int) -> str:
    """Return what an Effect means: marginal (0), basic (1–3), special (4–6), exceptional (7+).

    The band is a key (a roll's ``band``), in English, marked for the catalogue: translated where shown.
    """
    value = require_int(value, gettext_noop("The Effect"), minimum=0)
    if value == 0:
        return gettext_noop("marginal success")
    if value <= 3:
        return gettext_noop("basic success")
    if value <= 6:
        return gettext_noop("special success")
    return gettext_noop("exceptional success")


def check_odds(trait: int, difficulty: int = 0, modifier: int = 0) -> SystemOdds:
    """Return the exact odds of a test ("Basic Task Resolution", "Difficulty Modifiers").

    The distribution is the d100 roll (1–100, one in a hundred each); the successes are the
    rolls at or below the target, 100 excepted. The breakdown adds the chance of each
    Effect band. Cached.
    """
    return _odds(RULE_SET.clean({"trait": trait, "difficulty": difficulty, "modifier": modifier}))


def _odds(p: dict) -> SystemOdds:
    return _check_odds(p["trait"], p["difficulty"], p["modifier"], language_key())


@lru_cache(maxsize=ODDS_CACHE_SIZE)
def _check_odds(trait: int, difficulty: int, modifier: int, language: str) -> SystemOdds:
    """The odds, cached per language (``language_key``): they carry words."""
    chance = trait + STEP * difficulty + modifier
    success = frozenset(r for r in range(1, D100 + 1) if r != AUTOMATIC_FAILURE and r <= chance)
    probability = Fraction(len(success), D100)
    bands: dict[str, int] = {}
    for r in sorted(success):
        band = effect_band(effect(r))
        bands[band] = bands.get(band, 0) + 1
    breakdown: Breakdown = ((_("trait"), trait), (_difficulty_label(difficulty), STEP * difficulty),
                            (_("other modifiers"), modifier), (_("target"), chance),
                            (_("chance of success"), probability))
    breakdown += tuple((_("chance of a %(band)s") % {"band": _(band)}, Fraction(count, D100))
                       for band, count in bands.items())
    return SystemOdds(probability, tuple((r, Fraction(1, D100)) for r in range(1, D100 + 1)), success, "d100",
                      breakdown)


def roll_check(trait: int, difficulty: int = 0, modifier: int = 0, rng: random.Random | None = None,
               dice: Sequence[int] | None = None) -> SystemRoll:
    """Roll a test: one d100 (enter "00" as 100) against the target.

    Details: ``target``, ``effect`` and ``band`` (None on a failure), ``automatic_failure``.
    """
    p = RULE_SET.clean({"trait": trait, "difficulty": difficulty, "modifier": modifier})
    return _roll(p, rng, dice)


def _roll(p: dict, rng: random.Random | None, dice: Sequence[int] | None) -> SystemRoll:
    odds = _odds(p)
    chance = p["trait"] + STEP * p["difficulty"] + p["modifier"]
    roller = table_dice(dice, rng)
    roll = roller.randint(1, D100)
    roller.check_all_used()
    success = succeeds(roll, chance)
    value = effect(roll) if success else None
    breakdown: Breakdown = ((_("trait"), p["trait"]), (_difficulty_label(p["difficulty"]), STEP * p["difficulty"]),
                            (_("other modifiers"), p["modifier"]), (_("target"), chance), (_("roll"), roll))
    if roll == AUTOMATIC_FAILURE:
        breakdown += (("00", _("always fails")),)
    if success:
        breakdown += ((_("Effect (tens digit)"), value),)
    return SystemRoll(
        faces=(roll,), kept=(roll,), total=roll, success=success, breakdown=breakdown,
        details=frozen({"outcome": roll, "target": chance, "effect": value,
                        "band": effect_band(value) if success else None,
                        "automatic_failure": roll == AUTOMATIC_FAILURE, "rolls": dice_record(roller)}),
        probability=odds.probability,
    )


def _difficulty_label(difficulty: int) -> str:
    return _("difficulty (%(name)s)") % {"name": _(DIFFICULTY[difficulty])}


# --- Opposed tests ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Opposed:
    """An opposed test: who won (1 first, 2 second, None stalemate) and how.

    ``both_failed`` marks a win between two failures, which the text calls a stalemate or
    delay more often than an outright success.
    """

    winner: int | None
    first_success: bool
    second_success: bool
    first_roll: int
    second_roll: int
    tiebreak: tuple[int, ...] = ()

    @property
    def both_failed(self) -> bool:
        """Whether neither side succeeded."""
        return not (self.first_success or self.second_success)


def resolve_opposed(first_roll: int, first_target: int, second_roll: int, second_target: int) -> Opposed:
    """Decide an opposed test ("Opposed Tests").

    If only one side succeeds it wins; otherwise the higher roll wins; equal rolls are a
    stalemate (``winner`` None).
    """
    first, second = succeeds(first_roll, first_target), succeeds(second_roll, second_target)
    if first != second:
        winner: int | None = 1 if first else 2
    elif first_roll != second_roll:
        winner = 1 if first_roll > second_roll else 2
    else:
        winner = None
    return Opposed(winner, first, second, first_roll, second_roll)


@dataclass(frozen=True)
class OpposedOdds:
    """The exact chances of an opposed test: the first side wins, the second wins, neither."""

    first: Fraction
    second: Fraction
    stalemate: Fraction


def _stalemate(value: object) -> int:
    return RULE_SET.param_named("stalemate").coerce(value)


def _target_bound(value: object, name: str) -> int:
    return Param(name, gettext_noop("The target"), -300, 500).coerce(value)


def opposed_odds(first_target: int, second_target: int, *, stalemate: int = STALEMATE) -> OpposedOdds:
    """Return the exact odds of an opposed test between two targets (from ``target``)."""
    return _opposed_odds(_target_bound(first_target, "first_target"), _target_bound(second_target, "second_target"),
                         _stalemate(stalemate))


@lru_cache(maxsize=ODDS_CACHE_SIZE)
def _opposed_odds(first_target: int, second_target: int, stalemate: int) -> OpposedOdds:
    wins = [0, 0, 0]
    for a in range(1, D100 + 1):
        for b in range(1, D100 + 1):
            winner = resolve_opposed(a, first_target, b, second_target).winner
            wins[0 if winner is None else winner] += 1
    whole = D100 * D100
    first, second, tied = (Fraction(wins[1], whole), Fraction(wins[2], whole), Fraction(wins[0], whole))
    if stalemate == TIEBREAK_DIE:
        return OpposedOdds(first + tied / 2, second + tied / 2, Fraction(0))
    if stalemate == ROLL_AGAIN:
        return OpposedOdds(first / (1 - tied), second / (1 - tied), Fraction(0))
    return OpposedOdds(first, second, tied)


def roll_opposed(first_target: int, second_target: int, *, stalemate: int = STALEMATE,
                 rng: random.Random | None = None, dice: Sequence[int] | None = None) -> Opposed:
    """Roll an opposed test: the first side's d100, then the second's.

    On a stalemate the ``stalemate`` ruling applies: a d10 tie-break (odd: first side), or
    both d100 again until the rolls differ; either way the extra dice follow in order.
    """
    first_target = _target_bound(first_target, "first_target")
    second_target = _target_bound(second_target, "second_target")
    stalemate = _stalemate(stalemate)
    roller = table_dice(dice, rng)
    while True:
        result = resolve_opposed(roller.randint(1, D100), first_target, roller.randint(1, D100), second_target)
        if result.winner is not None or stalemate != ROLL_AGAIN:
            break
    if result.winner is None and stalemate == TIEBREAK_DIE:
        die = roller.randint(1, 10)
        result = Opposed(1 if die % 2 else 2, result.first_success, result.second_success, result.first_roll,
                         result.second_roll, (die,))
    roller.check_all_used()
    return result


# --- Opposed tests with Margin of Success ------------------------------------------------------
@dataclass(frozen=True)
class Contest:
    """An opposed test with Margin of Success: each side's Effect (None on a failure), the
    winner (1, 2 or None) and the winner's net Effect (its Margin of Success)."""

    winner: int | None
    first_effect: int | None
    second_effect: int | None
    net: int


def _effect_tie(value: object) -> int:
    return RULE_SET.param_named("effect_tie").coerce(value)


def resolve_contest(first_roll: int, first_target: int, second_roll: int, second_target: int,
                    first_bonus: int = 0, second_bonus: int = 0, *, effect_tie: int = 0) -> Contest:
    """Decide an opposed test with Margin of Success ("Opposed Tests with Margin of Success").

    Each success scores its tens digit plus its bonuses (equipment, abilities); the higher
    total wins and its Margin of Success is the difference. See the module docstring for
    ties and failures.
    """
    first = effect(first_roll) + require_int(first_bonus, gettext_noop("The first bonus")) \
        if succeeds(first_roll, first_target) else None
    second = effect(second_roll) + require_int(second_bonus, gettext_noop("The second bonus")) \
        if succeeds(second_roll, second_target) else None
    return _contest(first, second, first_roll, second_roll, _effect_tie(effect_tie))


def _contest(first: int | None, second: int | None, first_roll: int, second_roll: int, effect_tie: int) -> Contest:
    if first is None and second is None:
        return Contest(None, None, None, 0)
    if second is None or (first is not None and first > second):
        return Contest(1, first, second, first - (second or 0))  # type: ignore[operator]
    if first is None or second > first:
        return Contest(2, first, second, second - (first or 0))
    if effect_tie and first_roll != second_roll:
        return Contest(1 if first_roll > second_roll else 2, first, second, 0)
    return Contest(None, first, second, 0)


# --- Combat ------------------------------------------------------------------------------------
#: The stances, keys in English (marked for the catalogue: translated where shown).
STANCES = (gettext_noop("normal"), gettext_noop("offensive"), gettext_noop("defensive"), gettext_noop("full offense"),
           gettext_noop("full defense"))
#: "Full Defense": +10 % to defend and two points of extra armour for the round.
FULL_DEFENSE_BONUS, FULL_DEFENSE_ARMOUR = 10, 2


@dataclass(frozen=True)
class Fighter:
    """One side of a combat round: the combat Trait's target, weapon Effect, armour, stance."""

    skill: int
    weapon: int = 0
    armour: int = 0
    stance: str = "normal"

    def __post_init__(self) -> None:
        require_int(self.skill, gettext_noop("The combat target"), minimum=-300, maximum=500)
        require_int(self.weapon, gettext_noop("The weapon's Effect"), minimum=0, maximum=20)
        require_int(self.armour, gettext_noop("The armour rating"), minimum=0, maximum=20)
        if self.stance not in STANCES:
            raise RulesError(_("Unknown stance %(stance)s: use %(stances)s.")
                             % {"stance": repr(self.stance), "stances": ", ".join(STANCES)})

    @property
    def chance(self) -> int:
        """The number rolled under this round (Full Defense adds 10 %)."""
        return self.skill + (FULL_DEFENSE_BONUS if self.stance == "full defense" else 0)

    @property
    def protection(self) -> int:
        """Armour this round (Full Defense adds 2)."""
        return self.armour + (FULL_DEFENSE_ARMOUR if self.stance == "full defense" else 0)


@dataclass(frozen=True)
class CombatRound:
    """One pairing in one round ("Combat"): who hit whom, for how much, and why.

    ``mode`` is a key ("exchange", "full effect", "no attack"), in English, marked for the
    catalogue: translated where shown.
    """

    first_roll: int
    second_roll: int
    first_effect: int | None
    second_effect: int | None
    winner: int | None
    mode: str
    damage_to_first: int
    damage_to_second: int
    breakdown: Breakdown


def _mode(first: Fighter, second: Fighter) -> str:
    stances = {first.stance, second.stance}
    if first.stance == second.stance and first.stance in ("defensive", "full defense"):
        return gettext_noop("no attack")
    if stances == {"offensive"} or ("full offense" in stances and "full defense" not in stances):
        return gettext_noop("full effect")
    return gettext_noop("exchange")


def resolve_combat(first: Fighter, second: Fighter, first_roll: int, second_roll: int, *,
                   effect_tie: int = 0) -> CombatRound:
    """Resolve one combat round between two fighters from their d100 rolls ("Combat").

    An exchange is won on the tens digits; the winner's weapon is then added and the
    loser's Effect and armour taken off (Gareth's 8 + 4 − 4 − 4 = 4). When both fight
    "offensive", or anyone goes "full offense" against someone not in "full defense", each
    success deals its full Effect + weapon − the other's armour. Two "defensive" (or two
    "full defense") fighters only circle; a fighter in "full defense" never deals damage.
    """
    return _resolve_combat(first, second, first_roll, second_roll, _effect_tie(effect_tie), said=True)


def _resolve_combat(first: Fighter, second: Fighter, first_roll: int, second_roll: int, tie: int, *,
                    said: bool) -> CombatRound:
    """The round; its breakdown in words only when ``said`` (the odds resolve every pair of rolls
    and need none)."""
    first_effect = effect(first_roll) if succeeds(first_roll, first.chance) else None
    second_effect = effect(second_roll) if succeeds(second_roll, second.chance) else None
    mode = _mode(first, second)
    lines: Breakdown = ()
    if said:
        lines = ((_("first roll"), first_roll), (_("first target"), first.chance),
                 (_("first Effect"), first_effect), (_("second roll"), second_roll),
                 (_("second target"), second.chance), (_("second Effect"), second_effect),
                 (_("resolved as"), _(mode)))
    to_first = to_second = 0
    winner: int | None = None
    if mode == "full effect":
        if first_effect is not None and first.stance != "full defense":
            to_second = max(0, first_effect + first.weapon - second.protection)
        if second_effect is not None and second.stance != "full defense":
            to_first = max(0, second_effect + second.weapon - first.protection)
        if said:
            lines += ((_("damage to the second (full Effect + weapon − armour)"), to_second),
                      (_("damage to the first (full Effect + weapon − armour)"), to_first))
    elif mode == "exchange":
        contest = _contest(first_effect, second_effect, first_roll, second_roll, tie)
        winner = contest.winner
        if winner is not None:
            attacker, defender = (first, second) if winner == 1 else (second, first)
            if attacker.stance != "full defense":
                net = contest.net + attacker.weapon
                dealt = max(0, net - defender.protection)
                if said:
                    lines += ((_("winner"), winner), (_("net Effect + weapon"), net),
                              (_("armour"), -defender.protection), (_("damage"), dealt))
                if winner == 1:
                    to_second = dealt
                else:
                    to_first = dealt
            elif said:
                lines += ((_("winner"), winner), (_("damage"), _("none: full defense does not attack")))
    return CombatRound(first_roll, second_roll, first_effect, second_effect, winner, mode, to_first, to_second, lines)


def roll_combat(first: Fighter, second: Fighter, *, effect_tie: int = 0, rng: random.Random | None = None,
                dice: Sequence[int] | None = None) -> CombatRound:
    """Roll one combat round: the first fighter's d100, then the second's."""
    roller = table_dice(dice, rng)
    first_roll, second_roll = roller.randint(1, D100), roller.randint(1, D100)
    roller.check_all_used()
    return resolve_combat(first, second, first_roll, second_roll, effect_tie=effect_tie)


@dataclass(frozen=True)
class CombatOdds:
    """Exact chances of a combat round: the damage each fighter takes, as distributions."""

    damage_to_first: tuple[tuple[int, Fraction], ...]
    damage_to_second: tuple[tuple[int, Fraction], ...]
    first_hurt: Fraction
    second_hurt: Fraction


def combat_odds(first: Fighter, second: Fighter, *, effect_tie: int = 0) -> CombatOdds:
    """Return the exact odds of one combat round, by every pair of d100 rolls. Cached."""
    return _combat_odds(first, second, _effect_tie(effect_tie))


@lru_cache(maxsize=ODDS_CACHE_SIZE)
def _combat_odds(first: Fighter, second: Fighter, effect_tie: int) -> CombatOdds:
    to_first: dict[int, int] = {}
    to_second: dict[int, int] = {}
    for a in range(1, D100 + 1):
        for b in range(1, D100 + 1):
            round_ = _resolve_combat(first, second, a, b, effect_tie, said=False)
            to_first[round_.damage_to_first] = to_first.get(round_.damage_to_first, 0) + 1
            to_second[round_.damage_to_second] = to_second.get(round_.damage_to_second, 0) + 1
    whole = D100 * D100
    first_dist = tuple((d, Fraction(w, whole)) for d, w in sorted(to_first.items()))
    second_dist = tuple((d, Fraction(w, whole)) for d, w in sorted(to_second.items()))
    return CombatOdds(first_dist, second_dist, sum((p for d, p in first_dist if d), Fraction(0)),
                      sum((p for d, p in second_dist if d), Fraction(0)))


def bonus_levels(score: int) -> int:
    """Return the levels above Average (50 %) of a Trait: Strength's bonus Effect pool per fight,
    or Toughness's armour under "Wounds Only" (Good, 70 %, gives 2)."""
    return max(0, require_int(score, gettext_noop("The Trait"), minimum=0, maximum=TRAIT_MAX) - 50) // 10


# --- Wounds and Fatigue ----------------------------------------------------------------------
@dataclass(frozen=True)
class Wound:
    """A wound level ("Wounds"): the damage that inflicts it, its penalty and its bleeding.

    ``name`` is a key, in English, marked for the catalogue: translated where shown.
    """

    name: str
    damage: int
    penalty: int
    bleed_per_minute: int = 0
    bleed_per_turn: int = 0
    fatal: bool = False


WOUNDS = (
    Wound(gettext_noop("basic"), 3, -10),
    Wound(gettext_noop("serious"), 5, -20, bleed_per_minute=1),
    Wound(gettext_noop("extreme"), 7, -30, bleed_per_turn=1),
    Wound(gettext_noop("splat"), 9, 0, fatal=True),
)
WOUNDS_BY_NAME = {wound.name: wound for wound in WOUNDS}


def wound_for(damage: int) -> Wound | None:
    """Return the wound one hit of ``damage`` inflicts (3 basic, 5 serious, 7 extreme, 9 splat)."""
    damage = require_int(damage, gettext_noop("The damage"), minimum=0)
    found = None
    for wound in WOUNDS:
        if damage >= wound.damage:
            found = wound
    return found


def wounds_only_wound(net_effect: int) -> Wound | None:
    """Return the wound under "Wounds Only": net Effect 1 basic, 4 serious, 7 extreme, 9 kills."""
    net = require_int(net_effect, gettext_noop("The net Effect"), minimum=0)
    if net >= 9:
        return WOUNDS_BY_NAME["splat"]
    if net >= 7:
        return WOUNDS_BY_NAME["extreme"]
    if net >= 4:
        return WOUNDS_BY_NAME["serious"]
    return WOUNDS_BY_NAME["basic"] if net >= 1 else None


def fatigue_points(toughness: int) -> int:
    """Return a character's Fatigue: one per full 5 % of Toughness (76 % gives 15)."""
    return require_int(toughness, gettext_noop("Toughness"), minimum=0, maximum=TRAIT_MAX) // 5


def toughness_check_target(toughness: int, wound: Wound) -> int:
    """Return the target of the Toughness check after a wound: Toughness + that wound's penalty."""
    return require_int(toughness, gettext_noop("Toughness"), minimum=0, maximum=TRAIT_MAX) + wound.penalty


def wound_penalty(wounds: Sequence[Wound]) -> int:
    """Return the penalty to every action: only the worst wound counts."""
    return min((wound.penalty for wound in wounds), default=0)


def bleeding(wounds: Sequence[Wound]) -> tuple[int, int]:
    """Return the Fatigue lost to bleeding as (per turn, per minute): every wound adds up."""
    return sum(w.bleed_per_turn for w in wounds), sum(w.bleed_per_minute for w in wounds)


def fatigue_state(fatigue: int, toughness: int) -> str:
    """Return "fighting", "unconscious" (0 Fatigue or less) or "dead" (at −Toughness or less): a key,
    in English, marked for the catalogue and translated where shown."""
    fatigue = require_int(fatigue, gettext_noop("Fatigue"))
    toughness = require_int(toughness, gettext_noop("Toughness"), minimum=0, maximum=TRAIT_MAX)
    if fatigue <= -toughness:
        return gettext_noop("dead")
    return gettext_noop("unconscious") if fatigue <= 0 else gettext_noop("fighting")


@dataclass(frozen=True)
class Hurt:
    """What one hit does ("Damage"): the wound, the Fatigue left, and the check to stay up."""

    damage: int
    wound: Wound | None
    fatigue: int
    toughness_check: int | None
    state: str


def take_damage(damage: int, fatigue: int, toughness: int, *, less_lethal: bool = False) -> Hurt:
    """Apply one hit of ``damage``: each point costs a Fatigue, and enough of it wounds.

    A wound calls for a Toughness check at that wound's penalty. A less-lethal weapon never
    kills outright and causes no bleeding, so its worst wound is an extreme one without
    bleeding.
    """
    damage = require_int(damage, gettext_noop("The damage"), minimum=0)
    wound = wound_for(damage)
    if less_lethal and wound is not None:
        base = WOUNDS_BY_NAME["extreme"] if wound.fatal else wound
        wound = Wound(base.name, base.damage, base.penalty)
    left = require_int(fatigue, gettext_noop("Fatigue")) - damage
    if wound is not None and wound.fatal:
        return Hurt(damage, wound, left, None, "dead")
    check = toughness_check_target(toughness, wound) if wound is not None else None
    return Hurt(damage, wound, left, check, fatigue_state(left, toughness))


def fatigue_recovered(sleep_minutes: int = 0, rest_minutes: int = 0, *, physician: bool = False) -> int:
    """Return Fatigue regained once the bleeding is stopped ("First Aid and Healing").

    One per half hour of sleep, one per hour of restful activity, doubled under a physician.
    """
    sleep = require_int(sleep_minutes, gettext_noop("Minutes of sleep"), minimum=0)
    rest = require_int(rest_minutes, gettext_noop("Minutes of rest"), minimum=0)
    return (sleep // 30 + rest // 60) * (2 if physician else 1)


def heal_wound(wound: Wound) -> Wound | None:
    """Return the wound one level lighter, as a week of healing leaves it (None once healed)."""
    if wound.fatal:
        raise RulesError(_("A fatal wound does not heal."))
    index = [w.name for w in WOUNDS].index(wound.name)
    return WOUNDS[index - 1] if index else None


RULE_SET = RuleSet(
    key="rocket_house",
    name=gettext_noop("Tales from the Rocket House"),
    params=(
        Param("trait", gettext_noop("Trait"), 0, TRAIT_MAX,
              help=gettext_noop("The Trait in percent (50 average, 90 outstanding).")),
        Param("difficulty", gettext_noop("Difficulty"), -3, 3, default=0, choices=(-3, -2, -1, 0, 1, 2, 3),
              help=gettext_noop("Steps of 10 %: −3 hardest … +3 easiest.")),
        Param("modifier", gettext_noop("Other modifiers"), -100, 100, default=0,
              help=gettext_noop("In percent: wound penalty, range, Full Defense …")),
    ),
    rulings=(
        Param("stalemate", gettext_noop("Equal rolls in an opposed test"), 0, 2, default=STALEMATE,
              choices=(STALEMATE, TIEBREAK_DIE, ROLL_AGAIN),
              help=gettext_noop("0: stalemate; 1: a tie-break die, odd for the acting side; 2: both roll again.")),
        Param("effect_tie", gettext_noop("Equal Effect in a contest"), 0, 1, default=0, choices=(0, 1),
              help=gettext_noop("0: stalemate; 1: the higher roll wins with a net Effect of 0.")),
        Param("damage_mode", gettext_noop("How damage lands"), 0, 2, default=WOUNDS_AND_FATIGUE,
              choices=(WOUNDS_AND_FATIGUE, WOUNDS_ONLY, FATIGUE_ONLY),
              help=gettext_noop("0: wounds and Fatigue; 1: wounds only (deadlier, faster); 2: Fatigue only (slower, "
                                "less deadly).")),
    ),
    summary=gettext_noop("d100 at or under the Trait; the tens digit of a success is its Effect."),
    odds_function=_odds,
    roll_function=_roll,
)
