"""os.gimp_prefs: the family through the gate, the gimprc reader on hand-made files, the op and its teacher script."""

from __future__ import annotations

import json
import subprocess

import pytest

from preparers.ops import apply_ops
from preparers.teach import snippets
from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from verifiers.checks.os_gimprc import GimprcError, parse_gimprc
from workflows.os.gimp_prefs import WORKFLOW

PATH = "/home/user/.config/GIMP/2.10/gimprc"
TEXT = ('# GIMP gimprc\n\n(default-image\n    (width 1920)\n    (height 1080)\n    (unit pixels))\n'
        '(undo-levels 5)\n(theme "Dark")\n\n# end of gimprc\n')


@pytest.mark.slow
@pytest.mark.parametrize("setting", ["undo_levels", "image_size", "theme", "interpolation"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, setting):
    folder = make_package(WORKFLOW, {"setting": setting}, tmp_path, seed=2)
    verdict = gate_package(folder, mutants=None)
    assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
        (s.name, s.evidence) for s in verdict.stages if not s.passed]
    task = json.loads((folder / "task.json").read_text())
    assert [c["primitive"] for c in task["rubric"]][:2] == ["gimprc.option", "gimprc.kept"]


def test_the_reader_follows_gimp():
    assert parse_gimprc(TEXT) == {"default-image/width": "1920", "default-image/height": "1080",
                                  "default-image/unit": "pixels", "undo-levels": "5", "theme": "Dark"}
    later = parse_gimprc(TEXT + "(undo-levels 30)\nundo-levels = 50\n")
    assert later["undo-levels"] == "30"  # the later line wins; an INI-style line is no setting
    for broken in ("(undo-levels 5", "(a " * 20 + ")" * 20, ")"):
        with pytest.raises(GimprcError):
            parse_gimprc(broken)


def _state(tmp_path, text: str = TEXT) -> State:
    (tmp_path / ".config/GIMP/2.10").mkdir(parents=True, exist_ok=True)
    (tmp_path / ".config/GIMP/2.10/gimprc").write_text(text)
    return State(tmp_path)


def _passes(state: State) -> tuple[bool, bool]:
    asked = {"default-image/width": "800", "default-image/height": "600"}
    option = run_check(state, "gimprc.option", {"path": PATH, "option": "image_size", "settings": asked})
    kept = run_check(state, "gimprc.kept", {"path": PATH, "settings": {"undo-levels": "5", "theme": "Dark"}})
    return option.passed, kept.passed


def test_the_op_and_the_teacher_script_edit_the_nested_setting(tmp_path):
    assert _passes(_state(tmp_path)) == (False, True)
    settings = {"default-image/width": "800", "default-image/height": "600"}
    apply_ops(tmp_path, [{"op": "fs.gimprc_set", "path": PATH, "settings": settings}])
    assert _passes(State(tmp_path)) == (True, True)
    _state(tmp_path)
    script = snippets()["fs.gimprc_set"](str(tmp_path / ".config/GIMP/2.10/gimprc"), settings)
    subprocess.run(["bash", "-c", script], check=True)
    assert _passes(State(tmp_path)) == (True, True)


def test_wrong_and_damaged_files_fail(tmp_path):
    assert _passes(_state(tmp_path, TEXT + "(width 800)\n(height 600)\n")) == (False, True)
    assert _passes(_state(tmp_path, TEXT.replace("1920", "800").replace("1080", "600").replace("5)", "9)"))) == (
        True, False)
    assert _passes(_state(tmp_path, "(default-image (width 800)")) == (False, False)
