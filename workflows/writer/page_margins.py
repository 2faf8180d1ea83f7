"""writer.page_margins: set stated page margins (all sides, left and right, top and bottom, or left only) in
cm, mm or inches; sides not mentioned must keep their margins."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from forge.dag import NodeContext, Workflow, node
from forge.model import Check, Solution
from preparers.docx import twips
from workflows.writer import kit as wc

NAME = "writer.page_margins"
VALUES = {"cm": (1.5, 2.5, 3.0, 3.5), "mm": (15, 18, 22, 25, 30), "in": (0.5, 0.75, 1.25, 1.5)}
UNIT_WORDS = {"cm": "cm", "mm": "mm", "in": "inches"}
SIDES = {"all": ("top", "bottom", "left", "right"), "left_right": ("left", "right"),
         "top_bottom": ("top", "bottom"), "left_only": ("left",)}
PHRASINGS = (
    "Open {path} in LibreOffice Writer and change the page margins: {margins}. {keep}Save the document in place "
    "as .docx.",
    "In Format > Page Style for the document {path}, set {margins}. {keep}Then save the file in Word format under "
    "the same name.",
    "The margins of {path} need adjusting: {margins}. {keep}Please make the change and keep the .docx format when "
    "saving.",
    "Please set the page margins of {path} as follows: {margins}. {keep}Save your changes to the same .docx file.",
    "Using LibreOffice Writer, give the document {path} these page margins: {margins}. {keep}Save it in place, "
    "keeping the Word format.",
)


def _show(value: float) -> str:
    return f"{value:g}"


@node("goal", "goal", ("params", "document", "plan"), ("layout", "facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("goal")
    unit, sides = values["params"]["unit"], values["params"]["sides"]
    layout = wc.compose(rng, values["document"], values["plan"])
    initial = wc.DEFAULT_MARGIN[layout.paper]
    value = rng.choice([v for v in VALUES[unit] if abs(twips(v, unit) - initial) > 100])
    changed = SIDES[sides]
    word = UNIT_WORDS[unit]
    names = {"all": "all four margins (top, bottom, left and right)", "left_right": "the left and right margins",
             "top_bottom": "the top and bottom margins", "left_only": "the left margin"}[sides]
    margins = f"{names} to {_show(value)} {word}" + (" each" if len(changed) > 1 else "")
    kept = [s for s in ("top", "bottom", "left", "right") if s not in changed]
    keep = f"Leave the {' and '.join(kept)} margin{'s' if len(kept) > 1 else ''} as they are. " if kept else ""
    facts = {"path": layout.path, "margins": margins, "keep": keep}
    target = {"unit": unit, "value": value, "sides": list(changed), "keep": {s: initial for s in kept},
              "initial": initial}
    return {"layout": layout, "facts": facts, "target": target}


@node("rubric", "rubric", ("layout", "target"), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: wc.Layout = values["layout"]
    t = values["target"]
    args: dict[str, Any] = {"path": layout.path, "unit": t["unit"], **{s: t["value"] for s in t["sides"]}}
    if t["keep"]:
        args["keep"] = t["keep"]
    return {"rubric": [Check(
        id="margins", criterion=f"{layout.path} has {', '.join(t['sides'])} margin(s) of {_show(t['value'])} "
                                f"{t['unit']}; the other margins are unchanged.",
        primitive="docx.page_margins", args=args), wc.text_kept(layout)]}


@node("solve", "solve", ("layout", "target"), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: wc.Layout = values["layout"]
    t = values["target"]
    unit, value, sides = t["unit"], t["value"], t["sides"]
    set_ = {"op": "docx.set_margins", "path": layout.path}
    right = twips(value, unit)
    other_unit = {"cm": "in", "mm": "in", "in": "cm"}[unit]
    wrong = twips(value / 10 if unit == "mm" else value, other_unit)  # the number typed into the wrong unit
    partial = sides[:1] if len(sides) > 1 else ["right"]
    overreach = ["top", "bottom", "left", "right"] if len(sides) < 4 else ["top", "bottom"]
    last_why = "sets every margin, not only the asked ones" if len(sides) < 4 else "sets top and bottom only"
    return {"solutions": [
        Solution("oracle", "sets the stated margins", [{**set_, **{s: right for s in sides}}]),
        Solution("near-miss-1", f"types the value as {other_unit} instead of {unit}",
                 [{**set_, **{s: wrong for s in sides}}]),
        Solution("near-miss-2", "changes only some of the asked margins" if len(sides) > 1 else
                 "changes the right margin instead of the left", [{**set_, **{s: right for s in partial}}]),
        Solution("near-miss-3", last_why, [{**set_, **{s: right for s in overreach}}]),
    ]}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(wc.APP,),
    description="Set page margins (all, left/right, top/bottom or left only) in cm, mm or inches.",
    knobs={"unit": ("cm", "mm", "in"), "sides": ("all", "left_right", "top_bottom", "left_only")},
    nodes=(*wc.source_nodes(), goal, wc.prepare, wc.instruction(NAME, PHRASINGS), rubric, solve),
)
