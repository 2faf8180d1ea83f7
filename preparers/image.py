"""Deterministic pictures for the GIMP families: photo-like scenes and flat diagrams, and their encodings.

`render(spec)` draws one picture from a JSON-able spec `{"kind", "palette", "layout_seed", "width", "height"}`
(product shots also take `"object"`: "mug" or "bottle");
every random choice comes from `random.Random(layout_seed)`, so a spec always gives the same pixels.
Photo kinds (landscape, cityscape, beach, product) get gradients and a light film grain; flat kinds
(diagram, chart, document, logo) sit on pure white (255, 255, 255) that no drawn shape uses, so the
background is exactly `background_mask()` — the transparency families rely on that. Every scene places its
main features off-centre and has a top/bottom difference, so rotations and flips are clearly visible.

`encode(image, fmt, dpi)` is the one way pictures become bytes (assets and the ops' saves): fixed encoder
settings, no timestamps, no EXIF/ICC metadata, so the same image always gives the same bytes.
"""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from kit import parsecache

RGB = tuple[int, int, int]
PHOTO_KINDS = ("landscape", "cityscape", "beach", "product")
FLAT_KINDS = ("diagram", "chart", "document", "logo")
KINDS = PHOTO_KINDS + FLAT_KINDS
WHITE: RGB = (255, 255, 255)

#: palette -> (sky top, sky bottom, accent, ground, detail, dark); all darker than white.
PALETTES: dict[str, tuple[RGB, ...]] = {
    "sunset": ((46, 38, 96), (244, 150, 82), (250, 204, 72), (86, 60, 48), (196, 82, 62), (32, 24, 40)),
    "morning": ((96, 156, 222), (208, 226, 240), (252, 226, 120), (92, 140, 70), (58, 110, 160), (30, 46, 36)),
    "overcast": ((120, 130, 142), (190, 196, 200), (220, 214, 190), (98, 110, 92), (80, 92, 104), (40, 44, 48)),
    "night": ((10, 16, 44), (52, 62, 112), (236, 232, 190), (30, 30, 38), (246, 196, 90), (6, 8, 16)),
    "autumn": ((112, 150, 196), (226, 214, 184), (214, 120, 40), (124, 84, 40), (170, 50, 36), (52, 34, 20)),
    "tropical": ((40, 130, 210), (150, 216, 236), (250, 180, 60), (226, 198, 140), (16, 150, 140), (20, 60, 70)),
    "corporate": ((28, 64, 120), (90, 140, 200), (232, 120, 36), (70, 80, 96), (46, 150, 110), (26, 32, 44)),
    "pastel": ((150, 130, 200), (236, 200, 214), (120, 190, 170), (170, 140, 190), (230, 140, 120), (70, 60, 90)),
}
PALETTE_NAMES = tuple(PALETTES)

#: fmt name (file extension family) -> Pillow format
FORMATS = {"png": "PNG", "jpg": "JPEG", "bmp": "BMP", "webp": "WEBP", "tiff": "TIFF"}
EXTENSIONS = {"png": ".png", "jpg": ".jpg", "bmp": ".bmp", "webp": ".webp", "tiff": ".tif"}
_BY_EXTENSION = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG", ".bmp": "BMP", ".webp": "WEBP", ".tif": "TIFF",
                 ".tiff": "TIFF"}


_SAVE_PARAMS: dict[str, dict[str, Any]] = {
    "PNG": {"compress_level": 3, "optimize": False},
    "JPEG": {"quality": 90, "optimize": False, "progressive": False, "subsampling": 2},
    "WEBP": {"quality": 90, "method": 4, "lossless": False, "exact": True},
    "TIFF": {"compression": "tiff_lzw"},
    "BMP": {},
}


def format_for(path: str) -> str | None:
    """The Pillow format a file name implies (by extension), or None for an unknown extension."""
    dot = path.rfind(".")
    return _BY_EXTENSION.get(path[dot:].lower()) if dot >= 0 else None


def encode(image: Image.Image, fmt: str, dpi: float | None = None, *, png_level: int | None = None) -> bytes:
    """`image` as bytes in Pillow format `fmt` (PNG, JPEG, BMP, WEBP, TIFF) with fixed settings. `png_level`: another
    zlib level for PNG, for bytes no package keeps (the same picture decodes from any level; 0 and 1 are fast)."""
    if fmt not in FORMATS.values():
        raise ValueError(f"{fmt=}, but must be one of {sorted(FORMATS.values())}")
    if fmt in ("JPEG", "BMP") and image.mode in ("RGBA", "LA", "P", "PA"):
        image = flatten(image)
    params: dict[str, Any] = dict(_SAVE_PARAMS[fmt])
    if png_level is not None and fmt == "PNG":
        params["compress_level"] = png_level
    if dpi is not None and fmt != "WEBP":
        params["dpi"] = (dpi, dpi)
    out = io.BytesIO()
    image.save(out, fmt, **params)
    return out.getvalue()


