"""Hit locations: the d% table by aimed area, its sub-tables and the effects of each body part.

Article: "Hit Location" (Hit Location Table, Hit Location Effects). RULINGS.md section 6.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from rulebook import RulesError
from rulebook.dice import roll_die
from rulebook.words import gettext as _
from rulebook.words import gettext_noop

#: Aimed areas, largest first: the six columns of the hit location table.
AREAS: tuple[str, ...] = ("whole_body", "head_torso", "head_neck", "left_hand", "right_hand", "eye")

#: Locations in the order the article lists its rows.
LOCATIONS: tuple[str, ...] = (
    "skull", "face", "neck", "left_chest", "left_upper_arm", "left_abdomen", "left_forearm",
    "right_chest", "right_upper_arm", "right_abdomen", "right_forearm", "left_leg", "right_leg",
    "attackers_choice",
)

# The rebuilt columns: (first, last, location). d% 100 is the die's "00". A leg marked
# upper_leg_only skips the d12 leg table (the article's "(Upper Leg Only)").
_COLUMN_ROWS: dict[str, tuple[tuple[int, int, str], ...]] = {
    "whole_body": (
        (1, 5, "skull"), (6, 10, "face"), (11, 15, "neck"), (16, 30, "left_chest"),
        (31, 35, "left_upper_arm"), (36, 40, "left_abdomen"), (41, 45, "left_forearm"),
        (46, 60, "right_chest"), (61, 65, "right_upper_arm"), (66, 70, "right_abdomen"),
        (71, 75, "right_forearm"), (76, 85, "left_leg"), (86, 95, "right_leg"),
        (96, 100, "attackers_choice"),
    ),
    "head_torso": (
        (1, 7, "skull"), (8, 14, "face"), (15, 21, "neck"), (22, 35, "left_chest"),
        (36, 42, "left_upper_arm"), (43, 49, "left_abdomen"), (50, 56, "left_forearm"),
        (57, 70, "right_chest"), (71, 77, "right_upper_arm"), (78, 84, "right_forearm"),
        (85, 100, "attackers_choice"),
    ),
    "head_neck": (
        (1, 10, "skull"), (11, 21, "face"), (22, 28, "neck"), (29, 42, "left_chest"),
        (43, 49, "left_upper_arm"), (50, 56, "left_forearm"), (57, 63, "right_chest"),
        (64, 70, "right_upper_arm"), (71, 77, "right_forearm"), (78, 100, "attackers_choice"),
    ),
    "left_hand": (
        (1, 2, "skull"), (3, 5, "face"), (6, 10, "neck"), (11, 20, "left_chest"),
        (21, 30, "left_upper_arm"), (31, 35, "left_abdomen"), (36, 50, "left_forearm"),
        (51, 55, "right_chest"), (56, 60, "right_abdomen"), (61, 70, "right_forearm"),
        (71, 80, "left_leg"), (81, 85, "right_leg"), (86, 100, "attackers_choice"),
    ),
    "right_hand": (
        (1, 2, "skull"), (3, 5, "face"), (6, 10, "neck"), (11, 15, "left_chest"),
        (16, 20, "left_abdomen"), (21, 30, "left_forearm"), (31, 40, "right_chest"),
        (41, 50, "right_upper_arm"), (51, 55, "right_abdomen"), (56, 70, "right_forearm"),
        (71, 75, "left_leg"), (76, 85, "right_leg"), (86, 100, "attackers_choice"),
    ),
    "eye": (
        (1, 15, "skull"), (16, 40, "face"), (41, 55, "neck"), (56, 60, "left_chest"),
        (61, 65, "left_forearm"), (66, 70, "right_chest"), (71, 75, "right_forearm"),
        (76, 100, "attackers_choice"),
    ),
}
_UPPER_LEG_ONLY = {("left_hand", "left_leg"), ("left_hand", "right_leg"),
                   ("right_hand", "left_leg"), ("right_hand", "right_leg")}

# How the breakdowns and messages name areas, locations and body parts (marked for the catalogue,
# translated where shown; in English each is its key with spaces for underscores).
AREA_NAMES: dict[str, str] = {
    "whole_body": gettext_noop("whole body"), "head_torso": gettext_noop("head torso"),
    "head_neck": gettext_noop("head neck"), "left_hand": gettext_noop("left hand"),
    "right_hand": gettext_noop("right hand"), "eye": gettext_noop("eye"),
}
LOCATION_NAMES: dict[str, str] = {
    "skull": gettext_noop("skull"), "face": gettext_noop("face"), "neck": gettext_noop("neck"),
    "left_chest": gettext_noop("left chest"), "left_upper_arm": gettext_noop("left upper arm"),
    "left_abdomen": gettext_noop("left abdomen"), "left_forearm": gettext_noop("left forearm"),
    "right_chest": gettext_noop("right chest"), "right_upper_arm": gettext_noop("right upper arm"),
    "right_abdomen": gettext_noop("right abdomen"), "right_forearm": gettext_noop("right forearm"),
    "left_leg": gettext_noop("left leg"), "right_leg": gettext_noop("right leg"),
    "attackers_choice": gettext_noop("attackers choice"), "eye": gettext_noop("eye"),
}
PART_NAMES: dict[str, str] = {
    "skull": gettext_noop("skull"), "face": gettext_noop("face"), "eye": gettext_noop("eye"),
    "neck": gettext_noop("neck"), "chest": gettext_noop("chest"), "shoulder": gettext_noop("shoulder"),
    "upper_arm": gettext_noop("upper arm"), "elbow": gettext_noop("elbow"), "lower_arm": gettext_noop("lower arm"),
    "hand": gettext_noop("hand"), "abdomen": gettext_noop("abdomen"), "upper_leg": gettext_noop("upper leg"),
    "knee": gettext_noop("knee"), "lower_leg": gettext_noop("lower leg"), "foot": gettext_noop("foot"),
}
#: The limbs that roll a sub-table for their part.
_LIMB_NAMES = {"upper_arm": gettext_noop("upper arm"), "forearm": gettext_noop("forearm"), "leg": gettext_noop("leg")}


@dataclass(frozen=True)
class BodyPart:
    """One row of the effects chart: bonuses and the die that picks the damaged stat."""

    name: str
    shock: int
    trauma: int
    die: int
    rolls: int
    faces: tuple[str, ...]  # faces[i] is the stat named by a roll of i + 1


def _faces(*spans: tuple[int, str]) -> tuple[str, ...]:
    return tuple(stat for count, stat in spans for _ in range(count))


#: The effects chart. A part without shock/trauma bonuses only picks the damaged stat.
BODY_PARTS: dict[str, BodyPart] = {p.name: p for p in (
    BodyPart("skull", 2, 4, 8, 1, _faces((2, "THEO"), (1, "ENC"), (2, "AWA"), (3, "PERS"))),
    BodyPart("face", 4, 2, 5, 1, _faces((2, "CON"), (1, "THEO"), (2, "AWA"))),
    BodyPart("eye", 2, 6, 10, 2, _faces((1, "DEX"), (1, "ACC"), (2, "PRAC"), (2, "THEO"),
                                        (3, "AWA"), (1, "PERS"))),
    BodyPart("neck", 1, 2, 5, 1, _faces((4, "CON"), (1, "RES"))),
    BodyPart("chest", 2, 1, 8, 1, _faces((1, "STR"), (2, "CON"), (2, "RES"), (1, "MEL"),
                                         (2, "END"))),
    BodyPart("shoulder", 0, 0, 4, 1, _faces((2, "STR"), (2, "MEL"))),
    BodyPart("upper_arm", 0, 0, 6, 1, _faces((2, "STR"), (1, "DEX"), (1, "ACC"), (2, "MEL"))),
    BodyPart("elbow", 0, 0, 6, 1, _faces((1, "STR"), (1, "DEX"), (1, "ACC"), (2, "MEL"),
                                         (1, "PRAC"))),
    BodyPart("lower_arm", 0, 0, 6, 1, _faces((1, "STR"), (2, "DEX"), (1, "ACC"), (1, "PRAC"),
                                             (1, "THEO"))),
    BodyPart("hand", 0, 0, 10, 2, _faces((1, "STR"), (3, "DEX"), (2, "ACC"), (2, "MEL"),
                                         (2, "PRAC"))),
    BodyPart("abdomen", 1, 1, 12, 1, _faces((1, "STR"), (4, "CON"), (2, "RES"), (1, "NIM"),
                                            (1, "MEL"), (3, "END"))),
    BodyPart("upper_leg", 0, 0, 5, 1, _faces((1, "STR"), (2, "NIM"), (2, "MEL"))),
    BodyPart("knee", 0, 0, 5, 1, _faces((2, "STR"), (2, "NIM"), (1, "MEL"))),
    BodyPart("lower_leg", 0, 0, 5, 1, _faces((1, "STR"), (3, "NIM"), (1, "MEL"))),
    BodyPart("foot", 0, 0, 5, 1, _faces((3, "NIM"), (2, "MEL"))),
)}

# Sub-tables: (die, faces) where faces[i] is the part for a roll of i + 1.
_ARM_UPPER = (6, _faces((2, "shoulder"), (3, "upper_arm"), (1, "elbow")))
_ARM_LOWER = (6, _faces((5, "lower_arm"), (1, "hand")))
_LEG = (12, _faces((6, "upper_leg"), (1, "knee"), (4, "lower_leg"), (1, "foot")))
_SUB_TABLES = {"upper_arm": _ARM_UPPER, "forearm": _ARM_LOWER, "leg": _LEG}
_FIXED_PARTS = {"skull": "skull", "face": "face", "neck": "neck", "chest": "chest",
                "abdomen": "abdomen", "eye": "eye"}

#: Critical-location chances: (die, highest face that makes the location critical).
#: Skull is always critical; a location not listed never is.
CRITICAL_CHANCES: dict[str, tuple[int, int] | None] = {
    "skull": None, "neck": (6, 1), "left_chest": (12, 3), "right_chest": (6, 1),
    "left_abdomen": (6, 1), "right_abdomen": (6, 1),
}
#: Extra trauma for striking a critical location (RULINGS.md section 6).
CRITICAL_LOCATION_TRAUMA = 2
#: Attack bonus against the same target next round after a critical hit that did no extra damage.
CRITICAL_FOLLOW_UP_BONUS = 2
#: What the attacker takes when the table says "attacker's choice" and they have not chosen.
_DEFAULT_CHOICE = {"eye": ("eye", None), "left_hand": ("left_forearm", "hand"),
                   "right_hand": ("right_forearm", "hand")}


def _split(location: str) -> tuple[str | None, str]:
    """Return (side, kind) of a table location: "left_upper_arm" → ("left", "upper_arm")."""
    for side in ("left", "right"):
        if location.startswith(side + "_"):
            return side, location[len(side) + 1:]
    return None, location


def require_area(area: str) -> str:
    """Return ``area`` if it is one of the six aimed areas, else raise RulesError.

    Article: "Hit Location", the columns of the Hit Location Table (the aimed areas of
    "Additional Rules", Cover).
    """
    if area not in _COLUMN_ROWS:
        raise RulesError(_("Unknown aimed area %(area)s: choose one of %(areas)s.")
                         % {"area": repr(area), "areas": ", ".join(AREAS)})
    return area


def column(area: str) -> tuple[tuple[int, int, str], ...]:
    """Return the rebuilt d% column of an aimed area as (first, last, location) rows.

    Article: "Hit Location", Hit Location Table (column layout rebuilt, see docs/rules.md).
    """
    require_area(area)
    return _COLUMN_ROWS[area]


def hit_location(area: str, d100: int) -> str:
    """Look up the location a d% roll hits in an aimed area's column (100 is the die's "00").

    Article: "Hit Location", Hit Location Table.
    """
    require_area(area)
    if isinstance(d100, bool) or not isinstance(d100, int) or not 1 <= d100 <= 100:
        raise RulesError(_("A d%% roll is 1 to 100 (read 00 as 100), not %(roll)s.") % {"roll": repr(d100)})
    for first, last, location in _COLUMN_ROWS[area]:
        if first <= d100 <= last:
            return location
    raise AssertionError("every column covers 1-100")  # pragma: no cover


def upper_leg_only(area: str, location: str) -> bool:
    """Tell whether a leg hit in this column is fixed to the upper leg ("(Upper Leg Only)").

    Article: "Hit Location", Hit Location Table notes.
    """
    return (area, location) in _UPPER_LEG_ONLY


def attackers_choices(area: str) -> tuple[str, ...]:
    """List what an attacker may pick on "attacker's choice": the column's locations and the eye.

    Article: "Hit Location", the attacker's choice row.
    """
    named = [loc for _, _, loc in column(area) if loc != "attackers_choice"]
    return tuple(dict.fromkeys(named)) + ("eye",)


def rolls_sub_table(area: str, location: str) -> bool:
    """Tell whether a hit on ``location`` rolls a sub-table die (arm d6, leg d12) for its part."""
    _, kind = _split(location)
    return kind in _SUB_TABLES and not upper_leg_only(area, location)


def can_be_critical(location: str) -> bool:
    """Tell whether a location can ever be a critical location.

    Article: "Hit Location", the critical-location notes of the table.
    """
    return location in CRITICAL_CHANCES


@dataclass(frozen=True)
class LocationResult:
    """Where a hit landed and everything the location adds to the damage."""

    area: str
    d100: int
    location: str
    part: str
    side: str | None
    sub_roll: int | None
    upper_leg_only: bool
    attackers_choice: bool
    chosen_by_default: bool
    critical_hit: bool
    critical_location: bool
    critical_location_roll: int | None
    shock_bonus: int
    trauma_bonus: int
    stat_rolls: tuple[tuple[int, str], ...]
    stat_damage: tuple[tuple[str, int], ...]
    next_attack_bonus: int
    breakdown: list[tuple[str, int]]


def _part_of(kind: str, area: str, location: str, chosen_part: str | None,
             rng: random.Random | None) -> tuple[str, int | None, bool]:
    """Return (part, sub-table roll, upper-leg-only) for a location kind."""
    if kind in _FIXED_PARTS:
        if chosen_part not in (None, _FIXED_PARTS[kind]):
            raise RulesError(_("A %(kind)s hit has no part %(part)s to choose.")
                             % {"kind": _(PART_NAMES[kind]), "part": repr(chosen_part)})
        return _FIXED_PARTS[kind], None, False
    fixed_upper = upper_leg_only(area, location)
    die, faces = _SUB_TABLES[kind]
    if chosen_part is not None:
        allowed = ("upper_leg",) if fixed_upper else tuple(dict.fromkeys(faces))
        if chosen_part not in allowed:
            raise RulesError(_("On this %(location)s hit choose one of: %(parts)s.")
                             % {"location": location, "parts": ", ".join(allowed)})
        return chosen_part, None, fixed_upper
    if fixed_upper:
        return "upper_leg", None, True
    roll = roll_die(die, rng)
    return faces[roll - 1], roll, False


def resolve_location(area: str, rng: random.Random | None = None, critical_hit: bool = False,
                     d100: int | None = None, *, chosen_location: str | None = None,
                     chosen_part: str | None = None, sub_rng: random.Random | None = None,
                     sides: int = 100) -> LocationResult:
    """Roll where a hit lands and what the location does to the target.

    Rolls, in this order: d% (unless ``d100`` is given), the location's sub-table die (arm d6,
    leg d12), its critical-location die (neck, chests, abdomen), one die per stat roll of the
    effects chart, then a d3 per stat roll for a critical hit on a critical location.

    On "attacker's choice" the attacker names ``chosen_location`` (a location of this column or
    "eye") and, for a limb, may name ``chosen_part``. The choice counts as a critical location
    whenever that location can be one. Without a choice the eye is taken for the eye area, the
    hand for a hand area and the skull otherwise, and ``chosen_by_default`` says so.

    Article: "Hit Location" (table, sub-tables, effects); RULINGS.md section 6 (stat damage).
    """
    require_area(area)
    if d100 is None:
        d100 = roll_die(100, rng)
    location = hit_location(area, d100)
    die = "d%" if sides == 100 else _("d%(sides)s (the GM's smaller die)") % {"sides": sides}
    column_read = _("%(die)s on the %(area)s column") % {"die": die, "area": _(AREA_NAMES[area])}
    breakdown: list[tuple[str, int]] = [(column_read, d100)]
    by_choice = location == "attackers_choice"
    by_default = False
    if by_choice:
        if chosen_location is None:
            chosen_location, chosen_part = _DEFAULT_CHOICE.get(area, ("skull", None))
            by_default = True
        if chosen_location not in attackers_choices(area):
            choices = ", ".join(attackers_choices(area))
            raise RulesError(_("On attacker's choice pick one of: %(choices)s.") % {"choices": choices})
        location = chosen_location
    elif chosen_location is not None or chosen_part is not None:
        raise RulesError(_("The roll hit the %(location)s: there is no choice to make.")
                         % {"location": _(LOCATION_NAMES[location])})

    side, kind = _split(location)
    part, sub_roll, fixed_upper = _part_of(kind, area, location, chosen_part, sub_rng or rng)
    if sub_roll is not None:
        breakdown.append((_("%(limb)s d%(sides)s → %(part)s")
                          % {"limb": _(_LIMB_NAMES[kind]), "sides": _SUB_TABLES[kind][0], "part": part}, sub_roll))

    critical_roll = None
    if by_choice:
        critical = can_be_critical(location)
    elif location not in CRITICAL_CHANCES:
        critical = False
    elif CRITICAL_CHANCES[location] is None:
        critical = True
    else:
        die, highest = CRITICAL_CHANCES[location]
        critical_roll = roll_die(die, rng)
        critical = critical_roll <= highest
        breakdown.append((_("critical-location d%(sides)s (%(highest)s in %(sides)s)")
                          % {"sides": die, "highest": highest}, critical_roll))

    body = BODY_PARTS[part]
    trauma_bonus = body.trauma + (CRITICAL_LOCATION_TRAUMA if critical else 0)
    part_name = _(PART_NAMES[part])
    breakdown += [(_("%(part)s shock") % {"part": part_name}, body.shock),
                  (_("%(part)s trauma") % {"part": part_name}, body.trauma)]
    if critical:
        breakdown.append((_("critical location trauma"), CRITICAL_LOCATION_TRAUMA))

    stat_rolls, stat_damage = [], []
    for _roll in range(body.rolls):
        face = roll_die(body.die, rng)
        stat_rolls.append((face, body.faces[face - 1]))
        breakdown.append((_("%(part)s d%(sides)s → %(stat)s")
                          % {"part": part_name, "sides": body.die, "stat": body.faces[face - 1]}, face))
    for _face, stat in stat_rolls:
        points = roll_die(3, rng) if critical_hit and critical else 1
        stat_damage.append((stat, points))
        breakdown.append((_("%(stat)s damage") % {"stat": stat}, points))

    # A critical hit that found no critical location did no extra damage: it pays off next round.
    follow_up = CRITICAL_FOLLOW_UP_BONUS if critical_hit and not critical else 0
    return LocationResult(
        area=area, d100=d100, location=location, part=part, side=side, sub_roll=sub_roll,
        upper_leg_only=fixed_upper, attackers_choice=by_choice, chosen_by_default=by_default,
        critical_hit=critical_hit, critical_location=critical, critical_location_roll=critical_roll,
        shock_bonus=body.shock, trauma_bonus=trauma_bonus, stat_rolls=tuple(stat_rolls),
        stat_damage=tuple(stat_damage), next_attack_bonus=follow_up, breakdown=breakdown,
    )


def stat_risk_tally() -> dict[str, int]:
    """Count the effect-die faces naming each stat, a two-roll part counting twice.

    This is the article's "risks by stat" list, recomputed from the effects chart.

    Article: "Hit Location", Hit Location Effects.
    """
    tally: dict[str, int] = {}
    for body in BODY_PARTS.values():
        for stat in body.faces:
            tally[stat] = tally.get(stat, 0) + body.rolls
    return tally


def stat_risks(area: str) -> dict[str, Fraction]:
    """How often a hit aimed at ``area`` damages each stat: the expected number of effect rolls
    naming it per hit, over the area's column, its sub-tables and the effects chart (attacker's
    choice read as its default: the eye for the eye, the hand for a hand, else the skull). What
    a GM choosing a called shot weighs; largest first.

    Article: "Hit Location" (table, sub-tables, effects chart).
    """
    require_area(area)
    risks: dict[str, Fraction] = {}
    for first, last, location in _COLUMN_ROWS[area]:
        share, chosen_part = Fraction(last - first + 1, 100), None
        if location == "attackers_choice":
            location, chosen_part = _DEFAULT_CHOICE.get(area, ("skull", None))
        _, kind = _split(location)
        if kind in _FIXED_PARTS:
            parts = {_FIXED_PARTS[kind]: Fraction(1)}
        elif chosen_part is not None or upper_leg_only(area, location):
            parts = {chosen_part or "upper_leg": Fraction(1)}
        else:
            die, faces = _SUB_TABLES[kind]
            parts = {}
            for part in faces:
                parts[part] = parts.get(part, Fraction(0)) + Fraction(1, die)
        for part, chance in parts.items():
            body = BODY_PARTS[part]
            for stat in body.faces:
                risks[stat] = risks.get(stat, Fraction(0)) + share * chance * body.rolls / len(body.faces)
    return dict(sorted(risks.items(), key=lambda kv: (-kv[1], kv[0])))
