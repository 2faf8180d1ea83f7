"""The GIMP building blocks: byte-reproducible pictures, offline content that fits its schema, the image ops'
save/export contract, every skill's solutions (an oracle plus at least two near-misses), and the app kit's refusal
of a family that does not bring its own source nodes."""

from __future__ import annotations

import io
import random

import jsonschema
import pytest
from PIL import Image

from kit.dag import NodeContext
from kit.errors import WorkflowError
from kit.family import family
from kit.llm import OfflineBackend
from kit.taxonomy import load_taxonomy
from preparers.image import FORMATS, KINDS, PALETTE_NAMES, background_mask, encode, render
from preparers.ops import apply_ops
from tests.gatekit import make_package
from workflows import get_family
from workflows.gimp import kit as gc
from workflows.gimp import rotate
from workflows.gimp.content import PICTURE_SCHEMA, SUBJECTS, generate_picture
from workflows.gimp.rotate import WORKFLOW as ROTATE


@pytest.mark.parametrize("kind", KINDS)
def test_pictures_are_byte_reproducible_in_every_format(kind):
    spec = {"kind": kind, "palette": "sunset", "layout_seed": 11, "width": 320, "height": 240, "object": ""}
    for fmt in FORMATS.values():
        assert encode(render(spec), fmt, 150) == encode(render(spec), fmt, 150), fmt


def test_packages_are_byte_identical_for_the_same_seed(tmp_path):
    first = make_package(ROTATE, {"transform": "rotate_cw", "fmt": "jpg"}, tmp_path / "a", seed=4)
    second = make_package(ROTATE, {"transform": "rotate_cw", "fmt": "jpg"}, tmp_path / "b", seed=4)
    files = sorted(p.relative_to(first) for p in first.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(second) for p in second.rglob("*") if p.is_file())
    assert all((first / f).read_bytes() == (second / f).read_bytes() for f in files)


def test_flat_pictures_only_use_pure_white_for_their_background():
    for kind in ("logo", "diagram", "chart", "document"):
        image = render({"kind": kind, "palette": "pastel", "layout_seed": 5, "width": 400, "height": 300})
        share = background_mask(image).histogram()[255] / (400 * 300)
        assert 0.3 < share < 0.97, (kind, share)


@pytest.mark.parametrize("kind", KINDS)
def test_offline_pictures_fit_the_schema_and_the_allowed_palettes(kind):
    validator = jsonschema.Draft202012Validator(PICTURE_SCHEMA)
    rng = random.Random(kind)
    for _ in range(60):
        allowed = rng.sample(PALETTE_NAMES, 3)
        answer = generate_picture(rng, {"kind": kind, "palettes": allowed})
        assert not list(validator.iter_errors(answer)), answer
        assert answer["palette"] in allowed
    assert all(len(stems) >= 2 for _, stems, _ in SUBJECTS[kind])


def test_convert_format_exports_a_second_file_and_leaves_the_source(tmp_path):
    (tmp_path / "Pictures").mkdir()
    source = encode(render({"kind": "chart", "palette": "corporate", "layout_seed": 1, "width": 200,
                            "height": 120}), "PNG")
    (tmp_path / "Pictures" / "a.png").write_bytes(source)
    apply_ops(tmp_path, [
        {"op": "image.rotate", "path": "/home/user/Pictures/a.png", "degrees": 90},
        {"op": "image.convert_format", "path": "/home/user/Pictures/a.png", "dest": "/home/user/Pictures/a.webp"},
        {"op": "image.convert_format", "path": "/home/user/Pictures/a.png", "dest": "/home/user/Pictures/b.jpg",
         "format": "PNG"},
    ])
    assert (tmp_path / "Pictures" / "a.png").read_bytes() == source
    with Image.open(tmp_path / "Pictures" / "a.webp") as webp:
        assert (webp.format, webp.size) == ("WEBP", (120, 200))
    with Image.open(io.BytesIO((tmp_path / "Pictures" / "b.jpg").read_bytes())) as disguised:
        assert disguised.format == "PNG"


def test_convert_format_refuses_paths_outside_home(tmp_path):
    from preparers.ops import OpError

    (tmp_path / "a.png").write_bytes(encode(Image.new("RGB", (8, 8)), "PNG"))
    with pytest.raises(OpError, match="must be an absolute path under /home/user"):
        apply_ops(tmp_path, [{"op": "image.convert_format", "path": "/home/user/a.png", "dest": "/tmp/x.png"}])


def test_every_gimp_skill_has_an_oracle_and_at_least_two_near_misses():
    skills = [s for s in load_taxonomy().values() if s.app == "gimp"]
    assert len(skills) >= 50
    for skill in skills:
        ctx = NodeContext(skill.params, 3, skill.id, 0, OfflineBackend())
        solutions = get_family(skill.family).run(ctx)["solutions"]
        assert solutions[0].name == "oracle", skill.id
        assert len(solutions) >= 3, (skill.id, [s.description for s in solutions])


def test_a_gimp_family_without_its_own_source_nodes_is_refused_with_the_fix():
    with pytest.raises(WorkflowError, match=r"source=gc\.source_nodes\(kinds, fmt_of"):
        family("gimp.no_source", gc.GIMP, description="d", knobs=rotate.WORKFLOW.knobs, phrasings=rotate.PHRASINGS,
               goal=rotate.goal, rubric=rotate.rubric, solve=rotate.solve)
