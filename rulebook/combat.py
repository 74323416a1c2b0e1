"""Combat: Defense, attack targets and odds, near misses and attack resolution.

Article: "Combat" (Defense, Attacks, the summary list, near misses), "Additional Rules"
(Target Size Adjustment, Cover, Aiming), "Endurance". RULINGS.md sections 1, 5 and 6.
Initiative and micro-time are in rulebook.initiative.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from numbers import Real

from rulebook import RulesError
from rulebook._numbers import require_int
from rulebook.damage import ATTACK_KIND_NAMES, Hit, HitResult, WoundState, apply_hit, attack_endurance_cost
from rulebook.dice import (
    CheckOdds,
    CheckRoll,
    DiceSlots,
    check_odds,
    probability_at_most,
    roll_check,
    roll_die,
)
from rulebook.equipment import DamageRoll, roll_weapon_damage
from rulebook.hit_locations import (
    LocationResult,
    hit_location,
    require_area,
    resolve_location,
)
from rulebook.stats import SKILL_CHECK_DICE, skill_foundation
from rulebook.tables import (
    SIZE_TABLE_DISTANCE_INDEX,
    SUPPRESSION_FIRE_MODIFIER,
    RangeSizeAdjustment,
    as_fraction,
    distance_index,
    distance_metres,
    range_size_adjustment,
)
from rulebook.words import gettext as _
from rulebook.words import gettext_noop

#: Defense = effective RES + this + armour rating.
DEFENSE_OFFSET = -15
#: Each aimed area's step on the target-size index (the "Cover" scale: 0, −1, −2, −3, −6).
AIMED_AREA_MODIFIERS: dict[str, int] = {
    "whole_body": 0, "head_torso": -1, "head_neck": -2,
    "left_hand": -3, "right_hand": -3, "eye": -6,
}
#: One area up the near-miss ladder.
NEXT_AREA_UP: dict[str, str] = {
    "eye": "head_neck", "head_neck": "head_torso", "left_hand": "head_torso",
    "right_hand": "head_torso", "head_torso": "whole_body",
}


def _signed(number: int) -> str:
    return str(number).replace("-", "−")


@dataclass(frozen=True)
class Defense:
    """A Defense score and its terms."""

    total: int
    breakdown: list[tuple[str, int]]


def defense(res: int, armour_rating: int) -> Defense:
    """Compute Defense: effective RES − 15 + armour rating (0–10).

    ``res`` is the effective RES, already lowered by the armour type's RES modifier.

    Article: "Combat", Defense; RULINGS.md section 6.
    """
    require_int(res, "RES")
    require_int(armour_rating, gettext_noop("Armour rating"), minimum=0, maximum=10)
    breakdown = [(_("effective RES"), res), (_("Defense offset"), DEFENSE_OFFSET),
                 (_("armour rating"), armour_rating)]
    return Defense(res + DEFENSE_OFFSET + armour_rating, breakdown)


@dataclass(frozen=True)
class AttackTarget:
    """What an attack must roll on 3d6, and its terms.

    ``range_size`` is the range/size look-up term by term when the attack gave a range in
    metres (or none), and None when the caller passed a precomputed modifier.
    """

    total: int
    aimed_area: str
    breakdown: list[tuple[str, int]]
    range_size: RangeSizeAdjustment | None = None


def _range_size_term(range_m: Real | str | None, target_size: int,
                     range_size_modifier: int | None,
                     aimed_area: str) -> tuple[tuple[str, int], RangeSizeAdjustment | None]:
    """Return the attack's one range/size line and, when computed here, its look-up."""
    step = AIMED_AREA_MODIFIERS[require_area(aimed_area)]
    if range_size_modifier is not None:
        if range_m is not None:
            raise RulesError(_("Give the range in metres (range_m, with target_size) or a "
                               "precomputed range_size_modifier, not both."))
        if target_size != 0:
            raise RulesError(_("target_size goes with range_m: a precomputed range_size_modifier "
                               "already includes the target's size and the aimed area."))
        value = require_int(range_size_modifier, gettext_noop("Range / size modifier"))
        return (_("range / size (given, aimed area included)"), value), None
    size = require_int(target_size, gettext_noop("Target size index"))
    # Without a range the attack is read where the size table is defined, so the aimed
    # area still counts, once, through the size index.
    metres = distance_metres(SIZE_TABLE_DISTANCE_INDEX) if range_m is None else range_m
    adjustment = range_size_adjustment(metres, size + step)
    range_index = distance_index(metres) - SIZE_TABLE_DISTANCE_INDEX
    said = {"metres": f"{float(as_fraction(metres)):g}", "range": _signed(range_index), "size": _signed(size + step),
            "body": _signed(size), "area": _signed(step)}
    if range_m is None:
        label = _("no range given, read at 2 m: range %(metres)s m (index %(range)s) vs size index %(size)s "
                  "(body %(body)s, aimed area %(area)s)") % said
    else:
        label = _("range %(metres)s m (index %(range)s) vs size index %(size)s (body %(body)s, aimed area "
                  "%(area)s)") % said
    return (label, adjustment.modifier), adjustment


