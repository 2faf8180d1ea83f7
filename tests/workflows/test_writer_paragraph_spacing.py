"""writer.paragraph_spacing: the family through the gate with every mutant, its check on hand-made end states, its
op."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from preparers import docx
from preparers.ops import apply_ops
from tests.gatekit import assert_accepted, make_package
from verifiers import extract
from verifiers.checks import State, run_check
from workflows.writer.paragraph_spacing import HOW, NATURAL, PHRASINGS, WORKFLOW

PATH = "/home/user/notes.docx"
FIRST = "The move will take place over two weekends to keep disruption low."
SECOND = "Each team will receive its new seating plan one week before its moving date."


@pytest.mark.slow
@pytest.mark.parametrize(("side", "target"), [("before", "body"), ("after", "paragraph")])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, side, target):
    folder = make_package(WORKFLOW, {"side": side, "target": target}, tmp_path, seed=2)
    assert_accepted(folder)
    task = json.loads((folder / "task.json").read_text())
    assert [c["primitive"] for c in task["rubric"]] == ["docx.paragraph_space", "docx.frame", "tree.frame"]


@pytest.mark.parametrize("side", ["before", "after"])
def test_every_phrasing_says_the_side_and_no_other(side):
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.replace("{path.file}", "notes.docx").replace("{what.bare}", "{what}").format(
            path=PATH, what='the paragraph beginning "The move will"', how=HOW[side].format(pt="12"))
        assert set(extract.expressed(text, "para_space")) == {side}, text


def _state(tmp_path: Path) -> State:
    blocks = [{"text": "Moving notes", "style": "Title"}, {"text": FIRST, "style": ""},
              {"text": SECOND, "style": ""}]
    spec = {"blocks": blocks, "author": "A", "page": {"paper": "A4", "orientation": "portrait",
                                                       "margins": {"top": 1134, "bottom": 1134, "left": 1134,
                                                                   "right": 1134}}}
    (tmp_path / "notes.docx").write_bytes(docx.build(spec))
    return State(tmp_path)


def _check(tmp_path: Path, side: str) -> tuple[bool, str]:
    result = run_check(State(tmp_path), "docx.paragraph_space", {
        "path": PATH, "side": side, "pt": 12.0, "paragraph": "The move will take", "targets": {FIRST: [0, 10]},
        "unchanged": {SECOND: [0, 10], "Moving notes": [0, 15]}})
    return result.passed, result.evidence


def _space(tmp_path: Path, paragraphs: list[str] | None = None, **pt: float) -> None:
    apply_ops(tmp_path, [{"op": "docx.set_paragraph_space", "path": PATH, "paragraphs": paragraphs or [FIRST],
                          **pt}])


def test_the_op_sets_one_side_and_the_check_reads_it(tmp_path):
    _state(tmp_path)
    assert not _check(tmp_path, "after")[0]
    _space(tmp_path, after_pt=12)
    assert _check(tmp_path, "after") == (True, "1 paragraph(s) have 12 pt of space below; 2 others keep theirs")
    passed, evidence = _check(tmp_path, "before")
    assert not passed and "has 0 pt above, 12 pt below, expected 12 pt above, 10 pt below" in evidence


@pytest.mark.parametrize(("slip", "paragraphs", "says"), [
    ({"before_pt": 12}, None, "has 12 pt above, 10 pt below, expected 0 pt above, 12 pt below"),
    ({"before_pt": 12, "after_pt": 12}, None, "has 12 pt above, 12 pt below"),
    ({"after_pt": 6}, None, "has 0 pt above, 6 pt below"),
    ({"after_pt": 12}, [FIRST, SECOND], "had 0 pt above, 10 pt below and must keep it"),
])
def test_the_check_rejects_the_slips(tmp_path, slip, paragraphs, says):
    _state(tmp_path)
    _space(tmp_path, paragraphs, **slip)
    passed, evidence = _check(tmp_path, "after")
    assert not passed and says in evidence, evidence
    (tmp_path / "notes.docx").write_bytes(b"PK\x03\x04 not a document")
    assert not _check(tmp_path, "after")[0]
