"""Mutants judged on the oracle's parsed documents (`verifiers.gate.mutation.InMemory` with `parsed`): a file a mutant
rewrites, or a folder holding a file it changes, is always read from the mutant's own copy; every other document
comes from what the oracle's checks parsed; a file whose times it changes is read as parsed, but looking at the
file itself (or its folder) gets the copy with the new times."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from kit.model import HOME
from verifiers import checks
from verifiers.gate.mutation import InMemory

STAMP = 1_600_000_000


def _text(host: Path) -> str:
    return host.read_text()


def _oracle(tmp_path: Path) -> tuple[Path, checks.State]:
    oracle = tmp_path / "oracle"
    (oracle / "docs").mkdir(parents=True)
    (oracle / "docs" / "notes.txt").write_text("old")
    (oracle / "keep.txt").write_text("same")
    parsed = checks.State(oracle)
    for path in (f"{HOME}/docs/notes.txt", f"{HOME}/keep.txt"):
        parsed.read(path, _text, "test file")
    return oracle, parsed


def _materialize(oracle: Path, work: Path, change) -> callable:
    def make() -> Path:
        shutil.copytree(oracle, work)
        change(work)
        return work

    return make


def test_a_rewritten_file_and_its_folder_are_read_from_the_copy_the_rest_from_the_oracles_parse(tmp_path):
    oracle, parsed = _oracle(tmp_path)

    def change(root: Path) -> None:
        (root / "docs" / "notes.txt").write_text("new")
        (root / "docs" / "stray.txt").write_text("x")

    state = InMemory(oracle, {}, _materialize(oracle, tmp_path / "m", change), parsed=parsed,
                     rewrites=("docs/notes.txt", "docs/stray.txt"))
    kept = state.read(f"{HOME}/keep.txt", _text, "test file")
    assert kept is parsed.parsed()[(f"{HOME}/keep.txt", _text)] and state.root == oracle  # nothing copied for it
    assert state.read(f"{HOME}/docs/notes.txt", _text, "test file") == "new"
    assert sorted(p.name for p in state.path(f"{HOME}/docs").iterdir()) == ["notes.txt", "stray.txt"]


def test_a_touched_file_is_read_as_parsed_but_its_times_come_from_the_copy(tmp_path):
    oracle, parsed = _oracle(tmp_path)
    (oracle / "docs" / "notes.txt").touch()
    state = InMemory(oracle, {}, _materialize(oracle, tmp_path / "m", lambda root: os.utime(
        root / "docs" / "notes.txt", (STAMP, STAMP))), parsed=parsed, touches=("docs/notes.txt",))
    assert state.read(f"{HOME}/docs/notes.txt", _text, "test file") == "old"
    assert state.root == oracle
    assert state.path(f"{HOME}/docs/notes.txt").stat().st_mtime == STAMP  # a look at the file itself: the copy
    state = InMemory(oracle, {}, _materialize(oracle, tmp_path / "m2", lambda root: os.utime(
        root / "docs" / "notes.txt", (STAMP, STAMP))), parsed=parsed, touches=("docs/notes.txt",))
    assert (state.path(f"{HOME}/docs") / "notes.txt").stat().st_mtime == STAMP  # or at its folder


def test_without_the_oracles_parse_everything_is_read_from_the_files(tmp_path):
    oracle, _ = _oracle(tmp_path)
    state = InMemory(oracle, {}, _materialize(oracle, tmp_path / "m", lambda root: (root / "keep.txt").write_text(
        "changed")), rewrites=("keep.txt",))
    assert state.read(f"{HOME}/keep.txt", _text, "test file") == "changed"


def _mutant(change, rewrites: tuple[str, ...]):
    from verifiers.mutants import Mutant

    return Mutant("test.change", "damaging", change, rewrites=rewrites)


def test_a_rewritten_file_is_read_from_a_folder_of_its_own_and_file_or_folder_questions_need_no_copy(tmp_path):
    from functools import partial

    from verifiers.gate.mutation import _files

    oracle, parsed = _oracle(tmp_path)

    def change(root: Path) -> None:
        (root / "docs" / "notes.txt").write_text("new")

    mutant = _mutant(change, ("docs/notes.txt",))
    copies: list[Path] = []

    def materialize() -> Path:
        copies.append(_materialize(oracle, tmp_path / "m", change)())
        return copies[-1]

    state = InMemory(oracle, {}, materialize, parsed=parsed, rewrites=mutant.rewrites,
                     files=partial(_files, oracle, tmp_path / "files", mutant))
    assert state.is_dir(f"{HOME}/docs") and not state.is_file(f"{HOME}/docs")
    assert state.is_file(f"{HOME}/docs/notes.txt") and not state.is_file(f"{HOME}/docs/gone.txt")
    assert state.read(f"{HOME}/docs/notes.txt", _text, "test file") == "new"
    assert copies == [] and (oracle / "docs" / "notes.txt").read_text() == "old"  # no copy; the oracle intact
    assert sorted(p.name for p in state.path(f"{HOME}/docs").iterdir()) == ["notes.txt"]  # a listing: the copy
    assert len(copies) == 1


def test_a_mutant_that_writes_a_file_it_does_not_name_gets_the_whole_copy(tmp_path):
    from functools import partial

    from verifiers.gate.mutation import _files

    oracle, parsed = _oracle(tmp_path)

    def change(root: Path) -> None:
        (root / "docs" / "notes.txt").write_text("new")
        (root / "keep.txt").write_text("changed too")  # not in `rewrites`: a mutator bug the files-only folder sees

    mutant = _mutant(change, ("docs/notes.txt",))
    state = InMemory(oracle, {}, _materialize(oracle, tmp_path / "m", change), parsed=parsed,
                     rewrites=mutant.rewrites, files=partial(_files, oracle, tmp_path / "files", mutant))
    assert state.read(f"{HOME}/docs/notes.txt", _text, "test file") == "new"
    assert state.root == tmp_path / "m"  # read from the whole copy, not from a folder that hid the other write
