"""Image checks (`image.*`): size, real format, colour mode, resolution and content of pictures GIMP saved.

Content is compared at full resolution against the exact expected picture. A check's `expected` argument is a
*recipe* (`recipe()`), not pixels: the picture spec `preparers.image.render` draws, how the asset was encoded,
and the edit ops (`preparers.ops.image`) the task asks for. `expected_picture(recipe)` (`verifiers.readers.image`)
redraws the asset, decodes it as the student's machine does and applies the edits: the expected picture, pixel for
pixel, with no megabytes of reference in task.json (a reference small enough to store - a thumbnail - cannot see a
16x pixelation, a blur or a 3-pixel shift: those only show at full resolution).

The measure (`offness`): both pictures are flattened onto white and their difference is blurred a little (about
1 px, which absorbs resampling filters and JPEG ringing), then a pixel is *off* when one channel differs by more
than `STEP` (of 255; 24 let a muted photo lose its colour). The tolerance is the share of off pixels a correct
export can produce: `FLOOR` for lossless formats (decoder rounding), and for lossy ones `FLOOR` plus `SLACK`
times the share that re-encoding the expected picture itself twice at quality `LOSSY_QUALITY` produces - a bound that
knows the picture (grainy photos lose more to JPEG than flat diagrams) and the format. Measured on the scenes of
`preparers.image` (1024x768, all kinds, `STEP` 16): JPEG/WebP at quality 75 stay within the allowance; an 8x
pixelation leaves 0.8-25 %, a 3-pixel shift 0.6-11 %, a Gaussian blur of 4 px 0.5-28 %, the colour dropped
5-99 %; with `tone`, a correct 30 % brightening leaves up to 0.18 % (`TONE_FLOOR`).
`tone=True` first maps the expected picture through the per-channel tone curve (rising, at most `MAX_SLOPE`
steep) that best fits the result (brightness, curves, levels, GIMP's luminance or average grey), so only the
structure is compared; a threshold, posterisation or inversion is no such curve and fails.

Thumbnail references (`thumbnail()`, `compare()`) remain for pictures an app rescales on its own (a picture
placed on a slide, `verifiers.checks.multi`) and for telling near-misses apart cheaply.
"""

from __future__ import annotations

import base64
import hashlib
import io
from collections.abc import Sequence
from typing import Any

import numpy as np
from PIL import Image, ImageChops, ImageStat

from preparers.image import flatten
from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.meaning import Meaning, ReadBack, Said
from verifiers.readers.image import decode, derived, expected_picture, load

THUMB = 48
MAX_DIFF = 10.0
MIN_CORR = 0.9
STEP = 16
FLOOR = 0.05
#: with `tone`, a cubic follows a clipped tone curve (brightness pushed into white) only to within this share
TONE_FLOOR = 0.4
SLACK = 2.0
LOSSY_QUALITY = 75
#: a result this many pixels off the expected size per side is compared after resampling the expected picture
#: (the size checks allow 1 px for derived sides); further off, the content cannot match
SIZE_SLACK = 2
#: an exact pipeline (a crop, a mirror, a quarter turn, a format change) stored losslessly may differ from the
#: expected picture by decoder rounding only: more than `FINE_STEP` levels on more than `FINE_SHARE` % of pixels is
#: another picture (measured: a 4 px blur of a soft landscape stays under `STEP` almost everywhere, yet moves 6.8 %
#: of its pixels by more than 4 levels)
FINE_STEP = 4
FINE_SHARE = 1.0
EXACT_OPS = ("image.crop", "image.flip", "image.rotate", "image.set_dpi", "image.convert_format", "image.flatten")
_LOSSY = ("JPEG", "WEBP")
_FORMAT_NAMES = {"JPEG": "JPEG", "PNG": "PNG", "BMP": "BMP", "WEBP": "WebP", "TIFF": "TIFF", "GIF": "GIF"}
_TURNS = {("90", "clockwise"): Image.Transpose.ROTATE_270, ("90", "counter-clockwise"): Image.Transpose.ROTATE_90,
          ("180", ""): Image.Transpose.ROTATE_180}
