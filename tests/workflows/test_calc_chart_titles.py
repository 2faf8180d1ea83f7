"""calc.chart_titles: the family through the gate with every mutant, its checks on hand-made charts (titles missing
or swapped, a series unnamed or left out, a chart on the wrong sheet), the op and the teacher's lines for it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forge.agent.shell import AgentShell
from kit.sandbox import Sandbox
from preparers import xlsx
from preparers.ops import apply_ops
from preparers.teach import teach
from tests.gatekit import assert_accepted, make_package
from tests.preparers.test_teach_xlsx import BOOK, _home, _read, _workbook
from verifiers.checks import State, run_check
from workflows.calc.chart_titles import WORKFLOW

PATH = "/home/user/plan.xlsx"
ROWS = [["Line", "Budgeted", "Actual"], ["Travel", 1200.5, 900.25], ["Training", 800.0, 950.75],
        ["Software", 400.0, 380.0]]
CHART = {"op": "xlsx.titled_chart", "path": PATH, "sheet": "Plan", "values": ["B2:B4", "C2:C4"],
         "categories": "A2:A4", "title": "Budgeted vs Actual by Line", "x_title": "Line", "y_title": "Amount ($)"}


@pytest.mark.slow
@pytest.mark.parametrize("extra", ["axis_titles", "two_series", "new_sheet"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, extra):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"extra": extra}, tmp_path, seed=seed)
        assert_accepted(folder)
        task = json.loads((folder / "task.json").read_text())
        sheets = ["xlsx.sheet_names"] if extra == "new_sheet" else []
        assert [c["primitive"] for c in task["rubric"]] == ["xlsx.chart_type", "xlsx.chart_data", "xlsx.chart_titles",
                                                            *sheets, "xlsx.frame", "tree.frame"]


def _state(root: Path, **extra: object) -> State:
    (root / "plan.xlsx").write_bytes(xlsx.build({"sheets": [{"name": "Plan", "rows": ROWS}]}))
    apply_ops(root, [{**CHART, **extra}])
    return State(root)


def _titles(state: State, sheet: str = "Plan") -> tuple[bool, str]:
    args = {"path": PATH, "sheet": sheet, "title": CHART["title"], "x_title": "Line", "y_title": "Amount ($)"}
    result = run_check(state, "xlsx.chart_titles", args)
    return result.passed, result.evidence


def _data(state: State, sheet: str = "Plan") -> tuple[bool, str]:
    args = {"path": PATH, "sheet": sheet, "data_sheet": "Plan", "values": ["B2:B4", "C2:C4"],
            "names": ["Budgeted", "Actual"], "categories": "A2:A4"}
    result = run_check(state, "xlsx.chart_data", args)
    return result.passed, result.evidence


def test_the_op_writes_what_the_checks_want(tmp_path):
    state = _state(tmp_path)
    assert _titles(state) == (True, "the chart on Plan has the title 'Budgeted vs Actual by Line', x axis title "
                                    "'Line', y axis title 'Amount ($)'")
    assert _data(state) == (True, "the chart on Plan plots Budgeted, Actual from Plan over A2:A4")


def test_a_chart_on_its_own_sheet_reads_its_data_from_the_table(tmp_path):
    state = _state(tmp_path, chart_sheet="Chart", anchor="A1")
    assert _titles(state, "Chart")[0] and _data(state, "Chart")[0]
    passed, evidence = _titles(state)
    assert not passed and "has 0 charts" in evidence


@pytest.mark.parametrize(("extra", "check", "says"), [
    ({"title": None}, _titles, "the title is None, expected 'Budgeted vs Actual by Line'"),
    ({"x_title": "Amount ($)", "y_title": "Line"}, _titles, "the x axis title is 'Amount ($)', expected 'Line'"),
    ({"y_title": None}, _titles, "the y axis title is None"),
    ({"values": ["B2:B4"]}, _data, "has 1 series"),
    ({"named": False}, _data, "series 1 is named None (no name), expected 'Budgeted'"),
    ({"values": ["C2:C4", "B2:B4"]}, _data, "series 1 plots"),
])
def test_the_slips(tmp_path, extra, check, says):
    passed, evidence = check(_state(tmp_path, **extra))
    assert not passed and says in evidence, evidence


def test_the_checks_survive_a_hostile_state(tmp_path):
    (tmp_path / "plan.xlsx").write_bytes(b"PK\x03\x04 not a workbook")
    for check in (_titles, _data):
        passed, evidence = check(State(tmp_path))
        assert not passed and "not a readable xlsx workbook" in evidence


@pytest.mark.skipif(not Sandbox().enabled, reason="student commands run only in bubblewrap")
@pytest.mark.parametrize("extra", [{"title": "Units", "x_title": "Region", "y_title": "Units"},
                                   {"values": ["D2:D13", "E2:E13"], "title": "Both", "named": False},
                                   {"title": "On its own", "chart_sheet": "Chart", "anchor": "A1"}])
def test_the_teacher_lines_leave_what_the_op_leaves(tmp_path, extra):
    ops = [{"op": "xlsx.titled_chart", "path": BOOK, "sheet": "Sales", "values": ["D2:D13"], "categories": "A2:A13",
            **extra}]
    _workbook(tmp_path / "op")
    apply_ops(tmp_path / "op", ops)
    sandbox = Sandbox()
    by_shell = _home(tmp_path / "shell", sandbox)
    done = AgentShell(sandbox).run(by_shell, teach(ops))
    assert done.exit_code == 0, done.shown
    assert _read(by_shell / "Documents" / "sales q1.xlsx") == _read(tmp_path / "op" / "Documents" / "sales q1.xlsx")
