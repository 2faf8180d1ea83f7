"""gimp.indexed: the family through the gate, its check on hand-made end states, its ops."""

from __future__ import annotations

import json

import pytest
from PIL import Image

from preparers import image as images
from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from workflows.gimp.indexed import WORKFLOW

SPEC = {"kind": "logo", "width": 200, "height": 200, "palette": "autumn", "layout_seed": 2}
GIF = "/home/user/Pictures/badge.gif"


@pytest.mark.slow
@pytest.mark.parametrize(("source", "seed"), [("png", 1), ("bmp", 2)])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, source, seed):
    folder = make_package(WORKFLOW, {"source": source}, tmp_path, seed=seed)
    verdict = gate_package(folder, mutants=None)
    assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
        (s.name, s.evidence) for s in verdict.stages if not s.passed]
    task = json.loads((folder / "task.json").read_text())
    assert [c["primitive"] for c in task["rubric"]] == [
        "image.indexed", "image.content_matches", "image.size_unchanged", "image.format_is", "tree.frame"]


def _state(tmp_path) -> State:
    (tmp_path / "Pictures").mkdir()
    images.render(SPEC).save(tmp_path / "Pictures" / "badge.png")
    return State(tmp_path)


def test_indexed_check_wants_a_palette_within_the_limit(tmp_path):
    state = _state(tmp_path)
    apply_ops(tmp_path, [{"op": "image.indexed", "path": "/home/user/Pictures/badge.png", "colors": 16},
                         {"op": "image.export_gif", "path": "/home/user/Pictures/badge.png", "dest": GIF}])
    with Image.open(tmp_path / "Pictures" / "badge.gif") as gif:
        assert gif.mode == "P"
    assert run_check(state, "image.indexed", {"path": GIF, "max_colors": 16}).passed
    assert not run_check(state, "image.indexed", {"path": GIF, "max_colors": 3}).passed
    rgb = "/home/user/Pictures/badge.png"  # the untouched RGB original: few colours, but not indexed
    result = run_check(state, "image.indexed", {"path": rgb, "max_colors": 256})
    assert not result.passed and "mode RGB" in result.evidence
    (tmp_path / "Pictures" / "badge.gif").write_bytes(b"GIF89a broken")
    assert not run_check(State(tmp_path), "image.indexed", {"path": GIF, "max_colors": 16}).passed
