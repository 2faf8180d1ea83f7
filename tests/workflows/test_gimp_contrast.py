"""gimp.contrast: the family through the gate with every mutant, its check on hand-made end states."""

from __future__ import annotations

import json

import pytest
from PIL import Image, ImageEnhance

from tests.gatekit import gate_package, make_package
from verifiers import extract
from verifiers.checks import State, run_check
from verifiers.checks.image_tone import contrast
from verifiers.readers.image import expected_picture, recipe
from workflows.gimp.contrast import NATURAL, PHRASINGS, SAY, WORKFLOW

SPEC = {"kind": "cityscape", "width": 320, "height": 240, "palette": "morning", "layout_seed": 5}
PATH = "/home/user/Pictures/street.png"


@pytest.mark.slow
@pytest.mark.parametrize(("direction", "fmt", "seed"), [("more", "jpg", 1), ("less", "png", 2)])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, direction, fmt, seed):
    folder = make_package(WORKFLOW, {"direction": direction, "fmt": fmt}, tmp_path, seed=seed)
    verdict = gate_package(folder, mutants=None)
    assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
        (s.name, s.evidence) for s in verdict.stages if not s.passed]
    task = json.loads((folder / "task.json").read_text())
    assert [c["primitive"] for c in task["rubric"]] == [
        "image.contrast_changed", "image.hues_kept", "image.detail_kept", "image.content_matches",
        "image.size_unchanged", "image.format_is", "tree.frame"]


@pytest.mark.parametrize("direction", ["more", "less"])
def test_every_phrasing_says_the_direction_and_no_other(direction):
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.replace("{path.file}", "street.png").format(
            path=PATH, dest="/home/user/Pictures/street_v2.png", subject="a street", direction=SAY[direction],
            low=15, high=35, fmt="PNG", why="the client asked")
        assert set(extract.expressed(text, "tone")) == {direction}, text


def _picture(tmp_path, image: Image.Image) -> State:
    (tmp_path / "Pictures").mkdir(exist_ok=True)
    image.save(tmp_path / "Pictures" / "street.png")
    return State(tmp_path)


def test_contrast_check_reads_the_change_not_the_saturation(tmp_path):
    original = expected_picture(recipe(SPEC, "PNG"))[1].convert("RGB")
    args = {"path": PATH, "baseline": contrast(original), "direction": "less", "min_percent": 15, "max_percent": 35}
    softer = ImageEnhance.Contrast(original).enhance(0.75)
    assert run_check(_picture(tmp_path, softer), "image.contrast_changed", args).passed
    assert not run_check(_picture(tmp_path, softer), "image.contrast_changed", {**args, "direction": "more"}).passed
    muted = ImageEnhance.Color(original).enhance(0.75)  # saturation is not contrast
    assert not run_check(_picture(tmp_path, muted), "image.contrast_changed", args).passed
    flat = ImageEnhance.Contrast(original).enhance(0.3)  # far too much
    assert not run_check(_picture(tmp_path, flat), "image.contrast_changed", args).passed
