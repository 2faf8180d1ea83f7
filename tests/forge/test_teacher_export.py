"""`forge export trajectories --teacher`: each task's terminal solution runs as a student's answer would (the
student's sandboxed shell, scored by the rubric) and the passing runs are SFT rows in the student's chat format."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from forge.cli import app
from kit.sandbox import Sandbox
from tests.gatekit import make_package
from workflows.os.permissions import WORKFLOW

pytestmark = pytest.mark.skipif(not Sandbox().enabled, reason="teacher commands run only in bubblewrap")


def test_teacher_runs_become_sft_rows(tmp_path: Path) -> None:
    tasks = tmp_path / "tasks"
    good = make_package(WORKFLOW, {"target": "mode_755", "scope": "one"}, tasks)
    bad = make_package(WORKFLOW, {"target": "exec", "scope": "one"}, tasks, seed=2)
    teacher = json.loads((bad / "solution" / "teacher.json").read_text())
    (bad / "solution" / "teacher.json").write_text(json.dumps({**teacher, "commands": ["true"]}))
    out, results = tmp_path / "teacher.jsonl", tmp_path / "runs"
    result = CliRunner().invoke(app, ["export", "trajectories", str(out), "--teacher", "--tasks", str(tasks),
                                      "--results", str(results)])
    assert result.exit_code == 0, result.output
    assert "teacher: 1 passed, 1 failed" in result.output
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["task_id"] for r in rows] == [json.loads((good / "task.json").read_text())["id"]]
    messages = rows[0]["messages"]
    assert [m["role"] for m in messages[:2]] == ["system", "user"]
    calls = [json.loads(m["tool_calls"][0]["function"]["arguments"])["command"] for m in messages
             if m.get("tool_calls")]
    assert calls[0].startswith("ls -la") and "chmod 755" in calls[-1]
    assert any(m["role"] == "tool" and "exit status 0" in m["content"] for m in messages)


def test_tasks_without_teacher_flag_are_refused(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["export", "trajectories", str(tmp_path / "o.jsonl"), "--tasks", str(tmp_path)])
    assert result.exit_code != 0
    assert "--tasks goes with --teacher" in result.output
