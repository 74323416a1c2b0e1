"""Initiative and micro-time: who acts first in a round, and reacting inside a moment.

Article: "Initiative & Surprise", "Time" (Micro-Time). RULINGS.md sections 1, 5 and 6.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from numbers import Real

from rulebook import RulesError
from rulebook._numbers import require_int
from rulebook.dice import CheckRoll, roll_check, roll_die
from rulebook.stats import STAT_CHECK_DICE
from rulebook.tables import reaction_save_modifier
from rulebook.words import gettext as _
from rulebook.words import gettext_noop


# --- Initiative ------------------------------------------------------------------------------
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
        raise RulesError(_("A combatant needs %(missing)s for initiative.") % {"missing": ", ".join(missing)})
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
        raise RulesError(_("Initiative ranks by MEL, or ACC if the GM prefers."))
    people = [_as_combatant(item) for item in combatants]
    ids = [person.id for person in people]
    if len(set(ids)) != len(ids):
        raise RulesError(_("Each combatant needs its own id for initiative."))
    combat_values = []
    for person in people:
        value = person.mel if combat_stat == "MEL" else person.acc
        if value is None:
            raise RulesError(_("Combatant %(id)s has no %(stat)s for initiative.")
                             % {"id": repr(person.id), "stat": combat_stat})
        combat_values.append(require_int(value, combat_stat))
    awa_ranks = _dense_rank(require_int(p.awa, "AWA") for p in people)
    combat_ranks = _dense_rank(combat_values)

    entries = []
    for person, combat_value in zip(people, combat_values):
        awa_rank, combat_rank = awa_ranks[person.awa], 2 * combat_ranks[combat_value]
        res = require_int(person.res, "RES")
        if person.surprised:
            entries.append(InitiativeEntry(person.id, 0, 0, 0, 0, res,
                                           [(_("surprised: no roll, no ranks"), 0)]))
            continue
        if not person.can_move:
            d6, die_label = 1, _("d6 (cannot move: counts as 1)")
        else:
            rolled = roll_die(6, rng)
            d6 = min(rolled, 3) if person.prone else rolled
            die_label = _("d6 (prone: rolled %(rolled)s, capped at 3)") % {"rolled": rolled} if person.prone else "d6"
        breakdown = [(die_label, d6), (_("AWA rank (AWA %(awa)s)") % {"awa": person.awa}, awa_rank),
                     (_("%(stat)s rank (%(stat)s %(value)s)") % {"stat": combat_stat, "value": combat_value},
                      combat_rank)]
        entries.append(InitiativeEntry(person.id, d6 + awa_rank + combat_rank, d6, awa_rank,
                                       combat_rank, res, breakdown))

    groups = []
    for value in sorted({entry.initiative for entry in entries}, reverse=True):
        tied = [entry for entry in entries if entry.initiative == value]
        groups.append(InitiativeGroup(value, tuple(sorted(tied, key=lambda entry: entry.res))))
    return InitiativeOrder(tuple(groups))


# --- Micro-time ------------------------------------------------------------------------------
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
                            [(_("holds the next initiative: reacts automatically"), 0)])
    breakdown = [("NIM", require_int(nim, "NIM")),
                 (_("micro-time: %(ms)s ms / 60, rounded, time chart − 10") % {"ms": milliseconds}, modifier)]
    if require_int(gm_modifier, gettext_noop("GM modifier")):
        breakdown.append((_("GM modifier"), gm_modifier))
    target = nim + modifier + gm_modifier
    check = roll_check(target, STAT_CHECK_DICE, rng)
    return ReactionSave(False, modifier, target, check, check.success, breakdown)
