"""Combat: Defense, attack targets and odds, near misses, attack resolution, initiative, micro-time.

Article: "Combat" (Defense, Attacks, the summary list, near misses), "Initiative & Surprise",
"Time" (Combat Time, Micro-Time), "Endurance". RULINGS.md sections 1, 5 and 6.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from numbers import Real

from rulebook import RulesError
from rulebook.damage import Hit, _int, attack_endurance_cost
from rulebook.dice import (
    CheckOdds, CheckRoll, check_odds, probability_at_most, roll_check, roll_die,
)
from rulebook.hit_locations import AREAS, LocationResult, hit_location, resolve_location
from rulebook.stats import SKILL_CHECK_DICE, STAT_CHECK_DICE, skill_foundation
from rulebook.tables import SUPPRESSION_FIRE_MODIFIER, reaction_save_modifier

#: Defense = effective RES + this + armour rating.
DEFENSE_OFFSET = -15
#: Size modifier of each aimed area (the "Cover" scale: 0, −1, −2, −3, −6).
AIMED_AREA_MODIFIERS: dict[str, int] = {
    "whole_body": 0, "head_torso": -1, "head_neck": -2,
    "left_hand": -3, "right_hand": -3, "eye": -6,
}
#: One area up the near-miss ladder.
NEXT_AREA_UP: dict[str, str] = {
    "eye": "head_neck", "head_neck": "head_torso", "left_hand": "head_torso",
    "right_hand": "head_torso", "head_torso": "whole_body",
}


def _area(aimed_area: str) -> str:
    if aimed_area not in AIMED_AREA_MODIFIERS:
        raise RulesError(f"Unknown aimed area {aimed_area!r}: choose one of {', '.join(AREAS)}.")
    return aimed_area


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
    _int("RES", res)
    _int("Armour rating", armour_rating, 0, 10)
    breakdown = [("effective RES", res), ("Defense offset", DEFENSE_OFFSET),
                 ("armour rating", armour_rating)]
    return Defense(res + DEFENSE_OFFSET + armour_rating, breakdown)


@dataclass(frozen=True)
class AttackTarget:
    """What an attack must roll on 3d6, and its terms."""

    total: int
    aimed_area: str
    breakdown: list[tuple[str, int]]


def attack_target(*, attack_stat: int, weapon_ranks: int, defense: int,
                  range_size_modifier: int = 0, aiming_bonus: int = 0, gm_modifier: int = 0,
                  suppression: bool = False, aimed_area: str = "whole_body") -> AttackTarget:
    """Compute an attack's target number on 3d6, term by term.

    ``attack_stat`` is ACC or MEL after armour penalties; ``defense`` is the target's Defense
    total. Suppression fire's −5 takes the place of any aiming bonus.

    Article: "Combat", Attacks and the summary list; "Cover", "Aiming"; RULINGS.md sections 5, 6.
    """
    stat = _int("Attack stat", attack_stat)
    foundation = skill_foundation(stat)
    breakdown = [(f"skill foundation of the attack stat {stat} (half, round up, + 2)", foundation),
                 ("weapon skill ranks", _int("Weapon skill ranks", weapon_ranks, 0)),
                 ("target's Defense", -_int("Defense", defense)),
                 ("range / size", _int("Range / size modifier", range_size_modifier))]
    _int("Aiming bonus", aiming_bonus)
    if suppression:
        breakdown.append(("suppression fire (no aiming)", SUPPRESSION_FIRE_MODIFIER))
    else:
        breakdown.append(("aiming", aiming_bonus))
    area_modifier = AIMED_AREA_MODIFIERS[_area(aimed_area)]
    breakdown += [(f"aimed area: {aimed_area.replace('_', ' ')}", area_modifier),
                  ("GM modifier", _int("GM modifier", gm_modifier))]
    return AttackTarget(sum(value for _, value in breakdown), aimed_area, breakdown)


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
    _area(area)
    missed_by = -_int("Margin", margin)
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
                range_size_modifier: int = 0, aiming_bonus: int = 0, gm_modifier: int = 0,
                suppression: bool = False, aimed_area: str = "whole_body",
                cover: bool = False) -> AttackOdds:
    """Return the exact chances of an attack, the miracle rule applied.

    Takes the keyword arguments of ``attack_target`` plus ``cover`` (no near misses).

    Article: "Combat", Attacks (the armour 0–10 chances); RULINGS.md sections 1 and 6.
    """
    target = attack_target(attack_stat=attack_stat, weapon_ranks=weapon_ranks, defense=defense,
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
    if _int("END", endurance) < cost:
        raise RulesError(f"A {attack_kind} attack costs {cost} END and only {endurance} is left: "
                         "rest or skip rounds to recover END first.")
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


def resolve_attack(*, attack_stat: int, weapon_ranks: int, defense: int,
                   range_size_modifier: int = 0, aiming_bonus: int = 0, gm_modifier: int = 0,
                   suppression: bool = False, aimed_area: str = "whole_body",
                   attack_kind: str = "trigger", endurance: int | None = None,
                   cover: bool = False, roll_location: bool = True,
                   chosen_location: str | None = None, rng: random.Random | None = None,
                   ) -> AttackResult:
    """Pay END, roll 3d6 against the attack target, and place the hit.

    With ``endurance`` given, the attack's END is paid first and a combatant short of it
    cannot attack. A hit or near miss then rolls on the hit location table (unless
    ``roll_location`` is False) for the area actually hit; ``chosen_location`` is the
    attacker's pick should the roll be "attacker's choice".

    Article: "Combat" (Attacks, the summary list, near misses), "Hit Location", "Endurance";
    RULINGS.md sections 1 and 6.
    """
    cost = attack_endurance_cost(attack_kind)
    left = None if endurance is None else pay_attack_endurance(endurance=endurance,
                                                               attack_kind=attack_kind)
    target = attack_target(attack_stat=attack_stat, weapon_ranks=weapon_ranks, defense=defense,
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
        d100 = roll_die(100, rng)
        choice = chosen_location if hit_location(area, d100) == "attackers_choice" else None
        location = resolve_location(area, rng, critical_hit=check.critical, d100=d100,
                                    chosen_location=choice)
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
        raise RulesError("Only an attack that landed and has a hit location can deal damage.")
    loc = attack.location
    return Hit(weapon_damage=weapon_damage, armour_rating=armour_rating,
               location_trauma=loc.trauma_bonus, location_shock=loc.shock_bonus,
               trauma_adjustment=attack.trauma_adjustment,
               shock_adjustment=attack.shock_adjustment, no_trauma=attack.no_trauma,
               stat_damage=loc.stat_damage)


# --- Initiative & micro-time ---------------------------------------------------------------
@dataclass(frozen=True)
class Combatant:
    """What initiative needs of a combatant. ``mel`` or ``acc`` per the GM's choice of stat."""

    id: Hashable
    awa: int
    res: int
    mel: int | None = None
    acc: int | None = None
    can_move: bool = True
    surprised: bool = False
    prone: bool = False


