"""Every printed row of the universal tables, checked against the article.

The expected rows below are transcribed by hand from the article's "Tables" section (and its
"Table Summary" for the one value a table leaves to it): the index, the value as printed with
its unit, and the words of the row's examples. They are an oracle of their own: nothing here
is read from rulebook.table_data, so a changed row there fails a test here.

Examples are checked by the words that carry each item of the printed example list (the
project words its labels itself, "pickax" as "pickaxe"); a row the article prints without an
example must have none.
"""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from rulebook.table_data import TABLES
from rulebook.tables import (
    delicacy_index,
    delicacy_metres,
    distance_index,
    distance_metres,
    lookup,
    range_adjustment_step,
    range_threshold,
    scaling_index,
    time_index,
    time_multiplier,
    weight_index,
    weight_kg,
)
from rulebook.tests.test_table_data import PRINTED_ASSISTANTS

F = Fraction

#: Units as the article prints them. Its delicacy row 13 reads "1 nm = 100 Angstroms", and
#: rows 14–18 are sized in that Ångström (÷2, ÷10 down the table only works with it).
UNITS = {
    "kg": F(1), "km": F(1000), "m": F(1), "cm": F(1, 100), "mm": F(1, 1000), "µm": F(1, 10**6),
    "nm": F(1, 10**9), "Angstroms": F(1, 10**11), "Angstrom": F(1, 10**11), "picometer": F(1, 10**12),
    "femtometers": F(1, 10**15), "femtometer": F(1, 10**15), "attometers": F(1, 10**18),
    "square m": F(1), "square km": F(10**6),
}


def printed(text: str) -> Fraction:
    """Read a printed quantity ("6.5kg", "1.3 km", "50 Angstroms", "12,000 square m") in base units."""
    number, unit = re.fullmatch(r"([\d.,]+)\s*(.*)", text).groups()
    return F(number.replace(",", "")) * UNITS[unit]


def times(text: str) -> Fraction:
    """Read a printed multiplier: "x 0.75", "x 10,000+", "x10k", "x 1000M", "x 10G or more"."""
    number, suffix = re.fullmatch(r"x\s*([\d.,]+)([kMG]?)(?:\+| or more)?", text).groups()
    return F(number.replace(",", "")) * {"": 1, "k": 10**3, "M": 10**6, "G": 10**9}[suffix]


def assert_examples(label: str, words: tuple[str, ...], *, sized: bool = False) -> None:
    """Each word is in the label; with no words the label has no example (``sized``: only a size)."""
    text = label.lower().replace("’", "'")
    for word in words:
        assert word.lower() in text, (word, label)
    if not words:
        assert (":" not in label) if sized else label == "", label