_FLIPS = {"horizontal": Image.Transpose.FLIP_LEFT_RIGHT, "vertical": Image.Transpose.FLIP_TOP_BOTTOM}


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


# --- full-resolution references ----------------------------------------------------------------------


def _planes(expected: Image.Image, gray: bool, key: str | None) -> np.ndarray:
    """`_pixels(expected, gray)`, kept when `key` describes the picture exactly (read-only)."""
    if key is None:
        return _pixels(expected, gray)

    def make() -> np.ndarray:
        planes = _pixels(expected, gray)
        planes.flags.writeable = False
        return planes

    return derived(("planes", key, gray), make)


def _pixels(image: Image.Image, gray: bool) -> np.ndarray:
    """The picture flattened onto white as uint8 planes, shape (channels, height, width): one plane per channel
    keeps every later step on contiguous rows (a reduction over a 3-long last axis is ten times slower)."""
    return np.stack(_bands(image, gray))


def _bands(image: Image.Image, gray: bool) -> list[np.ndarray]:
    """`_pixels` as a list of (height, width) planes, from Pillow's own band split (transposing the interleaved
    pixels took 1.9 ms for 1000x800 RGB, this 1.2 ms; the measure needs no stacked copy)."""
    flat = flatten(image)
    if flat.mode != ("L" if gray else "RGB"):
        flat = flat.convert("L" if gray else "RGB")
    return [np.asarray(band) for band in flat.split()]


def _share_over(got: Sequence[np.ndarray], want: np.ndarray, step: int, *, smooth: bool) -> float:
    """Percent of pixels where some channel of `got` - `want` (planes of the same shape) is more than `step` off;
    with `smooth`, of the difference blurred first: two passes of a 3-pixel box filter along each axis (close to a
    Gaussian of about 1 px), as exact integer sums: `SMOOTHED` times the blurred values, in int16 (at most
    81 x 255 = 20,655). The blur is linear, so blurring the difference of two pictures is the difference of their
    blurs: one blur, not two; each pass sums left + middle + right with the edge pixel repeated. Integer sums are
    four times faster than float32 divided by 3 each pass, and exact: a pixel exactly `STEP` off is not over it,
    where float rounding said either. One plane at a time, start to end, while it stays in the cache (twice as fast
    as each step over all planes)."""
    shape = want.shape[1:]
    if 0 in shape:
        return float("nan")
    diff, spare = np.empty(shape, np.int16), np.empty(shape, np.int16)
    hit, over = np.zeros(shape, bool), np.empty(shape, bool)
    for plane, reference in zip(got, want, strict=True):
        np.subtract(plane, reference, out=diff, dtype=np.int16)
        if smooth:
            for _ in range(2):
                _box3(diff, spare, 0)
                _box3(spare, diff, 1)
        np.greater(diff, step, out=over)
        hit |= over
        np.less(diff, -step, out=over)
        hit |= over
    return float(np.count_nonzero(hit)) / hit.size * 100


#: what the `smooth` of `_share_over` multiplies values by: four passes of 3-pixel sums
SMOOTHED = 3 ** 4


def _box3(x: np.ndarray, out: np.ndarray, axis: int) -> None:
    """`out` = the 3-tap box sums of the C-contiguous `x` along `axis`, the edge pixel repeated past the ends.

    The middle is summed over the flat memory (neighbours along `axis` are `step` elements apart), which keeps
    every operation on contiguous memory; the positions where that reached across a row or plane - the first
    and last along `axis` - are then overwritten with their edge sums."""
    if x.shape[axis] == 1:
        np.multiply(x, 3, out=out)
        return
    step = int(np.prod(x.shape[axis + 1:]))
    flat, into = x.reshape(-1), out.reshape(-1)
    middle = into[step:into.size - step]
    np.add(flat[:flat.size - 2 * step], flat[step:flat.size - step], out=middle)
    np.add(middle, flat[2 * step:], out=middle)

    def at(start: int | None, stop: int | None) -> tuple[slice, ...]:
        return tuple(slice(start, stop) if i == axis else slice(None) for i in range(x.ndim))

    first, last = at(0, 1), at(-1, None)
    np.add(x[first], x[first], out=out[first])
    np.add(out[first], x[at(1, 2)], out=out[first])
    np.add(x[at(-2, -1)], x[last], out=out[last])
    np.add(out[last], x[last], out=out[last])


