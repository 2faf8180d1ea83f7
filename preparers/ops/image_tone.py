"""Tone ops on pictures (document kind "image", `preparers.ops.image`): contrast, as GIMP's Brightness-Contrast
dialog changes it (saturation and brightness are `image.adjust`)."""

from __future__ import annotations

from PIL import ImageEnhance

from preparers.ops import op
from preparers.ops.image import Picture


@op("image.contrast")
def contrast(picture: Picture, factor: float) -> None:
    """Scale every grey level's distance from the picture's mean grey by `factor` (1.3 = 30 % more contrast, 0.7 =
    30 % less; clipped at black and white), keeping transparency as it is."""
    if factor <= 0:
        raise ValueError(f"{factor=}, but must be positive")
    image = picture.image
    alpha = image.getchannel("A") if image.mode in ("RGBA", "LA") else None
    base = image.convert("RGB" if image.mode in ("RGBA", "P", "RGB") else "L") if alpha is not None else image
    result = ImageEnhance.Contrast(base).enhance(factor)
    if alpha is not None:
        result = result.convert("RGBA" if image.mode == "RGBA" else "LA")
        result.putalpha(alpha)
    picture.replace(result)
