"""impress.hide_slide: the family through the gate with every mutant, its check on hand-made end states, its op."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from preparers import pptx as deckio
from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package
from verifiers import extract
from verifiers.checks import State, run_check
from workflows.impress.hide_slide import NATURAL, PHRASINGS, WORKFLOW

PATH = "/home/user/deck.pptx"
SPEC = {"slides": [{"layout": "title_slide", "title": "Budget 2025", "subtitle": "Finance"},
                   {"layout": "title_content", "title": "Costs", "bullets": ["Rent", "Staff"]},
                   {"layout": "title_content", "title": "Income", "bullets": ["Grants", "Sales"]}]}


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 5])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, seed):
    folder = make_package(WORKFLOW, {}, tmp_path, seed=seed)
    verdict = gate_package(folder, mutants=None)
    assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
        (s.name, s.evidence) for s in verdict.stages if not s.passed]
    task = json.loads((folder / "task.json").read_text())
    assert [c["primitive"] for c in task["rubric"]] == ["pptx.slide_hidden", "pptx.frame", "tree.frame"]


def test_every_phrasing_says_hide():
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.replace("{path.file}", "deck.pptx").format(path=PATH, slide="Costs")
        assert set(extract.expressed(text, "visibility")) == {"hidden"}, text


def _check(root: Path, hidden: bool) -> tuple[bool, str]:
    result = run_check(State(root), "pptx.slide_hidden", {"path": PATH, "slide": "Costs", "hidden": hidden})
    return result.passed, result.evidence


def test_hidden_is_the_show_attribute_and_a_deleted_slide_fails(tmp_path):
    (tmp_path / "deck.pptx").write_bytes(deckio.build(SPEC))
    assert _check(tmp_path, False)[0] and not _check(tmp_path, True)[0]
    apply_ops(tmp_path, [{"op": "pptx.set_hidden", "path": PATH, "title": "Costs"}])
    assert _check(tmp_path, True) == (True, "slide 'Costs' is hidden in the slide show")
    passed, evidence = _check(tmp_path, False)
    assert not passed and "still hidden" in evidence
    apply_ops(tmp_path, [{"op": "pptx.set_hidden", "path": PATH, "title": "Costs", "hidden": False}])
    assert _check(tmp_path, False)[0]
    apply_ops(tmp_path, [{"op": "pptx.delete_slide", "path": PATH, "title": "Costs"}])
    assert not _check(tmp_path, False)[0]
    (tmp_path / "deck.pptx").write_bytes(b"PK\x03\x04 not a presentation")
    assert not _check(tmp_path, True)[0]
