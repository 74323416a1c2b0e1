"""Equipment: general equipment, weapons, armour and its effects on the wearer's stats.

Article: "Equipment", "Weapons", "Armor", "Other Armour Effects". RULINGS.md sections 3 and 6.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from rulebook import RulesError
from rulebook._numbers import ceil_div, require_int
from rulebook.dice import roll_dice, roll_die
from rulebook.skills import DEFAULT_MAX_RANKS, WEAPON_BREADTHS, skill_cost
from rulebook.stats import STAT_MAX, BreakdownLine, Computed
from rulebook.words import gettext as _
from rulebook.words import gettext_noop

#: Equipment used for the task counts as a further relevant skill (+2) when the character is
#: proficient, and as an indirectly related one (+1) when not ("Equipment").
EQUIPMENT_RELATED_BONUS = 2
EQUIPMENT_INDIRECT_BONUS = 1


def equipment_cost(breadth: str, ranks: int = 1, max_ranks: int = DEFAULT_MAX_RANKS) -> int:
    """Return the skill points a piece of general equipment costs ("Equipment").

    It is priced like a skill: specific 1, narrow 2, broad 4 for its first rank (weapon
    breadths do not apply: weapons use ``weapon_cost``), 1 per further rank.
    """
    if isinstance(breadth, str) and breadth.strip().lower().replace(" ", "_") in WEAPON_BREADTHS:
        raise RulesError(
            _("General equipment is specific, narrow or broad, not %(breadth)s (price weapons with the weapon rules).")
            % {"breadth": repr(breadth)}
        )
    return skill_cost(breadth, ranks, max_ranks)


def consumed_refund(cost: int) -> int:
    """Return the refund for equipment used up in an adventure: all but 1 point.

    Article: "Weapons" and "Armor" (the rule is stated under both).
    """
    require_int(cost, gettext_noop("The cost"), minimum=0)
    return max(cost - 1, 0)


def found_equipment_cost(cost: int, *, left_behind: bool) -> int:
    """Return what equipment found during an adventure costs: nothing if it stays behind.

    Article: "Weapons" and "Armor" (the rule is stated under both).
    """
    require_int(cost, gettext_noop("The cost"), minimum=0)
    return 0 if left_behind else cost


# --- Weapons ----------------------------------------------------------------------------------
#: Marked for the catalogue: translated where shown.
RATES_OF_FIRE: dict[int, str] = {1: gettext_noop("single shot"), 2: gettext_noop("short burst"),
                                 3: gettext_noop("full auto")}
#: Extra d6 of damage each rate of fire adds.
RATE_OF_FIRE_DICE: dict[int, Fraction] = {1: Fraction(0), 2: Fraction(1), 3: Fraction(5, 2)}
#: Range-index steps given up (effective range) or bought (melee reach) per point of cost.
RANGE_STEPS_PER_POINT = 2
#: The largest weapon the rules here take: 28d6 of base damage, far past any weapon of the article;
#: beyond it a number is a mistake (or an attack on the server), not a weapon, and is refused
#: before a die is rolled.
DAMAGE_POINTS_MAX = 30
#: The most "+ damage" a weapon may buy, for the same reason.
EXTRA_DAMAGE_MAX = 30


def _dice_text(dice: Fraction) -> str:
    whole, part = divmod(dice, 1)
    fraction = {Fraction(0): "", Fraction(1, 3): "⅓", Fraction(1, 2): "½"}[part]
    return f"{whole or ''}{fraction}d6" if fraction else f"{whole}d6"


def base_damage_dice(damage_points: int) -> Fraction:
    """Return the d6 that damage points buy ("Weapons"): 1 → ⅓d6, 2 → ½d6, n ≥ 3 → (n − 2)d6."""
    require_int(damage_points, gettext_noop("Damage points"), minimum=1, maximum=DAMAGE_POINTS_MAX)
    return {1: Fraction(1, 3), 2: Fraction(1, 2)}.get(damage_points, Fraction(damage_points - 2))


def damage_description(damage_points: int, rate_of_fire: int = 1, extra_damage: int = 0) -> str:
    """Describe a weapon's damage for people, e.g. "2d6 + 1d6 short burst + 1" ("Weapons")."""
    _check_rate_of_fire(rate_of_fire)
    require_int(extra_damage, gettext_noop("Extra damage"), minimum=0, maximum=EXTRA_DAMAGE_MAX)
    parts = [_dice_text(base_damage_dice(damage_points))]
    if rate_of_fire > 1:
        parts.append(f"{_dice_text(RATE_OF_FIRE_DICE[rate_of_fire])} {_(RATES_OF_FIRE[rate_of_fire])}")
    if extra_damage:
        parts.append(str(extra_damage))
    return " + ".join(parts)


