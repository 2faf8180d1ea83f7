"""gimp.saturation: the family through the gate with every mutant, its checks on hand-made end states."""

from __future__ import annotations

import json

import pytest
from PIL import Image, ImageEnhance, ImageFilter

from tests.gatekit import gate_package, make_package
from verifiers import extract
from verifiers.checks import State, run_check
from verifiers.checks.image_tone import saturation
from verifiers.readers.image import recipe
from workflows.gimp.saturation import NATURAL, PHRASINGS, SAY, WORKFLOW

SPEC = {"kind": "landscape", "width": 320, "height": 240, "palette": "autumn", "layout_seed": 3}
PATH = "/home/user/Pictures/view.png"


@pytest.mark.slow
@pytest.mark.parametrize(("direction", "fmt", "seed"), [("more", "png", 1), ("less", "jpg", 2)])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, direction, fmt, seed):
    folder = make_package(WORKFLOW, {"direction": direction, "fmt": fmt}, tmp_path, seed=seed)
    verdict = gate_package(folder, mutants=None)
    assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
        (s.name, s.evidence) for s in verdict.stages if not s.passed]
    task = json.loads((folder / "task.json").read_text())
    assert [c["primitive"] for c in task["rubric"]] == [
        "image.saturation_changed", "image.hues_kept", "image.detail_kept", "image.content_matches",
        "image.size_unchanged", "image.format_is", "tree.frame"]
    near = [s for s in verdict.stages if s.name.startswith("near-miss")]
    assert len(near) >= 5 and all(s.passed for s in near)


@pytest.mark.parametrize("direction", ["more", "less"])
def test_every_phrasing_says_the_direction_and_no_other(direction):
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.replace("{path.file}", "view.png").format(
            path=PATH, dest="/home/user/Pictures/view_v2.png", subject="a hill", direction=SAY[direction], low=15,
            high=35, fmt="PNG", why="the client asked")
        assert set(extract.expressed(text, "tone")) == {direction}, text


def _picture(tmp_path, image: Image.Image) -> State:
    (tmp_path / "Pictures").mkdir(exist_ok=True)
    image.save(tmp_path / "Pictures" / "view.png")
    return State(tmp_path)


def _original() -> Image.Image:
    from verifiers.readers.image import expected_picture
    return expected_picture(recipe(SPEC, "PNG"))[1].convert("RGB")


def test_saturation_check_reads_the_change_and_its_direction(tmp_path):
    original = _original()
    base = saturation(original)
    args = {"path": PATH, "baseline": base, "direction": "more", "min_percent": 15, "max_percent": 35}
    vivid = ImageEnhance.Color(original).enhance(1.25)
    assert run_check(_picture(tmp_path, vivid), "image.saturation_changed", args).passed
    muted = ImageEnhance.Color(original).enhance(0.75)
    assert not run_check(_picture(tmp_path, muted), "image.saturation_changed", args).passed
    assert run_check(_picture(tmp_path, muted), "image.saturation_changed", {**args, "direction": "less"}).passed
    brighter = ImageEnhance.Brightness(original).enhance(1.25)  # brightness is not saturation
    assert not run_check(_picture(tmp_path, brighter), "image.saturation_changed", args).passed
    (tmp_path / "Pictures" / "view.png").write_bytes(b"not a picture")
    assert not run_check(State(tmp_path), "image.saturation_changed", args).passed


def test_hue_check_refuses_swapped_channels_and_keeps_a_saturation_change(tmp_path):
    original = _original()
    args = {"path": PATH, "original": recipe(SPEC, "PNG")}
    assert run_check(_picture(tmp_path, ImageEnhance.Color(original).enhance(1.4)), "image.hues_kept", args).passed
    r, g, b = original.split()
    swapped = Image.merge("RGB", (b, g, r))
    result = run_check(_picture(tmp_path, swapped), "image.hues_kept", args)
    assert not result.passed, result.evidence


def test_detail_check_refuses_a_blur_and_keeps_a_tone_change(tmp_path):
    original = _original()
    args = {"path": PATH, "original": recipe(SPEC, "PNG")}
    toned = ImageEnhance.Contrast(ImageEnhance.Color(original).enhance(0.6)).enhance(1.3)
    assert run_check(_picture(tmp_path, toned), "image.detail_kept", args).passed
    blurred = original.filter(ImageFilter.BoxBlur(4))
    result = run_check(_picture(tmp_path, blurred), "image.detail_kept", args)
    assert not result.passed, result.evidence