def _tone_fit(expected: np.ndarray, got: Sequence[np.ndarray], gray: bool) -> np.ndarray:
    """The planes of the expected picture (`_pixels`) mapped through the smooth tone curve (per channel, a cubic in
    the level) that best fits the picture's planes `got` (`_bands`).

    A cubic follows what brightness, curves, levels and other grey weightings do to the levels, but not a
    threshold or a posterisation: those collapse levels, which no asked-for tone change does. The curve is made
    non-decreasing over the levels in use: no asked-for tone change inverts the picture."""
    fitted = []
    for reference, plane in zip(expected, got, strict=True):
        # one joint histogram of (expected level, picture level): half the time of a count and a weighted count
        joint = np.bincount(((reference.astype(np.intp) << 8) | plane).ravel(), minlength=1 << 16).reshape(256, 256)
        count, total = joint.sum(axis=1), joint @ np.arange(256)
        used = np.nonzero(count)[0]
        means = total[used] / count[used]
        curve = _curve(used, means, np.sqrt(count[used]))
        if len(used) > 1:
            curve[used[0]:used[-1] + 1] = _non_decreasing(curve[used[0]:used[-1] + 1])
        if gray and _merges_inks(curve, count):
            fitted.append(reference)  # no tone curve merges a picture's distinct grey inks: compare as it is
            continue
        fitted.append(np.array([int(round(float(v))) for v in np.clip(curve, 0, 255)], dtype=np.uint8)[reference])
    return np.stack(fitted)


def _non_decreasing(curve: np.ndarray) -> np.ndarray:
    """The non-decreasing envelope of `curve` (the mean of its running maximum from the dark end and its running
    minimum from the light end). An asked-for tone change keeps dark darker than light; a cubic also fits an
    inverted picture (a decreasing line), which this flattens to one grey, so an inversion cannot pass."""
    return (np.maximum.accumulate(curve) + np.minimum.accumulate(curve[::-1])[::-1]) / 2


#: the steepest a tone curve may rise (output levels per input level): brightness, levels and grey weighting stay
#: well under it; a threshold jumps from black to white between two neighbouring levels
MAX_SLOPE = 3.0


def _curve(levels: np.ndarray, means: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """The output level for each of the 256 input levels: the mean output of each level in use (linear between
    them), then made a plausible tone curve - it never rises faster than `MAX_SLOPE` nor falls by more than half a
    level per level. Brightness (clipping included), levels and grey weightings pass through unchanged; a
    threshold becomes a ramp and an inversion a flat line, so the pixels they moved stay off."""
    del weights  # every level is fitted exactly; the pixel counts only matter through the means
    curve = np.interp(np.arange(256, dtype=np.float64), levels, means)
    for i in range(1, 256):
        curve[i] = min(max(curve[i], curve[i - 1] - 0.5), curve[i - 1] + MAX_SLOPE)
    return curve


def _merges_inks(curve: np.ndarray, count: np.ndarray) -> bool:
    """Does `curve` map two grey levels that each cover 0.5 % of the picture and lie 16+ apart to within 4 of each
    other? A grey conversion keeps a logo's inks apart; a threshold to black and white merges them."""
    inks = np.nonzero(count >= 0.005 * count.sum())[0]
    return any(int(b) - int(a) >= 16 and abs(float(curve[b]) - float(curve[a])) < 4
               for i, a in enumerate(inks) for b in inks[i + 1:])


def _grey_versions(expected: Image.Image, key: str | None) -> list[tuple[str | None, Image.Image]]:
    """The grey pictures GIMP's conversions make of a colour picture: Image > Mode > Grayscale and Desaturate's
    Luma (weighted sum; Pillow's "L"), Average, Lightness ((max + min) / 2) and Luminance (in linear light). No
    tone curve maps one onto another: they weight hues differently (pure blue: luma 29, lightness 128). Every
    mutant of a task is measured against the same expected picture, so they are made once per picture (`key`, its
    exact description, else the digest of its pixels), each with its own description; they are shared
    (`readers.image.derived`): a caller may not change them."""
    def rgb() -> Image.Image:
        return flatten(expected).convert("RGB")

    key = key if key is not None else _digest(rgb())
    greys = derived(("greys", key), lambda: _make_grey_versions(rgb()))
    return [(f"{key} grey {i}", grey) for i, grey in enumerate(greys)]


def _digest(image: Image.Image) -> str:
    """An exact description of a picture no recipe describes: its size, mode and the digest of its pixels."""
    return f"{image.size} {image.mode} {hashlib.sha256(image.tobytes()).hexdigest()}"


def _make_grey_versions(expected: Image.Image) -> list[Image.Image]:
    rgb = np.asarray(expected, dtype=np.float64) / 255
    lin = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4) @ np.array([0.2126, 0.7152, 0.0722])
    greys = [rgb.mean(axis=2), (rgb.max(axis=2) + rgb.min(axis=2)) / 2,
             np.where(lin <= 0.0031308, lin * 12.92, 1.055 * np.power(lin, 1 / 2.4) - 0.055)]
    return [expected.convert("L"),
            *(Image.fromarray(np.clip(g * 255 + 0.5, 0, 255).astype(np.uint8), "L") for g in greys)]


