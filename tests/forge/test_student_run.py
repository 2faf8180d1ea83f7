"""`forge student run` against a scripted agent on a real loopback chat-completions server (tests/agentserver.py),
through the real `openai` client, real bubblewrap, real check workers and a real SQLite catalog: a model that
solves a Calc task with a python one-liner, one that loops forever, ones that answer garbage, one that tries to
read the hidden solution and reach the network; resume, budget, the text-protocol fallback, and the loop
`round run -> student run -> feedback ingest -> round run`."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from forge.agent.episode import ELIDED, fit_context, parse_command
from forge.agent.shell import refuse_visible, truncate
from forge.cli import app
from forge.student_run import model_folder
from kit import scratch
from kit.errors import SandboxError
from tests.agentserver import Act, AgentServer, tool_results

runner = CliRunner()
MODEL = "test/agent-1"


def invoke(*args: str) -> Any:
    return runner.invoke(app, list(args))


def sql(db: str, query: str) -> list[tuple]:
    with sqlite3.connect(db.removeprefix("sqlite:///")) as conn:
        return conn.execute(query).fetchall()


@pytest.fixture(scope="module")
def tasks(tmp_path_factory) -> tuple[Path, str]:
    """Two real Calc tasks (rename a sheet) through the real gate, in a catalog."""
    root = tmp_path_factory.mktemp("student")
    db = f"sqlite:///{root / 'forge.db'}"
    result = invoke("generate", "--skill", "calc.sheets.rename", "--register", "explicit", "-n", "2", "--seed",
                    "4", "--out", str(root / "tasks"), "--db", db,
                    "--real-apps", "off")
    assert result.exit_code == 0, result.output
    packages = sorted((root / "tasks" / "libreoffice_calc").iterdir())
    assert len(packages) == 2
    return root, db


def packages(tasks: tuple[Path, str]) -> list[Path]:
    return sorted((tasks[0] / "tasks" / "libreoffice_calc").iterdir())


def fresh_db(tasks: tuple[Path, str], tmp_path: Path) -> str:
    target = tmp_path / "copy.db"
    with sqlite3.connect(tasks[1].removeprefix("sqlite:///")) as source, sqlite3.connect(target) as dest:
        source.backup(dest)
    return f"sqlite:///{target}"


def solver(body: dict[str, Any]) -> Act:
    """A competent agent: reads the instruction and renames the sheet with one python command."""
    if tool_results(body):
        return Act(content="The sheet is renamed and the file saved. DONE")
    text = body["messages"][1]["content"]
    path = re.search(r"(/home/user/\S+?\.xlsx)", text).group(1)
    old, new = re.search(r"Rename the sheet '(.+?)' to '(.+?)'", text).groups()
    command = (f"python3 -c \"import openpyxl; p='{path}'; wb=openpyxl.load_workbook(p); "
               f"wb['{old}'].title='{new}'; wb.save(p)\"")
    return Act(content="I will rename the sheet with openpyxl.", commands=(command,))


def student(server: AgentServer, out: Path, db: str, *targets: str, extra: tuple[str, ...] = ()) -> Any:
    return invoke("student", "run", *targets, "--model", MODEL, "--base-url", server.base_url, "--out", str(out),
                  "--db", db, "--step-timeout", "20", *extra)


def folder(out: Path, package: Path) -> Path:
    return out / "shell" / "terminal" / model_folder(MODEL) / "libreoffice_calc" / package.name


def steps(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (path / "traj.jsonl").read_text().splitlines()]


def test_solves_a_calc_task_with_a_python_one_liner_and_resumes(tasks, tmp_path):
    db, out = fresh_db(tasks, tmp_path), tmp_path / "results"
    package = packages(tasks)[0]
    with AgentServer(solver) as server:
        result = student(server, out, db, str(package))
        assert result.exit_code == 0, result.output
        assert "1 passed, 0 failed" in result.output
        assert re.search(r"model turns: 2 \(0 from the cache, free\), [\d,]+ tokens, \$0\.0000", result.output)
        first = len(server.bodies)
        assert first == 2 and server.bodies[0]["tools"][0]["function"]["name"] == "shell"
        # the model saw the instruction, never the rubric or the solution
        shown = json.dumps(server.bodies)
        assert "oracle" not in shown and "expected" not in shown and "near-miss" not in shown

        again = student(server, out, db, str(package))
        assert again.exit_code == 0, again.output
        assert "1 already done" in again.output and len(server.bodies) == first, "a finished task is not redone"

    result_dir = folder(out, package)
    assert (result_dir / "result.txt").read_text() == "1.0\n"
    traj = steps(result_dir)
    assert traj[0]["action"].startswith("python3 -c") and traj[0]["exit_code"] == 0
    assert traj[0]["prompt_tokens"] > 0 and traj[0]["seconds"] > 0 and traj[-1]["done"] is True
    verdict = json.loads((result_dir / "checks.json").read_text())
    assert verdict["failed_checks"] == [] and {c["id"] for c in verdict["checks"]} >= {"sheet-names"}
    messages = json.loads((result_dir / "messages.json").read_text())["messages"]
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "tool", "assistant"]
    assert json.loads(messages[2]["tool_calls"][0]["function"]["arguments"])["command"] == traj[0]["action"]

    run = sql(db, "SELECT id, kind, status, counts FROM runs WHERE kind = 'student' ORDER BY id")
    assert [r[1:3] for r in run] == [("student", "finished"), ("student", "finished")]
    assert json.loads(run[0][3]) == {"passed": 1} and json.loads(run[1][3]) == {"already": 1}
    calls = sql(db, f"SELECT node, backend, cached, prompt_tokens > 0 FROM llm_calls WHERE run_id = {run[0][0]}")
    assert calls == [("student", "openai", 0, 1)] * 2

    ingest = invoke("feedback", "ingest", str(out), "--db", db, "--json")
    assert ingest.exit_code == 0, ingest.output
    assert json.loads(ingest.output)["added"] == 1
    rows = sql(db, "SELECT task_id, model, success, steps, failed_checks FROM student_results")
    assert rows == [(package.name, model_folder(MODEL), 1, 1, "[]")], "one command; the final DONE line is no step"


def test_an_endless_loop_ends_at_the_step_budget(tasks, tmp_path):
    db, out = fresh_db(tasks, tmp_path), tmp_path / "results"
    package = packages(tasks)[1]
    with AgentServer(lambda body: Act(commands=("ls -R; seq 1000 1300",))) as server:
        result = student(server, out, db, str(package), extra=("--max-steps", "4", "--context-chars", "4000"))
        assert result.exit_code == 0, result.output
        assert len(server.bodies) == 4
        shown = tool_results(server.bodies[-1])
        assert shown[0] == ELIDED and shown[-1].endswith("1300\n"), "old outputs make room for new ones"
    result_dir = folder(out, package)
    traj = steps(result_dir)
    assert (result_dir / "result.txt").is_file(), traj[-1]
    assert (result_dir / "result.txt").read_text() == "0.0\n"
    assert [s["step_num"] for s in traj] == [1, 2, 3, 4] and ".xlsx" in traj[0]["output"]
    verdict = json.loads((result_dir / "checks.json").read_text())
    assert verdict["ended"] == "step budget" and "sheet-names" in verdict["failed_checks"]
    assert invoke("feedback", "ingest", str(out), "--db", db).exit_code == 0
    [(failed,)] = sql(db, "SELECT failed_checks FROM student_results")
    assert "sheet-names" in json.loads(failed)


GARBAGE_CALLS = ({"id": "a", "type": "function", "function": {"name": "shell", "arguments": "{not json"}},
                 {"id": "b", "type": "function", "function": {"name": "browser", "arguments": "{}"}},
                 {"id": "c", "type": "function", "function": {"name": "shell", "arguments": "{\"cmd\": 1}"}})


def garbage_calls(body: dict[str, Any]) -> Act:
    return Act(content=None, raw_calls=GARBAGE_CALLS) if not tool_results(body) else Act(content="\x00\ufffd{{{")


@pytest.mark.parametrize("script, scored", [
    (lambda body: Act(content="\x00\x1b[31m]]} ::: \ufffd" * 20), True),   # garbage text: the model is done
    (garbage_calls, True),                                                   # malformed tool calls: errors back
    (lambda body: Act(raw_body=b"<html>502 bad gateway</html>"), False),     # not JSON: infrastructure
    (lambda body: Act(raw_body=b'{"choices": 5, "usage": "x"}'), False),     # JSON of the wrong shape
    (lambda body: Act(raw_body=b"{}", status=503), False),                   # a server that keeps failing
], ids=["text", "tool-calls", "not-json", "wrong-shape", "http-503"])
def test_garbage_never_crashes_the_run(tasks, tmp_path, script, scored):
    db, out = fresh_db(tasks, tmp_path), tmp_path / "results"
    config = tmp_path / "llm.toml"
    config.write_text("[llm]\nmax_attempts = 2\nbackoff = 0\nmax_wait = 0\n")
    package = packages(tasks)[0]
    with AgentServer(script) as server:
        result = student(server, out, db, str(package), extra=("--config", str(config)))
    assert result.exit_code == 0, result.output
    result_dir = folder(out, package)
    traj = steps(result_dir)
    if scored:
        assert (result_dir / "result.txt").is_file(), traj[-1]
        assert (result_dir / "result.txt").read_text() == "0.0\n" and "0 infrastructure failures" in result.output
        if script is garbage_calls:
            assert [bool(s.get("error")) for s in traj] == [True, True, True, False]
            assert "not JSON" in traj[0]["error"] and "unknown tool 'browser'" in traj[1]["error"]
            tools = [m for m in json.loads((result_dir / "messages.json").read_text())["messages"]
                     if m["role"] == "tool"]
            assert [m["tool_call_id"] for m in tools] == ["a", "b", "c"]
    else:
        assert not (result_dir / "result.txt").exists() and "1 infrastructure failures" in result.output
        assert "Error" in traj[-1] and "could not be reached" in traj[-1]["Error"]
        ingest = invoke("feedback", "ingest", str(out), "--db", db, "--json")
        assert json.loads(ingest.output)["infra_failures"] == 1


def test_the_agent_cannot_read_the_solution_or_reach_the_network(tasks, tmp_path):
    """A canary planted in the package's solution/ must not show up anywhere the agent can look; the network,
    including the host's loopback (where the model's own server listens), is unreachable."""
    db, out = fresh_db(tasks, tmp_path), tmp_path / "results"
    package = tmp_path / "pkg" / packages(tasks)[0].name
    shutil.copytree(packages(tasks)[0], package)
    canary = "forge-canary-7f3a9c1e"
    (package / "solution" / "canary.txt").write_text(canary)
    attempts = [
        f"cat {package}/solution/canary.txt {package}/solution/oracle.json {package}/task.json",
        "ls -la /forge/pkg; find / -xdev \\( -name 'canary*' -o -name oracle.json -o -name task.json \\) "
        "2>/dev/null | head",
        # contents of every file outside the system and Python folders (8 GB of /opt would outlast the step)
        f"grep -rlI --exclude-dir={{proc,usr,opt,python3.11}} {canary} / 2>/dev/null | head; echo searched",
        "curl -sS -m 3 http://1.1.1.1/ && echo REACHED",
        "python3 -c \"import socket; socket.create_connection(('1.1.1.1', 80), 3); print('REACHED')\"",
    ]

    def attacker(body: dict[str, Any]) -> Act:
        done = len(tool_results(body))
        if done < len(attempts) + 1:
            command = attempts[done] if done < len(attempts) else (
                f"python3 -c \"import socket; socket.create_connection(('127.0.0.1', {server.port}), 3); "
                "print('REACHED')\"")
            return Act(commands=(command,))
        return Act(content="DONE")

    with AgentServer(attacker) as server:
        server.port = server.httpd.server_address[1]  # type: ignore[attr-defined]
        result = student(server, out, db, str(package))
        assert result.exit_code == 0, result.output
        outputs = tool_results(server.bodies[-1])
    assert len(outputs) == len(attempts) + 1
    everything = "\n".join(outputs)
    assert "REACHED" not in everything and canary not in everything
    assert '"rubric"' not in everything and '"ops"' not in everything
    assert outputs[0].count("No such file") == 3 and "No such file" in outputs[1] and "searched" in outputs[2]
    assert "Connection refused" in outputs[-1] or "Network is unreachable" in outputs[-1]
    assert (folder(out, package) / "result.txt").read_text() == "0.0\n"


@pytest.mark.parametrize("status", [400, 500])
def test_a_server_without_tool_calling_gets_the_text_protocol(tasks, tmp_path, status):
    db, out = fresh_db(tasks, tmp_path), tmp_path / "results"

    def text_solver(body: dict[str, Any]) -> Act:
        act = solver(body)
        return Act(content=f"Let me do it.\n```bash\n{act.commands[0]}\n```") if act.commands else Act(content="DONE")

    with AgentServer(text_solver, reject_tools=status) as server:
        result = student(server, out, db, str(tasks[0] / "tasks"))
        assert result.exit_code == 0, result.output
        assert "2 passed" in result.output
        assert server.probes == 1, "the tool-calling probe found out once, before any task"
        assert [bool(b.get("tools")) for b in server.bodies] == [False] * 4
        assert "```bash" in server.bodies[0]["messages"][0]["content"]
    for package in packages(tasks):
        messages = json.loads((folder(out, package) / "messages.json").read_text())["messages"]
        assert messages[2]["tool_calls"][0]["function"]["name"] == "shell", "exported in tool-call form"
        assert json.loads((folder(out, package) / "checks.json").read_text())["protocol"] == "text"


def test_budget_stops_a_run_and_a_rerun_continues(tasks, tmp_path):
    db, out = fresh_db(tasks, tmp_path), tmp_path / "results"
    with AgentServer(solver) as server:
        stopped = student(server, out, db, str(tasks[0] / "tasks"), extra=("--max-tokens", "1"))
        assert stopped.exit_code == 0, stopped.output
        assert "1 passed" in stopped.output and "stopped: --max-tokens 1 reached" in stopped.output
        # a killed task (no result.txt) is redone from scratch; a finished one is skipped
        shutil.rmtree(folder(out, packages(tasks)[0]))
        (folder(out, packages(tasks)[0])).mkdir(parents=True)
        (folder(out, packages(tasks)[0]) / "traj.jsonl").write_text('{"step_num": 1, "action": "half"}\n')
        more = student(server, out, db, str(tasks[0] / "tasks"), extra=("--concurrency", "2"))
        assert more.exit_code == 0, more.output
        assert "2 passed" in more.output or ("1 passed" in more.output and "1 already" in more.output)
    for package in packages(tasks):
        assert (folder(out, package) / "result.txt").read_text() == "1.0\n"
        assert "half" not in (folder(out, package) / "traj.jsonl").read_text()
    statuses = sql(db, "SELECT status FROM runs WHERE kind = 'student' ORDER BY id")
    assert statuses == [("stopped",), ("finished",)]


def test_a_refused_model_is_one_line_error(tasks, tmp_path):
    db, out = fresh_db(tasks, tmp_path), tmp_path / "results"
    with AgentServer(lambda body: Act(raw_body=b'{"error": {"message": "bad key"}}', status=401)) as server:
        result = student(server, out, db, str(tasks[0] / "tasks"))
    assert result.exit_code == 1
    assert result.output.strip().startswith("Error:") and "refused model" in result.output
    assert "Traceback" not in result.output
    assert sql(db, "SELECT status FROM runs WHERE kind = 'student'") == [("failed",)]


def test_selection_errors_say_what_to_give(tasks, tmp_path):
    db = fresh_db(tasks, tmp_path)
    none = invoke("student", "run", "--model", MODEL, "--base-url", "http://127.0.0.1:9/v1", "--db", db)
    assert none.exit_code == 1 and "give exactly one of" in none.output
    offline = invoke("student", "run", "--round", "0", "--llm", "offline", "--db", db)
    assert offline.exit_code == 1 and "needs a model" in offline.output
    blocker = tmp_path / "file"
    blocker.write_text("x")
    bad_out = invoke("student", "run", str(packages(tasks)[0]), "--model", MODEL, "--base-url", "http://127.0.0.1:9/v1",
                     "--out", str(blocker / "results"), "--db", db)
    assert bad_out.exit_code == 1 and bad_out.output.startswith(f"Error: --out {blocker / 'results'}: cannot create")
    nowhere = invoke("student", "run", str(tmp_path / "nowhere"), "--model", MODEL, "--base-url",
                     "http://127.0.0.1:9/v1", "--db", db)
    assert nowhere.exit_code == 1 and "not a folder" in nowhere.output


def test_parse_command_and_truncate():
    assert parse_command("Sure.\n```bash\nls -la\n```\nthen") == "ls -la"
    assert parse_command("```\necho hi\n```") == "echo hi"
    assert parse_command("DONE") is None and parse_command("") is None and parse_command("```bash\n\n```") is None
    assert parse_command("```python\nprint(1)\n```") == "python3 - <<'FORGE_PY'\nprint(1)\nFORGE_PY"
    text_call = '<tool_call>\n{"name": "shell", "arguments": {"command": "ls Desktop"}}\n</tool_call>'
    assert parse_command(text_call) == "ls Desktop"
    assert parse_command('<tool_call>{"name": "shell", "arguments": "{\\"command\\": \\"pwd\\"}"}</tool_call>') == "pwd"
    assert parse_command("<tool_call>{broken</tool_call>") is None
    cut = truncate("a" * 100 + "b" * 100, 40)
    assert cut.startswith("a" * 30) and cut.endswith("b" * 10) and "160 characters left out" in cut


@pytest.mark.slow
def test_round_student_ingest_round_on_one_machine(tmp_path):
    db, out = f"sqlite:///{tmp_path / 'forge.db'}", tmp_path / "results"
    first = invoke("round", "run", "--round", "1", "--budget", "3", "--grow", "1", "--k", "1", "--seed", "5",
                   "--out", str(tmp_path / "round1"), "--db", db, "--json")
    assert first.exit_code == 0, first.output
    with AgentServer(lambda body: Act(content="I looked at it. DONE")) as server:
        result = student(server, out, db, extra=("--round", "1", "--concurrency", "2"))
        assert result.exit_code == 0, result.output
    accepted = sql(db, "SELECT count(*) FROM tasks WHERE round = 1 AND status = 'accepted'")[0][0]
    assert accepted >= 1 and f"{accepted} tasks: 0 passed, {accepted} failed" in result.output
    ingest = invoke("feedback", "ingest", str(out), "--db", db, "--json")
    assert ingest.exit_code == 0 and json.loads(ingest.output)["added"] == accepted, ingest.output
    assert sql(db, "SELECT count(*) FROM student_results WHERE failed_checks != '[]'")[0][0] == accepted
    second = invoke("round", "run", "--round", "2", "--budget", "3", "--grow", "1", "--k", "1", "--seed", "5",
                    "--out", str(tmp_path / "round2"), "--db", db, "--json")
    assert second.exit_code == 0, second.output
    assert sql(db, "SELECT count(*) FROM tasks WHERE round = 2")[0][0] >= 1


def test_a_killed_run_resumes_without_repeating_finished_tasks(tasks, tmp_path):
    """SIGKILL a real `forge student run` while the second task waits for the model; the rerun skips the first."""
    db, out = fresh_db(tasks, tmp_path), tmp_path / "results"
    first, second = packages(tasks)
    seen: list[str] = []

    def slow_on_second(body: dict[str, Any]) -> Act:
        text = body["messages"][1]["content"]
        if text not in seen:
            seen.append(text)
        return Act(delay=60) if text != seen[0] else solver(body)

    with AgentServer(slow_on_second) as server:
        proc = subprocess.Popen([sys.executable, "-m", "forge", "student", "run", str(tasks[0] / "tasks"), "--model",
                                 MODEL, "--base-url", server.base_url, "--out", str(out), "--db", db],
                                cwd=Path(__file__).resolve().parents[2], start_new_session=True,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 300
            while len(seen) < 2 and time.monotonic() < deadline and proc.poll() is None:
                time.sleep(0.2)
            assert len(seen) == 2, "the second task never reached the model"
        finally:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert (folder(out, first) / "result.txt").read_text() == "1.0\n"
    assert (folder(out, second) / "traj.jsonl").exists() and not (folder(out, second) / "result.txt").exists()

    with AgentServer(solver) as server:
        again = student(server, out, db, str(tasks[0] / "tasks"))
        assert again.exit_code == 0, again.output
        asked = {b["messages"][1]["content"] for b in server.bodies}
    assert asked == {seen[1]}, "only the unfinished task goes to the model again"
    assert "1 passed, 0 failed, 0 infrastructure failures, 1 already done" in again.output
    assert sql(db, "SELECT status FROM runs WHERE kind = 'student' ORDER BY id") == [("interrupted",), ("finished",)]
    assert (folder(out, second) / "result.txt").read_text() == "1.0\n"


def test_a_catalog_query_selects_tasks(tasks, tmp_path):
    db, out = fresh_db(tasks, tmp_path), tmp_path / "results"
    query = f"SELECT id FROM tasks WHERE id = '{packages(tasks)[1].name}'"
    with AgentServer(lambda body: Act(content="DONE")) as server:
        result = student(server, out, db, extra=("--query", query))
        assert result.exit_code == 0, result.output
        assert "1 tasks: 0 passed, 1 failed" in result.output
    assert (folder(out, packages(tasks)[1]) / "result.txt").exists()
    bad = invoke("student", "run", "--query", "SELECT 'nope'", "--model", MODEL, "--base-url", "http://127.0.0.1:9/v1",
                 "--db", db)
    assert bad.exit_code == 1 and "not catalog tasks" in bad.output


def test_a_hostile_end_state_is_scored_not_crashed(tasks, tmp_path):
    """The agent replaces the workbook with a fifo, plants links out of the home and a 1500-deep folder chain:
    scored 0 with evidence, no crash, nothing left behind."""
    db, out = fresh_db(tasks, tmp_path), tmp_path / "results"
    package = packages(tasks)[0]

    def vandal(body: dict[str, Any]) -> Act:
        if tool_results(body):
            return Act(content="DONE")
        path = re.search(r"(/home/user/\S+?\.xlsx)", body["messages"][1]["content"]).group(1)
        return Act(commands=(f"rm -f '{path}' && mkfifo '{path}' && ln -s /etc/passwd leak && ln -s / root",
                             "for i in $(seq 1500); do mkdir d && cd d || exit 1; done; echo deep"))

    def ours() -> set[Path]:  # this process's scratch folders (a session-wide gate runner may hold one already)
        return {p for p in Path(scratch.scratch_root()).glob(f"forge-*-{os.getpid()}-*") if p.is_dir()}

    before = ours()
    with AgentServer(vandal) as server:
        result = student(server, out, db, str(package))
        assert result.exit_code == 0, result.output
    assert "0 passed, 1 failed, 0 infrastructure failures" in result.output
    verdict = json.loads((folder(out, package) / "checks.json").read_text())
    assert verdict["score"] == 0.0 and "sheet-names" in verdict["failed_checks"]
    violations = " ".join(verdict["violations"])
    assert "special file" in violations and ("symlink" in violations or "deep" in violations), violations
    assert ours() == before, "the hostile home was removed"


def test_near_miss_tool_calls_from_small_models_still_run(tasks, tmp_path):
    """Arguments sent as an object instead of a JSON string, `cmd` for `command`, and a `<tool_call>` left in the
    text by a server that did not parse it: each runs its command."""
    db, out = fresh_db(tasks, tmp_path), tmp_path / "results"
    package = packages(tasks)[0]
    sloppy = ({"id": "x", "type": "function", "function": {"name": "shell", "arguments": {"command": "echo one"}}},
              {"id": "y", "type": "function", "function": {"name": "shell", "arguments": "{\"cmd\": \"echo two\"}"}})

    def model(body: dict[str, Any]) -> Act:
        done = len(tool_results(body))
        if done == 0:
            return Act(raw_calls=sloppy)
        if done == 2:
            return Act(content='<tool_call>\n{"name": "shell", "arguments": {"command": "echo three"}}\n</tool_call>')
        return Act(content="DONE")

    with AgentServer(model) as server:
        result = student(server, out, db, str(package))
        assert result.exit_code == 0, result.output
    traj = steps(folder(out, package))
    assert [(s["action"], s["output"]) for s in traj[:3]] == [(f"echo {n}", f"exit status 0\n{n}\n")
                                                              for n in ("one", "two", "three")]


def test_fit_context_leaves_out_the_oldest_outputs_in_both_forms():
    sent = [{"role": "system", "content": "s"}, {"role": "user", "content": "task"}]
    canonical = [dict(m) for m in sent]
    for n in range(3):
        sent += [{"role": "assistant", "content": f"run {n}"}, {"role": "user", "content": "Output:\n" + "x" * 100}]
        canonical += [{"role": "assistant", "content": f"run {n}", "tool_calls": []},
                      {"role": "tool", "tool_call_id": str(n), "content": "x" * 100}]
    fit_context(sent, canonical, 250)
    assert [m["content"] for m in sent[3::2]] == ["Output:\n" + ELIDED, "Output:\n" + ELIDED, "Output:\n" + "x" * 100]
    assert [m["content"] for m in canonical[3::2]] == [ELIDED, ELIDED, "x" * 100]
    assert canonical[3]["tool_call_id"] == "0"


def test_packages_the_agent_could_read_are_refused(tmp_path, monkeypatch):
    """Agent commands see the system folders and Forge's Python read-only: a package there would show its
    solution, so it is refused before anything runs."""
    monkeypatch.setattr(sys, "prefix", str(tmp_path / "venv"))
    inside = tmp_path / "venv" / "tasks" / "t1"
    inside.mkdir(parents=True)
    with pytest.raises(SandboxError, match="copy the packages elsewhere"):
        refuse_visible(inside)
    with pytest.raises(SandboxError, match="under /usr"):
        refuse_visible(Path("/usr/share/forge-tasks/t1"))
    refuse_visible(tmp_path / "tasks" / "t1")  # elsewhere: fine


@pytest.mark.parametrize("hostile", ["{victim}", "../../../../victim", "a/../../b", "..", ".hidden", "-rf", "x" * 201])
def test_a_hostile_package_id_is_one_error_and_touches_nothing(tasks, tmp_path, hostile):
    """task.json's `id` (and `app`) become folder names: an absolute id or one with `..` once made `student run`
    empty a host folder. It is refused when the package is read, before the run makes or removes anything."""
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "keep.txt").write_text("precious")
    for field in ("id", "app"):
        package = tmp_path / f"pkg-{field}"
        shutil.copytree(packages(tasks)[0], package)
        task = json.loads((package / "task.json").read_text())
        task[field] = hostile.format(victim=victim)
        (package / "task.json").write_text(json.dumps(task))
        out = tmp_path / f"results-{field}"
        result = invoke("student", "run", str(package), "--model", MODEL, "--base-url", "http://127.0.0.1:9/v1",
                        "--out", str(out), "--db", fresh_db(tasks, tmp_path))
        assert result.exit_code == 1, result.output
        assert result.output.startswith("Error: ") and len(result.output.strip().splitlines()) == 1, result.output
        assert f"{field} " in result.output and "cannot name a folder" in result.output
        assert (victim / "keep.txt").read_text() == "precious"
        assert not out.exists() or not any(out.rglob("*.txt"))


def test_a_hostile_catalog_id_cannot_make_an_export_write_outside(tasks, tmp_path):
    """A shared catalog is writable by others: a row id holding `../` must not lead `export osworld` (or a
    simulated student) outside its output folder."""
    from forge.catalog import Catalog
    from forge.export.osworld import export_osworld
    from kit.errors import UnsafeIdError

    db = fresh_db(tasks, tmp_path)
    first = packages(tasks)[0].name
    with sqlite3.connect(db.removeprefix("sqlite:///")) as conn:
        conn.execute("UPDATE tasks SET id = ? WHERE id = ?", ("../../../escaped", first))
    out = tmp_path / "export"
    with pytest.raises(UnsafeIdError, match="task id '../../../escaped' cannot name a folder"):
        export_osworld(Catalog(db), out)
    assert not list(tmp_path.rglob("escaped*"))
    result = invoke("export", "osworld", str(out), "--db", db)
    assert result.exit_code == 1 and result.output.startswith("Error: task id '../../../escaped'"), result.output


def test_safe_ids_and_paths_inside(tmp_path):
    from kit.errors import UnsafeIdError
    from kit.ids import path_inside, safe_id

    for good in ("calc.sheets.rename--s4--00000", "libreoffice_calc", "A-1.b_c", "x" * 200):
        assert safe_id(good) == good
    for bad in ("", ".", "..", "../x", "/etc", "a/b", "a\\b", ".x", "-x", "x" * 201, "a\x00b", "é", 7, None):
        with pytest.raises(UnsafeIdError):
            safe_id(bad)
    (tmp_path / "root").mkdir()
    (tmp_path / "root" / "link").symlink_to(tmp_path)
    assert path_inside(tmp_path / "root", "assets/a.xlsx") == (tmp_path / "root" / "assets" / "a.xlsx").resolve()
    for bad in ("../x", "/etc/passwd", "link/x", ".", "a/../../x"):
        with pytest.raises(UnsafeIdError, match="leads outside"):
            path_inside(tmp_path / "root", bad)
