"""Image checks (`image.*`): size, real format, colour mode, resolution and content of pictures GIMP saved.

GIMP's exports never match a reference byte for byte (JPEG/WebP quality, its own resampling filters, its
grayscale formula), so content is compared on small thumbnails: both pictures are flattened onto white and
box-averaged down to at most `THUMB` pixels a side. Colour references compare by mean absolute difference
(at most `MAX_DIFF` on 0..255); grey references compare by correlation (at least `MIN_CORR`), which ignores
how a converter weighted red, green and blue. Measured on the scenes of `preparers.image`: a correct result
stays under ~3 (JPEG at quality 75: ~4), a wrong rotation, flip or crop offset lands above 25.

A reference (`thumbnail()`) is plain JSON stored in the check's args: the thumbnail's size, mode and base64
pixels, plus the full size of the picture it came from. Workflows build references from the decoded asset
with the expected edit applied, so a check never needs the original file.
"""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops, ImageStat

from preparers.image import flatten
from verifiers.checks import Result, State, fail, ok, primitive

THUMB = 48
MAX_DIFF = 10.0
MIN_CORR = 0.9
_FORMAT_NAMES = {"JPEG": "JPEG", "PNG": "PNG", "BMP": "BMP", "WEBP": "WebP", "TIFF": "TIFF", "GIF": "GIF"}
_TURNS = {("90", "clockwise"): Image.Transpose.ROTATE_270, ("90", "counter-clockwise"): Image.Transpose.ROTATE_90,
          ("180", ""): Image.Transpose.ROTATE_180}
_FLIPS = {"horizontal": Image.Transpose.FLIP_LEFT_RIGHT, "vertical": Image.Transpose.FLIP_TOP_BOTTOM}


def _load(host: Path) -> Image.Image:
    with Image.open(host) as opened:
        opened.load()
        image = opened.copy()
        image.format = opened.format
        image.info = dict(opened.info)
    return image


def _picture(state: State, path: str) -> Image.Image:
    return state.read(path, _load, "image")


# --- references -----------------------------------------------------------------------------------

def thumbnail(image: Image.Image, *, gray: bool = False) -> dict[str, Any]:
    """A JSON reference for `image`: flattened onto white, box-averaged to at most THUMB px a side."""
    small = _shrink(image, _thumb_size(image.size), gray)
    return {"width": small.width, "height": small.height, "mode": small.mode, "size": list(image.size),
            "data": base64.b64encode(small.tobytes()).decode("ascii")}


def _thumb_size(size: tuple[int, int]) -> tuple[int, int]:
    scale = THUMB / max(size)
    return max(1, round(size[0] * scale)), max(1, round(size[1] * scale))


def _shrink(image: Image.Image, size: tuple[int, int], gray: bool) -> Image.Image:
    flat = flatten(image).convert("L" if gray else "RGB")
    return flat.resize(size, Image.Resampling.BOX)


def decode(reference: dict[str, Any]) -> Image.Image:
    size = (int(reference["width"]), int(reference["height"]))
    return Image.frombytes(reference["mode"], size, base64.b64decode(reference["data"]))


def score(image: Image.Image, reference: Image.Image) -> tuple[str, float]:
    """How alike `image` and a reference thumbnail are: ("difference", mean abs diff) for colour references,
    ("correlation", Pearson r) for grey ones."""
    gray = reference.mode == "L"
    small = _shrink(image, reference.size, gray)
    if not gray:
        return "difference", sum(ImageStat.Stat(ImageChops.difference(small, reference)).mean) / 3
    a, b = small.tobytes(), reference.tobytes()
    ma, mb = sum(a) / len(a), sum(b) / len(b)
    cov = sum((x - ma) * (y - mb) for x, y in zip(a, b, strict=True))
    var = (sum((x - ma) ** 2 for x in a) * sum((y - mb) ** 2 for y in b)) ** 0.5
    return "correlation", cov / var if var else (1.0 if a == b else 0.0)


def compare(image: Image.Image, reference: Image.Image) -> tuple[bool, str]:
    """Does `image` show what the reference thumbnail shows? (passed, the measure as evidence)."""
    metric, value = score(image, reference)
    if metric == "difference":
        return value <= MAX_DIFF, f"mean pixel difference {value:.1f} (at most {MAX_DIFF:g} allowed)"
    return value >= MIN_CORR, f"correlation {value:.2f} with the expected content (at least {MIN_CORR:g} needed)"


def _content(image: Image.Image, reference: Image.Image, what: str, path: str) -> Result:
    passed, measure = compare(image, reference)
    return ok(f"{path} shows {what}: {measure}") if passed else fail(f"{path} does not show {what}: {measure}")


def _size(image: Image.Image) -> str:
    return f"{image.width}x{image.height}"


# --- primitives -----------------------------------------------------------------------------------