_COMBATANT_FIELDS = ("id", "awa", "res", "mel", "acc", "can_move", "surprised", "prone")


def _as_combatant(item: object) -> Combatant:
    if isinstance(item, Combatant):
        return item
    if isinstance(item, Mapping):
        lowered = {str(key).lower(): value for key, value in item.items()}
        values = {name: lowered[name] for name in _COMBATANT_FIELDS if name in lowered}
    else:
        values = {name: getattr(item, name) for name in _COMBATANT_FIELDS if hasattr(item, name)}
    missing = [name for name in ("id", "awa", "res") if name not in values]
    if missing:
        raise RulesError(f"A combatant needs {', '.join(missing)} for initiative.")
    return Combatant(**values)


@dataclass(frozen=True)
class InitiativeEntry:
    """One combatant's initiative, with its terms."""

    id: Hashable
    initiative: int
    d6: int
    awa_rank: int
    combat_rank: int
    res: int
    breakdown: list[tuple[str, int]]


@dataclass(frozen=True)
class InitiativeGroup:
    """Combatants on one initiative value, in declaration order (lowest RES first)."""

    initiative: int
    entries: tuple[InitiativeEntry, ...]

    @property
    def micro_time(self) -> bool:
        """Tell whether this tie enters micro-time (declare in order, resolve together)."""
        return len(self.entries) > 1


@dataclass(frozen=True)
class InitiativeOrder:
    """The round's order: groups from highest initiative to lowest."""

    groups: tuple[InitiativeGroup, ...]

    @property
    def entries(self) -> tuple[InitiativeEntry, ...]:
        """Return every entry, acting order first, declaration order within a tie."""
        return tuple(entry for group in self.groups for entry in group.entries)


