"""os.autostart: the family through the gate with every mutant, and the keyfile reading its checks rely on."""

from __future__ import annotations

import json

import pytest

from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from workflows.os.autostart import WORKFLOW, _entry

PATH = "/home/user/.config/autostart/zotero.desktop"
DELAY = {"path": PATH, "section": "Desktop Entry", "key": "X-GNOME-Autostart-Delay", "value": "15"}


@pytest.mark.slow
@pytest.mark.parametrize("change", ["add", "disable", "delay"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, change):
    folder = make_package(WORKFLOW, {"change": change}, tmp_path, seed=2)
    verdict = gate_package(folder, mutants=None)
    assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
        (s.name, s.evidence) for s in verdict.stages if not s.passed]
    task = json.loads((folder / "task.json").read_text())
    assert task["rubric"][-1]["primitive"] == "tree.frame"


def _state(tmp_path) -> None:
    (tmp_path / ".config/autostart").mkdir(parents=True, exist_ok=True)
    (tmp_path / ".config/autostart/zotero.desktop").write_text(_entry("zotero", autostart=True))


def test_a_delay_appended_at_the_end_lands_in_the_action_section(tmp_path):
    _state(tmp_path)
    apply_ops(tmp_path, [{"op": "fs.append_text", "path": PATH, "text": "X-GNOME-Autostart-Delay=15\n"}])
    assert not run_check(State(tmp_path), "fs.config_value", DELAY).passed
    _state(tmp_path)
    apply_ops(tmp_path, [{"op": "fs.replace_in_file", "path": PATH, "old": "[Desktop Entry]\n",
                          "new": "[Desktop Entry]\nX-GNOME-Autostart-Delay=15\n", "count": 1}])
    assert run_check(State(tmp_path), "fs.config_value", DELAY).passed


def test_a_second_enabled_line_is_not_a_switch(tmp_path):
    (tmp_path / ".config/autostart").mkdir(parents=True)
    entry = tmp_path / ".config/autostart/redshift-gtk.desktop"
    entry.write_text(_entry("redshift-gtk", autostart=True) + "X-GNOME-Autostart-enabled=false\n")
    args = {"path": "/home/user/.config/autostart/redshift-gtk.desktop", "section": "Desktop Entry",
            "key": "X-GNOME-Autostart-enabled", "value": "false"}
    assert not run_check(State(tmp_path), "fs.config_value", args).passed
    entry.write_text(_entry("redshift-gtk", autostart=True).replace("enabled=true", "enabled=false"))
    assert run_check(State(tmp_path), "fs.config_value", args).passed
