"""impress.slide_number: the family through the gate with every mutant, its check on hand-made end states (a
number typed as text, a placeholder without its field, a number on the layout only), the op on a small deck, and
that every phrasing says its scope."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from preparers import pptx as deckio
from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package
from verifiers import extract
from verifiers.checks import State, run_check
from verifiers.checks.pptx_furniture import furniture, numbered, text_of
from workflows.impress.slide_number import NATURAL, PHRASINGS, WHERE, WORKFLOW

PATH = "/home/user/deck.pptx"
SPEC = {"slides": [{"layout": "title_slide", "title": "Budget 2025", "subtitle": "Finance"},
                   {"layout": "title_content", "title": "Costs", "bullets": ["Rent", "Staff"]},
                   {"layout": "title_content", "title": "Income", "bullets": ["Grants", "Sales"]}]}


@pytest.mark.slow
@pytest.mark.parametrize("slides", ["all", "not_title"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, slides):
    for seed in (2, 5):
        folder = make_package(WORKFLOW, {"slides": slides}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]] == ["pptx.slide_numbers", "pptx.frame", "tree.frame"]


@pytest.mark.parametrize("slides, cover", [("all", "with"), ("not_title", "without")])
def test_every_phrasing_says_its_scope(slides, cover):
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.replace("{path.file}", "deck.pptx").format(path=PATH, where=WHERE[slides])
        assert set(extract.expressed(text, "cover")) == {cover}, text


def _check(root: Path, title_slide: bool = True) -> tuple[bool, str]:
    result = run_check(State(root), "pptx.slide_numbers", {"path": PATH, "title_slide": title_slide})
    return result.passed, result.evidence


def _deck(root: Path, *ops: dict) -> None:
    (root / "deck.pptx").write_bytes(deckio.build(SPEC))
    apply_ops(root, [{**o, "path": PATH} for o in ops])


def test_numbers_on_every_slide_or_all_but_the_title(tmp_path):
    _deck(tmp_path)
    assert not _check(tmp_path)[0]
    _deck(tmp_path, {"op": "pptx.set_slide_numbers"})
    assert _check(tmp_path)[0]
    passed, evidence = _check(tmp_path, title_slide=False)
    assert not passed and "title slide should not" in evidence
    _deck(tmp_path, {"op": "pptx.set_slide_numbers", "skip": ["Budget 2025"]})
    assert _check(tmp_path, title_slide=False)[0]
    assert not _check(tmp_path)[0]
    prs = deckio.read_deck((tmp_path / "deck.pptx").read_bytes())
    assert [[text_of(sp) for sp in furniture(s, "sldNum")] for s in prs.slides] == [[], ["2"], ["3"]]


def test_lazy_end_states_fail(tmp_path):
    _deck(tmp_path, {"op": "pptx.set_slide_numbers", "typed": True})
    passed, evidence = _check(tmp_path)
    assert not passed and "holds no slide-number field" in evidence
    # the number typed in a text box on each slide
    _deck(tmp_path, *({"op": "pptx.add_textbox", "title": t, "text": str(n)}
                      for n, t in enumerate(["Budget 2025", "Costs", "Income"], 1)))
    assert not _check(tmp_path)[0]
    # the layouts' number placeholders alone (python-pptx's template has them): nothing on the slides
    _deck(tmp_path)
    prs = deckio.read_deck((tmp_path / "deck.pptx").read_bytes())
    assert any(numbered(sp) for layout in prs.slide_layouts for sp in furniture(layout, "sldNum"))
    assert not _check(tmp_path)[0]
    (tmp_path / "deck.pptx").write_bytes(b"PK\x03\x04 not a presentation")
    assert not _check(tmp_path)[0]
