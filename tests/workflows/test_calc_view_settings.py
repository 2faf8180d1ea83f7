"""calc.view_settings: the family through the gate with every mutant, `xlsx.sheet_view` on hand-made end states
(the other option changed, both changed, grid lines instead, a zero hidden by a number format), the op and its
teacher lines on a small workbook, the initial state of a "show again" task, and the phrasings."""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest

from forge.agent.shell import AgentShell
from kit.sandbox import Sandbox
from preparers import xlsx
from preparers.ops import apply_ops
from preparers.teach import teach
from tests.gatekit import gate_package, make_package
from tests.preparers.test_teach_xlsx import BOOK, _home, _read, _workbook
from verifiers.checks import State, run_check
from verifiers.checks.xlsx_view import _says_option
from workflows.calc.view_settings import ASKS, NATURAL, PHRASINGS, SETTINGS, WORKFLOW
from workflows.common import spoken

PATH = "/home/user/stock.xlsx"
ROWS = [["Item", "On Hand"], ["Bolts", 0], ["Nuts", 40]]


@pytest.mark.slow
@pytest.mark.parametrize("setting", SETTINGS)
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, setting):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"setting": setting}, tmp_path, seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        primitives = [c["primitive"] for c in json.loads((folder / "task.json").read_text())["rubric"]]
        assert primitives == ["xlsx.sheet_view", "xlsx.frame", "tree.frame"], primitives


def test_a_show_task_starts_with_the_headers_hidden(tmp_path):
    folder = make_package(WORKFLOW, {"setting": "show_headers"}, tmp_path, seed=3)
    task = json.loads((folder / "task.json").read_text())
    asset = next(a for a in task["setup"]["assets"] if a["dest"].endswith(".xlsx"))
    wb = openpyxl.load_workbook(folder / asset["file"])
    sheet = task["rubric"][0]["args"]["sheet"]
    assert wb[sheet].sheet_view.showRowColHeaders is False


@pytest.mark.parametrize("setting", SETTINGS)
def test_every_phrasing_names_its_option_and_direction(setting):
    option, shown, action = ASKS[setting]
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.format(**spoken({"path": "/home/user/a.xlsx", "sheet": "Stock", "action": action}))
        assert _says_option(text, {"asked": option, option: shown}) is None, text
        assert option in text, text  # the grounded literal
        other = "zeros" if option == "headers" else "headers"
        assert _says_option(text, {"asked": other, other: shown}) is not None, text


def _check(tmp_path: Path, view: dict[str, object], asked: str, headers: bool, zeros: bool,
           number_format: str | None = None) -> tuple[bool, str]:
    (tmp_path / "stock.xlsx").write_bytes(xlsx.build({"sheets": [{"name": "S", "rows": ROWS}]}))
    ops: list[dict[str, object]] = [{"op": "xlsx.sheet_view", "path": PATH, "sheet": "S", **view}]
    if number_format:
        ops.append({"op": "xlsx.set_number_format", "path": PATH, "sheet": "S", "ref": "B2:B3",
                    "number_format": number_format})
    apply_ops(tmp_path, ops)
    result = run_check(State(tmp_path), "xlsx.sheet_view", {"path": PATH, "sheet": "S", "asked": asked,
                                                            "headers": headers, "zeros": zeros})
    return result.passed, result.evidence


@pytest.mark.parametrize(("view", "asked", "headers", "zeros", "number_format", "passes", "evidence"), [
    ({"headers": False}, "headers", False, True, None, True, "headers hidden, zero values shown"),
    ({}, "headers", False, True, None, False, "the headers are shown (asked: hidden)"),
    ({"zeros": False}, "headers", False, True, None, False, "the zeros are hidden (kept: shown)"),
    ({"headers": False, "zeros": False}, "headers", False, True, None, False, "the zeros are hidden (kept"),
    ({"gridlines": False}, "headers", False, True, None, False, "the headers are shown"),
    # review session 23: the asked headers hidden and the grid lines hidden too, a stray view change
    ({"headers": False, "gridlines": False}, "headers", False, True, None, False,
     "the grid lines are hidden (kept: shown)"),
    ({"zeros": False}, "zeros", True, False, None, True, "zero values hidden"),
    # zeros hidden by a number format on one column, not by the sheet's option: the option still shows them
    ({}, "zeros", True, False, "0;-0;;@", False, "the zeros are shown (asked: hidden)"),
    ({"headers": True}, "headers", True, True, None, True, "headers shown"),
])
def test_the_check_on_hand_made_end_states(tmp_path, view, asked, headers, zeros, number_format, passes, evidence):
    passed, found = _check(tmp_path, view, asked, headers, zeros, number_format)
    assert passed == passes and evidence in found, found


def test_the_op_sets_only_the_flags_it_is_given(tmp_path):
    (tmp_path / "stock.xlsx").write_bytes(xlsx.build({"sheets": [{"name": "S", "rows": ROWS}]}))
    apply_ops(tmp_path, [{"op": "xlsx.sheet_view", "path": PATH, "sheet": "S", "zeros": False}])
    view = openpyxl.load_workbook(tmp_path / "stock.xlsx")["S"].sheet_view
    assert (view.showZeros, view.showRowColHeaders in (None, True), view.showGridLines in (None, True)) == (
        False, True, True)


def _view(path: Path) -> list[tuple[object, object, object]]:
    return [(ws.sheet_view.showRowColHeaders, ws.sheet_view.showZeros, ws.sheet_view.showGridLines)
            for ws in openpyxl.load_workbook(path).worksheets]


@pytest.mark.parametrize("extra", [{"headers": False}, {"headers": True, "zeros": False}, {"gridlines": False}])
def test_the_teacher_lines_leave_what_the_op_leaves(tmp_path, extra):
    ops = [{"op": "xlsx.sheet_view", "path": BOOK, "sheet": "Sales", **extra}]
    _workbook(tmp_path / "op")
    apply_ops(tmp_path / "op", ops)
    sandbox = Sandbox()
    by_shell = _home(tmp_path / "shell", sandbox)
    done = AgentShell(sandbox).run(by_shell, teach(ops))
    assert done.exit_code == 0, done.shown
    mine, theirs = by_shell / "Documents" / "sales q1.xlsx", tmp_path / "op" / "Documents" / "sales q1.xlsx"
    assert _read(mine) == _read(theirs)
    assert _view(mine) == _view(theirs)
