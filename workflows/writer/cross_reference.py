"""writer.cross_reference: a draft says "see [ref]" where a cross-reference to a bookmarked heading belongs; put
a cross-reference there (Insert > Cross-reference, Bookmarks, Insert reference to: Reference), showing the
heading's text and following it if the heading is ever renamed.

The document has two bookmarked headings (the one asked for and another, for the wrong-bookmark slip). The check
reads the body's REF / PAGEREF fields: exactly one, a REF to the stated bookmark, where the placeholder was, showing
the bookmark's text, the bookmark still on its heading. The frame keeps the text, the field's result included.
"""

from __future__ import annotations

import io
import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, TypedDict

from docx import Document

from kit.family import Attempt, Attempts, Goal, family, prepare_node
from kit.model import Asset, Check
from preparers.office_zip import normalize
from preparers.ops.docx_bookmark import add_bookmark
from workflows.writer import kit as wc
from workflows.writer.bookmark import _name

NAME = "writer.cross_reference"
PLACEHOLDER = "[ref]"
SENTENCES = ("For the details, see", "This is explained further under", "The figures are set out in the section",
             "More on this follows in", "For the background, please refer to")
PHRASINGS = (
    "In {path}, the paragraph beginning {paragraph} has the placeholder {placeholder} after the words {phrase}. "
    "Replace it with a cross-reference to the bookmark {name} (on the heading {heading}) that shows the referenced "
    "text (Insert > Cross-reference). Save as .docx in place.",
    "Open {path} in LibreOffice Writer. Where the paragraph beginning {paragraph} says {phrase} {placeholder}, "
    "insert a cross-reference field to the bookmark {name}, showing its text (the heading {heading}), in place of "
    "{placeholder}. Keep the file as .docx.",
    "Using Insert > Cross-reference in {path}, replace the placeholder {placeholder} that follows {phrase} in the "
    "paragraph beginning {paragraph} with a reference to the bookmark {name} on the heading {heading}, displayed "
    "as the referenced text. Save the .docx under the same name.",
    "The draft {path} still reads {phrase} {placeholder} in the paragraph beginning {paragraph}. Put a "
    "cross-reference to the bookmark {name} (the heading {heading}) where {placeholder} is, inserting the "
    "reference text, and save it as .docx in place.",
    "Please turn the placeholder {placeholder} following {phrase} in the paragraph beginning {paragraph} of {path} "
    "into a cross-reference to the bookmark {name}, which marks the heading {heading}; the field should show that "
    "text. Change nothing else and keep the .docx format.",
)
NATURAL = (
    "In {path.file}, swap the {placeholder} after {phrase} in the paragraph starting {paragraph} for a "
    "cross-reference to the bookmark {name}, the heading {heading}, showing its text.",
    "The paragraph starting {paragraph} in {path.file} says {phrase} {placeholder}: please make that a live "
    "cross-reference to bookmark {name} (heading {heading}) showing the heading text.",
    "Could you replace {placeholder} after {phrase} in {path.file}, paragraph starting {paragraph}, with a "
    "cross-reference to the {name} bookmark on {heading}, showing the referenced text?",
    "I left {placeholder} after {phrase} in the paragraph starting {paragraph} of {path.file}; replace it with a "
    "cross-reference to bookmark {name} ({heading}) showing its text.",
    "Help me replace {placeholder} following {phrase} in {path.file} (paragraph starting {paragraph}) with a "
    "cross-reference to the bookmark {name} on {heading}, as referenced text.",
)


class Params(TypedDict):
    pass


@dataclass(frozen=True)
class Target:
    heading: str  # locator of the bookmarked heading referred to
    name: str
    other_heading: str  # another bookmarked heading (the wrong-bookmark slip)
    other: str
    paragraph: str  # locator of the body paragraph with the placeholder
    phrase: str  # the words right before the placeholder


