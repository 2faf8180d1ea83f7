"""chrome.font_setting: the family through the gate with every mutant, its check on hand-made Preferences, and that
every phrasing names its setting and no other."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.gatekit import gate_package, make_package
from verifiers import extract
from verifiers.checks import State, run_check
from verifiers.checks.chrome_settings import FONTS
from workflows.chrome.font_setting import NATURAL, PHRASINGS, SETTINGS, WORKFLOW

PREFS = "/home/user/.config/google-chrome/Default/Preferences"


@pytest.mark.slow
@pytest.mark.parametrize(("setting", "initial"), [("size", "custom"), ("minimum", "default"), ("sans", "custom"),
                                                  ("fixed", "default")])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, setting, initial):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"setting": setting, "initial": initial}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]] == [
            "chrome.font", "json.values_kept", "chrome.frame", "chromeprefs.frame", "tree.frame"]


@pytest.mark.parametrize("setting", sorted(SETTINGS))
def test_every_phrasing_names_the_setting_and_no_other(setting):
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.format(label=FONTS[setting][2], value="X", why=SETTINGS[setting].why)
        assert set(extract.expressed(text, "font_setting")) == {setting}, text


def _check(tmp_path: Path, prefs: dict, setting: str, value: int | str) -> bool:
    host = tmp_path / PREFS.removeprefix("/home/user/")
    host.parent.mkdir(parents=True, exist_ok=True)
    host.write_text(json.dumps(prefs))
    return run_check(State(tmp_path), "chrome.font", {"path": PREFS, "setting": setting, "value": value}).passed


def _webprefs(**values) -> dict:
    return {"webkit": {"webprefs": values}}


@pytest.mark.parametrize(("prefs", "setting", "value", "passes"), [
    ({}, "size", 16, True),  # unset: Chrome's default
    ({}, "size", 20, False),
    (_webprefs(default_font_size=20), "size", 20, True),
    (_webprefs(default_font_size="20"), "size", 20, False),  # text Chrome ignores
    (_webprefs(default_font_size=20.5), "size", 20, False),
    (_webprefs(minimum_font_size=20), "size", 20, False),  # the wrong slider
    (_webprefs(minimum_font_size=12), "minimum", 12, True),
    (_webprefs(fonts={"sansserif": {"Zyyy": " ubuntu "}}), "sans", "Ubuntu", True),
    (_webprefs(fonts={"standard": {"Zyyy": "Ubuntu"}}), "sans", "Ubuntu", False),  # the wrong family slot
    (_webprefs(fonts={"fixed": {"Zyyy": "Liberation Mono"}}), "fixed", "DejaVu Sans Mono", False),
])
def test_the_check_reads_preferences_as_chrome_does(tmp_path, prefs, setting, value, passes):
    assert _check(tmp_path, prefs, setting, value) is passes
