"""The file tree's frame (closed world, issue 37): an OS task's end state changes the home folder only where the task
changes it. Real OS tasks pass the real gate; then hand-made end states of kinds no mutator makes must fail it (an
empty leftover folder, a copy of a moved file left in the Trash, the folder made read-only around files that were
to become read-only, a stray file), and valid ones must pass (files deleted into the Trash as a file manager does,
the empty folders a desktop session makes, an app's lock and cache files).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package, package_states
from verifiers.checks import State, run_check
from verifiers.frame.tree import TRASH, derive, judge, tree_facts
from verifiers.gate.rubric import evaluate_rubric
from workflows.os import cleanup, organize, permissions

CASES = {
    "move": (organize.WORKFLOW, {"mapping": "one_ext", "dest": "new", "case": "exact"}),
    "delete": (cleanup.WORKFLOW, {"criterion": "backup", "depth": "flat"}),
    "chmod": (permissions.WORKFLOW, {"target": "exec", "scope": "all_ext"}),
}


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("tree")
    made = {}
    for name, (workflow, knobs) in CASES.items():
        folder = make_package(workflow, knobs, out, seed=4, skill_id=f"test.tree.{name}")
        verdict = gate_package(folder)
        assert verdict.status == "accepted", (name, verdict)
        made[name] = folder
    return made


def _state(package: Path, tmp_path: Path) -> tuple[dict[str, Any], Path, list[dict[str, Any]]]:
    _, after = package_states(package, tmp_path, "solution/oracle.json")
    task = json.loads((package / "task.json").read_text())
    ops = json.loads((package / "solution" / "oracle.json").read_text())["ops"]
    return task, after, ops


def _frame(task: dict[str, Any]) -> dict[str, Any]:
    return next(c["args"] for c in task["rubric"] if c["primitive"] == "tree.frame")


def _verdict(task: dict[str, Any], root: Path) -> tuple[bool, bool]:
    outcomes = evaluate_rubric(task, root)
    return all(o.passed for o in outcomes), all(o.passed for o in outcomes if o.id == "frame-tree")


def _trash(root: Path, name: str, data: bytes) -> None:
    (root / TRASH / "files").mkdir(parents=True, exist_ok=True)
    (root / TRASH / "info").mkdir(exist_ok=True)
    (root / TRASH / "files" / name).write_bytes(data)
    (root / TRASH / "info" / f"{name}.trashinfo").write_text(f"[Trash Info]\nPath=/home/user/{name}\n")


def test_every_os_rubric_ends_with_the_tree_frame(packages, tmp_path):
    for name, package in packages.items():
        task, root, _ = _state(package, tmp_path / name)
        assert task["rubric"][-1]["primitive"] == "tree.frame"
        assert _verdict(task, root) == (True, True)


def test_an_empty_leftover_folder_fails(packages, tmp_path):
    task, root, ops = _state(packages["move"], tmp_path)
    moved_to = root / ops[0]["dest"].removeprefix("/home/user/")
    (moved_to.parent / "New folder").mkdir()
    assert _verdict(task, root) == (False, False)


def test_a_copy_of_a_moved_file_left_in_the_trash_fails(packages, tmp_path):
    task, root, ops = _state(packages["move"], tmp_path)
    moved = root / ops[0]["dest"].removeprefix("/home/user/")
    _trash(root, moved.name, moved.read_bytes())
    passed, frame = _verdict(task, root)
    assert not passed and not frame
    evidence = run_check(State(root), "tree.frame", _frame(task)).evidence
    assert "is in the Trash, but the task deletes no" in evidence, evidence


def test_deleting_into_the_trash_passes(packages, tmp_path):
    """A file manager deletes into the Trash; the oracle removes for good. Both are the asked deletion."""
    task, root, ops = _state(packages["delete"], tmp_path)
    initial, _ = package_states(packages["delete"], tmp_path / "again", "solution/oracle.json")
    deleted = [op["path"] for op in ops if op["op"] == "fs.delete"]
    assert deleted
    for path in deleted:
        _trash(root, Path(path).name, (initial / path.removeprefix("/home/user/")).read_bytes())
    assert _verdict(task, root) == (True, True)


def test_the_folder_made_read_only_around_the_files_fails(packages, tmp_path):
    task, root, ops = _state(packages["chmod"], tmp_path)
    folder = (root / ops[0]["path"].removeprefix("/home/user/")).parent
    folder.chmod(0o555)
    try:
        assert _verdict(task, root) == (False, False)
    finally:
        folder.chmod(0o755)


def test_the_desktop_sessions_own_folders_and_files_pass(packages, tmp_path):
    task, root, _ = _state(packages["chmod"], tmp_path)
    for name in ("Desktop", "Downloads", "Music", "Pictures", "Public", "Templates", "Videos"):
        (root / name).mkdir(exist_ok=True)
    (root / ".cache" / "thumbnails").mkdir(parents=True)
    (root / ".config" / "libreoffice").mkdir(parents=True)
    (root / ".bash_history").write_text("ls\n")
    assert _verdict(task, root) == (True, True)


def test_the_walk_is_bounded_and_never_follows_a_link(tmp_path):
    (tmp_path / "Documents").mkdir()
    (tmp_path / "Documents" / "a.txt").write_text("a")
    (tmp_path / "Documents" / "out").symlink_to("/")
    facts = tree_facts(tmp_path)
    assert facts["Documents/out"] == "l:/" and "Documents/out/etc" not in facts
    frame = derive(facts, facts)
    (tmp_path / "Documents" / "a.txt").write_text("changed")
    assert judge(frame, tree_facts(tmp_path)) == ["Documents changed (a.txt=f:6:" +
                                                  tree_facts(tmp_path)["Documents/a.txt"][4:14] + ", out=l:/)"]


def test_a_mutant_of_a_workbook_is_judged_without_its_copy(packages, tmp_path):
    """The tree frame on a workbook task's mutant reads the oracle's tree (a workbook's content is its own frame's
    business), so the mutation stage makes no copy for it."""
    from verifiers.gate.mutation import InMemory

    made: list[Path] = []

    def materialize() -> Path:
        made.append(tmp_path)
        return tmp_path

    (tmp_path / "Documents").mkdir()
    (tmp_path / "Documents" / "book.xlsx").write_bytes(b"PK")
    state = InMemory(tmp_path, {("/home/user/Documents/book.xlsx", shutil.copyfile): object()}, materialize)
    assert state.home_tree((".xlsx",)) == tmp_path.resolve() and made == []
    assert state.home_tree(()) == tmp_path and made == [tmp_path]


def test_the_oracle_state_passes_after_the_ops_run_again(packages, tmp_path):
    """The frame is derived in memory when the task is made; the gate's oracle control runs the ops for real."""
    task, _, ops = _state(packages["move"], tmp_path)
    initial, _ = package_states(packages["move"], tmp_path / "x", "solution/oracle.json")
    apply_ops(initial, ops)
    assert _verdict(task, initial) == (True, True)
