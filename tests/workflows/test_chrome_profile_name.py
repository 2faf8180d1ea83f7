"""chrome.profile_name: the family through the gate with every mutant, and the check on hand-made Preferences (the
name in another case, Chrome told to use its generated name, the key missing)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from workflows.chrome.profile_name import WORKFLOW

PREFS = "/home/user/.config/google-chrome/Default/Preferences"


@pytest.mark.slow
@pytest.mark.parametrize("initial", ["default", "custom"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, initial):
    for seed, axes in ((1, {}), (2, {"customized": "many"})):
        folder = make_package(WORKFLOW, {"initial": initial, **axes}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]][:2] == ["chrome.profile_name", "json.values_kept"]


@pytest.mark.parametrize(("profile", "passes"), [
    ({"name": "Home Office", "using_default_name": False}, True),
    ({"name": " Home Office ", "using_default_name": False}, True),
    ({"name": "home office", "using_default_name": False}, False),
    ({"name": "Home Office", "using_default_name": True}, False),
    ({"name": "Home Office"}, False),  # Chrome's default: a generated name
    ({"using_default_name": False}, False),
    ({"name": ["Home Office"], "using_default_name": False}, False),
])
def test_the_check_reads_the_name_as_chrome_does(tmp_path, profile, passes):
    host = tmp_path / PREFS.removeprefix("/home/user/")
    host.parent.mkdir(parents=True)
    host.write_text(json.dumps({"profile": profile}))
    assert run_check(State(tmp_path), "chrome.profile_name", {"path": PREFS, "name": "Home Office"}).passed is passes


def test_a_missing_preferences_file_fails(tmp_path: Path):
    assert run_check(State(tmp_path), "chrome.profile_name", {"path": PREFS, "name": "Work"}).passed is False
