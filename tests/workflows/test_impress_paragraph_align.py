"""impress.paragraph_align: the family through the gate with every mutant, its check and the frame on hand-made
end states, its op."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from preparers import pptx as deckio
from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package
from verifiers import extract
from verifiers.checks import State, run_check
from verifiers.frame import pptx as frame
from workflows.impress.paragraph_align import HOW, NATURAL, PHRASINGS, WORKFLOW

PATH = "/home/user/deck.pptx"
SPEC = {"slides": [{"layout": "title_slide", "title": "Budget 2025", "subtitle": "Finance"},
                   {"layout": "title_content", "title": "Costs", "bullets": ["Rent", "Staff"]},
                   {"layout": "title_content", "title": "Income", "bullets": ["Grants", "Sales"]}]}


@pytest.mark.slow
@pytest.mark.parametrize("align", ["center", "right", "justify"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, align):
    folder = make_package(WORKFLOW, {"align": align}, tmp_path, seed=2)
    verdict = gate_package(folder, mutants=None)
    assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
        (s.name, s.evidence) for s in verdict.stages if not s.passed]
    task = json.loads((folder / "task.json").read_text())
    assert [c["primitive"] for c in task["rubric"]] == ["pptx.paragraph_align", "pptx.frame", "tree.frame"]


@pytest.mark.parametrize("align", ["center", "right", "justify"])
def test_every_phrasing_says_the_alignment_and_no_other(align):
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.replace("{path.file}", "deck.pptx").format(path=PATH, slide="Costs", how=HOW[align])
        assert set(extract.expressed(text, "align")) == {align}, text


def _check(root: Path, align: str) -> tuple[bool, str]:
    result = run_check(State(root), "pptx.paragraph_align", {"path": PATH, "slide": "Costs", "align": align})
    return result.passed, result.evidence


def _align(root: Path, **args: object) -> None:
    apply_ops(root, [{"op": "pptx.align_paragraphs", "path": PATH, "title": "Costs", **args}])


def test_every_paragraph_must_be_aligned_and_the_frame_sees_other_slides(tmp_path):
    (tmp_path / "deck.pptx").write_bytes(deckio.build(SPEC))
    initial = frame.read(tmp_path / "deck.pptx")
    assert _check(tmp_path, "left")[0] and not _check(tmp_path, "right")[0]
    _align(tmp_path, align="right", first=1)
    passed, evidence = _check(tmp_path, "right")
    assert not passed and "1 of the 2 paragraphs" in evidence
    _align(tmp_path, align="right")
    assert _check(tmp_path, "right") == (True, "every paragraph of slide 'Costs''s content is aligned right")
    oracle = frame.read(tmp_path / "deck.pptx")
    assert oracle["2/body 1#align"] == '["r", "r"]'
    framed = frame.derive(initial, oracle)
    apply_ops(tmp_path, [{"op": "pptx.align_paragraphs", "path": PATH, "title": "Income", "align": "justify"}])
    assert frame.judge(framed, frame.read(tmp_path / "deck.pptx")) == [
        "slide 3 'Income': shape 'body 1' paragraph alignment added (now just / just)"]
    (tmp_path / "deck.pptx").write_bytes(b"PK\x03\x04 not a presentation")
    assert not _check(tmp_path, "right")[0]
