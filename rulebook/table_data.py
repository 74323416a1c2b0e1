"""The universal index tables as data: every printed row with its example text.

Article: "Table Summary" and "Tables" (weight, distance, target size, range adjustment,
aiming/extra time, delicacy, scaling, assistants). RULINGS.md section 5. The look-ups that read
these rows, and carry each table on past its last row, are in rulebook.tables.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from rulebook.words import gettext_noop

# Every text people read here (a table's title, unit, base, progression and notes; a row's label)
# is marked for the catalogue and kept in English: the pages translate it where they show it.


# --- Table records ------------------------------------------------------------------------
@dataclass(frozen=True)
class Row:
    """One table row. ``derived`` marks a value the article does not print (see the docs).

    ``label`` is in English, marked for the catalogue: translated where shown.
    """

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
    """Rows from (index, value, label); a value is exact, written as a number or a fraction ("1/20")."""
    return tuple(Row(i, Fraction(v), label, i in derived) for i, v, label in data)


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


def _times(x: Fraction) -> str:
    return f"×{int(x):,}" if x.denominator == 1 else f"×{float(x):g}"


TIME_ROWS = (Row(TIME_CHART_MIN_INDEX, Fraction(0), gettext_noop("less than ×0.1")),) + tuple(
    Row(i, m, _times(m) + ("+" if i == TIME_CHART_LAST_LISTED else "")) for i, m in TIME_CHART.items()
)


# --- Weight and distance -------------------------------------------------------------------
_WEIGHT_GAPS = frozenset({*range(-23, -11), -10, -9})
WEIGHT_ROWS = _rows((
    (-24, "1.5", gettext_noop("pistol and holster; two grenades; 4 loaves of bread")),
    (-23, "1.6", ""),
    (-22, "1.7", ""),
    (-21, "1.9", ""),
    (-20, "2.0", ""),
    (-19, "2.2", ""),
    (-18, "2.4", ""),
    (-17, "2.5", ""),
    (-16, "2.7", ""),
    (-15, "3.0", ""),
    (-14, "3.2", ""),
    (-13, "3.4", ""),
    (-12, "3.7", ""),
    (-11, "4", gettext_noop("rifle; lightweight sleeping bag")),
    (-10, "4.3", ""),
    (-9, "4.6", ""),
    (-8, "5", gettext_noop("pickaxe; riding saddle")),
    (-7, "6", gettext_noop("portable astronomy telescope")),
    (-6, "6.5", gettext_noop("heavy sleeping bag")),
    (-5, "7", gettext_noop("folding cot (cloth and aluminium)")),
    (-4, "8", gettext_noop("shot-put; baby")),
    (-3, "8.7", gettext_noop("arctic sleeping bag; wide-band radio receiver")),
    (-2, "9.6", gettext_noop("large baby")),
    (-1, "10.5", gettext_noop("typical overnight bag; portable TV set")),
    (0, "12", gettext_noop("aluminium 12′ ladder; M-60 light machine gun")),
    (1, "13", gettext_noop("25-gallon barrel of water; western saddle; bicycle")),
    (2, "14", gettext_noop("heavy overnight bag; small wood-and-canvas folding table; 1-man tent")),
    (3, "15", gettext_noop("large metal toolbox; a man-length of light rope")),
    (4, "17", gettext_noop("block and tackle")),
    (5, "18.5", gettext_noop("encyclopedia set")),
    (6, "20", gettext_noop("small child; chainsaw; 2-man canvas tent")),
    (7, "22.5", gettext_noop("small missile; goat")),
    (8, "25", gettext_noop("full suitcase; small TV")),
    (9, "27", gettext_noop("4-man canvas tent")),
    (10, "30", gettext_noop("movie camera")),
    (11, "33", ""),
    (12, "36", ""),
    (13, "40", gettext_noop("child")),
    (14, "45", gettext_noop("small sack of mail")),
    (15, "50", gettext_noop("older child")),
    (16, "55", ""),
    (17, "60", gettext_noop("early teen")),
    (18, "66", ""),
    (19, "72", ""),
    (20, "80", gettext_noop("teenager; slightly built adult")),
    (21, "88", ""),
    (22, "100", gettext_noop("healthy large adult")),
    (23, "110", gettext_noop("overweight or large adult")),
    (24, "120", ""),
    (25, "132", ""),
    (26, "144", ""),
    (27, "160", ""),
    (28, "175", ""),
    (29, "200", gettext_noop("piano")),
    (30, "220", ""),
    (31, "240", ""),
    (32, "265", ""),
    (33, "290", ""),
    (34, "320", ""),
    (35, "350", ""),
    (36, "400", gettext_noop("large motorcycle")),
    (37, "440", ""),
), _WEIGHT_GAPS)

DISTANCE_ROWS = _rows((
    (-8, "0.16", gettext_noop("pistol barrel; female hand")),
    (-7, "0.2", gettext_noop("male hand and wrist")),
    (-6, "0.25", "1′"),
    (-5, "0.32", ""),
    (-4, "0.4", gettext_noop("forearm and hand")),
    (-3, "0.5", gettext_noop("forearm, hand, pistol barrel")),
    (-2, "0.64", "~2′"),
    (-1, "0.8", gettext_noop("arm's length")),
    (0, "1", "3′"),
    (1, "1.3", "~4.25′"),
    (2, "1.6", "~5.25′"),
    (3, "2", gettext_noop("3 normal steps")),
    (4, "2.5", "~8′"),
    (5, "3.2", "~10.5′"),
    (6, "4", gettext_noop("13.1′; about the length of a small car")),
    (7, "5", gettext_noop("~1.5 small cars; ~10 s walking slowly (2 km/h)")),
    (8, "6.4", gettext_noop("~21′; length of a semitrailer")),
    (9, "8", "~26′"),
    (10, "10", "~33′"),
    (11, "13", gettext_noop("~42.5′; ~0.5 s at 60 mph; ~10 s walking at normal pace (4 km/h)")),
    (12, "16", gettext_noop("~52′; ~0.5 s at 75 mph or 1 s at 35 mph; ~10 s walking briskly (6 km/h)")),
    (13, "20", ">65′"),
    (14, "25", gettext_noop("railway carriage; ~82′; 0.93 s at 60 mph")),
    (15, "32", gettext_noop("~105′; ~2 s at 35 mph; ~1 min walking slowly (2 km/h)")),
    (16, "40", gettext_noop("~130′; 1.2 s at 75 mph")),
    (17, "50", "164′"),
    (18, "65", gettext_noop("~213′; 2.4 s at 60 mph; ~1 min walking at normal pace (4 km/h)")),
    (19, "80", gettext_noop("~262.5′; 2.4 s at 75 mph")),
    (20, "100", gettext_noop("328′; 1 min walking briskly (6 km/h)")),
    (21, "130", "426.5′"),
    (22, "160", "525′"),
    (23, "200", ">655′"),
    (24, "250", gettext_noop("~820′; about 1 city block")),
    (25, "320", gettext_noop("1050′ (0.2 miles); ~1 s at Mach 1")),
    (26, "400", gettext_noop("¼ mile")),
    (27, "500", gettext_noop("0.31 miles")),
    (28, "650", gettext_noop("0.4 miles; ~1 s at Mach 2")),
    (29, "800", gettext_noop("½ mile")),
    (30, "1000", gettext_noop("0.6 miles; 1 s at Mach 3")),
    (31, "1300", gettext_noop("0.8 miles; 1 s at Mach 4")),
    (32, "1600", gettext_noop("1 mile; 1 min at 60 mph or 1 s at Mach 5")),
    (33, "2000", gettext_noop("1.25 miles")),
    (34, "2500", gettext_noop("1.55 miles; ~1.25 min at 75 mph or 7.33 s at Mach 1")),
    (35, "3200", gettext_noop("2 miles")),
    (36, "4000", gettext_noop("2.5 miles; ~6 s at Mach 2")),
    (37, "5000", gettext_noop("3.1 miles; 2.9 s at Mach 5")),
))


# --- Target size ---------------------------------------------------------------------------
_SIZE_LABELS = (
    gettext_noop("keyhole"), gettext_noop("ring; bull's-eye"), gettext_noop("eye socket"), gettext_noop("finger"),
    gettext_noop("fist"), gettext_noop("open hand or weapon in hand"), gettext_noop("human head and neck"),
    gettext_noop("human head and torso, or aiming for a flesh wound"), gettext_noop("whole human body (1 m²)"),
    gettext_noop("large motorcycle; doorway"), gettext_noop("small car (side view)"), gettext_noop("truck (side view)"),
    gettext_noop("aircraft control cabin"), gettext_noop("fishing trawler; barn door"),
    gettext_noop("locomotive; barn side"), gettext_noop("small train"),
    gettext_noop("large train; freighter (side view); small house"), gettext_noop("large house"),
    gettext_noop("small mansion; lighthouse (1,000 m²)"), gettext_noop("large mansion; Eiffel Tower"),
    gettext_noop("the Pentagon (top view)"), gettext_noop("small skyscraper (side view)"),
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


# --- Range adjustment ----------------------------------------------------------------------
#: The smallest index difference (range − size) that earns each step, as printed (steps 1–10).
RANGE_ADJUSTMENT_THRESHOLDS: tuple[int, ...] = (1, 3, 7, 12, 18, 25, 33, 42, 52, 63)
_RANGE_ADJUSTMENT_LABELS = (
    gettext_noop("−1 to hit"), gettext_noop("−2 to hit"), gettext_noop("−3 to hit"), gettext_noop("−4 to hit"),
    gettext_noop("−5 to hit"), gettext_noop("−6 to hit"), gettext_noop("−7 to hit"), gettext_noop("−8 to hit"),
    gettext_noop("−9 to hit"), gettext_noop("−10 to hit"),
)
RANGE_ADJUSTMENT_ROWS = tuple(
    Row(step, Fraction(threshold), _RANGE_ADJUSTMENT_LABELS[step - 1])
    for step, threshold in enumerate(RANGE_ADJUSTMENT_THRESHOLDS, start=1)
)


# --- Delicacy and scaling ------------------------------------------------------------------
#: Sizes in metres. Rows 14–18 read "Å" the way row 13 defines it (1 nm = 100 Å): see docs.
DELICACY_ROWS = _rows((
    (-2, "1", "1 m"),
    (-1, "1/20", "5 cm"),
    (0, "1/100", gettext_noop("1 cm: a marble; bone thickness")),
    (1, "1/200", gettext_noop("5 mm: ants; seeds")),
    (2, "1/1000", gettext_noop("1 mm: pixel; furniture tolerance")),
    (3, "1/10000", gettext_noop("0.1 mm: human hair; limit of the naked eye")),
    (4, "1/20000", gettext_noop("0.05 mm: a sheet of paper; human skin cell")),
    (5, "1/100000", gettext_noop("0.01 mm: silk fibre; 1971 transistor")),
    (6, "1/200000", gettext_noop("5 µm: cell nucleus; X chromosome; red blood cell")),
    (7, "1/1000000", gettext_noop("1 µm: Y chromosome; clay particle; E. coli")),
    (8, "1/2000000", gettext_noop("500 nm: largest virus; red light 750 nm, violet 400 nm")),
    (9, "1/10000000", gettext_noop("100 nm: HIV; limit of the optical microscope")),
    (10, "1/20000000", gettext_noop("50 nm: hepatitis B virus; infrared wavelength")),
    (11, "1/100000000", gettext_noop("10 nm: 2017 transistors (25 nm)")),
    (12, "1/200000000", gettext_noop("5 nm: cell membrane; DNA")),
    (13, "1/1000000000", gettext_noop('1 nm (printed "= 100 Å"): buckyball')),
    (14, "1/2000000000", gettext_noop("50 Å: glucose molecule; caesium atom")),
    (15, "1/10000000000", gettext_noop("10 Å: carbon atom (34 Å); water molecule (28 Å)")),
    (16, "1/20000000000", gettext_noop("5 Å: limit of the electron microscope")),
    (17, "1/100000000000", gettext_noop("1 Å: hydrogen atom (3.1 Å); helium atom (2.5 Å)")),
    (18, "1/200000000000", "0.5 Å"),
    (19, "1/1000000000000", gettext_noop("1 pm: gamma-ray wavelengths; limit of a gamma-ray microscope")),
    (20, "1/20000000000000", "50 fm"),
    (21, "1/100000000000000", gettext_noop("10 fm: uranium nucleus (15 fm)")),
    (22, "1/200000000000000", gettext_noop("5 fm: helium nucleus (3 fm)")),
    (23, "1/1000000000000000", gettext_noop("1 fm: proton; neutron")),
    (24, "1/2000000000000000", "500 am"),
    (25, "1/10000000000000000", gettext_noop("100 am: the smallest objects known to exist")),
))

SCALING_ROWS = _rows((
    (0, 1, "×1"),
    (1, 10, gettext_noop("×10: magnifying glass, jeweller's loupe; high-quality precision manual tools")),
    (2, 100, gettext_noop("×100: the limit of precision manual tools")),
    (3, 10**3, gettext_noop("×1,000: primitive process-based designer tools; computerised scaling tools")),
    (4, 10**4, gettext_noop("×10k: generation-2 process-based tools; computerised scaling tools")),
    (5, 10**5, gettext_noop("×100k: limit of optical microscopes; generation-3 process-based tools; "
                            "light/laser-based scaling tools")),
    (6, 10**6, gettext_noop("×1M: generation-4 process-based tools; energy-beam scaling tools")),
    (7, 10**7, gettext_noop("×10M: virus-based nanotechnology; generation-5 process-based tools")),
    (8, 10**8, gettext_noop("×100M: true nanomachines; the Nanocar")),
    (9, 10**9, gettext_noop("×1000M: limit of electron microscopes; process-based chemical tools; buckyballs")),
    (10, 10**10, gettext_noop("×10G or more (science fiction only)")),
))


# --- Assistants ----------------------------------------------------------------------------
#: bonus | fewest assistants at skill −1 that earn it | the printed cells, skill −1 to −4.
ASSISTANTS_ROWS = _rows((
    (0, "0", gettext_noop("none @ skill −1; 1 @ skill −2; 2–3 @ skill −3; 4–7 @ skill −4")),
    (1, "1", gettext_noop("1 @ skill −1; 2–3 @ skill −2; 4–7 @ skill −3; 8–12 @ skill −4")),
    (2, "2", gettext_noop("2–3 @ skill −1; 4–7 @ skill −2; 8–12 @ skill −3; 13–18 @ skill −4")),
    (3, "4", gettext_noop("4–7 @ skill −1; 8–12 @ skill −2; 13–18 @ skill −3; 19–25 @ skill −4")),
    (4, "8", gettext_noop("8–12 @ skill −1; 13–18 @ skill −2; 19–25 @ skill −3; 26–33 @ skill −4")),
    (5, "13", gettext_noop("13–18 @ skill −1; 19–25 @ skill −2; 26–33 @ skill −3; 34–42 @ skill −4")),
    (6, "19", gettext_noop("19–25 @ skill −1; 26–33 @ skill −2; 34–42 @ skill −3; 43–52 @ skill −4")),
    (7, "26", gettext_noop("26–33 @ skill −1; 34–42 @ skill −2; 43–52 @ skill −3; 53–63 @ skill −4")),
    (8, "34", gettext_noop("34–42 @ skill −1; 43–52 @ skill −2; 53–63 @ skill −3; 64–75 @ skill −4")),
    (9, "43", gettext_noop("43–52 @ skill −1; 53–63 @ skill −2; 64–75 @ skill −3; 76–88 @ skill −4")),
    (10, "53", gettext_noop("53–63 @ skill −1; 64–75 @ skill −2; 76–88 @ skill −3; 89–102 @ skill −4")),
    (11, "64", gettext_noop("64–75 @ skill −1; 76–88 @ skill −2; 89–102 @ skill −3; 103–117 @ skill −4")),
    (12, "76", gettext_noop("76–88 @ skill −1; 89–102 @ skill −2; 103–117 @ skill −3; 118–133 @ skill −4")),
    (13, "89", gettext_noop("89–102 @ skill −1; 103–117 @ skill −2; 118–133 @ skill −3; 134–150 @ skill −4")),
    (14, "103", gettext_noop("103–117 @ skill −1; 118–133 @ skill −2; 134–150 @ skill −3; 151–168 @ skill −4")),
))


# --- The registry --------------------------------------------------------------------------
TABLES: dict[str, Table] = {
    table.name: table
    for table in (
        Table("weight", gettext_noop("Weight/Load"), "kg", gettext_noop("index 10 = 30 kg"),
              gettext_noop("×2 weight every +7"), WEIGHT_ROWS,
              gettext_noop("Rows −23…−12, −10 and −9 are not printed; they are filled geometrically between the "
                           "printed neighbours and rounded to 0.1 kg.")),
        Table("distance", gettext_noop("Distance/Range"), "m", gettext_noop("index 0 = 1 m"),
              gettext_noop("×10 distance every +10"), DISTANCE_ROWS),
        Table("target_size", gettext_noop("Target Size (at 2 m)"), gettext_noop("m² at 2 m"),
              gettext_noop("index 0 = 1 m² at 2 m; index 10 = 1,000 m²"), gettext_noop("about ×2 area per +1"),
              TARGET_SIZE_ROWS, gettext_noop("Cover and aimed areas lower the index. Areas of rows the article does "
                                             "not size are the nominal 2^index m².")),
        Table("range_adjustment", gettext_noop("Range Adjustment"), gettext_noop("index difference (range − size)"),
              gettext_noop("step 1 at a difference of 1"), gettext_noop("each gap one wider than the last"),
              RANGE_ADJUSTMENT_ROWS, gettext_noop("Value: the smallest difference that earns the step.")),
        Table("time", gettext_noop("Aiming/Extra Time"), gettext_noop("× normal time (aiming: × 1 s)"),
              gettext_noop("index 0 = ×1"), gettext_noop("non-linear; read the chart"), TIME_ROWS),
        Table("delicacy", gettext_noop("Delicacy"), "m", gettext_noop("index 0 = 1 cm"), "÷2 for +1, ÷10 for +2",
              DELICACY_ROWS, gettext_noop("Rows 13–18 use the article's own conversion 1 nm = 100 Å, so 'Å' there is "
                                          "0.01 nm."), descending=True),
        Table("scaling", gettext_noop("Scaling"), gettext_noop("× magnification"), gettext_noop("index 0 = ×1"),
              gettext_noop("×10 per +1"), SCALING_ROWS),
        Table("assistants", gettext_noop("Assistants"), gettext_noop("assistants at skill −1 (fewest for the row)"),
              gettext_noop("0 = none at skill −1"),
              gettext_noop("one row down per further skill level below the leader"),
              ASSISTANTS_ROWS, gettext_noop("Read with assistants_bonus(count, deficit).")),
    )
}
