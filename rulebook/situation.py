"""A check's situation: every term the universal tables and the skill rules add to a line's
target, worked out term by term, and what the check's margin means for eventual success.

A line (a stat, a skill, a weapon or a language) already has its target. What the moment adds
comes from:

- "Skill Checks" / "Unproficient": further relevant skills or equipment (+2 each, with ranks)
  and indirectly related ones (+1 each, without);
- "Additional Rules": range against target size and cover, extra time or rushing, aiming, loads,
  assistants; "Tables": delicacy and scaling;
- "Spot/Listen Checks": range and size count, and actively looking adds up to +5.

Readings (docs/rules.md, "The check builder"):

- Delicacy: the task's tolerance, read on the delicacy table, costs its index (1 cm is 0, 1 mm
  is −2; a 5 cm job is +1). Tools that magnify (the scaling table, ×10 per step) bring fine work
  back to hand scale: each scaling step gives back two delicacy rows, the table's own ×10, but
  never makes the task easier than 1 cm work.
- Loads: a character's STR is a weight-table index, its carrying capacity, as a vehicle's STR is
  ("Loads": "Vehicle STR defines their carrying capacity"). A load that counts (balanced half,
  distributed a third, shared among its bearers) heavier than that index costs the difference.
- Assistants: the leader picks who helps; with mixed skill the group reads the column of its
  largest deficit (RULINGS section 5), so the builder takes the best group the leader could pick.
  On a stat check (the party's collective AWA) a point of the stat is a level.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from rulebook import RulesError
from rulebook._numbers import require_int
from rulebook.languages import ACTIVELY_LOOKING_MAX
from rulebook.skills import situational_terms
from rulebook.stats import BreakdownLine
from rulebook.tables import (
    AIMING_CAPS_SECONDS,
    AIMING_CLASS_NAMES,
    LOAD_FACTORS,
    LOAD_KIND_NAMES,
    aiming_bonus,
    as_fraction,
    assistants_bonus,
    delicacy_index,
    load_weight,
    range_size_adjustment,
    scaling_index,
    weight_index,
    weight_kg,
)
from rulebook.words import gettext as _
from rulebook.words import gettext_noop

#: The stat a spot or listen check rests on.
SPOT_STAT = "AWA"
#: Delicacy rows one scaling step gives back (the delicacy table goes ÷10 every two rows).
DELICACY_ROWS_PER_SCALING_STEP = 2
#: Cover and aimed areas lower the size index at most this far (an eye socket is −6).
COVER_MAX = 20


class SituationError(RulesError):
    """A term the rules refuse, naming the input it came from."""

    def __init__(self, message: str, field: str):
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class Situation:
    """What the moment adds to a check; every field is optional.

    Times are multiples (``time_taken`` of ``normal_time``); distances in metres; weights in kg;
    ``delicacy_m`` is the tolerance in metres; ``scaling`` the tools' magnification (×10 is 10).
    ``assistants`` lists each assistant's ranks in the skill (their stat, on a stat check).
    """

    modifier: int = 0
    relevant: int = 0
    indirect: int = 0
    time_taken: Fraction | None = None
    normal_time: Fraction = Fraction(1)
    aim_seconds: Fraction | None = None
    range_m: Fraction | None = None
    size_index: int = 0
    cover: int = 0
    looking: int = 0
    delicacy_m: Fraction | None = None
    scaling: Fraction | None = None
    load_kg: Fraction | None = None
    load_kind: str = "unbalanced"
    bearers: int = 1
    assistants: tuple[int, ...] = field(default_factory=tuple)

    def given(self) -> dict:
        """The fields that differ from an empty situation, as plain JSON values (for the feed)."""
        out = {}
        for name, default in _DEFAULTS.items():
            value = getattr(self, name)
            if value != default:
                out[name] = (list(value) if isinstance(value, tuple) else
                             str(value) if isinstance(value, Fraction) else value)
        return out


_DEFAULTS = {name: getattr(Situation(), name) for name in Situation.__dataclass_fields__}


@dataclass(frozen=True)
class LineFacts:
    """What the situation needs to know about the line it is applied to."""

    kind: str  # "stat", "skill", "weapon" or "language"
    proficient: bool = True
    stat: str = ""  # the stat the line rests on ("AWA" for a spot check)
    level: int = 0  # the leader's ranks (a stat check: the stat) for assistants
    strength: int | None = None  # the character's STR, for loads
    aiming: str = ""  # a weapon's aiming class


def best_assistance(leader: int, assistants: tuple[int, ...] | list[int]) -> tuple[int, list[BreakdownLine]]:
    """The most the assistants can add to a leader at ``leader`` levels (ranks, or a stat).

    Each assistant is ``leader − level`` levels below (as skilled or better reads as one below,
    the table's best column). A group reads the column of its largest deficit (RULINGS
    section 5), so the best group is found by trying each deficit with everyone within it.
    """
    leader = require_int(leader, gettext_noop("The leader's level"))
    deficits = sorted(max(leader - require_int(a, gettext_noop("An assistant's ranks"), minimum=0), 1)
                      for a in assistants)
    best, lines = 0, []
    for deficit in sorted(set(deficits)):
        count = sum(1 for d in deficits if d <= deficit)
        bonus = assistants_bonus(count, deficit)
        if bonus > best:
            best = bonus
            lines = [(_("%(count)s assistant(s), at most %(deficit)s level(s) below the leader's %(leader)s "
                        "(assistants table)") % {"count": count, "deficit": deficit, "leader": leader}, bonus)]
    if not lines:
        lines = [(_("%(count)s assistant(s): too few or too far below the leader's %(leader)s to help")
                  % {"count": len(deficits), "leader": leader}, 0)]
    return best, lines


def _fraction(value, what: str, name: str, *, positive: bool = False) -> Fraction:
    """A number of 0 or more (above 0 if ``positive``); ``what`` (marked for the catalogue) names it."""
    try:
        amount = as_fraction(value)
    except (TypeError, ValueError, ZeroDivisionError):
        raise SituationError(_("%(what)s is a number.") % {"what": _(what)}, name) from None
    if amount < 0 or (positive and amount == 0):
        message = _("%(what)s must be above 0.") if positive else _("%(what)s must be at least 0.")
        raise SituationError(message % {"what": _(what)}, name)
    return amount


def situation_terms(situation: Situation, line: LineFacts) -> list[BreakdownLine]:
    """Every term ``situation`` adds to the check of ``line``, in the order the GM reads them.

    Raises:
        SituationError: a term that does not fit this kind of check, or a bad number.
    """
    s = situation
    # A related language adds +2 as a further relevant skill does ("In-game language usage").
    kind = "skill" if line.kind == "language" else line.kind
    if s.time_taken is not None and s.aim_seconds is not None:
        raise SituationError(_("Aiming is a weapon's own use of the time chart: give the aim or the extra "
                               "time, not both."), "aim_seconds")
    try:
        terms = situational_terms(kind=kind, proficient=line.proficient, relevant=s.relevant,
                                  indirect=s.indirect, time_taken=s.time_taken, normal_time=s.normal_time)
    except RulesError as exc:
        name = ("relevant" if s.relevant and (kind == "stat" or not line.proficient) else
                "indirect" if s.indirect and (kind == "stat" or line.proficient) else "time_taken")
        raise SituationError(str(exc), name) from None

    if s.aim_seconds is not None:
        if line.kind != "weapon" or line.aiming not in AIMING_CAPS_SECONDS:
            raise SituationError(_("Aiming helps a weapon's check; take extra time on any other task."),
                                 "aim_seconds")
        seconds = _fraction(s.aim_seconds, gettext_noop("The time spent aiming"), "aim_seconds")
        terms.append((_("aimed %(seconds)s s (%(aiming)s, at most %(cap)s s count)")
                      % {"seconds": f"{float(seconds):g}", "aiming": _(AIMING_CLASS_NAMES[line.aiming]),
                         "cap": AIMING_CAPS_SECONDS[line.aiming]}, aiming_bonus(seconds, line.aiming)))

    if s.range_m is not None:
        metres = _fraction(s.range_m, gettext_noop("The range in metres"), "range_m", positive=True)
        size = require_size(s.size_index)
        cover = s.cover
        if isinstance(cover, bool) or not isinstance(cover, int) or not 0 <= cover <= COVER_MAX:
            raise SituationError(_("Cover is a whole number of size steps from 0 to %(max)s.") % {"max": COVER_MAX},
                                 "cover")
        adjustment = range_size_adjustment(metres, size - cover)
        said = {"metres": f"{float(metres):g}", "size": f"{size:+d}", "cover": cover}
        label = (_("range %(metres)s m against size index %(size)s, cover −%(cover)s") if cover
                 else _("range %(metres)s m against size index %(size)s")) % said
        terms.append((label, adjustment.modifier))
    elif s.cover or s.size_index:
        raise SituationError(_("Size and cover count against a range: give the range in metres too."), "range_m")

    if s.looking:
        looking = s.looking
        if isinstance(looking, bool) or not isinstance(looking, int) or not 0 <= looking <= ACTIVELY_LOOKING_MAX:
            raise SituationError(_("Actively looking adds 0 to +%(max)s.") % {"max": ACTIVELY_LOOKING_MAX}, "looking")
        if not (line.kind == "stat" and line.stat == SPOT_STAT):
            raise SituationError(_("Actively looking helps a spot or listen check: an AWA check."), "looking")
        terms.append((_("actively looking out for it"), looking))

    if s.delicacy_m is not None:
        tolerance = _fraction(s.delicacy_m, gettext_noop("The tolerance"), "delicacy_m", positive=True)
        try:
            row = delicacy_index(tolerance)
        except RulesError as exc:
            raise SituationError(str(exc), "delicacy_m") from None
        terms.append((_("delicacy: %(tolerance)s tolerance (row %(row)s)")
                      % {"tolerance": _metres(tolerance), "row": row}, -row))
        if s.scaling is not None:
            step = _scaling_step(s.scaling)
            given_back = min(DELICACY_ROWS_PER_SCALING_STEP * step, max(row, 0))
            terms.append((_("tools scaling ×%(factor)s (row %(row)s, %(rows)s delicacy rows a row)")
                          % {"factor": f"{float(as_fraction(s.scaling)):g}", "row": step,
                             "rows": DELICACY_ROWS_PER_SCALING_STEP}, given_back))
    elif s.scaling is not None:
        raise SituationError(_("Scaling tools bring a fine tolerance to hand: give the delicacy too."), "delicacy_m")

    if s.load_kg is not None:
        terms.append(load_term(s.load_kg, s.load_kind, s.bearers, line.strength))

    if s.assistants:
        if len(s.assistants) > 200:
            raise SituationError(_("At most 200 assistants."), "assistants")
        try:
            _bonus, lines = best_assistance(line.level, s.assistants)
        except RulesError as exc:
            raise SituationError(str(exc), "assistants") from None
        terms += lines

    if s.modifier:
        terms.append((_("situational modifier"), require_int(s.modifier, gettext_noop("The modifier"))))
    return terms


def require_size(size) -> int:
    if isinstance(size, bool) or not isinstance(size, int) or not -8 <= size <= 25:
        raise SituationError(_("The target size is an index of the size table, from −8 to 25 (0 is 1 m², "
                               "a standing human)."), "size_index")
    return size


def _scaling_step(factor) -> int:
    try:
        return scaling_index(_fraction(factor, gettext_noop("The scaling"), "scaling", positive=True))
    except SituationError:
        raise
    except RulesError as exc:
        raise SituationError(str(exc), "scaling") from None


def load_term(kg, kind: str, bearers: int, strength: int | None) -> BreakdownLine:
    """The load's term: what it counts as, against the bearer's STR read as a weight index."""
    if strength is None:
        raise SituationError(_("A load counts against a character's STR: roll from a character."), "load_kg")
    if kind not in LOAD_FACTORS:
        raise SituationError(_("A load is %(kinds)s.") % {"kinds": ", ".join(LOAD_FACTORS)}, "load_kind")
    if isinstance(bearers, bool) or not isinstance(bearers, int) or not 1 <= bearers <= 100:
        raise SituationError(_("A load has 1 to 100 bearers."), "bearers")
    weight = load_weight(_fraction(kg, gettext_noop("The load in kg"), "load_kg", positive=True), kind, bearers=bearers)
    index = weight_index(weight)
    over = max(index - strength, 0)
    said = {"kg": f"{float(as_fraction(kg)):g}", "kind": _(LOAD_KIND_NAMES[kind]), "bearers": bearers,
            "weight": f"{float(weight):.3g}", "row": index, "str": strength}
    if bearers > 1:
        label = _("%(kg)s kg %(kind)s load, shared by %(bearers)s: counts %(weight)s kg (weight row %(row)s) "
                  "against STR %(str)s") % said
    else:
        label = _("%(kg)s kg %(kind)s load: counts %(weight)s kg (weight row %(row)s) against STR %(str)s") % said
    return (label, -over)


def shared_load_term(kg, kind: str, strengths: Mapping[str, int], bearers: int | None = None) -> BreakdownLine:
    """A load a group shares: each bearer carries the load divided among them, and the group
    moves only as fast and as far as its most heavily burdened member ("Loads"): the term of the
    bearer whose STR the share exceeds most, named. ``bearers`` defaults to everyone in ``strengths``."""
    if not strengths:
        raise SituationError(_("A shared load needs its bearers."), "bearers")
    count = len(strengths) if bearers in (None, 1) else bearers
    terms = {name: load_term(kg, kind, count, strength) for name, strength in strengths.items()}
    slowest = min(terms, key=lambda name: (terms[name][1], name))
    label, value = terms[slowest]
    return (_("%(load)s; %(name)s, the most burdened, sets the group's pace") % {"load": label, "name": slowest}, value)


def carrying_capacity_kg(strength: int) -> Fraction:
    """What a STR carries before a load costs anything: its row of the weight table."""
    return weight_kg(require_int(strength, "STR"))


def _metres(value: Fraction) -> str:
    if value >= 1:
        return f"{float(value):g} m"
    if value >= Fraction(1, 100):
        return f"{float(value * 100):g} cm"
    if value >= Fraction(1, 1000):
        return f"{float(value * 1000):g} mm"
    if value >= Fraction(1, 10**6):
        return f"{float(value * 10**6):g} µm"
    return f"{float(value * 10**9):g} nm"
