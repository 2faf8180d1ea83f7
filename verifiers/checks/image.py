"""Image checks (`image.*`): size, real format, colour mode, resolution and content of pictures GIMP saved.

Content is compared at full resolution against the exact expected picture. A check's `expected` argument is a
*recipe* (`recipe()`), not pixels: the picture spec `preparers.image.render` draws, how the asset was encoded,
and the edit ops (`preparers.ops.image`) the task asks for. `expected_picture(recipe)` (`verifiers.readers.image`)
redraws the asset, decodes it as the student's machine does and applies the edits: the expected picture, pixel for
pixel, with no megabytes of reference in task.json. How far a result may be from it, and why, is the measure's
(`verifiers.checks.image_measure`: `match`).
"""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageChops, ImageStat

from preparers.image import flatten
from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.checks.image_measure import match, size_text
from verifiers.meaning import Meaning, ReadBack, Said
from verifiers.readers.image import decode, expected_picture, load

EXACT_OPS = ("image.crop", "image.flip", "image.rotate", "image.set_dpi", "image.convert_format", "image.flatten")
_FORMAT_NAMES = {"JPEG": "JPEG", "PNG": "PNG", "BMP": "BMP", "WEBP": "WebP", "TIFF": "TIFF", "GIF": "GIF"}
_TURNS = {("90", "clockwise"): Image.Transpose.ROTATE_270, ("90", "counter-clockwise"): Image.Transpose.ROTATE_90,
          ("180", ""): Image.Transpose.ROTATE_180}
_FLIPS = {"horizontal": Image.Transpose.FLIP_LEFT_RIGHT, "vertical": Image.Transpose.FLIP_TOP_BOTTOM}


# --- full-resolution references ----------------------------------------------------------------------

def _content(image: Image.Image, expected: tuple[str, Image.Image], what: str, path: str, *, gray: bool = False,
             tone: bool = False, exact: bool = False) -> Result:
    """`expected`: (exact description, picture), from `expected_picture`."""
    passed, measure = match(image, expected[1], gray=gray, tone=tone, exact=exact, key=expected[0])
    return ok(f"{path} shows {what}: {measure}") if passed else fail(f"{path} does not show {what}: {measure}")


# --- primitives -----------------------------------------------------------------------------------

@primitive("image.file_exists", meaning=Meaning(action=r"save|export|convert|creat|make|copy"))
def file_exists(state: State, path: str) -> Result:
    """The file exists and is a readable image."""
    image = load(state, path)
    return ok(f"{path} is a readable {image.format} image, {size_text(image)}")


@primitive("image.format_is", meaning=Meaning(action=r"PNG|JPE?G|WEBP|TIFF|BMP|GIF|convert|export|save"))
def format_is(state: State, path: str, format: str) -> Result:
    """The file's real format (from its bytes, not its name) is `format` (a Pillow name: PNG, JPEG, WEBP...)."""
    image = load(state, path)
    if image.format != format:
        return fail(f"{path} is really a {image.format} file, not {_FORMAT_NAMES.get(format, format)}")
    return ok(f"{path} is a {_FORMAT_NAMES.get(format, format)} file")


@primitive("image.size_equals", grounded=("path", "width", "height"),
           meaning=Meaning(action=r"resiz|scal|size|width|height|pixel|shrink|enlarge"))
def size_equals(state: State, path: str, width: int, height: int) -> Result:
    """The picture is exactly `width` x `height` pixels (the size the instruction states)."""
    image = load(state, path)
    if image.size != (width, height):
        return fail(f"{path} is {size_text(image)}, not {width}x{height}")
    return ok(f"{path} is {width}x{height}")


@primitive("image.size_unchanged",
           meaning=Meaning(action=None, why="guards the picture's size where the goal keeps it"))
def size_unchanged(state: State, path: str, width: int, height: int) -> Result:
    """The picture still has its original size `width` x `height`."""
    image = load(state, path)
    if image.size != (width, height):
        return fail(f"{path} is {size_text(image)}; it should have kept its original {width}x{height}")
    return ok(f"{path} kept its original size {width}x{height}")


