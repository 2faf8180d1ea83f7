"""gimp.remove_background: the family through the gate with every mutant, its checks on hand-made end states, the
coloured-background source."""

from __future__ import annotations

import json

import pytest
from PIL import Image

from preparers import image as images
from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from verifiers.checks.image_measure import thumbnail
from verifiers.readers.image import expected_picture, recipe
from workflows.gimp.remove_background import NATURAL, PHRASINGS, WORKFLOW

SPEC = {"kind": "logo", "width": 240, "height": 240, "palette": "autumn", "layout_seed": 8}
TEAL = "#2E8B8B"
SRC = "/home/user/Pictures/badge.png"
DEST = "/home/user/Pictures/badge_cutout.png"


@pytest.mark.slow
@pytest.mark.parametrize("source", ["png", "bmp"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, source):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"source": source}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]] == [
            "image.transparent_background", "image.content_matches", "image.size_unchanged", "image.format_is",
            "tree.frame"]
        assert task["rubric"][1]["args"]["expected"]["background"].startswith("#")


def test_every_phrasing_names_the_background_and_the_png():
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.replace("{path.file}", "badge.png").format(
            path=SRC, dest=DEST, subject="the club badge", kind="logo", color=TEAL, color_name="teal", fmt="PNG",
            use="for the flyer", use_cap="For the flyer")
        assert "teal" in text and ("transparent" in text or "see-through" in text), text
        assert DEST in text and "{" not in text, text


def _original() -> Image.Image:
    return images.with_background(images.render(SPEC), (0x2E, 0x8B, 0x8B))


def _saved(tmp_path, image: Image.Image, fmt: str = "PNG") -> State:
    (tmp_path / "Pictures").mkdir(exist_ok=True)
    image.save(tmp_path / "Pictures" / "badge_cutout.png", fmt)
    return State(tmp_path)


def test_checks_on_hand_made_end_states(tmp_path):
    mask = thumbnail(images.background_mask(images.render(SPEC)), gray=True)
    expected = recipe(SPEC, "PNG", background=TEAL, edits=[{"op": "image.clear_color", "color": TEAL}])
    cutout = expected_picture(expected)[1]
    transparent = {"path": DEST, "mask": mask}
    content = {"path": DEST, "expected": expected, "what": "the badge"}
    state = _saved(tmp_path, cutout)
    assert run_check(state, "image.transparent_background", transparent).passed
    assert run_check(state, "image.content_matches", content).passed
    # a lazy cut-out: the background only half cleared (a fuzzy select that stopped at the middle)
    half = cutout.copy()
    half.paste(_original().crop((0, 0, 240, 120)).convert("RGBA"), (0, 0))
    assert not run_check(_saved(tmp_path, half), "image.transparent_background", transparent).passed
    # the whole picture made transparent (Select All, Delete)
    empty = Image.new("RGBA", cutout.size, (0, 0, 0, 0))
    assert not run_check(_saved(tmp_path, empty), "image.transparent_background", transparent).passed
    # background cleared, but the logo recoloured (Colorize left on)
    recoloured = Image.merge("RGBA", (cutout.getchannel("B"), cutout.getchannel("R"), cutout.getchannel("G"),
                                      cutout.getchannel("A")))
    assert run_check(_saved(tmp_path, recoloured), "image.transparent_background", transparent).passed
    assert not run_check(_saved(tmp_path, recoloured), "image.content_matches", content).passed
    # the background painted white, saved without alpha
    assert not run_check(_saved(tmp_path, images.render(SPEC)), "image.transparent_background", transparent).passed
    (tmp_path / "Pictures" / "badge_cutout.png").write_bytes(b"\x89PNG\r\n\x1a\ntruncated")
    assert not run_check(State(tmp_path), "image.transparent_background", transparent).passed


def test_source_background_and_op(tmp_path):
    original = _original()
    assert expected_picture(recipe(SPEC, "PNG", background=TEAL))[1].convert("RGB").tobytes() == original.tobytes()
    assert "background" not in recipe(SPEC, "PNG")  # older recipes keep their bytes
    (tmp_path / "Pictures").mkdir()
    original.save(tmp_path / "Pictures" / "badge.png")
    apply_ops(tmp_path, [{"op": "image.clear_color", "path": SRC, "color": TEAL},
                         {"op": "image.convert_format", "path": SRC, "dest": DEST}])
    with Image.open(tmp_path / "Pictures" / "badge_cutout.png") as done:
        alpha = done.getchannel("A")
        mask = images.background_mask(images.render(SPEC))
        assert alpha.tobytes() == mask.point(lambda v: 0 if v else 255).tobytes()
    with Image.open(tmp_path / "Pictures" / "badge.png") as kept:
        assert kept.mode == "RGB"
