"""writer.sub_superscript: a paragraph typed flat (CO2, 48 m2, the 21st) gets its subscript or superscript
characters: the digits of chemical formulas below the line, the power of an area or volume unit or the letters of
an ordinal above it.

The check reads the vertical position of every character of the paragraph: exactly the marked characters of the
stated words sit below or above the line. The frame reads it on every other run, so a subscript or superscript
anywhere else fails too.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.writer import kit as wc

NAME = "writer.sub_superscript"
POSITION = {"formula": "sub", "unit": "super", "ordinal": "super"}
FORMULAS = ("CO2", "NO2", "SO2", "CH4", "N2O", "NH3", "O3")
UNITS = (("m2", "m3"), ("ft2", "ft3"))
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "September", "October", "November")
TEMPLATES = {
    "formula": (
        "The building survey measured {a} and {b} levels in every meeting room, and the results will be shared "
        "with all staff.",
        "Our new boilers should cut {a} emissions by a third while releasing almost no {b} at all.",
        "Sensors near the loading bay reported high {a} readings, so the contractor will also test the air for {b} "
        "next week.",
        "The cleaning supplier has agreed to withdraw products that give off {a}, and the ventilation will be "
        "checked for {b}.",
    ),
    "unit": (
        "The new archive room offers {n1} {a} of floor space and about {n2} {b} of shelving volume.",
        "Each meeting room on the upper floor measures {n1} {a}, and the storage hall holds {n2} {b} of stock.",
        "The landlord quotes {n1} {a} of office space plus a basement store with a volume of {n2} {b}.",
    ),
    "ordinal": (
        "The review meeting moves from the {a} to the {b} of {month}, and written comments are due two days "
        "before.",
        "Payroll will now run on the {a} of each month instead of the {b}, starting in {month}.",
        "Training sessions are booked for the {a} and the {b} of {month} in the main conference room.",
    ),
}
PHRASINGS = (
    "Open {path} in LibreOffice Writer. In the paragraph beginning {paragraph}, {task}. Change nothing else and "
    "save the document in place as .docx.",
    "In the document {path}, go to the paragraph that starts with {paragraph} and {task}. Keep all other text and "
    "formatting as it is and save the file in Word format under the same name.",
    "Please fix the paragraph beginning {paragraph} in {path}: {task}. Only those characters should change; save "
    "it as .docx when done.",
    "Using Format > Character > Position in Writer, {task} in the paragraph {paragraph} of {path}. Save your "
    "changes to the same .docx file.",
    "Edit {path}: in the paragraph starting {paragraph}, {task}. Leave every other character on the baseline and "
    "keep the .docx format when saving.",
)
NATURAL = (
    "In {path.file}, the paragraph starting {paragraph} was typed flat: please {task}.",
    "Could you {task} in the paragraph beginning {paragraph} of my document {path.file}?",
    "One fix in {path.file}, please: in the paragraph {paragraph}, {task}.",
    "The paragraph {paragraph} in {path.file} looks wrong. Please {task} and leave the rest alone.",
    "Please edit {path.file} so that, in the paragraph starting {paragraph}, you {task}.",
)


class Params(TypedDict):
    mark: Literal["formula", "unit", "ordinal"]


@dataclass(frozen=True)
class Target:
    mark: str
    position: str  # "sub" | "super"
    paragraph: str  # the locator of the new paragraph
    tokens: tuple[str, ...]  # the words, in the order they appear
    marks: tuple[tuple[int, int], ...]  # per word: [start, end) of the characters to set off the line


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _span(mark: str, token: str) -> tuple[int, int]:
    """The characters of `token` to set below or above the line."""
    digits = [i for i, c in enumerate(token) if c.isdigit()]
    if mark == "ordinal":
        return digits[-1] + 1, len(token)
    return digits[0], digits[-1] + 1


def _draw(rng: random.Random, mark: str) -> tuple[str, tuple[str, str]]:
    template = rng.choice(TEMPLATES[mark])
    if mark == "formula":
        a, b = rng.sample(FORMULAS, 2)
        return template.format(a=a, b=b), (a, b)
    if mark == "unit":
        a, b = rng.choice(UNITS)
        return template.format(a=a, b=b, n1=rng.randint(4, 60) * 5, n2=rng.randint(12, 90) * 10), (a, b)
    x, y = sorted(rng.sample(range(1, 29), 2))
    a, b = _ordinal(x), _ordinal(y)
    return template.format(a=a, b=b, month=rng.choice(MONTHS)), (a, b)


def _task(mark: str, tokens: tuple[str, ...], marks: tuple[tuple[int, int], ...]) -> str:
    a, b = tokens
    if mark == "formula":
        return f"write the chemical formulas {a} and {b} with their digits as subscript"
    if mark == "unit":
        (s1, e1), (s2, e2) = marks
        return f"set the {a[s1:e1]} of {a} and the {b[s2:e2]} of {b} as superscript (square and cubic units)"
    return f"set the letters of the ordinals {a} and {b} as superscript (only the letters, not the numbers)"


def goal(rng: random.Random, params: Params, document: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[wc.Layout, Target]:
    mark = params["mark"]
    layout = wc.compose(rng, document, plan)
    blocks = list(layout.blocks)
    body = [i for i, b in enumerate(blocks) if isinstance(b, wc.Para) and b.role == "body"]
    text, tokens = _draw(rng, mark)
    at = rng.choice(body) + 1
    layout = layout.with_blocks(blocks[:at] + [wc.Para(text, "body")] + blocks[at:])
    where = layout.locate(text)
    assert where is not None, text
    marks = tuple(_span(mark, t) for t in tokens)
    facts = {"path": layout.path, "paragraph": wc.quoted(where), "task": _task(mark, tokens, marks)}
    return Goal(layout, facts, Target(mark, POSITION[mark], where, tokens, marks))


def rubric(layout: wc.Layout, target: Target) -> list[Check]:
    name = "subscript" if target.position == "sub" else "superscript"
    marked = ", ".join(f"{t[s:e]} of {t}" for t, (s, e) in zip(target.tokens, target.marks, strict=True))
    return [Check(id="script", criterion=f"In {layout.path}, in the paragraph beginning {wc.quoted(target.paragraph)}, "
                                         f"the {marked} are {name} and every other character sits on the baseline.",
                  primitive="docx.script_chars",
                  args={"path": layout.path, "paragraph": target.paragraph, "tokens": list(target.tokens),
                        "marks": [list(m) for m in target.marks], "position": target.position})]


def solve(layout: wc.Layout, target: Target) -> Attempts:
    base = {"op": "docx.script_chars", "path": layout.path, "paragraph_start": target.paragraph,
            "tokens": list(target.tokens), "marks": [list(m) for m in target.marks], "position": target.position}
    other = "super" if target.position == "sub" else "sub"
    near = [Attempt("sets the whole word off the line, not just the marked characters",
                    [{**base, "marks": [[0, len(t)] for t in target.tokens]}]),
            Attempt(f"uses {other}script instead", [{**base, "position": other}]),
            Attempt("fixes only the first of the two words",
                    [{**base, "tokens": list(target.tokens[:1]), "marks": [list(target.marks[0])]}])]
    if target.mark == "ordinal":
        near.append(Attempt("raises the number instead of its letters",
                            [{**base, "marks": [[0, s] for s, _ in target.marks]}]))
    return Attempts(Attempt("the marked characters of each word set off the line", [base]), near)


WORKFLOW = family(
    NAME, wc.WRITER,
    description="Set the digits of chemical formulas as subscript, or the power of square and cubic units or the "
                "letters of ordinals as superscript, in a stated paragraph of a Writer document.",
    knobs={"mark": ("formula", "unit", "ordinal")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
