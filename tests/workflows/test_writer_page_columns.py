"""writer.page_columns: the family through the gate with every mutant, its check on hand-made end states, its op."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from docx import Document

from preparers import docx
from preparers.ops import apply_ops
from tests.gatekit import assert_accepted, make_package
from verifiers import extract
from verifiers.checks import State, run_check
from workflows.writer.page_columns import LINE, NATURAL, PHRASINGS, WORKFLOW

PATH = "/home/user/notes.docx"


@pytest.mark.slow
@pytest.mark.parametrize(("count", "line"), [("2", "no"), ("3", "yes")])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, count, line):
    folder = make_package(WORKFLOW, {"count": count, "line": line}, tmp_path, seed=2)
    assert_accepted(folder)
    task = json.loads((folder / "task.json").read_text())
    assert [c["primitive"] for c in task["rubric"]] == ["docx.page_columns", "docx.frame", "tree.frame"]


@pytest.mark.parametrize("line", ["no", "yes"])
def test_the_phrasings_ask_for_a_line_only_when_one_is_wanted(line):
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.replace("{path.file}", "notes.docx").format(path=PATH, count="2", n="two", line=LINE[line])
        assert set(extract.expressed(text, "column_line")) == ({"line"} if line == "yes" else set()), text
        assert "2" in text


def _state(tmp_path: Path) -> State:
    spec = {"blocks": [{"text": "Newsletter", "style": "Title"}, {"text": "The garden opens in May.", "style": ""}],
            "author": "A", "page": {"paper": "A4", "orientation": "portrait",
                                    "margins": {"top": 1134, "bottom": 1134, "left": 1134, "right": 1134}}}
    (tmp_path / "notes.docx").write_bytes(docx.build(spec))
    return State(tmp_path)


def _check(tmp_path: Path, count: int = 2, line: bool = False) -> tuple[bool, str]:
    result = run_check(State(tmp_path), "docx.page_columns", {"path": PATH, "count": count, "line": line})
    return result.passed, result.evidence


def test_the_op_sets_the_columns_and_the_check_reads_them(tmp_path):
    _state(tmp_path)
    passed, evidence = _check(tmp_path)
    assert not passed and "section 1 of 1 has 1 column(s), expected 2" in evidence
    apply_ops(tmp_path, [{"op": "docx.set_columns", "path": PATH, "count": 2}])
    assert _check(tmp_path) == (True, "all 1 section(s) have 2 columns")
    passed, evidence = _check(tmp_path, line=True)
    assert not passed and "has no separator line" in evidence
    assert not _check(tmp_path, count=3)[0]
    apply_ops(tmp_path, [{"op": "docx.set_columns", "path": PATH, "count": 2, "line": True}])
    assert _check(tmp_path, line=True)[0]
    assert not _check(tmp_path)[0]


def test_a_section_left_in_one_column_fails(tmp_path):
    _state(tmp_path)
    apply_ops(tmp_path, [{"op": "docx.set_columns", "path": PATH, "count": 2}])
    doc = Document(str(tmp_path / "notes.docx"))
    doc.add_section()  # a new section after the text, in one column
    doc.sections[-1]._sectPr.find(
        "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}cols").set(
        "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}num", "1")
    doc.save(str(tmp_path / "notes.docx"))
    passed, evidence = _check(tmp_path)
    assert not passed and "section 2 of 2 has 1 column(s)" in evidence, evidence
    (tmp_path / "notes.docx").write_bytes(b"PK\x03\x04 not a document")
    assert not _check(tmp_path)[0]