@primitive("image.scaled_by", grounded=("path", "percent"),
           meaning=Meaning(action=r"resiz|scal|size|percent|%|shrink|enlarge"))
def scaled_by(state: State, path: str, width: int, height: int, percent: int) -> Result:
    """The picture is its original `width` x `height` scaled by `percent` (each side within 1 px)."""
    image = load(state, path)
    want = (width * percent / 100, height * percent / 100)
    if abs(image.width - want[0]) > 1 or abs(image.height - want[1]) > 1:
        return fail(f"{path} is {size_text(image)}; {percent}% of {width}x{height} is {want[0]:g}x{want[1]:g}")
    return ok(f"{path} is {size_text(image)}, {percent}% of {width}x{height}")


@primitive("image.side_equals", grounded=("path", "side", "pixels"),
           meaning=Meaning(action=r"resiz|scal|size|width|height", args={"side": Said("side")}))
def side_equals(state: State, path: str, side: str, pixels: int) -> Result:
    """The picture's `side` ("width" or "height") is exactly `pixels`."""
    image = load(state, path)
    got = {"width": image.width, "height": image.height}.get(side)
    if got is None:
        return fail(f"side {side!r} must be 'width' or 'height'")
    if got != pixels:
        return fail(f"{path} has {side} {got} px, not {pixels} px")
    return ok(f"{path} has {side} {pixels} px")


@primitive("image.aspect_preserved",
           meaning=Meaning(action=None, why="a property the goal keeps (the resize or resolution check names it)"))
def aspect_preserved(state: State, path: str, width: int, height: int) -> Result:
    """The picture keeps the aspect ratio of the original `width` x `height` (derived side within 1 px)."""
    image = load(state, path)
    off = min(abs(image.height - image.width * height / width), abs(image.width - image.height * width / height))
    if off > 1:
        return fail(f"{path} is {size_text(image)}: the {width}x{height} aspect ratio is off by {off:.1f} px")
    return ok(f"{path} is {size_text(image)}, same aspect ratio as {width}x{height}")


@primitive("image.mode_is",
           meaning=Meaning(action=None,
                           why="the colour mode the goal leaves; the transform's own check names the goal"))
def mode_is(state: State, path: str, modes: list[str]) -> Result:
    """The picture's colour mode is one of `modes` (Pillow names: L, LA, RGB, RGBA)."""
    image = load(state, path)
    if image.mode not in modes:
        return fail(f"{path} has colour mode {image.mode}, expected one of {modes}")
    return ok(f"{path} has colour mode {image.mode}")


@primitive("image.grayscale", meaning=Meaning(action=r"gr[ae]y|black and white|black-and-white|monochrome|desaturat"))
def grayscale(state: State, path: str) -> Result:
    """Every pixel is grey: a grey mode, or red, green and blue within 10 of each other (99.5 % of pixels)."""
    image = load(state, path)
    if image.mode in ("1", "L", "LA", "I", "I;16", "F"):
        return ok(f"{path} is stored in grey mode {image.mode}")
    r, g, b = flatten(image).convert("RGB").split()
    spread = ImageChops.subtract(ImageChops.lighter(ImageChops.lighter(r, g), b),
                                 ImageChops.darker(ImageChops.darker(r, g), b))
    coloured = sum(spread.histogram()[11:]) / (image.width * image.height)
    if coloured > 0.005:
        return fail(f"{path} is not grayscale: {coloured:.1%} of its pixels are coloured")
    return ok(f"{path} has only grey pixels (mode {image.mode})")


@primitive("image.content_matches",
           meaning=Meaning(action=None, why="what the picture shows after the goal, whose own check names it"))
def content_matches(state: State, path: str, expected: dict[str, Any], what: str, gray: bool = False,
                    tone: bool = False) -> Result:
    """The picture shows the `expected` picture (a `recipe()`; `what` describes it) at full resolution; `gray`
    compares grey levels only, `tone` allows any tone curve (brightness, grey weighting)."""
    return _content(load(state, path), expected_picture(expected), what, path, gray=gray, tone=tone,
                    exact=_exact(expected))


