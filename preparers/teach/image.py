"""Picture ops as Pillow lines (one heredoc opens each picture once; it is saved over itself only when changed).

What GIMP keeps, a Pillow script must carry by hand: the file's print resolution (Pillow writes a resolution only
when `save` is given one: the open line keeps it in `<img>_save`, the options the picture is saved with) and the
JPEG/WebP quality (GIMP's export dialog default, 90). "Export As" (`image.convert_format`) saves the
current picture to another file and leaves the source alone; a later edit marks it changed again.
"""

from __future__ import annotations

from preparers.teach import Language, language, snippet

language(Language(
    "image", imports="from PIL import Image",
    open=("VAR = Image.open(PATH)\n"
          "VAR_save = {'dpi': VAR.info['dpi']} if 'dpi' in VAR.info else {}  # keep the print resolution\n"
          "if VAR.format in ('JPEG', 'WEBP'):\n"
          "    VAR_save['quality'] = 90  # GIMP's export quality\n"
          "VAR_changed = False"),
    save="if VAR_changed:\n    VAR.save(PATH, **VAR_save)",
    var="img",
    peek=("from PIL import Image\n"
          "VAR = Image.open(PATH)\n"
          "print(PATH, VAR.format, VAR.mode, VAR.size, 'dpi:', VAR.info.get('dpi'))")))

_RESAMPLE = {"nearest": "NEAREST", "bilinear": "BILINEAR", "bicubic": "BICUBIC", "lanczos": "LANCZOS"}
#: clockwise degrees -> Pillow's transpose (Pillow's ROTATE_* turn counter-clockwise)
_TURNS = {90: "ROTATE_270", 180: "ROTATE_180", 270: "ROTATE_90"}
_FLIPS = {"horizontal": "FLIP_LEFT_RIGHT", "vertical": "FLIP_TOP_BOTTOM"}
_MODES = {"grayscale": "L", "RGB": "RGB", "RGBA": "RGBA"}


def _rgb(color: str) -> tuple[int, int, int]:
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


def _changed(img: str, line: str) -> str:
    return f"{img} = {line}\n{img}_changed = True"


@snippet("image.resize")
def resize(img: str, path: str, width: int, height: int, resample: str = "bicubic") -> str:
    return _changed(img, f"{img}.resize(({width}, {height}), Image.Resampling.{_RESAMPLE[resample]})")


@snippet("image.crop")
def crop(img: str, path: str, box: list[int]) -> str:
    left, top, right, bottom = box
    return _changed(img, f"{img}.crop(({left}, {top}, {right}, {bottom}))  # left, top, right, bottom")


@snippet("image.rotate")
def rotate(img: str, path: str, degrees: int) -> str:
    return _changed(img, f"{img}.transpose(Image.Transpose.{_TURNS[degrees]})  # {degrees} degrees clockwise")


@snippet("image.flip")
def flip(img: str, path: str, axis: str) -> str:
    return _changed(img, f"{img}.transpose(Image.Transpose.{_FLIPS[axis]})")


@snippet("image.convert_mode")
def convert_mode(img: str, path: str, mode: str) -> str:
    return "\n".join([f"if {img}.mode == 'P':  # a palette picture: its transparency first",
                      f"    {img} = {img}.convert('RGBA')",
                      _changed(img, f"{img}.convert({_MODES[mode]!r})")])


def _flatten(img: str, rgb: tuple[int, int, int], indent: str = "") -> str:
    r, g, b = rgb
    lines = [f"if {img}.mode in ('P', 'PA'):",
             f"    {img} = {img}.convert('RGBA')",
             f"if {img}.mode == 'RGBA':",
             f"    {img} = Image.alpha_composite(Image.new('RGBA', {img}.size, ({r}, {g}, {b}, 255)), {img})"
             ".convert('RGB')",
             f"elif {img}.mode == 'LA':",
             f"    {img} = Image.alpha_composite(Image.new('LA', {img}.size, ({r}, 255)), {img}).convert('L')",
             f"elif {img}.mode not in ('RGB', 'L'):",
             f"    {img} = {img}.convert('RGB')"]
    return "\n".join(indent + line for line in lines)


@snippet("image.flatten")
def flatten(img: str, path: str, color: str) -> str:
    return f"{_flatten(img, _rgb(color))}\n{img}_changed = True"


@snippet("image.clear_color")
def clear_color(img: str, path: str, color: str) -> str:
    r, g, b = _rgb(color)
    return "\n".join([
        f"{img} = {img}.convert('RGBA')",
        f"px = {img}.load()",
        f"for y in range({img}.height):",
        f"    for x in range({img}.width):",
        f"        if px[x, y][:3] == ({r}, {g}, {b}):",
        f"            px[x, y] = ({r}, {g}, {b}, 0)",
        f"{img}_changed = True"])


@snippet("image.adjust")
def adjust(img: str, path: str, brightness: float = 1.0, saturation: float = 1.0) -> str:
    lines = ["from PIL import ImageEnhance"]
    if saturation != 1.0:
        lines.append(f"{img} = ImageEnhance.Color({img}).enhance({saturation!r})")
    if brightness != 1.0:
        lines.append(f"{img} = ImageEnhance.Brightness({img}).enhance({brightness!r})")
    lines.append(f"{img}_changed = True")
    return "\n".join(lines)


@snippet("image.set_dpi")
def set_dpi(img: str, path: str, dpi: float) -> str:
    value = int(dpi) if float(dpi).is_integer() else float(dpi)
    return f"{img}_save['dpi'] = ({value}, {value})  # print size changes, pixels stay\n{img}_changed = True"


@snippet("image.convert_format")
def convert_format(img: str, path: str, dest: str, format: str | None = None) -> str:  # noqa: A002 - the op's
    suffix = dest.rsplit(".", 1)[-1].lower() if "." in dest.rsplit("/", 1)[-1] else ""
    target = format or {"jpg": "JPEG", "jpeg": "JPEG", "bmp": "BMP"}.get(suffix)
    folder = dest.rsplit("/", 1)[0]
    lines = [] if folder == path.rsplit("/", 1)[0] else ["import os", f"os.makedirs({folder!r}, exist_ok=True)"]
    out = img
    if target in ("JPEG", "BMP"):  # no transparency there: flatten a copy onto white
        out = "flat"
        lines += [f"flat = {img}", _flatten("flat", (255, 255, 255))]
    fmt = f", format={format!r}" if format else ""
    lines.append(f"opts = {{'dpi': {img}_save['dpi']}} if 'dpi' in {img}_save else {{}}")
    if (target or {"webp": "WEBP"}.get(suffix)) in ("JPEG", "WEBP"):
        lines.append("opts['quality'] = 90")
    lines += [f"{out}.save({dest!r}{fmt}, **opts)",
              f"{img}_changed = False  # Export As leaves the original file as it is"]
    return "\n".join(lines)
