"""Image mutants: damage a picture the oracle wrote the way careless edits do, or re-save it harmlessly.

Damaging (no instruction asks for them): pixelate (shrink 8-16x, blow back up), blur, shift the content a few
pixels, cut a strip off one side, swap the red and blue channels, a wrong colour mode (colour lost, alpha dropped,
or grey turned to black and white), another real format behind the right extension. Neutral (what a correct
export may also produce): the same pixels re-encoded (lossless formats: re-compressed, PNG with a metadata chunk;
JPEG: the same quantisation tables, a comment; WebP: re-saved at GIMP's default quality 90).

The gate judges each mutant in memory (`Mutant.documents`): the checks get the picture decoded from the bytes the
mutant would write, without writing them or copying the state.

Only pictures the oracle created or changed are mutated: those are what the task is about. A mutant that would
not change the picture (swapping channels of a grey one) is not offered. The format mutant keeps the pixels, so
only a check of the real format can reject it; every family names its file's format, so it must.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image, ImageChops, ImageFilter, ImageStat
from PIL.PngImagePlugin import PngInfo

from kit.model import HOME
from preparers.image import decoded, flatten, format_for, png_as_read
from verifiers.mutants import Kind, Mutant, MutationContext
from verifiers.readers.image import load_picture

#: Pillow formats this module can read and re-save
_FORMATS = ("PNG", "JPEG", "WEBP", "BMP", "TIFF")
#: a per-pixel damaging mutant (channels swapped, a wrong colour mode) is offered only when it moves the picture's
#: pixels by at least this much on average (0..255): thresholding a black-on-white document or swapping the
#: channels of a grey-ish photo changes next to nothing, and a rubric cannot be blamed for accepting it
VISIBLE = 1.0
#: cap on a picture this module decodes (pixels): a bigger one is not a GIMP task's output
_MAX_PIXELS = 40_000_000


def _open(host: Path) -> Image.Image | None:
    try:
        data = host.read_bytes()
        with Image.open(io.BytesIO(data)) as opened:  # the header only: a picture this module does not decode
            if opened.format not in _FORMATS or opened.width * opened.height > _MAX_PIXELS:
                return None
        return decoded(data)  # the oracle's picture, which the checks read too
    except (OSError, ValueError, Image.DecompressionBombError):
        return None


@dataclass(frozen=True)
class _Saved:
    """A mutant's file: `image` as Pillow saves it in `fmt` with `params`, or `encoded` bytes made already."""

    image: Image.Image | None = None
    fmt: str = ""
    params: dict[str, Any] = field(default_factory=dict)
    encoded: bytes | None = None
    text: dict[str, str] = field(default_factory=dict)  # PNG text chunks

    def data(self) -> bytes:
        if self.encoded is not None:
            return self.encoded
        assert self.image is not None
        params = dict(self.params)
        if self.text:
            meta = PngInfo()
            for key, value in self.text.items():
                meta.add_text(key, value)
            params["pnginfo"] = meta
        out = io.BytesIO()
        self.image.save(out, self.fmt, **params)
        return out.getvalue()

    def picture(self) -> Image.Image:
        """The picture `load_picture` reads from `data()`; one PNG keeps exactly is not encoded (`png_as_read`)."""
        if self.image is not None and self.fmt == "PNG" and set(self.params) <= {"dpi", "compress_level"}:
            exact = png_as_read(self.image, self.params.get("dpi"), self.text)
            if exact is not None:
                return exact
        return load_picture(io.BytesIO(self.data()))


def _encode(image: Image.Image, fmt: str, dpi: tuple[float, float] | None, png_level: int,
            **params: Any) -> _Saved:
    """`image` to save as `fmt` (at its resolution `dpi`; PNG at `png_level` unless `params` say otherwise)."""
    if fmt in ("JPEG", "BMP") and image.mode not in ("RGB", "L", "1"):
        image = image.convert("RGB")
    if dpi and fmt != "WEBP":
        params["dpi"] = dpi
    if fmt == "PNG":
        params.setdefault("compress_level", png_level)
    return _Saved(image, fmt, params)


#: How a mutant makes its file: (the picture's path, the picture decoded from it, the PNG compression level) ->
#: the mutated file.
Make = Callable[[Path, Image.Image, int], _Saved]
#: PNG compression on disk: lossless at any level; the fastest level keeps a mutant's save off the gate's hot path
_DISK_PNG_LEVEL = 1
#: PNG compression of a mutant held in memory and encoded: no compression at all. Its bytes are only decoded, never
#: written, and a PNG decodes to the same pixels, mode and metadata at any level.
_MEMORY_PNG_LEVEL = 0


