"""os.lo_options: the family through the gate, its checks on hand-made profiles (LibreOffice's own rewrite, damage)."""

from __future__ import annotations

import json

import pytest

from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from workflows.os.lo_options import WORKFLOW

PATH = "/home/user/.config/libreoffice/4/user/registrymodifications.xcu"
HEAD = ('<?xml version="1.0" encoding="UTF-8"?>\n<oor:items xmlns:oor="http://openoffice.org/2001/registry" '
        'xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n')
START = "/org.openoffice.Office.Impress/Misc/Start"
ITEM = '<item oor:path="{p}"><prop oor:name="{n}" oor:op="fuse"><value>{v}</value></prop></item>\n'


@pytest.mark.slow
@pytest.mark.parametrize("option", ["autosave", "user_name", "presenter", "default_font"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, option):
    folder = make_package(WORKFLOW, {"option": option}, tmp_path, seed=2)
    verdict = gate_package(folder, mutants=None)
    assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
        (s.name, s.evidence) for s in verdict.stages if not s.passed]
    task = json.loads((folder / "task.json").read_text())
    assert [c["primitive"] for c in task["rubric"]][:2] == ["xcu.option", "xcu.kept"]


def _profile(tmp_path, body: str) -> State:
    folder = tmp_path / ".config/libreoffice/4/user"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "registrymodifications.xcu").write_text(HEAD + body + "</oor:items>\n")
    return State(tmp_path)


def _passes(state: State, value: str = "false") -> tuple[bool, bool]:
    option = run_check(state, "xcu.option", {"path": PATH, "option": "presenter",
                                             "settings": {f"{START}:EnablePresenterScreen": value}})
    kept = run_check(state, "xcu.kept", {"path": PATH, "settings": {f"{START}:StartWithActualPage": "true"}})
    return option.passed, kept.passed


def test_the_op_edits_the_value_in_place(tmp_path):
    _profile(tmp_path, ITEM.format(p=START, n="EnablePresenterScreen", v="true")
             + ITEM.format(p=START, n="StartWithActualPage", v="true"))
    assert _passes(State(tmp_path)) == (False, True)
    apply_ops(tmp_path, [{"op": "fs.xcu_set", "path": PATH, "settings": {f"{START}:EnablePresenterScreen": "false"}}])
    assert _passes(State(tmp_path)) == (True, True)


def test_libreoffice_rewriting_the_file_in_its_own_order_passes(tmp_path):
    body = ('<item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="FirstRun" oor:op="fuse">'
            "<value>false</value></prop></item>\n" + ITEM.format(p=START, n="StartWithActualPage", v="true")
            + ITEM.format(p=START, n="EnablePresenterScreen", v="true")
            + ITEM.format(p=START, n="EnablePresenterScreen", v="FALSE"))  # the later item wins
    assert _passes(_profile(tmp_path, body)) == (True, True)


def test_wrong_and_damaged_profiles_fail(tmp_path):
    assert _passes(_profile(tmp_path, ITEM.format(p=START, n="EnablePresenterScreen", v="0")
                            + ITEM.format(p=START, n="StartWithActualPage", v="true")))[0] is False
    assert _passes(_profile(tmp_path, ITEM.format(p=START, n="EnablePresenterScreen", v="false")
                            + ITEM.format(p=START, n="StartWithActualPage", v="false"))) == (True, False)
    assert _passes(_profile(tmp_path, '<!DOCTYPE x [<!ENTITY a "b">]>')) == (False, False)
    (tmp_path / ".config/libreoffice/4/user/registrymodifications.xcu").write_bytes(b"<oor:items")
    assert _passes(State(tmp_path)) == (False, False)
