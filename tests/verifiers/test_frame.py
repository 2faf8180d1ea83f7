"""The frame (closed world, issue 37): every change of a Calc end state must be one the task asked for.

Real Calc tasks are made offline and pass the real gate; then hand-made end states of kinds no mutator makes are
judged by their rubric: a stray label, a new or reordered sheet, a merged range, a hidden row, a formula typed as
text, a date re-entered as text must fail (and fail the frame, which is what catches them); valid alternatives (a
LibreOffice re-save, a rule on the whole column, a formula where the oracle typed values) must pass it.
"""

from __future__ import annotations

import datetime as dt
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from kit.family import family
from kit.model import Freedom
from tests.gatekit import gate_package, make_package, package_states
from verifiers.checks import State, run_check
from verifiers.frame.xlsx import derive, judge, workbook_facts
from verifiers.gate.rubric import evaluate_rubric
from workflows.calc import conditional_format, data_validation, fill_blanks, remove_duplicates, sort_rows, summary_cell

CASES = {  # family module, knobs
    "sort": (sort_rows, {"key_kind": "date", "order": "asc"}),
    "summary": (summary_cell, {"function": "MEDIAN"}),
    "dedup": (remove_duplicates, {"mode": "exact"}),
    "fill": (fill_blanks, {"fill": "average"}),
    "cf": (conditional_format, {"rule": "greater_than"}),
    "validation": (data_validation, {"kind": "list"}),
}


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("frame")
    made = {}
    for name, (module, knobs) in CASES.items():
        folder = make_package(module.WORKFLOW, knobs, out, seed=3, skill_id=f"test.frame.{name}")
        verdict = gate_package(folder)
        assert verdict.status == "accepted", (name, verdict)
        made[name] = folder
    return made


def _end(package: Path, tmp_path: Path) -> tuple[dict[str, Any], Path, Path]:
    """(task, the oracle's end state, its workbook)"""
    _, after = package_states(package, tmp_path, "solution/oracle.json")
    task = json.loads((package / "task.json").read_text())
    frame = next(c for c in task["rubric"] if c["primitive"] == "xlsx.frame")
    return task, after, after / frame["args"]["path"].removeprefix("/home/user/")


def _verdict(task: dict[str, Any], root: Path) -> tuple[bool, bool]:
    """(the whole rubric passes, the frame passes)"""
    outcomes = evaluate_rubric(task, root)
    frame = [o for o in outcomes if o.id.startswith("frame")]
    assert frame, "every Calc rubric ends with its frame"
    return all(o.passed for o in outcomes), all(o.passed for o in frame)


def _stray_label(wb: Any, task: dict[str, Any]) -> None:
    ws = wb.worksheets[0]
    ws.cell(row=1, column=ws.max_column + 2, value="checked")


def _new_sheet(wb: Any, task: dict[str, Any]) -> None:
    wb.create_sheet("Notes")


def _reordered_sheets(wb: Any, task: dict[str, Any]) -> None:
    wb.create_sheet("Archive", 0) if len(wb.sheetnames) == 1 else wb.move_sheet(wb.sheetnames[-1], -1)


def _merged_below(wb: Any, task: dict[str, Any]) -> None:
    ws = wb.worksheets[0]
    ws.merge_cells(start_row=ws.max_row + 2, start_column=1, end_row=ws.max_row + 2, end_column=3)


def _hidden_row(wb: Any, task: dict[str, Any]) -> None:
    ws = wb.worksheets[0]
    ws.row_dimensions[ws.max_row].hidden = True


WRONG = {"stray label": _stray_label, "new sheet": _new_sheet, "reordered sheets": _reordered_sheets,
         "merged range": _merged_below, "hidden row": _hidden_row}


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("wrong", sorted(WRONG))
def test_a_change_out_of_scope_fails_the_frame(packages, tmp_path, case, wrong):
    task, root, book = _end(packages[case], tmp_path)
    assert _verdict(task, root) == (True, True)
    wb = openpyxl.load_workbook(book)
    WRONG[wrong](wb, task)
    wb.save(book)
    passed, frame = _verdict(task, root)
    assert not passed and not frame, f"{case}: {wrong} passed the frame"


def test_a_formula_typed_as_text_fails(packages, tmp_path):
    task, root, book = _end(packages["summary"], tmp_path)
    frame = next(c for c in task["rubric"] if c["primitive"] == "xlsx.frame")
    key = next(k for k, kind in frame["args"]["allowed"].items() if kind == "f")
    sheet, coord = key.split("!")
    wb = openpyxl.load_workbook(book)
    cell = wb[sheet][coord]
    cell._value, cell.data_type = str(cell.value), "s"  # '=MEDIAN(..)' in a text cell: Calc shows the text
    wb.save(book)
    result = run_check(State(root), "xlsx.frame", frame["args"])
    assert not result.passed and "a formula typed as text" in result.evidence, result.evidence


