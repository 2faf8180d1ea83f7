"""calc.paste_values: the family through the gate with every mutant, its check on hand-made end states (formulas
left, values rounded, typed as text, one row skipped), its op on a small sheet, the teacher's lines for it, and its
phrasings."""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest

from forge.agent.shell import AgentShell
from kit.sandbox import Sandbox, chown_tree
from preparers import xlsx
from preparers.ops import apply_ops
from preparers.teach import teach
from tests.gatekit import assert_accepted, make_package
from tests.preparers.test_teach_xlsx import _read
from verifiers.checks import State, run_check
from workflows.calc.paste_values import NATURAL, PHRASINGS, WHERE, WORKFLOW

PATH = "/home/user/Documents/orders.xlsx"
ROWS = [["Item", "Qty", "Unit Price", "Line Total", "Tax (8%)"],
        ["bolts", 12, 0.35, "=B2*C2", "=D2*0.08"],
        ["washers", 40, 0.12, "=B3*C3", "=D3*0.08"],
        ["hinges", 6, 4.75, "=B4*C4", "=D4*0.08"]]
TOTALS = [4.2, 4.8, 28.5]  # Line Total, row by row
TAXES = [0.336, 0.384, 2.28]


@pytest.mark.slow
@pytest.mark.parametrize("where", ["in_place", "new_column"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, where):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"where": where}, tmp_path, seed=seed)
        assert_accepted(folder)
        task = json.loads((folder / "task.json").read_text())
        goals = ["xlsx.values_pasted"] + (["xlsx.cell_value"] if where == "new_column" else [])
        assert [c["primitive"] for c in task["rubric"]] == [*goals, "xlsx.frame", "tree.frame"]


def _state(root: Path) -> State:
    (root / "Documents").mkdir(parents=True, exist_ok=True)
    (root / "Documents" / "orders.xlsx").write_bytes(xlsx.build({"sheets": [{"name": "Orders", "rows": ROWS}]}))
    return State(root)


def _check(root: Path, letter: str = "D", expected: list[float] = TOTALS) -> tuple[bool, str]:
    args = {"path": PATH, "sheet": "Orders", "header": "Line Total", "cells": [f"{letter}{r}" for r in (2, 3, 4)],
            "expected": expected}
    result = run_check(State(root), "xlsx.values_pasted", args)
    return result.passed, result.evidence


def _paste(root: Path, **extra: object) -> None:
    apply_ops(root, [{"op": "xlsx.paste_values", "path": PATH, "sheet": "Orders", "ref": "D2:D4", **extra}])


def _set(root: Path, cells: dict[str, object]) -> None:
    apply_ops(root, [{"op": "xlsx.set_cells", "path": PATH, "sheet": "Orders", "cells": cells}])


def test_formulas_left_fail_and_the_values_pass(tmp_path):
    _state(tmp_path)
    passed, evidence = _check(tmp_path)
    assert not passed and "D2 still holds the formula '=B2*C2'" in evidence
    _paste(tmp_path)
    assert _check(tmp_path)[0], _check(tmp_path)[1]
    wb = openpyxl.load_workbook(tmp_path / "Documents" / "orders.xlsx")
    assert wb["Orders"]["E2"].value == "=D2*0.08", "the neighbouring column keeps its formulas"


@pytest.mark.parametrize(("extra", "says"), [
    ({"digits": 0}, "D2 = 4, the formula gave 4.2"),
    ({"text": True}, "D3 holds the text \"'4.8\", not a number"),
    ({"skip": 1}, "D4 still holds the formula"),
])
def test_the_slips_fail_the_check(tmp_path, extra, says):
    _state(tmp_path)
    _paste(tmp_path, **extra)
    passed, evidence = _check(tmp_path)
    assert not passed and says in evidence, evidence


def test_hand_made_wrong_end_states_fail(tmp_path):
    _state(tmp_path)
    _set(tmp_path, {"D2": 4.2, "D3": 4.8, "D4": 28})  # the last value truncated by hand
    passed, evidence = _check(tmp_path)
    assert not passed and "D4 = 28, the formula gave 28.5" in evidence
    _set(tmp_path, {"D4": "=28.5"})  # a formula of a constant is still a formula
    assert not _check(tmp_path)[0]
    _set(tmp_path, {"D4": None})
    passed, evidence = _check(tmp_path)
    assert not passed and "D4 is empty" in evidence


def test_the_op_pastes_into_a_new_column_with_the_formats(tmp_path):
    _state(tmp_path)
    _paste(tmp_path, ref="E2:E4", dest="G2", header="Tax Final")
    wb = openpyxl.load_workbook(tmp_path / "Documents" / "orders.xlsx")
    ws = wb["Orders"]
    assert ws["G1"].value == "Tax Final" and ws["G1"].font.b
    assert [ws[f"G{r}"].value for r in (2, 3, 4)] == pytest.approx(TAXES)
    assert ws["E2"].value == "=D2*0.08", "the source keeps its formulas"
    assert _check(tmp_path, letter="G", expected=TAXES)[0]
    _paste(tmp_path, ref="E2:E4", dest="G2", header="Tax Final", link=True)
    passed, evidence = _check(tmp_path, letter="G", expected=TAXES)
    assert not passed and "G2 still holds the formula '=E2'" in evidence


def test_the_check_survives_a_hostile_state(tmp_path):
    (tmp_path / "Documents").mkdir()
    (tmp_path / "Documents" / "orders.xlsx").write_bytes(b"PK\x03\x04 not a workbook")
    passed, evidence = _check(tmp_path)
    assert not passed and "not a readable xlsx workbook" in evidence


@pytest.mark.skipif(not Sandbox().enabled, reason="student commands run only in bubblewrap")
@pytest.mark.parametrize("extra", [{}, {"ref": "E2:E4", "dest": "G2", "header": "Tax Final"}, {"digits": 0},
                                   {"text": True, "skip": 1}, {"dest": "G2", "header": "T", "link": True}])
def test_the_teacher_lines_leave_what_the_op_leaves(tmp_path, extra):
    ops = [{"op": "xlsx.paste_values", "path": PATH, "sheet": "Orders", "ref": "D2:D4", **extra}]
    _state(tmp_path / "op")
    apply_ops(tmp_path / "op", ops)
    sandbox = Sandbox()
    by_shell = tmp_path / "shell"
    _state(by_shell)
    if sandbox.as_root:
        chown_tree(by_shell)
    done = AgentShell(sandbox).run(by_shell, teach(ops))
    assert done.exit_code == 0, done.shown
    assert _read(by_shell / "Documents" / "orders.xlsx") == _read(tmp_path / "op" / "Documents" / "orders.xlsx")


@pytest.mark.parametrize("where", ["in_place", "new_column"])
def test_every_phrasing_says_values_and_where(where):
    said = WHERE[where].format(dest="H", dest_header="Line Total Final")
    facts = {"path": PATH, "sheet": "Orders", "header": "Line Total", "ref": "D2:D4", "where": said,
             "Where": said[0].upper() + said[1:]}
    for phrasing in PHRASINGS:
        text = phrasing.format(**facts)
        assert "value" in text.lower() and "'Line Total'" in text and "D2:D4" in text, text
        assert ("H1" in text and "'Line Total Final'" in text) == (where == "new_column"), text
    for phrasing in NATURAL:
        text = phrasing.replace("{path.file}", "orders.xlsx").format(**facts)
        assert "value" in text.lower() and "'Line Total'" in text, text
