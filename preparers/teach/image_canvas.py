"""Canvas size as Pillow lines (`preparers.ops.image_canvas`): a new, larger picture with the old one pasted in."""

from __future__ import annotations

from preparers.teach import snippet


@snippet("image.extend_canvas")
def extend_canvas(img: str, path: str, color: str, left: int = 0, top: int = 0, right: int = 0,
                  bottom: int = 0) -> str:
    size = f"({img}.width + {left + right}, {img}.height + {top + bottom})"
    if color == "transparent":
        lines = [f"{img}_canvas = Image.new('RGBA', {size}, (0, 0, 0, 0))",
                 f"{img}_canvas.paste({img}.convert('RGBA'), ({left}, {top}))"]
    else:
        rgb = (int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16))
        lines = [f"{img}_mode = {img}.mode if {img}.mode in ('RGB', 'RGBA') else 'RGB'",
                 f"{img}_fill = {rgb!r} + ((255,) if {img}_mode == 'RGBA' else ())  # {color}",
                 f"{img}_canvas = Image.new({img}_mode, {size}, {img}_fill)",
                 f"{img}_canvas.paste({img}.convert({img}_mode), ({left}, {top}))  # the picture, where it was"]
    return "\n".join([*lines, f"{img} = {img}_canvas", f"{img}_changed = True"])
