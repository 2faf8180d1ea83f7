"""Indexed-colour ops as Pillow lines (`preparers.ops.image_indexed`)."""

from __future__ import annotations

from preparers.teach import snippet


@snippet("image.indexed")
def indexed(img: str, path: str, colors: int) -> str:
    return "\n".join([f"{img} = {img}.convert('RGB').quantize({colors}, dither=Image.Dither.NONE)  # indexed mode",
                      f"{img}_changed = True"])


@snippet("image.export_gif")
def export_gif(img: str, path: str, dest: str) -> str:
    return "\n".join([f"{img}.save({dest!r}, 'GIF')",
                      f"{img}_changed = False  # Export As leaves the original file as it is"])