@dataclass(frozen=True)
class DamageRoll:
    """A weapon's rolled damage: every die and the total, term by term."""

    total: int
    faces: tuple[int, ...]
    breakdown: list[BreakdownLine]


def _roll_d6s(dice: Fraction, label: str, rng: random.Random | None) -> tuple[int, list[int], list[BreakdownLine]]:
    """Roll whole and part d6; ``label`` (marked for the catalogue) names them in the breakdown."""
    whole, part = divmod(dice, 1)
    faces = roll_dice(int(whole), 6, rng)
    total, lines = sum(faces), [(f"{_(label)} {int(whole)}d6 {faces}", sum(faces))] if whole else []
    if part:
        face = roll_die(6, rng)
        share = ceil_div(face, part.denominator)  # ½d6 = ⌈d6 / 2⌉, ⅓d6 = ⌈d6 / 3⌉
        faces.append(face)
        total += share
        lines.append((_("%(label)s %(dice)s (d6 %(face)s ÷ %(by)s, rounded up)")
                      % {"label": _(label), "dice": _dice_text(part), "face": face, "by": part.denominator}, share))
    return total, faces, lines


def roll_weapon_damage(damage_points: int, rate_of_fire: int = 1, extra_damage: int = 0, *,
                       rng: random.Random | None = None) -> DamageRoll:
    """Roll a weapon's damage ("Weapons"): its base dice, the rate of fire's dice, + damage.

    Dice are rolled in this order: the base d6 (a ⅓d6 or ½d6 is one d6, divided and rounded
    up), then the rate of fire's (short burst 1d6, full auto 2d6 then one d6 halved).
    """
    _check_rate_of_fire(rate_of_fire)
    require_int(extra_damage, gettext_noop("Extra damage"), minimum=0, maximum=EXTRA_DAMAGE_MAX)
    base, faces, lines = _roll_d6s(base_damage_dice(damage_points), gettext_noop("base"), rng)
    total = base
    if rate_of_fire > 1:
        extra, more, more_lines = _roll_d6s(RATE_OF_FIRE_DICE[rate_of_fire], RATES_OF_FIRE[rate_of_fire], rng)
        total, faces, lines = total + extra, faces + more, lines + more_lines
    if extra_damage:
        lines.append((_("+ damage"), extra_damage))
        total += extra_damage
    return DamageRoll(total, tuple(faces), [*lines, (_("weapon damage"), total)])


def _check_rate_of_fire(rate_of_fire: int) -> None:
    require_int(rate_of_fire, gettext_noop("Rate of fire"), minimum=1, maximum=3)


@dataclass(frozen=True)
class WeaponCost:
    """A weapon's cost with its breakdown, its damage and its range on the distance table.

    ``damage_d6`` counts the d6 rolled (base and rate of fire; fractions for ⅓d6 and ½d6),
    ``damage_bonus`` the flat +damage. Range indexes are distance-table indexes; a melee
    weapon's range starts at index 0 and reach moves it up the table.
    """

    total: int
    breakdown: list[BreakdownLine]
    damage_description: str
    damage_d6: Fraction
    damage_bonus: int
    base_range_index: int
    effective_range_index: int
    melee: bool


