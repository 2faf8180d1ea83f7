"""writer.insert_image: put a picture from ~/Pictures into a report, directly under a stated heading or at the end
of the document, optionally at a stated width (Insert > Image).

Two pictures wait in ~/Pictures (the asked one and a similar one), so inserting the wrong file is a real mistake.
The check recognises the picture by its pixels, finds where it sits among the body's paragraphs and reads its size;
a picture adds no text, so the frame keeps every paragraph as it was.
"""

from __future__ import annotations

import io
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from PIL import Image, ImageDraw

from kit.family import Attempt, Attempts, Goal, family, prepare_node
from kit.model import HOME, Asset, Check
from verifiers.readers.pptx import pixel_digest
from workflows.writer import kit as wc

NAME = "writer.insert_image"
#: (asked picture, a similar one beside it): file stems in ~/Pictures
PAIRS = (("site_photo_overview", "site_photo_entrance"), ("team_logo", "team_logo_old"),
         ("quarterly_chart", "quarterly_chart_draft"), ("floor_plan_level2", "floor_plan_level1"),
         ("budget_chart", "budget_chart_2023"), ("company_logo", "company_logo_mono"))
PALETTE = ((31, 78, 121), (192, 0, 0), (0, 112, 192), (0, 150, 90), (112, 48, 160), (230, 145, 30))
PHRASINGS = (
    "Open {path} in LibreOffice Writer and insert the picture {image} {where}{size}. Do not change any text, and "
    "save the document in place as .docx.",
    "In the document {path}, add the image file {image} {where}{size}. Keep the text as it is and save the file "
    "in Word format under the same name.",
    "Please put the picture {image} into {path}, {where}{size}. Leave everything else untouched and keep the "
    ".docx format when saving.",
    "Using LibreOffice Writer, open {path} and use Insert > Image to add {image} {where}{size}. Save your changes "
    "to the same .docx file.",
    "The report {path} needs an illustration: insert {image} {where}{size}. Don't edit any text; save it as .docx "
    "in place.",
)
NATURAL = (
    "Could you insert the picture {image} into {path.file}, {where}{size}?",
    "Please add {image.file} to my document {path.file} {where}{size}.",
    "I'd like the image {image} placed {where} in {path.file}{size}.",
    "Help me put {image.file} into {path.file}, {where}{size}.",
    "Add the picture {image} to {path.file} {where}{size}, please.",
)


class Params(TypedDict):
    position: Literal["heading", "end"]
    width: Literal["free", "stated"]


@dataclass(frozen=True)
class Target:
    pictures: tuple[tuple[str, bytes], ...]  # (path, PNG bytes) of the asked picture, then of the similar one
    after: str | None  # locator of the heading the picture goes under; None: at the end of the document
    width: float | None  # the stated width in cm
    other: str  # locator of a paragraph the picture does not go after (near-miss)


