"""Tone ops as Pillow lines (`preparers.ops.image_tone`): contrast with ImageEnhance."""

from __future__ import annotations

from preparers.teach import snippet


@snippet("image.contrast")
def contrast(img: str, path: str, factor: float) -> str:
    return "\n".join(["from PIL import ImageEnhance",
                      f"{img} = ImageEnhance.Contrast({img}.convert('RGB')).enhance({factor!r})",
                      f"{img}_changed = True"])
