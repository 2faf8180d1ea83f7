"""`image.is_inverted`: a picture is the original's negative (GIMP's Colors > Invert), at full resolution."""

from __future__ import annotations

from typing import Any

from verifiers.checks import Result, State, fail, primitive
from verifiers.checks.image import _content
from verifiers.checks.image_measure import size_text
from verifiers.meaning import Meaning
from verifiers.readers.image import expected_picture, load


@primitive("image.is_inverted", grounded=("path",), meaning=Meaning(action=r"invert|negative"))
def is_inverted(state: State, path: str, original: dict[str, Any]) -> Result:
    """The picture is the `original` (a `recipe()`) with every colour inverted (255 - v per channel, transparency
    kept), within the measure's tolerance for the file's format; the size is exact."""
    edits = original.get("edits") if isinstance(original, dict) else None
    if not isinstance(edits, list):
        return fail("check misconfigured: `original` is not a picture recipe")
    image = load(state, path)
    source = expected_picture(original)[1]
    if image.size != source.size:
        return fail(f"{path} is {size_text(image)}; an inverted picture keeps the original {size_text(source)}")
    negative = expected_picture({**original, "edits": [*edits, {"op": "image.invert"}]})
    return _content(image, negative, "the original's negative (colours inverted)", path)
