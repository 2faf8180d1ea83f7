"""writer.page_setup: set the paper size (A4, Letter, Legal, A5) and orientation (portrait or landscape).

The initial document has the other orientation, usually on another paper, so both settings matter.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from forge.dag import NodeContext, Workflow, node
from forge.model import Check, Solution
from workflows.writer import kit as wc

NAME = "writer.page_setup"
PAPERS = ("A4", "Letter", "Legal", "A5")
PHRASINGS = (
    "Open {path} in LibreOffice Writer and change the page to {paper} paper in {orientation} orientation. Save the "
    "document in place as .docx.",
    "The document {path} should be printed on {paper} paper, {orientation}. Adjust the page format (paper size and "
    "orientation) accordingly and save the file in Word format under the same name.",
    "In Format > Page Style for {path}, set the paper format to {paper} and the orientation to {orientation}. Keep "
    "the .docx format when saving.",
    "Please switch {path} to {orientation} pages of size {paper}, then save it as .docx in place.",
    "Using LibreOffice Writer, make every page of {path} {paper}, {orientation}. Save your changes to the same .docx "
    "file.",
)


@node("goal", "goal", ("params", "document", "plan"), ("layout", "facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("goal")
    paper, orientation = values["params"]["paper"], values["params"]["orientation"]
    layout = wc.compose(rng, values["document"], values["plan"])
    start_paper = rng.choice([p for p in ("A4", "Letter") if p != paper])
    start = "portrait" if orientation == "landscape" else "landscape"
    layout = replace(layout, paper=start_paper, orientation=start)
    facts = {"path": layout.path, "paper": paper, "orientation": orientation}
    return {"layout": layout, "facts": facts,
            "target": {"paper": paper, "orientation": orientation, "start_paper": start_paper, "start": start}}


@node("rubric", "rubric", ("layout", "target"), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: wc.Layout = values["layout"]
    t = values["target"]
    return {"rubric": [Check(
        id="page", criterion=f"Every page of {layout.path} is {t['paper']} in {t['orientation']} orientation.",
        primitive="docx.page_size", args={"path": layout.path, "paper": t["paper"], "orientation": t["orientation"]}),
        wc.text_kept(layout)]}


@node("solve", "solve", ("layout", "target"), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: wc.Layout = values["layout"]
    t = values["target"]
    base = {"op": "docx.set_page", "path": layout.path}
    paper, orientation = t["paper"], t["orientation"]
    other = next(p for p in PAPERS if p not in (paper, t["start_paper"]))
    third = (Solution("near-miss-3", "flips the orientation flag but keeps portrait page dimensions",
                      [{**base, "paper": paper, "orientation": orientation, "swap": False}])
             if orientation == "landscape" else
             Solution("near-miss-3", f"picks {other} instead of {paper}",
                      [{**base, "paper": other, "orientation": orientation}]))
    return {"solutions": [
        Solution("oracle", f"{paper} {orientation}", [{**base, "paper": paper, "orientation": orientation}]),
        Solution("near-miss-1", f"sets {paper} but keeps the {t['start']} orientation",
                 [{**base, "paper": paper, "orientation": t["start"]}]),
        Solution("near-miss-2", f"turns the page {orientation} but keeps {t['start_paper']} paper",
                 [{**base, "paper": t["start_paper"], "orientation": orientation}]),
        third,
    ]}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(wc.APP,),
    description="Set a document's paper size (A4, Letter, Legal, A5) and orientation (portrait or landscape).",
    knobs={"paper": PAPERS, "orientation": ("landscape", "portrait")},
    nodes=(*wc.source_nodes(), goal, wc.prepare, wc.instruction(NAME, PHRASINGS), rubric, solve),
)
