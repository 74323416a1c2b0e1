"""The universal index tables: data with their example texts, and look-ups.

Article: "Table Summary", "Tables" (weight, distance, target size, range adjustment,
aiming/extra time, delicacy, scaling, assistants), "Additional Rules" (loads, target size
adjustment, cover, extra time, aiming, assistants), "Micro-Time". RULINGS.md section 5.

Look-up rule everywhere: a value between two rows reads as the row it has reached, i.e. the
largest index whose tabled value is at or below it (for the delicacy table, whose sizes
shrink as the index grows, the largest index whose size is at or above it).

Most of the module is the article's tables as data, kept beside the look-ups that read them.
"""

from __future__ import annotations

import operator
from bisect import bisect_right
from dataclasses import dataclass, field
from fractions import Fraction
from numbers import Real

from rulebook import RulesError


def as_fraction(value: Real | str) -> Fraction:
    """Convert a number to an exact Fraction; floats go through their shortest repr (0.6 → 3/5)."""
    if isinstance(value, float):
        return Fraction(repr(value))
    return Fraction(value)


def _amount(value: object, what: str, *, positive: bool = True) -> Fraction:
    try:
        amount = as_fraction(value)  # type: ignore[arg-type]
    except (TypeError, ValueError, ZeroDivisionError):
        raise RulesError(f"{what} must be a number, not {value!r}.") from None
    if amount < 0 or (positive and amount == 0):
        raise RulesError(f"{what} must be {'more than' if positive else 'at least'} 0, not {value}.")
    return amount


def _whole(value: object, what: str) -> int:
    try:
        return operator.index(value)
    except TypeError:
        raise RulesError(f"{what} must be a whole number, not {value!r}.") from None


# --- Table records ------------------------------------------------------------------------
@dataclass(frozen=True)
class Row:
    """One table row. ``derived`` marks a value the article does not print (see the docs)."""

    index: int
    value: Fraction
    label: str = ""
    derived: bool = False


@dataclass(frozen=True)
class Table:
    """A universal table as served to the app: title, unit, base value, progression, rows."""

    name: str
    title: str
    unit: str
    base: str
    progression: str
    rows: tuple[Row, ...]
    notes: str = ""
    descending: bool = False
    _by_index: dict[int, Row] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._by_index.update((row.index, row) for row in self.rows)

    def row(self, index: int) -> Row | None:
        """Return the printed (or filled) row at ``index``, or None."""
        return self._by_index.get(index)


def _rows(data: tuple[tuple, ...], derived: frozenset[int] = frozenset()) -> tuple[Row, ...]:
    return tuple(Row(i, as_fraction(v), label, i in derived) for i, v, label in data)


def _sized(text: str) -> tuple[tuple[int, Fraction, str], ...]:
    """Parse 'index|value|label' lines (the long tables read better as text)."""
    out = []
    for line in text.strip().splitlines():
        index, value, label = (part.strip() for part in line.split("|"))
        out.append((int(index), Fraction(value), label))
    return tuple(out)


# --- Aiming / extra time: the time chart -------------------------------------------------
#: index → multiplier of the normal time. Index −6 is "less than ×0.1".
TIME_CHART: dict[int, Fraction] = {
    -5: Fraction(1, 10), -4: Fraction(2, 10), -3: Fraction(4, 10), -2: Fraction(6, 10),
    -1: Fraction(75, 100), 0: Fraction(1), 1: Fraction(3, 2), 2: Fraction(2), 3: Fraction(5),
    4: Fraction(10), 5: Fraction(20), 6: Fraction(50), 7: Fraction(100), 8: Fraction(200),
    9: Fraction(500), 10: Fraction(1000), 11: Fraction(2000), 12: Fraction(5000),
    13: Fraction(10000),
}
TIME_CHART_MIN_INDEX = -6
TIME_CHART_LAST_LISTED = 13


def time_multiplier(index: int) -> Fraction:
    """Return the time-chart multiplier for ``index`` ("Tables", Aiming/Extra Time).

    Index −6 ("less than ×0.1") and anything lower is a moment: 0. Beyond the printed
    ×10,000+ at index 13 the chart goes on in its own 1-2-5 rhythm (14 → ×20,000,
    15 → ×50,000, 16 → ×100,000, …), so a large shock excess still yields a finite time.
    """
    if index <= TIME_CHART_MIN_INDEX:
        return Fraction(0)
    if index <= TIME_CHART_LAST_LISTED:
        return TIME_CHART[index]
    steps = index - TIME_CHART_LAST_LISTED
    decades, rest = divmod(steps, 3)
    return Fraction(10000) * 10**decades * (1, 2, 5)[rest]


