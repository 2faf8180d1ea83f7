"""os.default_app: the family through the gate with every mutant, its checks on hand-made mimeapps.list files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from workflows.os.default_app import WORKFLOW

PATH = "/home/user/.config/mimeapps.list"
TEXT = """[Default Applications]
image/png=org.gnome.eog.desktop
image/jpeg=org.gnome.eog.desktop
application/pdf=org.gnome.Evince.desktop

[Added Associations]
image/png=org.gnome.eog.desktop;gimp.desktop;
text/plain=org.gnome.TextEditor.desktop;code.desktop;
"""
ENTRIES = {"Default Applications": {"image/png": ["org.gnome.eog.desktop"], "image/jpeg": ["org.gnome.eog.desktop"],
                                    "application/pdf": ["org.gnome.Evince.desktop"]},
           "Added Associations": {"image/png": ["org.gnome.eog.desktop", "gimp.desktop"],
                                  "text/plain": ["org.gnome.TextEditor.desktop", "code.desktop"]}}


@pytest.mark.slow
@pytest.mark.parametrize("change", ["replace", "new", "group"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, change):
    folder = make_package(WORKFLOW, {"change": change}, tmp_path, seed=2)
    verdict = gate_package(folder, mutants=None)
    assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
        (s.name, s.evidence) for s in verdict.stages if not s.passed]
    task = json.loads((folder / "task.json").read_text())
    assert [c["primitive"] for c in task["rubric"]] == ["desktop.mime_default", "desktop.mimeapps_kept",
                                                        "tree.frame"]


def _state(tmp_path: Path, text: str | bytes = TEXT) -> State:
    (tmp_path / ".config").mkdir(exist_ok=True)
    target = tmp_path / ".config" / "mimeapps.list"
    target.write_bytes(text if isinstance(text, bytes) else text.encode())
    return State(tmp_path)


def _checks(state: State, mimes: list[str], app: str = "gimp.desktop") -> tuple[bool, bool]:
    default = run_check(state, "desktop.mime_default", {"path": PATH, "mimes": mimes, "app": app})
    kept = run_check(state, "desktop.mimeapps_kept", {"path": PATH, "entries": ENTRIES, "mimes": mimes, "app": app})
    return default.passed, kept.passed


def test_the_op_sets_the_default_and_keeps_the_rest(tmp_path):
    state = _state(tmp_path)
    assert _checks(state, ["image/png"]) == (False, True)
    apply_ops(tmp_path, [{"op": "fs.mime_default", "path": PATH, "mimes": ["image/png"], "app": "gimp.desktop"}])
    assert _checks(State(tmp_path), ["image/png"]) == (True, True)
    assert "image/png=gimp.desktop\n" in (tmp_path / ".config/mimeapps.list").read_text()


def test_a_default_added_for_a_type_without_one_goes_into_its_section(tmp_path):
    _state(tmp_path)
    apply_ops(tmp_path, [{"op": "fs.mime_default", "path": PATH, "mimes": ["text/plain"], "app": "code.desktop"}])
    text = (tmp_path / ".config/mimeapps.list").read_text()
    assert text.index("text/plain=code.desktop") < text.index("[Added Associations]")
    assert _checks(State(tmp_path), ["text/plain"], "code.desktop") == (True, True)


def test_the_file_reads_as_glib_reads_it(tmp_path):
    # a second [Default Applications] block at the end continues the section, and its later value wins
    assert _checks(_state(tmp_path, TEXT + "\n[Default Applications]\nimage/png = gimp.desktop;\n"),
                   ["image/png"]) == (True, True)
    # echoed onto the end, the line lands in [Added Associations] and drops the type's other apps
    assert _checks(_state(tmp_path, TEXT + "image/png=gimp.desktop;\n"), ["image/png"]) == (False, False)
    # the Flatpak id of the same app is another app
    assert _checks(_state(tmp_path, TEXT.replace("image/png=org.gnome.eog.desktop\n",
                                                 "image/png=org.gimp.GIMP.desktop\n")), ["image/png"])[0] is False
    # every eog line swapped: the JPEG default changed too
    assert _checks(_state(tmp_path, TEXT.replace("org.gnome.eog.desktop", "gimp.desktop")),
                   ["image/png"]) == (True, False)


def test_a_damaged_file_fails_without_raising(tmp_path):
    assert _checks(_state(tmp_path, b"\xff\xfe[Default Applications]\n"), ["image/png"]) == (False, False)
    (tmp_path / ".config/mimeapps.list").unlink()
    assert _checks(State(tmp_path), ["image/png"]) == (False, False)
