"""gimp.invert: the family through the gate with every mutant, its check on hand-made end states, its op."""

from __future__ import annotations

import json

import pytest
from PIL import Image, ImageOps

from preparers import image as images
from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from verifiers.readers.image import recipe
from workflows.gimp.invert import NATURAL, PHRASINGS, WORKFLOW

SPEC = {"kind": "diagram", "width": 300, "height": 200, "palette": "autumn", "layout_seed": 6}
PATH = "/home/user/Pictures/flow.png"


@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["png", "jpg", "bmp"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, fmt):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"fmt": fmt}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]] == ["image.is_inverted", "image.format_is", "tree.frame"]


def test_every_phrasing_asks_for_a_negative():
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.replace("{path.file}", "flow.png").format(
            path=PATH, subject="an order flow", task="invert its colours", fmt="PNG", why="for a dark slide",
            why_cap="For a dark slide")
        assert "invert" in text.lower() or "negative" in text.lower(), text
        assert "{" not in text, text


def _saved(tmp_path, image: Image.Image | None, data: bytes | None = None) -> State:
    (tmp_path / "Pictures").mkdir(exist_ok=True)
    if data is not None:
        (tmp_path / "Pictures" / "flow.png").write_bytes(data)
    elif image is not None:
        image.save(tmp_path / "Pictures" / "flow.png")
    return State(tmp_path)


def test_inverted_check_on_hand_made_end_states(tmp_path):
    original = images.render(SPEC).convert("RGB")
    args = {"path": PATH, "original": recipe(SPEC, "PNG")}
    assert run_check(_saved(tmp_path, ImageOps.invert(original)), "image.is_inverted", args).passed
    wrong_states = {
        "untouched": original,
        "inverted then mirrored": ImageOps.invert(original).transpose(Image.Transpose.FLIP_LEFT_RIGHT),
        "only the red channel inverted": Image.merge("RGB", (ImageOps.invert(original.getchannel("R")),
                                                             original.getchannel("G"), original.getchannel("B"))),
        "inverted twice": ImageOps.invert(ImageOps.invert(original)),
        "a smaller negative": ImageOps.invert(original).resize((150, 100)),
    }
    for why, image in wrong_states.items():
        assert not run_check(_saved(tmp_path, image), "image.is_inverted", args).passed, why
    assert not run_check(_saved(tmp_path, None, b"\x89PNG\r\n\x1a\nbroken"), "image.is_inverted", args).passed
    assert not run_check(_saved(tmp_path, None), "image.is_inverted", {"path": PATH, "original": "nonsense"}).passed


def test_op_inverts_colours_and_keeps_transparency(tmp_path):
    (tmp_path / "Pictures").mkdir()
    picture = Image.new("RGBA", (4, 2), (10, 200, 30, 255))
    picture.putpixel((0, 0), (0, 0, 0, 0))
    picture.save(tmp_path / "Pictures" / "flow.png")
    apply_ops(tmp_path, [{"op": "image.invert", "path": PATH}])
    with Image.open(tmp_path / "Pictures" / "flow.png") as done:
        assert done.mode == "RGBA"
        assert done.getpixel((1, 1)) == (245, 55, 225, 255)
        assert done.getpixel((0, 0))[3] == 0
    apply_ops(tmp_path, [{"op": "image.invert", "path": PATH, "box": [0, 0, 4, 1]}])  # the top row back again
    with Image.open(tmp_path / "Pictures" / "flow.png") as done:
        assert done.getpixel((1, 0)) == (10, 200, 30, 255) and done.getpixel((1, 1)) == (245, 55, 225, 255)
