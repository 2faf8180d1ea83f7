"""The image mutators: every damaging mutant of a GIMP family's oracle result is rejected by the rubric, every
neutral one accepted, and each really changes the picture (so "rejected" means something)."""

from __future__ import annotations

import random

import pytest

from tests.verifiers.mutkit import judge, states
from verifiers.mutants import MutationContext
from verifiers.mutants import image as image_mutants
from workflows.gimp import convert as gimp_convert
from workflows.gimp import crop as gimp_crop
from workflows.gimp import grayscale as gimp_grayscale
from workflows.gimp import resize as gimp_resize


@pytest.mark.parametrize(("workflow", "params"), [
    (gimp_crop.WORKFLOW, {"region": "box", "fmt": "jpg"}),
    (gimp_grayscale.WORKFLOW, {"fmt": "png"}),
    (gimp_resize.WORKFLOW, {"mode": "percent", "fmt": "png"}),
    (gimp_convert.WORKFLOW, {"conversion": "png_to_jpg"}),
])
def test_the_rubric_rejects_every_damaging_mutant_and_accepts_every_neutral_one(tmp_path, workflow, params):
    ctx = states(workflow, params, tmp_path)
    judged = judge(ctx, image_mutants.mutants, tmp_path)
    names = [j.mutant.name.split(":")[0] for j in judged]
    assert any(n.startswith("image.pixelated_x") for n in names) and "image.wrong_format" in names
    assert any(j.mutant.kind == "neutral" for j in judged)
    wrong = [f"{j.mutant.kind} {j.mutant.name}: {j.evidence or 'passed'}" for j in judged if j.wrong]
    assert not wrong, wrong


def test_each_damaging_mutant_changes_the_picture_and_a_neutral_one_keeps_its_pixels(tmp_path):
    import shutil

    from PIL import Image, ImageChops

    ctx = states(gimp_crop.WORKFLOW, {"region": "half", "fmt": "png"}, tmp_path)
    (rel,) = ctx.changed()
    with Image.open(ctx.oracle / rel) as opened:
        before = opened.convert("RGB")
    for i, mutant in enumerate(image_mutants.mutants(ctx)):
        state = tmp_path / f"m{i}"
        shutil.copytree(ctx.oracle, state)
        mutant.apply(state)
        with Image.open(state / rel) as opened:
            same_pixels = opened.size == before.size and not ImageChops.difference(opened.convert("RGB"),
                                                                                   before).getbbox()
            format_kept = opened.format == "PNG"
        if mutant.kind == "neutral":
            assert same_pixels and format_kept, mutant.name
        else:
            assert not (same_pixels and format_kept), mutant.name


def test_mutants_are_deterministic_per_seed(tmp_path):
    ctx = states(gimp_crop.WORKFLOW, {"region": "box", "fmt": "png"}, tmp_path)
    again = MutationContext(ctx.task, ctx.initial, ctx.oracle, random.Random(1))
    other = MutationContext(ctx.task, ctx.initial, ctx.oracle, random.Random(1))
    assert [m.name for m in image_mutants.mutants(again)] == [m.name for m in image_mutants.mutants(other)]


@pytest.mark.parametrize(("workflow", "params"), [
    (gimp_crop.WORKFLOW, {"region": "box", "fmt": "jpg"}),
    (gimp_grayscale.WORKFLOW, {"fmt": "png"}),
    (gimp_convert.WORKFLOW, {"conversion": "png_to_webp"}),
])
def test_a_mutant_held_in_memory_is_the_picture_its_file_would_give(tmp_path, workflow, params):
    """The gate judges image mutants in memory (`Mutant.documents`): each must be exactly what the checks would
    read from the file `apply` writes - pixels, mode, format, metadata."""
    import shutil

    from verifiers.readers.image import load_picture

    ctx = states(workflow, params, tmp_path)
    for i, mutant in enumerate(image_mutants.mutants(ctx)):
        assert mutant.documents is not None, mutant.name
        ((path, parse), held), = mutant.documents().items()
        state = tmp_path / f"m{i}"
        shutil.copytree(ctx.oracle, state)
        mutant.apply(state)
        written = load_picture(state / path.removeprefix("/home/user/"))
        assert parse is load_picture, mutant.name
        assert (held.mode, held.size, held.format, held.info, held.getpalette()) == \
            (written.mode, written.size, written.format, written.info, written.getpalette()), mutant.name
        assert held.tobytes() == written.tobytes(), mutant.name