def _exact(reference: dict[str, Any]) -> bool:
    """Is every edit of a `recipe()` an exact pixel operation (`EXACT_OPS`)?"""
    return all(isinstance(e, dict) and e.get("op") in EXACT_OPS for e in reference.get("edits", []))


@primitive("image.is_rotated", grounded=("path", "degrees", "direction"),
           meaning=Meaning(action=r"rotat|turn",
                           args={"degrees": ReadBack("'90°', '180 degrees', 'a quarter turn'"),
                                 "direction": Said("rotation")}))
def is_rotated(state: State, path: str, original: dict[str, Any], degrees: int, direction: str) -> Result:
    """The picture is the `original` (a `recipe()`) turned by `degrees` in `direction` (sides swapped for 90)."""
    turn = _TURNS.get((str(degrees), direction))
    if turn is None:
        return fail(f"unknown rotation {degrees} {direction!r}")
    image = load(state, path)
    w, h = expected_picture(original)[1].size
    want = (h, w) if degrees == 90 else (w, h)
    if image.size != want:
        return fail(f"{path} is {size_text(image)}; turning the {w}x{h} original by {degrees} gives "
                    f"{want[0]}x{want[1]}")
    return _content(image, expected_picture(original, ("transpose", turn)),
                    f"the original rotated {degrees} degrees {direction}".rstrip(),
                    path, exact=_exact(original))


@primitive("image.is_flipped", grounded=("path", "axis"),
           meaning=Meaning(action=r"flip|mirror", args={"axis": Said("axis")}))
def is_flipped(state: State, path: str, original: dict[str, Any], axis: str) -> Result:
    """The picture is the `original` (a `recipe()`) mirrored along `axis` ("horizontal": left-right,
    "vertical": top-bottom)."""
    if axis not in _FLIPS:
        return fail(f"unknown flip axis {axis!r}")
    image = load(state, path)
    source = expected_picture(original)[1]
    if image.size != source.size:
        return fail(f"{path} is {size_text(image)}; a flipped picture keeps the original {size_text(source)}")
    return _content(image, expected_picture(original, ("transpose", _FLIPS[axis])), f"the original flipped {axis}ly",
                    path, exact=_exact(original))


@primitive("image.cropped_to", grounded=("path", "box"),
           meaning=Meaning(action=r"crop|trim",
                           args={"box": ReadBack("'x = 90, y = 20', '610 pixels wide', 'a 40-pixel border'")}))
def cropped_to(state: State, path: str, box: list[int], original: dict[str, Any]) -> Result:
    """The picture is the `original`'s (a `recipe()`) region `box` = [left, top, right, bottom]: that exact size,
    those pixels."""
    image = load(state, path)
    want = (box[2] - box[0], box[3] - box[1])
    if image.size != want:
        return fail(f"{path} is {size_text(image)}; the crop box {box} is {want[0]}x{want[1]}")
    return _content(image, expected_picture(original, ("crop", (box[0], box[1], box[2], box[3]))),
                    f"the original's region {box}", path, exact=_exact(original))


@primitive("image.dpi_is", grounded=("path", "dpi"), meaning=Meaning(action=r"dpi|resolution|pixels per inch|ppi"))
def dpi_is(state: State, path: str, dpi: int) -> Result:
    """The saved print resolution is `dpi` pixels per inch (within 0.5; PNG stores pixels per metre)."""
    image = load(state, path)
    got = image.info.get("dpi")
    if not got:
        return fail(f"{path} stores no print resolution")
    if abs(float(got[0]) - dpi) > 0.5 or abs(float(got[1]) - dpi) > 0.5:
        return fail(f"{path} has {float(got[0]):g}x{float(got[1]):g} ppi, not {dpi}")
    return ok(f"{path} has {dpi} ppi")


@primitive("image.print_width", grounded=("path", "inches"),
           meaning=Meaning(action=r"print|inch|dpi|resolution",
                           args={"inches": Said("unit", lambda v: "in" if isinstance(v, int | float) else None)}))
