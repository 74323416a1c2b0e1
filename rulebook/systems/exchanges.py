"""Blows at the table in the other rule sets: one attack or one combat round, from the inputs and
the dice to what it leaves on each side's condition.

A *condition* is what a fight changes on a sheet, kept apart from the numbers a player writes:

- ZeroSpace: ``{"endurance": n}``; a hit costs Endurance by its margin (001, "Konsequenzen"),
  and at 0 the character is defeated. More than half of it lost gives a penalty die.
- Success Check: ``{"damage": n, "burned": n}``: the damage that got through the armour
  (002, "Variable damage rolls", "Armor system"). The text leaves the track of wounds to chapters
  it does not give; the tracker reads a character as down once the damage reaches the sheet's
  Health (a ruling, docs/rules.md), where only an Edge Burn keeps them from dying.
- Rocket House: ``{"fatigue": n, "wounds": [...], "unconscious": bool, "dead": bool}``
  (003, "Damage", "Wounds", "Fatigue"): every point of damage costs a Fatigue, one hit of 3, 5, 7
  or 9 wounds, a wound calls for a Toughness check at its penalty, 0 Fatigue is out cold and
  −Toughness dead.
- Core Rules ch. V has no damage: its condition is empty.

Everything here is pure: the tracker (``combat/system_exchanges.py``) locks, stores and tells.
Dice come in the order each function's docstring gives, typed at the table or rolled by ``rng``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from rulebook import RulesError
from rulebook._numbers import require_int
from rulebook.words import gettext as _
from rulebook.words import Said, gettext_noop, listed, said

from . import core_rules, rocket_house, success_check, zerospace
from .base import Breakdown, SystemRoll, dice_record, table_dice

#: The systems whose fights have blows (Core Rules ch. V gives turns and reactions, no damage).
BLOW_SYSTEMS = ("zerospace", "success_check", "rocket_house", "core_rules")


# --- Conditions -----------------------------------------------------------------------------------
def fresh_condition(system: str, numbers: Mapping[str, int]) -> dict:
    """Return the condition of an unhurt character of ``system`` with these sheet numbers."""
    if system == "zerospace":
        return {"endurance": zerospace.base_endurance(numbers.get("brawn", 0), numbers.get("presence", 0))}
    if system == "success_check":
        return {"damage": 0, "burned": 0}
    if system == "rocket_house":
        return {"fatigue": rocket_house.fatigue_points(numbers.get("toughness", 50)), "wounds": [],
                "unconscious": False, "dead": False}
    return {}


def condition_of(system: str, condition: Mapping | None, numbers: Mapping[str, int]) -> dict:
    """Return the stored condition completed with the fresh values for anything it lacks."""
    return {**fresh_condition(system, numbers), **(condition or {})}


def standing(system: str, condition: Mapping, numbers: Mapping[str, int], *, damage_mode: int = 0) -> dict:
    """What the sheet and the tracker show of a condition: its lines, its state and its penalty.

    ``damage_mode`` is Rocket House's ruling (wounds and Fatigue, wounds only, Fatigue only). The
    state and each line's label are keys, in English, marked for the catalogue and translated where
    shown; a line's value and the penalty are in the reader's language.
    """
    condition = condition_of(system, condition, numbers)
    if system == "zerospace":
        base = zerospace.base_endurance(numbers.get("brawn", 0), numbers.get("presence", 0))
        current = min(condition["endurance"], base)
        penalty = zerospace.endurance_penalty_dice(base, current)
        state = gettext_noop("defeated") if current == 0 and base else gettext_noop("fighting")
        return {"lines": [(gettext_noop("Endurance"), _of(current, base))], "state": state,
                "penalty": _("a penalty die on every action but talk") if penalty else ""}
    if system == "success_check":
        health = numbers.get("health", 30)
        state = gettext_noop("down") if condition["damage"] >= health else gettext_noop("fighting")
        if state == "down" and condition["burned"]:
            state = gettext_noop("saved by an Edge Burn")
        return {"lines": [(gettext_noop("Damage taken"), _of(condition["damage"], health))], "state": state,
                "penalty": ""}
    if system == "rocket_house":
        return _rocket_house_standing(condition, numbers, damage_mode)
    return {"lines": [], "state": gettext_noop("fighting"), "penalty": ""}


def _of(current: int, full: int) -> str:
    return _("%(current)s of %(full)s") % {"current": current, "full": full}


def _wounds(names: list[str]) -> str:
    """Wounds by name ("basic, serious"), in the reader's language; "none" for none."""
    return ", ".join(_(name) for name in names) or _("none")


