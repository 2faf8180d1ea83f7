"""impress.slide_layout: the family through the gate with every mutant, its check on hand-made end states (and on
what LibreOffice writes), its op, its phrasings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pptx.opc.constants import RELATIONSHIP_TYPE as RT

from preparers import pptx as deckio
from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package
from verifiers import extract
from verifiers.checks import State, run_check
from workflows.impress import kit as ic
from workflows.impress.slide_layout import EFFECT, NATURAL, PHRASINGS, WORKFLOW

PATH = "/home/user/deck.pptx"
SPEC = {"slides": [{"layout": "title_slide", "title": "Budget 2025", "subtitle": "Finance"},
                   {"layout": "title_content", "title": "Costs", "bullets": ["Rent", "Staff"]},
                   {"layout": "title_content", "title": "Income", "bullets": ["Grants", "Sales"]}]}


@pytest.mark.slow
@pytest.mark.parametrize("layout", ["title_only", "two_content"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, layout):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"layout": layout}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]] == ["pptx.layout_linked", "pptx.frame", "tree.frame"]


@pytest.mark.parametrize("layout", ["title_only", "two_content"])
def test_every_phrasing_says_the_layout_and_no_other(layout):
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.replace("{path.file}", "deck.pptx").format(
            path=PATH, slide="Costs", layout=ic.LAYOUT_NAMES[layout], effect=EFFECT[layout])
        assert set(extract.expressed(text, "layout")) == {layout}, text


def _check(root: Path, layout: str, slide: str = "Costs") -> tuple[bool, str]:
    result = run_check(State(root), "pptx.layout_linked",
                       {"path": PATH, "slide": slide, "layout": layout, "others": ["Budget 2025", "Income"]})
    return result.passed, result.evidence


def test_op_relinks_the_layout_and_keeps_the_text(tmp_path):
    (tmp_path / "deck.pptx").write_bytes(deckio.build(SPEC))
    assert not _check(tmp_path, "two_content")[0] and not _check(tmp_path, "title_only")[0]
    apply_ops(tmp_path, [{"op": "pptx.set_layout", "path": PATH, "title": "Costs", "layout": "two_content"}])
    assert _check(tmp_path, "two_content")[0]
    prs = deckio.read_deck((tmp_path / "deck.pptx").read_bytes())
    costs = prs.slides[1]
    assert costs.slide_layout.name == "Two Content" and deckio.layout_kind(costs) == "two_content"
    assert [t for t, _ in deckio.paragraphs(deckio.placeholders(costs, "body"))] == ["Rent", "Staff"]
    assert not _check(tmp_path, "title_only")[0]


def _relink(tmp_path: Path, index: int, name: str, kind: str | None) -> None:
    """Hand-made: point slide `index` at the layout `name`, and give that layout the type `kind` (None: untyped)."""
    prs = deckio.read_deck((tmp_path / "deck.pptx").read_bytes())
    layout = next(item for item in prs.slide_layouts if item.name == name)
    if kind is None:
        layout._element.attrib.pop("type", None)
    else:
        layout._element.set("type", kind)
    slide = prs.slides[index]
    for rid, rel in list(slide.part.rels.items()):
        if rel.reltype == RT.SLIDE_LAYOUT:
            slide.part.drop_rel(rid)
    slide.part.relate_to(layout.part, RT.SLIDE_LAYOUT)
    (tmp_path / "deck.pptx").write_bytes(deckio.to_bytes(prs))


def test_check_reads_the_type_not_the_name_and_guards_the_other_slides(tmp_path):
    (tmp_path / "deck.pptx").write_bytes(deckio.build(SPEC))
    _relink(tmp_path, 1, "Title Only", None)  # an untyped layout is judged by its name
    assert _check(tmp_path, "title_only")[0]
    _relink(tmp_path, 1, "Blank", "titleOnly")  # LibreOffice's names differ: the type decides
    assert _check(tmp_path, "title_only")[0]
    _relink(tmp_path, 2, "Blank", "titleOnly")  # another slide switched too
    passed, evidence = _check(tmp_path, "title_only")
    assert not passed and "'Income'" in evidence
    (tmp_path / "deck.pptx").write_bytes(deckio.build(SPEC))
    _relink(tmp_path, 1, "Two Content", "twoObj")  # linked, but the second content box is missing
    passed, evidence = _check(tmp_path, "two_content")
    assert not passed and "1 content boxes" in evidence
    (tmp_path / "deck.pptx").write_bytes(b"PK\x03\x04 not a presentation")
    assert not _check(tmp_path, "title_only")[0]