def print_width(state: State, path: str, inches: float) -> Result:
    """At its saved resolution the picture prints `inches` wide (within 0.02 in)."""
    image = load(state, path)
    got = image.info.get("dpi")
    if not got or float(got[0]) <= 0:
        return fail(f"{path} stores no print resolution, so it has no print width")
    width = image.width / float(got[0])
    if abs(width - inches) > 0.02:
        return fail(f"{path} prints {width:.2f} in wide ({image.width} px at {float(got[0]):g} ppi), not {inches:g} in")
    return ok(f"{path} prints {inches:g} in wide")


def _cores(mask: dict[str, Any], size: tuple[int, int]) -> tuple[list[int], list[int]]:
    """Indices of thumbnail pixels wholly background (mask 255) and wholly foreground (mask 0)."""
    pixels = list(decode(mask).tobytes())
    return [i for i, v in enumerate(pixels) if v == 255], [i for i, v in enumerate(pixels) if v == 0]


def _mean(values: list[int], idx: list[int]) -> float:
    return sum(values[i] for i in idx) / max(1, len(idx))


@primitive("image.transparent_background", meaning=Meaning(action=r"transparen|background|alpha"))
def transparent_background(state: State, path: str, mask: dict[str, Any]) -> Result:
    """The background (`mask`: 255 = background) is transparent while the foreground stays opaque."""
    image = load(state, path)
    if "A" not in image.mode and "transparency" not in image.info:
        return fail(f"{path} has no alpha channel (mode {image.mode}), so nothing in it is transparent")
    size = (int(mask["width"]), int(mask["height"]))
    alpha = list(image.convert("RGBA").getchannel("A").resize(size, Image.Resampling.BOX).tobytes())
    back, fore = _cores(mask, size)
    bg, fg = _mean(alpha, back), _mean(alpha, fore)
    evidence = f"mean alpha {bg:.0f} on the background (at most 32) and {fg:.0f} on the foreground (at least 200)"
    return ok(f"{path}: {evidence}") if bg <= 32 and fg >= 200 else fail(f"{path}: {evidence}")


@primitive("image.background_color", grounded=("path", "color"),
           meaning=Meaning(action=r"transparen|background|colou?r"))
def background_color(state: State, path: str, mask: dict[str, Any], color: str) -> Result:
    """The background (`mask`: 255 = background) is opaque and of colour `color` ("#RRGGBB", within 8)."""
    image = load(state, path)
    size = (int(mask["width"]), int(mask["height"]))
    bands = image.convert("RGBA").resize(size, Image.Resampling.BOX).split()
    back, _ = _cores(mask, size)
    alpha = _mean(list(bands[3].tobytes()), back)
    if alpha < 250:
        return fail(f"{path}: the background is still (partly) transparent, mean alpha {alpha:.0f}")
    want = (int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16))
    got = [_mean(list(band.tobytes()), back) for band in bands[:3]]
    off = max(abs(g - w) for g, w in zip(got, want, strict=True))
    shown = "#" + "".join(f"{round(g):02X}" for g in got)
    if off > 8:
        return fail(f"{path}: the background is {shown}, not {color}")
    return ok(f"{path}: the background is {color} and opaque")


@primitive("image.brightness_changed", grounded=("path", "direction", "min_percent", "max_percent"),
           meaning=Meaning(action=r"bright|dark", args={"direction": Said("brightness")}))
def brightness_changed(state: State, path: str, baseline: float, direction: str, min_percent: int,
                       max_percent: int) -> Result:
    """Mean brightness (0..255) moved from `baseline` in `direction` ("brighter"/"darker") by min..max percent."""
    image = load(state, path)
    mean = ImageStat.Stat(flatten(image).convert("L")).mean[0]
    change = (mean - baseline) / baseline * 100 * (1 if direction == "brighter" else -1)
    where = f"mean brightness {baseline:.1f} -> {mean:.1f}"
    if not min_percent <= change <= max_percent:
        return fail(f"{path}: {where}, {change:+.1f}% {direction}; wanted {min_percent}-{max_percent}% {direction}")
    return ok(f"{path}: {where}, {change:.1f}% {direction}")
