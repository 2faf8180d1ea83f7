"""Bounded model I/O of `forge student run`, against a real loopback chat server (tests/agentserver.py) through the
real `openai` client and real bubblewrap: a command over the kernel's per-argument limit is a tool error the model
sees (it made bubblewrap fail and stopped the whole run, and the cache replayed it), a turn whose command failed for
the machine is not cached, a dripping reply ends at the deadline with its tokens counted, a huge reply is cut and
stored once, a server that ignores tools gets the text protocol, and fenced blocks are read by a Markdown parser."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

from forge.agent.episode import parse_command
from forge.agent.shell import MAX_ARG_BYTES, AgentShell
from kit.errors import SandboxError
from tests.agentserver import Act, AgentServer, tool_results
from tests.forge.test_student_run import folder, fresh_db, packages, solver, sql, steps, student, tasks  # noqa: F401

CONFIG = "[llm]\nmax_attempts = 2\nbackoff = 0\nmax_wait = 0\n"


def config(tmp_path: Path, extra: str = "") -> str:
    path = tmp_path / "llm.toml"
    path.write_text(CONFIG + extra)
    return str(path)


def test_a_command_over_the_argument_limit_is_a_tool_error_and_the_episode_goes_on(tasks, tmp_path):  # noqa: F811
    db, out = fresh_db(tasks, tmp_path), tmp_path / "results"
    package = packages(tasks)[0]
    huge = "echo " + "x" * MAX_ARG_BYTES

    def model(body: dict[str, Any]) -> Act:
        shown = tool_results(body)
        if not shown:
            return Act(commands=(huge,))
        if len(shown) == 1:
            assert "not run: the command is 131,077 bytes, over the system's limit" in shown[0], shown[0]
            return solver({**body, "messages": body["messages"][:2]})
        return Act(content="DONE")

    # a model allowed 40,000 tokens a reply can write one 131 KB command (the reply cap is 32 characters a token)
    flags = ("--max-tokens-per-call", "40000", "--checkpoint", "test")
    with AgentServer(model) as server:
        result = student(server, out, db, str(package), extra=flags)
        assert result.exit_code == 0, result.output
        assert "1 passed, 0 failed, 0 infrastructure failures" in result.output
        asked = len(server.bodies)
        folder(out, package).joinpath("result.txt").unlink()  # run it again: the cached turns replay, nothing fails
        again = student(server, out, db, str(package), extra=flags)
        assert again.exit_code == 0 and "1 passed" in again.output, again.output
        assert len(server.bodies) == asked, "every turn came from the cache"
    traj = steps(folder(out, package))
    assert traj[0]["exit_code"] == 126 and traj[0]["output"].startswith("not run:")


def test_a_turn_whose_command_failed_for_the_machine_is_infrastructure_and_not_cached(tasks, tmp_path,  # noqa: F811
                                                                                      monkeypatch):
    db, out = fresh_db(tasks, tmp_path), tmp_path / "results"
    first, second = packages(tasks)
    real = AgentShell.run
    broken = {"on": True}
    seen: list[str] = []

    def flaky(self: AgentShell, home: Path, command: str) -> Any:
        """The first command of the run meets a sandbox that cannot start (a full disk, no namespaces left)."""
        if broken["on"] and not seen:
            seen.append(command)
            raise SandboxError("bwrap: Creating new namespace failed: No space left on device")
        return real(self, home, command)

    monkeypatch.setattr(AgentShell, "run", flaky)
    with AgentServer(solver) as server:
        result = student(server, out, db, str(first), str(second), extra=("--checkpoint", "test"))
        assert result.exit_code == 0, result.output  # the run went on to the other task
        assert "1 passed, 0 failed, 1 infrastructure failures" in result.output, result.output
        failed = next(p for p in (first, second) if not (folder(out, p) / "result.txt").exists())
        assert "the sandbox could not run step 1: SandboxError" in steps(folder(out, failed))[-1]["Error"]
        asked = len(server.bodies)
        broken["on"] = False
        again = student(server, out, db, str(first), str(second), extra=("--checkpoint", "test"))
        assert "1 passed, 0 failed, 0 infrastructure failures, 1 already done" in again.output, again.output
        assert len(server.bodies) == asked + 2, "the failed turn was asked again (not replayed from the cache)"


def test_a_dripping_reply_ends_at_the_deadline_and_its_tokens_stop_the_budget(tasks, tmp_path):  # noqa: F811
    db, out = fresh_db(tasks, tmp_path), tmp_path / "results"
    with AgentServer(lambda body: Act(content="Let me think. " * 400, drip=0.02)) as server:
        result = student(server, out, db, str(tasks[0] / "tasks"),
                         extra=("--config", config(tmp_path), "--llm-timeout", "1.5", "--max-tokens", "10"))
    assert result.exit_code == 0, result.output
    assert "1 infrastructure failures" in result.output and "stopped: --max-tokens 10 reached" in result.output
    failed = next(p for p in packages(tasks) if (folder(out, p) / "traj.jsonl").exists())
    assert "1.5 s deadline" in steps(folder(out, failed))[-1]["Error"]
    rows = sql(db, "SELECT ok, attempts, prompt_tokens, completion_tokens, estimated_tokens FROM llm_calls "
                   "WHERE node = 'student'")
    assert len(rows) == 1 and rows[0][:2] == (0, 2), rows
    ok, attempts, prompt, completion, estimated = rows[0]
    assert completion > 50 and estimated == prompt + completion, "counted by estimate, and marked as such"


def test_a_huge_reply_is_cut_at_the_cap_and_stored_once(tasks, tmp_path):  # noqa: F811
    db, out = fresh_db(tasks, tmp_path), tmp_path / "results"
    package = packages(tasks)[0]
    with AgentServer(lambda body: Act(content="Here it comes:", huge=50_000_000, commands=("touch pwned",))) as server:
        tracemalloc.start()
        result = student(server, out, db, str(package), extra=("--config", config(tmp_path)))
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert result.exit_code == 0, result.output
    assert "0 passed, 1 failed, 0 infrastructure failures" in result.output, result.output
    traj = steps(folder(out, package))
    assert len(traj) == 1 and "was cut off" in traj[0]["error"] and traj[0]["action"] == "DONE", traj
    sizes = {p.name: p.stat().st_size for p in folder(out, package).iterdir()}
    assert max(sizes.values()) < 50_000, sizes
    assert sql(db, "SELECT count(*) FROM llm_cache") == [(0,)], "a cut reply is not cached"
    assert peak < 60_000_000, f"peak {peak / 1e6:.0f} MB for a 50 MB reply"


def test_the_speed_probe_fits_the_turns_to_a_slow_server(tasks, tmp_path):  # noqa: F811
    """100 tokens/s and --llm-timeout 10: a 4,096-token turn would take ~41 s; the per-call limit that was not given
    is lowered to what fits (512), said once, and every turn is sent with it."""
    db, out = fresh_db(tasks, tmp_path), tmp_path / "results"
    with AgentServer(solver, tokens_per_second=100) as server:
        result = student(server, out, db, str(packages(tasks)[0]), extra=("--llm-timeout", "10"))
        assert result.exit_code == 0 and "1 passed" in result.output, result.output
        assert "--max-tokens-per-call lowered from 4096 to 512" in result.output, result.output
        assert server.speed_probes == 1 and {b["max_tokens"] for b in server.bodies} == {512}


def test_a_server_that_ignores_tools_gets_the_text_protocol(tasks, tmp_path):  # noqa: F811
    """The server takes the tool list and never returns a tool call; the model, told of a tool it cannot call,
    would answer in prose. The probe finds out once and every task speaks the text protocol."""
    db, out = fresh_db(tasks, tmp_path), tmp_path / "results"
    with AgentServer(solver, ignore_tools=True) as server:
        result = student(server, out, db, str(tasks[0] / "tasks"))
        assert result.exit_code == 0, result.output
        assert "2 passed" in result.output and server.probes == 1
        assert "protocol text: the server took the tool list but answered without a tool call" in result.output
        assert not any(b.get("tools") for b in server.bodies)
    for package in packages(tasks):
        assert json.loads((folder(out, package) / "checks.json").read_text())["protocol"] == "text"


def test_tool_arguments_with_raw_control_characters_are_read_leniently(tasks, tmp_path):  # noqa: F811
    db, out = fresh_db(tasks, tmp_path), tmp_path / "results"
    raw = {"id": "t", "type": "function", "function": {"name": "shell", "arguments": '{"command": "printf \'x\ty\'"}'}}
    with AgentServer(lambda body: Act(raw_calls=(raw,)) if not tool_results(body) else Act("DONE")) as server:
        result = student(server, out, db, str(packages(tasks)[0]))
    assert result.exit_code == 0, result.output
    assert steps(folder(out, packages(tasks)[0]))[0]["output"] == "exit status 0\nx\ty"


@pytest.mark.parametrize(("reply", "command"), [
    ("```sql\nSELECT 1;\n```\nrm -rf notes\n```", None),               # prose between blocks is never run
    ("```sql\nSELECT 1;\n```\n```bash\nls\n```", "ls"),                 # the first block that runs
    ("Let me look.\n```bash\nls -la\n```\nThen I will edit.", "ls -la"),
    ("```\nls\n```", "ls"),                                            # no language: a shell block
    ("~~~sh\necho tilde\n~~~", "echo tilde"),
    ("```python\nprint(1)\n```", "python3 - <<'FORGE_PY'\nprint(1)\nFORGE_PY"),
    ("```bash\nrm -rf notes", None),                                    # left open (cut off): not a block
    ("````markdown\n```bash\nrm -rf notes\n```\n````", None),          # a block quoted inside another
    ("Run `rm -rf notes` next.", None),                                 # inline code is not a command
    ("DONE", None),
])
def test_the_text_protocol_runs_only_what_is_inside_a_block(reply, command):
    assert parse_command(reply) == command


def test_progress_is_printed_while_a_slow_turn_streams():
    from forge.agent.chat import ChatClient
    from forge.llm.config import LLMConfig
    from forge.llm.stream import Ticker

    lines: list[str] = []
    with AgentServer(lambda body: Act(content="Thinking. " * 40, drip=0.01)) as server:
        chat = ChatClient(LLMConfig.model_validate({"backend": "openai", "model": "m", "base_url": server.base_url}))
        Ticker(chat.meter, lines.append, every=0.3).ensure()
        turn = chat.turn([{"role": "user", "content": "go"}], None, 0)
    assert turn.ok and turn.message["content"].startswith("Thinking.")
    assert lines and "1 request(s) in flight" in lines[0], lines
