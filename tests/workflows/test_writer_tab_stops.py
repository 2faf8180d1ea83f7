"""writer.tab_stops: the family through the gate with every mutant, its check on hand-made end states (an inherited
stop, a cleared one), its op."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from docx import Document
from docx.enum.text import WD_TAB_ALIGNMENT
from docx.shared import Cm

from preparers import docx
from preparers.ops import apply_ops
from tests.gatekit import assert_accepted, make_package
from verifiers import extract
from verifiers.checks import State, run_check
from workflows.writer.tab_stops import NATURAL, PHRASINGS, SAID, WORKFLOW

PATH = "/home/user/notes.docx"
LEAD = "Key dates for each team:"
LINES = ["Finance\t6 May", "Legal\t13 May", "Marketing\t20 May"]
TARGETS = ["Finance 6 May", "Legal 13 May", "Marketing 20 May"]


@pytest.mark.slow
@pytest.mark.parametrize("align", ["left", "right", "center"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, align):
    folder = make_package(WORKFLOW, {"align": align}, tmp_path, seed=2)
    assert_accepted(folder)
    task = json.loads((folder / "task.json").read_text())
    assert [c["primitive"] for c in task["rubric"]] == ["docx.tab_stop", "docx.frame", "tree.frame"]


@pytest.mark.parametrize("align", ["left", "right", "center"])
def test_every_phrasing_says_the_alignment_and_no_other(align):
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.replace("{path.file}", "notes.docx").format(
            path=PATH, lead=f'"{LEAD}"', n="3", stop=SAID[align], cm="12")
        assert set(extract.expressed(text, "tab_align")) == {align}, text


def _state(tmp_path: Path) -> State:
    blocks = [{"text": "Moving notes", "style": "Title"}, {"text": LEAD, "style": ""},
              *({"text": line, "style": ""} for line in LINES), {"text": "Thank you all.", "style": ""}]
    spec = {"blocks": blocks, "author": "A", "page": {"paper": "A4", "orientation": "portrait",
                                                       "margins": {"top": 1134, "bottom": 1134, "left": 1134,
                                                                   "right": 1134}}}
    (tmp_path / "notes.docx").write_bytes(docx.build(spec))
    return State(tmp_path)


def _check(tmp_path: Path, align: str = "right") -> tuple[bool, str]:
    result = run_check(State(tmp_path), "docx.tab_stop", {
        "path": PATH, "align": align, "cm": 12.0, "targets": TARGETS,
        "unchanged": {LEAD: [], "Thank you all.": []}})
    return result.passed, result.evidence


def _tab(tmp_path: Path, paragraphs: list[str] | None = None, **args: object) -> None:
    apply_ops(tmp_path, [{"op": "docx.add_tab_stop", "path": PATH, "paragraphs": paragraphs or TARGETS,
                          "cm": 12.0, "align": "right", **args}])


def test_the_op_adds_the_stop_and_the_check_passes(tmp_path):
    _state(tmp_path)
    assert not _check(tmp_path)[0]
    _tab(tmp_path)
    assert _check(tmp_path) == (True, "3 paragraph(s) have a right tab stop at 12 cm; 2 others keep theirs")


@pytest.mark.parametrize(("slip", "paragraphs", "says"), [
    ({"align": "left"}, None, "has tab stops: left at 12 cm; expected right at 12 cm only"),
    ({"cm": 10.0}, None, "has tab stops: right at 10 cm"),
    ({}, TARGETS[:-1], "'Marketing 20 May' has tab stops: none"),
    ({}, [*TARGETS, LEAD], "had tab stops: none and must keep them, but has right at 12 cm"),
])
def test_the_check_rejects_the_slips(tmp_path, slip, paragraphs, says):
    _state(tmp_path)
    _tab(tmp_path, paragraphs, **slip)
    passed, evidence = _check(tmp_path)
    assert not passed and says in evidence, evidence


def test_a_style_stop_counts_and_a_cleared_one_is_gone(tmp_path):
    _state(tmp_path)
    doc = Document(str(tmp_path / "notes.docx"))
    style = doc.styles.add_style("Dates", 1)
    style.paragraph_format.tab_stops.add_tab_stop(Cm(12), WD_TAB_ALIGNMENT.RIGHT)
    for p in doc.paragraphs:
        if "\t" in p.text:
            p.style = style
    doc.save(str(tmp_path / "notes.docx"))
    assert _check(tmp_path)[0]  # the stop inherited from the lines' own style counts
    doc = Document(str(tmp_path / "notes.docx"))
    doc.paragraphs[2].paragraph_format.tab_stops.add_tab_stop(Cm(12), WD_TAB_ALIGNMENT.CLEAR)
    doc.save(str(tmp_path / "notes.docx"))
    passed, evidence = _check(tmp_path)
    assert not passed and "'Finance 6 May' has tab stops: none" in evidence, evidence
    (tmp_path / "notes.docx").write_bytes(b"PK\x03\x04 not a document")
    assert not _check(tmp_path)[0]
