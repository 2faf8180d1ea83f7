"""writer.paragraph_indent: give one body paragraph, or every body paragraph, a first-line indent, a left ("before
text") indent or a hanging indent of a stated size in cm; the title, the headings and the other paragraphs keep
theirs.

The check reads the effective left and first-line indents (paragraph, style chain, defaults; a hanging indent is a
negative first line) and carries the initial indents of every other paragraph, which the docx frame does not read.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Asset, Check
from verifiers.checks.docx_indent import indent_of
from workflows.writer import kit as wc

NAME = "writer.paragraph_indent"
SIZES = {"first_line": (0.5, 0.75, 1.0, 1.25), "left": (1.0, 1.5, 2.0, 2.5), "hanging": (0.5, 0.75, 1.0)}
HOW = {
    "first_line": "a first-line indent of {cm} cm (only the first line starts further in)",
    "left": "a left indent of {cm} cm (the whole paragraph moves in from the left margin; no first-line indent)",
    "hanging": "a hanging indent of {cm} cm (the first line at the margin, the following lines {cm} cm in)",
}
PHRASINGS = (
    "Open {path} in LibreOffice Writer and give {what} {how}. Leave the indents of the title, the headings and all "
    "other paragraphs unchanged. Save the document in place as .docx.",
    "In the document {path}, set {what} to {how}. Nothing else should change; save the file in Word format under "
    "the same name.",
    "Please use Format > Paragraph > Indents & Spacing in Writer to give {what} of {path} {how}. Other paragraphs "
    "keep their current indents. Keep the .docx format when saving.",
    "Edit {path}: {what} needs {how}. Don't modify the paragraph styles or any other paragraph, and save it as .docx "
    "in place.",
    "Change the indentation of {what} in {path} to {how}, then save your changes to the same .docx file.",
)
NATURAL = (
    "In {path.file}, give {what.bare} {how}.",
    "Help me tidy up {path.file}: {what.bare} should have {how}.",
    "Could you set {how} for {what.bare} in my document {path.file}? Leave the rest alone.",
    "I'd like {what.bare} of {path.file} to have {how}.",
    "Please change the indentation of {what.bare} in {path.file}: {how}.",
)


class Params(TypedDict):
    indent: Literal["first_line", "left", "hanging"]
    target: Literal["paragraph", "body"]


@dataclass(frozen=True)
class Target:
    indent: str
    cm: float
    where: str  # the `target` knob: paragraph | body
    targets: list[str]  # locators of the paragraphs to indent
    others: list[str]  # locators of body paragraphs left alone (paragraph target)


def goal(rng: random.Random, params: Params, document: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[wc.Layout, Target]:
    indent, where = params["indent"], params["target"]
    layout = wc.compose(rng, document, plan)
    body = wc.targets(layout, "body")
    cm = rng.choice(SIZES[indent])
    if where == "paragraph":
        para, paragraph = rng.choice(body)
        targets = [paragraph]
        what = f"the paragraph beginning {wc.quoted(paragraph)}"
    else:
        para = None
        targets = [loc for _, loc in body]
        what = (f"every body paragraph (the {len(body)} paragraphs of running text under the section headings; not "
                "the title, the headings or the short lines at the top and bottom)")
    others = [loc for p, loc in body if p is not para and loc not in targets]
    facts = {"path": layout.path, "what": what, "how": HOW[indent].format(cm=f"{cm:g}")}
    return Goal(layout, facts, Target(indent, cm, where, targets, others))


def rubric(layout: wc.Layout, target: Target, assets: list[Asset]) -> list[Check]:
    # every other paragraph keeps the indents it had: the docx frame does not read indents
    kept = wc.kept_paragraphs(layout, assets, target.targets, indent_of)
    was = wc.kept_paragraphs(layout, assets, [], indent_of)
    args: dict[str, Any] = {"path": layout.path, "kind": target.indent, "cm": target.cm,
                            "targets": {t: was[t] for t in target.targets}, "unchanged": kept}
    if target.where == "paragraph":
        args["paragraph"] = target.targets[0]
    how = HOW[target.indent].format(cm=f"{target.cm:g}").split(" (")[0]
    return [Check(id="indent", criterion=f"In {layout.path}, the {target.where} target has {how}; the title, the "
                                         "headings and the other paragraphs keep their indents.",
                  primitive="docx.paragraph_indent", args=args)]


def _set(indent: str, cm: float) -> dict[str, float]:
    if indent == "first_line":
        return {"first_line_cm": cm}
    if indent == "left":
        return {"left_cm": cm}
    return {"left_cm": cm, "first_line_cm": -cm}


#: indent -> (what a classic slip sets instead, what the slip does)
WRONG = {"first_line": ("left", "indents the whole paragraph instead of its first line"),
         "left": ("first_line", "indents only the first line instead of the whole paragraph"),
         "hanging": ("first_line", "indents the first line instead of hanging it")}


def solve(layout: wc.Layout, target: Target) -> Attempts:
    base = {"op": "docx.set_indent", "path": layout.path, "paragraphs": target.targets}
    slip, slip_does = WRONG[target.indent]
    near = [Attempt(slip_does, [{**base, **_set(slip, target.cm)}]),
            Attempt(f"uses {target.cm:g} inches instead of {target.cm:g} cm",
                    [{**base, **_set(target.indent, round(target.cm * 2.54, 3))}])]
    if target.where == "body":
        near.append(Attempt("misses the last body paragraph", [{**base, "paragraphs": target.targets[:-1]}]))
    else:
        near.append(Attempt("indents the next paragraph too",
                            [{**base, "paragraphs": target.targets + target.others[:1], **_set(target.indent,
                                                                                                target.cm)}]))
    near.append(Attempt("indents every paragraph, title and headings included",
                        [{**base, "paragraphs": [wc.norm(p) for p in layout.texts()], **_set(target.indent,
                                                                                              target.cm)}]))
    if target.indent == "hanging":
        near.append(Attempt("sets the first line back without a left indent (text outside the margin)",
                            [{**base, "first_line_cm": -target.cm}]))
    return Attempts(Attempt("the stated indent on the target paragraphs", [{**base, **_set(target.indent,
                                                                                           target.cm)}]), near)


WORKFLOW = family(
    NAME, wc.WRITER,
    description="Give one body paragraph or every body paragraph a first-line, left or hanging indent of a stated "
                "size in cm, leaving the other paragraphs' indents alone.",
    knobs={"indent": ("first_line", "left", "hanging"), "target": ("paragraph", "body")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
