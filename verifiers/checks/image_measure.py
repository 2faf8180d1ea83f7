"""The image measure: how far a picture is from the expected one, for the image checks (`verifiers.checks.image`)
and the multi-app checks that compare a placed picture (`verifiers.checks.multi`). It only judges: pictures and the
expected picture a recipe describes are read by `verifiers.readers.image`.

Content is compared at full resolution against the exact expected picture (`expected_picture(recipe)`): a
reference small enough to store - a thumbnail - cannot see a 16x pixelation, a blur or a 3-pixel shift: those only
show at full resolution.

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
from verifiers.readers.image import derived

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


_LOSSY = ("JPEG", "WEBP")


# --- thumbnail references -----------------------------------------------------------------------------

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


# --- the full-resolution measure ----------------------------------------------------------------------

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
    picture comes from exact pixel operations (`image.EXACT_OPS`), so a lossless result is also held to `FINE_STEP`.
    `key`: an exact description of `expected` (`expected_picture`)."""
    same_size = image.size == expected.size
    if not same_size:
        if max(abs(image.width - expected.width), abs(image.height - expected.height)) > SIZE_SLACK:
            return False, f"it is {size_text(image)} where {size_text(expected)} is expected"
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


def size_text(image: Image.Image) -> str:
    return f"{image.width}x{image.height}"
