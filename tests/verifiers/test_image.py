"""Unit tests for the image primitives in verifiers.checks.image: each passes on a right picture and fails, with
evidence, on a wrong one, a missing file and a corrupt file."""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageEnhance, ImageStat

from preparers.image import background_mask, encode, render, with_transparent_background
from verifiers.checks import State, run_check
from verifiers.checks.image_measure import thumbnail
from verifiers.readers.image import recipe

PATH = "/home/user/Pictures/pic.png"
CHART_SPEC = {"kind": "chart", "palette": "corporate", "layout_seed": 7, "width": 240, "height": 160}
PHOTO_SPEC = {"kind": "landscape", "palette": "morning", "layout_seed": 3, "width": 240, "height": 160}
CHART, PHOTO = render(CHART_SPEC), render(PHOTO_SPEC)
#: full-resolution references: the pictures as a PNG asset would hold them
CHART_REF, PHOTO_REF = recipe(CHART_SPEC, "PNG"), recipe(PHOTO_SPEC, "PNG")
T = Image.Transpose


@dataclass(frozen=True)
class Picture:
    """What to write at PATH: an image, its real format and its stored resolution."""

    image: Image.Image
    fmt: str = "PNG"
    dpi: float | None = None


@dataclass(frozen=True)
class Case:
    primitive: str
    args: dict[str, Any]
    good: Callable[[], Picture]
    bad: Callable[[], Picture] | None
    evidence: str = ""  # a fragment the failure on `bad` must show


CASES = {
    "file_exists": Case("image.file_exists", {}, lambda: Picture(CHART), None),
    "format_is": Case("image.format_is", {"format": "PNG"}, lambda: Picture(CHART),
                      lambda: Picture(CHART, "JPEG"), "is really a JPEG file, not PNG"),
    "size_equals": Case("image.size_equals", {"width": 120, "height": 80}, lambda: Picture(CHART.resize((120, 80))),
                        lambda: Picture(CHART.resize((121, 80))), "is 121x80, not 120x80"),
    "size_unchanged": Case("image.size_unchanged", {"width": 240, "height": 160}, lambda: Picture(CHART),
                           lambda: Picture(CHART.resize((200, 160))), "should have kept its original 240x160"),
    "scaled_by": Case("image.scaled_by", {"width": 240, "height": 160, "percent": 50},
                      lambda: Picture(CHART.resize((120, 80))), lambda: Picture(CHART.resize((120, 160))),
                      "50% of 240x160 is 120x80"),
    "side_equals": Case("image.side_equals", {"side": "width", "pixels": 120},
                        lambda: Picture(CHART.resize((120, 80))), lambda: Picture(CHART.resize((118, 80))),
                        "has width 118 px, not 120 px"),
    "aspect_preserved": Case("image.aspect_preserved", {"width": 240, "height": 160},
                             lambda: Picture(CHART.resize((120, 81))), lambda: Picture(CHART.resize((120, 100))),
                             "aspect ratio is off by 20.0 px"),
    "mode_is": Case("image.mode_is", {"modes": ["RGBA", "LA"]}, lambda: Picture(CHART.convert("RGBA")),
                    lambda: Picture(CHART), "has colour mode RGB"),
    "grayscale": Case("image.grayscale", {}, lambda: Picture(CHART.convert("L").convert("RGB")),
                      lambda: Picture(ImageEnhance.Color(CHART).enhance(0.4)), "is not grayscale"),
    "content_colour": Case("image.content_matches", {"expected": CHART_REF, "what": "the chart"},
                           lambda: Picture(CHART, "JPEG"),
                           lambda: Picture(CHART.transpose(T.FLIP_LEFT_RIGHT)), "does not show the chart"),
    "content_gray": Case("image.content_matches", {"expected": PHOTO_REF, "what": "the photo", "gray": True,
                                                   "tone": True},
                         lambda: Picture(PHOTO.convert("L")), lambda: Picture(PHOTO.transpose(T.ROTATE_180)),
                         "differ visibly"),
    "is_rotated": Case("image.is_rotated", {"original": CHART_REF, "degrees": 90, "direction": "clockwise"},
                       lambda: Picture(CHART.transpose(T.ROTATE_270), "JPEG"),
                       lambda: Picture(CHART.transpose(T.ROTATE_90)), "does not show the original rotated"),
    "is_flipped": Case("image.is_flipped", {"original": PHOTO_REF, "axis": "horizontal"},
                       lambda: Picture(PHOTO.transpose(T.FLIP_LEFT_RIGHT)),
                       lambda: Picture(PHOTO.transpose(T.FLIP_TOP_BOTTOM)), "does not show the original flipped"),
    "cropped_to": Case("image.cropped_to", {"box": [20, 10, 140, 90], "original": CHART_REF},
                       lambda: Picture(CHART.crop((20, 10, 140, 90))),
                       lambda: Picture(CHART.crop((100, 70, 220, 150))), "does not show the original's region"),
    "dpi_is": Case("image.dpi_is", {"dpi": 300}, lambda: Picture(CHART, dpi=300),
                   lambda: Picture(CHART, dpi=72), "not 300"),
    "print_width": Case("image.print_width", {"inches": 0.8}, lambda: Picture(CHART, "JPEG", 300),
                        lambda: Picture(CHART, "JPEG", 72), "prints 3.33 in wide"),
    "transparent_background": Case("image.transparent_background",
                                   {"mask": thumbnail(background_mask(CHART), gray=True)},
                                   lambda: Picture(with_transparent_background(CHART)),
                                   lambda: Picture(CHART.convert("RGBA")), "mean alpha 255 on the background"),
    "background_color": Case("image.background_color",
                             {"mask": thumbnail(background_mask(CHART), gray=True), "color": "#FFFFFF"},
                             lambda: Picture(CHART),
                             lambda: Picture(with_transparent_background(CHART).convert("RGB")),
                             "the background is #000000, not #FFFFFF"),
    "brightness_changed": Case("image.brightness_changed",
                               {"baseline": ImageStat.Stat(PHOTO.convert("L")).mean[0], "direction": "brighter",
                                "min_percent": 10, "max_percent": 30},
                               lambda: Picture(ImageEnhance.Brightness(PHOTO).enhance(1.2)),
                               lambda: Picture(ImageEnhance.Brightness(PHOTO).enhance(0.8)), "wanted 10-30% brighter"),
}