def offness(image: Image.Image, expected: Image.Image, *, gray: bool = False, tone: bool = False,
            key: str | None = None) -> float:
    """Percent of pixels visibly off the expected picture (same size): see the module doc. Grey against a colour
    picture: the closest of GIMP's grey conversions (`_grey_versions`). `key`: an exact description of `expected`
    (`expected_picture`), under which what it derives from it is kept."""
    return _offness(_bands(image, gray), expected, gray=gray, tone=tone, key=key)


def _offness(got: list[np.ndarray], expected: Image.Image, *, gray: bool, tone: bool, key: str | None) -> float:
    """`offness` of the picture whose planes are `got` (`_bands`, made once: every grey version is measured
    against them, and `match` reuses them)."""
    versions = _grey_versions(expected, key) if gray and expected.mode not in ("L", "LA", "1", "I", "F", "I;16") \
        else [(key, expected)]

    def measured(version_key: str | None, version: Image.Image) -> float:
        want = _planes(version, gray, version_key)
        if tone:
            want = _tone_fit(want, got, gray)
        return _share_over(got, want, STEP * SMOOTHED, smooth=True)

    return min(measured(version_key, version) for version_key, version in versions)


def allowance(expected: Image.Image, format: str | None, *, gray: bool = False, key: str | None = None) -> float:
    """Percent of off pixels a correct export in Pillow `format` may show: see the module doc. Every mutant of a
    task is measured against the same expected picture: kept per `key` (an exact description of `expected`), or
    else per the digest of its pixels."""
    if format not in _LOSSY:
        return FLOOR
    def flat() -> Image.Image:
        return flatten(expected).convert("L" if gray else "RGB")

    kept = ("allowance", key if key is not None else _digest(flat()), format, gray)
    return derived(kept, lambda: _lossy_allowance(flat(), format, gray))


def _lossy_allowance(flat: Image.Image, format: str, gray: bool) -> float:
    """Two generations: a correct export may be opened and saved once more (GIMP's overwrite, a re-save), and each
    lossy save moves sharp coloured edges again (measured: a flat chart re-saved as WebP at 90 leaves 0.12 %
    where one save at 75 leaves 0.01 %)."""
    again = flat
    for _ in range(2):
        with Image.open(io.BytesIO(_encode_at(again, format))) as opened:
            opened.load()
            again = opened.copy()
    return FLOOR + SLACK * offness(again, flat, gray=gray)


def _encode_at(image: Image.Image, format: str) -> bytes:
    out = io.BytesIO()
    image.save(out, format, quality=LOSSY_QUALITY)
    return out.getvalue()