def _mutant(name: str, kind: Kind, ctx: MutationContext, rel: str, image: Image.Image, make: Make) -> Mutant:
    """A mutant of the picture at `rel` (`image`: the oracle's, decoded once for all its mutants). Evaluated in
    memory: the checks get the picture `load_picture` would decode from the file `make` gives; a
    check that reads the file any other way gets it written on a copy of the state (`apply`)."""
    oracle = ctx.oracle

    def apply(root: Path) -> None:
        host = root / rel
        opened = _open(host)
        assert opened is not None, f"{rel} is no longer a readable picture"
        host.write_bytes(make(host, opened, _DISK_PNG_LEVEL).data())

    def documents() -> dict[tuple[str, Any], Any]:
        source = image.copy()  # what `apply` decodes afresh; a copy, so no mutant can touch the shared one
        source.format = image.format
        return {(f"{HOME}/{rel}", load_picture): make(oracle / rel, source, _MEMORY_PNG_LEVEL).picture()}

    return Mutant(name, kind, apply, documents)


#: Pillow settings of a damaged picture in a lossy format: quality 90, and WebP at its fastest method (libwebp's
#: effort, 0-6; Pillow's default 4 took 50-85 ms a save, three times as long, and a damaging mutant's point is its
#: damage, not how hard the encoder tried)
_DAMAGED = {"JPEG": {"quality": 90}, "WEBP": {"quality": 90, "method": 0}}


def _edit(change: Callable[[Image.Image], Image.Image]) -> Make:
    """Change the picture's pixels, save it in its own format and resolution (`_DAMAGED`)."""

    def make(host: Path, image: Image.Image, png_level: int) -> _Saved:
        fmt = image.format or "PNG"
        params: dict[str, object] = dict(_DAMAGED.get(fmt, {}))
        return _encode(change(image), fmt, image.info.get("dpi"), png_level, **params)

    return make


def _visible(image: Image.Image, change: Callable[[Image.Image], Image.Image]) -> bool:
    """Does a per-pixel `change` (mode, channels) move the pixels visibly? Measured on a small copy: cheap, and
    a per-pixel change looks the same at any scale."""
    image = image.copy()
    image.thumbnail((256, 256))
    changed = change(image)
    if changed.size != image.size:
        return True
    mode = "RGB" if flatten(image).mode == "RGB" or flatten(changed).mode == "RGB" else "L"
    diff = ImageChops.difference(flatten(image).convert(mode), flatten(changed).convert(mode))
    return sum(ImageStat.Stat(diff).mean) / len(mode) >= VISIBLE


def _blur(sigma: int) -> Callable[[Image.Image], Image.Image]:
    """A blur scaled to the picture (a spread of 4 px at 384 px, 8 px at 768): a soft scene hides a small one. One
    pass of a box as wide as a Gaussian of standard deviation `sigma` (the same variance): Pillow's Gaussian is
    three box passes, 40 ms a 1200x800 picture, and the damage is the blur, not its kernel's shape."""
    box = ((12 * sigma * sigma + 1) ** 0.5 - 1) / 2  # ((2b + 1)^2 - 1) / 12 = sigma^2
    return lambda image: _filterable(image).filter(ImageFilter.BoxBlur(box))


def _filterable(image: Image.Image) -> Image.Image:
    """`image` in a mode Pillow's filters take: a palette or bilevel picture (an indexed PNG) becomes RGB(A), as
    a blur in GIMP turns an indexed image's layer into RGB first."""
    if image.mode in ("P", "1", "PA"):
        return image.convert("RGBA" if image.has_transparency_data else "RGB")
    return image