def _put(root: Path, picture: Picture) -> State:
    host = root / "Pictures" / "pic.png"
    host.parent.mkdir(parents=True, exist_ok=True)
    host.write_bytes(encode(picture.image, picture.fmt, picture.dpi))
    return State(root)


def _run(state: State, case: Case) -> tuple[bool, str]:
    result = run_check(state, case.primitive, {"path": PATH, **case.args})
    return result.passed, result.evidence


@pytest.mark.parametrize("name", sorted(CASES))
def test_passes_on_the_right_picture(tmp_path, name):
    passed, evidence = _run(_put(tmp_path, CASES[name].good()), CASES[name])
    assert passed, evidence


@pytest.mark.parametrize("name", sorted(n for n, c in CASES.items() if c.bad is not None))
def test_fails_on_a_wrong_picture_with_evidence(tmp_path, name):
    case = CASES[name]
    assert case.bad is not None
    passed, evidence = _run(_put(tmp_path, case.bad()), case)
    assert not passed
    assert case.evidence in evidence


@pytest.mark.parametrize("name", sorted(CASES))
def test_fails_on_a_missing_file(tmp_path, name):
    passed, evidence = _run(State(tmp_path), CASES[name])
    assert not passed
    assert evidence == f"{PATH} does not exist"


@pytest.mark.parametrize("name", sorted(CASES))
def test_fails_on_a_corrupt_file(tmp_path, name):
    host = tmp_path / "Pictures" / "pic.png"
    host.parent.mkdir(parents=True)
    host.write_bytes(encode(CHART, "PNG")[:300])  # a truncated PNG
    passed, evidence = _run(State(tmp_path), CASES[name])
    assert not passed
    assert evidence.startswith(f"{PATH} is not a readable image")


def test_content_tolerates_jpeg_and_resampling_but_not_a_half_turn():
    from verifiers.checks.image_measure import compare
    from verifiers.readers.image import decode

    reference = decode(thumbnail(PHOTO))
    jpeg = Image.open(__import__("io").BytesIO(encode(PHOTO, "JPEG")))
    assert compare(jpeg, reference)[0]
    assert compare(PHOTO.resize((97, 61), Image.Resampling.NEAREST), reference)[0]
    assert not compare(PHOTO.transpose(T.ROTATE_180), reference)[0]


def test_rotation_with_swapped_sides_checked_first(tmp_path):
    state = _put(tmp_path, Picture(CHART))
    passed, evidence = _run(state, CASES["is_rotated"])
    assert not passed
    assert evidence == f"{PATH} is 240x160; turning the 240x160 original by 90 gives 160x240"


