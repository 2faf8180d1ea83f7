"""writer.change_case: the family through the gate with every mutant, its check on hand-made end states, its op."""

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
from workflows.writer.change_case import HOW, NATURAL, PHRASINGS, WORKFLOW

PATH = "/home/user/notes.docx"
HEADING = "PLANS FOR THE NEW OFFICE"
BLOCKS = [{"text": "Quarterly notes", "style": "Title"}, {"text": HEADING, "style": "Heading 1"},
          {"text": "The move is planned for the spring.", "style": ""}]


@pytest.mark.slow
@pytest.mark.parametrize("case", ["upper", "lower", "title", "sentence"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, case):
    for seed, target in ((1, "heading"), (2, "title")):
        folder = make_package(WORKFLOW, {"case": case, "target": target}, tmp_path / str(seed), seed=seed)
        assert_accepted(folder)
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]] == ["docx.text_case", "docx.frame", "tree.frame"]


@pytest.mark.parametrize("case", ["upper", "lower", "title", "sentence"])
def test_every_phrasing_says_the_case_and_no_other(case):
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.replace("{path.file}", "notes.docx").replace("{how.bare}", "{bare}").format(
            path=PATH, what=f'the section heading "{HEADING}"', how=HOW[case], bare=HOW[case].split(" (")[0])
        assert set(extract.expressed(text, "letter_case")) == {case}, text


def _state(tmp_path: Path) -> State:
    spec = {"blocks": BLOCKS, "author": "A", "page": {"paper": "A4", "orientation": "portrait",
                                                       "margins": {"top": 1134, "bottom": 1134, "left": 1134,
                                                                   "right": 1134}}}
    (tmp_path / "notes.docx").write_bytes(docx.build(spec))
    return State(tmp_path)


def _check(tmp_path: Path, case: str) -> tuple[bool, str]:
    result = run_check(State(tmp_path), "docx.text_case",
                       {"path": PATH, "paragraph": HEADING, "case": case, "text": HEADING})
    return result.passed, result.evidence


def _heading(tmp_path: Path) -> tuple[Document, object]:
    doc = Document(str(tmp_path / "notes.docx"))
    return doc, next(p for p in doc.paragraphs if p.text.lower().startswith("plans"))


@pytest.mark.parametrize(("case", "reads"), [
    ("upper", HEADING), ("lower", "plans for the new office"), ("title", "Plans For The New Office"),
    ("sentence", "Plans for the new office"), ("headline", "Plans for the New Office"),
])
def test_the_op_changes_only_the_letters(tmp_path, case, reads):
    _state(tmp_path)
    apply_ops(tmp_path, [{"op": "docx.change_case", "path": PATH, "paragraph_start": HEADING, "case": case}])
    doc, p = _heading(tmp_path)
    assert p.text == reads and p.style.name == "Heading 1"


def test_the_check_reads_the_case_as_it_shows(tmp_path):
    _state(tmp_path)
    assert _check(tmp_path, "sentence")[0] is False
    apply_ops(tmp_path, [{"op": "docx.change_case", "path": PATH, "paragraph_start": HEADING, "case": "sentence"}])
    assert _check(tmp_path, "sentence") == (True, "paragraph 'PLANS FOR THE NEW OFFICE' reads 'Plans for the new "
                                                  "office' (sentence case)")
    passed, evidence = _check(tmp_path, "title")
    assert not passed and "not in title case" in evidence
    doc, p = _heading(tmp_path)
    p.runs[0].font.all_caps = True  # Format > Character > Uppercase shows capitals: the upper case reads right
    doc.save(str(tmp_path / "notes.docx"))
    assert _check(tmp_path, "upper")[0]
    p.runs[0].font.all_caps = False
    p.runs[0].font.small_caps = True  # small capitals are not capital letters
    doc.save(str(tmp_path / "notes.docx"))
    assert not _check(tmp_path, "upper")[0]


def test_a_title_case_with_either_letter_after_a_hyphen_passes_and_new_words_fail(tmp_path):
    _state(tmp_path)
    doc, p = _heading(tmp_path)
    p.runs[0].text = "Plans For The New Office"
    doc.save(str(tmp_path / "notes.docx"))
    assert _check(tmp_path, "title")[0]
    p.runs[0].text = "Plans For The New Offices"
    doc.save(str(tmp_path / "notes.docx"))
    passed, evidence = _check(tmp_path, "title")
    assert not passed and "no longer has the same words" in evidence
    (tmp_path / "notes.docx").write_bytes(b"PK\x03\x04 not a document")
    assert not _check(tmp_path, "title")[0]
