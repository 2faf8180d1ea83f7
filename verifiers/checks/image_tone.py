"""Tone checks (`image.saturation_changed`, `image.contrast_changed`): a picture's colour saturation or contrast
moved from the original's by a stated range of percent.

Saturation is the mean of the HSV saturation channel (0-255) of the picture flattened onto white; contrast is the
standard deviation of its grey levels (0-255). Both are read off any editor's result the same way, so GIMP's
Hue-Saturation, Curves or Brightness-Contrast dialogs all pass when they land in the stated range. A
brightness change leaves both nearly where they were (HSV saturation does not move when every channel is scaled),
which is why they tell a saturation or contrast task from a brightness one.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from PIL import Image, ImageStat

from preparers.image import flatten
from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.meaning import Meaning, Said
from verifiers.readers.image import expected_picture, load

#: measure -> (how the evidence names it)
_NAMES = {"saturation": "mean saturation", "contrast": "contrast (grey-level spread)"}


def saturation(image: Image.Image) -> float:
    """Mean HSV saturation (0..255) of the picture flattened onto white."""
    return float(ImageStat.Stat(flatten(image).convert("RGB").convert("HSV").getchannel("S")).mean[0])


def contrast(image: Image.Image) -> float:
    """Standard deviation of the grey levels (0..255) of the picture flattened onto white."""
    return float(ImageStat.Stat(flatten(image).convert("L")).stddev[0])


def _changed(image: Image.Image, measure: str, path: str, baseline: float, direction: str, min_percent: float,
             max_percent: float) -> Result:
    if baseline <= 0 or direction not in ("more", "less") or not 0 <= min_percent < max_percent:
        return fail(f"check misconfigured: {baseline=}, {direction=}, {min_percent=}, {max_percent=}")
    value = saturation(image) if measure == "saturation" else contrast(image)
    change = (value - baseline) / baseline * 100 * (1 if direction == "more" else -1)
    where = f"{_NAMES[measure]} {baseline:.1f} -> {value:.1f}"
    if not min_percent <= change <= max_percent:
        return fail(f"{path}: {where}, {change:+.1f}% {direction}; wanted {min_percent:g}-{max_percent:g}% {direction}")
    return ok(f"{path}: {where}, {change:.1f}% {direction}")


@primitive("image.saturation_changed", grounded=("path", "direction", "min_percent", "max_percent"),
           meaning=Meaning(action=r"saturat|vivid|muted|colou?rful|colou?rs", args={"direction": Said("tone")}))
def saturation_changed(state: State, path: str, baseline: float, direction: str, min_percent: float,
                       max_percent: float) -> Result:
    """The mean HSV saturation (0..255) moved from `baseline` in `direction` ("more"/"less") by min..max percent."""
    return _changed(load(state, path), "saturation", path, baseline, direction, min_percent, max_percent)


@primitive("image.contrast_changed", grounded=("path", "direction", "min_percent", "max_percent"),
           meaning=Meaning(action=r"contrast", args={"direction": Said("tone")}))
def contrast_changed(state: State, path: str, baseline: float, direction: str, min_percent: float,
                     max_percent: float) -> Result:
    """The grey-level standard deviation (0..255) moved from `baseline` in `direction` ("more"/"less") by
    min..max percent."""
    return _changed(load(state, path), "contrast", path, baseline, direction, min_percent, max_percent)


def _chroma(image: Image.Image) -> np.ndarray:
    """Each pixel's colour minus its channel mean (the hue direction and strength), on a picture at most ~256 px."""
    flat = flatten(image).convert("RGB")
    step = max(1, max(flat.size) // 256)
    pixels = np.asarray(flat.reduce(step) if step > 1 else flat, dtype=np.float64)
    return pixels - pixels.mean(axis=2, keepdims=True)


@primitive("image.hues_kept",
           meaning=Meaning(action=None, why="guards the colours' hues where the goal changes only how strong they are"))
def hues_kept(state: State, path: str, original: dict[str, Any], min_cosine: float = 0.9) -> Result:
    """Every clearly coloured pixel keeps the hue it has in the `original` (a `recipe()`): its colour away from grey
    points the same way (mean cosine at least `min_cosine`), however much stronger or weaker it got. A saturation
    change anywhere from grey to vivid keeps hues; swapped channels or a colour cast do not."""
    image = load(state, path)
    reference = expected_picture(original)[1]
    if image.size != reference.size:
        return fail(f"{path} is {image.width}x{image.height}, the original {reference.width}x{reference.height}")
    want, got = _chroma(reference), _chroma(image)
    strength_want, strength_got = np.linalg.norm(want, axis=2), np.linalg.norm(got, axis=2)
    coloured = (strength_want > 12) & (strength_got > 6)
    if coloured.sum() < 0.02 * coloured.size:
        return ok(f"{path}: too few coloured pixels left to compare hues ({coloured.sum()} of {coloured.size})")
    cosine = float(((want * got).sum(axis=2)[coloured] / (strength_want * strength_got)[coloured]).mean())
    if cosine < min_cosine:
        return fail(f"{path}: the colours' hues changed (mean cosine {cosine:.2f} to the original's, at least "
                    f"{min_cosine:g} wanted): a colour cast or swapped channels")
    return ok(f"{path} keeps the original's hues (mean cosine {cosine:.2f})")


def _gradients(image: Image.Image) -> np.ndarray:
    """The grey picture's row and column differences, one flat array (the picture's detail, signed)."""
    grey = np.asarray(flatten(image).convert("L"), dtype=np.float32)
    return np.concatenate([np.diff(grey, axis=0).ravel(), np.diff(grey, axis=1).ravel()])


@primitive("image.detail_kept",
           meaning=Meaning(action=None, why="guards the picture's detail where the goal changes only its tones"))
def detail_kept(state: State, path: str, original: dict[str, Any], min_correlation: float = 0.6) -> Result:
    """The picture keeps the `original`'s (a `recipe()`) detail: its grey gradients (row and column differences)
    correlate with the original's by at least `min_correlation`. Tone changes (saturation, contrast, brightness,
    curves) scale gradients and keep the correlation near 1 (0.88 and up, JPEG noise included); a blur, a pixelation
    or a shift leaves it below 0.3, even on a smooth, misty scene whose thumbnails hardly change."""
    image = load(state, path)
    reference = expected_picture(original)[1]
    if image.size != reference.size:
        return fail(f"{path} is {image.width}x{image.height}, the original {reference.width}x{reference.height}")
    got, want = _gradients(image), _gradients(reference)
    if float(got.std()) == 0.0 or float(want.std()) == 0.0:
        return fail(f"{path}: the picture is flat, with no detail left to compare")
    correlation = float(np.corrcoef(got, want)[0, 1])
    if correlation < min_correlation:
        return fail(f"{path} lost the original's detail: its gradients correlate {correlation:.2f} with the "
                    f"original's (at least {min_correlation:g} wanted): blurred, pixelated or shifted")
    return ok(f"{path} keeps the original's detail (gradient correlation {correlation:.2f})")
