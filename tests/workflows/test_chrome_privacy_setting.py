"""chrome.privacy_setting: the family through the gate with every mutant, its check on hand-made Preferences, and
that every phrasing says its change and no other."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.gatekit import gate_package, make_package
from verifiers import extract
from verifiers.checks import State, run_check
from workflows.chrome.privacy_setting import CHANGES, NATURAL, PHRASINGS, WORKFLOW

PREFS = "/home/user/.config/google-chrome/Default/Preferences"


@pytest.mark.slow
@pytest.mark.parametrize("change", ["dnt_off", "sb_off", "tpc_block", "exit_clear"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, change):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"change": change}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]] == [
            "chrome.privacy", "json.values_kept", "chrome.frame", "chromeprefs.frame", "tree.frame"]


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_every_phrasing_says_the_change_and_no_contradiction(change):
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.format(what=CHANGES[change].what)
        assert set(extract.expressed(text, "privacy")) == {change}, text


def _check(tmp_path: Path, prefs: dict, change: str) -> tuple[bool, str]:
    host = tmp_path / PREFS.removeprefix("/home/user/")
    host.parent.mkdir(parents=True, exist_ok=True)
    host.write_text(json.dumps(prefs))
    result = run_check(State(tmp_path), "chrome.privacy", {"path": PREFS, "change": change})
    return result.passed, result.evidence


@pytest.mark.parametrize(("prefs", "change", "passes"), [
    ({}, "dnt_off", True),  # unset: Chrome's default, no Do Not Track
    ({}, "dnt_on", False),
    ({"enable_do_not_track": "true"}, "dnt_on", False),  # a string Chrome ignores
    ({"enable_do_not_track": True}, "dnt_on", True),
    ({}, "sb_standard", True),
    ({"safebrowsing": {"enhanced": True}}, "sb_enhanced", True),
    ({"safebrowsing": {"enhanced": True, "enabled": False}}, "sb_enhanced", False),
    ({"safebrowsing": {"enhanced": True, "enabled": False}}, "sb_off", False),  # still marked enhanced
    ({"safebrowsing": {"enabled": False}}, "sb_off", True),
    ({}, "tpc_block", False),  # the default blocks them in Incognito only
    ({"profile": {"cookie_controls_mode": 2}}, "tpc_block", True),
    ({"profile": {"cookie_controls_mode": 1}}, "tpc_allow", False),
    ({"profile": {"cookie_controls_mode": 0}}, "tpc_allow", True),
    ({"profile": {"default_content_setting_values": {"cookies": 2}}}, "exit_clear", False),  # blocks them all
    ({"profile": {"default_content_setting_values": {"cookies": 4}}}, "exit_clear", True),
    ({"profile": {"default_content_setting_values": {"cookies": 4}}}, "exit_keep", False),
    ({}, "exit_keep", True),
])
def test_the_check_reads_preferences_as_chrome_does(tmp_path, prefs, change, passes):
    assert _check(tmp_path, prefs, change)[0] is passes


def test_a_damaged_preferences_file_fails_the_check(tmp_path):
    host = tmp_path / PREFS.removeprefix("/home/user/")
    host.parent.mkdir(parents=True)
    host.write_text('{"enable_do_not_track": tru')
    assert run_check(State(tmp_path), "chrome.privacy", {"path": PREFS, "change": "dnt_on"}).passed is False
