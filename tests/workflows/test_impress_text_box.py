"""impress.text_box: the family through the gate with every mutant, its check on hand-made end states, its op."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from preparers import pptx as deckio
from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package
from verifiers import extract
from verifiers.checks import State, run_check
from workflows.impress.text_box import NATURAL, PHRASINGS, WHERE, WORKFLOW

PATH = "/home/user/deck.pptx"
SPEC = {"slides": [{"layout": "title_slide", "title": "Budget 2025", "subtitle": "Finance"},
                   {"layout": "title_content", "title": "Costs", "bullets": ["Rent", "Staff"]}]}
TEXT = "Source: internal figures, 2025"


@pytest.mark.slow
@pytest.mark.parametrize("where", ["any", "bottom", "top_right"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, where):
    folder = make_package(WORKFLOW, {"where": where}, tmp_path, seed=2)
    verdict = gate_package(folder, mutants=None)
    assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
        (s.name, s.evidence) for s in verdict.stages if not s.passed]
    task = json.loads((folder / "task.json").read_text())
    assert [c["primitive"] for c in task["rubric"]] == ["pptx.text_box", "pptx.frame", "tree.frame"]


@pytest.mark.parametrize("where", ["any", "bottom", "top_right"])
def test_every_phrasing_says_where_and_nowhere_else(where):
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.replace("{path.file}", "deck.pptx").format(path=PATH, slide="Costs", text=TEXT,
                                                                    where=WHERE[where])
        assert set(extract.expressed(text, "corner_region")) == ({where} if where != "any" else set()), text


def _check(root: Path, **args: object) -> tuple[bool, str]:
    result = run_check(State(root), "pptx.text_box", {"path": PATH, "slide": "Costs", "text": TEXT, **args})
    return result.passed, result.evidence


def _box(root: Path, top: float, left: float = 2, text: str = TEXT) -> None:
    apply_ops(root, [{"op": "pptx.add_text_box", "path": PATH, "title": "Costs", "text": text, "left_cm": left,
                      "top_cm": top}])


def test_the_text_must_be_a_box_of_its_own_in_its_place(tmp_path):
    (tmp_path / "deck.pptx").write_bytes(deckio.build(SPEC))
    assert not _check(tmp_path)[0]
    apply_ops(tmp_path, [{"op": "pptx.set_bullets", "path": PATH, "title": "Costs",
                          "bullets": ["Rent", "Staff", TEXT]}])
    passed, evidence = _check(tmp_path)
    assert not passed and "it is a paragraph of the content placeholder" in evidence
    (tmp_path / "deck.pptx").write_bytes(deckio.build(SPEC))
    _box(tmp_path, 1)
    assert _check(tmp_path)[0]
    passed, evidence = _check(tmp_path, region="bottom")
    assert not passed and "not at the bottom" in evidence
    _box(tmp_path, 16.5)
    assert _check(tmp_path, region="bottom") == (True, f"slide 'Costs' has a text box reading {TEXT!r} at its bottom")
    _box(tmp_path, 0.5, left=17, text="DRAFT")
    assert run_check(State(tmp_path), "pptx.text_box", {"path": PATH, "slide": "Costs", "text": "DRAFT",
                                                       "region": "top_right"}).passed
    assert not _check(tmp_path, text="Source: internal figures")[0]
    (tmp_path / "deck.pptx").write_bytes(b"PK\x03\x04 not a presentation")
    assert not _check(tmp_path)[0]
