"""gimp.flip: the family through the gate with every mutant, its check on hand-made end states, its phrasings."""

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
from workflows.gimp.flip import NATURAL, PHRASINGS, SAY, WORKFLOW

SPEC = {"kind": "product", "width": 240, "height": 300, "palette": "autumn", "layout_seed": 4}
DEST = "/home/user/Pictures/mug_mirrored.png"


@pytest.mark.slow
@pytest.mark.parametrize(("axis", "fmt"), [("horizontal", "jpg"), ("vertical", "webp"), ("horizontal", "png")])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, axis, fmt):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"axis": axis, "fmt": fmt}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]] == ["image.is_flipped", "image.format_is", "tree.frame"]


@pytest.mark.parametrize("axis", ["horizontal", "vertical"])
def test_every_phrasing_says_the_axis_and_no_other(axis):
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.replace("{path.file}", "mug.png").format(
            path="/home/user/Pictures/mug.png", dest=DEST, subject="a blue mug", task=SAY[axis], fmt="PNG",
            why="for the photo collage", why_cap="For the photo collage")
        assert set(extract.expressed(text, "axis")) == {axis}, text
        assert 8 <= len(text.split()) <= 60, text


def _copy(tmp_path, image: Image.Image | None, data: bytes | None = None) -> State:
    (tmp_path / "Pictures").mkdir(exist_ok=True)
    if data is not None:
        (tmp_path / "Pictures" / "mug_mirrored.png").write_bytes(data)
    elif image is not None:
        image.save(tmp_path / "Pictures" / "mug_mirrored.png")
    return State(tmp_path)


def test_flip_check_on_hand_made_end_states(tmp_path):
    original = images.render(SPEC)
    args = {"path": DEST, "original": recipe(SPEC, "PNG"), "axis": "vertical"}
    good = original.transpose(Image.Transpose.FLIP_TOP_BOTTOM)
    assert run_check(_copy(tmp_path, good), "image.is_flipped", args).passed
    wrong_states = {
        "the other axis": original.transpose(Image.Transpose.FLIP_LEFT_RIGHT),
        "a plain copy": original,
        "a quarter turn": original.transpose(Image.Transpose.ROTATE_90),
        "flipped, then half the picture painted over": _painted(good),
    }
    for why, image in wrong_states.items():
        assert not run_check(_copy(tmp_path, image), "image.is_flipped", args).passed, why
    for why, data in {"truncated PNG": b"\x89PNG\r\n\x1a\n\x00\x00", "no picture": b"flipped"}.items():
        assert not run_check(_copy(tmp_path, None, data), "image.is_flipped", args).passed, why
    (tmp_path / "Pictures" / "mug_mirrored.png").unlink()
    assert not run_check(State(tmp_path), "image.is_flipped", args).passed


def _painted(image: Image.Image) -> Image.Image:
    out = image.copy()
    out.paste((255, 255, 255), (0, 0, image.width, image.height // 2))
    return out


def test_oracle_writes_the_copy_and_keeps_the_original(tmp_path):
    (tmp_path / "Pictures").mkdir()
    original = images.render(SPEC)
    original.save(tmp_path / "Pictures" / "mug.png")
    before = (tmp_path / "Pictures" / "mug.png").read_bytes()
    apply_ops(tmp_path, [{"op": "image.flip", "path": "/home/user/Pictures/mug.png", "axis": "horizontal"},
                         {"op": "image.convert_format", "path": "/home/user/Pictures/mug.png", "dest": DEST}])
    assert (tmp_path / "Pictures" / "mug.png").read_bytes() == before
    with Image.open(tmp_path / "Pictures" / "mug_mirrored.png") as copy:
        want = original.convert("RGB").transpose(Image.Transpose.FLIP_LEFT_RIGHT)
        assert copy.convert("RGB").tobytes() == want.tobytes()
