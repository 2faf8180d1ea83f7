"""Unit tests for the image primitives in verifiers.checks.image: each passes on a right picture and fails, with
evidence, on a wrong one, a missing file and a corrupt file."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageEnhance, ImageStat

from preparers.image import background_mask, encode, render, with_transparent_background
from verifiers.checks import State, run_check
from verifiers.checks.image import thumbnail

PATH = "/home/user/Pictures/pic.png"
CHART = render({"kind": "chart", "palette": "corporate", "layout_seed": 7, "width": 240, "height": 160})
PHOTO = render({"kind": "landscape", "palette": "morning", "layout_seed": 3, "width": 240, "height": 160})
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
    "content_colour": Case("image.content_matches", {"reference": thumbnail(CHART), "what": "the chart"},
                           lambda: Picture(CHART.resize((480, 320)), "JPEG"),
                           lambda: Picture(CHART.transpose(T.FLIP_LEFT_RIGHT)), "does not show the chart"),
    "content_gray": Case("image.content_matches", {"reference": thumbnail(PHOTO, gray=True), "what": "the photo"},
                         lambda: Picture(PHOTO.convert("L")), lambda: Picture(PHOTO.transpose(T.ROTATE_180)),
                         "correlation"),
    "is_rotated": Case("image.is_rotated", {"original": thumbnail(CHART), "degrees": 90, "direction": "clockwise"},
                       lambda: Picture(CHART.transpose(T.ROTATE_270), "JPEG"),
                       lambda: Picture(CHART.transpose(T.ROTATE_90)), "does not show the original rotated"),
    "is_flipped": Case("image.is_flipped", {"original": thumbnail(PHOTO), "axis": "horizontal"},
                       lambda: Picture(PHOTO.transpose(T.FLIP_LEFT_RIGHT)),
                       lambda: Picture(PHOTO.transpose(T.FLIP_TOP_BOTTOM)), "does not show the original flipped"),
    "cropped_to": Case("image.cropped_to", {"box": [20, 10, 140, 90],
                                            "expected": thumbnail(CHART.crop((20, 10, 140, 90)))},
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
    from verifiers.checks.image import compare, decode

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
