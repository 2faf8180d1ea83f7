"""writer.char_effect: the family through the gate with every mutant, its check on hand-made end states."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from docx import Document
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.shared import RGBColor

from preparers import docx
from preparers.ops import apply_ops
from tests.gatekit import assert_accepted, make_package
from verifiers import extract
from verifiers.checks import State, run_check
from verifiers.checks.docx_text_effects import colour_name
from workflows.writer.char_effect import CHOICES, NATURAL, PHRASINGS, WORKFLOW, _task

PATH = "/home/user/draft.docx"
TEXT = "The budget review will take place in March and the final report follows in April."
PHRASE = "final report"


@pytest.mark.slow
@pytest.mark.parametrize("effect", ["strike", "highlight", "color"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, effect):
    for seed, target in ((1, "phrase"), (2, "paragraph")):
        folder = make_package(WORKFLOW, {"effect": effect, "target": target}, tmp_path / str(seed), seed=seed)
        assert_accepted(folder)
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]] == ["docx.char_effect", "docx.frame", "tree.frame"]


@pytest.mark.parametrize("effect", ["strike", "highlight", "color"])
def test_every_phrasing_says_the_effect_and_its_colour(effect):
    for colour in CHOICES[effect]:
        task = _task(effect, colour, f'the words "{PHRASE}" in the paragraph beginning "The budget review"')
        for phrasing in PHRASINGS + NATURAL:
            text = phrasing.replace("{path.file}", "draft.docx").format(path=PATH, task=task)
            assert effect in extract.expressed(text, "effect"), text
            assert set(extract.expressed(text, "colour")) == ({colour} if colour else set()), text


@pytest.mark.parametrize(("rgb", "name"), [("C9211E", "red"), ("FF0000", "red"), ("2A6099", "blue"),
                                           ("0000FF", "blue"), ("00A933", "green"), ("FFFF00", "yellow"),
                                           ("808080", None), ("000000", None), ("FF8000", None), ("bad", None)])
def test_colours_are_judged_by_name(rgb, name):
    assert colour_name(rgb) == name


def _state(tmp_path: Path) -> State:
    spec = {"blocks": [{"text": "Draft", "style": "Title"}, {"text": TEXT, "style": ""}], "author": "A",
            "page": {"paper": "A4", "orientation": "portrait",
                     "margins": {"top": 1134, "bottom": 1134, "left": 1134, "right": 1134}}}
    (tmp_path / "draft.docx").write_bytes(docx.build(spec))
    return State(tmp_path)


def _check(tmp_path: Path, effect: str, colour: str | None = None) -> tuple[bool, str]:
    args = {"path": PATH, "paragraph": "The budget review", "phrase": PHRASE, "effect": effect}
    if colour:
        args["color"] = colour
    result = run_check(State(tmp_path), "docx.char_effect", args)
    return result.passed, result.evidence


def _effect(tmp_path: Path, **value: object) -> None:
    apply_ops(tmp_path, [{"op": "docx.char_effect", "path": PATH, "paragraph_start": "The budget review",
                          "phrase": PHRASE, **value}])


def test_the_check_reads_the_effect_on_the_phrase_only(tmp_path):
    _state(tmp_path)
    assert not _check(tmp_path, "strike")[0]
    _effect(tmp_path, strike=True)
    assert _check(tmp_path, "strike") == (True, "'final report' is strikethrough; the rest of its paragraph is not")
    _effect(tmp_path, color="FF0000")
    assert _check(tmp_path, "color", "red")[0] and not _check(tmp_path, "color", "blue")[0]
    assert not _check(tmp_path, "highlight", "red")[0], "the font colour is no highlight"
    apply_ops(tmp_path, [{"op": "docx.char_effect", "path": PATH, "paragraph_start": "The budget review",
                          "phrase": "final", "highlight": "yellow"}])
    assert not _check(tmp_path, "highlight", "yellow")[0], "part of the phrase only"


def test_shading_counts_as_highlighting_and_beyond_the_phrase_fails(tmp_path):
    _state(tmp_path)
    doc = Document(str(tmp_path / "draft.docx"))
    p = doc.paragraphs[1]
    start = TEXT.index(PHRASE)
    p.runs[0].text = TEXT[:start]
    for piece in (PHRASE, TEXT[start + len(PHRASE):]):
        p.add_run(piece)
    shd = OxmlElement("w:shd")  # LibreOffice may save highlighting as character shading
    shd.set(qn("w:val"), "clear")
    shd.set(qn("w:fill"), "FFFF00")
    p.runs[1]._r.get_or_add_rPr().append(shd)
    doc.save(str(tmp_path / "draft.docx"))
    assert _check(tmp_path, "highlight", "yellow")[0]
    p.runs[2].font.color.rgb = RGBColor(0x2A, 0x60, 0x99)
    p.runs[1].font.color.rgb = RGBColor(0x2A, 0x60, 0x99)
    doc.save(str(tmp_path / "draft.docx"))
    passed, evidence = _check(tmp_path, "color", "blue")
    assert not passed and "reaches beyond" in evidence