def _dense_rank(values: Iterable[int]) -> dict[int, int]:
    return {value: rank for rank, value in enumerate(sorted(set(values)))}


def initiative_order(combatants: Iterable[object], rng: random.Random | None = None, *,
                     combat_stat: str = "MEL") -> InitiativeOrder:
    """Roll initiative for everyone present and sort them into acting order.

    Initiative = d6 + AWA rank (0 for the lowest AWA present, +1 per distinct higher value) +
    MEL rank (0 for the lowest, +2 per distinct higher value; ``combat_stat="ACC"`` ranks by
    ACC instead). A combatant who cannot move has a d6 of 1, a prone one at most 3, and a
    surprised one has initiative 0 with no ranks. Dice are rolled in the order given; ties go
    into micro-time, declaring from lowest RES up (order given breaks an equal RES).

    Article: "Initiative & Surprise", "Time" (Micro-Time); RULINGS.md section 6.
    """
    if combat_stat not in ("MEL", "ACC"):
        raise RulesError("Initiative ranks by MEL, or ACC if the GM prefers.")
    people = [_as_combatant(item) for item in combatants]
    ids = [person.id for person in people]
    if len(set(ids)) != len(ids):
        raise RulesError("Each combatant needs its own id for initiative.")
    combat_values = []
    for person in people:
        value = person.mel if combat_stat == "MEL" else person.acc
        if value is None:
            raise RulesError(f"Combatant {person.id!r} has no {combat_stat} for initiative.")
        combat_values.append(_int(combat_stat, value))
    awa_ranks = _dense_rank(_int("AWA", p.awa) for p in people)
    combat_ranks = _dense_rank(combat_values)

    entries = []
    for person, combat_value in zip(people, combat_values):
        awa_rank, combat_rank = awa_ranks[person.awa], 2 * combat_ranks[combat_value]
        res = _int("RES", person.res)
        if person.surprised:
            entries.append(InitiativeEntry(person.id, 0, 0, 0, 0, res,
                                           [("surprised: no roll, no ranks", 0)]))
            continue
        if not person.can_move:
            d6, die_label = 1, "d6 (cannot move: counts as 1)"
        else:
            rolled = roll_die(6, rng)
            d6 = min(rolled, 3) if person.prone else rolled
            die_label = f"d6 (prone: rolled {rolled}, capped at 3)" if person.prone else "d6"
        breakdown = [(die_label, d6), (f"AWA rank (AWA {person.awa})", awa_rank),
                     (f"{combat_stat} rank ({combat_stat} {combat_value})", combat_rank)]
        entries.append(InitiativeEntry(person.id, d6 + awa_rank + combat_rank, d6, awa_rank,
                                       combat_rank, res, breakdown))

    groups = []
    for value in sorted({entry.initiative for entry in entries}, reverse=True):
        tied = [entry for entry in entries if entry.initiative == value]
        groups.append(InitiativeGroup(value, tuple(sorted(tied, key=lambda entry: entry.res))))
    return InitiativeOrder(tuple(groups))


@dataclass(frozen=True)
class ReactionSave:
    """A NIM save to react inside micro-time, or an automatic reaction."""

    automatic: bool
    modifier: int
    target: int | None
    check: CheckRoll | None
    success: bool
    breakdown: list[tuple[str, int]]


def reaction_save(*, nim: int, milliseconds: Real | str, has_next_initiative: bool = False,
                  gm_modifier: int = 0, rng: random.Random | None = None) -> ReactionSave:
    """Let a target react between trigger pull and impact.

    A target who holds the next initiative reacts automatically; anyone else rolls a NIM
    stat check on 4d6 at the micro-time modifier.

    The modifier comes from ``rulebook.tables.reaction_save_modifier`` (250 ms → −8).

    Article: "Time", Micro-Time; RULINGS.md sections 1 and 5.
    """
    modifier = reaction_save_modifier(milliseconds)
    if has_next_initiative:
        return ReactionSave(True, modifier, None, None, True,
                            [("holds the next initiative: reacts automatically", 0)])
    breakdown = [("NIM", _int("NIM", nim)),
                 (f"micro-time: {milliseconds} ms / 60, rounded, time chart − 10", modifier)]
    if _int("GM modifier", gm_modifier):
        breakdown.append(("GM modifier", gm_modifier))
    target = nim + modifier + gm_modifier
    check = roll_check(target, STAT_CHECK_DICE, rng)
    return ReactionSave(False, modifier, target, check, check.success, breakdown)
