"""impress.image: insert a stated picture file on a stated slide, optionally in a corner and at a stated width.

Two pictures wait in ~/Pictures (the asked one and a similar one), so inserting the wrong file is a real mistake
the rubric can see. The picture is recognised by its pixels, whatever way the app stores the file.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

from PIL import Image

from forge.dag import NodeContext, Workflow, node
from forge.model import HOME, Asset, Check, Solution
from verifiers.checks.pptx import pixel_digest
from workflows.impress import kit as ic

NAME = "impress.image"
SLIDE_W_CM, SLIDE_H_CM = 25.4, 19.05  # python-pptx's default 4:3 slide
MARGIN_CM = 0.8
CORNER_WORDS = {"top_left": "top-left", "top_right": "top-right", "bottom_left": "bottom-left",
                "bottom_right": "bottom-right"}
MIRROR = {"top_left": "top_right", "top_right": "top_left", "bottom_left": "bottom_right",
          "bottom_right": "bottom_left"}
PHRASINGS = (
    "Open {path} in LibreOffice Impress and insert the picture {image} on the slide '{slide}'{placement}. "
    "Do not change the other slides. " + ic.SAVE,
    "In the presentation {path}, the slide '{slide}' needs an illustration: add the image file {image} to "
    "it{placement}. Keep the rest of the deck as it is. " + ic.SAVE,
    "Please put the picture {image} onto the slide '{slide}' of {path}{placement}. Then save the file in place "
    "as pptx.",
    "Using LibreOffice Impress, open {path}, go to the slide '{slide}' and use Insert > Image to add "
    "{image}{placement}. Leave everything else untouched. " + ic.SAVE,
    "The slide '{slide}' in {path} should show the image {image}{placement}. Then save the presentation in "
    "place, keeping the pptx format.",
)


def _natural_width_cm(data: bytes) -> float:
    """The width python-pptx gives an inserted picture (its pixels at the file's dpi, 72 by default)."""
    with Image.open(io.BytesIO(data)) as img:
        dpi = img.info.get("dpi", (72, 72))[0] or 72
        return img.width / dpi * 2.54


def _ratio(data: bytes) -> float:
    with Image.open(io.BytesIO(data)) as img:
        return img.height / img.width


def _spot(corner: str, width: float, height: float) -> tuple[float, float]:
    """(left, top) in cm that puts a picture of this size in `corner` ("any": lower middle of the slide)."""
    if corner == "any":
        return (SLIDE_W_CM - width) / 2, SLIDE_H_CM - height - 2 * MARGIN_CM
    left = MARGIN_CM if corner.endswith("left") else SLIDE_W_CM - width - MARGIN_CM
    top = MARGIN_CM if corner.startswith("top") else SLIDE_H_CM - height - MARGIN_CM
    return round(left, 2), round(top, 2)


@node("goal", "goal", ("params", "content", "plan"), ("deck", "facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("goal")
    corner, sized = values["params"]["corner"], values["params"]["width"]
    deck = ic.deck_from(values["content"], values["plan"])
    stems = values["content"]["images"]
    pictures = [(f"{HOME}/Pictures/{stem}.png", ic.draw_png(stem, rng)) for stem in stems]
    slide = rng.choice(deck.content_titles)
    width = float(rng.choice((4, 5, 6, 7, 8))) if sized == "stated" else None
    parts = []
    if corner != "any":
        parts.append(f"in the {CORNER_WORDS[corner]} corner of the slide")
    if width is not None:
        parts.append(f"resized to {width:g} cm wide with its proportions kept")
    placement = (", " + " and ".join(parts)) if parts else ""
    facts = {"path": deck.path, "image": pictures[0][0], "slide": slide, "placement": placement}
    target = {"slide": slide, "pictures": pictures, "corner": corner, "width": width}
    return {"deck": deck, "facts": facts, "target": target}


@node("prepare", "prepare", ("deck", "target"), ("assets", "launch"))
def prepare(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    pictures = values["target"]["pictures"]
    return ic.deck_outputs(values["deck"], tuple(Asset(dest, data) for dest, data in pictures))


@node("rubric", "rubric", ("deck", "target", "assets"), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    deck: ic.Deck = values["deck"]
    t = values["target"]
    image, data = t["pictures"][0]
    args: dict[str, Any] = {"path": deck.path, "slide": t["slide"], "image": image, "pixels": pixel_digest(data)}
    if t["corner"] != "any":
        args["corner"] = t["corner"]
    if t["width"] is not None:
        args["width_cm"] = t["width"]
    checks = [Check("picture", f"The slide '{t['slide']}' shows {image}"
                                        + (f" in the {CORNER_WORDS[t['corner']]} corner" if "corner" in args else "")
                                        + (f", {t['width']:g} cm wide" if t["width"] else "") + ".",
                             "pptx.picture", args)]
    # a picture adds no text: every slide, the target too, keeps its text and its place
    return {"rubric": [*checks, ic.kept_check(deck, values["assets"])]}


@node("solve", "solve", ("deck", "target"), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    deck: ic.Deck = values["deck"]
    t = values["target"]
    (image, data), (other, _) = t["pictures"]
    width = t["width"] if t["width"] is not None else _natural_width_cm(data)
    corner = t["corner"]

    def insert(slide: str, file: str, where: str, w: float, sized: bool) -> dict[str, Any]:
        left, top = _spot(where, w, w * _ratio(data))
        return {"op": "pptx.add_image", "path": deck.path, "title": slide, "image": file, "left_cm": left,
                "top_cm": top, **({"width_cm": w} if sized else {})}

    sized = t["width"] is not None
    titles = deck.titles
    i = titles.index(t["slide"])
    neighbour = titles[i + 1] if i + 1 < len(titles) else titles[i - 1]
    solutions = [
        Solution("oracle", f"insert {image} on '{t['slide']}'", [insert(t["slide"], image, corner, width, sized)]),
        Solution("near-miss-1", f"puts the picture on '{neighbour}' instead",
                 [insert(neighbour, image, corner, width, sized)]),
        Solution("near-miss-2", f"inserts the other picture {other}",
                 [insert(t["slide"], other, corner, width, sized)]),
    ]
    if corner != "any":
        solutions.append(Solution(f"near-miss-{len(solutions)}", f"places it in the {MIRROR[corner]} corner",
                                  [insert(t["slide"], image, MIRROR[corner], width, sized)]))
    if sized:
        solutions.append(Solution(f"near-miss-{len(solutions)}", "leaves the picture 2 cm too wide",
                                  [insert(t["slide"], image, corner, width + 2, True)]))
    return {"solutions": solutions}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(ic.APP,),
    description="Insert a stated picture file on a stated slide, optionally in a corner and at a stated width.",
    knobs={"corner": ("any", "top_left", "top_right", "bottom_left", "bottom_right"), "width": ("free", "stated")},
    nodes=(*ic.source_nodes(), goal, prepare, ic.instruction(NAME, PHRASINGS), rubric, solve),
)
