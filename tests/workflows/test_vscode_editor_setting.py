"""vscode.editor_setting's settings that need a companion key (wrap column, auto-save delay) and its debug and tab
settings: the oracle's end state passes the rubric, hand-made wrong end states fail it."""

from __future__ import annotations

import json

import pytest

from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package, package_states
from verifiers.checks import State, run_check
from workflows.vscode.editor_setting import SETTINGS, WORKFLOW

NEW = ("wrap_column", "auto_save_delay", "wrap_tabs", "debug_focus_editor", "debug_console")
USER = "/home/user/.config/Code/User/settings.json"


def _rubric(folder):
    task = json.loads((folder / "task.json").read_text())
    return [c for c in task["rubric"] if c["primitive"] == "vscode.setting_equals"]


def _passes(root, checks) -> bool:
    return all(run_check(State(root), c["primitive"], c["args"]).passed for c in checks)


def _set(root, key, value) -> None:
    apply_ops(root, [{"op": "json.set", "path": USER, "key": [key], "value": value}])


@pytest.mark.parametrize("setting", NEW)
@pytest.mark.parametrize("initial", ["absent", "present"])
def test_the_oracle_passes_and_a_wrong_value_fails(tmp_path, setting, initial):
    spec = SETTINGS[setting]
    folder = make_package(WORKFLOW, {"setting": setting, "initial": initial}, tmp_path / "pkg", seed=3)
    checks = _rubric(folder)
    assert [c["args"]["key"] for c in checks] == [spec.key, *(k for k, _ in spec.also)]
    initial_state, after = package_states(folder, tmp_path / "states", "solution/oracle.json")
    assert not _passes(initial_state, checks)
    assert _passes(after, checks)
    value = checks[0]["args"]["value"]
    wrong = not value if isinstance(value, bool) else value + 1 if isinstance(value, int) else value.upper()
    _set(after, spec.key, wrong)
    assert not _passes(after, checks)


@pytest.mark.parametrize("setting", ["wrap_column", "auto_save_delay"])
def test_the_value_without_its_companion_key_fails(tmp_path, setting):
    spec = SETTINGS[setting]
    folder = make_package(WORKFLOW, {"setting": setting, "initial": "absent"}, tmp_path / "pkg")
    _, after = package_states(folder, tmp_path / "states", "solution/oracle.json")
    checks = _rubric(folder)
    (key, _), = spec.also
    apply_ops(after, [{"op": "json.delete", "path": USER, "key": [key]}])
    assert not _passes(after, checks)
    # the companion set to another real option: the value still has no effect
    other = "on" if key == "editor.wordWrap" else "onFocusChange"
    _set(after, key, other)
    assert not _passes(after, checks)


@pytest.mark.slow
@pytest.mark.parametrize("setting", NEW)
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, setting):
    folder = make_package(WORKFLOW, {"setting": setting, "initial": "present"}, tmp_path, seed=2)
    verdict = gate_package(folder, mutants=None)
    assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
        (s.name, s.evidence) for s in verdict.stages if not s.passed]
