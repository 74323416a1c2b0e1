"""The sheets of the four other rule sets: what a character's lines carry, the numbers of the
whole sheet, the resources it spends, and each line's odds at the system's difficulty ladder.

A line is one thing the character rolls (a skill, a trait, an attribute) with the inputs its
system's check takes from the character: ZeroSpace an action value, Success Check a skill
bonus, Rocket House a Trait, Core Rules the KS, US and ES scores. The difficulty is the
table's, so the sheet shows each line's exact chance against every step of the system's
ladder (ZeroSpace's difficulty values, Success Check's target numbers, Rocket House's
difficulty modifiers, Core Rules' thresholds).

A pool is a resource spent one point at a time (``PoolRule``): ZeroSpace's plot points (one
at the start of each session, unspent points are lost, more from the GM) and Success Check's
Edge (up to the sheet's maximum; a short rest gives one back, a long rest all, the GM gives
one for a milestone or a setback) and Rocket House's Strength Effect pool (one bonus Effect per
level of Strength above Average, filled again by every new fight). ``refill`` says what each
way of refilling does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from rulebook import RulesError
from rulebook.systems import core_rules, rocket_house, zerospace
from rulebook.systems.base import Param, ParamError, SystemOdds
from rulebook.words import gettext as _
from rulebook.words import gettext_noop

#: How many lines a sheet holds, and how long a line's name may be.
MAX_LINES = 60
NAME_LENGTH = 60

SPEND, SHORT_REST, LONG_REST, SESSION, AWARD, NEW_FIGHT, BURN = (
    "spend", "short_rest", "long_rest", "session", "award", "new_fight", "burn")
#: What the ledger writes when an undo gives points back or takes them back (no one asks for it).
UNDO = "undo"
#: Each action's label (marked for the catalogue: translated where shown).
ACTIONS = {
    SPEND: gettext_noop("Spend one"),
    SHORT_REST: gettext_noop("Short rest"),
    LONG_REST: gettext_noop("Long rest"),
    SESSION: gettext_noop("New session"),
    AWARD: gettext_noop("GM's award (+1)"),
    NEW_FIGHT: gettext_noop("New fight"),
    BURN: gettext_noop("Edge Burn"),
}
#: Each action inside a sentence: its label in lower case, in English as ``ACTIONS[action].lower()``.
_ACTION_PHRASES = {
    SPEND: gettext_noop("spend one"),
    SHORT_REST: gettext_noop("short rest"),
    LONG_REST: gettext_noop("long rest"),
    SESSION: gettext_noop("new session"),
    AWARD: gettext_noop("gm's award (+1)"),
    NEW_FIGHT: gettext_noop("new fight"),
    BURN: gettext_noop("edge burn"),
}


def _action_phrase(action: str) -> str:
    return _(_ACTION_PHRASES[action]) if action in _ACTION_PHRASES else action.lower()


@dataclass(frozen=True)
class PoolRule:
    """A resource of a sheet: its name, its maximum (a sheet number, or none) and its refills.

    ``uses`` are what a point buys (the ledger records which); ``refills`` the actions besides
    spending that the system allows, each taken by ``refill``. ``label``, ``help`` and the ``uses``
    (keys of the ledger) are in English, marked for the catalogue: translated where shown.
    """

    key: str
    label: str
    help: str
    maximum: str | None  # the sheet number that caps it; None: no cap
    start: int  # what a new sheet holds (None maximum) — a capped pool starts full
    uses: tuple[str, ...]
    refills: tuple[str, ...]
    derive: Callable[[int], int] | None = None  # the cap from that number (Strength → its levels)


@dataclass(frozen=True)
class SheetSpec:
    """The sheet of one rule set. The ladder's labels and ``line_help`` are in English, marked for
    the catalogue: translated where shown."""

    system: str
    line_params: tuple[str, ...]  # the check inputs each line carries
    difficulty: str  # the check input the ladder sets
    ladder: tuple[tuple[str, int], ...]  # (label, value) from easiest to hardest
    numbers: tuple[Param, ...]  # numbers of the whole sheet
    pools: tuple[PoolRule, ...]
    line_help: str

    @property
    def rests(self) -> tuple[str, ...]:
        """The rests that refill any of the sheet's resources (Success Check's short and long
        rest; none for the others, whose rests the GM gives through the downtime)."""
        return tuple(rest for rest in (SHORT_REST, LONG_REST) if any(rest in pool.refills for pool in self.pools))

    @property
    def rule_set(self):
        from rulebook.systems import SYSTEMS  # the registry imports this module's siblings

        return SYSTEMS[self.system]

    def pool(self, key: str) -> PoolRule:
        for pool in self.pools:
            if pool.key == key:
                return pool
        names = ", ".join(pool.key for pool in self.pools) or _("none")
        raise ParamError("pool", _("Unknown resource %(key)s for %(system)s: use %(keys)s.")
                         % {"key": repr(key), "system": _(self.rule_set.name), "keys": names})

    # --- cleaning -----------------------------------------------------------------------------
    def clean_numbers(self, raw: object) -> dict[str, int]:
        """Check the sheet's numbers; missing ones take their default."""
        if not isinstance(raw, Mapping):
            raise ParamError("numbers", _("Give the sheet's numbers as named values."))
        known = {param.name for param in self.numbers}
        unknown = sorted(str(name) for name in raw if name not in known)
        if unknown:
            raise ParamError("numbers", _("Unknown number %(name)s: use %(names)s.")
                             % {"name": repr(unknown[0]), "names": ", ".join(sorted(known)) or _("none")})
        return {param.name: param.coerce(raw[param.name]) if raw.get(param.name) not in (None, "")
                else param.default for param in self.numbers}

    def clean_lines(self, raw: object) -> list[dict]:
        """Check the lines: each a name and this system's inputs, names unique."""
        if not isinstance(raw, list):
            raise ParamError("lines", _("Give the lines as a list of {name, inputs}."))
        if len(raw) > MAX_LINES:
            raise ParamError("lines", _("A sheet holds at most %(max)s lines.") % {"max": MAX_LINES})
        cleaned, seen = [], set()
        for number, line in enumerate(raw, start=1):
            if not isinstance(line, Mapping) or set(line) - {"name", "inputs"}:
                raise ParamError("lines", _("Line %(number)s: give a name and its inputs.") % {"number": number})
            name = line.get("name")
            if not isinstance(name, str) or not name.strip() or len(name.strip()) > NAME_LENGTH:
                raise ParamError("lines", _("Line %(number)s: a name of 1–%(max)s characters.")
                                 % {"number": number, "max": NAME_LENGTH})
            name = name.strip()
            if name.casefold() in seen:
                raise ParamError("lines", _("Line %(number)s: %(name)s is on the sheet twice.")
                                 % {"number": number, "name": repr(name)})
            seen.add(name.casefold())
            inputs = line.get("inputs")
            if not isinstance(inputs, Mapping) or set(inputs) != set(self.line_params):
                raise ParamError("lines", _("Line %(number)s (%(name)s): give exactly %(inputs)s.")
                                 % {"number": number, "name": name, "inputs": ", ".join(self.line_params)})
            values = {}
            for key in self.line_params:
                try:
                    values[key] = self.rule_set.param_named(key).coerce(inputs[key])
                except ParamError as exc:
                    raise ParamError("lines", _("Line %(number)s (%(name)s): %(error)s")
                                     % {"number": number, "name": name, "error": exc}) from None
            cleaned.append({"name": name, "inputs": values})
        return cleaned

    # --- odds ---------------------------------------------------------------------------------
    def line_odds(self, inputs: Mapping[str, int], rulings: Mapping[str, int] | None = None
                  ) -> tuple[tuple[str, int, SystemOdds], ...]:
        """Return (label, difficulty, odds) for each step of the ladder."""
        return tuple((label, value, self.rule_set.odds(**{**(rulings or {}), **inputs, self.difficulty: value}))
                     for label, value in self.ladder)

    # --- pools --------------------------------------------------------------------------------
    def pool_maximum(self, key: str, numbers: Mapping[str, int]) -> int | None:
        pool = self.pool(key)
        if pool.maximum is None:
            return None
        value = numbers.get(pool.maximum, self.number(pool.maximum).default)
        return pool.derive(value) if pool.derive is not None else value

    def number(self, name: str) -> Param:
        return next(param for param in self.numbers if param.name == name)

    def starting_pools(self, numbers: Mapping[str, int]) -> dict[str, int]:
        return {pool.key: pool.start if pool.maximum is None else self.pool_maximum(pool.key, numbers)
                for pool in self.pools}

    def refill(self, key: str, action: str, current: int, numbers: Mapping[str, int]) -> int:
        """Return the pool after ``action`` (spend, a rest, a new session, an award).

        Raises RulesError when the system does not refill that pool that way, or nothing is
        left to spend.
        """
        pool = self.pool(key)
        maximum = self.pool_maximum(key, numbers)
        if action == BURN:
            raise RulesError(_("An Edge Burn changes the maximum too: see success_check.edge_burn."))
        if action == SPEND:
            if current <= 0:
                raise RulesError(_("No %(pool)s left to spend.") % {"pool": _(pool.label)})
            return current - 1
        if action not in pool.refills:
            allowed = ", ".join(_action_phrase(name) for name in pool.refills)
            raise RulesError(_("%(pool)s is not refilled by a %(action)s in %(system)s: %(allowed)s.")
                             % {"pool": _(pool.label), "action": _action_phrase(action),
                                "system": _(self.rule_set.name), "allowed": allowed})
        if action in (LONG_REST, NEW_FIGHT):
            return maximum
        if action == SHORT_REST:
            return min(maximum, current + 1)
        if action == SESSION:  # plot points: one at the start of each session, the rest lost
            return pool.start
        return current + 1 if maximum is None else min(maximum, current + 1)  # AWARD


