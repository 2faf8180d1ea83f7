"""chrome.flag: the family through the gate with every mutant, every phrasing's flag option, and the check on
hand-made Local State files (the other option, another flag reset, the list in the wrong file)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.gatekit import gate_package, make_package
from verifiers import extract
from verifiers.checks import State, run_check
from workflows.chrome.flag import LOCAL_STATE, NATURAL, PHRASINGS, WORKFLOW


@pytest.mark.slow
@pytest.mark.parametrize("change", ["enable", "disable", "reset"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, change):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"change": change}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        assert task["rubric"][0]["primitive"] == "chrome.flag"
        assert "chromeprefs.frame" in [c["primitive"] for c in task["rubric"]]


@pytest.mark.parametrize(("what", "setting"), [
    ("set the flag 'Enable Reader Mode' (chrome://flags/#enable-reader-mode) to Disabled", "disabled"),
    ("set the flag 'Smooth Scrolling' (chrome://flags/#smooth-scrolling) to Enabled", "enabled"),
    ("set the flag 'Experimental QUIC protocol' (chrome://flags/#enable-quic) back to Default", "default"),
])
def test_every_phrasing_says_one_option(what, setting):
    for phrasing in PHRASINGS + NATURAL:
        ask = what.replace("the flag ", "the ").replace(" (chrome://flags/#", " experiment ('").replace(") ", "') ")
        text = phrasing.format(what=what, ask=ask, why="I read about it.")
        assert set(extract.expressed(text, "flag_setting")) == {setting}, text


def _check(tmp_path: Path, entries: list, setting: str) -> tuple[bool, str]:
    host = tmp_path / LOCAL_STATE.removeprefix("/home/user/")
    host.parent.mkdir(parents=True, exist_ok=True)
    host.write_text(json.dumps({"browser": {"enabled_labs_experiments": entries}}))
    result = run_check(State(tmp_path), "chrome.flag", {"path": LOCAL_STATE, "flag": "enable-quic",
                                                        "setting": setting, "others": ["smooth-scrolling@2"]})
    return result.passed, result.evidence


@pytest.mark.parametrize(("entries", "setting", "passes"), [
    (["smooth-scrolling@2", "enable-quic@1"], "enabled", True),
    (["enable-quic@1", "smooth-scrolling@2"], "enabled", True),  # the order is free
    (["smooth-scrolling@2", "enable-quic@2"], "enabled", False),  # the other option
    (["enable-quic@1"], "enabled", False),  # another flag reset
    (["smooth-scrolling@2"], "default", True),
    (["smooth-scrolling@2", "enable-quic@1"], "default", False),
    (["smooth-scrolling@2", "enable-quic@2", "enable-quic@1"], "enabled", False),  # two entries
    ("enable-quic@1", "enabled", False),  # not a list
])
def test_the_check_reads_local_state_as_chrome_does(tmp_path, entries, setting, passes):
    assert _check(tmp_path, entries, setting)[0] is passes