def _pixelate(factor: int) -> Callable[[Image.Image], Image.Image]:
    def change(image: Image.Image) -> Image.Image:
        small = image.resize((max(1, image.width // factor), max(1, image.height // factor)), Image.Resampling.BOX)
        return small.resize(image.size, Image.Resampling.NEAREST)

    return change


def _shift(dx: int, dy: int) -> Callable[[Image.Image], Image.Image]:
    """Move the content by (dx, dy), repeating the edge row/column into the gap (as a nudged layer shows)."""

    def change(image: Image.Image) -> Image.Image:
        out = image.copy()
        out.paste(image.crop((0, 0, image.width - dx, image.height - dy)), (dx, dy))
        if dx:
            out.paste(image.crop((0, 0, 1, image.height)).resize((dx, image.height)), (0, 0))
        if dy:
            out.paste(image.crop((0, 0, image.width, 1)).resize((image.width, dy)), (0, 0))
        return out

    return change


def _strip(side: str, pixels: int) -> Callable[[Image.Image], Image.Image]:
    def change(image: Image.Image) -> Image.Image:
        w, h = image.size
        box = {"left": (pixels, 0, w, h), "right": (0, 0, w - pixels, h), "top": (0, pixels, w, h),
               "bottom": (0, 0, w, h - pixels)}[side]
        return image.crop(box)

    return change


def _swap(image: Image.Image) -> Image.Image:
    bands = image.convert("RGBA" if "A" in image.mode else "RGB").split()
    return Image.merge("RGBA" if len(bands) == 4 else "RGB", (bands[2], bands[1], bands[0], *bands[3:]))


def _wrong_mode(image: Image.Image) -> tuple[str, Callable[[Image.Image], Image.Image]] | None:
    """The colour-mode slip that hurts this picture: alpha dropped (hidden colours show), colour lost, or grey
    levels thresholded to black and white (None for a grey picture of at most four inks)."""
    if "A" in image.mode or "transparency" in image.info:
        return "alpha_dropped", lambda im: im.convert("RGBA").convert("RGB")
    if _coloured(image):
        return "colour_lost", lambda im: im.convert("L")
    histogram = image.convert("L").histogram()
    if sum(count >= 0.005 * image.width * image.height for count in histogram) <= 4:
        return None  # two or three inks: black and white is a contrast change of them, not a loss
    return "bilevel", _bilevel


def _bilevel(image: Image.Image) -> Image.Image:
    """Grey levels thresholded to black and white at the median of the non-white pixels: it splits what the
    picture shows (a chart's bars, a photo's midtones), not just its background from the rest."""
    gray = image.convert("L")
    levels = np.asarray(gray).ravel()
    inked = levels[levels < 250]
    cut = int(np.median(inked)) if inked.size else 128
    return gray.point(lambda v: 255 if v > cut else 0)


def _coloured(image: Image.Image) -> bool:
    """Does the picture carry real colour: at least 2 % of it clearly coloured (channels 32 apart)? A muted photo
    that merely tints grey loses next to nothing when its colour goes."""
    if image.mode in ("1", "L", "LA", "I", "I;16", "F"):
        return False
    small = np.asarray(image.convert("RGB").resize((64, 64), Image.Resampling.BOX), dtype=np.int16)
    return bool((small.max(axis=2) - small.min(axis=2) > 32).mean() >= 0.02)


def _other_format(fmt: str) -> Make:
    other = "PNG" if fmt != "PNG" else "JPEG"

    def make(host: Path, image: Image.Image, png_level: int) -> _Saved:
        return _encode(image, other, image.info.get("dpi"), png_level, **({"quality": 95} if other == "JPEG" else {}))

    return make


def _resave(fmt: str) -> tuple[str, Make]:
    """A neutral re-save of the same picture: what another correct export of it could look like."""

    def make(host: Path, image: Image.Image, png_level: int) -> _Saved:
        dpi = image.info.get("dpi")
        if fmt == "PNG":  # other bytes on disk (a metadata chunk); in memory the picture they read back as
            return replace(_encode(image, fmt, dpi, png_level), text={"Software": "GIMP 2.10.34"})
        if fmt == "JPEG":
            with Image.open(host) as opened:  # same quantisation tables: the pixels barely move
                return _Saved(encoded=_encode(opened, fmt, dpi, png_level, quality="keep",
                                              comment=b"Created with GIMP").data())
        if fmt == "WEBP":
            return _encode(image, fmt, dpi, png_level, quality=90, exact=True)
        if fmt == "TIFF":
            return _encode(image, fmt, dpi, png_level, compression="tiff_deflate")
        return _encode(image, fmt, dpi, png_level)

    what = {"PNG": "recompressed_with_metadata", "JPEG": "resaved_same_tables", "WEBP": "resaved_quality_90"}
    return what.get(fmt, "resaved"), make


def mutants(ctx: MutationContext) -> list[Mutant]:
    """Damaging and neutral mutants of every picture the oracle created or changed."""
    rng = ctx.rng
    out: list[Mutant] = []
    for rel in ctx.changed():
        if format_for(rel) is None:
            continue
        image = _open(ctx.oracle / rel)
        if image is None or min(image.size) < 32:
            continue
        fmt = image.format or "PNG"
        where = f":{rel}"
        factor = rng.randint(8, 16)
        shift = rng.randint(3, 6)
        side = rng.choice(("left", "right", "top", "bottom"))
        span = image.width if side in ("left", "right") else image.height
        changes: list[tuple[str, Callable[[Image.Image], Image.Image]]] = [
                   (f"image.pixelated_x{factor}", _pixelate(factor)),
                   ("image.blurred", _blur(max(4, round(min(image.size) / 96)))),
                   (f"image.shifted_{shift}px", _shift(shift, shift // 2)),
                   (f"image.strip_cut_{side}", _strip(side, max(4, span // 25)))]
        per_pixel: list[tuple[str, Callable[[Image.Image], Image.Image]]] = []
        if _coloured(image):
            per_pixel.append(("image.channels_swapped", _swap))
        wrong_mode = _wrong_mode(image)
        if wrong_mode is not None:
            per_pixel.append((f"image.wrong_mode_{wrong_mode[0]}", wrong_mode[1]))
        changes += [(name, change) for name, change in per_pixel if _visible(image, change)]
        out += [_mutant(f"{name}{where}", "damaging", ctx, rel, image, _edit(change)) for name, change in changes]
        out.append(_mutant(f"image.wrong_format{where}", "damaging", ctx, rel, image, _other_format(fmt)))
        name, make = _resave(fmt)
        out.append(_mutant(f"image.{name}{where}", "neutral", ctx, rel, image, make))
    return out