PLOT_POINTS = PoolRule(
    key="plot_points", label=gettext_noop("Plot points"),
    help=gettext_noop("One at the start of each session (unspent ones are lost); the GM gives more for a fine "
                      "moment or a setback the player chose. A point buys a bonus die, a boost (+1 to an attribute "
                      "for a round), an inspiration (a hint), a power stunt, a rally (half the lost Endurance back) "
                      "or a retcon."),
    maximum=None, start=1,
    uses=(gettext_noop("bonus die"), gettext_noop("boost"), gettext_noop("inspiration"), gettext_noop("power stunt"),
          gettext_noop("rally"), gettext_noop("retcon")),
    refills=(SESSION, AWARD),
)
EDGE = PoolRule(
    key="edge", label=gettext_noop("Edge"),
    help=gettext_noop("Up to the maximum on the sheet. A point buys Advantage with the die to drop of your "
                      "choice, cancels Disadvantage, adds 1d6 to a damage roll, or lessens an injury by a step. "
                      "A short rest gives one back, a long rest all; the GM gives one for a milestone or a setback."),
    maximum="edge_max", start=0,
    uses=(gettext_noop("advantage"), gettext_noop("cancel disadvantage"), gettext_noop("+1d6 damage"),
          gettext_noop("lessen injury")),
    refills=(SHORT_REST, LONG_REST, AWARD),
)
STRENGTH_EFFECT = PoolRule(
    key="strength_effect", label=gettext_noop("Strength Effect"),
    help=gettext_noop("One bonus Effect per level of Strength above Average, for the whole fight: add points to "
                      "the damage of a melee hit you scored. Every new fight fills it again."),
    maximum="strength", start=0, uses=(gettext_noop("melee damage"),), refills=(NEW_FIGHT,),
    derive=rocket_house.bonus_levels,
)

