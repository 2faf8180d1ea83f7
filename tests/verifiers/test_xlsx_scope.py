"""xlsx.unchanged: out-of-scope cells keep their values; with `exact`, nothing is added."""

from __future__ import annotations

from pathlib import Path

from openpyxl import Workbook

from verifiers.checks import State, run_check

PATH = "/home/user/t.xlsx"


def _book(tmp_path: Path, *, edit: dict[str, object] | None = None, extra: bool = False) -> State:
    wb = Workbook()
    data = wb.active
    data.title = "Data"
    data.append(["Item", "Units"])
    data.append(["Bolts", 12])
    wb.create_sheet("Notes")  # empty: no cell of it is listed
    for coord, value in (edit or {}).items():
        data[coord] = value
    if extra:
        wb.create_sheet("Scratch")
    wb.save(tmp_path / "t.xlsx")
    return State(tmp_path)


ARGS = {"path": PATH, "cells": {"Data!A1": "Item", "Data!B1": "Units", "Data!A2": "Bolts", "Data!B2": 12},
        "sheets": ["Data", "Notes"], "exact": True}


def test_an_empty_sheet_the_cells_do_not_name_is_not_an_addition(tmp_path):
    result = run_check(_book(tmp_path), "xlsx.unchanged", ARGS)
    assert result.passed, result.evidence


def test_a_changed_cell_and_an_added_sheet_fail(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    changed = run_check(_book(tmp_path / "a", edit={"B2": "12"}), "xlsx.unchanged", ARGS)
    assert not changed.passed and "Data!B2: 12 -> '12'" in changed.evidence
    added = run_check(_book(tmp_path / "b", extra=True), "xlsx.unchanged", ARGS)
    assert not added.passed and "['Scratch'] added" in added.evidence


def test_a_dropped_sheet_fails(tmp_path):
    args = {**ARGS, "cells": {**ARGS["cells"], "Gone!A1": "x"}}
    result = run_check(_book(tmp_path), "xlsx.unchanged", args)
    assert not result.passed and "no sheet 'Gone'" in result.evidence