#: "Wounds Only": a serious wound knocks out in 10 minutes and kills in 15, an extreme one in 1 and 5
#: (marked for the catalogue: translated where shown).
WOUNDS_ONLY_BLEEDING = {"serious": gettext_noop("out cold in 10 minutes, dead in 15"),
                        "extreme": gettext_noop("out cold in 1 minute, dead in 5")}


def _rocket_house_standing(condition: dict, numbers: Mapping[str, int], mode: int) -> dict:
    wounds = [rocket_house.WOUNDS_BY_NAME[name] for name in condition["wounds"]]
    penalty = rocket_house.wound_penalty(wounds)
    toughness = numbers.get("toughness", 50)
    full = rocket_house.fatigue_points(toughness)
    lines: list[tuple[str, str]] = []
    if mode != rocket_house.WOUNDS_ONLY:
        lines.append((gettext_noop("Fatigue"), _of(condition["fatigue"], full)))
    if mode != rocket_house.FATIGUE_ONLY:
        lines.append((gettext_noop("Wounds"), _wounds(condition["wounds"])))
    if mode == rocket_house.WOUNDS_ONLY:
        worst = max((w for w in wounds if w.name in WOUNDS_ONLY_BLEEDING), key=lambda w: w.damage, default=None)
        bleed = (_("%(bleeding)s without first aid") % {"bleeding": _(WOUNDS_ONLY_BLEEDING[worst.name])}
                 if worst else "")
    elif mode == rocket_house.FATIGUE_ONLY:
        dying = condition["fatigue"] <= 0 < toughness + condition["fatigue"]
        bleed = _("1 Fatigue a minute until first aid") if dying else ""
    else:
        per_turn, per_minute = rocket_house.bleeding(wounds)
        bleed = ", ".join(part for part in (_("%(fatigue)s a turn") % {"fatigue": per_turn} if per_turn else "",
                                            _("%(fatigue)s a minute") % {"fatigue": per_minute} if per_minute else "")
                          if part)
    if bleed and condition.get("bandaged"):
        bleed = _("stopped by first aid")
    lines.append((gettext_noop("Bleeding"), bleed or _("none")))
    if condition["dead"]:
        state = gettext_noop("dead")
    elif mode == rocket_house.WOUNDS_ONLY:
        state = gettext_noop("unconscious") if condition["unconscious"] else gettext_noop("fighting")
    else:
        state = rocket_house.fatigue_state(condition["fatigue"], toughness)
        if state == "fighting" and condition["unconscious"]:
            state = gettext_noop("unconscious")
    return {"lines": lines, "state": state,
            "penalty": _("%(penalty)s%% to every action") % {"penalty": penalty} if penalty else ""}


@dataclass(frozen=True)
class Blow:
    """One attack or combat round resolved: what each side is left with and how it came about.

    ``conditions`` maps a side (``"first"``, ``"second"``) to its new condition, for the sides
    it changed; ``spent`` the points each side used of each resource (``"first.edge"``,
    ``"second.strength_effect"``…). ``summary`` and ``public`` are Saids, kept in the fight's log
    and told in each reader's language; the breakdown is in the striker's language.
    """

    summary: Said
    breakdown: Breakdown
    dice: tuple
    conditions: Mapping[str, dict]
    spent: Mapping[str, int]
    probability: Fraction
    #: What players read of a blow an NPC took part in, without the NPC's numbers ("" : the summary).
    public: Said | None = None


def _faces(value: object, label: str) -> tuple[int, ...] | None:
    if value is None:
        return None
    if not isinstance(value, (list, tuple)) or len(value) > 40 or any(
            isinstance(face, bool) or not isinstance(face, int) for face in value):
        raise RulesError(_("%(label)s: give the faces as a list of whole numbers.") % {"label": _(label)})
    return tuple(value)