# --- "Weight/Load Table" ------------------------------------------------------------------
WEIGHT = [
    (-24, "1.5 kg", ("pistol", "holster", "two grenades", "4 loaves of bread")),
    (-11, "4 kg", ("rifle", "lightweight sleeping bag")),
    (-8, "5 kg", ("pickax", "riding saddle")),
    (-7, "6 kg", ("portable astronomy telescope",)),
    (-6, "6.5kg", ("heavy sleeping bag",)),
    (-5, "7 kg", ("folding cot", "cloth", "alumin")),
    (-4, "8 kg", ("shot-put", "baby")),
    (-3, "8.7 kg", ("sleeping bag", "arctic", "wide-band radio receiver")),
    (-2, "9.6 kg", ("large baby",)),
    (-1, "10.5 kg", ("typical overnight bag", "portable tv set")),
    (0, "12 kg", ("12′ ladder", "m-60 light machine gun")),
    (1, "13 kg", ("25", "gallon barrel of water", "western saddle", "bicycle")),
    (2, "14 kg", ("heavy overnight bag", "small wood", "canvas folding table", "1-man tent")),
    (3, "15 kg", ("large metal toolbox", "man-length of light rope")),
    (4, "17 kg", ("block", "tackle")),
    (5, "18.5 kg", ("encyclopedia set",)),
    (6, "20 kg", ("small child", "chainsaw", "2-man canvas tent")),
    (7, "22.5 kg", ("small missile", "goat")),
    (8, "25 kg", ("full suitcase", "small tv")),
    (9, "27 kg", ("4-man canvas tent",)),
    (10, "30 kg", ("movie camera",)),
    (11, "33 kg", ()),
    (12, "36 kg", ()),
    (13, "40 kg", ("child",)),
    (14, "45 kg", ("small sack of mail",)),
    (15, "50 kg", ("older child",)),
    (16, "55 kg", ()),
    (17, "60 kg", ("early teen",)),
    (18, "66 kg", ()),
    (19, "72kg", ()),
    (20, "80 kg", ("teenager", "slightly", "built adult")),
    (21, "88 kg", ()),
    (22, "100 kg", ("healthy large adult",)),
    (23, "110 kg", ("overweight", "large adult")),
    (24, "120 kg", ()),
    (25, "132 kg", ()),
    (26, "144 kg", ()),
    (27, "160 kg", ()),
    (28, "175 kg", ()),
    (29, "200 kg", ("piano",)),
    (30, "220 kg", ()),
    (31, "240 kg", ()),
    (32, "265 kg", ()),
    (33, "290 kg", ()),
    (34, "320 kg", ()),
    (35, "350 kg", ()),
    (36, "400 kg", ("large motorcycle",)),
    (37, "440kg", ()),
]

# --- "Distance/Range Table" -----------------------------------------------------------------
DISTANCE = [
    (-8, "16cm", ("pistol barrel", "female hand")),
    (-7, "20 cm", ("male hand", "wrist")),
    (-6, "25 cm", ("1′",)),
    (-5, "32 cm", ()),
    (-4, "40 cm", ("forearm", "hand")),
    (-3, "50 cm", ("forearm", "hand", "pistol barrel")),
    (-2, "64 cm", ("~2′",)),
    (-1, "80 cm", ("arm's length",)),
    (0, "1m", ("3′",)),
    (1, "1.3m", ("~4.25′",)),
    (2, "1.6m", ("~5.25′",)),
    (3, "2m", ("3 normal steps",)),
    (4, "2.5m", ("~8′",)),
    (5, "3.2m", ("~10.5′",)),
    (6, "4m", ("13.1′", "small car")),
    (7, "5m", ("~1.5 small cars", "10 s", "2 km/h")),
    (8, "6.4m", ("~21′", "semitrailer")),
    (9, "8m", ("~26′",)),
    (10, "10m", ("~33′",)),
    (11, "13m", ("~42.5′", "0.5 s at 60 mph", "10 s", "4 km/h")),
    (12, "16m", ("~52′", "0.5 s at 75 mph", "1 s at 35 mph", "10 s", "6 km/h")),
    (13, "20m", (">65′",)),
    (14, "25m", ("railway carriage", "~82′", "0.93 s at 60 mph")),
    (15, "32m", ("~105′", "2 s at 35 mph", "1 min", "2 km/h")),
    (16, "40m", ("~130′", "1.2 s at 75 mph")),
    (17, "50m", ("164′",)),
    (18, "65m", ("~213′", "2.4 s at 60 mph", "1 min", "4 km/h")),
    (19, "80m", ("~262.5′", "2.4 s at 75 mph")),
    (20, "100m", ("328′", "1 min", "6 km/h")),
    (21, "130m", ("426.5′",)),
    (22, "160m", ("525′",)),
    (23, "200m", (">655′",)),
    (24, "250m", ("~820′", "1 city block")),
    (25, "320m", ("1050′", "0.2 miles", "1 s at mach 1")),
    (26, "400m", ("¼ mile",)),
    (27, "500m", ("0.31 miles",)),
    (28, "650m", ("0.4 miles", "1 s at mach 2")),
    (29, "800m", ("½ mile",)),
    (30, "1 km", ("0.6 miles", "1 s at mach 3")),
    (31, "1.3 km", ("0.8 miles", "1 s at mach 4")),
    (32, "1.6 km", ("1 mile", "1 min at 60 mph", "1 s at mach 5")),
    (33, "2 km", ("1.25 miles",)),
    (34, "2.5km", ("1.55 miles", "1.25 min at 75 mph", "7.33 s at mach 1")),
    (35, "3.2km", ("2 miles",)),
    (36, "4km", ("2.5 miles", "6 s at mach 2")),
    (37, "5km", ("3.1 miles", "2.9 s at mach 5")),
]

