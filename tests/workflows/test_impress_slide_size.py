"""impress.slide_size: the family through the gate with every mutant, its check on hand-made end states, its op."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from preparers import pptx as deckio
from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package
from verifiers import extract
from verifiers.checks import State, run_check
from workflows.impress.slide_size import NATURAL, PHRASINGS, WORDS, WORKFLOW

PATH = "/home/user/deck.pptx"
SPEC = {"slides": [{"layout": "title_slide", "title": "Budget 2025", "subtitle": "Finance"},
                   {"layout": "title_content", "title": "Costs", "bullets": ["Rent", "Staff"]}]}


@pytest.mark.slow
@pytest.mark.parametrize(("size", "orientation"), [("16:9", "landscape"), ("A4", "portrait")])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, size, orientation):
    folder = make_package(WORKFLOW, {"size": size, "orientation": orientation}, tmp_path, seed=2)
    verdict = gate_package(folder, mutants=None)
    assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
        (s.name, s.evidence) for s in verdict.stages if not s.passed]
    task = json.loads((folder / "task.json").read_text())
    assert [c["primitive"] for c in task["rubric"]] == ["pptx.slide_size", "pptx.frame", "tree.frame"]


@pytest.mark.parametrize("orientation", ["landscape", "portrait"])
def test_every_phrasing_says_the_orientation_and_no_other(orientation):
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.replace("{path.file}", "deck.pptx").format(path=PATH, format=WORDS["16:9"],
                                                                    orientation=orientation)
        assert set(extract.expressed(text, "orientation")) == {orientation}, text
        assert "16:9" in text


def _check(root: Path, size: str, orientation: str = "landscape") -> tuple[bool, str]:
    result = run_check(State(root), "pptx.slide_size", {"path": PATH, "size": size, "orientation": orientation})
    return result.passed, result.evidence


def _size(root: Path, width: float, height: float) -> None:
    apply_ops(root, [{"op": "pptx.slide_size", "path": PATH, "width_cm": width, "height_cm": height}])


def test_a_format_is_its_shape_and_a4_its_size(tmp_path):
    (tmp_path / "deck.pptx").write_bytes(deckio.build(SPEC))
    assert _check(tmp_path, "4:3") == (True, "the slides are 25.40 x 19.05 cm: 4:3 landscape")
    assert not _check(tmp_path, "4:3", "portrait")[0]
    assert not _check(tmp_path, "16:9")[0]
    _size(tmp_path, 28, 15.75)  # Impress's own "Screen 16:9"
    assert _check(tmp_path, "16:9")[0]
    _size(tmp_path, 15.75, 28)
    assert _check(tmp_path, "16:9", "portrait")[0] and not _check(tmp_path, "16:9")[0]
    _size(tmp_path, 21, 29.7)
    assert _check(tmp_path, "A4", "portrait")[0]
    _size(tmp_path, 42, 29.7)  # A3 has A4's shape, not its size
    passed, evidence = _check(tmp_path, "A4")
    assert not passed and "not A4 (29.7 x 21 cm)" in evidence
    _size(tmp_path, 30.48, 19.05)
    assert _check(tmp_path, "16:10")[0] and not _check(tmp_path, "16:9")[0]
    (tmp_path / "deck.pptx").write_bytes(b"PK\x03\x04 not a presentation")
    assert not _check(tmp_path, "16:10")[0]