# --- full resolution: what a thumbnail cannot see, and what a correct export may differ by ----------------

BIG_SPEC = {"kind": "cityscape", "palette": "night", "layout_seed": 11, "width": 960, "height": 640}
BIG = render(BIG_SPEC)


def _pixelate(image: Image.Image, factor: int) -> Image.Image:
    small = image.resize((image.width // factor, image.height // factor), Image.Resampling.BOX)
    return small.resize(image.size, Image.Resampling.NEAREST)


def _shift(image: Image.Image, dx: int) -> Image.Image:
    out = image.copy()
    out.paste(image.crop((0, 0, image.width - dx, image.height)), (dx, 0))
    return out


@pytest.mark.parametrize("spec", [BIG_SPEC, {**CHART_SPEC, "width": 800, "height": 600},
                                  {"kind": "landscape", "palette": "sunset", "layout_seed": 5, "width": 1024,
                                   "height": 768}])
@pytest.mark.parametrize("fmt", ["PNG", "JPEG"])
def test_a_16x_pixelation_fails_where_a_thumbnail_passed_it(tmp_path, spec, fmt):
    """The issue's example: 48-pixel thumbnails (tolerance 10) accepted a 16x pixelated result."""
    from verifiers.checks.image_measure import compare
    from verifiers.readers.image import decode

    image = render(spec)
    pixelated = _pixelate(image, 16)
    assert compare(pixelated, decode(thumbnail(image)))[0]  # what the old check saw: alike
    state = _put(tmp_path, Picture(pixelated, fmt))
    result = run_check(state, "image.content_matches", {"path": PATH, "expected": recipe(spec, "PNG"), "what": "it"})
    assert not result.passed
    assert "differ visibly" in result.evidence


@pytest.mark.parametrize(("name", "damage"), [
    ("pixelated x8", lambda im: _pixelate(im, 8)),
    ("blurred", lambda im: im.filter(__import__("PIL.ImageFilter").ImageFilter.GaussianBlur(3))),
    ("shifted 3 px", lambda im: _shift(im, 3)),
    ("channels swapped", lambda im: Image.merge("RGB", im.split()[::-1])),
])
def test_damage_that_keeps_the_size_fails(tmp_path, name, damage):
    state = _put(tmp_path, Picture(damage(BIG)))
    result = run_check(state, "image.content_matches", {"path": PATH, "expected": recipe(BIG_SPEC, "PNG"),
                                                        "what": "the skyline"})
    assert not result.passed, f"{name}: {result.evidence}"


@pytest.mark.parametrize(("name", "fmt", "save"), [
    ("re-saved by Pillow, lossless", "PNG", {"compress_level": 9}),
    ("exported as JPEG at quality 75", "JPEG", {"quality": 75}),
    ("exported as JPEG at GIMP's default 90", "JPEG", {"quality": 90}),
    ("exported as WebP at quality 80", "WEBP", {"quality": 80}),
])
def test_a_correct_picture_saved_another_way_passes(tmp_path, name, fmt, save):
    host = tmp_path / "Pictures" / "pic.png"
    host.parent.mkdir(parents=True)
    BIG.save(host, fmt, **save)
    result = run_check(State(tmp_path), "image.content_matches",
                       {"path": PATH, "expected": recipe(BIG_SPEC, "PNG"), "what": "the skyline"})
    assert result.passed, f"{name}: {result.evidence}"


def test_tone_allows_any_tone_curve_but_not_a_threshold(tmp_path):
    """Brightness and grey weighting are GIMP's business (`tone`); collapsing the levels is not."""
    args = {"path": PATH, "expected": recipe(BIG_SPEC, "PNG"), "what": "the skyline", "tone": True}
    brighter = ImageEnhance.Brightness(BIG).enhance(1.3)
    assert run_check(_put(tmp_path, Picture(brighter)), "image.content_matches", args).passed
    gray = {**args, "gray": True}
    assert run_check(_put(tmp_path, Picture(BIG.convert("L"))), "image.content_matches", gray).passed
    bilevel = BIG.convert("L").point(lambda v: 255 if v > 100 else 0)
    assert not run_check(_put(tmp_path, Picture(bilevel)), "image.content_matches", gray).passed


@pytest.mark.parametrize("shape", [(3, 37, 23), (1, 40, 31), (3, 1, 1), (1, 1, 6), (3, 7, 1), (3, 2, 2), (1, 2, 9)])
def test_the_blur_gives_the_exact_padded_box_sums(shape):
    """`_share_over` with `smooth` (sums over flat memory, edges fixed after, in int16, a plane at a time) counts
    exactly the pixels where the padded 3-tap box filter, twice along each axis (`SMOOTHED` times the blur), leaves
    some channel over the step - at the largest differences (255 everywhere but a few -255), and at steps that
    some blurred values equal (not over)."""
    import numpy as np

    from verifiers.checks.image_measure import _share_over

    rng = np.random.default_rng(sum(shape))
    for values in (rng.integers(-255, 256, shape), np.where(rng.random(shape) < 0.1, -255, 255)):
        want = values.astype(np.int64)
        for _ in range(2):
            rows = np.pad(want, ((0, 0), (1, 1), (0, 0)), mode="edge")
            want = rows[:, :-2] + rows[:, 1:-1] + rows[:, 2:]
            cols = np.pad(want, ((0, 0), (0, 0), (1, 1)), mode="edge")
            want = cols[:, :, :-2] + cols[:, :, 1:-1] + cols[:, :, 2:]
        top = np.abs(want).max(axis=0)
        for step in (0, int(np.median(top)), int(top.max()) - 1, int(top.max())):
            got = _share_over(list(values.astype(np.int16)), np.zeros(shape, np.int16), step, smooth=True)
            assert got == np.count_nonzero(top > step) / top.size * 100, step


@pytest.mark.parametrize("mode", ["RGB", "RGBA", "L", "P", "1", "LA", "I;16"])
@pytest.mark.parametrize("dpi", [None, 72.0, 299.7, 0.0])
@pytest.mark.parametrize("info", [{}, {"transparency": 0}, {"icc_profile": b"not really"}])
def test_a_png_made_without_encoding_is_the_picture_its_file_gives(mode, dpi, info):
    """`png_as_read` (the in-memory stand-in for saving a PNG and reading it back) answers only where it is exact:
    the same pixels, mode, format and metadata as `load_picture` on the bytes `encode` writes."""
    from preparers.image import encode, png_as_read
    from verifiers.readers.image import as_saved, load_picture

    picture = Image.effect_noise((29, 17), 70).convert("RGB").convert(mode)
    picture.info = dict(info)
    made = png_as_read(picture, None if dpi is None else (dpi, dpi))
    assert (made is not None) == (mode in ("RGB", "RGBA", "L") and not info)
    try:
        read = load_picture(io.BytesIO(encode(picture, "PNG", dpi)))
    except (OSError, ValueError):  # Pillow refuses to write it (a profile that is none): only the slow path runs
        assert made is None
        return
    for got in (made, as_saved(picture, "PNG", dpi)):
        if got is not None:
            assert (got.mode, got.size, got.format, got.info) == (read.mode, read.size, read.format, read.info)
            assert got.tobytes() == read.tobytes()


@pytest.mark.parametrize("text", [{"Software": "GIMP 2.10.34"}, {"Title": "a b", "Comment": ""}, {"Autor": "Jürgen"}])
def test_a_png_with_text_made_without_encoding_is_the_picture_its_file_gives(text):
    """With text chunks too (a mutant's re-save carries one): exact, or None where it cannot be sure."""
    from PIL.PngImagePlugin import PngInfo

    from preparers.image import png_as_read
    from verifiers.readers.image import load_picture

    picture = Image.effect_noise((29, 17), 70).convert("RGB")
    made = png_as_read(picture, (96.0, 96.0), text)
    meta = PngInfo()
    for key, value in text.items():
        meta.add_text(key, value)
    out = io.BytesIO()
    picture.save(out, "PNG", dpi=(96.0, 96.0), pnginfo=meta)
    read = load_picture(io.BytesIO(out.getvalue()))
    assert (made is None) == (not all(v.isascii() for v in text.values()))
    if made is not None:
        assert (made.mode, made.size, made.format, made.info) == (read.mode, read.size, read.format, read.info)
        assert made.tobytes() == read.tobytes()


def test_the_blur_mutant_takes_an_indexed_picture():
    """A palette PNG (what Image > Mode > Indexed exports) is blurred in RGB, as GIMP does, instead of crashing the
    mutation stage ('image has wrong mode' was an infra_fail of every gimp.indexed task saved as PNG)."""
    from verifiers.mutants.image import _blur

    indexed = Image.effect_noise((40, 30), 90).convert("RGB").convert("P", palette=Image.Palette.ADAPTIVE, colors=6)
    blurred = _blur(2)(indexed)
    assert blurred.mode == "RGB" and blurred.size == indexed.size
    assert blurred.tobytes() != indexed.convert("RGB").tobytes()
