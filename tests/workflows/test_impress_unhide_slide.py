"""impress.unhide_slide: the family through the gate with every mutant, its check on hand-made end states, the
hidden slides of the initial deck, and that every phrasing asks to show the slide (never to hide it)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from preparers import pptx as deckio
from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package
from verifiers import extract
from verifiers.checks import State, run_check
from workflows.impress.unhide_slide import NATURAL, PHRASINGS, WORKFLOW

PATH = "/home/user/deck.pptx"
SPEC = {"slides": [{"layout": "title_slide", "title": "Budget 2025", "subtitle": "Finance"},
                   {"layout": "title_content", "title": "Costs", "bullets": ["Rent", "Staff"], "hidden": True},
                   {"layout": "title_content", "title": "Income", "bullets": ["Grants", "Sales"], "hidden": True},
                   {"layout": "title_content", "title": "Outlook", "bullets": ["Flat", "Up"]}]}


@pytest.mark.slow
@pytest.mark.parametrize("hidden", ["one", "two"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, hidden):
    for seed in (2, 5):
        folder = make_package(WORKFLOW, {"hidden": hidden}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]] == ["pptx.slide_hidden", "pptx.frame", "tree.frame"]


@pytest.mark.parametrize("hidden, count", [("one", 1), ("two", 2)])
def test_the_initial_deck_hides_the_slides(tmp_path, hidden, count):
    folder = make_package(WORKFLOW, {"hidden": hidden}, tmp_path, seed=3)
    task = json.loads((folder / "task.json").read_text())
    deck = next(p for p in (folder / "assets").rglob("*.pptx"))
    prs = deckio.read_deck(deck.read_bytes())
    shown = [s for s in prs.slides if s._element.get("show") not in ("0", "false")]
    assert len(prs.slides) - len(shown) == count
    slide = task["rubric"][0]["args"]["slide"]
    assert all(deckio.slide_title(s) != slide for s in shown)


def test_every_phrasing_says_show_again():
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.replace("{path.file}", "deck.pptx").format(path=PATH, slide="Costs")
        assert set(extract.expressed(text, "visibility")) == {"shown"}, text


def _check(root: Path, hidden: bool) -> tuple[bool, str]:
    result = run_check(State(root), "pptx.slide_hidden", {"path": PATH, "slide": "Costs", "hidden": hidden})
    return result.passed, result.evidence


def test_shown_slide_passes_and_lazy_end_states_fail(tmp_path):
    (tmp_path / "deck.pptx").write_bytes(deckio.build(SPEC))
    passed, evidence = _check(tmp_path, False)
    assert not passed and "still hidden" in evidence
    # a visible copy beside the still hidden slide is no unhiding
    apply_ops(tmp_path, [{"op": "pptx.duplicate_slide", "path": PATH, "title": "Costs", "position": 3}])
    assert not _check(tmp_path, False)[0]
    (tmp_path / "deck.pptx").write_bytes(deckio.build(SPEC))
    apply_ops(tmp_path, [{"op": "pptx.set_hidden", "path": PATH, "title": "Costs", "hidden": False}])
    assert _check(tmp_path, False) == (True, "slide 'Costs' is shown in the slide show")
    # show="1" (what some writers put) reads as shown too
    (tmp_path / "deck.pptx").write_bytes(deckio.build(SPEC))
    prs = deckio.read_deck((tmp_path / "deck.pptx").read_bytes())
    prs.slides[1]._element.set("show", "1")
    (tmp_path / "deck.pptx").write_bytes(deckio.to_bytes(prs))
    assert _check(tmp_path, False)[0]
    apply_ops(tmp_path, [{"op": "pptx.delete_slide", "path": PATH, "title": "Costs"}])
    assert not _check(tmp_path, False)[0]
    (tmp_path / "deck.pptx").write_bytes(b"PK\x03\x04 not a presentation")
    assert not _check(tmp_path, False)[0]