# --- ZeroSpace: 2d6 + AV against 2d6 + DV, a hit costs Endurance -----------------------------------
def tired_dice(condition: Mapping | None, numbers: Mapping[str, int]) -> int:
    """ZeroSpace: −1 (a penalty die) once more than half the Endurance is lost, else 0."""
    condition = condition_of("zerospace", condition, numbers)
    base = zerospace.base_endurance(numbers.get("brawn", 0), numbers.get("presence", 0))
    return zerospace.endurance_penalty_dice(base, min(condition["endurance"], base)) if base else 0


def zerospace_attack(*, av: int, dv: int, bonus_dice: int = 0, defense_dice: int = 0, attacker: Mapping,
                     target: Mapping, attacker_numbers: Mapping, target_numbers: Mapping, plot_point: int = 0,
                     margin_of_success: int = 0, bonus_dice_mode: int = zerospace.ADD_DICE,
                     rng: random.Random | None = None, dice: Sequence[int] | None = None) -> Blow:
    """An attack: the attacker's dice (with a penalty die when more than half their Endurance is
    gone, a bonus die for a plot point spent), then the defender's; a hit costs the target 1
    Endurance, plus margin ÷ 3 under the margin-of-success rule. Dice order as
    ``zerospace.roll_check``."""
    target = condition_of("zerospace", target, target_numbers)
    tired = tired_dice(attacker, attacker_numbers)
    point = 1 if require_int(plot_point, gettext_noop("Plot point"), minimum=0, maximum=1) else 0
    bonus = require_int(bonus_dice, gettext_noop("Bonus dice"), minimum=-5, maximum=5) + tired + point
    roll = zerospace.roll_opposed(av, dv, bonus, defense_dice, bonus_dice_mode=bonus_dice_mode,
                                  margin_of_success=margin_of_success, rng=rng, dice=_faces(dice, gettext_noop("Dice")))
    lost = roll.details["endurance_damage"]
    breakdown = roll.breakdown + (((_("attacker's penalty die (Endurance below half)"), tired),) if tired else ())
    breakdown += ((_("a plot point's bonus die"), 1),) if point else ()
    left = zerospace.lose_endurance(target["endurance"], lost)
    breakdown += ((_("Endurance lost"), lost), (_("target's Endurance"), left))
    if not roll.success:
        summary = said("misses (margin %(margin)s)", margin=roll.details["margin"])
    elif left == 0:
        summary = said("hits for %(lost)s Endurance (%(left)s left, defeated)", lost=lost, left=left)
    else:
        summary = said("hits for %(lost)s Endurance (%(left)s left)", lost=lost, left=left)
    # A new loss: the half-hour's half may come back once more after this conflict.
    hurt = {**{k: v for k, v in target.items() if k != HALF_BACK}, "endurance": left}
    public = (said("hits, defeated") if left == 0 else said("hits")) if roll.success else said("misses")
    return Blow(summary, breakdown, roll.details["rolls"], {"second": hurt} if lost else {},
                {"first.plot_points": point}, roll.probability, public)


# --- Core Rules: a declared action, rolled as the system's check -------------------------------------
def core_rules_action(*, ks: int, us: int, es: int, threshold: int = core_rules.AVERAGE_THRESHOLD, other: int = 0,
                      es_dice: int = core_rules.PAIRS, rng: random.Random | None = None,
                      dice: Sequence[int] | None = None) -> Blow:
    """A declared action rolled as the chapter's check (V.7, V.8): KS + US + the ES adjustment +
    other adjustments, which must beat the threshold. The chapter gives no damage track, so the
    action changes neither side: what it did is the GM's to say (RULINGS §8)."""
    roll = core_rules.roll_check(ks, us, es, threshold, other, es_dice=es_dice, rng=rng, dice=dice)
    arc, needed = roll.total, roll.details["threshold"]
    summary = (said("succeeds: ARC %(arc)s beats %(needed)s", arc=arc, needed=needed) if roll.success else
               said("fails: ARC %(arc)s does not beat %(needed)s", arc=arc, needed=needed))
    return Blow(summary, roll.breakdown, roll.details["rolls"], {}, {}, roll.probability)