def test_dates_re_entered_as_text_fail_a_dedup_task(packages, tmp_path):
    task, root, book = _end(packages["dedup"], tmp_path)
    wb = openpyxl.load_workbook(book)
    ws = wb.worksheets[0]
    dated = [c for row in ws.iter_rows(min_row=2) for c in row if isinstance(c.value, dt.datetime)]
    if not dated:
        pytest.skip("this table has no date column")
    for cell in dated:
        cell.value = cell.value.strftime("%Y-%m-%d")
    wb.save(book)
    passed, frame = _verdict(task, root)
    assert not passed and not frame


def test_a_validation_whose_alert_is_off_refuses_nothing_and_fails(packages, tmp_path):
    """Effects, not configuration: a list validation that does not stop other values accepts anything typed."""
    task, root, book = _end(packages["validation"], tmp_path)
    wb = openpyxl.load_workbook(book)
    (dv,) = wb.worksheets[0].data_validations.dataValidation
    assert dv.showErrorMessage and dv.errorStyle in (None, "stop")  # the oracle's rule refuses other values
    dv.showErrorMessage = False
    wb.save(book)
    outcomes = {o.id: o for o in evaluate_rubric(task, root)}
    goal = next(o for o in outcomes.values() if not o.id.startswith("frame") and not o.passed)
    assert "accepts any value: its error alert is off" in goal.evidence, goal.evidence


def test_valid_alternatives_pass_the_frame(packages, tmp_path):
    """A rule on the whole column where the oracle covers the column's cells, and a formula where the oracle typed
    the computed values: the goal checks judge them; the frame must not reject them."""
    task, root, book = _end(packages["cf"], tmp_path / "cf")
    wb = openpyxl.load_workbook(book)
    ws = wb.worksheets[0]
    (rng, rules), = list(ws.conditional_formatting._cf_rules.items())
    column = str(rng.sqref).split(":")[0].rstrip("0123456789")
    ws.conditional_formatting._cf_rules.clear()
    for rule in rules:
        ws.conditional_formatting.add(f"{column}1:{column}1048576", rule)  # the whole column, as Calc writes it
    wb.save(book)
    assert _verdict(task, root)[1]

    task, root, book = _end(packages["fill"], tmp_path / "fill")
    frame = next(c for c in task["rubric"] if c["primitive"] == "xlsx.frame")
    numbers = [k for k, kind in frame["args"]["allowed"].items() if kind == "n"]
    assert numbers
    wb = openpyxl.load_workbook(book)
    for key in numbers:
        sheet, coord = key.split("!")
        wb[sheet][coord].value = f"=ROUND({wb[sheet][coord].value}, 6)"
    wb.save(book)
    assert _verdict(task, root)[1]


@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice is not installed")
@pytest.mark.parametrize("case", ["sort", "summary", "validation", "cf"])
def test_a_libreoffice_resave_of_the_oracle_passes_the_frame(packages, tmp_path, case):
    task, root, book = _end(packages[case], tmp_path)
    out = tmp_path / "lo"
    subprocess.run(["soffice", "--headless", f"-env:UserInstallation=file://{tmp_path / 'profile'}",
                    "--convert-to", "xlsx", "--outdir", str(out), str(book)], check=True, capture_output=True,
                   timeout=180)
    shutil.copyfile(out / book.name, book)
    assert _verdict(task, root) == (True, True), run_check(State(root), "xlsx.frame", next(
        c for c in task["rubric"] if c["primitive"] == "xlsx.frame")["args"]).evidence


def test_the_evidence_names_the_change_and_a_freedom_allows_its_region(tmp_path):
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Sales"
    ws.append(["Rep", "Total"])
    ws.append(["Ana", 3])
    initial = workbook_facts(wb)
    ws["C2"] = "=B2*2"
    oracle = workbook_facts(wb)
    ws["E1"] = "note"
    frame = derive(initial, oracle)
    assert frame["allowed"] == {"Sales!C2": "f"}
    assert judge(frame, workbook_facts(wb)) == [
        "Sales!row 1 (Sales!A1='Rep', Sales!B1='Total', Sales!E1='note') changed"]
    helper = derive(initial, oracle, {"Sales!E*": "a helper column the instruction allows"})
    assert judge(helper, workbook_facts(wb)) == []