@primitive("image.file_exists")
def file_exists(state: State, path: str) -> Result:
    """The file exists and is a readable image."""
    image = _picture(state, path)
    return ok(f"{path} is a readable {image.format} image, {_size(image)}")


@primitive("image.format_is")
def format_is(state: State, path: str, format: str) -> Result:
    """The file's real format (from its bytes, not its name) is `format` (a Pillow name: PNG, JPEG, WEBP...)."""
    image = _picture(state, path)
    if image.format != format:
        return fail(f"{path} is really a {image.format} file, not {_FORMAT_NAMES.get(format, format)}")
    return ok(f"{path} is a {_FORMAT_NAMES.get(format, format)} file")


@primitive("image.size_equals", grounded=("path", "width", "height"))
def size_equals(state: State, path: str, width: int, height: int) -> Result:
    """The picture is exactly `width` x `height` pixels (the size the instruction states)."""
    image = _picture(state, path)
    if image.size != (width, height):
        return fail(f"{path} is {_size(image)}, not {width}x{height}")
    return ok(f"{path} is {width}x{height}")


@primitive("image.size_unchanged")
def size_unchanged(state: State, path: str, width: int, height: int) -> Result:
    """The picture still has its original size `width` x `height`."""
    image = _picture(state, path)
    if image.size != (width, height):
        return fail(f"{path} is {_size(image)}; it should have kept its original {width}x{height}")
    return ok(f"{path} kept its original size {width}x{height}")


@primitive("image.scaled_by", grounded=("path", "percent"))
def scaled_by(state: State, path: str, width: int, height: int, percent: int) -> Result:
    """The picture is its original `width` x `height` scaled by `percent` (each side within 1 px)."""
    image = _picture(state, path)
    want = (width * percent / 100, height * percent / 100)
    if abs(image.width - want[0]) > 1 or abs(image.height - want[1]) > 1:
        return fail(f"{path} is {_size(image)}; {percent}% of {width}x{height} is {want[0]:g}x{want[1]:g}")
    return ok(f"{path} is {_size(image)}, {percent}% of {width}x{height}")


@primitive("image.side_equals", grounded=("path", "side", "pixels"))
def side_equals(state: State, path: str, side: str, pixels: int) -> Result:
    """The picture's `side` ("width" or "height") is exactly `pixels`."""
    image = _picture(state, path)
    got = {"width": image.width, "height": image.height}.get(side)
    if got is None:
        return fail(f"side {side!r} must be 'width' or 'height'")
    if got != pixels:
        return fail(f"{path} has {side} {got} px, not {pixels} px")
    return ok(f"{path} has {side} {pixels} px")


@primitive("image.aspect_preserved")
def aspect_preserved(state: State, path: str, width: int, height: int) -> Result:
    """The picture keeps the aspect ratio of the original `width` x `height` (derived side within 1 px)."""
    image = _picture(state, path)
    off = min(abs(image.height - image.width * height / width), abs(image.width - image.height * width / height))
    if off > 1:
        return fail(f"{path} is {_size(image)}: the {width}x{height} aspect ratio is off by {off:.1f} px")
    return ok(f"{path} is {_size(image)}, same aspect ratio as {width}x{height}")


@primitive("image.mode_is")
def mode_is(state: State, path: str, modes: list[str]) -> Result:
    """The picture's colour mode is one of `modes` (Pillow names: L, LA, RGB, RGBA)."""
    image = _picture(state, path)
    if image.mode not in modes:
        return fail(f"{path} has colour mode {image.mode}, expected one of {modes}")
    return ok(f"{path} has colour mode {image.mode}")


@primitive("image.grayscale")
def grayscale(state: State, path: str) -> Result:
    """Every pixel is grey: a grey mode, or red, green and blue within 10 of each other (99.5 % of pixels)."""
    image = _picture(state, path)
    if image.mode in ("1", "L", "LA", "I", "I;16", "F"):
        return ok(f"{path} is stored in grey mode {image.mode}")
    r, g, b = flatten(image).convert("RGB").split()
    spread = ImageChops.subtract(ImageChops.lighter(ImageChops.lighter(r, g), b),
                                 ImageChops.darker(ImageChops.darker(r, g), b))
    coloured = sum(spread.histogram()[11:]) / (image.width * image.height)
    if coloured > 0.005:
        return fail(f"{path} is not grayscale: {coloured:.1%} of its pixels are coloured")
    return ok(f"{path} has only grey pixels (mode {image.mode})")


@primitive("image.content_matches")
def content_matches(state: State, path: str, reference: dict[str, Any], what: str) -> Result:
    """The picture shows the reference content (`what` describes it), whatever its exact size."""
    return _content(_picture(state, path), decode(reference), what, path)