# --- Success Check: 2d10 + skill against the TN, then damage through PT/DR ---------------------------
def success_check_attack(*, bonus: int, tn: int, weapon_dice: int, modifier: int, pt: int = 0, dr: int = 0,
                         advantage: int = 0, edge_advantage: int = 0, edge_damage: int = 0, drop: int = 0,
                         advantage_drop: int = 0, target: Mapping, target_numbers: Mapping,
                         rng: random.Random | None = None, check_dice: Sequence[int] | None = None,
                         damage_dice: Sequence[int] | None = None) -> Blow:
    """An attack: the check (2 or 3 d10, ``check_dice``), and on a hit the damage (the weapon's
    d6, the band's extra d6 and one more for a point of Edge, ``damage_dice``) through the
    target's armour. Edge for Advantage is spent on the roll; Edge for damage only on a hit."""
    target = condition_of("success_check", target, target_numbers)
    check = success_check.roll_check(bonus, tn, advantage, edge_advantage, drop, advantage_drop=advantage_drop,
                                     rng=rng, dice=_faces(check_dice, gettext_noop("The check's dice")))
    spent = 1 if edge_advantage else 0
    breakdown = check.breakdown
    dice = check.details["rolls"]
    if not check.success:
        if damage_dice:
            raise RulesError(_("The attack missed: there is no damage to roll."))
        return Blow(said("misses (margin %(margin)s)", margin=check.details["margin"]), breakdown, dice, {}, {"first.edge": spent},
                    check.probability)
    extra = success_check.attack_extra_dice(check.details["margin_of_success"], 1 if edge_damage else 0)
    damage = success_check.roll_damage(weapon_dice, modifier, pt, dr, extra, rng=rng,
                                       dice=_faces(damage_dice, gettext_noop("The damage dice")))
    spent += 1 if edge_damage else 0
    taken = damage.details["taken"]
    total = target["damage"] + taken
    health = target_numbers.get("health", 30)
    breakdown += (((_("extra d6"), extra),) + damage.breakdown + ((_("damage taken in all"), _of(total, health)),))
    through = (said("%(taken)s gets through", taken=taken) if damage.details["penetrated"]
               else said("the armour stops it"))
    summary = said("hits for %(damage)s: %(through)s", damage=damage.total, through=through)
    if total >= health > target["damage"]:
        summary += said(" and the target is down")
    return Blow(summary, breakdown, dice + damage.details["rolls"],
                {"second": {**target, "damage": total}} if taken else {}, {"first.edge": spent}, check.probability)


# --- Rocket House: one opposed combat round, Fatigue and wounds -------------------------------------
#: A Rocket House wound as the fight's log names it.
WOUND_TOLD = {"basic": said("a basic wound"), "serious": said("a serious wound"), "extreme": said("an extreme wound"),
              "splat": said("a splat wound")}


def _hurt(condition: dict, damage: int, toughness: int, less_lethal: bool, roller, mode: int
          ) -> tuple[dict, Breakdown, Said]:
    """Land one hit (003, "Damage"; "Optional Combat Approaches" by ``mode``): the new condition, the
    breakdown's lines (in the striker's language) and what the fight's log says (a Said)."""
    if mode == rocket_house.FATIGUE_ONLY:  # no wounds, no Toughness check; 0 is out cold, −Toughness dead
        left = condition["fatigue"] - damage
        state = rocket_house.fatigue_state(left, toughness)
        condition = {**condition, "fatigue": left, "unconscious": state != "fighting", "dead": state == "dead"}
        told = {"fighting": said("%(damage)s Fatigue", damage=damage),
                "unconscious": said("%(damage)s Fatigue: out cold, bleeding 1 a minute", damage=damage),
                "dead": said("%(damage)s Fatigue: dead", damage=damage)}[state]
        return condition, ((_("Fatigue left"), left), (_("state"), _(state))), told
    if mode == rocket_house.WOUNDS_ONLY:  # the net Effect's band is the wound; Fatigue is not counted
        wound = rocket_house.wounds_only_wound(damage)
        if less_lethal and wound is not None and wound.fatal:
            wound = rocket_house.WOUNDS_BY_NAME["extreme"]
        hurt = rocket_house.Hurt(damage, wound, condition["fatigue"], None if wound is None or wound.fatal else
                                 rocket_house.toughness_check_target(toughness, wound),
                                 "dead" if wound is not None and wound.fatal else "fighting")
    else:
        hurt = rocket_house.take_damage(damage, condition["fatigue"], toughness, less_lethal=less_lethal)
    condition = {**condition, "fatigue": hurt.fatigue}
    lines: Breakdown = ((_("Fatigue left"), hurt.fatigue),) if mode != rocket_house.WOUNDS_ONLY else ()
    told = [said("%(damage)s damage", damage=damage)]
    if hurt.wound is not None:
        condition["wounds"] = [*condition["wounds"], hurt.wound.name]
        condition.pop("bandaged", None)  # a new wound bleeds until it is seen to
        lines += ((_("wound"), _(hurt.wound.name)),)
        told.append(WOUND_TOLD[hurt.wound.name])
    if hurt.state == "dead":
        condition["dead"] = True
        return condition, lines + ((_("state"), _("dead")),), listed(told) + said(": dead")
    if hurt.toughness_check is not None:
        face = roller.randint(1, rocket_house.D100)
        stays = rocket_house.succeeds(face, hurt.toughness_check)
        lines += ((_("Toughness check (Toughness + the wound's penalty)"), hurt.toughness_check), (_("rolled"), face),
                  (_("stays conscious"), _("yes") if stays else _("no")))
        told.append(said("Toughness check made") if stays else said("Toughness check failed: out cold"))
        if not stays:
            condition["unconscious"] = True
    knocked_out = hurt.toughness_check is not None and not stays
    if hurt.state == "unconscious":
        if not knocked_out:  # said once: the failed check has told it already
            told.append(said("out of Fatigue"))
        condition["unconscious"] = True
    return condition, lines, listed(told)


