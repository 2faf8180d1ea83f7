"""impress.image_background: the family through the gate with every mutant, its check on hand-made end states (the
master's background, a picture shape over the slide, the other picture, a broken image part), and the op."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from preparers import pptx as deckio
from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from verifiers.readers.pptx import pixel_digest
from workflows.impress.image_background import SKIES, WORKFLOW, draw_backdrop

PATH = "/home/user/deck.pptx"
IMAGE, OTHER = "/home/user/Pictures/dawn_sky.png", "/home/user/Pictures/calm_waves.png"
SPEC = {"slides": [{"layout": "title_slide", "title": "Budget 2025", "subtitle": "Finance"},
                   {"layout": "title_content", "title": "Costs", "bullets": ["Rent", "Staff"]},
                   {"layout": "title_content", "title": "Income", "bullets": ["Grants", "Sales"]}]}


@pytest.mark.slow
@pytest.mark.parametrize("scope", ["one", "all"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, scope):
    for seed in (2, 5):
        folder = make_package(WORKFLOW, {"scope": scope}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]] == ["pptx.background_picture", "pptx.frame", "tree.frame"]


@pytest.fixture
def home(tmp_path: Path) -> Path:
    (tmp_path / "Pictures").mkdir()
    (tmp_path / "Pictures" / "dawn_sky.png").write_bytes(draw_backdrop(random.Random(1), SKIES[0]))
    (tmp_path / "Pictures" / "calm_waves.png").write_bytes(draw_backdrop(random.Random(1), SKIES[1]))
    return tmp_path


def _deck(root: Path, *ops: dict) -> None:
    (root / "deck.pptx").write_bytes(deckio.build(SPEC))
    apply_ops(root, [{**o, "path": PATH} for o in ops])


def _check(root: Path, **args: object) -> tuple[bool, str]:
    pixels = pixel_digest((root / "Pictures" / "dawn_sky.png").read_bytes())
    result = run_check(State(root), "pptx.background_picture", {"path": PATH, "image": IMAGE, "pixels": pixels,
                                                               **args})
    return result.passed, result.evidence


def test_one_slide_every_slide_and_the_master(home):
    _deck(home)
    assert not _check(home, slide="Costs")[0] and not _check(home, every=True)[0]
    _deck(home, {"op": "pptx.set_background_image", "image": IMAGE, "title": "Costs"})
    assert _check(home, slide="Costs")[0]
    assert not _check(home, slide="Income")[0] and not _check(home, every=True)[0]
    _deck(home, {"op": "pptx.set_background_image", "image": IMAGE})
    assert _check(home, every=True)[0]
    passed, evidence = _check(home, slide="Costs")
    assert not passed and "so do 2 other slide(s)" in evidence
    _deck(home, {"op": "pptx.set_background_image", "image": IMAGE, "master": True})
    assert _check(home, every=True)[0]


def test_lazy_end_states_fail(home):
    _deck(home, {"op": "pptx.set_background_image", "image": OTHER, "title": "Costs"})
    passed, evidence = _check(home, slide="Costs")
    assert not passed and "another picture" in evidence
    _deck(home, {"op": "pptx.add_image", "title": "Costs", "image": IMAGE, "left_cm": 0, "top_cm": 0,
                 "width_cm": 25.4})
    assert not _check(home, slide="Costs")[0]
    _deck(home, {"op": "pptx.set_background_image", "image": IMAGE, "skip": ["Budget 2025"]})
    passed, evidence = _check(home, every=True)
    assert not passed and "'Budget 2025'" in evidence
    # a background whose picture part is not an image
    _deck(home, {"op": "pptx.set_background_image", "image": IMAGE, "title": "Costs"})
    prs = deckio.read_deck((home / "deck.pptx").read_bytes())
    blip = prs.slides[1]._element.find(".//{*}bg//{*}blip")
    blip.set("{http://schemas.openxmlformats.org/officeDocument/2006/relationships}embed", "rId999")
    (home / "deck.pptx").write_bytes(deckio.to_bytes(prs))
    assert not _check(home, slide="Costs")[0]
    (home / "deck.pptx").write_bytes(b"PK\x03\x04 not a presentation")
    assert not _check(home, slide="Costs")[0]
