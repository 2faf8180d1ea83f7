"""`forge export trajectories`: rows from a real `forge student run` (scripted agent on a loopback server, real
bubblewrap and check workers), filtered by the rubric's verdict."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from forge.cli import app
from tests.agentserver import Act, AgentServer, tool_results

runner = CliRunner()


def invoke(*args: str) -> Any:
    return runner.invoke(app, list(args))


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> tuple[Path, list[str]]:
    """Two rename-a-sheet tasks: the scripted agent solves the first it sees and gives up on the other."""
    root = tmp_path_factory.mktemp("trajectories")
    db = f"sqlite:///{root / 'forge.db'}"
    made = invoke("generate", "--skill", "calc.sheets.rename", "--register", "explicit", "-n", "2", "--seed", "4",
                  "--out", str(root / "tasks"), "--db", db,
                  "--real-apps", "off")
    assert made.exit_code == 0, made.output
    seen: list[str] = []

    def agent(body: dict[str, Any]) -> Act:
        text = body["messages"][1]["content"]
        if text not in seen:
            seen.append(text)
        if text != seen[0]:
            return Act(content="I cannot do this. DONE")
        if tool_results(body):
            return Act(content="Renamed. DONE")
        path = re.search(r"(/home/user/\S+?\.xlsx)", text).group(1)
        old, new = re.search(r"Rename the sheet '(.+?)' to '(.+?)'", text).groups()
        return Act(content="Renaming with openpyxl.", commands=(
            f"python3 -c \"import openpyxl; p='{path}'; wb=openpyxl.load_workbook(p); wb['{old}'].title='{new}'; "
            "wb.save(p)\"",))

    with AgentServer(agent) as server:
        ran = invoke("student", "run", str(root / "tasks"), "--model", "m", "--base-url", server.base_url,
                     "--out", str(root / "results"), "--db", db)
    assert ran.exit_code == 0 and "1 passed, 1 failed" in ran.output, ran.output
    return root / "results", seen


def rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_only_verified_trajectories_by_default(results, tmp_path):
    folder, seen = results
    out = tmp_path / "sft.jsonl"
    result = invoke("export", "trajectories", str(out), "--results", str(folder))
    assert result.exit_code == 0, result.output
    assert "1 trajectories" in result.output
    [row] = rows(out)
    assert row["score"] == 1.0 and row["failed_checks"] == [] and row["steps"] == 1 and row["model"] == "m"
    messages = row["messages"]
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "tool", "assistant"]
    assert messages[1]["content"] == seen[0]
    call = messages[2]["tool_calls"][0]
    assert call["function"]["name"] == "shell" and "openpyxl" in json.loads(call["function"]["arguments"])["command"]
    assert messages[3]["tool_call_id"] == call["id"] and messages[3]["content"].startswith("exit status 0")
    assert row["tools"][0]["function"]["name"] == "shell"
    assert "oracle" not in out.read_text() and "rubric" not in out.read_text()


def test_min_score_zero_keeps_failures_and_skips_unfinished(results, tmp_path):
    folder, _ = results
    copy = tmp_path / "results"
    shutil.copytree(folder, copy)
    unfinished = next(copy.rglob("messages.json")).parent.parent / "half-done"
    unfinished.mkdir()
    (unfinished / "traj.jsonl").write_text('{"step_num": 1}\n')
    (unfinished / "messages.json").write_text("{}")
    out = tmp_path / "all.jsonl"
    result = invoke("export", "trajectories", str(out), "--results", str(copy), "--min-score", "0")
    assert result.exit_code == 0, result.output
    got = rows(out)
    assert sorted(r["score"] for r in got) == [0.0, 1.0]
    failed = next(r for r in got if r["score"] == 0.0)
    assert "sheet-names" in failed["failed_checks"] and failed["steps"] == 0


def test_bad_input_is_one_line(results, tmp_path):
    folder, _ = results
    copy = tmp_path / "results"
    shutil.copytree(folder, copy)
    broken = next(copy.rglob("messages.json"))
    broken.write_text("{not json")
    out = tmp_path / "x.jsonl"
    result = invoke("export", "trajectories", str(out), "--results", str(copy), "--min-score", "0")
    assert result.exit_code == 1 and result.output.startswith("Error: ") and str(broken) in result.output
    assert "Traceback" not in result.output and not out.exists() and not Path(f"{out}.tmp").exists()
    missing = invoke("export", "trajectories", str(out), "--results", str(tmp_path / "nowhere"))
    assert missing.exit_code == 1 and "no such folder" in missing.output


def test_an_unwritable_target_is_one_line(results, tmp_path):
    folder, _ = results
    blocker = tmp_path / "file"
    blocker.write_text("x")
    for target in (blocker / "sft.jsonl", tmp_path):
        result = invoke("export", "trajectories", str(target), "--results", str(folder))
        assert result.exit_code == 1 and result.output.startswith(f"Error: {target}: cannot write here"), result.output


def test_json_nested_too_deeply_is_one_line(tmp_path):
    folder = tmp_path / "results" / "shell" / "terminal" / "m" / "os" / "t1"
    folder.mkdir(parents=True)
    (folder / "result.txt").write_text("1.0\n")
    (folder / "messages.json").write_text("[" * 100_000 + "]" * 100_000)
    result = invoke("export", "trajectories", str(tmp_path / "o.jsonl"), "--results", str(tmp_path / "results"))
    assert result.exit_code == 1 and result.output.count("\n") == 1, result.output[-300:]
    assert f"{folder / 'messages.json'}: JSON nested too deeply to read" in result.output