#: Modes a PNG stores exactly as they are (8 bits a channel, no palette): reading the file gives the same picture.
_PNG_EXACT = ("RGB", "RGBA", "L")


def png_as_read(image: Image.Image, dpi: tuple[float, float] | None, text: dict[str, str] | None = None
                ) -> Image.Image | None:
    """The picture Pillow reads back from `image` saved as PNG at resolution `dpi` with Latin-1 `text` chunks (and
    nothing else: no profile), made without encoding it; None when that is not known exactly. An RGB, RGBA or grey
    picture without a transparency key, colour profile or animation comes back pixel for pixel, format PNG, its
    `.info` holding only the resolution its pHYs chunk kept (whole dots per metre) and the text. Encoding and
    decoding a 1080x720 PNG costs ~65 ms even at zlib level 0; a copy ~1 ms (tests/preparers/test_image.py
    compares the two)."""
    if image.mode not in _PNG_EXACT or {"icc_profile", "transparency", "default_image"} & set(image.info):
        return None
    if text and not all(key.isascii() and key.isprintable() and 0 < len(key) < 80 and value.isascii()
                        and value.isprintable() for key, value in text.items()):
        return None
    picture = image.copy()
    picture.format = "PNG"
    picture.info = {"dpi": (int(dpi[0] / 0.0254 + 0.5) * 0.0254, int(dpi[1] / 0.0254 + 0.5) * 0.0254)} if dpi else {}
    picture.info.update(text or {})
    return picture


#: the biggest picture `decoded` keeps decoded (pixels: 16 MB as RGBA)
DECODED_MAX_PIXELS = 4_000_000


def decoded(data: bytes) -> Image.Image:
    """The picture Pillow decodes from `data` (its first frame), with the file's format and `.info`: the caller's
    own copy, which it may change. A task's controls decode the same file again and again (each near-miss opens
    the initial picture, each check of each control reads it, every control that exports the same scaled picture
    writes the same bytes): the last few stay decoded (`kit.parsecache.copied`). A file that does not decode
    raises as `Image.open` does."""
    return parsecache.copied(data, "picture", lambda raw: decode_picture(io.BytesIO(raw)), _copy_picture,
                             keep=lambda image: image.width * image.height <= DECODED_MAX_PIXELS)


def decode_picture(source: Path | IO[bytes]) -> Image.Image:
    """The picture Pillow decodes from a file or a stream (its first frame), with the file's format and `.info`."""
    with Image.open(source) as opened:
        opened.load()
        return _copy_picture(opened)


def _copy_picture(image: Image.Image) -> Image.Image:
    """A copy that keeps the format too (`Image.copy` copies the pixels and `.info`, not the format)."""
    copy = image.copy()
    copy.format = image.format
    return copy


def flatten(image: Image.Image, background: RGB = WHITE) -> Image.Image:
    """`image` composited over a solid background: RGB, or L for grey images."""
    if image.mode in ("P", "PA"):
        image = image.convert("RGBA")
    if image.mode not in ("RGBA", "LA"):
        return image.convert("L" if image.mode in ("1", "L", "I", "I;16", "F") else "RGB")
    base = Image.new(image.mode, image.size, (*background, 255) if image.mode == "RGBA" else (background[0], 255))
    return Image.alpha_composite(base, image).convert(image.mode[:-1])


# --- drawing helpers ------------------------------------------------------------------------------

def _mix(a: RGB, b: RGB, t: float) -> RGB:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def _shade(c: RGB, f: float) -> RGB:
    return _mix(c, (0, 0, 0), 1 - f) if f <= 1 else _mix(c, (250, 250, 250), min(f - 1, 0.9))


def _gradient(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], top: RGB, bottom: RGB) -> None:
    x0, y0, x1, y1 = box
    span = max(1, y1 - y0 - 1)
    for y in range(y0, y1):
        draw.line([(x0, y), (x1 - 1, y)], fill=_mix(top, bottom, (y - y0) / span))


