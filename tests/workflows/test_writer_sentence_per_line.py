"""writer.sentence_per_line: the family through the gate with every mutant, its check on hand-made end states, its
op."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from docx import Document

from preparers import docx
from preparers.ops import apply_ops
from preparers.ops.docx_sentences import sentences
from tests.gatekit import assert_accepted, make_package
from verifiers.checks import State, run_check
from workflows.writer.sentence_per_line import WORKFLOW

PATH = "/home/user/notes.docx"
TEXT = ("The move will take place over two weekends. Each team gets its seating plan a week before. Laptops travel "
        "with their owners and must not be packed.")
PARTS = ["The move will take place over two weekends.", "Each team gets its seating plan a week before.",
         "Laptops travel with their owners and must not be packed."]
CLOSING = "Thank you for your patience. We will publish updates every week."


@pytest.mark.slow
@pytest.mark.parametrize("scope", ["paragraph", "section"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, scope):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"scope": scope}, tmp_path / str(seed), seed=seed)
        assert_accepted(folder)
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]] == ["docx.sentences_split", "docx.frame", "tree.frame"]


def test_sentences_end_at_a_stop_before_a_capital_or_digit():
    assert sentences(TEXT) == PARTS
    assert sentences("Doors open at 10 am. 25 seats are left! Is that enough? yes.") == [
        "Doors open at 10 am.", "25 seats are left!", "Is that enough? yes."]


def _state(tmp_path: Path) -> State:
    blocks = [{"text": "Moving notes", "style": "Title"}, {"text": TEXT, "style": ""}, {"text": CLOSING, "style": ""}]
    spec = {"blocks": blocks, "author": "A", "page": {"paper": "A4", "orientation": "portrait",
                                                       "margins": {"top": 1134, "bottom": 1134, "left": 1134,
                                                                   "right": 1134}}}
    (tmp_path / "notes.docx").write_bytes(docx.build(spec))
    return State(tmp_path)


def _split(tmp_path: Path, *starts: str, **slip: object) -> None:
    apply_ops(tmp_path, [{"op": "docx.split_sentences", "path": PATH,
                          "paragraph_starts": list(starts) or ["The move will take"], **slip}])


def _check(tmp_path: Path) -> tuple[bool, str]:
    result = run_check(State(tmp_path), "docx.sentences_split", {
        "path": PATH, "where": "The move will take", "paragraphs": ["Moving notes", *PARTS, CLOSING],
        "sentences": PARTS, "styles": ["Normal"] * 3})
    return result.passed, result.evidence


def test_the_op_splits_in_place_and_the_check_passes(tmp_path):
    _state(tmp_path)
    assert not _check(tmp_path)[0]
    _split(tmp_path)
    doc = Document(str(tmp_path / "notes.docx"))
    assert [p.text for p in doc.paragraphs] == ["Moving notes", *PARTS, CLOSING]
    assert {p.style.name for p in doc.paragraphs[1:]} == {"Normal"}
    assert _check(tmp_path) == (True, "'The move will take': each of the 3 sentences is its own paragraph; 5 "
                                      "paragraphs read as expected")


@pytest.mark.parametrize(("slip", "starts", "says"), [
    ({"line_breaks": True}, (), "is not a paragraph of its own (it is inside 'The move will take place over"),
    ({"first_only": True}, (), "'Each team gets its seating plan a wee...' is not a paragraph of its own"),
    ({}, ("The move will take", "Thank you for"), "paragraph 5 is 'Thank you for your patience.' where"),
])
def test_the_check_rejects_the_slips(tmp_path, slip, starts, says):
    _state(tmp_path)
    _split(tmp_path, *starts, **slip)
    passed, evidence = _check(tmp_path)
    assert not passed and says in evidence, evidence


def test_a_sentence_in_another_style_fails_and_a_damaged_file_fails(tmp_path):
    _state(tmp_path)
    _split(tmp_path)
    apply_ops(tmp_path, [{"op": "docx.set_style", "path": PATH, "paragraphs": PARTS[1:], "style": "List Bullet"}])
    passed, evidence = _check(tmp_path)
    assert not passed and "is in style 'List Bullet', expected 'Normal'" in evidence, evidence
    (tmp_path / "notes.docx").write_bytes(b"PK\x03\x04 not a document")
    assert not _check(tmp_path)[0]