def draw_png(stem: str, rng: random.Random) -> bytes:
    """A small picture: a bar chart or plan when `stem` names one, else a simple logo or photo-like scene."""
    width, height = rng.choice(((240, 160), (300, 200), (280, 210), (320, 180)))
    img = Image.new("RGB", (width, height), (255, 255, 255))
    draw = ImageDraw.Draw(img)
    color, accent = rng.sample(PALETTE, 2)
    if "chart" in stem:
        bars = rng.randint(4, 7)
        slot = (width - 20) // bars
        for i in range(bars):
            top = rng.randint(20, height - 30)
            draw.rectangle((12 + i * slot, top, 12 + i * slot + slot * 2 // 3, height - 12),
                           fill=accent if i == bars - 1 else color)
        draw.line((8, height - 10, width - 8, height - 10), fill=(60, 60, 60), width=2)
    elif "plan" in stem:
        for _ in range(rng.randint(3, 6)):
            x, y = rng.randint(5, width // 2), rng.randint(5, height // 2)
            draw.rectangle((x, y, x + rng.randint(30, width // 2), y + rng.randint(20, height // 2)),
                           outline=color, width=3)
        draw.rectangle((2, 2, width - 3, height - 3), outline=(40, 40, 40), width=4)
    elif "photo" in stem:
        draw.rectangle((0, 0, width, height * 2 // 3), fill=(170, 205, 235))
        draw.rectangle((0, height * 2 // 3, width, height), fill=(110, 150, 90))
        x = rng.randint(20, width // 2)
        draw.rectangle((x, height // 3, x + width // 3, height * 2 // 3), fill=color)
        draw.polygon(((x - 10, height // 3), (x + width // 6, height // 8), (x + width // 3 + 10, height // 3)),
                     fill=accent)
    else:
        r = min(width, height) // 3
        cx, cy = width // 2, height // 2
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=color)
        draw.rectangle((cx - r // 2, cy - r // 2, cx + r // 2, cy + r // 2), fill=accent)
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()


def _size(data: bytes) -> tuple[float, float]:
    """(natural width in cm as python-docx inserts it at 72 dpi, height / width)."""
    with Image.open(io.BytesIO(data)) as img:
        dpi = float((img.info.get("dpi") or (72, 72))[0] or 72)
        return img.width / dpi * 2.54, img.height / img.width


def goal(rng: random.Random, params: Params, document: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[wc.Layout, Target]:
    layout = wc.compose(rng, document, plan)
    asked, similar = rng.choice(PAIRS)
    pictures = tuple((f"{HOME}/Pictures/{stem}.png", draw_png(stem, rng)) for stem in (asked, similar))
    natural, _ = _size(pictures[0][1])
    width = None
    if params["width"] == "stated":
        width = float(rng.choice([w for w in (5, 6, 7, 12, 13, 14) if abs(w - natural) > 1.5]))
    headings = wc.targets(layout, "heading")
    if params["position"] == "heading":
        i = rng.randrange(len(headings))
        heading = headings[i][1]
        other = headings[i + 1][1] if i + 1 < len(headings) else headings[i - 1][1]
        after: str | None = heading
        where = f"directly below the heading {wc.quoted(heading)}"
    else:
        after = None
        other = headings[0][1]
        where = "at the very end of the document, after the last line"
    size = f", {width:g} cm wide with its proportions kept" if width is not None else ""
    facts = {"path": layout.path, "image": pictures[0][0], "where": where, "size": size}
    return Goal(layout, facts, Target(pictures, after, width, other))


def prepare(layout: wc.Layout, target: Target) -> Mapping[str, Any]:
    """The document, and both pictures waiting in ~/Pictures."""
    out = wc.document_outputs(layout)
    return {**out, "assets": [*out["assets"], *(Asset(dest, data) for dest, data in target.pictures)]}


def rubric(layout: wc.Layout, target: Target) -> list[Check]:
    image, data = target.pictures[0]
    args: dict[str, Any] = {"path": layout.path, "image": image, "pixels": pixel_digest(data),
                            "ratio": round(_size(data)[1], 4)}
    where = "at the end of the document"
    if target.after is not None:
        args["after"] = target.after
        where = f"directly below {wc.quoted(target.after)}"
    if target.width is not None:
        args["width_cm"] = target.width
    size = f", {target.width:g} cm wide with its proportions kept" if target.width is not None else ""
    return [Check("picture", f"{layout.path} shows the picture {image} once, {where}{size}.", "docx.picture", args)]


def solve(layout: wc.Layout, target: Target) -> Attempts:
    (image, data), (similar, _) = target.pictures
    base: dict[str, Any] = {"op": "docx.add_picture", "path": layout.path, "image": image}
    if target.after is not None:
        base["after"] = target.after
    if target.width is not None:
        base["width_cm"] = target.width
    misses = [Attempt(f"inserts the similar picture {similar}", [{**base, "image": similar}]),
              Attempt("inserts the picture twice", [base, base])]
    if target.after is not None:
        misses += [Attempt(f"puts it below {wc.quoted(target.other)} instead", [{**base, "after": target.other}]),
                   Attempt("puts it at the end of the document", [{k: v for k, v in base.items() if k != "after"}])]
    else:
        misses.append(Attempt("puts it below the first heading instead of at the end",
                              [{**base, "after": target.other}]))
    if target.width is not None:
        ratio = _size(data)[1]
        misses += [Attempt("leaves the picture at its own size", [{k: v for k, v in base.items() if k != "width_cm"}]),
                   Attempt("stretches it to the width without keeping its proportions",
                           [{**base, "height_cm": round(target.width * ratio * 1.3, 2)}])]
    return Attempts(Attempt(f"insert {image} where asked", [base]), misses)


WORKFLOW = family(
    NAME, wc.WRITER,
    description="Insert a stated picture file from ~/Pictures into a Writer document, directly below a stated "
                "heading or at the end, optionally at a stated width with its proportions kept.",
    knobs={"position": ("heading", "end"), "width": ("free", "stated")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve, prepare=prepare_node(prepare),
)