def goal(rng: random.Random, params: Params, document: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[wc.Layout, Target]:
    layout = wc.compose(rng, document, plan)
    headings = wc.targets(layout, "heading")
    i = rng.randrange(len(headings))
    j = i + 1 if i + 1 < len(headings) else i - 1
    name, other = _name(headings[i][0].text), _name(headings[j][0].text)
    if other == name:
        other = name + "_2"
    under = layout.blocks.index(headings[i][0])
    nxt = layout.blocks.index(headings[i + 1][0]) if i + 1 < len(headings) else len(layout.blocks)
    body = [p for p, _ in wc.targets(layout, "body")
            if not under < layout.blocks.index(p) < nxt and PLACEHOLDER not in p.text]
    chosen = rng.choice(body)
    phrase = rng.choice(SENTENCES)
    changed = replace(chosen, text=f"{chosen.text.rstrip()} {phrase} {PLACEHOLDER}.")
    layout = layout.with_blocks([changed if b is chosen else b for b in layout.blocks])
    paragraph = layout.locate(changed.text)
    assert paragraph is not None and PLACEHOLDER not in paragraph
    facts = {"path": layout.path, "paragraph": wc.quoted(paragraph), "phrase": wc.quoted(phrase),
             "placeholder": PLACEHOLDER, "name": name, "heading": wc.quoted(headings[i][1])}
    return Goal(layout, facts, Target(headings[i][1], name, headings[j][1], other, paragraph, phrase))


def _marked(data: bytes, target: Target) -> bytes:
    """The document with both headings bookmarked, as its author left it."""
    doc = Document(io.BytesIO(data))
    add_bookmark(doc, target.heading, target.name)
    add_bookmark(doc, target.other_heading, target.other)
    out = io.BytesIO()
    doc.save(out)
    return normalize(out.getvalue())  # byte-reproducible, like every generated document


def prepare(layout: wc.Layout, target: Target) -> Mapping[str, Any]:
    outputs = wc.document_outputs(layout)
    assets = [Asset(a.dest, _marked(a.data, target), app=a.app) for a in outputs["assets"]]
    return {"assets": assets, "launch": outputs["launch"]}


def rubric(layout: wc.Layout, target: Target) -> list[Check]:
    return [Check("xref", f"In {layout.path}, the placeholder {PLACEHOLDER} after {wc.quoted(target.phrase)} in "
                          f"the paragraph beginning {wc.quoted(target.paragraph)} is replaced by a cross-reference "
                          f"field to the bookmark {target.name}, showing the text of the heading "
                          f"{wc.quoted(target.heading)}, the only cross-reference of the document.",
                  "docx.cross_reference",
                  {"path": layout.path, "paragraph": target.paragraph, "phrase": target.phrase, "name": target.name,
                   "heading": target.heading, "after": "."})]


def solve(layout: wc.Layout, target: Target) -> Attempts:
    base = {"op": "docx.add_cross_reference", "path": layout.path, "paragraph_start": target.paragraph,
            "placeholder": PLACEHOLDER, "name": target.name}
    return Attempts(
        Attempt(f"a REF field to {target.name} in place of the placeholder", [base]),
        [Attempt("a hyperlink to the bookmark instead of a cross-reference field", [{**base, "style": "link"}]),
         Attempt("types the heading's text instead of a field", [{**base, "style": "text"}]),
         Attempt("refers to the other bookmarked heading", [{**base, "name": target.other}]),
         Attempt("a page-number reference (PAGEREF) instead of the referenced text", [{**base, "style": "page"}]),
         Attempt("adds the reference at the end of the paragraph and leaves the placeholder",
                 [{**base, "at_end": True}])],
    )


WORKFLOW = family(
    NAME, wc.WRITER,
    description="Replace a placeholder after stated words with a cross-reference field to a stated bookmark, "
                "showing the bookmarked heading's text.",
    knobs={},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve, prepare=prepare_node(prepare),
)
