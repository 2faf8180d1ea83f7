"""gimp.canvas_border: the family through the gate with every mutant, its check on hand-made end states, its op and
phrasings."""

from __future__ import annotations

import json

import pytest
from PIL import Image

from preparers import image as images
from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package
from verifiers import extract
from verifiers.checks import State, run_check
from verifiers.readers.image import recipe
from workflows.gimp.canvas_border import NATURAL, PHRASINGS, PLAIN, SAY, WORKFLOW

SPEC = {"kind": "landscape", "width": 200, "height": 150, "palette": "autumn", "layout_seed": 3}
PATH = "/home/user/Pictures/hills.png"
NAVY = "#1F2A44"


@pytest.mark.slow
@pytest.mark.parametrize(("sides", "fmt"), [("all", "jpg"), ("bottom", "png"), ("all", "png"), ("bottom", "jpg")])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, sides, fmt):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"sides": sides, "fmt": fmt}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]] == ["image.canvas_extended", "image.format_is", "tree.frame"]


@pytest.mark.parametrize("sides", ["all", "bottom"])
def test_every_phrasing_says_where_the_canvas_grows_and_nowhere_else(sides):
    task = SAY[sides].format(pixels=30, color=NAVY, color_name="navy")
    plain = PLAIN[sides].format(pixels=30, color=NAVY, color_name="navy")
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.replace("{path.file}", "hills.png").format(
            path=PATH, subject="autumn hills", task=task, plain=plain, fmt="PNG", why="for the printed portfolio",
            why_cap="For the printed portfolio")
        assert set(extract.expressed(text, "canvas_sides")) == {sides}, text


def _saved(tmp_path, image: Image.Image) -> State:
    (tmp_path / "Pictures").mkdir(exist_ok=True)
    image.save(tmp_path / "Pictures" / "hills.png")
    return State(tmp_path)


def _framed(image: Image.Image, color: tuple[int, ...], left: int, top: int, right: int, bottom: int) -> Image.Image:
    canvas = Image.new("RGB", (image.width + left + right, image.height + top + bottom), color)
    canvas.paste(image, (left, top))
    return canvas


def test_canvas_check_on_hand_made_end_states(tmp_path):
    original = images.render(SPEC)
    navy = (0x1F, 0x2A, 0x44)
    args = {"path": PATH, "original": recipe(SPEC, "PNG"), "pixels": 20, "color": NAVY, "sides": "all"}
    assert run_check(_saved(tmp_path, _framed(original, navy, 20, 20, 20, 20)), "image.canvas_extended", args).passed
    wrong = {
        "black instead of navy": _framed(original, (0, 0, 0), 20, 20, 20, 20),
        "picture in the corner": _framed(original, navy, 0, 0, 40, 40),
        "picture mirrored inside the frame": _framed(original.transpose(Image.Transpose.FLIP_LEFT_RIGHT), navy,
                                                     20, 20, 20, 20),
        "frame painted over the picture's edge (no canvas added)": _framed(original.crop((20, 20, 180, 130)), navy,
                                                                           20, 20, 20, 20).resize((200, 150)),
        "stretched": original.resize((240, 190)),
        "border only 10 px": _framed(original, navy, 10, 10, 10, 10),
    }
    for why, image in wrong.items():
        assert not run_check(_saved(tmp_path, image), "image.canvas_extended", args).passed, why
    half_transparent = _framed(original, navy, 20, 20, 20, 20).convert("RGBA")
    half_transparent.paste((0, 0, 0, 0), (0, 0, 240, 20))
    assert not run_check(_saved(tmp_path, half_transparent), "image.canvas_extended", args).passed
    bottom = {**args, "sides": "bottom"}
    assert run_check(_saved(tmp_path, _framed(original, navy, 0, 0, 0, 20)), "image.canvas_extended", bottom).passed
    assert not run_check(_saved(tmp_path, _framed(original, navy, 0, 20, 0, 0)), "image.canvas_extended",
                         bottom).passed
    assert not run_check(_saved(tmp_path, original), "image.canvas_extended", {**args, "original": "x"}).passed
    (tmp_path / "Pictures" / "hills.png").write_bytes(b"\x89PNG\r\n\x1a\ncut")
    assert not run_check(State(tmp_path), "image.canvas_extended", args).passed


def test_op_grows_the_canvas_and_keeps_the_picture(tmp_path):
    (tmp_path / "Pictures").mkdir()
    Image.new("RGB", (4, 3), (10, 20, 30)).save(tmp_path / "Pictures" / "hills.png")
    apply_ops(tmp_path, [{"op": "image.extend_canvas", "path": PATH, "color": NAVY, "left": 1, "top": 2,
                          "right": 3, "bottom": 4}])
    with Image.open(tmp_path / "Pictures" / "hills.png") as done:
        assert done.size == (8, 9)
        assert done.getpixel((0, 0)) == (0x1F, 0x2A, 0x44) and done.getpixel((1, 2)) == (10, 20, 30)
        assert done.getpixel((4, 4)) == (10, 20, 30) and done.getpixel((5, 4)) == (0x1F, 0x2A, 0x44)
    apply_ops(tmp_path, [{"op": "image.extend_canvas", "path": PATH, "color": "transparent", "bottom": 1}])
    with Image.open(tmp_path / "Pictures" / "hills.png") as done:
        assert done.mode == "RGBA" and done.size == (8, 10) and done.getpixel((0, 9))[3] == 0
