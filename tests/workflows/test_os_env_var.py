"""os.env_var: the gate with every mutant, the checks on hand-made files (what bash and environment.d really read),
and wrong end states a lazy agent leaves."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kit.dag import NodeContext
from kit.llm import OfflineBackend
from tests.gatekit import gate_package, make_package, package_states
from verifiers.checks import State, run_check
from workflows.os.env_var import WORKFLOW

COMBOS = [(w, c) for w in ("environment_d", "bashrc", "profile") for c in ("add", "update")]


@pytest.mark.slow
@pytest.mark.parametrize(("where", "change"), COMBOS)
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, where, change):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"where": where, "change": change}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        kept = ["config.frame"] if where == "environment_d" else ["fs.lines_kept"]  # a .conf is a framed config
        assert [c["primitive"] for c in task["rubric"]] == ["env.variable_set", *kept, "tree.frame"]


def _set(tmp_path: Path, text: str, syntax: str, name: str = "JAVA_HOME",
         value: str = "/usr/lib/jvm/java-17") -> tuple[bool, str]:
    (tmp_path / "f").write_text(text)
    result = run_check(State(tmp_path), "env.variable_set",
                       {"path": "/home/user/f", "name": name, "value": value, "syntax": syntax})
    return result.passed, result.evidence


@pytest.mark.parametrize(("text", "passes"), [
    ("export JAVA_HOME=/usr/lib/jvm/java-17\n", True),
    ("export JAVA_HOME='/usr/lib/jvm/java-17'  # for gradle\n", True),
    ('JAVA_HOME="/usr/lib/jvm/java-17"\nexport JAVA_HOME\n', True),
    ("export PATH JAVA_HOME\nJAVA_HOME=/usr/lib/jvm/java-17\n", True),
    ("export JAVA_HOME=/old\nexport JAVA_HOME=/usr/lib/jvm/java-17\n", True),  # the last one wins
    ("export JAVA_HOME=/usr/lib/jvm/java-17\nexport JAVA_HOME=/old\n", False),
    ("JAVA_HOME=/usr/lib/jvm/java-17\n", False),  # never exported
    ("export JAVA_HOME = /usr/lib/jvm/java-17\n", False),  # a command to bash
    ("# export JAVA_HOME=/usr/lib/jvm/java-17\n", False),
    ("export JAVA_HOME=/usr/lib/jvm/java-17 extra\n", False),
    ("export JAVA_HOME='/usr/lib/jvm/java-17\n", False),  # an open quote
    ("export JAVA_HOMEX=/usr/lib/jvm/java-17\n", False),
])
def test_the_shell_reading(tmp_path, text, passes):
    assert _set(tmp_path, text, "shell")[0] is passes, text


@pytest.mark.parametrize(("text", "passes"), [
    ("JAVA_HOME=/usr/lib/jvm/java-17\n", True),
    ('# comment\nJAVA_HOME = "/usr/lib/jvm/java-17"\n', True),
    ("export JAVA_HOME=/usr/lib/jvm/java-17\n", False),  # environment.d has no export
    ("JAVA_HOME=/usr/lib/jvm/java-17\nJAVA_HOME=/old\n", False),
    ("#JAVA_HOME=/usr/lib/jvm/java-17\n", False),
])
def test_the_environment_d_reading(tmp_path, text, passes):
    assert _set(tmp_path, text, "environment.d")[0] is passes, text


def test_the_checks_survive_hostile_states(tmp_path):
    (tmp_path / "f").mkdir()
    for name, args in (("env.variable_set", {"name": "X", "value": "1", "syntax": "shell"}),
                       ("fs.lines_kept", {"lines": ["a"]})):
        for path in ("/home/user/f", "/home/user/missing", "/home/user/../../etc/passwd"):
            assert not run_check(State(tmp_path), name, {"path": path, **args}).passed
    (tmp_path / "bin").write_bytes(b"\x00\xff" * 100)
    assert not run_check(State(tmp_path), "fs.lines_kept", {"path": "/home/user/bin", "lines": ["a"]}).passed
    assert not run_check(State(tmp_path), "env.variable_set",
                         {"path": "/home/user/bin", "name": "X", "value": "1", "syntax": "bogus"}).passed


def test_lines_kept_allows_new_lines_between_but_not_lost_or_reordered(tmp_path):
    def kept(text: str) -> bool:
        (tmp_path / "k").write_text(text)
        return run_check(State(tmp_path), "fs.lines_kept", {"path": "/home/user/k", "lines": ["# a", "", "b=1"]}).passed
    assert kept("# a\nnew=2\nb=1\n")
    assert kept("# a\nb=1   \n\n")
    assert not kept("b=1\n# a\n")
    assert not kept("# a\n")


def _failing(folder: Path, state: Path) -> list[str]:
    task = json.loads((folder / "task.json").read_text())
    return [c["id"] for c in task["rubric"] if not run_check(State(state), c["primitive"], c["args"]).passed]


def test_hand_made_wrong_end_states_fail(tmp_path):
    folder = make_package(WORKFLOW, {"where": "bashrc", "change": "update"}, tmp_path / "pkg", seed=3)
    task = json.loads((folder / "task.json").read_text())
    _, after = package_states(folder, tmp_path / "oracle", task["solutions"]["oracle"])
    assert _failing(folder, after) == []
    args = task["rubric"][0]["args"]
    # the new export appended and the comments stripped out on the way (sed -i '/^#/d')
    _, stripped = package_states(folder, tmp_path / "stripped", task["solutions"]["oracle"])
    bashrc = stripped / ".bashrc"
    bashrc.write_text("".join(line + "\n" for line in bashrc.read_text().splitlines() if not line.startswith("#")))
    assert _failing(folder, stripped) == ["kept"]
    # set in a new ~/.bash_profile (which also stops bash reading ~/.profile at login)
    initial, wrong = package_states(folder, tmp_path / "wrong", task["solutions"]["oracle"])
    (wrong / ".bashrc").write_text((initial / ".bashrc").read_text())
    (wrong / ".bash_profile").write_text(f"export {args['name']}={args['value']}\n")
    assert "set" in _failing(folder, wrong)


@pytest.mark.parametrize(("where", "change"), COMBOS)
def test_the_instruction_names_the_file_variable_and_value(where, change):
    for register in ("explicit", "natural"):
        out = WORKFLOW.run(NodeContext({"where": where, "change": change}, 5, "t", 0, OfflineBackend(),
                                       register=register))
        check = out["rubric"][0]
        for key in ("path", "name", "value"):
            assert check.args[key] in out["instruction"], (key, out["instruction"])
