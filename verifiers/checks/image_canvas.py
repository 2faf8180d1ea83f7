"""`image.canvas_extended`: a picture's canvas grown by a number of pixels on every side (or at the bottom only),
the new area one solid colour and the original picture unchanged where it was."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageStat

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.checks.image import _content
from verifiers.checks.image_measure import size_text
from verifiers.meaning import Meaning, Said
from verifiers.readers.image import expected_picture, load

#: sides -> which sides grow
SIDES = {"all": ("left", "top", "right", "bottom"), "bottom": ("bottom",)}
#: how far (0..255, per channel) the new area's mean colour may be from the one asked for (JPEG keeps a flat area
#: within a few levels) and how many of its pixels may stray further (edges against the picture ring a little)
COLOR_TOLERANCE = 12
STRAY_SHARE = 0.05


def _rgb(color: str) -> tuple[int, int, int] | None:
    try:
        return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)
    except (TypeError, ValueError, IndexError):
        return None


@primitive("image.canvas_extended", grounded=("path", "pixels", "color", "sides"),
           meaning=Meaning(action=r"canvas|border|frame|margin|strip|pad",
                           args={"sides": Said("canvas_sides")}))
def canvas_extended(state: State, path: str, original: dict[str, Any], pixels: int, color: str, sides: str) -> Result:
    """The picture is the `original` (a `recipe()`) on a canvas grown by `pixels` on each of `sides` ("all": every
    side; "bottom": below it only): exact size, each new strip of solid `color` ("#RRGGBB", the mean within
    `COLOR_TOLERANCE` and at most `STRAY_SHARE` of its pixels further off), and the original at its place."""
    want_rgb = _rgb(color)
    if sides not in SIDES or want_rgb is None or not isinstance(pixels, int) or pixels < 1:
        return fail(f"check misconfigured: sides={sides!r}, color={color!r}, pixels={pixels!r}")
    edits = original.get("edits") if isinstance(original, dict) else None
    if not isinstance(edits, list):
        return fail("check misconfigured: `original` is not a picture recipe")
    image = load(state, path)
    source = expected_picture(original)[1]
    grow = {side: (pixels if side in SIDES[sides] else 0) for side in ("left", "top", "right", "bottom")}
    want = (source.width + grow["left"] + grow["right"], source.height + grow["top"] + grow["bottom"])
    where = "every side" if sides == "all" else "the bottom"
    if image.size != want:
        return fail(f"{path} is {size_text(image)}; {pixels} px more on {where} of the {size_text(source)} original "
                    f"gives {want[0]}x{want[1]}")
    flat = image.convert("RGBA")
    w, h = flat.size
    strips = {"left": (0, 0, grow["left"], h), "top": (0, 0, w, grow["top"]),
              "right": (w - grow["right"], 0, w, h), "bottom": (0, h - grow["bottom"], w, h)}
    problems = []
    for side in SIDES[sides]:
        strip = flat.crop(strips[side])
        alpha = ImageStat.Stat(strip.getchannel("A")).mean[0]
        if alpha < 250:
            problems.append(f"the {side} strip is (partly) transparent (mean alpha {alpha:.0f})")
            continue
        rgb = strip.convert("RGB")
        mean = ImageStat.Stat(rgb).mean
        off = max(abs(m - t) for m, t in zip(mean, want_rgb, strict=True))
        shown = "#" + "".join(f"{round(m):02X}" for m in mean)
        far = _share_far(rgb, want_rgb)
        if off > COLOR_TOLERANCE or far > STRAY_SHARE:
            problems.append(f"the {side} strip is {shown} ({far:.0%} of it off), not {color}")
    if problems:
        return fail(f"{path}: {'; '.join(problems)}")
    # the whole picture against the original on the grown canvas: a JPEG's 8x8 blocks then fall where they fall in
    # the file, so the measure's allowance for its compression is the right one
    grown = expected_picture({**original, "edits": [*edits, {"op": "image.extend_canvas", "color": color, **grow}]})
    result = _content(image, grown, "the original picture inside the new border", path)
    if not result.passed:
        return result
    return ok(f"{path}: {pixels} px of {color} added on {where}, the original unchanged inside: {result.evidence}")


def _share_far(rgb: Image.Image, want: tuple[int, int, int]) -> float:
    """The share of `rgb`'s pixels more than 3 * COLOR_TOLERANCE from `want` in some channel."""
    bands = rgb.split()
    far = Image.new("L", rgb.size, 0)
    for band, target in zip(bands, want, strict=True):
        off = band.point(lambda v, t=target: 255 if abs(v - t) > 3 * COLOR_TOLERANCE else 0)
        far = Image.composite(off, far, off)
    histogram = far.histogram()
    return histogram[255] / max(1, sum(histogram))
