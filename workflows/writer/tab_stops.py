"""writer.tab_stops: a short list typed with a tab between a name and a value (a header line and 3-5 rows) sits
under a lead paragraph; give those lines a left, right or centred tab stop at a stated position so the values line
up (Format > Paragraph > Tabs).

The check reads each line's effective tab stops (style chain, then the paragraph's own, cleared stops removed):
exactly the asked stop. The other paragraphs keep theirs; the docx frame does not read tab stops, so the check
carries them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Asset, Check
from verifiers.checks.docx_tabs import tab_stops
from workflows.writer import kit as wc

NAME = "writer.tab_stops"
POSITIONS = {"left": (5.0, 6.0, 7.0), "right": (12.0, 13.0, 14.0), "center": (8.0, 9.0, 10.0)}
SAID = {"left": "left tab stop", "right": "right tab stop", "center": "centered tab stop"}
WRONG = {"left": "right", "right": "left", "center": "left"}
PHRASINGS = (
    "Open {path} in LibreOffice Writer. The {n} lines right after the paragraph {lead} each hold a name and a value "
    "separated by a tab. Give those lines a {stop} at {cm} cm (from the left margin) so the values line up. Change "
    "nothing else and save the document in place as .docx.",
    "In the document {path}, set a {stop} at {cm} cm for the {n} tab-separated lines below {lead} (Format > "
    "Paragraph > Tabs). Leave every other paragraph as it is and save the file in Word format under the same name.",
    "Please line up the values in the {n} lines after {lead} in {path}: add a {stop} at {cm} cm to those lines only. "
    "Keep the .docx format when saving.",
    "Edit {path}: the {n} lines following {lead} need a {stop} at position {cm} cm. Don't touch the other "
    "paragraphs, and save it as .docx in place.",
    "Using LibreOffice Writer, give each of the {n} lines under the paragraph {lead} in {path} one {stop} at "
    "{cm} cm. Save your changes to the same .docx file.",
)
NATURAL = (
    "The values in the lines under {lead} in {path.file} don't line up. Please give those lines a {stop} at {cm} cm.",
    "Could you add a {stop} at {cm} cm to the {n} lines after {lead} in {path.file}?",
    "In {path.file}, please set a {stop} at {cm} cm for the tabbed lines below {lead}.",
    "I'd like the lines following {lead} in my document {path.file} to use a {stop} at {cm} cm.",
    "Please tidy up the list under {lead} in {path.file} with a {stop} at {cm} cm.",
)


class Params(TypedDict):
    align: Literal["left", "right", "center"]


@dataclass(frozen=True)
class Target:
    align: str
    cm: float
    lines: list[str]  # the texts of the tabbed lines (their own locators: each starts differently)
    margin_cm: float  # the page's left margin, for the near-miss that measures from the page edge


def goal(rng: random.Random, params: Params, document: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[wc.Layout, Target]:
    align = params["align"]
    layout = wc.compose(rng, document, plan, table="lead")
    table = document["table"]
    rows = [list(table["header"])] + [list(r) for r in table["rows"][:rng.randint(3, 5)]]
    blocks = list(layout.blocks)
    at = next(i for i, b in enumerate(blocks) if isinstance(b, wc.Para) and b.role == "lead") + 1
    lines = [f"{row[0]}\t{row[1]}" for row in rows]
    layout = layout.with_blocks(blocks[:at] + [wc.Para(line, "line") for line in lines] + blocks[at:])
    lead = blocks[at - 1]
    assert isinstance(lead, wc.Para)
    after = layout.locate(lead.text)
    assert after is not None
    cm = rng.choice(POSITIONS[align])
    margin = wc.DEFAULT_MARGIN[layout.paper] * 2.54 / 1440
    facts = {"path": layout.path, "lead": wc.quoted(after), "n": str(len(lines)), "stop": SAID[align],
             "cm": f"{cm:g}"}
    return Goal(layout, facts, Target(align, cm, lines, round(margin, 2)))


def rubric(layout: wc.Layout, target: Target, assets: list[Asset]) -> list[Check]:
    selectors = [wc.norm(line) for line in target.lines]
    # every other paragraph keeps its tab stops: the docx frame does not read them
    kept = wc.kept_paragraphs(layout, assets, selectors, tab_stops)
    return [Check(id="tabs", criterion=f"In {layout.path}, each of the {len(selectors)} tabbed lines has one "
                                       f"{SAID[target.align]} at {target.cm:g} cm; the other paragraphs keep their "
                                       "tab stops.",
                  primitive="docx.tab_stop",
                  args={"path": layout.path, "align": target.align, "cm": target.cm, "targets": selectors,
                        "unchanged": kept})]


def solve(layout: wc.Layout, target: Target) -> Attempts:
    selectors = [wc.norm(line) for line in target.lines]
    base = {"op": "docx.add_tab_stop", "path": layout.path, "paragraphs": selectors, "cm": target.cm,
            "align": target.align}
    wrong = WRONG[target.align]
    return Attempts(
        Attempt("the stated tab stop on each tabbed line", [base]),
        [Attempt(f"uses a {wrong} tab stop instead", [{**base, "align": wrong}]),
         Attempt("measures the position from the page edge instead of the margin",
                 [{**base, "cm": round(target.cm - target.margin_cm, 2)}]),
         Attempt("misses the last line", [{**base, "paragraphs": selectors[:-1]}]),
         Attempt("sets the tab stop on every paragraph of the document",
                 [{**base, "paragraphs": [wc.norm(t) for t in layout.texts()]}])],
    )


WORKFLOW = family(
    NAME, wc.WRITER,
    description="Give the tab-separated lines under a stated paragraph a left, right or centred tab stop at a "
                "stated position in cm, leaving every other paragraph's tab stops alone.",
    knobs={"align": ("left", "right", "center")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