@primitive("image.is_rotated", grounded=("path", "degrees", "direction"))
def is_rotated(state: State, path: str, original: dict[str, Any], degrees: int, direction: str) -> Result:
    """The picture is the original turned by `degrees` in `direction` (sides swapped for 90)."""
    turn = _TURNS.get((str(degrees), direction))
    if turn is None:
        return fail(f"unknown rotation {degrees} {direction!r}")
    image = _picture(state, path)
    w, h = original["size"]
    want = (h, w) if degrees == 90 else (w, h)
    if image.size != want:
        return fail(f"{path} is {_size(image)}; turning the {w}x{h} original by {degrees} gives {want[0]}x{want[1]}")
    expected = decode(original).transpose(turn)
    return _content(image, expected, f"the original rotated {degrees} degrees {direction}".rstrip(), path)


@primitive("image.is_flipped", grounded=("path", "axis"))
def is_flipped(state: State, path: str, original: dict[str, Any], axis: str) -> Result:
    """The picture is the original mirrored along `axis` ("horizontal": left-right, "vertical": top-bottom)."""
    if axis not in _FLIPS:
        return fail(f"unknown flip axis {axis!r}")
    image = _picture(state, path)
    w, h = original["size"]
    if image.size != (w, h):
        return fail(f"{path} is {_size(image)}; a flipped picture keeps the original {w}x{h}")
    return _content(image, decode(original).transpose(_FLIPS[axis]), f"the original flipped {axis}ly", path)


@primitive("image.cropped_to")
def cropped_to(state: State, path: str, box: list[int], expected: dict[str, Any]) -> Result:
    """The picture is the original's region `box` = [left, top, right, bottom]: that exact size, that content."""
    image = _picture(state, path)
    want = (box[2] - box[0], box[3] - box[1])
    if image.size != want:
        return fail(f"{path} is {_size(image)}; the crop box {box} is {want[0]}x{want[1]}")
    return _content(image, decode(expected), f"the original's region {box}", path)


@primitive("image.dpi_is", grounded=("path", "dpi"))
def dpi_is(state: State, path: str, dpi: int) -> Result:
    """The saved print resolution is `dpi` pixels per inch (within 0.5; PNG stores pixels per metre)."""
    image = _picture(state, path)
    got = image.info.get("dpi")
    if not got:
        return fail(f"{path} stores no print resolution")
    if abs(float(got[0]) - dpi) > 0.5 or abs(float(got[1]) - dpi) > 0.5:
        return fail(f"{path} has {float(got[0]):g}x{float(got[1]):g} ppi, not {dpi}")
    return ok(f"{path} has {dpi} ppi")


@primitive("image.print_width", grounded=("path", "inches"))
def print_width(state: State, path: str, inches: float) -> Result:
    """At its saved resolution the picture prints `inches` wide (within 0.02 in)."""
    image = _picture(state, path)
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


@primitive("image.transparent_background")
def transparent_background(state: State, path: str, mask: dict[str, Any]) -> Result:
    """The background (`mask`: 255 = background) is transparent while the foreground stays opaque."""
    image = _picture(state, path)
    if "A" not in image.mode and "transparency" not in image.info:
        return fail(f"{path} has no alpha channel (mode {image.mode}), so nothing in it is transparent")
    size = (int(mask["width"]), int(mask["height"]))
    alpha = list(image.convert("RGBA").getchannel("A").resize(size, Image.Resampling.BOX).tobytes())
    back, fore = _cores(mask, size)
    bg, fg = _mean(alpha, back), _mean(alpha, fore)
    evidence = f"mean alpha {bg:.0f} on the background (at most 32) and {fg:.0f} on the foreground (at least 200)"
    return ok(f"{path}: {evidence}") if bg <= 32 and fg >= 200 else fail(f"{path}: {evidence}")


@primitive("image.background_color", grounded=("path", "color"))
def background_color(state: State, path: str, mask: dict[str, Any], color: str) -> Result:
    """The background (`mask`: 255 = background) is opaque and of colour `color` ("#RRGGBB", within 8)."""
    image = _picture(state, path)
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


@primitive("image.brightness_changed", grounded=("path", "direction", "min_percent", "max_percent"))
def brightness_changed(state: State, path: str, baseline: float, direction: str, min_percent: int,
                       max_percent: int) -> Result:
    """Mean brightness (0..255) moved from `baseline` in `direction` ("brighter"/"darker") by min..max percent."""
    image = _picture(state, path)
    mean = ImageStat.Stat(flatten(image).convert("L")).mean[0]
    change = (mean - baseline) / baseline * 100 * (1 if direction == "brighter" else -1)
    where = f"mean brightness {baseline:.1f} -> {mean:.1f}"
    if not min_percent <= change <= max_percent:
        return fail(f"{path}: {where}, {change:+.1f}% {direction}; wanted {min_percent}-{max_percent}% {direction}")
    return ok(f"{path}: {where}, {change:.1f}% {direction}")