TOUGHNESS_ARMOUR = PoolRule(
    key="toughness_armour", label=gettext_noop("Toughness armour"),
    help=gettext_noop("Under the Wounds Only rule: one point of armour per level of Toughness above Average, for "
                      "the whole fight, taken off a hit you take. Every new fight fills it again."),
    maximum="toughness", start=0, uses=(gettext_noop("armour"),), refills=(NEW_FIGHT,),
    derive=rocket_house.bonus_levels,
)

SPECS: dict[str, SheetSpec] = {
    "zerospace": SheetSpec(
        system="zerospace", line_params=("av",), difficulty="dv",
        ladder=tuple((level, value) for level, value in zerospace.DIFFICULTY.items() if value is not None),
        numbers=(Param("brawn", gettext_noop("Brawn"), 0, zerospace.MAX_VALUE, default=0),
                 Param("presence", gettext_noop("Presence"), 0, zerospace.MAX_VALUE, default=0),
                 # 001: DV is Brawn in close combat or Agility at range, plus armour; the fight's
                 # blows read it when none is typed (0: not given).
                 Param("dv", gettext_noop("Defence value (DV)"), 0, zerospace.MAX_VALUE, default=0,
                       help=gettext_noop("Brawn (close combat) or Agility (at range), plus armour."))),
        pools=(PLOT_POINTS,),
        line_help=gettext_noop("Action value: the attribute plus the equipment rating (the rating alone when "
                               "unskilled)."),
    ),
    "success_check": SheetSpec(
        system="success_check", line_params=("bonus",), difficulty="tn",
        # "Difficulty levels": Moderate (TN 20) is the default; most checks fall between 15 and 30.
        ladder=((gettext_noop("very easy"), 10), (gettext_noop("easy"), 15), (gettext_noop("moderate"), 20),
                (gettext_noop("challenging"), 25), (gettext_noop("very difficult"), 30),
                (gettext_noop("exceptional"), 35), (gettext_noop("near impossible"), 40)),
        numbers=(Param("strength", gettext_noop("Strength"), 0, 20, default=0),
                 Param("edge_max", gettext_noop("Maximum Edge"), 0, 20, default=3),
                 # The track of injuries is in chapters the text does not give: a ruling, docs/rules.md.
                 Param("health", gettext_noop("Health"), 1, 200, default=30),
                 Param("pt", gettext_noop("Armour PT"), 0, 100, default=0),
                 Param("dr", gettext_noop("Armour DR %"), 0, 100, default=0)),
        pools=(EDGE,),
        line_help=gettext_noop("Skill bonus: the skill's ranks plus its two governing attributes."),
    ),
    "rocket_house": SheetSpec(
        system="rocket_house", line_params=("trait",), difficulty="difficulty",
        ladder=tuple((name, step) for step, name in sorted(rocket_house.DIFFICULTY.items(), reverse=True)),
        numbers=(Param("toughness", gettext_noop("Toughness"), 0, rocket_house.TRAIT_MAX, default=50),
                 Param("strength", gettext_noop("Strength"), 0, rocket_house.TRAIT_MAX, default=50),
                 Param("armour", gettext_noop("Armour"), 0, 20, default=0)),
        pools=(STRENGTH_EFFECT, TOUGHNESS_ARMOUR),
        line_help=gettext_noop("Trait, in percent (50 average, 90 outstanding)."),
    ),
    "core_rules": SheetSpec(
        system="core_rules", line_params=("ks", "us", "es"), difficulty="threshold",
        ladder=tuple((level, core_rules.threshold_for(level)) for level in core_rules.THRESHOLD_LEVELS),
        numbers=(Param("build", gettext_noop("Build"), core_rules.SCORE_MIN, core_rules.SCORE_MAX, default=5),
                 Param("som", gettext_noop("State of Mind"), core_rules.SCORE_MIN, core_rules.SCORE_MAX, default=5),
                 Param("empathy", gettext_noop("Empathy"), core_rules.SCORE_MIN, core_rules.SCORE_MAX, default=5),
                 Param("perception", gettext_noop("Perception"), core_rules.SCORE_MIN, core_rules.SCORE_MAX,
                       default=5),
                 Param("carried", gettext_noop("Carried (kg)"), 0, 1000, default=0)),
        pools=(),
        line_help=gettext_noop("KS (key stat), US (the stat that helps) and ES (the skill, which picks the die)."),
    ),
}
SPECS = MappingProxyType(SPECS)


