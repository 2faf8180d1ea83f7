"""writer.paragraph_indent: the family through the gate with every mutant, its check on hand-made end states (a
hanging indent, Writer's w:start, a style's indent), its op."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from docx import Document
from docx.shared import Cm

from preparers import docx
from preparers.ops import apply_ops
from tests.gatekit import assert_accepted, make_package
from verifiers import extract
from verifiers.checks import State, run_check
from workflows.writer.paragraph_indent import HOW, NATURAL, PHRASINGS, WORKFLOW

PATH = "/home/user/notes.docx"
FIRST = "The move will take place over two weekends to keep disruption low."
SECOND = "Each team will receive its new seating plan one week before its moving date."
W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"


@pytest.mark.slow
@pytest.mark.parametrize(("indent", "target"), [("first_line", "body"), ("left", "paragraph"),
                                                ("hanging", "paragraph")])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, indent, target):
    folder = make_package(WORKFLOW, {"indent": indent, "target": target}, tmp_path, seed=2)
    assert_accepted(folder)
    task = json.loads((folder / "task.json").read_text())
    assert [c["primitive"] for c in task["rubric"]] == ["docx.paragraph_indent", "docx.frame", "tree.frame"]


@pytest.mark.parametrize("indent", ["first_line", "left", "hanging"])
def test_every_phrasing_says_the_indent(indent):
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.replace("{path.file}", "notes.docx").replace("{what.bare}", "{what}").format(
            path=PATH, what='the paragraph beginning "The move will"', how=HOW[indent].format(cm="1.25"))
        said = set(extract.expressed(text, "indent"))
        assert indent in said and not ({"first_line", "hanging"} <= said), text


def _state(tmp_path: Path) -> State:
    blocks = [{"text": "Moving notes", "style": "Title"}, {"text": FIRST, "style": ""},
              {"text": SECOND, "style": ""}]
    spec = {"blocks": blocks, "author": "A", "page": {"paper": "A4", "orientation": "portrait",
                                                       "margins": {"top": 1134, "bottom": 1134, "left": 1134,
                                                                   "right": 1134}}}
    (tmp_path / "notes.docx").write_bytes(docx.build(spec))
    return State(tmp_path)


def _check(tmp_path: Path, kind: str, cm: float = 1.25) -> tuple[bool, str]:
    result = run_check(State(tmp_path), "docx.paragraph_indent", {
        "path": PATH, "kind": kind, "cm": cm, "paragraph": "The move will take", "targets": {FIRST: [0, 0]},
        "unchanged": {SECOND: [0, 0], "Moving notes": [0, 0]}})
    return result.passed, result.evidence


def _indent(tmp_path: Path, *paragraphs: str, **cm: float) -> None:
    apply_ops(tmp_path, [{"op": "docx.set_indent", "path": PATH, "paragraphs": list(paragraphs) or [FIRST], **cm}])


@pytest.mark.parametrize(("kind", "cm", "passes"), [
    ("first_line", {"first_line_cm": 1.25}, "first_line"), ("left", {"left_cm": 1.25}, "left"),
    ("hanging", {"left_cm": 1.25, "first_line_cm": -1.25}, "hanging")])
def test_each_indent_passes_only_its_own_check(tmp_path, kind, cm, passes):
    _state(tmp_path)
    assert not _check(tmp_path, kind)[0]
    _indent(tmp_path, **cm)
    for other in ("first_line", "left", "hanging"):
        assert _check(tmp_path, other)[0] is (other == passes), other


@pytest.mark.parametrize(("slip", "says"), [
    ({"first_line_cm": round(1.25 * 2.54, 3)}, "has left 0 cm, first line +3.175 cm, expected left 0 cm, first "
                                               "line +1.25 cm"),
    ({"first_line_cm": 1.25, "paragraphs": [FIRST, SECOND]}, "had left 0 cm, first line +0 cm and must keep it"),
])
def test_the_check_rejects_the_slips(tmp_path, slip, says):
    _state(tmp_path)
    apply_ops(tmp_path, [{"op": "docx.set_indent", "path": PATH, "paragraphs": [FIRST], **slip}])
    passed, evidence = _check(tmp_path, "first_line")
    assert not passed and says in evidence, evidence


def test_writers_start_attribute_and_a_damaged_file(tmp_path):
    _state(tmp_path)
    doc = Document(str(tmp_path / "notes.docx"))
    p = next(p for p in doc.paragraphs if p.text == FIRST)
    p.paragraph_format.first_line_indent = Cm(-1.25)
    p._p.pPr.find(W + "ind").set(W + "start", str(round(1.25 / 2.54 * 1440)))  # as Writer may write "Before text"
    doc.save(str(tmp_path / "notes.docx"))
    assert _check(tmp_path, "hanging")[0]
    (tmp_path / "notes.docx").write_bytes(b"PK\x03\x04 not a document")
    assert not _check(tmp_path, "hanging")[0]
