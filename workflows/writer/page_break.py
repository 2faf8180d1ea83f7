"""writer.page_break: make a stated heading or paragraph start on a new page, every section heading start a new
page, or break the page right after a stated paragraph. Exactly the asked breaks must exist; a break may be a
manual page break (Ctrl+Enter) or the paragraph's "page break before" setting."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.writer import kit as wc

NAME = "writer.page_break"
PHRASINGS = (
    "Open {path} in LibreOffice Writer and {task}. Do not add any other breaks or change the text. Save the "
    "document in place as .docx.",
    "In the document {path}, {task}. Save the file in Word format under the same name afterwards.",
    "Please {task} in {path} (Insert > More Breaks > Manual Break, or the paragraph's text flow settings). Keep the "
    ".docx format when saving.",
    "Edit {path}: {task}. No other page breaks should be added; save it as .docx in place.",
    "Using LibreOffice Writer, {task} in {path}, then save your changes to the same .docx file.",
)
NATURAL = (
    "In {path.file}, please {task}.",
    "Help me tidy up the pages of {path.file}: {task}.",
    "Could you {task} in my document {path.file}? Don't add any other breaks.",
    "I want {path.file} to print better, so {task}.",
    "Please edit {path.file} and {task}, then save it.",
)


class Params(TypedDict):
    target: Literal["heading", "paragraph", "every_heading", "after_paragraph"]


@dataclass(frozen=True)
class Target:
    where: str  # the `target` knob
    paragraph: str | None  # the one paragraph that must start a page (heading, paragraph)
    paragraphs: list[str]  # the paragraphs that must start a page (every_heading, after_paragraph)
    at: int  # index (in `locs`) of the (first) paragraph that starts a page
    locs: list[str]  # every paragraph's locator, in document order

    @property
    def targets(self) -> list[str]:
        return [self.paragraph] if self.paragraph else self.paragraphs


def goal(rng: random.Random, params: Params, document: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[wc.Layout, Target]:
    where = params["target"]
    layout = wc.compose(rng, document, plan)
    texts = layout.texts()
    locs = [layout.locate(t) or wc.norm(t) for t in texts]
    headings = [i for i, p in enumerate(layout.paragraphs) if p.role == "heading"]
    body = [i for i, p in enumerate(layout.paragraphs) if p.role == "body" and i + 1 < len(texts)]
    paragraph, paragraphs = None, []
    if where == "heading":
        at = rng.choice(headings)
        paragraph = locs[at]
        task = f"insert a page break before the section heading {wc.quoted(paragraph)}, so that it starts a new page"
    elif where == "paragraph":
        at = rng.choice(body)
        paragraph = locs[at]
        task = (f"insert a page break before the paragraph beginning {wc.quoted(paragraph)}, so that this paragraph "
                "starts at the top of a new page")
    elif where == "every_heading":
        at = headings[0]
        paragraphs = [locs[i] for i in headings]
        task = ("make every section heading start on a new page by inserting a page break before each of them: "
                + ", ".join(wc.quoted(p) for p in paragraphs))
    else:
        anchor = rng.choice(body)
        at = anchor + 1
        paragraphs = [locs[at]]
        task = (f"insert a manual page break right after the paragraph beginning {wc.quoted(locs[anchor])}, so that "
                "whatever follows it starts on a new page")
    return Goal(layout, {"path": layout.path, "task": task}, Target(where, paragraph, paragraphs, at, locs))


def rubric(layout: wc.Layout, target: Target) -> list[Check]:
    args: dict[str, Any] = {"path": layout.path}
    if target.paragraph:
        args["paragraph"] = target.paragraph
    else:
        args["paragraphs"] = target.paragraphs
    starts = ", ".join(wc.quoted(p) for p in target.targets)
    return [Check(id="breaks", criterion=f"In {layout.path}, exactly these paragraphs start a new page: {starts}.",
                  primitive="docx.page_breaks", args=args)]


def solve(layout: wc.Layout, target: Target) -> Attempts:
    locs, at = target.locs, target.at
    how = "property" if target.where in ("heading", "every_heading") else "run"

    def breaks(*selectors: str) -> list[dict[str, Any]]:
        return [{"op": "docx.page_break", "path": layout.path, "paragraph_start": s, "how": how} for s in selectors]

    targets = target.targets
    after = locs[at + 1] if at + 1 < len(locs) else locs[at - 2]
    if target.where == "every_heading":
        misses = [Attempt("misses the last heading", breaks(*targets[:-1])),
                  Attempt("breaks after each heading instead of before it",
                          breaks(*(locs[locs.index(h) + 1] for h in targets))),
                  Attempt("also breaks before the title block's last line", breaks(locs[at - 1], *targets))]
    else:
        misses = [Attempt("breaks one paragraph too late", breaks(after)),
                  Attempt("breaks one paragraph too early", breaks(locs[at - 1])),
                  Attempt("adds a second break before the next paragraph as well", breaks(*targets, after))]
    return Attempts(Attempt("page break exactly where asked", breaks(*targets)), misses)


WORKFLOW = family(
    NAME, wc.WRITER,
    description="Insert a page break before a stated heading or paragraph, before every heading, or after a paragraph.",
    knobs={"target": ("heading", "paragraph", "every_heading", "after_paragraph")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
