"""writer.text_to_table: the family through the gate with every mutant, its check on hand-made end states, its op."""

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
from workflows.writer.text_to_table import NATURAL, PHRASINGS, SAID, WORKFLOW

PATH = "/home/user/notes.docx"
LEAD = "The table below gives the latest figures."
ROWS = [["Region", "Sales", "Target Met"], ["North", "860,000", "Yes"], ["South", "1.2 million", "No"]]


@pytest.mark.slow
@pytest.mark.parametrize(("separator", "header"), [("tab", "plain"), ("semicolon", "bold")])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, separator, header):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"separator": separator, "header": header}, tmp_path / str(seed), seed=seed)
        assert_accepted(folder)
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]] == ["docx.text_table", "docx.frame", "tree.frame"]


@pytest.mark.parametrize("separator", ["tab", "semicolon"])
def test_every_phrasing_says_the_separator_and_no_other(separator):
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.replace("{path.file}", "notes.docx").format(
            path=PATH, lead=f'"{LEAD}"', n="3", sep=SAID[separator], bold="")
        assert set(extract.expressed(text, "separator")) == {separator}, text


def _state(tmp_path: Path, separator: str) -> State:
    mark = "\t" if separator == "tab" else "; "
    blocks = [{"text": "Sales review", "style": "Title"}, {"text": LEAD, "style": ""},
              *({"text": mark.join(row), "style": ""} for row in ROWS), {"text": "Thank you all.", "style": ""}]
    spec = {"blocks": blocks, "author": "A", "page": {"paper": "A4", "orientation": "portrait",
                                                       "margins": {"top": 1134, "bottom": 1134, "left": 1134,
                                                                   "right": 1134}}}
    (tmp_path / "notes.docx").write_bytes(docx.build(spec))
    return State(tmp_path)


def _convert(tmp_path: Path, separator: str, **slip: object) -> None:
    apply_ops(tmp_path, [{"op": "docx.text_to_table", "path": PATH, "after": LEAD, "count": 3,
                          "separator": separator, **slip}])


def _check(tmp_path: Path, separator: str, bold: bool = False) -> tuple[bool, str]:
    result = run_check(State(tmp_path), "docx.text_table", {"path": PATH, "after": LEAD, "rows": ROWS,
                                                              "separator": separator, "bold_header": bold})
    return result.passed, result.evidence


@pytest.mark.parametrize("separator", ["tab", "semicolon"])
def test_the_op_makes_the_table_in_place_and_the_check_passes(tmp_path, separator):
    _state(tmp_path, separator)
    passed, evidence = _check(tmp_path, separator)
    assert not passed and "no table right after" in evidence
    _convert(tmp_path, separator)
    doc = Document(str(tmp_path / "notes.docx"))
    assert [[c.text for c in row.cells] for row in doc.tables[0].rows] == ROWS
    assert [p.text for p in doc.paragraphs] == ["Sales review", LEAD, "Thank you all."]
    assert _check(tmp_path, separator) == (True, "the 3 lines after 'The table below gives the latest figu...' "
                                                 "are a 3 x 3 table")


@pytest.mark.parametrize(("slip", "says"), [
    ({"split": False}, "a cell still holds the semicolon separator"),
    ({"first": 1}, "no table right after the paragraph"),
    ({"keep_text": True}, "3 line(s) are still paragraphs beside the table"),
    ({"last": 2}, "the table has 2 rows"),
])
def test_the_check_rejects_the_slips(tmp_path, slip, says):
    _state(tmp_path, "semicolon")
    _convert(tmp_path, "semicolon", **slip)
    passed, evidence = _check(tmp_path, "semicolon")
    assert not passed and says in evidence, evidence


def test_a_bold_header_is_read_row_by_row(tmp_path):
    _state(tmp_path, "tab")
    _convert(tmp_path, "tab")
    passed, evidence = _check(tmp_path, "tab", bold=True)
    assert not passed and "header text 'Region' is not bold" in evidence
    _state(tmp_path, "tab")
    _convert(tmp_path, "tab", bold_header=True)
    assert _check(tmp_path, "tab", bold=True)[0]
    doc = Document(str(tmp_path / "notes.docx"))
    doc.tables[0].rows[2].cells[0].paragraphs[0].runs[0].bold = True  # bold spilled into a data row
    doc.save(str(tmp_path / "notes.docx"))
    passed, evidence = _check(tmp_path, "tab", bold=True)
    assert not passed and "row 3 text 'South' is bold" in evidence
    (tmp_path / "notes.docx").write_bytes(b"PK\x03\x04 not a document")
    assert not _check(tmp_path, "tab", bold=True)[0]
