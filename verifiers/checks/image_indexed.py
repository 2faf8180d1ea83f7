"""`image.indexed`: a picture is stored in indexed (palette) mode, with at most a stated number of colours."""

from __future__ import annotations

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.meaning import Meaning
from verifiers.readers.image import load


@primitive("image.indexed", grounded=("path", "max_colors"), meaning=Meaning(action=r"index|palette"))
def indexed(state: State, path: str, max_colors: int) -> Result:
    """The file holds a palette picture (Pillow mode P: PNG colour type 3, GIF), and its pixels use at most
    `max_colors` distinct palette colours. An RGB or grey file fails, however few colours it uses."""
    image = load(state, path)
    if image.mode not in ("P", "PA"):
        return fail(f"{path} is stored in mode {image.mode}, not as an indexed (palette) picture")
    colors = image.convert("RGBA").getcolors(max_colors)
    if colors is None:
        return fail(f"{path} is indexed but uses more than {max_colors} colours")
    return ok(f"{path} is an indexed picture using {len(colors)} colours (at most {max_colors} asked)")
