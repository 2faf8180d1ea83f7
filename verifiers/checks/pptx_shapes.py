"""pptx shape primitives: where a picture sits on its slide and how large it is (Impress's Position and Size).

The picture is recognised by its pixels (`verifiers.readers.pptx.pixel_digest`), whatever way a writer stores the
file. Positions are the picture's top-left corner from the slide's top-left corner, in cm, as Impress's Position
and Size dialog shows them with its base point at the top left; LibreOffice keeps 1/100 mm, so a typed value comes
back within TOLERANCE_CM.
"""

from __future__ import annotations

from typing import Any

from pptx.shapes.picture import Picture

from preparers import pptx as deckio
from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.meaning import Meaning
from verifiers.readers.pptx import pixel_digest, slides

TOLERANCE_CM = 0.06
RATIO_TOLERANCE = 0.02  # relative: "proportions kept"


def _pixels(shape: Any) -> str | None:
    try:
        return pixel_digest(shape.image.blob)
    except Exception:  # a linked or broken picture is not the picture asked about
        return None


def geometry(shape: Any) -> tuple[float, float, float, float]:
    """(left, top, width, height) of a shape in cm."""
    left, top, width, height = ((v or 0) / deckio.EMU_PER_CM for v in (shape.left, shape.top, shape.width,
                                                                         shape.height))
    return left, top, width, height


@primitive("pptx.picture_geometry", grounded=("path", "slide", "left_cm", "top_cm", "width_cm", "height_cm"),
           meaning=Meaning(action=r"mov|position|place|put|resiz|size|scale|wide|width|shrink|enlarge|make"))
def picture_geometry(state: State, path: str, slide: str, pixels: str, left_cm: float | None = None,
                     top_cm: float | None = None, width_cm: float | None = None, height_cm: float | None = None,
                     ratio: float | None = None) -> Result:
    """The picture with `pixels` on slide `slide` has its top-left corner at (`left_cm`, `top_cm`) and is `width_cm`
    wide and `height_cm` high (each when given); `ratio` (height / width): its proportions are kept."""
    wanted = {"left": left_cm, "top": top_cm, "width": width_cm, "height": height_cm}
    for item in slides(state, path, slide):
        pictures = [s for s in deckio.walk(item.shapes) if isinstance(s, Picture)]
        found = [s for s in pictures if _pixels(s) == pixels]
        if len(found) != 1:
            return fail(f"slide {slide!r} shows the picture {len(found)} times ({len(pictures)} picture(s) there), "
                        "expected once")
        got = dict(zip(("left", "top", "width", "height"), geometry(found[0]), strict=True))
        shown = ", ".join(f"{k} {v:.2f} cm" for k, v in got.items())
        wrong = [f"{k} {got[k]:.2f} cm, expected {v:g}" for k, v in wanted.items()
                 if v is not None and abs(got[k] - v) > TOLERANCE_CM]
        if ratio is not None and got["width"] and abs(got["height"] / got["width"] - ratio) > RATIO_TOLERANCE * ratio:
            wrong.append(f"proportions {got['height'] / got['width']:.3f} (height/width), expected {ratio:.3f}")
        if wrong:
            return fail(f"the picture on slide {slide!r} is not where or as large as asked: {'; '.join(wrong)} "
                        f"(now {shown})")
    asked = ", ".join(f"{k} {v:g} cm" for k, v in wanted.items() if v is not None)
    return ok(f"the picture on slide {slide!r} has {asked}" + (" with its proportions kept" if ratio else ""))
