"""impress.footer: the family through the gate with every mutant, its check on hand-made end states (a footer on
the layout only, a text box, the title slide), the op on a small deck, and that every phrasing says its scope."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pptx.enum.shapes import PP_PLACEHOLDER

from preparers import pptx as deckio
from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package
from verifiers import extract
from verifiers.checks import State, run_check
from verifiers.checks.pptx_furniture import furniture, text_of
from workflows.impress.footer import NATURAL, PHRASINGS, WHERE, WORKFLOW

PATH = "/home/user/deck.pptx"
SPEC = {"slides": [{"layout": "title_slide", "title": "Budget 2025", "subtitle": "Finance"},
                   {"layout": "title_content", "title": "Costs", "bullets": ["Rent", "Staff"]},
                   {"layout": "title_content", "title": "Income", "bullets": ["Grants", "Sales"]}]}
TEXT = "Finance team | Internal use only"


@pytest.mark.slow
@pytest.mark.parametrize("slides", ["all", "not_title"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, slides):
    for seed in (2, 5):
        folder = make_package(WORKFLOW, {"slides": slides}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]] == ["pptx.footer_text", "pptx.frame", "tree.frame"]


@pytest.mark.parametrize("slides, cover", [("all", "with"), ("not_title", "without")])
def test_every_phrasing_says_its_scope(slides, cover):
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.replace("{path.file}", "deck.pptx").format(path=PATH, text=TEXT, where=WHERE[slides])
        assert set(extract.expressed(text, "cover")) == {cover}, text


def _check(root: Path, title_slide: bool = True, text: str = TEXT) -> tuple[bool, str]:
    result = run_check(State(root), "pptx.footer_text", {"path": PATH, "text": text, "title_slide": title_slide})
    return result.passed, result.evidence


def _deck(root: Path, *ops: dict) -> None:
    (root / "deck.pptx").write_bytes(deckio.build(SPEC))
    apply_ops(root, [{**o, "path": PATH} for o in ops])


def test_footer_on_every_slide_or_all_but_the_title(tmp_path):
    _deck(tmp_path)
    assert not _check(tmp_path)[0]
    _deck(tmp_path, {"op": "pptx.set_footer", "text": TEXT})
    assert _check(tmp_path)[0]
    passed, evidence = _check(tmp_path, title_slide=False)
    assert not passed and "title slide should not" in evidence
    assert not _check(tmp_path, text="Finance team")[0]
    _deck(tmp_path, {"op": "pptx.set_footer", "text": TEXT, "skip": ["Budget 2025"]})
    assert _check(tmp_path, title_slide=False)[0]
    passed, evidence = _check(tmp_path)
    assert not passed and "slide 1 ('Budget 2025') has no footer" in evidence


def test_lazy_end_states_fail(tmp_path):
    _deck(tmp_path, {"op": "pptx.set_footer", "text": TEXT, "textbox": True})
    assert not _check(tmp_path)[0]
    # the footer typed on the layouts' placeholders only: nothing shows on the slides
    (tmp_path / "deck.pptx").write_bytes(deckio.build(SPEC))
    prs = deckio.read_deck((tmp_path / "deck.pptx").read_bytes())
    for layout in prs.slide_layouts:
        for ph in layout.placeholders:
            if ph.placeholder_format.type == PP_PLACEHOLDER.FOOTER:
                ph.text_frame.text = TEXT
    (tmp_path / "deck.pptx").write_bytes(deckio.to_bytes(prs))
    assert not _check(tmp_path)[0]
    # an empty footer placeholder on every slide is no footer
    _deck(tmp_path, {"op": "pptx.set_footer", "text": " "})
    assert not _check(tmp_path)[0]
    (tmp_path / "deck.pptx").write_bytes(b"PK\x03\x04 not a presentation")
    assert not _check(tmp_path)[0]


def test_op_copies_the_layout_placeholder_once(tmp_path):
    _deck(tmp_path, {"op": "pptx.set_footer", "text": "old"}, {"op": "pptx.set_footer", "text": TEXT})
    prs = deckio.read_deck((tmp_path / "deck.pptx").read_bytes())
    for slide in prs.slides:
        found = furniture(slide, "ftr")
        assert [text_of(sp) for sp in found] == [TEXT]
        assert found[0].find("{*}spPr/{*}xfrm") is None  # placed by its layout
