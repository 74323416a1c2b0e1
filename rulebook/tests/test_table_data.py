"""Tests for rulebook.table_data: the universal tables' printed rows and example texts."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rulebook.table_data import (
    ASSISTANTS_ROWS,
    RANGE_ADJUSTMENT_THRESHOLDS,
    TABLES,
    TIME_CHART,
    TIME_CHART_MIN_INDEX,
)
from rulebook.tables import assistants_bonus, range_threshold, time_multiplier

F = Fraction


def value_at(name: str, index: int) -> Fraction:
    return TABLES[name].row(index).value


def test_registry_holds_the_eight_tables_with_their_rows():
    assert set(TABLES) == {"weight", "distance", "target_size", "range_adjustment", "time",
                           "delicacy", "scaling", "assistants"}
    sizes = {name: (table.rows[0].index, table.rows[-1].index) for name, table in TABLES.items()}
    assert sizes == {"weight": (-24, 37), "distance": (-8, 37), "target_size": (-8, 25),
                     "range_adjustment": (1, 10), "time": (-6, 13), "delicacy": (-2, 25),
                     "scaling": (0, 10), "assistants": (0, 14)}
    for table in TABLES.values():
        assert table.title and table.unit and table.base and table.progression
        assert [row.index for row in table.rows] == sorted({row.index for row in table.rows})
        assert table.row(table.rows[0].index - 100) is None


@pytest.mark.parametrize(
    ("name", "index", "value", "example"),
    [
        ("weight", 29, F(200), "piano"),
        ("weight", -24, F(3, 2), "grenades"),
        ("weight", 10, F(30), "movie camera"),
        ("distance", 3, F(2), "3 normal steps"),
        ("distance", 32, F(1600), "1 mile"),
        ("target_size", -6, F(1, 64), "eye socket"),
        ("target_size", 14, F(12_000), "12,000 m²"),
        ("delicacy", 3, F(1, 10_000), "human hair"),
        ("scaling", 2, F(100), "precision manual tools"),
        ("time", 13, F(10_000), "×10,000+"),
        ("range_adjustment", 4, F(12), "−4"),
        ("assistants", 3, F(4), "4–7 @ skill −1"),
    ],
)
def test_rows_carry_values_and_example_texts(name, index, value, example):
    """Article, "Tables": each table's printed rows with their examples."""
    row = TABLES[name].row(index)
    assert row.value == value
    assert example in row.label


def test_values_run_one_way_in_every_table():
    for table in TABLES.values():
        values = [row.value for row in table.rows]
        expected = sorted(values, reverse=table.descending)
        assert values == expected, table.name
        assert len(set(values)) == len(values), table.name


def test_weight_gaps_are_filled_between_printed_neighbours():
    """The article prints no rows between −24 and −11 nor at −10, −9: geometric fill, 0.1 kg."""
    weight = TABLES["weight"]
    for low, high in ((-24, -11), (-11, -8)):
        assert not weight.row(low).derived and not weight.row(high).derived
        low_kg, high_kg = float(value_at("weight", low)), float(value_at("weight", high))
        ratio = (high_kg / low_kg) ** (1 / (high - low))
        for index in range(low + 1, high):
            assert weight.row(index).derived
            expected = round(low_kg * ratio ** (index - low), 1)
            assert value_at("weight", index) == Fraction(str(expected))


def test_delicacy_sizes_in_the_angstrom_rows():
    """Rows 13–18 read "Å" as the article's row 13 defines it (1 nm = 100 Å): 0.01 nm each."""
    assert [value_at("delicacy", i) for i in range(13, 20)] == [
        F(1, 10**9), F(5, 10**10), F(1, 10**10), F(5, 10**11), F(1, 10**11), F(5, 10**12), F(1, 10**12)]
    assert value_at("delicacy", 20) == F(5, 10**14)


def test_time_rows_are_the_chart():
    """Article, "Tables", Aiming/Extra Time: −6 is "less than ×0.1", 13 is ×10,000 and more."""
    rows = TABLES["time"].rows
    assert (rows[0].index, rows[0].label) == (TIME_CHART_MIN_INDEX, "less than ×0.1")
    assert {row.index: row.value for row in rows[1:]} == TIME_CHART
    assert all(row.value == time_multiplier(row.index) for row in rows)


def test_range_adjustment_rows_are_the_printed_thresholds_and_the_look_up_agrees():
    """Article, "Tables", Range Adjustment: 1, 3, 7, 12, 18, 25, 33, 42, 52, 63."""
    assert RANGE_ADJUSTMENT_THRESHOLDS == (1, 3, 7, 12, 18, 25, 33, 42, 52, 63)
    for row in TABLES["range_adjustment"].rows:
        assert row.value == range_threshold(row.index)


#: The printed assistants table: bonus → ranges of assistants at skill −1, −2, −3, −4.
PRINTED_ASSISTANTS = [
    ["none", "1", "2-3", "4-7"], ["1", "2-3", "4-7", "8-12"], ["2-3", "4-7", "8-12", "13-18"],
    ["4-7", "8-12", "13-18", "19-25"], ["8-12", "13-18", "19-25", "26-33"],
    ["13-18", "19-25", "26-33", "34-42"], ["19-25", "26-33", "34-42", "43-52"],
    ["26-33", "34-42", "43-52", "53-63"], ["34-42", "43-52", "53-63", "64-75"],
    ["43-52", "53-63", "64-75", "76-88"], ["53-63", "64-75", "76-88", "89-102"],
    ["64-75", "76-88", "89-102", "103-117"], ["76-88", "89-102", "103-117", "118-133"],
    ["89-102", "103-117", "118-133", "134-150"], ["103-117", "118-133", "134-150", "151-168"],
]


def test_assistants_rows_are_the_printed_table_and_the_look_up_agrees():
    """Article, "Tables", Assistants: the rows as printed; each row's value is the fewest
    assistants at skill −1 that earn its bonus, which ``assistants_bonus`` reads back."""
    for row, cells in zip(ASSISTANTS_ROWS, PRINTED_ASSISTANTS, strict=True):
        printed = "; ".join(f"{cell.replace('-', '–')} @ skill −{deficit}"
                            for deficit, cell in enumerate(cells, start=1))
        assert row.label == printed
        if row.index:
            assert assistants_bonus(int(row.value), 1) == row.index
            assert assistants_bonus(int(row.value) - 1, 1) == row.index - 1
        else:
            assert row.value == 0
