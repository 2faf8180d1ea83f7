"""Invert a picture's colours (document kind "image", `preparers.ops.image`): GIMP's Colors > Invert."""

from __future__ import annotations

from PIL import Image, ImageOps

from preparers.ops import op
from preparers.ops.image import Picture


def negative(image: Image.Image, box: tuple[int, int, int, int] | None = None) -> Image.Image:
    """`image` with every colour channel v turned into 255 - v (inside `box` only, when given), its transparency
    kept: what GIMP's Colors > Invert does to an 8-bit picture."""
    if image.mode == "P":
        image = image.convert("RGBA")
    alpha = image.getchannel("A") if image.mode in ("RGBA", "LA") else None
    base = image.convert("RGB" if image.mode == "RGBA" else "L") if alpha is not None else image
    if base.mode not in ("RGB", "L"):
        base = base.convert("RGB")
    if box is None:
        result = ImageOps.invert(base)
    else:
        result = base.copy()
        result.paste(ImageOps.invert(base.crop(box)), box[:2])
    if alpha is not None:
        result = result.convert("RGBA" if image.mode == "RGBA" else "LA")
        result.putalpha(alpha)
    return result


@op("image.invert")
def invert(picture: Picture, box: list[int] | None = None) -> None:
    """Invert every colour (255 - v per channel, alpha kept); `box` = [left, top, right, bottom] inverts only that
    rectangle (a selection left over from earlier work: a near-miss)."""
    if box is not None:
        left, top, right, bottom = box
        if not (0 <= left < right <= picture.image.width and 0 <= top < bottom <= picture.image.height):
            raise ValueError(f"{box=} is not inside the {picture.image.width}x{picture.image.height} picture")
    picture.replace(negative(picture.image, None if box is None else (box[0], box[1], box[2], box[3])))
