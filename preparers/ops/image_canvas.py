"""Canvas size (document kind "image", `preparers.ops.image`): GIMP's Image > Canvas Size with the new area filled,
or Filters > Decor > Add Border."""

from __future__ import annotations

from PIL import Image

from preparers.ops import op
from preparers.ops.image import Picture


def extended(image: Image.Image, left: int, top: int, right: int, bottom: int, color: str) -> Image.Image:
    """`image` on a canvas grown by the given pixels on each side, the new area filled with `color` ("#RRGGBB", or
    "transparent": a fully transparent fill, which makes the picture RGBA)."""
    if min(left, top, right, bottom) < 0:
        raise ValueError(f"{left=}, {top=}, {right=}, {bottom=}, but a canvas only grows here")
    size = (image.width + left + right, image.height + top + bottom)
    if color == "transparent":
        canvas = Image.new("RGBA", size, (0, 0, 0, 0))
        canvas.paste(image.convert("RGBA"), (left, top))
        return canvas
    rgb = (int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16))
    mode = image.mode if image.mode in ("RGB", "RGBA") else "RGB"
    canvas = Image.new(mode, size, (*rgb, 255) if mode == "RGBA" else rgb)
    canvas.paste(image.convert(mode), (left, top))
    return canvas


@op("image.extend_canvas")
def extend_canvas(picture: Picture, color: str, left: int = 0, top: int = 0, right: int = 0, bottom: int = 0) -> None:
    """Grow the canvas by `left`, `top`, `right`, `bottom` pixels, the picture kept where it was and the new area
    filled with `color` ("#RRGGBB" or "transparent")."""
    picture.replace(extended(picture.image, left, top, right, bottom, color))