def test_a_damaged_workbook_fails_the_check_without_a_crash(tmp_path):
    (tmp_path / "book.xlsx").write_bytes(b"PK\x03\x04 not really a zip")
    result = run_check(State(tmp_path), "xlsx.frame", {"path": "/home/user/book.xlsx", "allowed": {}, "kept": {}})
    assert not result.passed


def test_a_family_can_only_declare_freedoms_where_there_is_a_frame():
    from dataclasses import replace

    from kit.errors import WorkflowError
    from workflows.writer import kit as writer_kit

    with pytest.raises(WorkflowError, match="no frame to widen"):
        family("test.free", replace(writer_kit.WRITER, frame=None), description="d",
               knobs={"key_kind": ("date",), "order": ("asc",)}, phrasings=("p",),
               goal=sort_rows.goal, rubric=sort_rows.rubric, solve=sort_rows.solve,
               freedoms=[Freedom("*", "anything")])


def test_a_workbook_the_oracle_makes_is_framed_against_nothing(tmp_path):
    """A copy (or a save-as) is a new file: every fact the oracle's copy holds is allowed, nothing beyond it is."""
    from kit.model import Asset, Solution
    from preparers import xlsx as xlsx_prep
    from workflows.frame import frame_checks

    data = xlsx_prep.build({"sheets": [{"name": "Q1", "rows": [["Item", "Qty"], ["Pens", 4], ["Ink", 9]]}]})
    ops = [{"op": "fs.copy", "path": "/home/user/q1.xlsx", "dest": "/home/user/backup/q1.xlsx"},
           {"op": "xlsx.sort_rows", "path": "/home/user/backup/q1.xlsx", "sheet": "Q1", "ref": "A2:B3",
            "key_column": "B", "descending": True}]
    checks = {c.args["path"]: c for c in frame_checks([Asset("/home/user/q1.xlsx", data)], Solution("oracle", "", ops))}
    made = checks["/home/user/backup/q1.xlsx"]
    assert made.args["kept"] == {} and made.args["allowed"]["Q1!B2"] == "n"
    assert checks["/home/user/q1.xlsx"].args["allowed"] == {}  # the original stays as it was
    (tmp_path / "backup").mkdir()
    (tmp_path / "q1.xlsx").write_bytes(data)
    from preparers.ops import apply_ops
    apply_ops(tmp_path, ops)
    assert run_check(State(tmp_path), "xlsx.frame", made.args).passed
    wb = openpyxl.load_workbook(tmp_path / "backup" / "q1.xlsx")
    wb.create_sheet("Scratch")["A1"] = "tmp"
    wb.save(tmp_path / "backup" / "q1.xlsx")
    result = run_check(State(tmp_path), "xlsx.frame", made.args)
    assert not result.passed and "Scratch!row 1" in result.evidence, result.evidence


def test_a_freedom_and_its_reason_travel_with_the_frame():
    from kit.model import Asset, Solution
    from preparers import xlsx as xlsx_prep
    from workflows.frame import frame_checks

    data = xlsx_prep.build({"sheets": [{"name": "Q1", "rows": [["Item", "Qty"], ["Pens", 4]]}]})
    ops = [{"op": "xlsx.set_cells", "path": "/home/user/q1.xlsx", "sheet": "Q1", "cells": {"C2": "=B2*2"}}]
    (check,) = frame_checks([Asset("/home/user/q1.xlsx", data)], Solution("oracle", "", ops),
                            (Freedom("Q1!D*", "the instruction allows a helper column"),))
    assert check.args["free"] == {"Q1!D*": "the instruction allows a helper column"}
    assert "Also free: Q1!D* (the instruction allows a helper column)." in check.criterion
    assert check.args["allowed"] == {"Q1!C2": "f"}


def test_an_edit_held_in_memory_reads_as_its_saved_file():
    """A number typed under a date format is a date once saved and read back; the in-memory view of an edit (near-
    miss fast path, the frame's oracle model) must see the same (a near-miss typing EDATE's serials once differed)."""
    import io

    from verifiers.readers.xlsx import as_read

    wb = openpyxl.Workbook()
    wb.active["A1"], wb.active["B1"], wb.active["C1"] = 44873, 3.5, True
    wb.active["A1"].number_format = "YYYY-MM-DD"
    out = io.BytesIO()
    wb.save(out)
    saved = workbook_facts(openpyxl.load_workbook(io.BytesIO(out.getvalue())))
    assert workbook_facts(wb) != saved
    assert workbook_facts(as_read(wb)) == saved
