"""impress.shape_geometry: the family through the gate with every mutant, its check on hand-made end states, its op."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

from preparers import pptx as deckio
from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from verifiers.readers.pptx import pixel_digest
from workflows.impress.image import draw_png
from workflows.impress.shape_geometry import WORKFLOW

PATH = "/home/user/deck.pptx"
SPEC = {"slides": [{"layout": "title_slide", "title": "Budget 2025", "subtitle": "Finance"},
                   {"layout": "title_content", "title": "Costs", "bullets": ["Rent", "Staff"]}]}
LOGO = draw_png("logo", random.Random(3))


@pytest.mark.slow
@pytest.mark.parametrize("change", ["move", "resize", "move_resize"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, change):
    folder = make_package(WORKFLOW, {"change": change}, tmp_path, seed=2)
    verdict = gate_package(folder, mutants=None)
    assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
        (s.name, s.evidence) for s in verdict.stages if not s.passed]
    task = json.loads((folder / "task.json").read_text())
    assert [c["primitive"] for c in task["rubric"]] == ["pptx.picture_geometry", "pptx.frame", "tree.frame"]


def _deck(root: Path) -> float:
    prs = deckio.build_presentation(SPEC)
    picture = prs.slides[1].shapes.add_picture(io.BytesIO(LOGO), 360000, 1800000, width=2520000)  # 1, 5, 7 cm
    prs.save(str(root / "deck.pptx"))
    return picture.height / picture.width


def _check(root: Path, **args: object) -> tuple[bool, str]:
    result = run_check(State(root), "pptx.picture_geometry",
                       {"path": PATH, "slide": "Costs", "pixels": pixel_digest(LOGO), **args})
    return result.passed, result.evidence


def _place(root: Path, **args: object) -> None:
    apply_ops(root, [{"op": "pptx.place_picture", "path": PATH, "title": "Costs", **args}])


def test_position_and_size_are_read_in_cm_with_the_proportions(tmp_path):
    ratio = _deck(tmp_path)
    assert _check(tmp_path, left_cm=1, top_cm=5, width_cm=7)[0]
    assert not _check(tmp_path, left_cm=5, top_cm=1)[0]
    _place(tmp_path, left_cm=12.5, top_cm=3)
    assert _check(tmp_path, left_cm=12.5, top_cm=3)[0]
    _place(tmp_path, left_cm=12.52)  # within what LibreOffice's 1/100 mm and a typed value make
    assert _check(tmp_path, left_cm=12.5, top_cm=3)[0]
    _place(tmp_path, width_cm=10)  # the width alone: the picture is stretched
    passed, evidence = _check(tmp_path, width_cm=10, ratio=ratio)
    assert not passed and "proportions" in evidence
    _place(tmp_path, width_cm=10, height_cm=10 * ratio)
    assert _check(tmp_path, width_cm=10, ratio=ratio)[0]
    assert not _check(tmp_path, width_cm=9, ratio=ratio)[0]


def test_the_picture_must_be_on_the_slide_once(tmp_path):
    _deck(tmp_path)
    prs = deckio.read_deck((tmp_path / "deck.pptx").read_bytes())
    prs.slides[1].shapes.add_picture(io.BytesIO(LOGO), 0, 0)
    prs.save(str(tmp_path / "deck.pptx"))
    passed, evidence = _check(tmp_path, left_cm=1, top_cm=5)
    assert not passed and "2 times" in evidence
    (tmp_path / "deck.pptx").write_bytes(b"PK\x03\x04 not a presentation")
    assert not _check(tmp_path, left_cm=1, top_cm=5)[0]