def weapon_cost(damage_points: int, rate_of_fire: int, extra_damage: int = 0,
                range_reduction_steps: int = 0, skilled: bool = False, *, melee: bool = False,
                reach_steps: int = 0) -> WeaponCost:
    """Price a weapon and read its range ("Weapons").

    Cost = damage points + rate of fire + 1 per +1 damage. That sum is the base range index;
    the GM may restrict the weapon to an effective range lower on the table, which takes
    ⌊steps / 2⌋ off the cost (the effective range index cannot go below 0). A melee weapon has
    no range of its own: it reaches index 0 and buys reach at 1 point per 2 steps (rounded up).
    With an appropriate skill the cost is halved, rounded up.

    Args:
        damage_points: 1 (⅓d6), 2 (½d6), 3 (1d6), n (n − 2 d6).
        rate_of_fire: 1 single shot, 2 short burst (+1d6), 3 full auto (+2½d6).
        extra_damage: flat +damage, 1 point each.
        range_reduction_steps: steps from the base range down to the effective range.
        skilled: the character has an appropriate weapon skill.
        melee: the weapon is a melee weapon.
        reach_steps: steps of reach bought for a melee weapon.
    """
    description = damage_description(damage_points, rate_of_fire, extra_damage)
    require_int(range_reduction_steps, gettext_noop("Range reduction steps"), minimum=0)
    require_int(reach_steps, gettext_noop("Reach steps"), minimum=0)
    breakdown: list[BreakdownLine] = [
        (_("damage %(dice)s") % {"dice": _dice_text(base_damage_dice(damage_points))}, damage_points),
        (_("rate of fire: %(rate)s") % {"rate": _(RATES_OF_FIRE[rate_of_fire])}, rate_of_fire),
    ]
    if extra_damage:
        breakdown.append((_("+%(extra)s damage") % {"extra": extra_damage}, extra_damage))
    summed = damage_points + rate_of_fire + extra_damage
    if melee:
        if range_reduction_steps:
            raise RulesError(_("A melee weapon has no range to restrict; buy reach instead."))
        base_index, effective_index = 0, reach_steps
        if reach_steps:
            breakdown.append((_("reach %(steps)s step(s), 1 per %(per)s")
                              % {"steps": reach_steps, "per": RANGE_STEPS_PER_POINT},
                              ceil_div(reach_steps, RANGE_STEPS_PER_POINT)))
    else:
        if reach_steps:
            raise RulesError(_("Only melee weapons buy reach; a ranged weapon's range comes from its cost."))
        if range_reduction_steps > summed:
            raise RulesError(_("The base range index is %(index)s; it can be restricted by at most %(index)s steps.")
                             % {"index": summed})
        base_index, effective_index = summed, summed - range_reduction_steps
        if range_reduction_steps >= RANGE_STEPS_PER_POINT:
            breakdown.append((_("effective range %(steps)s step(s) down the table") % {"steps": range_reduction_steps},
                              -(range_reduction_steps // RANGE_STEPS_PER_POINT)))
    total = sum(value for _term, value in breakdown)
    if skilled:
        breakdown.append((_("halved with the weapon skill, rounded up"), -(total // 2)))
        total -= total // 2
    return WeaponCost(
        total=total,
        breakdown=breakdown,
        damage_description=description,
        damage_d6=base_damage_dice(damage_points) + RATE_OF_FIRE_DICE[rate_of_fire],
        damage_bonus=extra_damage,
        base_range_index=base_index,
        effective_range_index=effective_index,
        melee=melee,
    )


# --- Armour -----------------------------------------------------------------------------------
HARDNESS_RANGE = (1, 10)
COVERAGE_RANGE = (1, 4)
ARMOUR_TYPE_RANGE = (0, 10)
#: Low-tech armour counts as up to 3 types heavier, high-tech up to 5 lighter (NIM, ACC, MEL).
TECH_SHIFT_RANGE = (-5, 3)


def armour_cost(hardness: int, coverage: int, nim_penalty: int, skilled: bool = False) -> Computed:
    """Price armour in skill points ("Armor"): ⌈(hardness × coverage + NIM penalty) / 3⌉.

    Halved, rounded up, with an appropriate skill.

    Args:
        hardness: 1–10.
        coverage: 1–4 (a quarter of the body to all of it).
        nim_penalty: the size of the NIM penalty the GM sets for it (0 or more).
        skilled: the character has an appropriate armour skill.
    """
    require_int(hardness, gettext_noop("Hardness"), minimum=HARDNESS_RANGE[0], maximum=HARDNESS_RANGE[1])
    require_int(coverage, gettext_noop("Coverage"), minimum=COVERAGE_RANGE[0], maximum=COVERAGE_RANGE[1])
    require_int(nim_penalty, gettext_noop("The NIM penalty (enter its size, 0 or more)"), minimum=0,
                maximum=STAT_MAX)
    protection = hardness * coverage
    summed = protection + nim_penalty
    cost = ceil_div(summed, 3)
    breakdown: list[BreakdownLine] = [(_("hardness %(hardness)s × coverage %(coverage)s")
                                       % {"hardness": hardness, "coverage": coverage}, protection)]
    if nim_penalty:
        breakdown.append((_("NIM penalty"), nim_penalty))
    breakdown.append((_("%(sum)s / 3, rounded up") % {"sum": summed}, cost - summed))
    if skilled:
        breakdown.append((_("halved with the armour skill, rounded up"), -(cost // 2)))
        cost -= cost // 2
    return Computed(cost, breakdown)


def armour_rating(hardness: int, coverage: int) -> int:
    """Return the armour rating on the 0–10 scale ("Armor", "Defense").

    Hardness × coverage / 4, halves rounded up (RULINGS.md section 3): coverage scales the
    hardness, so full coverage rates the hardness itself.
    """
    require_int(hardness, gettext_noop("Hardness"), minimum=HARDNESS_RANGE[0], maximum=HARDNESS_RANGE[1])
    require_int(coverage, gettext_noop("Coverage"), minimum=COVERAGE_RANGE[0], maximum=COVERAGE_RANGE[1])
    return (hardness * coverage + 2) // 4


#: Stat penalties by armour type ("Other Armour Effects"): each step is (the lowest type that
#: carries it, the modifier to the stat), heaviest first.
_RES_BY_TYPE = {0: -4, 1: -3, 2: -2, 3: -1}
_NIM_STEPS = ((10, -4), (8, -3), (6, -2), (4, -1))
_ACC_STEPS = ((9, -3), (7, -2), (5, -1))
_MEL_STEPS = ((10, -6), (8, -4), (6, -2))
_DEX_STEPS = ((10, -6), (8, -4), (6, -2), (4, -1))


def _step_penalty(steps: tuple[tuple[int, int], ...], armour_type: int) -> int:
    for lowest_type, penalty in steps:
        if armour_type >= lowest_type:
            return penalty
    return 0


def armour_effects(armour_type: int, tech_shift: int = 0) -> dict[str, int]:
    """Return the wearer's stat modifiers for an armour type ("Other Armour Effects").

    RES: type 0 −4, 1 −3, 2 −2, 3 −1. NIM: 4–5 −1, 6–7 −2, 8–9 −3, 10 −4. ACC: 5–6 −1,
    7–8 −2, 9–10 −3. MEL: 6–7 −2, 8–9 −4, 10 −6. DEX: 4–5 −1, 6–7 −2, 8–9 −4, 10 −6.

    Args:
        armour_type: the armour's rating, 0 (none) to 10.
        tech_shift: +1 to +3 for low-tech armour, −1 to −5 for high-tech; it moves the type
            read for NIM, ACC and MEL only, kept within 0–10.

    Returns:
        A dict keyed RES, NIM, ACC, MEL, DEX; 0 or negative values.
    """
    require_int(armour_type, gettext_noop("Armour type"), minimum=ARMOUR_TYPE_RANGE[0],
                maximum=ARMOUR_TYPE_RANGE[1])
    require_int(tech_shift, gettext_noop("Tech shift"), minimum=TECH_SHIFT_RANGE[0],
                maximum=TECH_SHIFT_RANGE[1])
    shifted = min(max(armour_type + tech_shift, ARMOUR_TYPE_RANGE[0]), ARMOUR_TYPE_RANGE[1])
    return {
        "RES": _RES_BY_TYPE.get(armour_type, 0),
        "NIM": _step_penalty(_NIM_STEPS, shifted),
        "ACC": _step_penalty(_ACC_STEPS, shifted),
        "MEL": _step_penalty(_MEL_STEPS, shifted),
        "DEX": _step_penalty(_DEX_STEPS, armour_type),
    }