# --- "Target Size Table (at 2m)" --------------------------------------------------------------
#: (index, printed area or None, examples). Index 10's area is the "Table Summary"'s
#: "10=1000m² at 2m"; the rows from 14 on print an area and nothing else.
TARGET_SIZE = [
    (-8, None, ("keyhole",)),
    (-7, None, ("ring", "bull")),
    (-6, None, ("eye socket",)),
    (-5, None, ("finger",)),
    (-4, None, ("fist",)),
    (-3, None, ("open hand", "weapon in hand")),
    (-2, None, ("human head and neck",)),
    (-1, None, ("human head and torso", "flesh wound")),
    (0, "1 square m", ("whole human body",)),
    (1, None, ("large motorcycle", "doorway")),
    (2, None, ("small car", "side view")),
    (3, None, ("truck", "side view")),
    (4, None, ("aircraft control cabin",)),
    (5, None, ("fishing trawler", "barn door")),
    (6, None, ("locomotive", "barn side")),
    (7, None, ("small train",)),
    (8, None, ("large train", "freighter", "side view", "small house")),
    (9, None, ("large house",)),
    (10, "1000 square m", ("small mansion", "lighthouse")),
    (11, None, ("large mansion", "eiffel tower")),
    (12, None, ("the pentagon", "top view")),
    (13, None, ("small skyscraper", "side view")),
    (14, "12,000 square m", ()),
    (15, "25,000 square m", ()),
    (16, "50,000 square m", ()),
    (17, "1 square km", ()),
    (18, "2 square km", ()),
    (19, "4 square km", ()),
    (20, "8 square km", ()),
    (21, "15 square km", ()),
    (22, "30 square km", ()),
    (23, "60 square km", ()),
    (24, "120 square km", ()),
    (25, "250 square km", ()),
]

# --- "Range Adjustment" ---------------------------------------------------------------------
RANGE_ADJUSTMENT = [(1, 1), (2, 3), (3, 7), (4, 12), (5, 18), (6, 25), (7, 33), (8, 42), (9, 52), (10, 63)]

# --- "Aiming/Extra Time Table" ----------------------------------------------------------------
TIME = [
    (-6, "< x 0.1"), (-5, "x 0.1"), (-4, "x 0.2"), (-3, "x 0.4"), (-2, "x 0.6"), (-1, "x 0.75"), (0, "x 1"),
    (1, "x 1.5"), (2, "x 2"), (3, "x 5"), (4, "x 10"), (5, "x 20"), (6, "x 50"), (7, "x 100"), (8, "x 200"),
    (9, "x 500"), (10, "x 1,000"), (11, "x 2,000"), (12, "x 5,000"), (13, "x 10,000+"),
]