def _strikes(fighter: rocket_house.Fighter, round_: rocket_house.CombatRound, side: int) -> bool:
    """Whether ``side`` hit this round (the Strength Effect pool is spent only on a hit in melee)."""
    if fighter.stance == "full defense":
        return False
    if round_.mode == "full effect":
        return (round_.first_effect if side == 1 else round_.second_effect) is not None
    return round_.mode == "exchange" and round_.winner == side


#: The two sides of a round as a breakdown names them (marked for the catalogue: translated where shown).
SIDE_NAMES = {"first": gettext_noop("first"), "second": gettext_noop("second")}


def rocket_house_round(*, first: rocket_house.Fighter, second: rocket_house.Fighter, first_condition: Mapping,
                       second_condition: Mapping, first_numbers: Mapping, second_numbers: Mapping,
                       first_strength: int = 0, second_strength: int = 0, less_lethal: bool = False,
                       first_toughness: int = 0, second_toughness: int = 0, damage_mode: int = 0,
                       effect_tie: int = 0, rng: random.Random | None = None,
                       dice: Sequence[int] | None = None, names: tuple[str, str] = ("the first", "the second")) -> Blow:
    """One combat round between two fighters (003, "Combat"); ``names`` name them in the summary.

    Dice order: the first's d100, the second's d100, then a Toughness check (d100) for each side
    the round wounds, the first's before the second's. ``*_strength`` are points of the Strength
    Effect pool added to that side's damage after armour, spent only when that side hits.
    ``damage_mode`` is the campaign's ruling ("Optional Combat Approaches"); under "Wounds
    Only", ``*_toughness`` are points of that side's Toughness armour, taken off the damage it
    takes and spent only when it takes some.
    """
    damage_mode = require_int(damage_mode, gettext_noop("The damage mode"), minimum=0, maximum=2)
    first_condition = condition_of("rocket_house", first_condition, first_numbers)
    second_condition = condition_of("rocket_house", second_condition, second_numbers)
    for side, condition in (("first", first_condition), ("second", second_condition)):
        if condition["dead"] or condition["unconscious"] or (
                damage_mode != rocket_house.WOUNDS_ONLY and condition["fatigue"] <= 0):
            raise RulesError(_("The first fighter is out of the fight.") if side == "first"
                             else _("The second fighter is out of the fight."))
    if (first_toughness or second_toughness) and damage_mode != rocket_house.WOUNDS_ONLY:
        raise RulesError(_("Toughness is armour only under the Wounds Only rule."))
    roller = table_dice(_faces(dice, gettext_noop("Dice")), rng)
    round_ = rocket_house.resolve_combat(first, second, roller.randint(1, rocket_house.D100),
                                         roller.randint(1, rocket_house.D100), effect_tie=effect_tie)
    odds = rocket_house.combat_odds(first, second, effect_tie=effect_tie)
    breakdown, told, conditions, spent = round_.breakdown, [], {}, {}
    damage = {"first": round_.damage_to_first, "second": round_.damage_to_second}
    for side, fighter, strength, number in (("first", first, first_strength, 1),
                                            ("second", second, second_strength, 2)):
        strength = require_int(strength, gettext_noop("Strength Effect"), minimum=0, maximum=20)
        if strength and _strikes(fighter, round_, number):
            other = "second" if side == "first" else "first"
            damage[other] += strength
            spent[f"{side}.strength_effect"] = strength
            breakdown += ((_("first's Strength Effect") if side == "first" else _("second's Strength Effect"),
                           strength),)
    for side, condition, numbers, armour in (("first", first_condition, first_numbers, first_toughness),
                                             ("second", second_condition, second_numbers, second_toughness)):
        armour = min(require_int(armour, gettext_noop("Toughness armour"), minimum=0, maximum=20), damage[side])
        if armour:
            damage[side] -= armour
            spent[f"{side}.toughness_armour"] = armour
            breakdown += ((_("first's Toughness armour") if side == "first" else _("second's Toughness armour"),
                           -armour),)
        if damage[side]:
            conditions[side], lines, text = _hurt(condition, damage[side], numbers.get("toughness", 50),
                                                  less_lethal, roller, damage_mode)
            said_side = _(SIDE_NAMES[side])
            breakdown += tuple((f"{said_side}: {label}", value) for label, value in lines)
            told.append(said("%(name)s takes %(hurt)s", name=names[0] if side == "first" else names[1], hurt=text))
    roller.check_all_used()
    if not told:
        told.append(said("they circle") if round_.mode == "no attack" else said("no damage"))
    summary = said("%(first)s against %(second)s: %(told)s", first=round_.first_roll, second=round_.second_roll,
                   told=listed(told, separator="; "))
    return Blow(summary, breakdown, dice_record(roller), conditions, spent, odds.second_hurt)


