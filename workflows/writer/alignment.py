"""writer.alignment: align the title, one body paragraph, or every body paragraph left, center, right or
justified. Paragraphs outside the target must not take the new alignment."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Asset, Check
from verifiers.readers.docx import alignment
from workflows.writer import kit as wc

NAME = "writer.alignment"
WORDS = {"left": "left-aligned (align left)", "center": "centered (align center)",
         "right": "right-aligned (align right)", "justify": "justified (justify, flush with both margins)"}
WRONG = {"left": "center", "center": "right", "right": "center", "justify": "center"}
PHRASINGS = (
    "Open {path} in LibreOffice Writer and make {what} {how}. Leave the alignment of every other paragraph as it "
    "is, and save the document in place as .docx.",
    "In the document {path}, {what} should be {how}. Change only that, then save the file in Word format under the "
    "same name.",
    "Please change the paragraph alignment in {path}: {what} must be {how}; other paragraphs keep their current "
    "alignment. Keep the .docx format when saving.",
    "Using the alignment buttons in Writer, make {what} of {path} {how}. Save your changes to the same .docx file.",
    "Edit {path} so that {what} is {how}, without touching the alignment of anything else. Save it as .docx in "
    "place.",
)
NATURAL = (
    "In {path.file}, make {what.bare} {how.bare}. Leave the other paragraphs as they are.",
    "Help me fix the layout of {path.file}: {what.bare} should be {how.bare}.",
    "Could you change {what.bare} in my document {path.file} to be {how.bare}? Nothing else should "
    "move.",
    "I'd like {what.bare} of {path.file} {how.bare}. Please save it afterwards.",
    "Please set the alignment of {what.bare} in {path.file} so it is {how.bare}.",
)


class Params(TypedDict):
    align: Literal["left", "center", "right", "justify"]
    target: Literal["title", "paragraph", "body"]


@dataclass(frozen=True)
class Target:
    align: str
    where: str  # the `target` knob: title | paragraph | body
    paragraph: str | None  # the title, or the locator of the one paragraph to align (None for body)
    paragraphs: list[str]  # the locators of every body paragraph (body)
    unchanged: list[str]  # locators of paragraphs that must keep their alignment
    body: list[str]  # locators of all body paragraphs

    @property
    def targets(self) -> list[str]:
        return [self.paragraph] if self.paragraph else self.paragraphs


def goal(rng: random.Random, params: Params, document: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[wc.Layout, Target]:
    align, where = params["align"], params["target"]
    layout = wc.compose(rng, document, plan)
    if align == "left":  # start from a document where left alignment is not already there
        layout = layout.with_blocks([wc.Para(b.text, b.role, b.style, {**b.fmt, "align": "justify"})
                                     if isinstance(b, wc.Para) and b.role == "body" else
                                     wc.Para(b.text, b.role, b.style, {**b.fmt, "align": "center"})
                                     if isinstance(b, wc.Para) and b.role == "title" else b for b in layout.blocks])
    body = wc.targets(layout, "body")
    title = layout.texts("title")[0]
    paragraph, paragraphs = None, []
    if where == "title":
        paragraph = title
        what = f"the title {wc.quoted(title)}"
        unchanged = [loc for _, loc in body]
    elif where == "paragraph":
        para, paragraph = rng.choice(body)
        what = f"the paragraph beginning {wc.quoted(paragraph)}"
        unchanged = [loc for p, loc in body if p is not para] + [title]
    else:
        paragraphs = [loc for _, loc in body]
        what = (f"every body paragraph (the {len(body)} paragraphs of running text under the section headings; not "
                "the title, the headings or the short lines at the top and bottom)")
        unchanged = [title]
    facts = {"path": layout.path, "what": what, "how": WORDS[align]}
    return Goal(layout, facts, Target(align, where, paragraph, paragraphs, unchanged, [loc for _, loc in body]))


def rubric(layout: wc.Layout, target: Target, assets: list[Asset]) -> list[Check]:
    # every other paragraph keeps the alignment it had: re-aligning them (to anything) is not the task
    kept = wc.kept_paragraphs(layout, assets, target.targets, alignment)
    args: dict[str, Any] = {"path": layout.path, "align": target.align, "unchanged": kept}
    if target.paragraph:
        args["paragraph"] = target.paragraph
    else:
        args["paragraphs"] = target.paragraphs
    return [Check(id="align", criterion=f"In {layout.path}, the {target.where} target is aligned {target.align} and "
                                        "every other paragraph keeps its alignment.",
                  primitive="docx.paragraph_alignment", args=args)]


def solve(layout: wc.Layout, target: Target) -> Attempts:
    targets = target.targets
    base = {"op": "docx.set_alignment", "path": layout.path, "align": target.align}
    if target.where == "body":
        wrong_target = Attempt("misses the last body paragraph", [{**base, "paragraphs": targets[:-1]}])
    elif target.where == "title":
        wrong_target = Attempt("aligns the first body paragraph instead of the title",
                               [{**base, "paragraphs": target.body[:1]}])
    else:
        wrong_target = Attempt("aligns the next paragraph instead", [{**base, "paragraphs": [target.unchanged[0]]}])
    return Attempts(
        Attempt(f"aligns the target {target.align}", [{**base, "paragraphs": targets}]),
        [Attempt(f"aligns it {WRONG[target.align]} instead",
                 [{**base, "paragraphs": targets, "align": WRONG[target.align]}]),
         wrong_target,
         Attempt("aligns the whole document (select all)",
                 [{**base, "paragraphs": [wc.norm(p) for p in layout.texts()]}])],
    )


WORKFLOW = family(
    NAME, wc.WRITER,
    description="Align the title, a paragraph or all body paragraphs left, center, right or justified.",
    knobs={"align": ("left", "center", "right", "justify"), "target": ("title", "paragraph", "body")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
