"""Stat-enhancing drugs: a boost for a while, then a price paid in other stats.

Article: "Other Drugs and Medications" (Stimutabs and the rule of thumb for other drugs). A
drug in a character's system is a chain of phases, each a ``DrugEffect``: the boost, then what
follows when it wears off. The readings are in docs/rules.md.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from rulebook import RulesError
from rulebook._numbers import require_int
from rulebook.dice import roll_die
from rulebook.stats import PRIMARY_STATS
from rulebook.words import gettext as _
from rulebook.words import gettext_noop

#: What a phase is: the gain while the drug works, or the loss that follows it.
PHASES: tuple[str, ...] = ("boost", "shakes")
#: Stimutabs: +d3 STR for d3 + 3 hours, 1 END more per use of the boosted STR, then the shakes:
#: d6 + 6 points off NIM, DEX and ACC for 60 × d6 / 4 minutes.
STIMUTABS = "Stimutabs"
STIMUTABS_BOOST_HOURS = 3
STIMUTABS_END_PER_USE = 1
STIMUTABS_SHAKES_DAMAGE = 6
STIMUTABS_SHAKES_STATS: tuple[str, ...] = ("NIM", "DEX", "ACC")
STIMUTABS_SHAKES_MINUTES_PER_PIP = 60 // 4
_KEYS = (
    "name",
    "phase",
    "stat_changes",
    "minutes_left",
    "hidden",
    "end_per_use",
    "next_phase",
    "breakdown",
)


def _clean_changes(changes: object) -> dict[str, int]:
    if not isinstance(changes, Mapping):
        raise RulesError(
            _("A drug's stat changes are a mapping of stat to points, such as %(example)s, not %(changes)s.")
            % {"example": "{'STR': 2}", "changes": repr(changes)}
        )
    clean = {}
    for stat, points in changes.items():
        if stat not in PRIMARY_STATS:
            raise RulesError(
                _("Unknown stat %(stat)s in a drug's stat changes; use one of %(stats)s.")
                % {"stat": repr(stat), "stats": ", ".join(PRIMARY_STATS)}
            )
        require_int(points, _("The drug's change to %(stat)s") % {"stat": stat})
    # Sheet order, so every listing of the changes reads the same way.
    for stat in PRIMARY_STATS:
        if changes.get(stat):
            clean[stat] = int(changes[stat])
    return clean


def _clean_breakdown(breakdown: object) -> list[tuple[str, int]]:
    if isinstance(breakdown, (str, bytes, Mapping)) or not isinstance(breakdown, Iterable):
        raise RulesError(
            _("A drug's breakdown is a list of (label, value) pairs, not %(breakdown)s.")
            % {"breakdown": repr(breakdown)}
        )
    out = []
    for term in breakdown:
        if not isinstance(term, (list, tuple)) or len(term) != 2:
            raise RulesError(_("Each breakdown term is a (label, value) pair, not %(term)s.") % {"term": repr(term)})
        label, value = term
        if not isinstance(label, str):
            raise RulesError(_("A breakdown label is text, not %(label)s.") % {"label": repr(label)})
        out.append((label, require_int(value, _("The breakdown value of %(label)s") % {"label": repr(label)})))
    return out


def format_changes(changes: Mapping[str, int]) -> str:
    """Return stat changes as players read them, e.g. "NIM −3, DEX −2, ACC −2" (sheet order)."""
    return ", ".join(
        f"{stat} {'+' if points > 0 else '−'}{abs(points)}"
        for stat, points in _clean_changes(changes).items()
    )


@dataclass(frozen=True)
class DrugEffect:
    """One phase of a drug in a character's system ("Other Drugs and Medications").

    A GM can write any drug this way; ``take_stimutabs`` builds the article's example.

    Attributes:
        name: The drug, as the players know it ("Stimutabs").
        phase: "boost" while the drug works, "shakes" for the price paid after it.
        stat_changes: Points added to (or, negative, taken from) each stat while the phase
            lasts, by the names of rulebook.stats.PRIMARY_STATS.
        minutes_left: Time until the phase ends.
        hidden: Whether the players may not see ``minutes_left`` (nor the breakdown's
            duration terms); the stat changes are always shown.
        end_per_use: Extra END each time a stat this phase raises is used.
        next_phase: What begins when this phase ends, if anything; it starts at that moment
            and its ``minutes_left`` is its whole duration.
        breakdown: How the phase's numbers came about, term by term.
    """

    name: str
    phase: str
    stat_changes: dict[str, int]
    minutes_left: int
    hidden: bool = False
    end_per_use: int = 0
    next_phase: DrugEffect | None = None
    breakdown: list[tuple[str, int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise RulesError(_("A drug needs a name the players will recognise."))
        if self.phase not in PHASES:
            raise RulesError(
                _("A drug's phase is %(first)s or %(second)s, not %(phase)s.")
                % {"first": repr(PHASES[0]), "second": repr(PHASES[1]), "phase": repr(self.phase)}
            )
        require_int(self.minutes_left, _("%(name)s: the minutes left") % {"name": self.name}, minimum=0)
        if not isinstance(self.hidden, bool):
            raise RulesError(_("%(name)s: 'hidden' is true or false, not %(hidden)s.")
                             % {"name": self.name, "hidden": repr(self.hidden)})
        require_int(self.end_per_use, _("%(name)s: the extra END per use") % {"name": self.name}, minimum=0)
        if self.next_phase is not None and not isinstance(self.next_phase, DrugEffect):
            raise RulesError(
                _("%(name)s: the next phase must be a drug effect, not %(next)s.")
                % {"name": self.name, "next": repr(self.next_phase)}
            )
        set_ = object.__setattr__
        set_(self, "name", self.name.strip())
        set_(self, "stat_changes", _clean_changes(self.stat_changes))
        set_(self, "minutes_left", int(self.minutes_left))
        set_(self, "end_per_use", int(self.end_per_use))
        set_(self, "breakdown", _clean_breakdown(self.breakdown))

    def to_dict(self) -> dict[str, object]:
        """Return the effect as plain JSON values (for a JSON column); ``from_dict`` reverses it."""
        return {
            "name": self.name,
            "phase": self.phase,
            "stat_changes": dict(self.stat_changes),
            "minutes_left": self.minutes_left,
            "hidden": self.hidden,
            "end_per_use": self.end_per_use,
            "next_phase": None if self.next_phase is None else self.next_phase.to_dict(),
            "breakdown": [[label, value] for label, value in self.breakdown],
        }

    @classmethod
    def from_dict(cls, data: object) -> DrugEffect:
        """Rebuild an effect stored with ``to_dict``, refusing anything malformed.

        Raises:
            RulesError: not a mapping, a missing or unknown key, or any value the effect refuses.
        """
        if not isinstance(data, Mapping):
            raise RulesError(_("A stored drug effect is a mapping, not %(data)s.") % {"data": repr(data)})
        missing = [key for key in _KEYS if key not in data]
        unknown = sorted(str(key) for key in data if key not in _KEYS)
        if missing or unknown:
            problems = []
            if missing:
                problems.append(_("missing %(keys)s") % {"keys": ", ".join(missing)})
            if unknown:
                problems.append(_("unknown %(keys)s") % {"keys": ", ".join(unknown)})
            raise RulesError(_("A stored drug effect is malformed: %(problems)s.") % {"problems": "; ".join(problems)})
        following = data["next_phase"]
        return cls(
            name=data["name"],
            phase=data["phase"],
            stat_changes=data["stat_changes"],
            minutes_left=data["minutes_left"],
            hidden=data["hidden"],
            end_per_use=data["end_per_use"],
            next_phase=None if following is None else cls.from_dict(following),
            breakdown=data["breakdown"],
        )


def take_stimutabs(*, rng: random.Random | None = None) -> DrugEffect:
    """Take a dose of Stimutabs ("Other Drugs and Medications", the Stimutabs example).

    +d3 STR for d3 + 3 hours, the players told the bonus but not the time; each use of the
    boosted STR costs 1 END more. When the boost wears off the shakes take d6 + 6 points from
    NIM, DEX and ACC for 60 × d6 / 4 = 15 × d6 minutes.

    *Reading:* "divided evenly" splits the points as evenly as whole points allow, the
    remainder going to NIM first, then DEX: 7 points are NIM −3, DEX −2, ACC −2; 8 are NIM −3,
    DEX −3, ACC −2.

    Dice are rolled in this order: d3 for the STR bonus, d3 for the boost's duration, d6 for
    the shakes' points, d6 for the shakes' duration. Everything is rolled when the dose is
    taken, so dice entered at the table can be given in one go.

    Returns:
        The boost phase, hidden, whose ``next_phase`` is the shakes phase.
    """
    bonus = roll_die(3, rng)
    hours_die = roll_die(3, rng)
    damage_die = roll_die(6, rng)
    shakes_die = roll_die(6, rng)

    hours = hours_die + STIMUTABS_BOOST_HOURS
    damage = damage_die + STIMUTABS_SHAKES_DAMAGE
    even, remainder = divmod(damage, len(STIMUTABS_SHAKES_STATS))
    shares = {
        stat: even + (1 if i < remainder else 0) for i, stat in enumerate(STIMUTABS_SHAKES_STATS)
    }
    shakes_minutes = shakes_die * STIMUTABS_SHAKES_MINUTES_PER_PIP
    shakes = DrugEffect(
        name=STIMUTABS,
        phase="shakes",
        stat_changes={stat: -points for stat, points in shares.items()},
        minutes_left=shakes_minutes,
        breakdown=[
            ("d6", damage_die),
            (_("added to the d6"), STIMUTABS_SHAKES_DAMAGE),
            (_("points off NIM, DEX and ACC"), damage),
            *((_("%(stat)s loss (remainder to NIM, then DEX)") % {"stat": stat}, p) for stat, p in shares.items()),
            (_("d6 for the duration"), shakes_die),
            (_("duration (minutes): 60 × d6 / 4"), shakes_minutes),
        ],
    )
    return DrugEffect(
        name=STIMUTABS,
        phase="boost",
        stat_changes={"STR": bonus},
        minutes_left=hours * 60,
        hidden=True,
        end_per_use=STIMUTABS_END_PER_USE,
        next_phase=shakes,
        breakdown=[
            (_("d3: STR bonus"), bonus),
            (_("extra END per use of the boosted STR"), STIMUTABS_END_PER_USE),
            (_("duration d3 (hidden)"), hours_die),
            (_("duration hours added to the d3 (hidden)"), STIMUTABS_BOOST_HOURS),
            (_("duration (minutes, hidden)"), hours * 60),
        ],
    )


def _require_effects(effects: object) -> tuple[DrugEffect, ...]:
    if isinstance(effects, (str, bytes, Mapping)) or not isinstance(effects, Iterable):
        raise RulesError(_("Give the drug effects as a list, not %(effects)s.") % {"effects": repr(effects)})
    effects = tuple(effects)
    for effect in effects:
        if not isinstance(effect, DrugEffect):
            raise RulesError(_("Not a drug effect: %(effect)s.") % {"effect": repr(effect)})
    return effects


def _wears_off(name: str) -> str:
    # "Stimutabs wear off", "Calmex wears off".
    return (_("%(name)s wear off") if name.endswith("s") else _("%(name)s wears off")) % {"name": name}


def _begins(effect: DrugEffect) -> str:
    changes = format_changes(effect.stat_changes) or _("no stat changes")
    what = _("the shakes begin") if effect.phase == "shakes" else _("a further boost begins")
    when = "" if effect.hidden else " " + _("for %(minutes)s minutes") % {"minutes": effect.minutes_left}
    return f"{what} ({changes}){when}"


def _phase_ends(effect: DrugEffect) -> str:
    following = effect.next_phase
    if effect.phase == "boost":
        text = _wears_off(effect.name)
        return f"{text}: {_begins(following)}" if following else text
    text = _("The shakes from %(name)s are over") % {"name": effect.name}
    return f"{text}; {_begins(following)}" if following else text


def advance_effects(
    effects: tuple[DrugEffect, ...], minutes: int
) -> tuple[tuple[DrugEffect, ...], list[tuple[int, str]]]:
    """Let ``minutes`` pass on every drug in a character's system ("Other Drugs and Medications").

    A phase that runs out gives way to its next phase at that moment, and the minutes left
    over run on in it; a phase with nothing after it is gone. ``minutes`` of 0 settles phases
    that have no time left.

    Returns:
        The effects still in force (in the order given) and a note (minute into the span, text)
        for every phase that ended, in time order.
    """
    effects = _require_effects(effects)
    minutes = require_int(minutes, gettext_noop("The minutes that pass"), minimum=0)
    still, notes = [], []
    for effect in effects:
        now: int = 0
        current: DrugEffect | None = effect
        while current is not None and current.minutes_left <= minutes - now:
            now += current.minutes_left
            notes.append((now, _phase_ends(current)))
            current = current.next_phase
        if current is not None:
            still.append(replace(current, minutes_left=current.minutes_left - (minutes - now)))
    notes.sort(key=lambda note: note[0])
    return tuple(still), notes


def stat_modifiers(effects: tuple[DrugEffect, ...]) -> dict[str, int]:
    """Return the stat changes in force now, summed over all drugs ("Other Drugs and Medications").

    Phases with no time left count as already over (their next phase counts instead).
    Stats come in sheet order; stats with a net change of 0 are left out.
    """
    current, _ = advance_effects(effects, 0)
    totals: dict[str, int] = {}
    for effect in current:
        for stat, points in effect.stat_changes.items():
            totals[stat] = totals.get(stat, 0) + points
    return {stat: totals[stat] for stat in PRIMARY_STATS if totals.get(stat)}


def extra_end_per_use(effects: tuple[DrugEffect, ...], stat: str) -> int:
    """Return the extra END each use of ``stat`` costs now ("Other Drugs and Medications").

    Only phases that raise ``stat`` charge it: using STR boosted by Stimutabs costs 1 END more.
    """
    if stat not in PRIMARY_STATS:
        raise RulesError(_("Unknown stat %(stat)s; use one of %(stats)s.")
                         % {"stat": repr(stat), "stats": ", ".join(PRIMARY_STATS)})
    current, _notes = advance_effects(effects, 0)
    return sum(e.end_per_use for e in current if e.stat_changes.get(stat, 0) > 0)