def attack_target(*, attack_stat: int, weapon_ranks: int, defense: int,
                  range_m: Real | str | None = None, target_size: int = 0,
                  range_size_modifier: int | None = None, aiming_bonus: int = 0,
                  gm_modifier: int = 0, suppression: bool = False,
                  aimed_area: str = "whole_body") -> AttackTarget:
    """Compute an attack's target number on 3d6, term by term.

    ``attack_stat`` is ACC or MEL after armour penalties; ``defense`` is the target's Defense
    total. Suppression fire's −5 takes the place of any aiming bonus.

    The range/size term comes one of two ways, never both. Either give ``range_m`` (metres)
    and ``target_size`` (the size-table index of what the attacker can see: 0 for a whole
    human body, lowered by cover): the aimed area's step is added to that size index and the
    modifier is read from range index against size index (``tables.range_size_adjustment``).
    Or pass ``range_size_modifier`` already computed, aimed area and cover included; the
    aimed area then adds nothing more. With neither, the attack is read at 2 m, where the size
    table is defined. ``aimed_area`` also picks the hit-location column and the near misses.

    Article: "Combat", Attacks and the summary list; "Additional Rules", Target Size
    Adjustment, Cover, Aiming; RULINGS.md sections 5 and 6.

    Raises:
        RulesError: for a bad number, an unknown aimed area, or both ways of giving range/size.
    """
    range_line, range_size = _range_size_term(range_m, target_size, range_size_modifier,
                                              aimed_area)
    stat = require_int(attack_stat, gettext_noop("Attack stat"))
    foundation = skill_foundation(stat)
    breakdown = [(_("skill foundation of the attack stat %(stat)s (half, round up, + 2)") % {"stat": stat},
                  foundation),
                 (_("weapon skill ranks"), require_int(weapon_ranks, gettext_noop("Weapon skill ranks"), minimum=0)),
                 (_("target's Defense"), -require_int(defense, gettext_noop("Defense"))),
                 range_line]
    require_int(aiming_bonus, gettext_noop("Aiming bonus"))
    if suppression:
        breakdown.append((_("suppression fire (no aiming)"), SUPPRESSION_FIRE_MODIFIER))
    else:
        breakdown.append((_("aiming"), aiming_bonus))
    breakdown.append((_("GM modifier"), require_int(gm_modifier, gettext_noop("GM modifier"))))
    return AttackTarget(sum(value for _, value in breakdown), aimed_area, breakdown, range_size)


@dataclass(frozen=True)
class NearMiss:
    """A miss that still lands, higher up the area ladder, with less shock and trauma."""

    area: str
    steps: int
    shock_adjustment: int
    trauma_adjustment: int
    no_trauma: bool


