"""impress.align_picture: the family through the gate with every mutant, its check on hand-made end states."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

from preparers import pptx as deckio
from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package
from verifiers import extract
from verifiers.checks import State, run_check
from verifiers.readers.pptx import pixel_digest
from workflows.impress.align_picture import HOW, NATURAL, PHRASINGS, WORKFLOW
from workflows.impress.image import draw_png

PATH = "/home/user/deck.pptx"
SPEC = {"slides": [{"layout": "title_slide", "title": "Budget 2025", "subtitle": "Finance"},
                   {"layout": "title_content", "title": "Costs", "bullets": ["Rent", "Staff"]}]}
LOGO = draw_png("logo", random.Random(3))


@pytest.mark.slow
@pytest.mark.parametrize("align", ["left", "center", "right"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, align):
    folder = make_package(WORKFLOW, {"align": align}, tmp_path, seed=2)
    verdict = gate_package(folder, mutants=None)
    assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
        (s.name, s.evidence) for s in verdict.stages if not s.passed]
    task = json.loads((folder / "task.json").read_text())
    assert [c["primitive"] for c in task["rubric"]] == ["pptx.picture_aligned", "pptx.frame", "tree.frame"]


@pytest.mark.parametrize("align", ["left", "center", "right"])
def test_every_phrasing_says_the_alignment_and_no_other(align):
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.replace("{path.file}", "deck.pptx").format(path=PATH, slide="Costs", how=HOW[align])
        assert set(extract.expressed(text, "align")) == {align}, text


def _check(root: Path, align: str) -> tuple[bool, str]:
    result = run_check(State(root), "pptx.picture_aligned", {"path": PATH, "slide": "Costs", "pixels":
                                                              pixel_digest(LOGO), "align": align, "width_cm": 7,
                                                              "top_cm": 5})
    return result.passed, result.evidence


def _place(root: Path, **args: object) -> None:
    apply_ops(root, [{"op": "pptx.place_picture", "path": PATH, "title": "Costs", **args}])


def test_aligned_means_an_edge_or_the_centre_on_the_slide_s_and_nothing_else_moved(tmp_path):
    prs = deckio.build_presentation(SPEC)
    prs.slides[1].shapes.add_picture(io.BytesIO(LOGO), 1080000, 1800000, width=2520000)  # 3, 5, 7 cm
    prs.save(str(tmp_path / "deck.pptx"))
    assert not any(_check(tmp_path, a)[0] for a in ("left", "center", "right"))
    _place(tmp_path, left_cm=0)
    assert _check(tmp_path, "left")[0] and not _check(tmp_path, "right")[0]
    _place(tmp_path, left_cm=9.2)  # (25.4 - 7) / 2
    assert _check(tmp_path, "center")[0]
    _place(tmp_path, left_cm=18.4)
    assert _check(tmp_path, "right")[0]
    _place(tmp_path, top_cm=8)
    passed, evidence = _check(tmp_path, "right")
    assert not passed and "moved up or down" in evidence
    (tmp_path / "deck.pptx").write_bytes(b"PK\x03\x04 not a presentation")
    assert not _check(tmp_path, "right")[0]
