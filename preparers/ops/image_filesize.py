"""Export a picture as a JPEG that fits a byte budget (document kind "image", `preparers.ops.image`): GIMP's Export
As JPEG with the quality slider lowered until the file is small enough."""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image

from preparers.image import flatten
from preparers.ops import op, resolve
from preparers.ops.image import Picture


def jpeg_bytes(image: Image.Image, quality: int) -> bytes:
    out = io.BytesIO()
    flatten(image).convert("RGB").save(out, "JPEG", quality=quality)
    return out.getvalue()


def best_quality(image: Image.Image, max_bytes: int) -> int:
    """The highest JPEG quality (95 down to 5) whose file fits `max_bytes`; 5 when none does."""
    for quality in range(95, 4, -1):
        if len(jpeg_bytes(image, quality)) <= max_bytes:
            return quality
    return 5


@dataclass
class JpegExport:
    """A picture exported as JPEG at a quality: the interface of `preparers.ops.image.Export` (`data()`)."""

    image: Image.Image
    quality: int

    def data(self) -> bytes:
        return jpeg_bytes(self.image, self.quality)


@op("image.export_jpeg_within")
def export_jpeg_within(picture: Picture, dest: str, max_bytes: int, quality: int | None = None) -> None:
    """Export the current picture to `dest` as a JPEG of at most `max_bytes`: the highest quality that fits, or
    exactly `quality` when given (a near-miss's slider). The source file is left as it is (Export As)."""
    chosen = quality if quality is not None else best_quality(picture.image, max_bytes)
    picture.exports.append((resolve(picture.root, dest), JpegExport(picture.image, chosen)))  # type: ignore[arg-type]
    picture.dirty = False
