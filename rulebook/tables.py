"""The universal index tables: the look-ups that read them and the modifiers they give.

Article: "Table Summary", "Tables" (weight, distance, target size, range adjustment,
aiming/extra time, delicacy, scaling, assistants), "Additional Rules" (loads, target size
adjustment, cover, extra time, aiming, assistants), "Micro-Time". RULINGS.md section 5.

Look-up rule everywhere: a value between two rows reads as the row it has reached, i.e. the
largest index whose tabled value is at or below it (for the delicacy table, whose sizes
shrink as the index grows, the largest index whose size is at or above it).

The rows themselves, with the article's example texts, are data in rulebook.table_data.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from fractions import Fraction
from numbers import Real

from rulebook import RulesError
from rulebook._numbers import ceil_div, require_int
from rulebook.table_data import (
    DELICACY_ROWS,
    DISTANCE_ROWS,
    TABLES,
    TIME_CHART,
    TIME_CHART_LAST_LISTED,
    TIME_CHART_MIN_INDEX,
    WEIGHT_ROWS,
    Row,
)
from rulebook.words import gettext as _
from rulebook.words import gettext_noop


def as_fraction(value: Real | str) -> Fraction:
    """Convert a number to an exact Fraction; floats go through their shortest repr (0.6 → 3/5)."""
    if isinstance(value, float):
        return Fraction(repr(value))
    return Fraction(value)


def _amount(value: object, what: str, *, positive: bool = True) -> Fraction:
    """A number of 0 or more (more than 0 if ``positive``); ``what`` (marked for the catalogue)
    names it in a refusal."""
    try:
        amount = as_fraction(value)  # type: ignore[arg-type]
    except (TypeError, ValueError, ZeroDivisionError):
        raise RulesError(_("%(what)s must be a number, not %(value)s.")
                         % {"what": _(what), "value": repr(value)}) from None
    if amount < 0 or (positive and amount == 0):
        message = (_("%(what)s must be more than 0, not %(value)s.") if positive
                   else _("%(what)s must be at least 0, not %(value)s."))
        raise RulesError(message % {"what": _(what), "value": value})
    return amount


# --- Aiming / extra time: the time chart -------------------------------------------------
def time_multiplier(index: int) -> Fraction:
    """Return the time-chart multiplier for ``index`` ("Tables", Aiming/Extra Time).

    Index −6 ("less than ×0.1") and anything lower is a moment: 0. The chart ends at index 13,
    "×10,000+": an index above it reads as that row, ten thousand or more (RULINGS §8; the
    chart is never carried on past its last row).
    """
    if index <= TIME_CHART_MIN_INDEX:
        return Fraction(0)
    return TIME_CHART[min(index, TIME_CHART_LAST_LISTED)]


def time_index(ratio: Real | str) -> int:
    """Return the time-chart index of a ratio: the largest index whose multiplier ≤ ratio.

    "Tables", Aiming/Extra Time. A ratio below ×0.1 is index −6 (RULINGS.md section 5).
    """
    x = _amount(ratio, gettext_noop("A time ratio"), positive=False)
    if x < TIME_CHART[-5]:
        return TIME_CHART_MIN_INDEX
    index = -5
    while index < TIME_CHART_LAST_LISTED and time_multiplier(index + 1) <= x:
        index += 1
    return index


# --- Periodic tables: weight and distance --------------------------------------------------
class _Progression:
    """A table that repeats ×factor every ``period`` indices beyond its rows."""

    def __init__(self, rows: tuple[Row, ...], period: int, factor: int) -> None:
        self.values = {row.index: row.value for row in rows}
        self.low, self.high = min(self.values), max(self.values)
        self.period, self.factor = period, factor
        self._indices = sorted(self.values)
        self._sorted_values = [self.values[i] for i in self._indices]

    def value(self, index: int) -> Fraction:
        if index > self.high:
            periods = ceil_div(index - self.high, self.period)
            return self.values[index - periods * self.period] * self.factor**periods
        if index < self.low:
            periods = ceil_div(self.low - index, self.period)
            return self.values[index + periods * self.period] / self.factor**periods
        return self.values[index]

    def index(self, amount: Fraction) -> int:
        position = bisect_right(self._sorted_values, amount)
        index = self._indices[max(position - 1, 0)]
        # Outside the rows, jump a period at a time, then settle step by step.
        while self.value(index + self.period) <= amount:
            index += self.period
        while self.value(index) > amount:
            index -= self.period
        while self.value(index + 1) <= amount:
            index += 1
        return index


_WEIGHT = _Progression(WEIGHT_ROWS, period=7, factor=2)
_DISTANCE = _Progression(DISTANCE_ROWS, period=10, factor=10)


def weight_kg(index: int) -> Fraction:
    """Return the weight in kg at a weight-table index ("Tables", Weight/Load).

    Beyond the rows the table doubles every 7 steps up and halves every 7 steps down.
    """
    return _WEIGHT.value(require_int(index, gettext_noop("A weight index")))


def weight_index(kg: Real | str) -> int:
    """Return the weight-table index of a weight: the largest index whose weight ≤ it."""
    return _WEIGHT.index(_amount(kg, gettext_noop("A weight in kg")))


def distance_metres(index: int) -> Fraction:
    """Return the distance in metres at a distance-table index ("Tables", Distance/Range).

    Beyond the rows the table goes ×10 every 10 steps up and ÷10 every 10 steps down.
    """
    return _DISTANCE.value(require_int(index, gettext_noop("A distance index")))


def distance_index(metres: Real | str) -> int:
    """Return the distance-table index of a distance: the largest index whose distance ≤ it."""
    return _DISTANCE.index(_amount(metres, gettext_noop("A distance in metres")))


#: Load kinds ("Additional Rules", Loads) → the share of the actual weight that counts.
LOAD_FACTORS: dict[str, Fraction] = {
    "balanced": Fraction(1, 2),
    "unbalanced": Fraction(1),
    "distributed": Fraction(1, 3),
}
#: Each load kind as people read it (marked for the catalogue: translated where shown).
LOAD_KIND_NAMES: dict[str, str] = {"balanced": gettext_noop("balanced"), "unbalanced": gettext_noop("unbalanced"),
                                   "distributed": gettext_noop("distributed")}


def load_weight(kg: Real | str, kind: str, *, bearers: int = 1) -> Fraction:
    """Return the weight a load counts as, per bearer ("Additional Rules", Loads).

    Balanced loads count half their weight, unbalanced ones in full, distributed ones a
    third. A load shared by ``bearers`` people is divided evenly among them.
    """
    if kind not in LOAD_FACTORS:
        raise RulesError(_("Unknown load kind %(kind)s; choose one of %(kinds)s.")
                         % {"kind": repr(kind), "kinds": ", ".join(LOAD_FACTORS)})
    bearers = require_int(bearers, gettext_noop("The number of bearers"))
    if bearers < 1:
        raise RulesError(_("A load needs at least one bearer, not %(bearers)s.") % {"bearers": bearers})
    return _amount(kg, gettext_noop("A load in kg"), positive=False) * LOAD_FACTORS[kind] / bearers


# --- Range, target size, aiming ------------------------------------------------------------
def range_threshold(step: int) -> int:
    """Return the smallest difference that earns range-adjustment ``step`` ("Tables").

    Printed: 1, 3, 7, 12, 18, 25, 33, 42, 52, 63 for steps 1–10. Beyond, each gap grows by
    one (75, 88, 102, …), the rhythm the assistants table shares.
    """
    step = require_int(step, gettext_noop("A range-adjustment step"))
    if step < 0:
        raise RulesError(_("A range-adjustment step cannot be negative (%(step)s).") % {"step": step})
    if step <= 1:
        return step
    return (step + 1) * (step + 2) // 2 - 3


def range_adjustment_step(difference: int) -> int:
    """Return the range-adjustment step for an index difference (RULINGS.md section 5).

    The largest step whose threshold is at or below the difference; 0 for no difference.
    """
    difference = require_int(difference, gettext_noop("A range difference"))
    if difference < 0:
        raise RulesError(_("A range difference cannot be negative (%(difference)s).") % {"difference": difference})
    step = 0
    while range_threshold(step + 1) <= difference:
        step += 1
    return step


@dataclass(frozen=True)
class RangeSizeAdjustment:
    """The range-versus-size modifier to hit, with its terms."""

    modifier: int
    breakdown: list[tuple[str, object]]


#: The distance-table index at which the target-size table is defined (2 m).
SIZE_TABLE_DISTANCE_INDEX = 3


def range_size_adjustment(range_m: Real | str, size_index: int) -> RangeSizeAdjustment:
    """Return the range/size modifier with its breakdown ("Additional Rules", Target Size).

    The range index is the distance index less 3 (2 m reads as 0). When it exceeds the size
    index (cover and aimed areas included), the range-adjustment step for the difference is
    a penalty; otherwise the difference is a bonus (RULINGS.md section 5).
    """
    size_index = require_int(size_index, gettext_noop("A target size index"))
    distance = distance_index(range_m)
    range_index = distance - SIZE_TABLE_DISTANCE_INDEX
    lines: list[tuple[str, object]] = [
        (_("distance index"), distance),
        (_("range index (distance index − 3)"), range_index),
        (_("target size index"), size_index),
    ]
    if range_index > size_index:
        difference = range_index - size_index
        modifier = -range_adjustment_step(difference)
        lines += [(_("range exceeds size by"), difference), (_("range adjustment"), modifier)]
    else:
        modifier = size_index - range_index
        lines += [(_("size exceeds range by"), modifier)]
    lines.append((_("modifier"), modifier))
    return RangeSizeAdjustment(modifier, lines)


def range_size_modifier(range_m: Real | str, size_index: int) -> int:
    """Return the range/size modifier to hit ("Additional Rules", Target Size Adjustment)."""
    return range_size_adjustment(range_m, size_index).modifier


#: Longest aim that still helps, in seconds, by weapon class ("Additional Rules", Aiming).
AIMING_CAPS_SECONDS: dict[str, int] = {"pistol": 2, "rifle": 10, "sniper": 600}
#: Each weapon class as people read it (marked for the catalogue: translated where shown).
AIMING_CLASS_NAMES: dict[str, str] = {"pistol": gettext_noop("pistol"), "rifle": gettext_noop("rifle"),
                                      "sniper": gettext_noop("sniper")}

#: Pointing roughly at the target and firing ("Additional Rules", Extra Time Spent/Rushing).
SUPPRESSION_FIRE_MODIFIER = -5


def aiming_bonus(seconds: Real | str, weapon_class: str) -> int:
    """Return the to-hit modifier for time spent aiming ("Additional Rules", Aiming).

    The aim time, capped for the weapon class (pistol 2 s, rifle 10 s, sniper 10 min), is
    read on the time chart as a multiple of 1 s: 1 s is +0, 2 s +2, 10 s +4, 10 min +9.
    """
    if weapon_class not in AIMING_CAPS_SECONDS:
        raise RulesError(
            _("Unknown weapon class %(class)s; choose one of %(classes)s.")
            % {"class": repr(weapon_class), "classes": ", ".join(AIMING_CAPS_SECONDS)}
        )
    aimed = _amount(seconds, gettext_noop("Aiming time in seconds"), positive=False)
    return time_index(min(aimed, AIMING_CAPS_SECONDS[weapon_class]))


def extra_time_modifier(actual: Real | str, normal: Real | str) -> int:
    """Return the modifier for taking extra time or rushing a task ("Additional Rules").

    The time-chart index of actual ÷ normal time: double time +2, half time −3.
    """
    taken = _amount(actual, gettext_noop("The time taken"), positive=False)
    ratio = taken / _amount(normal, gettext_noop("The normal time"))
    return time_index(ratio)


def reaction_save_modifier(milliseconds: Real | str) -> int:
    """Return the NIM-save modifier for reacting within ``milliseconds`` ("Micro-Time").

    Milliseconds ÷ 60, rounded half up, read on the time chart, less 10 (RULINGS.md
    section 5): 250 ms → ×4 → +2 → −8; 1000 ms → ×17 → +4 → −6.
    """
    ratio = _amount(milliseconds, gettext_noop("A reaction time in ms"), positive=False) / 60
    rounded = int(ratio + Fraction(1, 2))  # round half up: the article's "round off"
    return time_index(rounded) - 10


# --- Assistants ----------------------------------------------------------------------------
def _assistant_level(count: int) -> int:
    """Row of the skill −1 column holding ``count``: the smallest level whose top ≥ count."""
    level = 0
    while range_threshold(level) < count:
        level += 1
    return level


def assistants_bonus(count: int, deficit: int) -> int:
    """Return the bonus from ``count`` assistants ``deficit`` skill levels below the leader.

    "Additional Rules", Assistants, and RULINGS.md section 5. Each further level of deficit
    drops one row; too few assistants for row 0 give nothing. With mixed skills pass the
    largest deficit. Assistants as skilled as the leader (deficit 0) read as deficit 1.
    """
    count = require_int(count, gettext_noop("The number of assistants"))
    deficit = require_int(deficit, gettext_noop("The assistants' skill deficit"))
    if count < 0 or deficit < 0:
        raise RulesError(_("Assistants and their skill deficit cannot be negative."))
    return max(_assistant_level(count) - (max(deficit, 1) - 1), 0)


# --- Delicacy and scaling ------------------------------------------------------------------
_DELICACY = {row.index: row.value for row in DELICACY_ROWS}


def delicacy_metres(index: int) -> Fraction:
    """Return the tolerance in metres at a delicacy index ("Tables", Delicacy).

    Finer than row 25 the table keeps its rhythm (÷2, then ÷10 every two steps); coarser
    than row −2 (1 m) there is nothing delicate left to rate.
    """
    index = require_int(index, gettext_noop("A delicacy index"))
    if index < -2:
        raise RulesError(_("The delicacy table starts at index −2 (1 m), not %(index)s.") % {"index": index})
    if index > 25:
        return delicacy_metres(index - 2) / 10
    return _DELICACY[index]


def delicacy_index(metres: Real | str) -> int:
    """Return the delicacy index of a tolerance: the finest row it reaches ("Tables").

    The largest index whose size is at or above the tolerance; 1 m or more is index −2.
    """
    size = _amount(metres, gettext_noop("A tolerance in metres"))
    index = -2
    while delicacy_metres(index + 1) >= size:
        index += 1
    return index


def scaling_index(factor: Real | str) -> int:
    """Return the scaling index of a magnification ("Tables", Scaling): ×10 per step.

    The largest index whose factor is at or below it; ×10G and beyond are all index 10.
    """
    amount = _amount(factor, gettext_noop("A scaling factor"))
    if amount < 1:
        raise RulesError(_("A scaling factor is a magnification of ×1 or more, not ×%(factor)s.") % {"factor": factor})
    index = 0
    while index < 10 and 10 ** (index + 1) <= amount:
        index += 1
    return index


# --- Look-up by name ----------------------------------------------------------------------
def _assistants_fewest(bonus: int) -> Fraction:
    bonus = require_int(bonus, gettext_noop("An assistants row"))
    if bonus < 0:
        raise RulesError(_("The assistants table starts at row 0, not %(row)s.") % {"row": bonus})
    return Fraction(range_threshold(bonus - 1) + 1 if bonus else 0)


#: name → (index → value, value → index) where a look-up can run past the printed rows.
_CALCULATORS = {
    "weight": (weight_kg, weight_index),
    "distance": (distance_metres, distance_index),
    "time": (time_multiplier, time_index),
    "delicacy": (delicacy_metres, delicacy_index),
    "range_adjustment": (range_threshold, range_adjustment_step),
    "assistants": (_assistants_fewest, lambda count: assistants_bonus(count, 1)),
    "scaling": (None, scaling_index),
}


def lookup(name: str, *, index: int | None = None, value: Real | str | None = None) -> Row:
    """Return the row of table ``name`` at ``index``, or the row a ``value`` reads as.

    "Tables": give exactly one of ``index`` and ``value``. A value between rows reads as
    the largest index whose value is at or below it (delicacy: at or above it). Indices
    past the printed rows follow the table's progression where it has one; such rows come
    back with an empty label and ``derived`` set.

    Args:
        name: one of the keys of ``TABLES``.
        index: the row wanted.
        value: an amount in the table's unit (kg, m, ratio, count, …) to read as a row.

    Raises:
        RulesError: an unknown table, both or neither of index and value, or a row the
            table does not have.
    """
    table = TABLES.get(name)
    if table is None:
        raise RulesError(_("Unknown table %(table)s; choose one of %(tables)s.")
                         % {"table": repr(name), "tables": ", ".join(TABLES)})
    if (index is None) == (value is None):
        raise RulesError(_("Look a table up by index or by value: give exactly one."))
    to_value, to_index = _CALCULATORS.get(name, (None, None))
    title = _(table.title)
    if value is not None:
        if to_index is None:
            amount = _amount(value, _("A %(table)s value") % {"table": title})
            reached = [row for row in table.rows if row.value <= amount]
            if not reached:
                raise RulesError(_("%(value)s is below the first row of the %(table)s table.")
                                 % {"value": value, "table": title})
            return reached[-1]
        index = to_index(value)
    index = require_int(index, _("A %(table)s index") % {"table": title})
    row = table.row(index)
    if row is not None:
        return row
    if to_value is None:
        raise RulesError(_("The %(table)s table has no row %(index)s.") % {"table": title, "index": index})
    return Row(index, Fraction(to_value(index)), "", derived=True)
