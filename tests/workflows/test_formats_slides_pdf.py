"""impress.export_pdf: the family through the gate with every mutant, the slide-page check on PDFs the op writes
(the whole deck, a range, handouts, one slide), and on a deck under a .pdf name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from preparers import pptx
from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from workflows.impress.export_pdf import WORKFLOW

DECK = "/home/user/Documents/review.pptx"
DEST = "/home/user/Desktop/review.pdf"
SLIDES = [{"layout": "title_slide", "title": "Quarterly Review", "subtitle": "Operations team"},
          {"layout": "title_content", "title": "Hiring", "bullets": ["Two engineers joined", "One role open"]},
          {"layout": "title_content", "title": "Costs", "bullets": ["Travel down 8 percent", "Cloud spend flat"]},
          {"layout": "title_content", "title": "Next Steps", "bullets": ["Close the open role", "Review vendors"]}]
TEXTS = [["Quarterly Review", "Operations team"], ["Hiring", "Two engineers joined", "One role open"],
         ["Costs", "Travel down 8 percent", "Cloud spend flat"], ["Next Steps", "Close the open role",
                                                              "Review vendors"]]


@pytest.mark.slow
@pytest.mark.parametrize("pages", ["all", "range"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, pages):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"pages": pages}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]] == ["pdf.slide_pages", "pptx.frame", "tree.frame"]


def _state(tmp_path: Path) -> None:
    (tmp_path / "Documents").mkdir()
    (tmp_path / "Documents/review.pptx").write_bytes(pptx.build({"slides": SLIDES, "author": "A"}))


def _check(tmp_path: Path, slides: list[list[str]]) -> tuple[bool, str]:
    result = run_check(State(tmp_path), "pdf.slide_pages", {"path": DEST, "source": DECK, "slides": slides})
    return result.passed, result.evidence


def _export(tmp_path: Path, **args: object) -> None:
    apply_ops(tmp_path, [{"op": "fmt.slides_pdf", "path": DECK, "dest": DEST, **args}])


def test_the_check_reads_one_slide_per_page(tmp_path):
    _state(tmp_path)
    assert _check(tmp_path, TEXTS)[0] is False  # nothing exported yet
    _export(tmp_path)
    assert _check(tmp_path, TEXTS) == (True, f"{DEST} has 4 pages, each showing its slide's texts in order")
    assert _check(tmp_path, TEXTS[1:3])[0] is False  # the whole deck is not the range
    _export(tmp_path, first=2, last=3)
    assert _check(tmp_path, TEXTS[1:3])[0] is True
    _export(tmp_path, first=3, last=4)
    assert "page 1 lacks 'Hiring' of slide 1" in _check(tmp_path, TEXTS[1:3])[1]
    _export(tmp_path, per_page=2)
    assert "has 2 pages; /home/user/Documents/review.pptx has 4 slides" in _check(tmp_path, TEXTS)[1]
    _export(tmp_path, first_only=True)
    assert _check(tmp_path, TEXTS)[0] is False
    _export(tmp_path, as_copy=True)
    assert "not a readable PDF document" in _check(tmp_path, TEXTS)[1]
