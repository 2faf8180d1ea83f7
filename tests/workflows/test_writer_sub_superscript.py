"""writer.sub_superscript: the family through the gate with every mutant, its check on hand-made end states, its op,
and the frame reading subscript and superscript."""

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
from verifiers.frame.docx import read
from workflows.writer.sub_superscript import NATURAL, PHRASINGS, WORKFLOW, _task

PATH = "/home/user/notes.docx"
NOTE = "Our new boilers should cut CO2 emissions by a third while releasing almost no NO2 at all."
OTHER = "The landlord quotes 120 m2 of office space."
BLOCKS = [{"text": "Site notes", "style": "Title"}, {"text": NOTE, "style": ""}, {"text": OTHER, "style": ""}]
ARGS = {"path": PATH, "paragraph": "Our new boilers should", "tokens": ["CO2", "NO2"], "marks": [[2, 3], [2, 3]],
        "position": "sub"}


@pytest.mark.slow
@pytest.mark.parametrize("mark", ["formula", "unit", "ordinal"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, mark):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"mark": mark}, tmp_path / str(seed), seed=seed)
        assert_accepted(folder)
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]] == ["docx.script_chars", "docx.frame", "tree.frame"]


@pytest.mark.parametrize(("mark", "tokens", "marks", "position"), [
    ("formula", ("CO2", "CH4"), ((2, 3), (2, 3)), "sub"), ("unit", ("m2", "m3"), ((1, 2), (1, 2)), "super"),
    ("ordinal", ("3rd", "21st"), ((1, 3), (2, 4)), "super")])
def test_every_phrasing_says_the_position_and_no_other(mark, tokens, marks, position):
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.replace("{path.file}", "notes.docx").format(
            path=PATH, paragraph='"Our new boilers should"', task=_task(mark, tokens, marks))
        assert set(extract.expressed(text, "script")) == {position}, text


def _state(tmp_path: Path) -> State:
    spec = {"blocks": BLOCKS, "author": "A", "page": {"paper": "A4", "orientation": "portrait",
                                                       "margins": {"top": 1134, "bottom": 1134, "left": 1134,
                                                                   "right": 1134}}}
    (tmp_path / "notes.docx").write_bytes(docx.build(spec))
    return State(tmp_path)


def _check(tmp_path: Path, **args: object) -> tuple[bool, str]:
    result = run_check(State(tmp_path), "docx.script_chars", {**ARGS, **args})
    return result.passed, result.evidence


def _op(tmp_path: Path, **args: object) -> None:
    base = {"op": "docx.script_chars", "path": PATH, "paragraph_start": "Our new boilers should",
            "tokens": ["CO2", "NO2"], "marks": [[2, 3], [2, 3]], "position": "sub"}
    apply_ops(tmp_path, [{**base, **args}])


def test_the_op_lowers_only_the_digits_and_the_check_passes(tmp_path):
    _state(tmp_path)
    assert _check(tmp_path)[0] is False
    _op(tmp_path)
    p = next(p for p in Document(str(tmp_path / "notes.docx")).paragraphs if p.text == NOTE)
    assert [(r.text, bool(r.font.subscript)) for r in p.runs if r.font.subscript] == [("2", True), ("2", True)]
    assert _check(tmp_path) == (True, "2 of CO2, 2 of NO2 are subscript; the rest of the paragraph is on the "
                                      "baseline")


@pytest.mark.parametrize(("slip", "says"), [
    ({"marks": [[0, 3], [0, 3]]}, "'C' is subscript, expected on the baseline"),
    ({"position": "super"}, "'2' is superscript, expected subscript"),
    ({"tokens": ["CO2"], "marks": [[2, 3]]}, "in 'NO2', '2' is on the baseline, expected subscript"),
])
def test_the_check_rejects_the_slips(tmp_path, slip, says):
    _state(tmp_path)
    _op(tmp_path, **slip)
    passed, evidence = _check(tmp_path)
    assert not passed and says in evidence, evidence


def test_a_raise_by_position_counts_and_a_stray_one_fails(tmp_path):
    _state(tmp_path)
    _op(tmp_path)
    _op(tmp_path, position="super", tokens=["by"], marks=[[0, 2]])  # "by" raised too: not one of the words
    passed, evidence = _check(tmp_path)
    assert not passed and "only the marked characters" in evidence, evidence
    _state(tmp_path)
    _op(tmp_path)
    doc = Document(str(tmp_path / "notes.docx"))
    p = next(p for p in doc.paragraphs if p.text == NOTE)
    for run in p.runs:  # a set lowering (Format > Character > Position, 33%) instead of automatic subscript
        if run.font.subscript:
            run.font.subscript = None
            run._r.get_or_add_rPr().append(run._r.makeelement(
                "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}position",
                {"{http://schemas.openxmlformats.org/wordprocessingml/2006/main}val": "-6"}))
    doc.save(str(tmp_path / "notes.docx"))
    assert _check(tmp_path)[0]
    (tmp_path / "notes.docx").write_bytes(b"PK\x03\x04 not a document")
    assert not _check(tmp_path)[0]


def test_the_frame_sees_a_superscript_in_another_paragraph(tmp_path):
    _state(tmp_path)
    before = read(tmp_path / "notes.docx")
    apply_ops(tmp_path, [{"op": "docx.script_chars", "path": PATH, "paragraph_start": "The landlord quotes",
                          "tokens": ["m2"], "marks": [[1, 2]], "position": "super"}])
    after = read(tmp_path / "notes.docx")
    changed = [k for k in before if before[k] != after.get(k)]
    assert changed == ["body:003#runs"] and "script=super" in after["body:003#runs"]
