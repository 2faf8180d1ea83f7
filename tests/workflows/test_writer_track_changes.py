"""writer.track_changes: the family through the gate with every mutant, the tracked document it prepares, its check
on hand-made end states, its op."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from preparers import docx
from preparers.ops import apply_ops
from tests.gatekit import assert_accepted, make_package
from verifiers import extract
from verifiers.checks import State, run_check
from verifiers.readers.docx import from_bytes
from workflows.writer.track_changes import HOW, NATURAL, PHRASINGS, WORKFLOW, Change, Target, _tracked

PATH = "/home/user/notes.docx"
TEXT = "The move itself will take place over two weekends. Each team gets its plan a week before."
CHANGE = Change(TEXT, "The move itself will", (9, 17), 9, "Please keep this in mind.")
ACCEPTED = "The move itself will take place over two weekends. Please keep this in mind."


@pytest.mark.slow
@pytest.mark.parametrize("action", ["accept", "reject"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, action):
    folder = make_package(WORKFLOW, {"action": action}, tmp_path, seed=2)
    assert_accepted(folder)
    task = json.loads((folder / "task.json").read_text())
    assert [c["primitive"] for c in task["rubric"]] == ["docx.changes_resolved", "docx.frame", "tree.frame"]


@pytest.mark.parametrize("action", ["accept", "reject"])
def test_every_phrasing_says_the_action_and_no_other(action):
    how, menu = HOW[action]
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.replace("{path.file}", "notes.docx").format(
            path=PATH, reviewer="Sam Patel", n="2", how=how, How=how.capitalize(), menu=menu)
        assert set(extract.expressed(text, "revision")) == {action}, text


def test_the_change_reads_both_ways():
    assert CHANGE.reads("accept") == ACCEPTED
    assert CHANGE.reads("reject") == TEXT


def _state(tmp_path: Path) -> State:
    spec = {"blocks": [{"text": "Moving notes", "style": "Title"}, {"text": TEXT, "style": ""},
                       {"text": "Thank you all.", "style": ""}],
            "author": "A", "page": {"paper": "A4", "orientation": "portrait",
                                    "margins": {"top": 1134, "bottom": 1134, "left": 1134, "right": 1134}}}
    data = _tracked(docx.build(spec), Target("accept", "Sam Patel", (CHANGE,)))
    assert [t for t in map(from_bytes(data).text, from_bytes(data).paragraphs()) if t][1] == ACCEPTED
    (tmp_path / "notes.docx").write_bytes(data)
    return State(tmp_path)


def _check(tmp_path: Path, action: str) -> tuple[bool, str]:
    result = run_check(State(tmp_path), "docx.changes_resolved", {
        "path": PATH, "action": action, "paragraphs": {"The move itself will": CHANGE.reads(action)}})
    return result.passed, result.evidence


@pytest.mark.parametrize("action", ["accept", "reject"])
def test_the_op_resolves_each_way_and_only_that_way_passes(tmp_path, action):
    _state(tmp_path)
    passed, evidence = _check(tmp_path, action)
    assert not passed and "2 tracked change(s) are still in the document" in evidence
    apply_ops(tmp_path, [{"op": "docx.resolve_changes", "path": PATH, "action": action}])
    assert _check(tmp_path, action)[0]
    other = "reject" if action == "accept" else "accept"
    passed, evidence = _check(tmp_path, other)
    assert not passed and f"every change {other}ed" in evidence


@pytest.mark.parametrize(("slip", "says"), [
    ({"mixed": True}, "reads 'The move itself will take place over two weekends. Please keep this in mind. Each team"),
    ({"skip": ["The move itself will"]}, "2 tracked change(s) are still in the document"),
])
def test_the_check_rejects_the_slips(tmp_path, slip, says):
    _state(tmp_path)
    apply_ops(tmp_path, [{"op": "docx.resolve_changes", "path": PATH, "action": "accept", **slip}])
    passed, evidence = _check(tmp_path, "accept")
    assert not passed and says in evidence, evidence
    (tmp_path / "notes.docx").write_bytes(b"PK\x03\x04 not a document")
    assert not _check(tmp_path, "accept")[0]