# --- "Delicacy Table" ---------------------------------------------------------------------------
DELICACY = [
    (-2, "1m", ()),
    (-1, "5 cm", ()),
    (0, "1 cm", ("marble", "bone thickness")),
    (1, "5 mm", ("ants", "seeds")),
    (2, "1 mm", ("pixel", "furniture tolerance")),
    (3, "0.1 mm", ("human hair", "naked eye")),
    (4, "0.05 mm", ("paper", "human skin cell")),
    (5, "0.01 mm", ("silk", "1971 transistor")),
    (6, "5 µm", ("cell nucleus", "x chromosome", "red blood cell")),
    (7, "1 µm", ("y chromosome", "clay particle", "coli")),
    (8, "500 nm", ("largest virus", "750 nm", "red", "400 nm", "violet")),
    (9, "100 nm", ("hiv", "optical microscope")),
    (10, "50 nm", ("hepatitis b virus", "infrared")),
    (11, "10 nm", ("25 nm", "2017 transistors")),
    (12, "5 nm", ("cell membrane", "dna")),
    (13, "1 nm", ("100 å", "buckyball")),
    (14, "50 Angstroms", ("glucose molecule", "atom")),
    (15, "10 Angstroms", ("34 å", "carbon atom", "28 å", "water molecule")),
    (16, "5 Angstroms", ("electron microscope",)),
    (17, "1 Angstrom", ("3.1 å", "hydrogen atom", "2.5 å", "helium atom")),
    (18, "0.5 Angstroms", ()),
    (19, "1 picometer", ("gamma", "wavelengths", "gamma-ray microscope")),
    (20, "50 femtometers", ()),
    (21, "10 femtometers", ("15 fm", "uranium nucleus")),
    (22, "5 femtometers", ("3 fm", "helium nucleus")),
    (23, "1 femtometer", ("proton", "neutron")),
    (24, "500 attometers", ()),
    (25, "100 attometers", ("smallest", "exist")),
]

# --- "Scaling Table" ----------------------------------------------------------------------------
SCALING = [
    (0, "x1", ()),
    (1, "x 10", ("magnifying glass", "loupe", "precision manual tools")),
    (2, "x 100", ("limit", "precision manual tools")),
    (3, "x1000", ("primitive process-based designer tools", "scaling tools")),
    (4, "x10k", ("generation-2 process-based tools", "scaling tools")),
    (5, "x100k", ("optical microscopes", "generation-3 process-based tools", "light/laser-based scaling tools")),
    (6, "x 1M", ("generation-4 process-based tools", "energy-beam")),
    (7, "x 10M", ("virus-based nanotechnology", "generation-5 process-based tools")),
    (8, "x 100M", ("true nanomachines", "nanocar")),
    (9, "x 1000M", ("electron microscopes", "process-based chemical tools", "buckyballs")),
    (10, "x 10G or more", ("or more", "only")),
]


def rows_of(name: str) -> dict:
    return {row.index: row for row in TABLES[name].rows}


def test_the_registry_holds_exactly_the_article_tables():
    """Article, "Tables": weight, distance, target size, range adjustment, aiming/extra time,
    delicacy, scaling and assistants, and no other."""
    assert sorted(TABLES) == sorted(["weight", "distance", "target_size", "range_adjustment", "time", "delicacy",
                                     "scaling", "assistants"])


@pytest.mark.parametrize(("index", "text", "examples"), WEIGHT, ids=[str(r[0]) for r in WEIGHT])
def test_weight_row(index, text, examples):
    """Article, "Tables", Weight/Load Table: the printed row, its examples and the look-up."""
    row = rows_of("weight")[index]
    assert (row.value, row.derived) == (printed(text), False)
    assert_examples(row.label, examples)
    assert weight_kg(index) == printed(text) and weight_index(printed(text)) == index


def test_weight_rows_the_article_does_not_print_are_the_only_derived_ones():
    printed_indices = {index for index, _, _ in WEIGHT}
    rows = rows_of("weight")
    assert set(rows) == set(range(-24, 38))
    assert {i for i, row in rows.items() if row.derived} == set(rows) - printed_indices
    assert all(row.label == "" for i, row in rows.items() if i not in printed_indices)


@pytest.mark.parametrize(("index", "text", "examples"), DISTANCE, ids=[str(r[0]) for r in DISTANCE])
def test_distance_row(index, text, examples):
    """Article, "Tables", Distance/Range Table."""
    row = rows_of("distance")[index]
    assert (row.value, row.derived) == (printed(text), False)
    assert_examples(row.label, examples)
    assert distance_metres(index) == printed(text) and distance_index(printed(text)) == index


def test_distance_has_only_the_printed_rows():
    assert list(rows_of("distance")) == [index for index, _, _ in DISTANCE]


