"""The image reader: a picture file decoded with its real format and metadata (`load_picture`, bounded by the
state's preflight; decoded once per content by `preparers.image.decoded`), the picture an encoding gives back
(`as_saved`), and the expected pictures the image checks (`verifiers.checks.image`) compare against: a stored
thumbnail reference (`decode`), or a `recipe()` redrawn, encoded as the student's machine decodes it and edited,
once per task (`expected_picture`, kept with what the measure derives from it by `derived`).
"""

from __future__ import annotations

import base64
import io
import json
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, TypeVar

from PIL import Image

from preparers.image import (
    decode_picture,
    decoded,
    encode,
    png_as_read,
    render,
    with_background,
    with_transparent_background,
)
from preparers.ops import registry as op_registry
from preparers.ops.image import Picture  # imported here, not in the function: the OSWorld checker ships what loads
from verifiers.readers import Source


def load_picture(source: Path | IO[bytes]) -> Image.Image:
    """The decoded picture of a file (or of bytes in memory), with its real format and metadata (`.info`): what
    every check reads. A mutant held in memory (`verifiers.mutants.image`) is decoded with it too, so it is the
    picture its bytes would give on disk. A file is decoded through `preparers.image.decoded` (a task's controls
    read the same pictures again and again); bytes in memory (a mutant's, seen once) are decoded directly."""
    if isinstance(source, Path):
        try:
            return decoded(source.read_bytes())
        except Exception:  # decoded again from the file below, for the error that names the file
            pass
    return decode_picture(source)


def as_saved(image: Image.Image, fmt: str, dpi: float | None = None) -> Image.Image:
    """The picture `load_picture` reads from `preparers.image.encode(image, fmt, dpi)`'s bytes: a picture PNG keeps
    exactly is not encoded at all (`png_as_read`); any other is encoded (a PNG at the fastest zlib level: the level
    changes no pixel) and decoded."""
    exact = png_as_read(image, None if dpi is None else (dpi, dpi)) if fmt == "PNG" else None
    return exact if exact is not None else load_picture(io.BytesIO(encode(image, fmt, dpi, png_level=0)))


def load(state: Source, path: str) -> Image.Image:
    return state.read(path, load_picture, "image")


# --- references ---------------------------------------------------------------------------------------

def decode(reference: dict[str, Any]) -> Image.Image:
    size = (int(reference["width"]), int(reference["height"]))
    return Image.frombytes(reference["mode"], size, base64.b64decode(reference["data"]))


def recipe(picture: dict[str, Any], format: str, *, transparent: bool = False, dpi: float | None = None,
           edits: list[dict[str, Any]] | tuple[dict[str, Any], ...] = (), background: str | None = None
           ) -> dict[str, Any]:
    """A JSON reference to the exact expected picture: `picture` (a `preparers.image.render` spec) encoded as
    Pillow `format` (with a transparent background, a print resolution), then the image `edits` (op dicts as in
    a solution; their "path" is ignored) applied in order. `background` ("#RRGGBB") paints a flat picture's white
    background that colour before it is encoded (the key is left out when None, so older recipes keep their bytes)."""
    made = {"picture": dict(picture), "format": format, "transparent": transparent, "dpi": dpi,
            "edits": [{k: v for k, v in edit.items() if k != "path"} for edit in edits]}
    if background is not None:
        made["background"] = background
    return made


T = TypeVar("T")
#: What the measure derives from an expected picture (the picture a recipe and a transform give, its pixel planes,
#: its grey versions), kept by an exact description of that picture: every control and mutant of a task compares
#: against the same expected pictures, and hashing a picture's pixels to find them again cost 3-5 ms a check
#: (more than the measure itself). The values are shared: nothing may change them.
_DERIVED: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
DERIVED_SIZE = 24


def derived(key: tuple[Any, ...], make: Callable[[], T]) -> T:
    if key in _DERIVED:
        _DERIVED.move_to_end(key)
        return _DERIVED[key]  # type: ignore[no-any-return]
    value = _DERIVED[key] = make()
    while len(_DERIVED) > DERIVED_SIZE:
        _DERIVED.popitem(last=False)
    return value


def expected_picture(reference: dict[str, Any], transform: tuple[Any, ...] = ()) -> tuple[str, Image.Image]:
    """(its exact description, the picture) for the picture a `recipe()` describes after `transform`: ("transpose",
    a Pillow `Image.Transpose`) or ("crop", box). The picture is shared (`_DERIVED`): a caller may not change it."""
    recipe_key = json.dumps(reference, sort_keys=True)
    key = f"{recipe_key} {transform!r}"

    def make() -> Image.Image:
        if not transform:
            return _rebuild(recipe_key)
        picture = expected_picture(reference)[1]
        return picture.transpose(transform[1]) if transform[0] == "transpose" else picture.crop(tuple(transform[1]))

    return key, derived(("picture", key), make)


def _rebuild(key: str) -> Image.Image:
    """The picture the `recipe()` in JSON `key` describes (made once per task: `expected_picture` keeps it)."""
    reference = json.loads(key)
    drawn = render(reference["picture"])
    if isinstance(reference.get("background"), str):
        color = reference["background"]
        drawn = with_background(drawn, (int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)))
    if reference.get("transparent"):
        drawn = with_transparent_background(drawn)
    image = as_saved(drawn, reference["format"], reference.get("dpi"))  # as the student's machine decodes the asset
    image.format = None  # a drawn picture, not a file
    picture = Picture(Path("/nonexistent"), Path("/nonexistent"), image, reference["format"], reference.get("dpi"))
    known = op_registry()
    for edit in reference.get("edits", []):
        known[edit["op"]].fn(picture, **{k: v for k, v in edit.items() if k != "op"})
    return picture.image
