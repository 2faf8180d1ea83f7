"""Image ops (document kind "image"): what GIMP does to a picture, as data for oracles and near-misses.

The document is a `Picture`: the decoded image plus where it lives. Edits change `picture.image` and mark it
dirty; at the end a dirty picture is saved over its own path in the format its extension implies (as GIMP's
"Overwrite"/"Export" does). `image.convert_format` is GIMP's "Export As": it writes the current picture to
another path under the state root — resolved with `preparers.ops.resolve`, so it cannot escape — and leaves
the source file as it is on disk unless later ops change the picture again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image, ImageEnhance

from preparers.image import FORMATS, decoded, encode, flatten, format_for
from preparers.ops import document_kind, op, resolve

_RESAMPLE = {"nearest": Image.Resampling.NEAREST, "bilinear": Image.Resampling.BILINEAR,
             "bicubic": Image.Resampling.BICUBIC, "lanczos": Image.Resampling.LANCZOS}
#: clockwise degrees -> transpose
_TURNS = {90: Image.Transpose.ROTATE_270, 180: Image.Transpose.ROTATE_180, 270: Image.Transpose.ROTATE_90}
_FLIPS = {"horizontal": Image.Transpose.FLIP_LEFT_RIGHT, "vertical": Image.Transpose.FLIP_TOP_BOTTOM}
_MODES = {"grayscale": "L", "RGB": "RGB", "RGBA": "RGBA"}
#: zlib level of the PNG files the ops write. They are end states (an oracle's, a near-miss's), which no package
#: ships and every reader decodes to the same picture at any level; level 1 takes half the time of the preparers'
#: level 3 for files barely larger.
PNG_LEVEL = 1


@dataclass
class Export:
    """A picture an op exports (`image.convert_format`): encoded when its bytes are wanted, which a check reading the
    picture in memory may never do (a PNG reads back as it is, `verifiers.gate.controls`). Ops never change a picture in
    place (each edit makes a new one), so the picture kept here is the one exported."""

    image: Image.Image
    format: str
    dpi: float | None
    _data: bytes | None = None

    def data(self) -> bytes:
        if self._data is None:
            self._data = encode(self.image, self.format, self.dpi, png_level=PNG_LEVEL)
        return self._data


@dataclass
class Picture:
    """An opened picture: pixels, its real format and resolution, and the files to write on save."""

    root: Path
    host: Path
    image: Image.Image
    format: str
    dpi: float | None
    dirty: bool = False
    exports: list[tuple[Path, Export]] = field(default_factory=list)

    def replace(self, image: Image.Image) -> None:
        self.image = image
        self.dirty = True


def _load(host: Path, root: Path) -> Picture:
    if not host.is_file():
        raise FileNotFoundError(host)
    image = decoded(host.read_bytes())  # each control edits the same initial picture: decoded once, then copied
    fmt, dpi = image.format or "PNG", image.info.get("dpi")
    image.format = None  # what Image.copy() gives: the picture in memory has no file format until it is saved
    return Picture(root, host, image, fmt, float(dpi[0]) if dpi else None)


def _save(picture: Picture, host: Path) -> None:
    if picture.dirty:
        host.write_bytes(encode(picture.image, format_for(host.name) or picture.format, picture.dpi,
                                png_level=PNG_LEVEL))
    for dest, export in picture.exports:
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(export.data())


document_kind("image", load=_load, save=_save)


@op("image.resize")
def resize(picture: Picture, width: int, height: int, resample: str = "bicubic") -> None:
    """Scale to exactly `width` x `height` pixels (GIMP: Image > Scale Image)."""
    if width < 1 or height < 1:
        raise ValueError(f"{width=}, {height=}, but both must be at least 1")
    picture.replace(picture.image.resize((width, height), _RESAMPLE[resample]))


@op("image.crop")
def crop(picture: Picture, box: list[int]) -> None:
    """Keep the rectangle `box` = [left, top, right, bottom] (right/bottom exclusive)."""
    left, top, right, bottom = box
    if not (0 <= left < right <= picture.image.width and 0 <= top < bottom <= picture.image.height):
        raise ValueError(f"{box=} is not inside the {picture.image.width}x{picture.image.height} picture")
    picture.replace(picture.image.crop((left, top, right, bottom)))


@op("image.rotate")
def rotate(picture: Picture, degrees: int) -> None:
    """Rotate by `degrees` clockwise: 90, 180 or 270 (270 clockwise = 90 counter-clockwise)."""
    if degrees not in _TURNS:
        raise ValueError(f"{degrees=}, but must be one of {sorted(_TURNS)} (clockwise)")
    picture.replace(picture.image.transpose(_TURNS[degrees]))


@op("image.flip")
def flip(picture: Picture, axis: str) -> None:
    """Mirror the picture: "horizontal" swaps left and right, "vertical" swaps top and bottom."""
    picture.replace(picture.image.transpose(_FLIPS[axis]))


@op("image.convert_mode")
def convert_mode(picture: Picture, mode: str) -> None:
    """Change the colour mode: "grayscale", "RGB" (drops alpha as-is, hidden colours show) or "RGBA"."""
    source = picture.image
    if source.mode == "P":
        source = source.convert("RGBA")
    picture.replace(source.convert(_MODES[mode]))


@op("image.flatten")
def flatten_onto(picture: Picture, color: str) -> None:
    """Remove transparency by compositing onto a solid `color` ("#RRGGBB"), like GIMP's Flatten Image."""
    rgb = (int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16))
    picture.replace(flatten(picture.image, rgb))