def near_miss(area: str, margin: int, cover: bool = False) -> NearMiss | None:
    """Return where a narrow miss lands instead, or None when it is a plain miss.

    Missing by 5 or less with an area smaller than the whole body hits one area up (−1 shock,
    −1 trauma); missing by 10 or less with an area smaller than head & torso hits two areas up
    (−2 shock, no trauma). The closer reading wins when both fit. A target made small by cover
    gets no near misses.

    Article: "Combat", the near-miss paragraphs; RULINGS.md section 6.
    """
    require_area(area)
    missed_by = -require_int(margin, gettext_noop("Margin"))
    if cover or missed_by <= 0 or area == "whole_body":
        return None
    if missed_by <= 5:
        return NearMiss(NEXT_AREA_UP[area], 1, -1, -1, False)
    if missed_by <= 10 and area != "head_torso":
        return NearMiss(NEXT_AREA_UP[NEXT_AREA_UP[area]], 2, -2, 0, True)
    return None


@dataclass(frozen=True)
class AttackOdds:
    """Exact chances of an attack: hit, critical hit, near misses, plain miss."""

    target: AttackTarget
    odds: CheckOdds
    hit: Fraction
    critical: Fraction
    near_miss_one_up: Fraction
    near_miss_two_up: Fraction
    miss: Fraction


def attack_odds(*, attack_stat: int, weapon_ranks: int, defense: int,
                range_m: Real | str | None = None, target_size: int = 0,
                range_size_modifier: int | None = None, aiming_bonus: int = 0,
                gm_modifier: int = 0, suppression: bool = False, aimed_area: str = "whole_body",
                cover: bool = False) -> AttackOdds:
    """Return the exact chances of an attack, the miracle rule applied.

    Takes the keyword arguments of ``attack_target`` plus ``cover`` (no near misses).

    Article: "Combat", Attacks (the armour 0–10 chances); RULINGS.md sections 1 and 6.
    """
    target = attack_target(attack_stat=attack_stat, weapon_ranks=weapon_ranks, defense=defense,
                           range_m=range_m, target_size=target_size,
                           range_size_modifier=range_size_modifier, aiming_bonus=aiming_bonus,
                           gm_modifier=gm_modifier, suppression=suppression, aimed_area=aimed_area)
    odds = check_odds(target.total, SKILL_CHECK_DICE)
    dice, needed = odds.dice, odds.effective_target

    def at_most(total: int) -> Fraction:
        return probability_at_most(total, dice)

    critical = Fraction(1, 6**dice) if dice < needed else Fraction(0)
    one = two = Fraction(0)
    if near_miss(target.aimed_area, -1, cover) is not None:
        one = at_most(needed + 5) - at_most(needed)
    if near_miss(target.aimed_area, -6, cover) is not None:
        two = at_most(needed + 10) - at_most(needed + 5)
    return AttackOdds(target, odds, odds.probability, critical, one, two,
                      1 - odds.probability - one - two)


def pay_attack_endurance(*, endurance: int, attack_kind: str) -> int:
    """Pay an attack's END up front and return the END left; no END, no attack.

    Article: "Endurance"; "Combat", the summary list (END is paid before the attack).
    """
    cost = attack_endurance_cost(attack_kind)
    if require_int(endurance, "END") < cost:
        raise RulesError(_("A %(kind)s attack costs %(cost)s END and only %(left)s is left: "
                           "rest or skip rounds to recover END first.")
                         % {"kind": _(ATTACK_KIND_NAMES.get(attack_kind, attack_kind)), "cost": cost,
                            "left": endurance})
    return endurance - cost


@dataclass(frozen=True)
class AttackResult:
    """A resolved attack: the roll, hit / near miss / miss, and where it landed."""

    target: AttackTarget
    check: CheckRoll
    outcome: str  # "hit", "near_miss" or "miss"
    critical: bool
    area_hit: str | None
    near_miss: NearMiss | None
    shock_adjustment: int
    trauma_adjustment: int
    no_trauma: bool
    location: LocationResult | None
    endurance_cost: int
    endurance_left: int | None


