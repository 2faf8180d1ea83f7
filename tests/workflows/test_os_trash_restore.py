"""os.trash_restore: the family through the gate with every mutant, its checks on hand-made Trash states."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from verifiers.frame.tree import derive, judge, tree_facts
from workflows.os.trash_restore import WORKFLOW

TRASH = ".local/share/Trash"
ORIGINAL = "/home/user/Documents/q3/budget review.pdf"


@pytest.mark.slow
@pytest.mark.parametrize(("what", "parent"), [("file", "exists"), ("folder", "gone"), ("same_name", "exists"),
                                              ("same_name", "gone")])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, what, parent):
    folder = make_package(WORKFLOW, {"what": what, "parent": parent}, tmp_path, seed=2)
    verdict = gate_package(folder, mutants=None)
    assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
        (s.name, s.evidence) for s in verdict.stages if not s.passed]
    task = json.loads((folder / "task.json").read_text())
    assert [c["primitive"] for c in task["rubric"]][:2] == ["trash.restored", "trash.holds"]


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _trash(root: Path) -> None:
    """The Trash holds the budget review (deleted from Documents/q3) and an old log."""
    for name, data, path in (("budget review.pdf", b"%PDF budget", ORIGINAL.replace(" ", "%20")),
                             ("old.log", b"log lines\n", "/home/user/Downloads/old.log")):
        (root / TRASH / "files").mkdir(parents=True, exist_ok=True)
        (root / TRASH / "info").mkdir(parents=True, exist_ok=True)
        (root / TRASH / "files" / name).write_bytes(data)
        (root / TRASH / "info" / f"{name}.trashinfo").write_text(
            f"[Trash Info]\nPath={path}\nDeletionDate=2025-03-01T10:00:00\n")
    (root / "Documents/q3").mkdir(parents=True, exist_ok=True)


def _checks(root: Path) -> tuple[bool, bool]:
    info = (root / TRASH / "info" / "old.log.trashinfo")
    restored = run_check(State(root), "trash.restored", {"names": ["budget review.pdf"], "paths": [ORIGINAL],
                                                         "contents": {ORIGINAL: _sha(b"%PDF budget")}})
    holds = run_check(State(root), "trash.holds", {
        "files": {"old.log": _sha(b"log lines\n")},
        "info": {"old.log.trashinfo": _sha(info.read_bytes()) if info.exists() else "x"}})
    return restored.passed, holds.passed


def test_a_restore_takes_out_both_entries_and_leaves_the_rest(tmp_path):
    _trash(tmp_path)
    assert _checks(tmp_path) == (False, False)
    (tmp_path / TRASH / "files" / "budget review.pdf").rename(tmp_path / "Documents/q3/budget review.pdf")
    assert _checks(tmp_path) == (True, False)  # its .trashinfo is still there
    (tmp_path / TRASH / "info" / "budget review.pdf.trashinfo").unlink()
    assert _checks(tmp_path) == (True, True)
    (tmp_path / TRASH / "files" / "old.log").write_bytes(b"another file\n")  # the rest of the Trash overwritten
    assert _checks(tmp_path) == (True, False)


def test_restored_to_the_home_folder_or_with_the_trash_emptied_fails(tmp_path):
    _trash(tmp_path)
    (tmp_path / TRASH / "files" / "budget review.pdf").rename(tmp_path / "budget review.pdf")
    (tmp_path / TRASH / "info" / "budget review.pdf.trashinfo").unlink()
    assert _checks(tmp_path) == (False, True)
    (tmp_path / "budget review.pdf").rename(tmp_path / "Documents/q3/budget review.pdf")
    for entry in ("files/old.log", "info/old.log.trashinfo"):
        (tmp_path / TRASH / entry).unlink()
    assert _checks(tmp_path) == (True, False)


def test_the_tree_frame_lets_the_rest_of_the_trash_stay(tmp_path):
    _trash(tmp_path)
    initial = tree_facts(tmp_path)
    (tmp_path / TRASH / "files" / "budget review.pdf").rename(tmp_path / "Documents/q3/budget review.pdf")
    (tmp_path / TRASH / "info" / "budget review.pdf.trashinfo").unlink()
    frame = derive(initial, tree_facts(tmp_path))
    assert judge(frame, tree_facts(tmp_path)) == []
    (tmp_path / TRASH / "files" / "budget review.pdf").write_bytes(b"%PDF budget")  # a copy left in the Trash
    assert any("budget review.pdf" in p for p in judge(frame, tree_facts(tmp_path)))
