"""Indexed-colour ops on pictures (document kind "image", `preparers.ops.image`): GIMP's Image > Mode > Indexed,
and exporting the picture as a GIF (which `image.convert_format` does not write)."""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image

from preparers.image import flatten
from preparers.ops import op, resolve
from preparers.ops.image import Picture


@op("image.indexed")
def indexed(picture: Picture, colors: int) -> None:
    """Convert to a palette picture of at most `colors` colours (median cut, no dithering), as GIMP's "Generate
    optimum palette" does; a picture with no more colours than that keeps every colour exactly."""
    if not 2 <= colors <= 256:
        raise ValueError(f"{colors=}, but an indexed picture has 2 to 256 colours")
    picture.replace(flatten(picture.image).convert("RGB").quantize(colors, dither=Image.Dither.NONE))


@dataclass
class GifExport:
    """A picture exported as GIF: the same interface as `preparers.ops.image.Export` (`data()`)."""

    image: Image.Image

    def data(self) -> bytes:
        out = io.BytesIO()
        image = self.image if self.image.mode == "P" else flatten(self.image).convert("RGB")
        image.save(out, "GIF")
        return out.getvalue()


@op("image.export_gif")
def export_gif(picture: Picture, dest: str) -> None:
    """Export the current picture to `dest` as GIF (an RGB picture gets GIF's own 256-colour palette); the source
    file is not rewritten for the edits made so far (GIMP's Export As leaves it alone)."""
    picture.exports.append((resolve(picture.root, dest), GifExport(picture.image)))  # type: ignore[arg-type]
    picture.dirty = False
