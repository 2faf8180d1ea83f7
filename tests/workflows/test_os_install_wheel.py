"""os.install_wheel: the gate with every mutant, the wheel is genuine (pip itself installs it and the check accepts
pip's result), the checks on hand-made end states, the op's slips."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from kit.dag import NodeContext
from kit.llm import OfflineBackend
from tests.gatekit import gate_package, make_package, package_states
from verifiers.checks import State, run_check
from workflows.os.install_wheel import WORKFLOW


@pytest.mark.slow
@pytest.mark.parametrize("entry", ["library", "command"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, entry):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"entry": entry}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        wanted = ["py.wheel_installed", *(["py.console_script"] if entry == "command" else []), "tree.frame"]
        assert [c["primitive"] for c in task["rubric"]] == wanted


def _package(tmp_path: Path, entry: str = "command", seed: int = 3) -> tuple[Path, dict]:
    folder = make_package(WORKFLOW, {"entry": entry}, tmp_path / "pkg", seed=seed)
    return folder, json.loads((folder / "task.json").read_text())


def _failing(task: dict, state: Path) -> list[str]:
    return [c["id"] for c in task["rubric"] if c["primitive"] != "tree.frame"
            and not run_check(State(state), c["primitive"], c["args"]).passed]


def test_the_wheel_is_genuine_and_pip_s_install_passes(tmp_path):
    folder, task = _package(tmp_path)
    initial, _ = package_states(folder, tmp_path / "s", task["solutions"]["oracle"])
    wheel = initial / task["rubric"][0]["args"]["wheel"].removeprefix("/home/user/")
    with zipfile.ZipFile(wheel) as zf:
        assert zf.testzip() is None
        assert {i.date_time for i in zf.infolist()} == {(2024, 1, 1, 0, 0, 0)}
    env = {**os.environ, "HOME": str(initial), "PYTHONUSERBASE": str(initial / ".local"), "PIP_NO_INPUT": "1"}
    ran = subprocess.run([sys.executable, "-m", "pip", "install", "--user", "--no-index", "--no-warn-script-location",
                          "--disable-pip-version-check", str(wheel)], env=env, capture_output=True, text=True,
                         timeout=120)
    if ran.returncode != 0:
        pytest.skip(f"pip cannot install here: {ran.stderr[-300:]}")
    assert _failing(task, initial) == []


def test_hand_made_wrong_end_states_fail(tmp_path):
    folder, task = _package(tmp_path)
    oracle = task["solutions"]["oracle"]
    _, after = package_states(folder, tmp_path / "oracle", oracle)
    assert _failing(task, after) == []
    installed = task["rubric"][0]["args"]
    site = next((after / ".local/lib").iterdir()) / "site-packages"
    # a module edited after the install (a 'quick fix' to the installed copy)
    _, edited = package_states(folder, tmp_path / "edited", oracle)
    rel = sorted(installed["files"])[0]
    target = next((edited / ".local/lib").iterdir()) / "site-packages" / rel
    target.write_text(target.read_text() + "\n# patched\n")
    assert _failing(task, edited) == ["installed"]
    # METADATA saying another version (an old dist-info renamed by hand)
    _, renamed = package_states(folder, tmp_path / "renamed", oracle)
    dist = next(p for p in (next((renamed / ".local/lib").iterdir()) / "site-packages").iterdir()
                if p.name.endswith(".dist-info"))
    meta = dist / "METADATA"
    meta.write_text(meta.read_text().replace(f"Version: {installed['version']}", "Version: 0.0.1"))
    assert _failing(task, renamed) == ["installed"]
    # the launcher written by hand, calling the wrong function
    _, launcher = package_states(folder, tmp_path / "launcher", oracle)
    command = task["rubric"][1]["args"]["command"]
    script = launcher / ".local/bin" / command
    script.write_text("#!/usr/bin/python3\nimport runpy\nrunpy.run_module('x')\n")
    assert _failing(task, launcher) == ["command"]
    assert site.is_dir()


def test_the_checks_survive_hostile_states(tmp_path):
    args = {"wheel": "/home/user/Downloads/a.whl", "name": "a", "version": "1", "files": {"a.py": "0" * 64}}
    assert not run_check(State(tmp_path), "py.wheel_installed", args).passed
    lib = tmp_path / ".local/lib"
    lib.mkdir(parents=True)
    (lib / "python3.11").symlink_to("/etc")
    assert not run_check(State(tmp_path), "py.wheel_installed", args).passed
    (tmp_path / ".local/bin").mkdir()
    os.mkfifo(tmp_path / ".local/bin/a")
    assert not run_check(State(tmp_path), "py.console_script", {"command": "a", "entry": "a:main"}).passed


@pytest.mark.parametrize("entry", ["library", "command"])
def test_the_instruction_names_the_wheel_and_the_command(entry):
    for register in ("explicit", "natural"):
        out = WORKFLOW.run(NodeContext({"entry": entry}, 5, "t", 0, OfflineBackend(), register=register))
        assert out["rubric"][0].args["wheel"] in out["instruction"]
        if entry == "command":
            assert f"`{out['rubric'][1].args['command']}`" in out["instruction"]