# --- Rocket House: bleeding and first aid ------------------------------------------------------------
#: A combat round (a "turn" of bleeding) lasts about three seconds (003, "Combat").
ROUND_SECONDS = 3
#: "Wounds Only": seconds of bleeding until out cold and until dead, by the worst such wound.
WOUNDS_ONLY_CLOCK = {"serious": (600, 900), "extreme": (60, 300)}


#: Nothing to tell.
NOTHING = listed([])


def bleed(condition: Mapping | None, numbers: Mapping[str, int], *, seconds: int = ROUND_SECONDS,
          damage_mode: int = 0) -> tuple[dict, str]:
    """Let ``seconds`` of a fight pass for a Rocket House fighter whose bleeding nobody stopped.

    Wounds and Fatigue: every wound's bleeding adds up, per turn (a round) and per minute
    (003, "Wounds"); 0 Fatigue is out cold and −Toughness dead. Fatigue Only: one who is down
    bleeds a Fatigue a minute. Wounds Only: the worst bleeding wound knocks out and kills on its
    clock. Returns the condition and what happened (a Said; empty for nothing).
    """
    condition = condition_of("rocket_house", condition, numbers)
    if condition["dead"] or condition.get("bandaged"):
        return condition, NOTHING
    toughness = numbers.get("toughness", 50)
    wounds = [rocket_house.WOUNDS_BY_NAME[name] for name in condition["wounds"]]
    before = condition.get("bled_seconds", 0)
    after = before + require_int(seconds, gettext_noop("Seconds"), minimum=0)
    if damage_mode == rocket_house.WOUNDS_ONLY:
        worst = max((w for w in wounds if w.name in WOUNDS_ONLY_CLOCK), key=lambda w: w.damage, default=None)
        if worst is None:
            return condition, NOTHING
        out_at, dead_at = WOUNDS_ONLY_CLOCK[worst.name]
        condition = {**condition, "bled_seconds": after}
        if after >= dead_at:
            return {**condition, "dead": True}, said("bleeds to death")
        if after >= out_at and not condition["unconscious"]:
            return {**condition, "unconscious": True}, said("passes out from the bleeding")
        return condition, NOTHING
    if damage_mode == rocket_house.FATIGUE_ONLY:
        per_turn, per_minute = (0, 1) if condition["fatigue"] <= 0 else (0, 0)
    else:
        per_turn, per_minute = rocket_house.bleeding(wounds)
    if not per_turn and not per_minute:
        return condition, NOTHING
    loss = per_turn * (seconds // ROUND_SECONDS) + per_minute * (after // 60 - before // 60)
    condition = {**condition, "bled_seconds": after}
    if not loss:
        return condition, NOTHING
    left = condition["fatigue"] - loss
    state = rocket_house.fatigue_state(left, toughness)
    condition = {**condition, "fatigue": left, "unconscious": condition["unconscious"] or state != "fighting",
                 "dead": state == "dead"}
    told = {"fighting": said("bleeds %(loss)s Fatigue", loss=loss),
            "unconscious": said("bleeds %(loss)s Fatigue and passes out", loss=loss),
            "dead": said("bleeds %(loss)s Fatigue to death", loss=loss)}[state]
    return condition, told


def first_aid(condition: Mapping | None, numbers: Mapping[str, int], *, skill: int, damage_mode: int = 0,
              rng: random.Random | None = None, dice: Sequence[int] | None = None) -> tuple[dict, SystemRoll]:
    """Stop a fighter's bleeding: a d100 at or under the helper's First Aid, less the worst wound's
    penalty (003, "First Aid and Healing"; none under Fatigue Only)."""
    condition = condition_of("rocket_house", condition, numbers)
    wounds = [rocket_house.WOUNDS_BY_NAME[name] for name in condition["wounds"]]
    penalty = 0 if damage_mode == rocket_house.FATIGUE_ONLY else rocket_house.wound_penalty(wounds)
    skill = require_int(skill, gettext_noop("First Aid"), minimum=0, maximum=rocket_house.TRAIT_MAX)
    roll = rocket_house.roll_check(skill, modifier=penalty, rng=rng, dice=_faces(dice, gettext_noop("Dice")))
    if roll.success:
        condition = {**condition, "bandaged": True}
    return condition, roll


# --- Between sessions --------------------------------------------------------------------------------
#: Of each day of downtime, the hours slept (the rest is restful activity): a ruling, docs/rules.md.
SLEEP_HOURS_A_DAY = 8
#: Rocket House: a wound heals one level a week (003, "First Aid and Healing").
WOUND_LEVEL_HOURS = 24 * 7
#: Success Check: a rest this long is a long rest (all Edge back); shorter, a short one (+1).
LONG_REST_HOURS = 8


@dataclass(frozen=True)
class Recovery:
    """What a downtime does to one sheet: its new condition and resources, and what it says (in the
    reader's language)."""

    condition: dict
    pools: dict
    lines: tuple[str, ...]


#: ZeroSpace: the condition's mark that the half-hour's half has come back since the last loss.
HALF_BACK = "half_back"


def rally(condition: Mapping | None, numbers: Mapping[str, int]) -> dict:
    """ZeroSpace's rally, a plot point spent: half the Endurance lost comes back at once, rounded
    down, "as though they'd had a half-hour's worth of rest" (001, "Endurance"): that rest's half
    is then spent, and resting gives no more until a night's sleep (RULINGS §8)."""
    condition = condition_of("zerospace", condition, numbers)
    if condition.get(HALF_BACK):  # the half-hour's half comes once a conflict: a rally is that half
        raise RulesError(_("The half-hour's half of the lost Endurance is back already: only a night's sleep "
                           "gives more (or a new loss, a new half)."))
    base = zerospace.base_endurance(numbers.get("brawn", 0), numbers.get("presence", 0))
    return {**condition, "endurance": zerospace.rest_endurance(base, min(condition["endurance"], base)),
            HALF_BACK: True}


def recover(system: str, condition: Mapping | None, pools: Mapping[str, int], numbers: Mapping[str, int],
            hours: int, *, rest: str = "comfortable") -> Recovery:
    """Rest ``hours`` between sessions (the bleeding stopped, as first aid between fights does);
    ``rest`` is the downtime's kind (rulebook.recovery.REST_KINDS): comfortable or rough rest
    has a night's sleep in it when long enough, "awake" rests without sleep, "none" is no rest.

    - ZeroSpace (001, "Endurance"; RULINGS §8): about half an hour of rest gives back half the
      Endurance lost, rounded down, once since the last loss (a rally counts as it); more comes
      back only from a night's sleep (``SLEEP_HOURS_A_DAY`` hours or more, asleep), which
      restores all of it.
    - Success Check: a rest of 8 hours or more is a long rest (all Edge back), a shorter one a
      short rest (+1); the text gives no healing rate for damage, so damage waits for the GM.
    - Rocket House: a Fatigue per half hour of sleep and per hour of restful activity (8 hours
      of sleep a day), up to the Toughness's Fatigue; each wound one level lighter per full week;
      the dead stay dead.
    """
    hours = require_int(hours, gettext_noop("Hours"), minimum=0)
    condition = condition_of(system, condition, numbers)
    pools = dict(pools)
    lines: list[str] = []
    if system == "zerospace":
        base = zerospace.base_endurance(numbers.get("brawn", 0), numbers.get("presence", 0))
        current = min(condition["endurance"], base)
        if rest in ("comfortable", "rough") and hours >= SLEEP_HOURS_A_DAY:  # a night's sleep: all of it
            current, how = base, _("a night's sleep")
            condition.pop(HALF_BACK, None)
        elif hours and rest != "none" and not condition.get(HALF_BACK):  # half an hour's rest: half, once
            current, how = zerospace.rest_endurance(base, current), _("half an hour's rest: half the loss")
            condition[HALF_BACK] = True
        else:
            how = ""
        if current != condition["endurance"]:
            lines.append(_("Endurance %(before)s → %(after)s of %(full)s (%(how)s)")
                         % {"before": condition["endurance"], "after": current, "full": base, "how": how})
        elif current < base and hours and rest != "none":
            lines.append(_("Endurance stays %(current)s of %(full)s: the half-hour's half is spent; the rest comes "
                           "back with a night's sleep") % {"current": current, "full": base})
        condition["endurance"] = current
    elif system == "success_check":
        maximum, edge = numbers.get("edge_max", 0), int(pools.get("edge", 0))
        after = success_check.edge_rest(min(edge, maximum), maximum, long=hours >= LONG_REST_HOURS) if hours else edge
        if after != edge:
            said = {"before": edge, "after": after, "full": maximum}
            lines.append((_("Edge %(before)s → %(after)s of %(full)s (long rest)") if hours >= LONG_REST_HOURS
                          else _("Edge %(before)s → %(after)s of %(full)s (short rest)")) % said)
        pools["edge"] = after
    elif system == "rocket_house" and not condition["dead"]:
        toughness = numbers.get("toughness", 50)
        days, left = divmod(hours, 24)
        sleep = days * SLEEP_HOURS_A_DAY + min(left, SLEEP_HOURS_A_DAY)
        gained = rocket_house.fatigue_recovered(sleep_minutes=sleep * 60, rest_minutes=(hours - sleep) * 60)
        full = rocket_house.fatigue_points(toughness)
        fatigue = max(condition["fatigue"], min(full, condition["fatigue"] + gained))
        if fatigue != condition["fatigue"]:
            lines.append(_("Fatigue %(before)s → %(after)s of %(full)s")
                         % {"before": condition["fatigue"], "after": fatigue, "full": full})
        wounds = [rocket_house.WOUNDS_BY_NAME[name] for name in condition["wounds"]]
        for _week in range(hours // WOUND_LEVEL_HOURS):
            wounds = [lighter for lighter in (rocket_house.heal_wound(w) for w in wounds) if lighter is not None]
        healed = [w.name for w in wounds]
        if healed != condition["wounds"]:
            lines.append(_("wounds %(before)s → %(after)s")
                         % {"before": ", ".join(_(name) for name in condition["wounds"]), "after": _wounds(healed)})
        condition = {**condition, "fatigue": fatigue, "wounds": healed,
                     "unconscious": condition["unconscious"] and fatigue <= 0}
        condition.pop("bled_seconds", None)
        if healed:
            condition["bandaged"] = True  # seen to between fights: the wounds bleed no more
        else:
            condition.pop("bandaged", None)
    return Recovery(condition, pools, tuple(lines))


__all__ = ["BLOW_SYSTEMS", "Blow", "Recovery", "bleed", "condition_of", "first_aid", "fresh_condition", "rally",
           "recover",
           "rocket_house_round",
           "standing", "success_check_attack", "zerospace_attack"]
