"""writer.heading: turn typed title/section lines (bold Normal text) into Heading 1/2/3 paragraphs.

Targets: the title line, one section line, every section line, or an outline (title one level, sections
the next). The check is exclusive: only the stated lines may carry the heading style.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.writer import kit as wc

NAME = "writer.heading"
PHRASINGS = (
    "Open {path} in LibreOffice Writer and {task}. Do not change any wording. Save the document in place, "
    "keeping the Word (.docx) format.",
    "The document {path} has its headings typed as plain bold text. Please {task}, then save it under the same "
    "name as .docx.",
    "In LibreOffice Writer, {task} in the file {path}. Leave everything else alone and keep it as a .docx file "
    "when you save.",
    "Fix the structure of {path}: {task}. Save your changes to the same file in Word format.",
    "Using the paragraph styles list in Writer, {task} in {path}, and save the file as .docx in place.",
)
NATURAL = (
    "The headings in {path.file} are just bold text. Please {task}.",
    "Help me structure {path.file} properly: {task}.",
    "Could you {task} in my document {path.file}? Don't change the wording.",
    "I want real headings in {path.file}, so {task}.",
    "Please fix the outline of {path.file}: {task}.",
)


def _lines(lines: list[str]) -> str:
    return ", ".join(wc.quoted(t) for t in lines)


class Params(TypedDict):
    level: Literal[1, 2, 3]
    target: Literal["title", "section", "all_sections", "outline"]


@dataclass(frozen=True)
class Target:
    groups: list[tuple[str, list[str]]]  # (paragraph style, the lines that must carry it), first group first
    headings: list[str]  # every section line
    title: str


def goal(rng: random.Random, params: Params, document: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[wc.Layout, Target]:
    layout = wc.compose(rng, document, plan, styled=False)
    level, target = params["level"], params["target"]
    title = layout.texts("title")[0]
    headings = layout.texts("heading")
    style, sub = f"Heading {level}", f"Heading {level + 1}"
    groups: list[tuple[str, list[str]]]
    if target == "title":
        groups = [(style, [title])]
        task = f'apply the paragraph style "{style}" to the title line {wc.quoted(title)}'
    elif target == "section":
        groups = [(style, [rng.choice(headings)])]
        task = f'apply the paragraph style "{style}" to the section line {wc.quoted(groups[0][1][0])}'
    elif target == "all_sections":
        groups = [(style, headings)]
        task = f'apply the paragraph style "{style}" to every section line: {_lines(headings)}'
    else:
        groups = [(style, [title]), (sub, headings)]
        task = (f'apply the paragraph style "{style}" to the title line {wc.quoted(title)} and the style "{sub}" '
                f"to every section line: {_lines(headings)}")
    return Goal(layout, {"path": layout.path, "task": task}, Target(groups, headings, title))


def rubric(layout: wc.Layout, target: Target) -> list[Check]:
    return [Check(id=f"style-{i}", criterion=f"In {layout.path}, exactly the lines {_lines(lines)} use the "
                                            f"paragraph style {style!r}.",
                  primitive="docx.styled_paragraphs", args={"path": layout.path, "style": style, "paragraphs": lines})
            for i, (style, lines) in enumerate(target.groups, start=1)]


def solve(params: Params, layout: wc.Layout, target: Target) -> Attempts:
    level = params["level"]
    groups = target.groups

    def ops(pairs: list[tuple[str, list[str]]]) -> list[dict[str, Any]]:
        return [{"op": "docx.set_style", "path": layout.path, "paragraphs": lines, "style": style}
                for style, lines in pairs]

    wrong_level = f"Heading {level + 1 if level < 3 else level - 1}"
    first_style, first_lines = groups[0]
    others = [h for h in target.headings if h not in first_lines] or [target.title]
    wrong_target = [(first_style, [others[0]] + first_lines[1:])] + groups[1:]
    body = layout.texts("body")
    after = layout.texts()[layout.texts().index(first_lines[-1]) + 1]
    extra = body[0] if after not in body else after
    return Attempts(
        Attempt("applies the stated heading styles", ops(groups)),
        [Attempt(f"uses {wrong_level} instead of {first_style}", ops([(wrong_level, first_lines)] + groups[1:])),
         Attempt("styles the wrong line", ops(wrong_target)),
         Attempt("also styles the paragraph after the heading line",
                 ops([(first_style, [*first_lines, extra])] + groups[1:]))],
    )


WORKFLOW = family(
    NAME, wc.WRITER,
    description="Apply Heading 1/2/3 paragraph styles to stated title or section lines of a document.",
    knobs={"level": (1, 2, 3), "target": ("title", "section", "all_sections", "outline")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
