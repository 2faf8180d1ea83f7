"""calc.group_summary: the family through the gate with every mutant, its check on hand-made end states (typed
values, SUMIF / COUNTIF formulas, a number typed as text, the groups out of order), its op and the teacher's lines
for it."""

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
from workflows.calc.group_summary import WORKFLOW

PATH = "/home/user/costs.xlsx"
ROWS = [["Job", "Crew", "Hours", "Cost"], ["J1", "North", 4, 120.5], ["J2", "East", 2, 80.0],
        ["J3", "North", 6, 99.5], ["J4", "West", 1, 40.25], ["J5", "East", 3, 60.0]]
#: the total Cost per Crew, A to Z
SUMS = [["Crew", "Total Cost"], ["East", 140.0], ["North", 220.0], ["West", 40.25]]


@pytest.mark.slow
@pytest.mark.parametrize("function", ["SUM", "AVERAGE", "COUNT", "MAX"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, function):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"function": function}, tmp_path, seed=seed)
        assert_accepted(folder)
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]] == ["xlsx.group_summary", "xlsx.sheet_names", "xlsx.frame",
                                                            "tree.frame"]


def _state(tmp_path: Path, summary: list[list[object]] | None = None) -> None:
    sheets: list[dict[str, object]] = [{"name": "Jobs", "rows": ROWS}]
    if summary is not None:
        sheets.append({"name": "Summary", "rows": summary})
    (tmp_path / "costs.xlsx").write_bytes(xlsx.build({"sheets": sheets}))


def _check(root: Path, function: str = "SUM", groups: tuple[str, ...] = ("East", "North", "West"),
           expected: tuple[float, ...] = (140.0, 220.0, 40.25), label: str = "Total Cost") -> tuple[bool, str]:
    args = {"path": PATH, "sheet": "Summary", "source_sheet": "Jobs", "group_header": "Crew", "label": label,
            "function": function, "groups": list(groups), "expected": list(expected), "value_header": "Cost"}
    result = run_check(State(root), "xlsx.group_summary", args)
    return result.passed, result.evidence


def test_typed_values_and_formulas_pass(tmp_path):
    _state(tmp_path, SUMS)
    assert _check(tmp_path) == (True, "Summary!A1:B4 holds the sum of 'Cost' per 'Crew' from Jobs: 3 groups, A to Z")
    formulas = [SUMS[0], *[[name, f"=SUMIF(Jobs!$B$2:$B$6,A{i + 2},Jobs!$D$2:$D$6)"]
                           for i, (name, _) in enumerate(SUMS[1:])]]
    _state(tmp_path, formulas)
    assert _check(tmp_path)[0]
    counts = [["Crew", "Count"], *[[name, f'=COUNTIF(Jobs!B2:B6,"{name}")'] for name, _ in SUMS[1:]]]
    _state(tmp_path, counts)
    assert _check(tmp_path, "COUNT", expected=(2, 2, 1), label="Count")[0]


@pytest.mark.parametrize(("summary", "says"), [
    (None, "has no sheet 'Summary'"),
    ([SUMS[0], ["East", "140"], *SUMS[2:]], "B2 holds the text \"'140\", not a number"),
    ([SUMS[0], SUMS[2], SUMS[1], SUMS[3]], "A2 = 'North', expected the group 'East'"),
    ([SUMS[0], *SUMS[1:3]], "A4 = '', expected the group 'West'"),
    ([*SUMS, ["Total", 400.25]], "A5, B5 below the last group is not empty ('Total')"),
    ([["Crew", "Sum - Cost"], *SUMS[1:]], "B1 = 'Sum - Cost', expected the header 'Total Cost'"),
    ([SUMS[0], ["East", 70.0], ["North", 110.0], ["West", 40.25]], "B2 = 70, expected 140 for 'East'"),
])
def test_wrong_summaries_fail(tmp_path, summary, says):
    _state(tmp_path, summary)
    passed, evidence = _check(tmp_path)
    assert not passed and says in evidence, evidence


def test_the_op_writes_the_summary_the_check_wants(tmp_path):
    _state(tmp_path)
    apply_ops(tmp_path, [{"op": "xlsx.group_summary", "path": PATH, "sheet": "Jobs", "group": "B", "value": "D",
                          "function": "SUM", "dest_sheet": "Summary", "headers": ["Crew", "Total Cost"]}])
    assert _check(tmp_path)[0]
    _state(tmp_path)
    apply_ops(tmp_path, [{"op": "xlsx.group_summary", "path": PATH, "sheet": "Jobs", "group": "B", "value": "D",
                          "function": "AVERAGE", "dest_sheet": "Summary", "headers": ["Crew", "Average Cost"]}])
    assert _check(tmp_path, "AVERAGE", expected=(70.0, 110.0, 40.25), label="Average Cost")[0]


def test_the_check_survives_a_hostile_state(tmp_path):
    (tmp_path / "costs.xlsx").write_bytes(b"PK\x03\x04 not a workbook")
    passed, evidence = _check(tmp_path)
    assert not passed and "not a readable xlsx workbook" in evidence


@pytest.mark.skipif(not Sandbox().enabled, reason="student commands run only in bubblewrap")
@pytest.mark.parametrize("extra", [{"value": "D", "function": "SUM"}, {"value": "E", "function": "AVERAGE"},
                                   {"value": None, "function": "COUNT", "order": "first"},
                                   {"value": "E", "function": "MAX", "drop_last": True, "header_row": False,
                                    "dest_sheet": "Sales", "anchor": "H1"}])
def test_the_teacher_lines_leave_what_the_op_leaves(tmp_path, extra):
    ops = [{"op": "xlsx.group_summary", "path": BOOK, "sheet": "Sales", "group": "A", "dest_sheet": "Summary",
            "headers": ["Region", "Figure"], **extra}]
    _workbook(tmp_path / "op")
    apply_ops(tmp_path / "op", ops)
    sandbox = Sandbox()
    by_shell = _home(tmp_path / "shell", sandbox)
    done = AgentShell(sandbox).run(by_shell, teach(ops))
    assert done.exit_code == 0, done.shown
    assert _read(by_shell / "Documents" / "sales q1.xlsx") == _read(tmp_path / "op" / "Documents" / "sales q1.xlsx")