def spec_for(system: str) -> SheetSpec:
    """Return the sheet of ``system``; Zener Gate's own sheet is the character sheet."""
    try:
        return SPECS[system]
    except KeyError:
        raise ParamError("system", _("%(system)s has no sheet of this kind: use %(systems)s.")
                         % {"system": repr(system), "systems": ", ".join(SPECS)}) from None


def load_threshold_kg(build: int) -> int:
    """Core Rules: the load a character carries without burden, Build × 3 kg."""
    return 3 * core_rules.RULE_SET.param_named("ks").coerce(build)  # Build is a score like KS: 1–10


#: Core Rules V.4: the burden statuses, each up to one more Load Threshold of weight (keys, in
#: English, marked for the catalogue: translated where shown, as is "overloaded").
BURDENS = (gettext_noop("light"), gettext_noop("medium"), gettext_noop("heavy"))


def burden_levels(build: int) -> int:
    """How many burden statuses a Build allows (V.4; its table is not in the text, so a reading:
    Build 1 none, Build 6 all three, one more for every two points of Build in between)."""
    return min(len(BURDENS), core_rules.RULE_SET.param_named("ks").coerce(build) // 2)


def burden(build: int, carried_kg: int) -> tuple[str, int]:
    """Core Rules V.4: the burden status of ``carried_kg`` and the most the Build allows before
    "overloaded" (light up to the Load Threshold, medium up to twice it, heavy three times).

    Build 6 carries up to 54 kg; Build 1 nothing but clothing.
    """
    threshold = load_threshold_kg(build)
    most = threshold * burden_levels(build)
    if carried_kg > most:
        return gettext_noop("overloaded"), most
    return BURDENS[max(0, -(-carried_kg // threshold) - 1)], most


def fatigue_points(toughness: int) -> int:
    """Rocket House: Fatigue points, Toughness / 5."""
    return rocket_house.fatigue_points(toughness)


__all__ = ["ACTIONS", "BURDENS", "SPECS", "PoolRule", "SheetSpec", "burden", "burden_levels", "fatigue_points",
           "load_threshold_kg", "spec_for"]
