"""gimp.size_target: the family through the gate with every mutant, its check and op on hand-made states."""

from __future__ import annotations

import json

import pytest

from preparers import image as images
from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from workflows.gimp.size_target import WORKFLOW

SPEC = {"kind": "beach", "width": 480, "height": 320, "palette": "tropical", "layout_seed": 4}
SRC = "/home/user/Pictures/bay.png"
DEST = "/home/user/Pictures/bay_web.jpg"


@pytest.mark.slow
@pytest.mark.parametrize(("source", "seed"), [("png", 1), ("jpg", 2)])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, source, seed):
    folder = make_package(WORKFLOW, {"source": source}, tmp_path, seed=seed)
    verdict = gate_package(folder, mutants=None)
    assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
        (s.name, s.evidence) for s in verdict.stages if not s.passed]
    task = json.loads((folder / "task.json").read_text())
    assert [c["primitive"] for c in task["rubric"]] == [
        "image.file_size_at_most", "image.format_is", "image.size_unchanged", "image.content_matches", "tree.frame"]


def test_the_export_fits_the_budget_and_the_check_counts_1000_bytes(tmp_path):
    (tmp_path / "Pictures").mkdir()
    images.render(SPEC).save(tmp_path / "Pictures" / "bay.png")
    apply_ops(tmp_path, [{"op": "image.export_jpeg_within", "path": SRC, "dest": DEST, "max_bytes": 20_000}])
    size = (tmp_path / "Pictures" / "bay_web.jpg").stat().st_size
    assert size <= 20_000
    assert run_check(State(tmp_path), "image.file_size_at_most", {"path": DEST, "max_kb": 20}).passed
    kb = size // 1000  # one KB less than the file: over the limit
    result = run_check(State(tmp_path), "image.file_size_at_most", {"path": DEST, "max_kb": kb})
    assert not result.passed and "over the limit" in result.evidence
    missing = run_check(State(tmp_path), "image.file_size_at_most", {"path": "/home/user/none.jpg", "max_kb": 20})
    assert not missing.passed