def _text_bars(draw: ImageDraw.ImageDraw, rng: random.Random, x: int, y: int, width: int, lines: int,
               height: int, color: RGB) -> None:
    """Rows of word-like bars standing in for text (left aligned, ragged right)."""
    for row in range(lines):
        cx, limit = x, x + int(width * rng.uniform(0.55, 1.0))
        while cx < limit:
            word = int(height * rng.uniform(1.5, 5.0))
            draw.rectangle([cx, y + row * height * 2, min(cx + word, limit), y + row * height * 2 + height],
                           fill=color)
            cx += word + max(2, height // 2)


def _side_light(image: Image.Image, rng: random.Random) -> Image.Image:
    """Light falling from one side, as in most photos: full brightness there, dimmer across the frame."""
    far = rng.randint(120, 165)
    ramp = Image.linear_gradient("L").rotate(90 if rng.random() < 0.5 else -90).point(
        lambda v: 255 - (255 - far) * v // 255).resize(image.size)
    return ImageChops.multiply(image, Image.merge("RGB", (ramp, ramp, ramp)))


def _grain(image: Image.Image, rng: random.Random, amount: float) -> Image.Image:
    w, h = max(1, image.width // 2), max(1, image.height // 2)
    noise = Image.frombytes("L", (w, h), rng.randbytes(w * h)).resize(image.size, Image.Resampling.BILINEAR)
    grainy = Image.blend(image, Image.merge("RGB", (noise, noise, noise)), amount)
    return grainy.filter(ImageFilter.GaussianBlur(0.7))


# --- photo-like scenes ----------------------------------------------------------------------------

def _sky(draw: ImageDraw.ImageDraw, rng: random.Random, w: int, h: int, p: tuple[RGB, ...]) -> tuple[int, int]:
    """Sky gradient down to the horizon plus a sun/moon off-centre; returns (horizon y, sun side sign)."""
    horizon = int(h * rng.uniform(0.45, 0.62))
    _gradient(draw, (0, 0, w, horizon), p[0], p[1])
    side = rng.choice((-1, 1))
    cx = int(w * (0.5 + side * rng.uniform(0.22, 0.36)))
    cy = int(horizon * rng.uniform(0.25, 0.6))
    r = int(min(w, h) * rng.uniform(0.06, 0.1))
    draw.ellipse([cx - r * 1.6, cy - r * 1.6, cx + r * 1.6, cy + r * 1.6], fill=_mix(p[2], p[1], 0.55))
    draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=p[2])
    return horizon, side


def _landscape(draw: ImageDraw.ImageDraw, rng: random.Random, w: int, h: int, p: tuple[RGB, ...]) -> None:
    horizon, side = _sky(draw, rng, w, h, p)
    for layer in range(3):
        shade = _mix(p[4], p[3], layer / 2.5)
        base = horizon + layer * h // 30
        points: list[tuple[float, float]] = [(0, base)]
        for i in range(rng.randint(3, 6) + 1):
            x = w * (i + rng.uniform(0.2, 0.8)) / 6
            lift = rng.uniform(0.08, 0.3) * h * (1.25 if (x < w / 2) == (side < 0) else 0.8)
            points.append((x, base - lift))
        points += [(w, base), (w, h), (0, h)]
        draw.polygon(points, fill=shade)
    _gradient(draw, (0, horizon + h // 12, w, h), p[3], _shade(p[3], 0.55))
    for _ in range(rng.randint(5, 11)):
        x = int(w * (0.5 - side * rng.uniform(0.05, 0.48)))
        y = int(rng.uniform(horizon + h * 0.12, h * 0.95))
        size = int(h * rng.uniform(0.05, 0.11) * (y / h))
        draw.rectangle([x - size // 8, y, x + size // 8, y + size // 2], fill=p[5])
        draw.polygon([(x - size // 2, y + size // 8), (x, y - size * 1.4), (x + size // 2, y + size // 8)],
                     fill=_shade(p[3], 0.45))


def _cityscape(draw: ImageDraw.ImageDraw, rng: random.Random, w: int, h: int, p: tuple[RGB, ...]) -> None:
    horizon, side = _sky(draw, rng, w, h, p)
    street = int(h * rng.uniform(0.8, 0.88))
    x = 0
    while x < w:
        bw = int(w * rng.uniform(0.05, 0.12))
        tall = 1.4 if (x < w / 2) == (side > 0) else 0.8
        top = int(street - h * rng.uniform(0.18, 0.45) * tall)
        body = _mix(p[5], p[4], rng.uniform(0.05, 0.35))
        draw.rectangle([x, max(top, h // 20), x + bw, street], fill=body)
        for wy in range(max(top, h // 20) + 8, street - 10, 14):
            for wx in range(x + 5, x + bw - 8, 11):
                if rng.random() < 0.45:
                    draw.rectangle([wx, wy, wx + 5, wy + 7], fill=_mix(p[2], p[4], rng.uniform(0, 0.4)))
        x += bw + rng.randint(0, 6)
    _gradient(draw, (0, street, w, h), _shade(p[5], 1.5), p[5])
    for i in range(0, w, w // 9):
        draw.rectangle([i, (street + h) // 2, i + w // 20, (street + h) // 2 + 4], fill=p[2])


def _beach(draw: ImageDraw.ImageDraw, rng: random.Random, w: int, h: int, p: tuple[RGB, ...]) -> None:
    horizon, side = _sky(draw, rng, w, h, p)
    shore = int(horizon + (h - horizon) * rng.uniform(0.45, 0.6))
    _gradient(draw, (0, horizon, w, shore), _mix(p[4], p[0], 0.3), p[4])
    for y in range(horizon + 6, shore, 9):
        x0 = rng.randint(0, w // 2)
        draw.line([(x0, y), (x0 + rng.randint(w // 10, w // 3), y)], fill=_shade(p[4], 1.35), width=2)
    sand = _mix(p[3], (222, 196, 146), 0.65)
    _gradient(draw, (0, shore, w, h), sand, _shade(sand, 0.8))
    bx = int(w * (0.5 + side * rng.uniform(0.15, 0.35)))
    by = int(horizon + (shore - horizon) * 0.4)
    s = int(h * rng.uniform(0.06, 0.1))
    draw.polygon([(bx - s, by), (bx + s, by), (bx + s * 0.7, by + s // 3), (bx - s * 0.7, by + s // 3)], fill=p[5])
    draw.polygon([(bx, by - int(s * 1.6)), (bx, by - 2), (bx + s * 0.8, by - 2)], fill=(250, 248, 236))
    ux = int(w * (0.5 - side * rng.uniform(0.15, 0.3)))
    uy = int(shore + (h - shore) * 0.6)
    r = int(h * rng.uniform(0.1, 0.14))
    draw.line([(ux, uy - r), (ux + r // 5, uy + r // 2)], fill=p[5], width=max(2, r // 14))
    draw.pieslice([ux - r, uy - int(r * 1.7), ux + r, uy - r // 3], 180, 360, fill=p[2])


def _product(draw: ImageDraw.ImageDraw, rng: random.Random, w: int, h: int, p: tuple[RGB, ...],
             obj: str = "") -> None:
    floor = int(h * rng.uniform(0.62, 0.72))
    _gradient(draw, (0, 0, w, floor), _shade(p[1], 1.2), p[1])
    _gradient(draw, (0, floor, w, h), _shade(p[1], 0.85), _shade(p[1], 0.6))
    cx = int(w * (0.5 + rng.choice((-1, 1)) * rng.uniform(0.12, 0.22)))
    s = int(min(w, h) * rng.uniform(0.14, 0.2))
    draw.ellipse([cx - s * 1.3, floor - s // 6, cx + s * 1.5, floor + s // 4], fill=_shade(p[1], 0.45))
    body = p[rng.choice((2, 4))]
    if (obj or rng.choice(("mug", "bottle"))) == "mug":
        draw.ellipse([cx + s * 0.55, floor - s * 1.5, cx + s * 1.25, floor - s * 0.6], fill=_shade(body, 0.7))
        draw.ellipse([cx + s * 0.72, floor - s * 1.3, cx + s * 1.08, floor - s * 0.8], fill=p[1])
        draw.rounded_rectangle([cx - s * 0.8, floor - s * 1.9, cx + s * 0.8, floor], radius=s // 6, fill=body)
        draw.rectangle([cx - s * 0.8, floor - s * 1.3, cx + s * 0.8, floor - s * 0.9], fill=p[5])
    else:  # a bottle
        draw.rectangle([cx - s * 0.18, floor - s * 3.2, cx + s * 0.18, floor - s * 2.3], fill=p[5])
        draw.rounded_rectangle([cx - s * 0.55, floor - s * 2.5, cx + s * 0.55, floor], radius=s // 4, fill=body)
        draw.rectangle([cx - s * 0.55, floor - s * 1.6, cx + s * 0.55, floor - s * 0.8], fill=_shade(p[2], 1.4))
        _text_bars(draw, rng, int(cx - s * 0.4), int(floor - s * 1.45), int(s * 0.8), 3, max(3, s // 12), p[5])
    draw.rectangle([w // 30, h // 24, w // 30 + w // 6, h // 24 + h // 40], fill=_shade(p[5], 1.2))


# --- flat pictures on white -----------------------------------------------------------------------

def _arrow(draw: ImageDraw.ImageDraw, a: tuple[int, int], b: tuple[int, int], color: RGB, width: int) -> None:
    draw.line([a, b], fill=color, width=width)
    (ax, ay), (bx, by) = a, b
    dx, dy = bx - ax, by - ay
    n = max(1.0, (dx * dx + dy * dy) ** 0.5)
    ux, uy, head = dx / n, dy / n, width * 4
    draw.polygon([(bx, by), (bx - ux * head - uy * head / 2, by - uy * head + ux * head / 2),
                  (bx - ux * head + uy * head / 2, by - uy * head - ux * head / 2)], fill=color)


def _diagram(draw: ImageDraw.ImageDraw, rng: random.Random, w: int, h: int, p: tuple[RGB, ...]) -> None:
    _text_bars(draw, rng, w // 20, h // 20, w // 3, 1, max(6, h // 40), p[5])
    cols, rows = rng.randint(2, 4), rng.randint(2, 3)
    bw, bh = int(w * 0.7 / cols / 1.3), int(h * 0.6 / rows / 1.6)
    centers = []
    for r in range(rows):
        for c in range(cols - (r % 2 if rng.random() < 0.6 else 0)):
            x = int(w * 0.08 + c * (w * 0.86 / cols) + r * w * 0.03)
            y = int(h * 0.2 + r * (h * 0.75 / rows))
            color = p[rng.choice((0, 2, 4))]
            draw.rounded_rectangle([x, y, x + bw, y + bh], radius=max(4, bh // 6), fill=_shade(color, 1.5),
                                   outline=color, width=3)
            _text_bars(draw, rng, x + bw // 10, y + bh // 4, int(bw * 0.75), 2, max(4, bh // 9), p[5])
            centers.append((x, y))
    for (x0, y0), (x1, y1) in zip(centers, centers[1:], strict=False):
        start = (x0 + bw, y0 + bh // 2) if y0 == y1 else (x0 + bw // 2, y0 + bh)
        end = (x1, y1 + bh // 2) if y0 == y1 else (x1 + bw // 2, y1)
        _arrow(draw, start, end, p[5], max(2, w // 400))


def _chart(draw: ImageDraw.ImageDraw, rng: random.Random, w: int, h: int, p: tuple[RGB, ...]) -> None:
    _text_bars(draw, rng, w // 16, h // 24, w // 3, 1, max(6, h // 36), p[5])
    left, bottom, top, right = w // 9, int(h * 0.88), int(h * 0.18), int(w * 0.78)
    for y in range(top, bottom, max(20, (bottom - top) // 6)):
        draw.line([(left, y), (right, y)], fill=(222, 224, 228), width=1)
    n = rng.randint(5, 10)
    slot = (right - left) / n
    series = [p[0], p[2], p[4]][: rng.randint(1, 3)]
    for i in range(n):
        for s, color in enumerate(series):
            bh = int((bottom - top) * rng.uniform(0.15, 0.95))
            x = int(left + i * slot + slot * 0.15 + s * slot * 0.7 / len(series))
            draw.rectangle([x, bottom - bh, x + int(slot * 0.65 / len(series)), bottom], fill=color)
    draw.line([(left, top - 10), (left, bottom), (right, bottom)], fill=p[5], width=3)
    for s, color in enumerate(series):
        y = int(h * 0.25) + s * h // 14
        draw.rectangle([int(w * 0.82), y, int(w * 0.82) + h // 30, y + h // 30], fill=color)
        _text_bars(draw, rng, int(w * 0.82) + h // 22, y + 2, w // 10, 1, max(4, h // 60), p[5])


def _document(draw: ImageDraw.ImageDraw, rng: random.Random, w: int, h: int, p: tuple[RGB, ...]) -> None:
    m = w // 12
    draw.rectangle([0, 0, w // 40, h], fill=p[0])
    draw.rectangle([m, m, m + w // 4, m + h // 14], fill=p[0])
    _text_bars(draw, rng, w // 2, m, w // 3, 3, max(4, h // 120), p[5])
    y = m + h // 8
    for _ in range(rng.randint(3, 5)):
        lines = rng.randint(2, 6)
        _text_bars(draw, rng, m, y, w - 2 * m, lines, max(4, h // 110), _shade(p[5], 1.3))
        y += lines * max(4, h // 110) * 2 + h // 30
    if y < h * 0.75:
        rows = rng.randint(3, 6)
        for r in range(rows + 1):
            draw.line([(m, y + r * h // 30), (w - m, y + r * h // 30)], fill=p[4], width=2)
        y += rows * h // 30 + h // 20
    draw.ellipse([w - m - w // 6, h - m - w // 6, w - m, h - m], outline=p[2], width=max(3, w // 150))


def _logo(draw: ImageDraw.ImageDraw, rng: random.Random, w: int, h: int, p: tuple[RGB, ...]) -> None:
    s = min(w, h)
    cx, cy = int(w * rng.uniform(0.36, 0.44)), int(h * rng.uniform(0.36, 0.44))
    r = int(s * rng.uniform(0.24, 0.3))
    draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=p[0])
    draw.pieslice([cx - r, cy - r, cx + r, cy + r], rng.randint(200, 260), rng.randint(330, 380), fill=p[2])
    leaf = int(r * 0.7)
    draw.polygon([(cx + r * 0.6, cy + r * 0.2), (cx + r * 0.6 + leaf, cy - leaf // 2), (cx + r, cy + r * 0.9)],
                 fill=p[4])
    draw.rectangle([cx - r // 5, cy - r // 2, cx + r // 5, cy + r // 2], fill=p[5])
    _text_bars(draw, rng, int(w * 0.12), int(h * 0.8), int(w * 0.6), 2, max(5, s // 40), p[5])


_SCENES: dict[str, Callable[[ImageDraw.ImageDraw, random.Random, int, int, tuple[RGB, ...]], None]] = {
    "landscape": _landscape, "cityscape": _cityscape, "beach": _beach, "product": _product,
    "diagram": _diagram, "chart": _chart, "document": _document, "logo": _logo,
}


#: the keys of a spec that `render` reads
SPEC_KEYS = ("kind", "palette", "layout_seed", "width", "height", "object")


def render(spec: dict[str, Any]) -> Image.Image:
    """Draw the picture a spec describes (RGB); same spec, same pixels."""
    kind, palette = spec["kind"], spec["palette"]
    if kind not in _SCENES:
        raise ValueError(f"{kind=}, but must be one of {list(_SCENES)}")
    if palette not in PALETTES:
        raise ValueError(f"{palette=}, but must be one of {list(PALETTES)}")
    w, h = int(spec["width"]), int(spec["height"])
    rng = random.Random(int(spec["layout_seed"]))
    image = Image.new("RGB", (w, h), WHITE)
    draw = ImageDraw.Draw(image)
    if kind == "product":
        _product(draw, rng, w, h, PALETTES[palette], spec.get("object", ""))
    else:
        _SCENES[kind](draw, rng, w, h, PALETTES[palette])
    if kind in PHOTO_KINDS:
        image = _grain(_side_light(image, rng), rng, 0.05)
    return image


def background_mask(image: Image.Image) -> Image.Image:
    """Mode "L" mask: 255 where a flat picture shows its pure white background, 0 elsewhere."""
    r, g, b = image.convert("RGB").split()
    white = [r.point(lambda v: 255 if v == 255 else 0), g.point(lambda v: 255 if v == 255 else 0),
             b.point(lambda v: 255 if v == 255 else 0)]
    mask = white[0]
    for band in white[1:]:
        mask = Image.composite(band, Image.new("L", image.size, 0), mask)
    return mask


def with_background(image: Image.Image, color: RGB) -> Image.Image:
    """RGB copy of a flat picture whose pure white background (`background_mask`) is painted `color`."""
    return Image.composite(Image.new("RGB", image.size, color), image.convert("RGB"), background_mask(image))


def with_transparent_background(image: Image.Image, hidden: RGB = (0, 0, 0)) -> Image.Image:
    """RGBA copy of a flat picture whose white background is fully transparent (alpha 0).

    The transparent pixels store `hidden` (black by default, as many exporters write), so dropping the alpha
    channel instead of flattening shows that colour rather than white."""
    mask = background_mask(image)
    rgba = Image.composite(Image.new("RGB", image.size, hidden), image.convert("RGB"), mask).convert("RGBA")
    rgba.putalpha(mask.point(lambda v: 0 if v else 255))
    return rgba
