"""calc.formula_column computes only between columns that mean something together: + - MIN MAX AVERAGE between
columns that measure the same thing, * between an amount and its price (issue 16: never "Square Feet minus Lot
Acres" or "Midterm Score multiplied by Assignments")."""

from __future__ import annotations

import random

import pytest

from kit.dag import NodeContext
from kit.llm import OfflineBackend
from workflows.calc import kit as cc
from workflows.calc.content import SCENARIOS, generate_table
from workflows.calc.formula_column import FUNCTIONS, UNITS, WORKFLOW, compatible, unit_of


def run(function: str, seed: int) -> tuple[cc.Layout, list[int]]:
    outputs = WORKFLOW.run(NodeContext({"function": function}, seed, "test.skill", 0, OfflineBackend()))
    return outputs["layout"], outputs["target"].cols


@pytest.mark.parametrize("function", [f for f in FUNCTIONS if f != "ROUND"])
def test_operands_measure_the_same_thing_or_are_an_amount_and_its_price(function):
    for seed in range(1, 31):
        layout, cols = run(function, seed)
        units = [unit_of(layout, c) for c in cols]
        said = [layout.header[c] for c in cols]
        if function == "PRODUCT":
            assert f"$/{units[0]}" == units[1] or f"$/{units[1]}" == units[0], (seed, said, units)
        else:
            assert None not in units and len(set(units)) == 1, (seed, said, units)


def test_every_offline_header_has_a_unit():
    missing = set()
    for scenario in SCENARIOS:
        for seed in range(20):
            table = generate_table(random.Random(seed), n_rows=12, scenario=scenario)
            missing |= {c["name"] for c in table["columns"][3:] if c["name"].casefold() not in UNITS}
    assert not missing, f"numeric headers without a unit in formula_column.UNITS: {sorted(missing)}"


def test_a_table_without_compatible_columns_is_not_compatible():
    table = {"title": "Homes", "file_stem": "homes", "sheet": "Listings", "scenario": "homes",
             "columns": [{"name": "Address", "kind": "key"}, {"name": "Type", "kind": "category"},
                         {"name": "Listed", "kind": "date"}, {"name": "Square Feet", "kind": "int"},
                         {"name": "Lot Acres", "kind": "number"}],
             "rows": [["1 Elm St", "Loft", "2024-01-02", 900, 0.5], ["2 Oak St", "Loft", "2024-01-03", 1200, 1.5]]}
    layout = cc.layout_from(table, {"scenario": "homes", "n_rows": 2, "folder": "Documents"})
    assert [compatible(layout, f) for f in ("SUM", "DIFFERENCE", "PRODUCT", "ROUND")] == [False, False, False, True]


def test_a_models_own_headers_get_units_from_their_words():
    table = {"columns": [{"name": "Name", "kind": "key"}, {"name": "Team", "kind": "category"},
                         {"name": "Day", "kind": "date"}, {"name": "Contract Hours", "kind": "number"},
                         {"name": "Hourly Fee", "kind": "money"}, {"name": "Travel Expenses", "kind": "money"}],
             "rows": [["A", "X", "2024-01-02", 1.5, 40.0, 12.0]], "sheet": "S", "file_stem": "f", "title": "t"}
    layout = cc.layout_from(table, {"scenario": "x", "n_rows": 1, "folder": "Documents"})
    assert [unit_of(layout, c) for c in (3, 4, 5)] == ["hour", "$/hour", "$"]
    assert compatible(layout, "PRODUCT") and not compatible(layout, "DIFFERENCE")