@op("image.clear_color")
def clear_color(picture: Picture, color: str) -> None:
    """Make every pixel of exactly `color` ("#RRGGBB") fully transparent (select by colour, then delete)."""
    rgb = (int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16))
    rgba = picture.image.convert("RGBA")
    r, g, b, a = rgba.split()
    hits = [band.point(lambda v, want=want: 255 if v == want else 0) for band, want in zip((r, g, b), rgb,
                                                                                            strict=True)]
    mask = Image.new("L", rgba.size, 255)
    for band in hits:
        mask = Image.composite(band, Image.new("L", rgba.size, 0), mask)
    rgba.putalpha(Image.composite(Image.new("L", rgba.size, 0), a, mask))
    picture.replace(rgba)


@op("image.adjust")
def adjust(picture: Picture, brightness: float = 1.0, saturation: float = 1.0) -> None:
    """Multiply brightness by `brightness` (1.2 = 20 % brighter, 0.8 = 20 % darker) and colour saturation by
    `saturation` (0 = grey, 1 = unchanged)."""
    if brightness <= 0 or saturation < 0:
        raise ValueError(f"{brightness=}, {saturation=}, but brightness must be positive, saturation >= 0")
    image = picture.image
    if saturation != 1.0:
        image = ImageEnhance.Color(image).enhance(saturation)
    if brightness != 1.0:
        image = ImageEnhance.Brightness(image).enhance(brightness)
    picture.replace(image)


@op("image.set_dpi")
def set_dpi(picture: Picture, dpi: float) -> None:
    """Set the print resolution (pixels per inch) without resampling (GIMP: Image > Print Size)."""
    if dpi <= 0:
        raise ValueError(f"{dpi=}, but must be positive")
    picture.dpi = float(dpi)
    picture.dirty = True


@op("image.convert_format")
def convert_format(picture: Picture, dest: str, format: str | None = None) -> None:
    """Export the current picture to `dest` (under /home/user) in the format its extension implies, or in
    Pillow format `format` when given (a wrong format behind the right extension: a near-miss). The source
    file is not rewritten for the edits made so far (GIMP's Export As leaves it alone)."""
    fmt = format or format_for(dest)
    if fmt is None or fmt not in FORMATS.values():
        raise ValueError(f"{dest=}: no known image format for this extension; pass format= explicitly")
    picture.exports.append((resolve(picture.root, dest), Export(picture.image, fmt, picture.dpi)))
    picture.dirty = False
