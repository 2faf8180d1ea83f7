"""writer.lists: turn typed action-item lines into a bulleted or numbered list, flat or with the sub-points
one level deeper. Checks accept list styles (List Bullet, List Number 2 ...) and direct numbering (numPr),
which is what Writer's toolbar buttons save."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from forge.dag import NodeContext, Workflow, node
from forge.model import Check, Solution
from workflows.writer import kit as wc

NAME = "writer.lists"
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


@node("goal", "goal", ("params", "document", "plan"), ("layout", "facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("goal")
    kind, structure = values["params"]["kind"], values["params"]["structure"]
    document = values["document"]
    layout = wc.compose(rng, document, values["plan"], items=True)
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
    target = {"kind": kind, "items": items, "subitems": subitems, "lead": layout.locate(lead) or lead}
    return {"layout": layout, "facts": facts, "target": target}


@node("rubric", "rubric", ("layout", "target"), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: wc.Layout = values["layout"]
    t = values["target"]
    args: dict[str, Any] = {"path": layout.path, "kind": t["kind"], "items": t["items"]}
    if t["subitems"]:
        args["subitems"] = t["subitems"]
    return {"rubric": [Check(
        id="list", criterion=f"In {layout.path}, the {len(t['items'])} action items are {t['kind']} list items"
                             + (" with their sub-points at the second level" if t["subitems"] else "")
                             + ", and no other paragraph is a list item.",
        primitive="docx.list_paragraphs", args=args), wc.text_kept(layout)]}


@node("solve", "solve", ("layout", "target"), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: wc.Layout = values["layout"]
    t = values["target"]
    style = {"bullet": "List Bullet", "number": "List Number"}
    other = "number" if t["kind"] == "bullet" else "bullet"

    def ops(kind: str, items: list[str], subitems: list[str]) -> list[dict[str, Any]]:
        out = [{"op": "docx.set_style", "path": layout.path, "paragraphs": items, "style": style[kind]}]
        if subitems:
            out.append({"op": "docx.set_style", "path": layout.path, "paragraphs": subitems,
                        "style": f"{style[kind]} 2"})
        return out

    items, subs = t["items"], t["subitems"]
    second = (Solution("near-miss-2", "keeps the sub-points at the first level", ops(t["kind"], items + subs, []))
              if subs else Solution("near-miss-2", "leaves out the last item", ops(t["kind"], items[:-1], [])))
    return {"solutions": [
        Solution("oracle", f"applies {style[t['kind']]} to the items", ops(t["kind"], items, subs)),
        Solution("near-miss-1", f"makes a {other} list instead", ops(other, items, subs)),
        second,
        Solution("near-miss-3", "includes the lead-in line in the list", ops(t["kind"], [t["lead"], *items], subs)),
    ]}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(wc.APP,),
    description="Format typed action items as a bulleted or numbered list, flat or with second-level sub-points.",
    knobs={"kind": ("bullet", "number"), "structure": ("flat", "nested")},
    nodes=(*wc.source_nodes(), goal, wc.prepare, wc.instruction(NAME, PHRASINGS), rubric, solve),
)