#: The hit-location table is read on d%; the GM may mandate a smaller die ("Hit Location": "under
#: certain circumstances, the GM can mandate that a smaller die be used"), which reads only the
#: column's first rows: a d20 lands on the head, neck and chest of a whole body.
LOCATION_DIE = 100
SMALLEST_LOCATION_DIE = 2


def location_die(sides: int) -> int:
    """Check the GM's hit-location die: a d2 up to the table's d%."""
    return require_int(sides, gettext_noop("The hit-location die"), minimum=SMALLEST_LOCATION_DIE,
                       maximum=LOCATION_DIE)


def resolve_attack(*, attack_stat: int, weapon_ranks: int, defense: int,
                   range_m: Real | str | None = None, target_size: int = 0,
                   range_size_modifier: int | None = None, aiming_bonus: int = 0,
                   gm_modifier: int = 0, suppression: bool = False, aimed_area: str = "whole_body",
                   attack_kind: str = "trigger", endurance: int | None = None,
                   cover: bool = False, roll_location: bool = True,
                   chosen_location: str | None = None, rng: random.Random | None = None,
                   location_sides: int = LOCATION_DIE) -> AttackResult:
    """Pay END, roll 3d6 against the attack target, and place the hit.

    With ``endurance`` given, the attack's END is paid first and a combatant short of it
    cannot attack. A hit or near miss then rolls on the hit location table (unless
    ``roll_location`` is False) for the area actually hit; ``chosen_location`` is the
    attacker's pick should the roll be "attacker's choice". ``location_sides`` is the GM's
    smaller hit-location die (``location_die``).

    Article: "Combat" (Attacks, the summary list, near misses), "Hit Location", "Endurance";
    RULINGS.md sections 1 and 6.
    """
    sides = location_die(location_sides)
    cost = attack_endurance_cost(attack_kind)
    left = None if endurance is None else pay_attack_endurance(endurance=endurance,
                                                               attack_kind=attack_kind)
    target = attack_target(attack_stat=attack_stat, weapon_ranks=weapon_ranks, defense=defense,
                           range_m=range_m, target_size=target_size,
                           range_size_modifier=range_size_modifier, aiming_bonus=aiming_bonus,
                           gm_modifier=gm_modifier, suppression=suppression, aimed_area=aimed_area)
    check = roll_check(target.total, SKILL_CHECK_DICE, rng)
    miss = None if check.success else near_miss(aimed_area, check.margin, cover)
    if check.success:
        outcome, area = "hit", aimed_area
    elif miss is not None:
        outcome, area = "near_miss", miss.area
    else:
        outcome, area = "miss", None
    location = None
    if area is not None and roll_location:
        # A choice declared up front only matters if the table hands the attacker the choice.
        d100 = roll_die(sides, rng)
        choice = chosen_location if hit_location(area, d100) == "attackers_choice" else None
        location = resolve_location(area, rng, critical_hit=check.critical, d100=d100,
                                    chosen_location=choice, sides=sides)
    return AttackResult(
        target=target, check=check, outcome=outcome, critical=check.critical, area_hit=area,
        near_miss=miss, shock_adjustment=miss.shock_adjustment if miss else 0,
        trauma_adjustment=miss.trauma_adjustment if miss else 0,
        no_trauma=miss.no_trauma if miss else False, location=location,
        endurance_cost=cost, endurance_left=left,
    )


def hit_for_damage(attack: AttackResult, *, weapon_damage: int, armour_rating: int) -> Hit:
    """Turn a landed attack and its rolled weapon damage into a ``damage.Hit``.

    Article: "Damage & Recovery" (what a hit carries into trauma and shock).
    """
    if attack.location is None:
        raise RulesError(_("Only an attack that landed and has a hit location can deal damage."))
    loc = attack.location
    return Hit(weapon_damage=weapon_damage, armour_rating=armour_rating,
               location_trauma=loc.trauma_bonus, location_shock=loc.shock_bonus,
               trauma_adjustment=attack.trauma_adjustment,
               shock_adjustment=attack.shock_adjustment, no_trauma=attack.no_trauma,
               stat_damage=loc.stat_damage)


