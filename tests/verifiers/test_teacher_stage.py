"""The gate's teacher stage: the oracle's terminal commands (solution/teacher.json) run through the student's own
sandboxed shell, and the rubric must pass on what they leave; a teacher that does nothing, fails, reaches for the
package or is malformed rejects the task."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kit.sandbox import Sandbox
from tests.gatekit import gate_package, make_package
from workflows.os.permissions import WORKFLOW

pytestmark = pytest.mark.skipif(not Sandbox().enabled, reason="the teacher runs only in bubblewrap")


def _package(tmp_path: Path) -> Path:
    return make_package(WORKFLOW, {"target": "mode_755", "scope": "one"}, tmp_path / "out")


def _teacher(folder: Path, data: object) -> None:
    (folder / "solution" / "teacher.json").write_text(json.dumps(data), encoding="utf-8")


def _stage(verdict: object, name: str = "teacher") -> str:
    return next(s.evidence for s in verdict.stages if s.name == name)  # type: ignore[attr-defined]


def test_the_teacher_solves_the_task_through_the_student_shell(tmp_path: Path) -> None:
    folder = _package(tmp_path)
    teacher = json.loads((folder / "solution" / "teacher.json").read_text())
    assert teacher["terminal"] and teacher["look"][0].startswith("ls -la")
    assert "chmod 755" in teacher["commands"][0]
    verdict = gate_package(folder)
    assert verdict.status == "accepted", verdict.evidence()
    assert "checks pass on the terminal solution" in _stage(verdict)


@pytest.mark.parametrize("commands, status", [
    (["true"], "unsolvable"),  # does nothing: the rubric fails on the initial state
    (["exit 3"], "unsolvable"),  # a command that fails
    (["chmod 700 ~/*/* ~/* 2>/dev/null; true"], "unsolvable"),  # a wrong edit
])
def test_a_teacher_that_does_not_solve_rejects_the_task(tmp_path: Path, commands: list[str], status: str) -> None:
    folder = _package(tmp_path)
    _teacher(folder, {"terminal": True, "look": [], "commands": commands})
    verdict = gate_package(folder)
    assert verdict.status == status, verdict.evidence()


def test_the_package_is_out_of_the_teachers_reach(tmp_path: Path) -> None:
    folder = _package(tmp_path)
    oracle = folder / "solution" / "oracle.json"
    real = json.loads((folder / "solution" / "teacher.json").read_text())["commands"]
    _teacher(folder, {"terminal": True, "commands": [f"cat {oracle} > /dev/null && {real[0]}"]})
    verdict = gate_package(folder)
    assert verdict.status == "unsolvable", verdict.evidence()
    assert "No such file" in _stage(verdict)


def test_a_family_without_terminal_solution_says_why(tmp_path: Path) -> None:
    folder = _package(tmp_path)
    _teacher(folder, {"terminal": False, "why": "the dialog has no file behind it"})
    verdict = gate_package(folder)
    assert verdict.status == "accepted", verdict.evidence()
    assert _stage(verdict) == "no terminal solution: the dialog has no file behind it"


def test_a_malformed_teacher_is_a_schema_failure(tmp_path: Path) -> None:
    folder = _package(tmp_path)
    _teacher(folder, {"commands": "rm -rf ~"})
    verdict = gate_package(folder)
    assert verdict.status == "schema_fail"
    assert "teacher.json" in _stage(verdict)