def time_index(ratio: Real | str) -> int:
    """Return the time-chart index of a ratio: the largest index whose multiplier ≤ ratio.

    "Tables", Aiming/Extra Time. A ratio below ×0.1 is index −6 (RULINGS.md section 5).
    """
    x = _amount(ratio, "A time ratio", positive=False)
    if x < TIME_CHART[-5]:
        return TIME_CHART_MIN_INDEX
    index = -5
    while time_multiplier(index + 1) <= x:
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
            periods = -(-(index - self.high) // self.period)
            return self.values[index - periods * self.period] * self.factor**periods
        if index < self.low:
            periods = -(-(self.low - index) // self.period)
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


_WEIGHT_GAPS = frozenset({*range(-23, -11), -10, -9})
WEIGHT_ROWS = _rows(_sized("""
-24|1.5|pistol and holster; two grenades; 4 loaves of bread
-23|1.6|
-22|1.7|
-21|1.9|
-20|2.0|
-19|2.2|
-18|2.4|
-17|2.5|
-16|2.7|
-15|3.0|
-14|3.2|
-13|3.4|
-12|3.7|
-11|4|rifle; lightweight sleeping bag
-10|4.3|
-9|4.6|
-8|5|pickaxe; riding saddle
-7|6|portable astronomy telescope
-6|6.5|heavy sleeping bag
-5|7|folding cot (cloth and aluminium)
-4|8|shot-put; baby
-3|8.7|arctic sleeping bag; wide-band radio receiver
-2|9.6|large baby
-1|10.5|typical overnight bag; portable TV set
0|12|aluminium 12′ ladder; M-60 light machine gun
1|13|25-gallon barrel of water; western saddle; bicycle
2|14|heavy overnight bag; small wood-and-canvas folding table; 1-man tent
3|15|large metal toolbox; a man-length of light rope
4|17|block and tackle
5|18.5|encyclopedia set
6|20|small child; chainsaw; 2-man canvas tent
7|22.5|small missile; goat
8|25|full suitcase; small TV
9|27|4-man canvas tent
10|30|movie camera
11|33|
12|36|
13|40|child
14|45|small sack of mail
15|50|older child
16|55|
17|60|early teen
18|66|
19|72|
20|80|teenager; slightly built adult
21|88|
22|100|healthy large adult
23|110|overweight or large adult
24|120|
25|132|
26|144|
27|160|
28|175|
29|200|piano
30|220|
31|240|
32|265|
33|290|
34|320|
35|350|
36|400|large motorcycle
37|440|
"""), _WEIGHT_GAPS)

DISTANCE_ROWS = _rows(_sized("""
-8|0.16|pistol barrel; female hand
-7|0.2|male hand and wrist
-6|0.25|1′
-5|0.32|
-4|0.4|forearm and hand
-3|0.5|forearm, hand, pistol barrel
-2|0.64|~2′
-1|0.8|arm's length
0|1|3′
1|1.3|~4.25′
2|1.6|~5.25′
3|2|3 normal steps
4|2.5|~8′
5|3.2|~10.5′
6|4|13.1′; about the length of a small car
7|5|~1.5 small cars; ~10 s walking slowly (2 km/h)
8|6.4|~21′; length of a semitrailer
9|8|~26′
10|10|~33′
11|13|~42.5′; ~0.5 s at 60 mph; ~10 s walking at normal pace (4 km/h)
12|16|~52′; ~0.5 s at 75 mph or 1 s at 35 mph; ~10 s walking briskly (6 km/h)
13|20|>65′
14|25|railway carriage; ~82′; 0.93 s at 60 mph
15|32|~105′; ~2 s at 35 mph; ~1 min walking slowly (2 km/h)
16|40|~130′; 1.2 s at 75 mph
17|50|164′
18|65|~213′; 2.4 s at 60 mph; ~1 min walking at normal pace (4 km/h)
19|80|~262.5′; 2.4 s at 75 mph
20|100|328′; 1 min walking briskly (6 km/h)
21|130|426.5′
22|160|525′
23|200|>655′
24|250|~820′; about 1 city block
25|320|1050′ (0.2 miles); ~1 s at Mach 1
26|400|¼ mile
27|500|0.31 miles
28|650|0.4 miles; ~1 s at Mach 2
29|800|½ mile
30|1000|0.6 miles; 1 s at Mach 3
31|1300|0.8 miles; 1 s at Mach 4
32|1600|1 mile; 1 min at 60 mph or 1 s at Mach 5
33|2000|1.25 miles
34|2500|1.55 miles; ~1.25 min at 75 mph or 7.33 s at Mach 1
35|3200|2 miles
36|4000|2.5 miles; ~6 s at Mach 2
37|5000|3.1 miles; 2.9 s at Mach 5
"""))

_WEIGHT = _Progression(WEIGHT_ROWS, period=7, factor=2)
_DISTANCE = _Progression(DISTANCE_ROWS, period=10, factor=10)


def weight_kg(index: int) -> Fraction:
    """Return the weight in kg at a weight-table index ("Tables", Weight/Load).

    Beyond the rows the table doubles every 7 steps up and halves every 7 steps down.
    """
    return _WEIGHT.value(_whole(index, "A weight index"))


def weight_index(kg: Real | str) -> int:
    """Return the weight-table index of a weight: the largest index whose weight ≤ it."""
    return _WEIGHT.index(_amount(kg, "A weight in kg"))


def distance_metres(index: int) -> Fraction:
    """Return the distance in metres at a distance-table index ("Tables", Distance/Range).

    Beyond the rows the table goes ×10 every 10 steps up and ÷10 every 10 steps down.
    """
    return _DISTANCE.value(_whole(index, "A distance index"))


def distance_index(metres: Real | str) -> int:
    """Return the distance-table index of a distance: the largest index whose distance ≤ it."""
    return _DISTANCE.index(_amount(metres, "A distance in metres"))


#: Load kinds ("Additional Rules", Loads) → the share of the actual weight that counts.
LOAD_FACTORS: dict[str, Fraction] = {
    "balanced": Fraction(1, 2),
    "unbalanced": Fraction(1),
    "distributed": Fraction(1, 3),
}


def load_weight(kg: Real | str, kind: str, *, bearers: int = 1) -> Fraction:
    """Return the weight a load counts as, per bearer ("Additional Rules", Loads).

    Balanced loads count half their weight, unbalanced ones in full, distributed ones a
    third. A load shared by ``bearers`` people is divided evenly among them.
    """
    if kind not in LOAD_FACTORS:
        raise RulesError(f"Unknown load kind {kind!r}; choose one of {', '.join(LOAD_FACTORS)}.")
    bearers = _whole(bearers, "The number of bearers")
    if bearers < 1:
        raise RulesError(f"A load needs at least one bearer, not {bearers}.")
    return _amount(kg, "A load in kg", positive=False) * LOAD_FACTORS[kind] / bearers


# --- Range, target size, aiming ------------------------------------------------------------
def range_threshold(step: int) -> int:
    """Return the smallest difference that earns range-adjustment ``step`` ("Tables").

    Printed: 1, 3, 7, 12, 18, 25, 33, 42, 52, 63 for steps 1–10. Beyond, each gap grows by
    one (75, 88, 102, …), the rhythm the assistants table shares.
    """
    step = _whole(step, "A range-adjustment step")
    if step < 0:
        raise RulesError(f"A range-adjustment step cannot be negative ({step}).")
    if step <= 1:
        return step
    return (step + 1) * (step + 2) // 2 - 3


def range_adjustment_step(difference: int) -> int:
    """Return the range-adjustment step for an index difference (RULINGS.md section 5).

    The largest step whose threshold is at or below the difference; 0 for no difference.
    """
    difference = _whole(difference, "A range difference")
    if difference < 0:
        raise RulesError(f"A range difference cannot be negative ({difference}).")
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
    size_index = _whole(size_index, "A target size index")
    distance = distance_index(range_m)
    range_index = distance - SIZE_TABLE_DISTANCE_INDEX
    lines: list[tuple[str, object]] = [
        ("distance index", distance),
        ("range index (distance index − 3)", range_index),
        ("target size index", size_index),
    ]
    if range_index > size_index:
        difference = range_index - size_index
        modifier = -range_adjustment_step(difference)
        lines += [("range exceeds size by", difference), ("range adjustment", modifier)]
    else:
        modifier = size_index - range_index
        lines += [("size exceeds range by", modifier)]
    lines.append(("modifier", modifier))
    return RangeSizeAdjustment(modifier, lines)


def range_size_modifier(range_m: Real | str, size_index: int) -> int:
    """Return the range/size modifier to hit ("Additional Rules", Target Size Adjustment)."""
    return range_size_adjustment(range_m, size_index).modifier


#: Longest aim that still helps, in seconds, by weapon class ("Additional Rules", Aiming).
AIMING_CAPS_SECONDS: dict[str, int] = {"pistol": 2, "rifle": 10, "sniper": 600}

#: Pointing roughly at the target and firing ("Additional Rules", Extra Time Spent/Rushing).
SUPPRESSION_FIRE_MODIFIER = -5


def aiming_bonus(seconds: Real | str, weapon_class: str) -> int:
    """Return the to-hit modifier for time spent aiming ("Additional Rules", Aiming).

    The aim time, capped for the weapon class (pistol 2 s, rifle 10 s, sniper 10 min), is
    read on the time chart as a multiple of 1 s: 1 s is +0, 2 s +2, 10 s +4, 10 min +9.
    """
    if weapon_class not in AIMING_CAPS_SECONDS:
        raise RulesError(
            f"Unknown weapon class {weapon_class!r}; choose one of {', '.join(AIMING_CAPS_SECONDS)}."
        )
    aimed = _amount(seconds, "Aiming time in seconds", positive=False)
    return time_index(min(aimed, AIMING_CAPS_SECONDS[weapon_class]))


def extra_time_modifier(actual: Real | str, normal: Real | str) -> int:
    """Return the modifier for taking extra time or rushing a task ("Additional Rules").

    The time-chart index of actual ÷ normal time: double time +2, half time −3.
    """
    ratio = _amount(actual, "The time taken", positive=False) / _amount(normal, "The normal time")
    return time_index(ratio)


def reaction_save_modifier(milliseconds: Real | str) -> int:
    """Return the NIM-save modifier for reacting within ``milliseconds`` ("Micro-Time").

    Milliseconds ÷ 60, rounded half up, read on the time chart, less 10 (RULINGS.md
    section 5): 250 ms → ×4 → +2 → −8; 1000 ms → ×17 → +4 → −6.
    """
    ratio = _amount(milliseconds, "A reaction time in ms", positive=False) / 60
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
    count = _whole(count, "The number of assistants")
    deficit = _whole(deficit, "The assistants' skill deficit")
    if count < 0 or deficit < 0:
        raise RulesError("Assistants and their skill deficit cannot be negative.")
    return max(_assistant_level(count) - (max(deficit, 1) - 1), 0)


def _assistants_rows(last: int = 14) -> tuple[Row, ...]:
    def cell(level: int) -> str:
        if level == 0:
            return "none"
        low, high = range_threshold(level - 1) + 1, range_threshold(level)
        return str(low) if low == high else f"{low}–{high}"

    return tuple(
        Row(bonus, Fraction(0 if bonus == 0 else range_threshold(bonus - 1) + 1),
            "; ".join(f"{cell(bonus + d - 1)} @ skill −{d}" for d in range(1, 5)))
        for bonus in range(last + 1)
    )


# --- Delicacy and scaling ------------------------------------------------------------------
#: Sizes in metres. Rows 14–18 read "Å" the way row 13 defines it (1 nm = 100 Å): see docs.
DELICACY_ROWS = _rows(_sized("""
-2|1|1 m
-1|1/20|5 cm
0|1/100|1 cm: a marble; bone thickness
1|1/200|5 mm: ants; seeds
2|1/1000|1 mm: pixel; furniture tolerance
3|1/10000|0.1 mm: human hair; limit of the naked eye
4|1/20000|0.05 mm: a sheet of paper; human skin cell
5|1/100000|0.01 mm: silk fibre; 1971 transistor
6|1/200000|5 µm: cell nucleus; X chromosome; red blood cell
7|1/1000000|1 µm: Y chromosome; clay particle; E. coli
8|1/2000000|500 nm: largest virus; red light 750 nm, violet 400 nm
9|1/10000000|100 nm: HIV; limit of the optical microscope
10|1/20000000|50 nm: hepatitis B virus; infrared wavelength
11|1/100000000|10 nm: 2017 transistors (25 nm)
12|1/200000000|5 nm: cell membrane; DNA
13|1/1000000000|1 nm (printed "= 100 Å"): buckyball
14|1/2000000000|50 Å: glucose molecule; caesium atom
15|1/10000000000|10 Å: carbon atom (34 Å); water molecule (28 Å)
16|1/20000000000|5 Å: limit of the electron microscope
17|1/100000000000|1 Å: hydrogen atom (3.1 Å); helium atom (2.5 Å)
18|1/200000000000|0.5 Å
19|1/1000000000000|1 pm: gamma-ray wavelengths; limit of a gamma-ray microscope
20|1/20000000000000|50 fm
21|1/100000000000000|10 fm: uranium nucleus (15 fm)
22|1/200000000000000|5 fm: helium nucleus (3 fm)
23|1/1000000000000000|1 fm: proton; neutron
24|1/2000000000000000|500 am
25|1/10000000000000000|100 am: the smallest objects known to exist
"""))
_DELICACY = {row.index: row.value for row in DELICACY_ROWS}


def delicacy_metres(index: int) -> Fraction:
    """Return the tolerance in metres at a delicacy index ("Tables", Delicacy).

    Finer than row 25 the table keeps its rhythm (÷2, then ÷10 every two steps); coarser
    than row −2 (1 m) there is nothing delicate left to rate.
    """
    index = _whole(index, "A delicacy index")
    if index < -2:
        raise RulesError(f"The delicacy table starts at index −2 (1 m), not {index}.")
    if index > 25:
        return delicacy_metres(index - 2) / 10
    return _DELICACY[index]


def delicacy_index(metres: Real | str) -> int:
    """Return the delicacy index of a tolerance: the finest row it reaches ("Tables").

    The largest index whose size is at or above the tolerance; 1 m or more is index −2.
    """
    size = _amount(metres, "A tolerance in metres")
    index = -2
    while delicacy_metres(index + 1) >= size:
        index += 1
    return index


SCALING_ROWS = _rows((
    (0, 1, "×1"),
    (1, 10, "×10: magnifying glass, jeweller's loupe; high-quality precision manual tools"),
    (2, 100, "×100: the limit of precision manual tools"),
    (3, 10**3, "×1,000: primitive process-based designer tools; computerised scaling tools"),
    (4, 10**4, "×10k: generation-2 process-based tools; computerised scaling tools"),
    (5, 10**5, "×100k: limit of optical microscopes; generation-3 process-based tools; "
               "light/laser-based scaling tools"),
    (6, 10**6, "×1M: generation-4 process-based tools; energy-beam scaling tools"),
    (7, 10**7, "×10M: virus-based nanotechnology; generation-5 process-based tools"),
    (8, 10**8, "×100M: true nanomachines; the Nanocar"),
    (9, 10**9, "×1000M: limit of electron microscopes; process-based chemical tools; buckyballs"),
    (10, 10**10, "×10G or more (science fiction only)"),
))


def scaling_index(factor: Real | str) -> int:
    """Return the scaling index of a magnification ("Tables", Scaling): ×10 per step.

    The largest index whose factor is at or below it; ×10G and beyond are all index 10.
    """
    amount = _amount(factor, "A scaling factor")
    if amount < 1:
        raise RulesError(f"A scaling factor is a magnification of ×1 or more, not ×{factor}.")
    index = 0
    while index < 10 and 10 ** (index + 1) <= amount:
        index += 1
    return index


# --- Target size ---------------------------------------------------------------------------
_SIZE_LABELS = (
    "keyhole", "ring; bull's-eye", "eye socket", "finger", "fist", "open hand or weapon in hand",
    "human head and neck", "human head and torso, or aiming for a flesh wound",
    "whole human body (1 m²)", "large motorcycle; doorway", "small car (side view)",
    "truck (side view)", "aircraft control cabin", "fishing trawler; barn door",
    "locomotive; barn side", "small train", "large train; freighter (side view); small house",
    "large house", "small mansion; lighthouse (1,000 m²)", "large mansion; Eiffel Tower",
    "the Pentagon (top view)", "small skyscraper (side view)",
)
#: Areas the article prints (m²); the other rows take the "about ×2 per step" progression.
_SIZE_AREAS = {0: 1, 10: 1000, 14: 12_000, 15: 25_000, 16: 50_000, 17: 10**6, 18: 2 * 10**6,
               19: 4 * 10**6, 20: 8 * 10**6, 21: 15 * 10**6, 22: 30 * 10**6, 23: 60 * 10**6,
               24: 120 * 10**6, 25: 250 * 10**6}
TARGET_SIZE_ROWS = tuple(
    Row(i, Fraction(_SIZE_AREAS.get(i, Fraction(2) ** i)),
        _SIZE_LABELS[i + 8] if i <= 13 else f"{_SIZE_AREAS[i]:,} m²", i not in _SIZE_AREAS)
    for i in range(-8, 26)
)

RANGE_ADJUSTMENT_ROWS = tuple(Row(step, Fraction(range_threshold(step)), f"−{step} to hit")
                              for step in range(1, 11))


def _times(x: Fraction) -> str:
    return f"×{int(x):,}" if x.denominator == 1 else f"×{float(x):g}"


TIME_ROWS = (Row(TIME_CHART_MIN_INDEX, Fraction(0), "less than ×0.1"),) + tuple(
    Row(i, m, _times(m) + ("+" if i == TIME_CHART_LAST_LISTED else "")) for i, m in TIME_CHART.items()
)
ASSISTANTS_ROWS = _assistants_rows()

# --- The registry --------------------------------------------------------------------------
TABLES: dict[str, Table] = {
    table.name: table
    for table in (
        Table("weight", "Weight/Load", "kg", "index 10 = 30 kg", "×2 weight every +7",
              WEIGHT_ROWS, "Rows −23…−12, −10 and −9 are not printed; they are filled "
              "geometrically between the printed neighbours and rounded to 0.1 kg."),
        Table("distance", "Distance/Range", "m", "index 0 = 1 m", "×10 distance every +10",
              DISTANCE_ROWS),
        Table("target_size", "Target Size (at 2 m)", "m² at 2 m",
              "index 0 = 1 m² at 2 m; index 10 = 1,000 m²", "about ×2 area per +1",
              TARGET_SIZE_ROWS, "Cover and aimed areas lower the index. Areas of rows the "
              "article does not size are the nominal 2^index m²."),
        Table("range_adjustment", "Range Adjustment", "index difference (range − size)",
              "step 1 at a difference of 1", "each gap one wider than the last",
              RANGE_ADJUSTMENT_ROWS, "Value: the smallest difference that earns the step."),
        Table("time", "Aiming/Extra Time", "× normal time (aiming: × 1 s)", "index 0 = ×1",
              "non-linear; read the chart", TIME_ROWS),
        Table("delicacy", "Delicacy", "m", "index 0 = 1 cm", "÷2 for +1, ÷10 for +2",
              DELICACY_ROWS, "Rows 13–18 use the article's own conversion 1 nm = 100 Å, so "
              "'Å' there is 0.01 nm.", descending=True),
        Table("scaling", "Scaling", "× magnification", "index 0 = ×1", "×10 per +1",
              SCALING_ROWS),
        Table("assistants", "Assistants", "assistants at skill −1 (fewest for the row)",
              "0 = none at skill −1", "one row down per further skill level below the leader",
              ASSISTANTS_ROWS, "Read with assistants_bonus(count, deficit)."),
    )
}

def _assistants_fewest(bonus: int) -> Fraction:
    bonus = _whole(bonus, "An assistants row")
    if bonus < 0:
        raise RulesError(f"The assistants table starts at row 0, not {bonus}.")
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
        raise RulesError(f"Unknown table {name!r}; choose one of {', '.join(TABLES)}.")
    if (index is None) == (value is None):
        raise RulesError("Look a table up by index or by value: give exactly one.")
    to_value, to_index = _CALCULATORS.get(name, (None, None))
    if value is not None:
        if to_index is None:
            amount = _amount(value, f"A {table.title} value")
            reached = [row for row in table.rows if row.value <= amount]
            if not reached:
                raise RulesError(f"{value} is below the first row of the {table.title} table.")
            return reached[-1]
        index = to_index(value)
    index = _whole(index, f"A {table.title} index")
    row = table.row(index)
    if row is not None:
        return row
    if to_value is None:
        raise RulesError(f"The {table.title} table has no row {index}.")
    return Row(index, Fraction(to_value(index)), "", derived=True)
