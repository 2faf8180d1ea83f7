"""writer.comment: the family through the gate with every mutant, its check on hand-made end states, its op."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from docx import Document

from preparers import docx
from preparers.ops import apply_ops
from tests.gatekit import assert_accepted, make_package
from verifiers.checks import State, run_check
from workflows.writer.comment import WORKFLOW

PATH = "/home/user/notes.docx"
TEXT = "The move will take place over two weekends to keep disruption low."
OTHER = "Each team will receive its new seating plan one week before its moving date."
NOTE = "Can we confirm this date with the team?"


@pytest.mark.slow
@pytest.mark.parametrize("anchor", ["phrase", "paragraph"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, anchor):
    folder = make_package(WORKFLOW, {"anchor": anchor}, tmp_path, seed=2)
    assert_accepted(folder)
    task = json.loads((folder / "task.json").read_text())
    assert [c["primitive"] for c in task["rubric"]] == ["docx.comment", "docx.frame", "tree.frame"]


def _state(tmp_path: Path) -> State:
    spec = {"blocks": [{"text": "Moving notes", "style": "Title"}, {"text": TEXT, "style": ""},
                       {"text": OTHER, "style": ""}],
            "author": "A", "page": {"paper": "A4", "orientation": "portrait",
                                    "margins": {"top": 1134, "bottom": 1134, "left": 1134, "right": 1134}}}
    (tmp_path / "notes.docx").write_bytes(docx.build(spec))
    return State(tmp_path)


def _check(tmp_path: Path, phrase: str | None = "two weekends") -> tuple[bool, str]:
    args = {"path": PATH, "paragraph": "The move will take", "text": NOTE}
    if phrase:
        args["phrase"] = phrase
    result = run_check(State(tmp_path), "docx.comment", args)
    return result.passed, result.evidence


def _comment(tmp_path: Path, **args: object) -> None:
    apply_ops(tmp_path, [{"op": "docx.add_comment", "path": PATH, "paragraph_start": "The move will take",
                          "text": NOTE, **args}])


def test_the_op_comments_the_words_and_keeps_the_text(tmp_path):
    _state(tmp_path)
    passed, evidence = _check(tmp_path)
    assert not passed and "0 comment(s)" in evidence
    _comment(tmp_path, phrase="two weekends")
    assert [p.text for p in Document(str(tmp_path / "notes.docx")).paragraphs] == ["Moving notes", TEXT, OTHER]
    assert _check(tmp_path) == (True, f"one comment {NOTE!r} on 'two weekends'")
    passed, evidence = _check(tmp_path, phrase=None)
    assert not passed and "covers 'two weekends', expected 'The move will take place" in evidence


@pytest.mark.parametrize(("slip", "twice", "says"), [
    ({}, False, "the comment covers 'The move will take place over two wee...'"),
    ({"phrase": "two"}, False, "the comment covers 'two', expected 'two weekends'"),
    ({"phrase": "two weekends", "text": "Is this the final number?"}, False, "the comment reads 'Is this the final"),
    ({"phrase": "two weekends"}, True, "the document has 2 comment(s)"),
    ({"paragraph_start": "Each team will", "phrase": "one week"}, False, "covers 'one week', expected 'two weekends'"),
])
def test_the_check_rejects_the_slips(tmp_path, slip, twice, says):
    _state(tmp_path)
    _comment(tmp_path, **slip)
    if twice:
        _comment(tmp_path, **slip)
    passed, evidence = _check(tmp_path)
    assert not passed and says in evidence, evidence


def test_a_comment_at_a_point_fails_and_a_damaged_file_fails(tmp_path):
    _state(tmp_path)
    _comment(tmp_path, phrase="two weekends")
    doc = Document(str(tmp_path / "notes.docx"))
    body = doc.element.body
    for tag in ("commentRangeStart", "commentRangeEnd"):
        for el in list(body.iter(f"{{http://schemas.openxmlformats.org/wordprocessingml/2006/main}}{tag}")):
            el.getparent().remove(el)
    doc.save(str(tmp_path / "notes.docx"))
    passed, evidence = _check(tmp_path)
    assert not passed and "anchored to a point" in evidence, evidence
    (tmp_path / "notes.docx").write_bytes(b"PK\x03\x04 not a document")
    assert not _check(tmp_path)[0]
