"""Damage: trauma, shock and the shock-threshold save, stat damage, dying, and END costs.

Article: "Damage & Recovery" (Trauma, Shock, Stat damage, the rifle example), "Death",
"Endurance". RULINGS.md sections 1 and 6.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from types import MappingProxyType

from rulebook import RulesError
from rulebook._numbers import ceil_div, require_int
from rulebook.dice import CheckRoll, roll_check, roll_die
from rulebook.stats import PRIMARY_STATS, STAT_CHECK_DICE
from rulebook.tables import time_multiplier
from rulebook.words import gettext as _
from rulebook.words import gettext_noop

#: Stats a wound can lower: the rolled stats and END (chest and abdomen hits).
WOUNDABLE_STATS: tuple[str, ...] = PRIMARY_STATS + ("END",)
#: The shock save's unconsciousness roll is d10 − 4 (+ excess) on the time chart, in seconds.
SHOCK_SAVE_OFFSET = -4
#: Total shock above HP: d10 − 7 on the time chart, in minutes.
SHOCK_OVERLOAD_OFFSET = -7

#: END per period of activity: (END, minutes).
ACTIVITY_ENDURANCE: dict[str, tuple[int, int]] = {"ordinary": (1, 30), "strenuous": (4, 60)}
#: END paid before an attack: a physical attack (swing, punch, throw) or just pulling a trigger.
ATTACK_ENDURANCE: dict[str, int] = {"physical": 2, "trigger": 1}
#: Each attack kind as people read it (marked for the catalogue: translated where shown).
ATTACK_KIND_NAMES: dict[str, str] = {"physical": gettext_noop("physical"), "trigger": gettext_noop("trigger")}
#: A combat round itself costs nothing; only the attacks in it do.
COMBAT_ROUND_ENDURANCE = 0


def trauma(weapon_damage: int, location_trauma: int = 0, armour_rating: int = 0, *,
           adjustment: int = 0) -> int:
    """Return the trauma a hit deals: weapon damage + location trauma − armour (never below 0).

    ``adjustment`` carries a near miss's −1.

    Article: "Damage & Recovery", Trauma; RULINGS.md section 6.
    """
    require_int(weapon_damage, gettext_noop("Weapon damage"), minimum=0)
    require_int(armour_rating, gettext_noop("Armour rating"), minimum=0, maximum=10)
    return max(0, weapon_damage + require_int(location_trauma, gettext_noop("Location trauma"))
               - armour_rating + require_int(adjustment, gettext_noop("Trauma adjustment")))


def shock_from_hit(trauma: int, d6: int, location_shock: int = 0, *, adjustment: int = 0) -> int:
    """Return a hit's shock: ⌈trauma / 2⌉ + d6 + location shock (never below 0).

    ``adjustment`` carries a near miss's −1 or −2.

    Article: "Damage & Recovery", Shock; RULINGS.md section 6.
    """
    require_int(trauma, gettext_noop("Trauma"), minimum=0)
    require_int(d6, gettext_noop("The shock d6"), minimum=1, maximum=6)
    return max(0, ceil_div(trauma, 2) + d6 + require_int(location_shock, gettext_noop("Location shock"))
               + require_int(adjustment, gettext_noop("Shock adjustment")))


def shock_after_save(d6: int, location_shock: int = 0, *, adjustment: int = 0) -> int:
    """Return the shock taken after a successful shock save: ⌈d6 / 2⌉ + location shock.

    The trauma half is not counted at all.

    Article: "Damage & Recovery", Shock, and the rifle example's success branch.
    """
    require_int(d6, gettext_noop("The shock d6"), minimum=1, maximum=6)
    return max(0, ceil_div(d6, 2) + require_int(location_shock, gettext_noop("Location shock"))
               + require_int(adjustment, gettext_noop("Shock adjustment")))


def unconscious_seconds(d10: int, excess: int) -> Fraction:
    """Return how long a failed shock save knocks a character out: time chart(d10 − 4 + excess) s.

    Article: "Damage & Recovery", Shock (rifle example: d10 6, excess 2 → index 4 → 10 s).
    """
    require_int(d10, gettext_noop("The d10"), minimum=1, maximum=10)
    excess = require_int(excess, gettext_noop("Shock excess"), minimum=0)
    return time_multiplier(d10 + SHOCK_SAVE_OFFSET + excess)


def unconscious_minutes(d10: int) -> Fraction:
    """Return how long total shock above HP knocks a character out: time chart(d10 − 7) min.

    Article: "Damage & Recovery", Shock.
    """
    d10 = require_int(d10, gettext_noop("The d10"), minimum=1, maximum=10)
    return time_multiplier(d10 + SHOCK_OVERLOAD_OFFSET)


@dataclass(frozen=True)
class ShockSave:
    """A CON save against shock above the threshold, and its unconsciousness if failed."""

    excess: int
    target_modifier: int
    target: int
    check: CheckRoll
    saved: bool
    d10: int | None
    unconscious_index: int | None
    unconscious_seconds: Fraction | None
    breakdown: list[tuple[str, int]]


def shock_threshold_save(*, con: int, round_shock: int, shock_threshold: int,
                         rng: random.Random | None = None) -> ShockSave:
    """Roll the CON save for shock above the threshold this round, at −1 per point over.

    A failed save rolls the d10 for the time out cold. Raises RulesError if the shock does
    not exceed the threshold (there is nothing to save against).

    Article: "Damage & Recovery", Shock; RULINGS.md sections 1 and 6.
    """
    require_int(con, "CON")
    require_int(round_shock, gettext_noop("Shock this round"), minimum=0)
    require_int(shock_threshold, gettext_noop("Shock threshold"), minimum=1)
    excess = round_shock - shock_threshold
    if excess <= 0:
        raise RulesError(_("%(shock)s shock does not exceed the threshold of %(threshold)s: no save is needed.")
                         % {"shock": round_shock, "threshold": shock_threshold})
    target = con - excess
    check = roll_check(target, STAT_CHECK_DICE, rng)
    breakdown = [("CON", con),
                 (_("shock over threshold (%(shock)s − %(threshold)s)")
                  % {"shock": round_shock, "threshold": shock_threshold}, -excess)]
    d10 = index = seconds = None
    if not check.success:
        d10 = roll_die(10, rng)
        index = d10 + SHOCK_SAVE_OFFSET + excess
        seconds = time_multiplier(index)
        breakdown += [(_("unconscious d10"), d10), (_("time chart offset"), SHOCK_SAVE_OFFSET),
                      (_("shock excess"), excess), (_("time chart index"), index)]
    return ShockSave(excess, -excess, target, check, check.success, d10, index, seconds, breakdown)


@dataclass(frozen=True)
class Hit:
    """What an attack brings to the target: rolled weapon damage and the location's additions."""

    weapon_damage: int
    armour_rating: int = 0
    location_trauma: int = 0
    location_shock: int = 0
    trauma_adjustment: int = 0
    shock_adjustment: int = 0
    no_trauma: bool = False
    stat_damage: tuple[tuple[str, int], ...] = ()