# --- An attack from the roll to the wounds -------------------------------------------------------
#: The named dice of an attack, in the order they are rolled. "effect" holds the location's
#: critical-location die (neck, chests, abdomen), then its effect dice, then any d3s.
ATTACK_DICE_SLOTS: tuple[str, ...] = ("attack", "location", "sublocation", "effect", "damage", "shock", "save",
                                      "unconscious")


class _HitDice:
    """Hands ``apply_hit``'s dice to their slots: the shock d6 first, then the save's d6s, and
    every d10 (out cold for seconds, or for minutes) to "unconscious"."""

    def __init__(self, slots: DiceSlots) -> None:
        self.slots, self.first = slots, True

    def randint(self, low: int, high: int) -> int:
        if self.first:
            self.first = False
            return self.slots["shock"].randint(low, high)
        return self.slots["unconscious" if high == 10 else "save"].randint(low, high)


@dataclass(frozen=True)
class AttackOutcome:
    """An attack resolved to the end: the roll and location, the damage, and the hit's effects."""

    attack: AttackResult
    damage: DamageRoll | None
    hit: HitResult | None


def attack_with_damage(*, attack_stat: int, weapon_ranks: int, defense: int, target_wounds: WoundState,
                       target_armour_rating: int, damage_points: int, rate_of_fire: int = 1,
                       extra_damage: int = 0, attack_kind: str = "trigger", endurance: int | None = None,
                       dice: DiceSlots, cover: bool = False, chosen_location: str | None = None,
                       location_sides: int = LOCATION_DIE, **target_terms) -> AttackOutcome:
    """Resolve an attack from END to wounds, with dice named by slot (``ATTACK_DICE_SLOTS``).

    Pays END, rolls 3d6 against the target (``attack_target``'s keyword arguments go in
    ``target_terms``), places a hit or near miss, rolls the weapon's damage and applies the
    hit to the target's wounds (trauma, shock and its saves, stat damage). The location is
    rolled on d% or the GM's smaller ``location_sides`` die.

    Article: "Combat", "Hit Location", "Damage & Recovery" and its rifle example; RULINGS.md
    section 6.
    """
    sides = location_die(location_sides)
    cost = attack_endurance_cost(attack_kind)
    left = None if endurance is None else pay_attack_endurance(endurance=endurance, attack_kind=attack_kind)
    target = attack_target(attack_stat=attack_stat, weapon_ranks=weapon_ranks, defense=defense, **target_terms)
    check = roll_check(target.total, SKILL_CHECK_DICE, dice["attack"])
    miss = None if check.success else near_miss(target.aimed_area, check.margin, cover)
    area = target.aimed_area if check.success else (miss.area if miss else None)
    location = None
    if area is not None:
        d100 = roll_die(sides, dice["location"])
        choice = chosen_location if hit_location(area, d100) == "attackers_choice" else None
        location = resolve_location(area, dice["effect"], critical_hit=check.critical, d100=d100,
                                    chosen_location=choice, sub_rng=dice["sublocation"], sides=sides)
    attack = AttackResult(
        target=target, check=check, outcome="hit" if check.success else ("near_miss" if miss else "miss"),
        critical=check.critical, area_hit=area, near_miss=miss,
        shock_adjustment=miss.shock_adjustment if miss else 0, trauma_adjustment=miss.trauma_adjustment if miss else 0,
        no_trauma=miss.no_trauma if miss else False, location=location, endurance_cost=cost, endurance_left=left)
    if location is None:
        return AttackOutcome(attack, None, None)
    damage = roll_weapon_damage(damage_points, rate_of_fire, extra_damage, rng=dice["damage"])
    hit = apply_hit(wounds=target_wounds,
                    hit=hit_for_damage(attack, weapon_damage=damage.total, armour_rating=target_armour_rating),
                    rng=_HitDice(dice))
    return AttackOutcome(attack, damage, hit)
