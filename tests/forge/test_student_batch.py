"""The offline batch student (`forge student prompts` / `forge student answers`, forge.student_batch) on real tasks
through the real gate, real bubblewrap and real check workers: the prompts are byte-for-byte what `forge student
run` shows a model at its first turn (seen by the loopback chat server), and answers written offline (a correct
file move, a correct python edit in a vLLM batch response, a wrong one, bad lines) are scored into the same result
layout that `forge feedback ingest` and `forge export trajectories` read."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from forge.cli import app
from forge.student_batch import Answer, parse_answer, run_answers
from forge.student_run import StudentRunError, model_folder
from kit.sandbox import Limits, Sandbox
from tests.agentserver import Act, AgentServer

runner = CliRunner()
MODEL = "test/agent-1"
OS_SKILL = "os.organize.one_ext_new_exact"


def invoke(*args: str) -> Any:
    return runner.invoke(app, list(args))


def sql(db: str, query: str) -> list[tuple]:
    with sqlite3.connect(db.removeprefix("sqlite:///")) as conn:
        return conn.execute(query).fetchall()


@pytest.fixture(scope="module")
def tasks(tmp_path_factory) -> tuple[Path, str]:
    """Two real Calc tasks (rename a sheet) and one real file task (move the .txt files), in one catalog."""
    root = tmp_path_factory.mktemp("batch")
    db = f"sqlite:///{root / 'forge.db'}"
    for skill, n in (("calc.sheets.rename", "2"), (OS_SKILL, "1")):
        made = invoke("generate", "--skill", skill, "--register", "explicit", "-n", n, "--seed", "4", "--out",
                      str(root / "tasks"), "--db", db, "--real-apps", "off")
        assert made.exit_code == 0, made.output
    return root, db


def calc(tasks: tuple[Path, str]) -> list[Path]:
    return sorted((tasks[0] / "tasks" / "libreoffice_calc").iterdir())


def files(tasks: tuple[Path, str]) -> Path:
    [package] = sorted((tasks[0] / "tasks" / "os").iterdir())
    return package


def fresh_db(tasks: tuple[Path, str], tmp_path: Path) -> str:
    target = tmp_path / "copy.db"
    with sqlite3.connect(tasks[1].removeprefix("sqlite:///")) as source, sqlite3.connect(target) as dest:
        source.backup(dest)
    return f"sqlite:///{target}"


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def folder(out: Path, package: Path, model: str = MODEL) -> Path:
    app_name = json.loads((package / "task.json").read_text())["app"]
    return out / "shell" / "terminal" / model_folder(model) / app_name / package.name


def instruction(package: Path) -> str:
    return str(json.loads((package / "task.json").read_text())["instruction"])


@pytest.mark.parametrize("protocol", ["tools", "text"])
def test_prompts_are_what_student_run_shows_at_the_first_turn(tasks, tmp_path, protocol):
    db, out = fresh_db(tasks, tmp_path), tmp_path / "prompts.jsonl"
    made = invoke("student", "prompts", str(tasks[0] / "tasks"), "--out", str(out), "--step-timeout", "20",
                  "--protocol", protocol, "--db", db)
    assert made.exit_code == 0, made.output
    assert "3 prompts" in made.output
    again = tmp_path / "again.jsonl"
    by_round = invoke("student", "prompts", "--round", "0", "--out", str(again), "--step-timeout", "20",
                      "--protocol", protocol, "--db", db)
    assert by_round.exit_code == 0, by_round.output
    assert again.read_bytes() == out.read_bytes(), "same packages, same bytes (from folders or from the catalog)"
    requests = tmp_path / "requests.jsonl"
    batch = invoke("student", "prompts", str(tasks[0] / "tasks"), "--out", str(requests), "--step-timeout", "20",
                   "--protocol", protocol, "--batch-model", "qwen", "--db", db)
    assert batch.exit_code == 0, batch.output
    for request, row in zip(lines(requests), lines(out), strict=True):
        assert request == {"custom_id": row["task_id"], "method": "POST", "url": "/v1/chat/completions",
                           "body": {"model": "qwen", "messages": row["messages"],
                                    **({"tools": row["tools"]} if protocol == "tools" else {})}}
    prompts = lines(out)
    ids = [p.name for p in (*calc(tasks), files(tasks))]
    assert [row["task_id"] for row in prompts] == sorted(ids)
    assert all(row["custom_id"] == row["task_id"] for row in prompts)
    assert {row["domain"] for row in prompts} == {"libreoffice_calc", "os"}
    assert all(("tools" in row) == (protocol == "tools") for row in prompts)

    with AgentServer(lambda body: Act(content="DONE"), reject_tools=400 if protocol == "text" else 0) as server:
        ran = invoke("student", "run", str(tasks[0] / "tasks"), "--model", MODEL, "--base-url", server.base_url,
                     "--out", str(tmp_path / "results"), "--db", db, "--step-timeout", "20", "--protocol", protocol)
        assert ran.exit_code == 0, ran.output
        bodies = list(server.bodies)
    assert len(bodies) == 3
    for row in prompts:
        [body] = [b for b in bodies if b["messages"][1]["content"].startswith(instruction(row_package(tasks, row)))]
        assert body["messages"] == row["messages"], row["task_id"]
        assert body.get("tools") == row.get("tools")
    # the first turn shows the home that setup.sh built, and nothing hidden
    [moved] = [row for row in prompts if row["domain"] == "os"]
    listing = moved["messages"][1]["content"].split("\n\n", 1)[1]
    assert listing.startswith("The files in your home folder as the task starts:\n/home/user/Documents/")
    assert re.search(r"/home/user/Documents/unsorted/\S+\.txt \(\d[\d,]* bytes\)", listing), listing
    text = out.read_text()
    assert "oracle" not in text and "rubric" not in text and "near-miss" not in text


def row_package(tasks: tuple[Path, str], row: dict[str, Any]) -> Path:
    return next(p for p in (*calc(tasks), files(tasks)) if p.name == row["task_id"])


def found(pattern: str, text: str, groups: int = 1) -> Any:
    match = re.search(pattern, text)
    assert match, f"{pattern!r} not in {text!r}"
    return match.group(1) if groups == 1 else match.groups()


def rename_script(package: Path) -> str:
    """A python answer that renames the sheet the instruction names (what a competent model writes)."""
    text = instruction(package)
    path = found(r"(/home/user/\S+?\.xlsx)", text)
    old, new = found(r"Rename the sheet '(.+?)' to '(.+?)'", text, 2)
    return f"import openpyxl\np = '{path}'\nwb = openpyxl.load_workbook(p)\nwb['{old}'].title = '{new}'\nwb.save(p)"


def test_answers_are_run_scored_and_ingested(tasks, tmp_path):
    db, out = fresh_db(tasks, tmp_path), tmp_path / "results"
    solved, wrong = calc(tasks)
    moved = files(tasks)
    source = found(r"clean up (/home/user/\S+?)\. ", instruction(moved))
    target = found(r"into (/home/user/\S+?)\. ", instruction(moved))
    vllm = {"id": "batch-1", "custom_id": solved.name, "error": None, "response": {"status_code": 200, "body": {
        "model": "qwen", "choices": [{"index": 0, "message": {"role": "assistant", "content":
            f"I will rename it.\n```python\n{rename_script(solved)}\n```\n"}}]}}}
    answers = tmp_path / "answers.jsonl"
    answers.write_text("\n".join([
        json.dumps({"task_id": moved.name, "commands": [f"mkdir -p {target}", f"mv {source}/*.txt {target}/"]}),
        json.dumps(vllm),
        json.dumps({"task_id": wrong.name, "script": "ls -la; echo looked"}),
        "{not json",
        json.dumps({"task_id": "calc.sheets.rename--s4--99999", "script": "true"}),
        json.dumps({"task_id": moved.name, "tool": "mv"}),
        "",
    ]) + "\n")
    result = invoke("student", "answers", str(answers), "--model", MODEL, "--out", str(out), "--db", db,
                    "--step-timeout", "20")
    assert result.exit_code == 1, result.output
    assert "3 answers: 2 passed, 1 failed, 0 infrastructure failures, 0 already done" in result.output
    assert f"{answers} line 4: not JSON" in result.output and "one JSON object per line" in result.output
    assert f"{answers} line 5: task calc.sheets.rename--s4--99999 is not one of" in result.output
    assert f"{answers} line 6: task {moved.name}: no answer; give \"script\"" in result.output
    assert result.output.strip().splitlines()[-1].startswith("Error: 3 line(s) of")

    assert (folder(out, moved) / "result.txt").read_text() == "1.0\n"
    assert (folder(out, solved) / "result.txt").read_text() == "1.0\n"
    assert (folder(out, wrong) / "result.txt").read_text() == "0.0\n"
    verdict = json.loads((folder(out, wrong) / "checks.json").read_text())
    assert verdict["score"] == 0.0 and "sheet-names" in verdict["failed_checks"] and verdict["protocol"] == "batch"
    assert json.loads((folder(out, moved) / "checks.json").read_text())["failed_checks"] == []

    traj = lines(folder(out, moved) / "traj.jsonl")
    assert [s["action"] for s in traj] == [f"mkdir -p {target}", f"mv {source}/*.txt {target}/", "DONE"]
    assert [s["exit_code"] for s in traj[:2]] == [0, 0] and traj[-1]["done"] is True
    episode = json.loads((folder(out, solved) / "messages.json").read_text())
    messages = episode["messages"]
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "tool", "assistant"]
    assert messages[2]["content"].startswith("I will rename it.") and episode["tools"][0]["function"]["name"] == "shell"
    command = json.loads(messages[2]["tool_calls"][0]["function"]["arguments"])["command"]
    assert command.startswith("python3 - <<'FORGE_PY'\nimport openpyxl") and messages[3]["content"] == "exit status 0"

    [run] = sql(db, "SELECT kind, backend, status, counts FROM runs WHERE kind = 'student'")
    assert run[:3] == ("student", "batch", "finished") and json.loads(run[3]) == {"passed": 2, "failed": 1}

    ingest = invoke("feedback", "ingest", str(out), "--db", db, "--json")
    assert ingest.exit_code == 0, ingest.output
    assert json.loads(ingest.output)["added"] == 3
    rows = sql(db, "SELECT task_id, model, success, steps FROM student_results ORDER BY task_id")
    assert rows == sorted([(moved.name, model_folder(MODEL), 1, 2), (solved.name, model_folder(MODEL), 1, 1),
                           (wrong.name, model_folder(MODEL), 0, 1)])
    sft = tmp_path / "sft.jsonl"
    exported = invoke("export", "trajectories", str(sft), "--results", str(out))
    assert exported.exit_code == 0, exported.output
    assert sorted(row["task_id"] for row in lines(sft)) == sorted([moved.name, solved.name])

    again = invoke("student", "answers", str(answers), "--model", MODEL, "--out", str(out), "--db", db)
    assert "0 passed, 0 failed, 0 infrastructure failures, 3 already done" in again.output, again.output
    assert (folder(out, wrong) / "result.txt").read_text() == "0.0\n", "a finished task is not redone"


def test_the_answers_shell_is_the_students_sandbox(tasks, tmp_path):
    """An answer cannot read the package (solution, rubric) or reach the network; its outputs are recorded."""
    package = calc(tasks)[0]
    canary = (package / "task.json").resolve()
    out = tmp_path / "results"
    counts = run_answers([package], {package.name: [f"cat {canary}", "curl -sS -m 3 http://1.1.1.1/ && echo REACHED"]},
                         model="teacher", out=out, sandbox=Sandbox(Limits(wall_seconds=20)), catalog=None)
    assert counts == {"failed": 1}
    traj = lines(folder(out, package, "teacher") / "traj.jsonl")
    assert "No such file" in traj[0]["output"] and traj[0]["exit_code"] != 0
    assert "REACHED" not in traj[1]["output"] and traj[1]["exit_code"] != 0
    with pytest.raises(StudentRunError, match="name no given package"):
        run_answers([package], {"elsewhere--s1--00000": ["true"]}, model="teacher", out=out,
                    sandbox=Sandbox(Limits(wall_seconds=20)), catalog=None)


def test_more_commands_than_the_step_budget_are_not_run(tasks, tmp_path):
    package = files(tasks)
    out = tmp_path / "results"
    counts = run_answers([package], {package.name: Answer(("echo 1", "echo 2", "touch late"))}, model="m",
                         out=out, sandbox=Sandbox(Limits(wall_seconds=20)), catalog=None, max_steps=2)
    assert counts == {"failed": 1}
    verdict = json.loads((folder(out, package, "m") / "checks.json").read_text())
    assert verdict["ended"] == "step budget" and verdict["steps"] == 2
    assert [s["action"] for s in lines(folder(out, package, "m") / "traj.jsonl")] == ["echo 1", "echo 2"]


CALL = {"id": "c1", "type": "function", "function": {"name": "shell", "arguments": "{\"command\": \"ls\"}"}}


@pytest.mark.parametrize("line, commands, problem", [
    ({"task_id": "t", "script": "cd a && ls\nrm b"}, ("cd a && ls\nrm b",), ""),
    ({"task_id": "t", "script": "  "}, (), ""),
    ({"task_id": "t", "commands": ["ls", "", "pwd"]}, ("ls", "pwd"), ""),
    ({"task_id": "t", "content": "First:\n```bash\nls\n```\n```sql\nDROP\n```\n```python\nprint(1)\n```"},
     ("ls", "python3 - <<'FORGE_PY'\nprint(1)\nFORGE_PY"), ""),
    ({"task_id": "t", "content": "I am done. DONE"}, (), ""),
    ({"task_id": "t", "content": "```bash\nls\n"}, (), ""),  # a block cut off mid-command is never run
    ({"custom_id": "t", "response": {"body": {"choices": [{"message": {"content": None, "tool_calls": [
        CALL, {"id": "c2", "type": "function", "function": {"name": "browser", "arguments": "{}"}}]}}]}}},
     ("ls",), ""),
    ({"custom_id": "t", "response": {"status_code": 500, "body": {"error": "overloaded"}}}, None, "no choices"),
    ({"custom_id": "t", "response": None, "error": {"message": "timeout"}}, None, "batch request failed"),
    ({"task_id": "t", "commands": "ls"}, None, "list of strings"),
    ({"task_id": "t", "script": ["ls"]}, None, "must be a string"),
    ({"task_id": "t"}, None, "no answer; give \"script\""),
    ({"script": "ls"}, None, "no \"task_id\""),
    (["t", "ls"], None, "not a JSON object"),
], ids=["script", "empty-script", "commands", "content-blocks", "content-done", "open-block", "tool-calls",
        "http-500", "batch-error", "commands-str", "script-list", "neither", "no-id", "array"])
def test_parse_answer(line, commands, problem):
    answer, task_id, why = parse_answer(json.dumps(line), 7)
    if problem:
        assert answer is None and problem in why and "\n" not in why
    else:
        assert why == "" and task_id == "t" and answer is not None
        assert answer.commands == commands and answer.line == 7