def _frozen(mapping: Mapping[str, int], what: str) -> Mapping[str, int]:
    for name, value in mapping.items():
        if name not in WOUNDABLE_STATS:
            raise RulesError(_("Unknown stat %(stat)s in %(what)s: use %(stats)s.")
                             % {"stat": repr(name), "what": _(what), "stats": ", ".join(WOUNDABLE_STATS)})
        require_int(value, name)
    return MappingProxyType(dict(mapping))


def dying_causes(hit_points_left: int | None, stats: Mapping[str, int]) -> tuple[str, ...]:
    """Return what has a character dying: "HP" when hit points less trauma are at 0 or below,
    and every stat at 0 or below. ``stats`` are the stats as wounded (stat damage and radiation
    loss taken off, END as much as is left); the shock pool and threshold are never among them.
    ``hit_points_left`` None: no hit points yet (a sheet being built).

    Article: "Death" ("zero or less in any stat other than their Shock Pool or Threshold").
    """
    causes = ("HP",) if hit_points_left is not None and hit_points_left <= 0 else ()
    return causes + tuple(name for name, value in stats.items() if value <= 0)


@dataclass(frozen=True)
class WoundState:
    """A character's wound numbers: HP and SHK, current stats, trauma, shock and stat damage.

    ``stats`` holds current values (stat damage already taken off); END there is the END stat,
    not the END spent on activity.
    """

    hit_points: int
    shock_threshold: int
    stats: Mapping[str, int]
    trauma: int = 0
    shock: int = 0
    shock_this_round: int = 0
    stat_damage: Mapping[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        require_int(self.hit_points, "HP", minimum=1)
        require_int(self.shock_threshold, gettext_noop("Shock threshold"), minimum=1)
        for name, what in (("trauma", gettext_noop("Trauma")), ("shock", gettext_noop("Shock")),
                           ("shock_this_round", gettext_noop("Shock this round"))):
            require_int(getattr(self, name), what, minimum=0)
        object.__setattr__(self, "stats", _frozen(self.stats, gettext_noop("stats")))
        object.__setattr__(self, "stat_damage", _frozen(self.stat_damage, gettext_noop("stat damage")))

    @property
    def current_hit_points(self) -> int:
        """Return HP − trauma."""
        return self.hit_points - self.trauma

    @property
    def dying_causes(self) -> tuple[str, ...]:
        """Return what has the character dying: "HP" and every stat at 0 or below."""
        return dying_causes(self.current_hit_points, self.stats)

    @property
    def dying(self) -> bool:
        """Tell whether any stat other than shock is at 0 or below ("Death")."""
        return bool(self.dying_causes)

    def next_round(self) -> WoundState:
        """Return the state at the start of a new combat round (shock this round back to 0)."""
        return replace(self, shock_this_round=0)


@dataclass(frozen=True)
class HitResult:
    """The wound state after a hit, and the report of how it got there."""

    wounds: WoundState
    trauma: int
    shock_d6: int
    full_shock: int
    shock_taken: int
    round_shock: int
    save: ShockSave | None
    unconscious_seconds: Fraction | None
    overload_d10: int | None
    unconscious_minutes: Fraction | None
    stat_damage: tuple[tuple[str, int], ...]
    shock_back_on_waking: int | None
    dying: bool
    breakdown: list[tuple[str, int]]


def apply_hit(*, wounds: WoundState, hit: Hit, rng: random.Random | None = None) -> HitResult:
    """Apply one hit to a wound state: trauma, shock (and its saves) and stat damage.

    Rolls, in this order: the shock d6; if this round's shock now exceeds SHK, the 4d6 CON save
    and on failure its d10; if total shock now exceeds HP, the d10 for minutes out cold.
    Stat damage lands only when the hit deals trauma.

    Article: "Damage & Recovery" (Trauma, Shock, Stat damage, the rifle example), "Death";
    RULINGS.md section 6.
    """
    dealt = 0 if hit.no_trauma else trauma(hit.weapon_damage, hit.location_trauma,
                                           hit.armour_rating, adjustment=hit.trauma_adjustment)
    breakdown = [(_("weapon damage"), hit.weapon_damage), (_("location trauma"), hit.location_trauma),
                 (_("armour"), -hit.armour_rating)]
    if hit.trauma_adjustment:
        breakdown.append((_("near miss trauma"), hit.trauma_adjustment))
    if hit.no_trauma:
        breakdown.append((_("near miss two areas up: no trauma"), 0))
    breakdown.append((_("trauma"), dealt))

    d6 = roll_die(6, rng)
    full = shock_from_hit(dealt, d6, hit.location_shock, adjustment=hit.shock_adjustment)
    breakdown += [(_("shock: half the trauma, rounded up"), ceil_div(dealt, 2)), (_("shock d6"), d6),
                  (_("location shock"), hit.location_shock)]
    if hit.shock_adjustment:
        breakdown.append((_("near miss shock"), hit.shock_adjustment))
    breakdown.append((_("shock"), full))

    taken, save, seconds = full, None, None
    if wounds.shock_this_round + full > wounds.shock_threshold:
        if "CON" not in wounds.stats:
            raise RulesError(_("The shock save needs the character's current CON in the wound state."))
        save = shock_threshold_save(con=wounds.stats["CON"],
                                    round_shock=wounds.shock_this_round + full,
                                    shock_threshold=wounds.shock_threshold, rng=rng)
        if save.saved:
            taken = shock_after_save(d6, hit.location_shock, adjustment=hit.shock_adjustment)
            breakdown.append((_("shock after a successful save: half the d6, rounded up, + location shock"), taken))
        else:
            seconds = save.unconscious_seconds
    total_shock = wounds.shock + taken

    overload_d10 = minutes = None
    if taken and total_shock > wounds.hit_points:
        overload_d10 = roll_die(10, rng)
        minutes = unconscious_minutes(overload_d10)
        breakdown.append((_("total shock over HP: d10 for minutes unconscious"), overload_d10))

    stats, damage_taken = dict(wounds.stats), dict(wounds.stat_damage)
    applied = hit.stat_damage if dealt > 0 else ()
    for stat, points in applied:
        if stat not in stats:
            raise RulesError(_("The hit damages %(stat)s: put the character's current %(stat)s in the wound state.")
                             % {"stat": stat})
        stats[stat] -= require_int(points, gettext_noop("Stat damage"), minimum=0)
        damage_taken[stat] = damage_taken.get(stat, 0) + points
        breakdown.append((_("%(stat)s damage") % {"stat": stat}, -points))

    new = replace(wounds, trauma=wounds.trauma + dealt, shock=total_shock,
                  shock_this_round=wounds.shock_this_round + taken, stats=stats,
                  stat_damage=damage_taken)
    # Knocked out, the character misses an action and gets the skipped-action third back on waking.
    back = ceil_div(total_shock, 3) if seconds is not None else None
    return HitResult(
        wounds=new, trauma=dealt, shock_d6=d6, full_shock=full, shock_taken=taken,
        round_shock=new.shock_this_round, save=save, unconscious_seconds=seconds,
        overload_d10=overload_d10, unconscious_minutes=minutes, stat_damage=tuple(applied),
        shock_back_on_waking=back, dying=new.dying, breakdown=breakdown,
    )


@dataclass(frozen=True)
class DyingRound:
    """One round of dying: the CON check, its modifier, and whether it saved or restored."""

    modifier: int
    medical_help: bool
    target: int
    check: CheckRoll
    survived: bool
    restored: bool
    breakdown: list[tuple[str, int]]


def dying_round(*, con: int, previous_modifier: int | None = None, medical_help: bool = False,
                gm_modifier: int = 0, rng: random.Random | None = None) -> DyingRound:
    """Roll one round's CON check for a dying character.

    The first round (``previous_modifier`` None) is at 0. Each later round steps −1, or +1
    when a medical check succeeded that round, and the modifier may rise above 0 (help in the
    second round rolls at +1). A success at a modifier of 0 or more with help restores the
    character (to 1 in each stat at 0 or below); a failure is death.

    Article: "Death" and its example (rounds D … D+4); RULINGS.md sections 1 and 6.
    """
    require_int(con, "CON")
    require_int(gm_modifier, gettext_noop("GM modifier"))
    if previous_modifier is None:
        modifier = 0
        breakdown = [(_("first round dying"), 0)]
    else:
        step = 1 if medical_help else -1
        modifier = require_int(previous_modifier, gettext_noop("Previous dying modifier")) + step
        breakdown = [(_("previous round"), previous_modifier),
                     (_("medical help") if medical_help else _("another round dying"), step)]
    target = con + modifier + gm_modifier
    breakdown = [("CON", con)] + breakdown + ([(_("GM modifier"), gm_modifier)] if gm_modifier else [])
    check = roll_check(target, STAT_CHECK_DICE, rng)
    restored = check.success and medical_help and modifier >= 0
    return DyingRound(modifier, medical_help, target, check, check.success, restored, breakdown)


def restore_from_dying(wounds: WoundState) -> WoundState:
    """Return the wound state of a character saved from dying: 1 in each stat at 0 or below.

    Current HP comes back to 1 by lowering trauma; stat damage shrinks by what was restored.

    Article: "Death".
    """
    stats, damage_taken = dict(wounds.stats), dict(wounds.stat_damage)
    for name, value in wounds.stats.items():
        if value <= 0:
            stats[name] = 1
            if name in damage_taken:
                damage_taken[name] = max(0, damage_taken[name] - (1 - value))
    trauma_left = min(wounds.trauma, wounds.hit_points - 1)
    return replace(wounds, stats=stats, stat_damage=damage_taken, trauma=trauma_left)


def activity_endurance_cost(activity: str, minutes: int) -> int:
    """Return the END an activity costs over ``minutes``: only completed shares are charged.

    Ordinary activity costs 1 per half hour, strenuous activity 4 per hour.

    Article: "Endurance".
    """
    if activity not in ACTIVITY_ENDURANCE:
        raise RulesError(_("Unknown activity %(activity)s: use %(activities)s.")
                         % {"activity": repr(activity), "activities": ", ".join(ACTIVITY_ENDURANCE)})
    cost, period = ACTIVITY_ENDURANCE[activity]
    return cost * require_int(minutes, gettext_noop("Minutes"), minimum=0) // period


def attack_endurance_cost(attack_kind: str) -> int:
    """Return the END an attack costs: 2 for a physical attack, 1 for a trigger pull.

    Article: "Endurance", and "Combat" (the summary list).
    """
    if attack_kind not in ATTACK_ENDURANCE:
        raise RulesError(_("Unknown attack kind %(kind)s: use physical or trigger.") % {"kind": repr(attack_kind)})
    return ATTACK_ENDURANCE[attack_kind]