def match(image: Image.Image, expected: Image.Image, *, gray: bool = False, tone: bool = False,
          exact: bool = False, key: str | None = None) -> tuple[bool, str]:
    """Does `image` show `expected` at full resolution? (passed, the measure as evidence). `exact`: the expected
    picture comes from exact pixel operations (`EXACT_OPS`), so a lossless result is also held to `FINE_STEP`.
    `key`: an exact description of `expected` (`expected_picture`)."""
    same_size = image.size == expected.size
    if not same_size:
        if max(abs(image.width - expected.width), abs(image.height - expected.height)) > SIZE_SLACK:
            return False, f"it is {_size(image)} where {_size(expected)} is expected"
        expected = expected.resize(image.size, Image.Resampling.LANCZOS)
        key = None if key is None else f"{key} resized to {image.size}"
    got = _bands(image, gray)
    off = _offness(got, expected, gray=gray, tone=tone, key=key)
    allowed = allowance(expected, image.format, gray=gray, key=key)
    if tone:
        allowed += TONE_FLOOR - FLOOR
    measure = f"{off:.2f}% of pixels differ visibly (at most {allowed:.2f}% allowed for {image.format})"
    if off > allowed:
        return False, measure
    if exact and same_size and not tone and image.format not in _LOSSY:
        fine = _share_over(got, _planes(expected, gray, key), FINE_STEP, smooth=False)
        if fine > FINE_SHARE:
            return False, (f"{fine:.2f}% of pixels differ by more than {FINE_STEP} levels (at most {FINE_SHARE:g}% "
                           f"for an exact edit saved as {image.format}): the picture was changed, e.g. blurred")
    return True, measure


def _content(image: Image.Image, expected: tuple[str, Image.Image], what: str, path: str, *, gray: bool = False,
             tone: bool = False, exact: bool = False) -> Result:
    """`expected`: (exact description, picture), from `expected_picture`."""
    passed, measure = match(image, expected[1], gray=gray, tone=tone, exact=exact, key=expected[0])
    return ok(f"{path} shows {what}: {measure}") if passed else fail(f"{path} does not show {what}: {measure}")


def _size(image: Image.Image) -> str:
    return f"{image.width}x{image.height}"


# --- primitives -----------------------------------------------------------------------------------

@primitive("image.file_exists", meaning=Meaning(action=r"save|export|convert|creat|make|copy"))
def file_exists(state: State, path: str) -> Result:
    """The file exists and is a readable image."""
    image = load(state, path)
    return ok(f"{path} is a readable {image.format} image, {_size(image)}")


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
        return fail(f"{path} is {_size(image)}, not {width}x{height}")
    return ok(f"{path} is {width}x{height}")


@primitive("image.size_unchanged",
           meaning=Meaning(action=None, why="guards the picture's size where the goal keeps it"))
def size_unchanged(state: State, path: str, width: int, height: int) -> Result:
    """The picture still has its original size `width` x `height`."""
    image = load(state, path)
    if image.size != (width, height):
        return fail(f"{path} is {_size(image)}; it should have kept its original {width}x{height}")
    return ok(f"{path} kept its original size {width}x{height}")


@primitive("image.scaled_by", grounded=("path", "percent"),
           meaning=Meaning(action=r"resiz|scal|size|percent|%|shrink|enlarge"))
def scaled_by(state: State, path: str, width: int, height: int, percent: int) -> Result:
    """The picture is its original `width` x `height` scaled by `percent` (each side within 1 px)."""
    image = load(state, path)
    want = (width * percent / 100, height * percent / 100)
    if abs(image.width - want[0]) > 1 or abs(image.height - want[1]) > 1:
        return fail(f"{path} is {_size(image)}; {percent}% of {width}x{height} is {want[0]:g}x{want[1]:g}")
    return ok(f"{path} is {_size(image)}, {percent}% of {width}x{height}")


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
        return fail(f"{path} is {_size(image)}: the {width}x{height} aspect ratio is off by {off:.1f} px")
    return ok(f"{path} is {_size(image)}, same aspect ratio as {width}x{height}")


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
        return fail(f"{path} is {_size(image)}; turning the {w}x{h} original by {degrees} gives {want[0]}x{want[1]}")
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
        return fail(f"{path} is {_size(image)}; a flipped picture keeps the original {_size(source)}")
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
        return fail(f"{path} is {_size(image)}; the crop box {box} is {want[0]}x{want[1]}")
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