@pytest.mark.parametrize(("index", "area", "examples"), TARGET_SIZE, ids=[str(r[0]) for r in TARGET_SIZE])
def test_target_size_row(index, area, examples):
    """Article, "Tables", Target Size Table (at 2m), and "Table Summary" for index 10's area."""
    row = rows_of("target_size")[index]
    assert row.derived == (area is None)  # an area the article does not print is the project's
    if area is not None:
        assert row.value == printed(area)
        assert lookup("target_size", index=index).value == printed(area)
    if examples:
        assert_examples(row.label, examples)
    else:
        assert row.label == f"{int(printed(area)):,} m²"


def test_target_size_has_only_the_printed_rows():
    assert list(rows_of("target_size")) == [index for index, _, _ in TARGET_SIZE]


@pytest.mark.parametrize(("step", "threshold"), RANGE_ADJUSTMENT)
def test_range_adjustment_row(step, threshold):
    """Article, "Tables", Range Adjustment: the step and the difference that earns it."""
    row = rows_of("range_adjustment")[step]
    assert (row.value, row.derived) == (threshold, False)
    assert range_threshold(step) == threshold
    assert range_adjustment_step(threshold) == step and range_adjustment_step(threshold - 1) == step - 1


def test_range_adjustment_has_only_the_printed_rows():
    assert list(rows_of("range_adjustment")) == [step for step, _ in RANGE_ADJUSTMENT]


@pytest.mark.parametrize(("index", "text"), TIME, ids=[str(r[0]) for r in TIME])
def test_time_row(index, text):
    """Article, "Tables", Aiming/Extra Time Table. Row −6, "< x 0.1", is a moment: 0."""
    row = rows_of("time")[index]
    if text.startswith("<"):
        assert (row.value, row.label) == (0, "less than ×0.1")
        assert time_index(times(text[1:].strip()) / 2) == index
        return
    assert (row.value, row.derived) == (times(text), False)
    assert row.label == "×" + text[1:].strip()
    assert time_multiplier(index) == times(text) and time_index(times(text)) == index


def test_time_has_only_the_printed_rows():
    assert list(rows_of("time")) == [index for index, _ in TIME]


@pytest.mark.parametrize(("index", "text", "examples"), DELICACY, ids=[str(r[0]) for r in DELICACY])
def test_delicacy_row(index, text, examples):
    """Article, "Tables", Delicacy Table (sizes in metres; the Ångström of its row 13)."""
    row = rows_of("delicacy")[index]
    assert (row.value, row.derived) == (printed(text), False)
    assert_examples(row.label, examples, sized=True)
    assert delicacy_metres(index) == printed(text) and delicacy_index(printed(text)) == index


def test_delicacy_has_only_the_printed_rows():
    assert list(rows_of("delicacy")) == [index for index, _, _ in DELICACY]


@pytest.mark.parametrize(("index", "text", "examples"), SCALING, ids=[str(r[0]) for r in SCALING])
def test_scaling_row(index, text, examples):
    """Article, "Tables", Scaling Table."""
    row = rows_of("scaling")[index]
    assert (row.value, row.derived) == (times(text), False)
    assert_examples(row.label, examples, sized=True)
    assert lookup("scaling", index=index).value == times(text) and scaling_index(times(text)) == index


def test_scaling_has_only_the_printed_rows():
    assert list(rows_of("scaling")) == [index for index, _, _ in SCALING]


@pytest.mark.parametrize("bonus", range(len(PRINTED_ASSISTANTS)))
def test_assistants_row(bonus):
    """Article, "Tables", Assistants Table: a row's value is the fewest assistants at skill −1
    that earn it, the low end of its first printed cell ("None" for row 0)."""
    first_cell = PRINTED_ASSISTANTS[bonus][0]
    row = rows_of("assistants")[bonus]
    assert (row.value, row.derived) == (0 if first_cell == "none" else int(first_cell.split("-")[0]), False)
    assert lookup("assistants", index=bonus).value == row.value


def test_assistants_has_only_the_printed_rows():
    assert list(rows_of("assistants")) == list(range(15))
