"""writer.lists: turn typed action-item lines into a bulleted or numbered list, flat or with the sub-points
one level deeper. Checks accept list styles (List Bullet, List Number 2 ...) and direct numbering (numPr),
which is what Writer's toolbar buttons save."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.writer import kit as wc

NAME = "writer.lists"
STYLES = {"bullet": "List Bullet", "number": "List Number"}  # what the oracle applies
KIND_WORDS = {"bullet": "a bulleted list", "number": "a numbered list (1, 2, 3 ...)"}
PHRASINGS = (
    "Open {path} in LibreOffice Writer. Under the line {lead}, turn {span} into {kind}.{nested} Don't change the "
    "wording or the other paragraphs. Save the document in place as .docx.",
    "In the document {path}, the action items after {lead} are plain paragraphs. Format {span} as {kind}.{nested} "
    "Save the file in Word format under the same name.",
    "Please make {span} in {path} {kind}.{nested} Only those lines belong to the list (not {lead}). Keep the .docx "
    "format when saving.",
    "Using the list buttons or list styles in Writer, format {span} of {path} as {kind}.{nested} Leave the rest of "
    "the document as it is and save it as .docx.",
    "Edit {path}: {span}, which follow {lead}, should become {kind}.{nested} Save your changes in place.",
)
NATURAL = (
    "In {path.file}, turn {span.bare} under {lead} into {kind.bare}.{nested.bare}",
    "Help me format the items after {lead} in {path.file} as {kind.bare}: {span.bare}.{nested.bare}",
    "Could you make {span.bare} in my document {path.file} {kind.bare}?{nested.bare}",
    "I'd like {span.bare} of {path.file} shown as {kind.bare}, keeping the wording.{nested.bare}",
    "Please convert {span.bare} in {path.file} into {kind.bare}; the line {lead} stays as it "
    "is.{nested.bare}",
)


class Params(TypedDict):
    kind: Literal["bullet", "number"]
    structure: Literal["flat", "nested"]


@dataclass(frozen=True)
class Target:
    kind: str  # bullet | number
    items: list[str]  # locators of the first-level lines
    subitems: list[str]  # locators of the second-level lines (nested only)
    lead: str  # locator of the lead-in line, which is not part of the list


def goal(rng: random.Random, params: Params, document: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[wc.Layout, Target]:
    kind, structure = params["kind"], params["structure"]
    layout = wc.compose(rng, document, plan, items=True)
    subs: dict[str, list[str]] = {}
    if structure == "nested":
        for item in rng.sample(document["items"], 2):
            subs[item["text"]] = list(item["details"])
        blocks: list[wc.Para | wc.Grid] = []
        for b in layout.blocks:
            blocks.append(b)
            if isinstance(b, wc.Para) and b.role == "item":
                blocks += [wc.Para(d, "subitem") for d in subs.get(b.text, [])]
        layout = layout.with_blocks(blocks)
    items = [layout.locate(t) or t for t in layout.texts("item")]
    subitems = [layout.locate(t) or t for t in layout.texts("subitem")]
    lines = layout.texts("item", "subitem")
    span = f"the {len(lines)} lines from {wc.quoted(lines[0])} to {wc.quoted(lines[-1])}"
    nested = ""
    if subs:
        groups = "; ".join(f"{' and '.join(wc.quoted(d) for d in ds)} under {wc.quoted(parent)}"
                           for parent, ds in subs.items())
        nested = (f" The sub-points {groups} must be indented one level deeper (a second list level); the other "
                  "lines form the first level.")
    lead = layout.texts("lead")[0]
    facts = {"path": layout.path, "lead": wc.quoted(lead), "span": span, "kind": KIND_WORDS[kind], "nested": nested}
    return Goal(layout, facts, Target(kind, items, subitems, layout.locate(lead) or lead))


def rubric(layout: wc.Layout, target: Target) -> list[Check]:
    args: dict[str, Any] = {"path": layout.path, "kind": target.kind, "items": target.items}
    if target.subitems:
        args["subitems"] = target.subitems
    return [Check(id="list", criterion=f"In {layout.path}, the {len(target.items)} action items are {target.kind} "
                                       "list items"
                                       + (" with their sub-points at the second level" if target.subitems else "")
                                       + ", and no other paragraph is a list item.",
                  primitive="docx.list_paragraphs", args=args)]


def solve(layout: wc.Layout, target: Target) -> Attempts:
    other = "number" if target.kind == "bullet" else "bullet"

    def ops(kind: str, items: list[str], subitems: list[str]) -> list[dict[str, Any]]:
        out = [{"op": "docx.set_style", "path": layout.path, "paragraphs": items, "style": STYLES[kind]}]
        if subitems:
            out.append({"op": "docx.set_style", "path": layout.path, "paragraphs": subitems,
                        "style": f"{STYLES[kind]} 2"})
        return out

    kind, items, subs = target.kind, target.items, target.subitems
    second = (Attempt("keeps the sub-points at the first level", ops(kind, items + subs, [])) if subs else
              Attempt("leaves out the last item", ops(kind, items[:-1], [])))
    return Attempts(
        Attempt(f"applies {STYLES[kind]} to the items", ops(kind, items, subs)),
        [Attempt(f"makes a {other} list instead", ops(other, items, subs)),
         second,
         Attempt("includes the lead-in line in the list", ops(kind, [target.lead, *items], subs))],
    )


WORKFLOW = family(
    NAME, wc.WRITER,
    description="Format typed action items as a bulleted or numbered list, flat or with second-level sub-points.",
    knobs={"kind": ("bullet", "number"), "structure": ("flat", "nested")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
