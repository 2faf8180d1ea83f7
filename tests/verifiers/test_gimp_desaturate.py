"""Too strict? GIMP's Colors > Desaturate modes (Luminance, Luma, Lightness, Average) are grayscale conversions a
user may pick instead of Image > Mode > Grayscale; each keeps the picture RGB with equal channels and weights the
channels its own way. Built here with Pillow on the real oracle state of gimp.grayscale, each must pass the rubric;
a half desaturation must not."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from tests.verifiers.mutkit import rubric_passes, states
from workflows.gimp import grayscale


def _srgb_to_linear(c: np.ndarray) -> np.ndarray:
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def _linear_to_srgb(c: np.ndarray) -> np.ndarray:
    return np.where(c <= 0.0031308, c * 12.92, 1.055 * np.power(c, 1 / 2.4) - 0.055)


def desaturate(rgb: np.ndarray, mode: str) -> np.ndarray:
    """GIMP 2.10's Desaturate modes on 0..255 RGB (Luminance works in linear light, the others on sRGB values)."""
    x = rgb.astype(float) / 255
    if mode == "luminance":
        lin = _srgb_to_linear(x)
        grey = _linear_to_srgb(lin @ np.array([0.2126, 0.7152, 0.0722]))
    elif mode == "luma":
        grey = x @ np.array([0.2126, 0.7152, 0.0722])
    elif mode == "lightness":
        grey = (x.max(axis=2) + x.min(axis=2)) / 2
    elif mode == "average":
        grey = x.mean(axis=2)
    else:  # half: saturation halved, colour left (must fail)
        mean = x.mean(axis=2, keepdims=True)
        return np.clip((mean + (x - mean) * 0.5) * 255 + 0.5, 0, 255).astype(np.uint8)
    g = np.clip(grey * 255 + 0.5, 0, 255).astype(np.uint8)
    return np.repeat(g[:, :, None], 3, axis=2)


@pytest.mark.parametrize("fmt", ["png", "jpg"])
def test_every_gimp_desaturate_mode_passes_and_half_a_desaturation_fails(tmp_path: Path, fmt: str) -> None:
    ctx = states(grayscale.WORKFLOW, {"fmt": fmt}, tmp_path)
    path = next(c["args"]["path"] for c in ctx.task["rubric"] if c["primitive"] == "image.grayscale")
    picture = ctx.oracle / path.removeprefix("/home/user/")
    with Image.open(ctx.initial / path.removeprefix("/home/user/")) as src:
        original = np.asarray(src.convert("RGB"))
        fmt_name, info = src.format, dict(src.info)
    verdicts = {}
    for mode in ("luminance", "luma", "lightness", "average", "half"):
        out = Image.fromarray(desaturate(original, mode), "RGB")
        out.save(picture, format=fmt_name, **({"quality": 90} if fmt_name == "JPEG" else {}),
                 **({"dpi": info["dpi"]} if "dpi" in info else {}))
        verdicts[mode] = rubric_passes(ctx.task, ctx.oracle)
    assert {m: v for m, v in verdicts.items() if m != "half" and not v[0]} == {}
    assert not verdicts["half"][0], "a half desaturation keeps colour"
