"""writer.footnote: the family through the gate with every mutant, its check on hand-made end states, its op."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from docx import Document
from docx.oxml.ns import qn

from preparers import docx
from preparers.ops import apply_ops
from tests.gatekit import assert_accepted, make_package
from verifiers.checks import State, run_check
from workflows.writer.footnote import NATURAL, PHRASINGS, WORKFLOW

PATH = "/home/user/notes.docx"
TEXT = "Sales rose by twelve percent in the spring. Most of the growth came from online orders."
NOTE = "Figures as reported by the regional offices."


@pytest.mark.slow
def test_tasks_pass_the_gate_with_every_mutant(tmp_path):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {}, tmp_path / str(seed), seed=seed)
        assert_accepted(folder)
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]] == ["docx.footnote", "docx.frame", "tree.frame"]


def _state(tmp_path: Path) -> None:
    spec = {"blocks": [{"text": "Quarterly notes", "style": "Title"}, {"text": TEXT, "style": ""}],
            "author": "A", "page": {"paper": "A4", "orientation": "portrait",
                                    "margins": {"top": 1134, "bottom": 1134, "left": 1134, "right": 1134}}}
    (tmp_path / "notes.docx").write_bytes(docx.build(spec))


def _check(tmp_path: Path, phrase: str = "percent in the spring.", text: str = NOTE) -> tuple[bool, str]:
    result = run_check(State(tmp_path), "docx.footnote", {"path": PATH, "paragraph": "Sales rose by",
                                                          "phrase": phrase, "text": text})
    return result.passed, result.evidence


def _note(tmp_path: Path, **args: object) -> None:
    apply_ops(tmp_path, [{"op": "docx.add_footnote", "path": PATH, "paragraph_start": "Sales rose by",
                          "phrase": "percent in the spring.", "text": NOTE, **args}])


def test_the_op_adds_the_footnote_and_keeps_the_text(tmp_path):
    _state(tmp_path)
    passed, evidence = _check(tmp_path)
    assert not passed and "0 footnote(s)" in evidence
    _note(tmp_path)
    assert [p.text for p in Document(str(tmp_path / "notes.docx")).paragraphs] == ["Quarterly notes", TEXT]
    assert _check(tmp_path) == (True, f"one footnote {NOTE!r}, its mark right after 'percent in the spring.'")
    passed, evidence = _check(tmp_path, phrase="from online orders.")
    assert not passed and "the footnote mark follows '...rose by twelve percent in the spring.'" in evidence


@pytest.mark.parametrize(("slip", "twice", "says"), [
    ({"phrase": "from online orders."}, False,
     "came from online orders.', expected it right after 'percent in the spring.'"),
    ({"text": "See the minutes of the last board meeting."}, False, "the footnote reads 'See the minutes"),
    ({}, True, "the document has 2 footnote(s)"),
    ({"phrase": "Sales rose"}, False, "the footnote mark follows 'Sales rose'"),
])
def test_the_check_rejects_the_slips(tmp_path, slip, twice, says):
    _state(tmp_path)
    _note(tmp_path, **slip)
    if twice:
        _note(tmp_path, **slip)
    passed, evidence = _check(tmp_path)
    assert not passed and says in evidence, evidence


def test_hand_made_states(tmp_path):
    _state(tmp_path)
    # a lazy agent types the note as a superscript "1" and a line at the end: no footnote
    apply_ops(tmp_path, [{"op": "docx.replace_text", "path": PATH, "old": "spring.", "new": "spring.1"}])
    passed, evidence = _check(tmp_path)
    assert not passed and "0 footnote(s)" in evidence
    # a footnote whose mark was removed from the text: referenced nowhere
    _state(tmp_path)
    _note(tmp_path)
    doc = Document(str(tmp_path / "notes.docx"))
    for ref in list(doc.element.body.iter(qn("w:footnoteReference"))):
        ref.getparent().remove(ref)
    doc.save(str(tmp_path / "notes.docx"))
    passed, evidence = _check(tmp_path)
    assert not passed and "referenced 0 time(s)" in evidence
    (tmp_path / "notes.docx").write_bytes(b"PK\x03\x04 not a document")
    assert not _check(tmp_path)[0]


def test_every_phrasing_states_the_words_and_the_note():
    for phrasing in PHRASINGS + NATURAL:
        assert "{phrase}" in phrasing and "{note}" in phrasing and "footnote" in phrasing, phrasing
