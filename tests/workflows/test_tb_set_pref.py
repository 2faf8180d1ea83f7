"""tb.set_pref's theme and signature-position settings: the oracle's prefs pass the rubric, hand-made wrong prefs
(the other theme, one of two prefs left out) fail it, and the tasks pass the gate."""

from __future__ import annotations

import json

import pytest

from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package, package_states
from verifiers.checks import State, run_check
from workflows.tb.set_pref import ID, THEMES, WORKFLOW

NEW = ("dark_theme", "light_theme", "sig_above_quote")


def _prefs(folder):
    task = json.loads((folder / "task.json").read_text())
    return [c for c in task["rubric"] if c["primitive"] == "tb.pref_equals"]


def _passes(root, checks) -> bool:
    return all(run_check(State(root), c["primitive"], c["args"]).passed for c in checks)


def _set(root, path, name, value) -> None:
    apply_ops(root, [{"op": "tb.set_pref", "path": path, "name": name, "value": value}])


@pytest.mark.parametrize("setting", NEW)
def test_the_oracle_passes_and_the_initial_profile_does_not(tmp_path, setting):
    folder = make_package(WORKFLOW, {"setting": setting}, tmp_path / "pkg", seed=2)
    checks = _prefs(folder)
    initial, after = package_states(folder, tmp_path / "states", "solution/oracle.json")
    assert not _passes(initial, checks)
    assert _passes(after, checks)


@pytest.mark.parametrize(("setting", "wrong"), [("dark_theme", "light"), ("dark_theme", "auto"),
                                                ("light_theme", "dark")])
def test_another_theme_fails(tmp_path, setting, wrong):
    folder = make_package(WORKFLOW, {"setting": setting}, tmp_path / "pkg")
    checks = _prefs(folder)
    assert [(c["args"]["name"], c["args"]["value"]) for c in checks] == [
        ("extensions.activeThemeID", THEMES[setting.split("_")[0]])]
    _, after = package_states(folder, tmp_path / "states", "solution/oracle.json")
    _set(after, checks[0]["args"]["path"], "extensions.activeThemeID", THEMES[wrong])
    assert not _passes(after, checks)


@pytest.mark.parametrize(("name", "value"), [("reply_on_top", 0), ("reply_on_top", 2), ("sig_bottom", True)])
def test_the_signature_position_needs_both_prefs(tmp_path, name, value):
    folder = make_package(WORKFLOW, {"setting": "sig_above_quote"}, tmp_path / "pkg")
    checks = _prefs(folder)
    assert {c["args"]["name"] for c in checks} == {ID + "reply_on_top", ID + "sig_bottom"}
    _, after = package_states(folder, tmp_path / "states", "solution/oracle.json")
    _set(after, checks[0]["args"]["path"], ID + name, value)
    assert not _passes(after, checks)


@pytest.mark.slow
@pytest.mark.parametrize("setting", NEW)
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, setting):
    folder = make_package(WORKFLOW, {"setting": setting}, tmp_path, seed=3)
    verdict = gate_package(folder, mutants=None)
    assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
        (s.name, s.evidence) for s in verdict.stages if not s.passed]
