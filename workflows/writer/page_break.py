"""writer.page_break: make a stated heading or paragraph start on a new page, every section heading start a new
page, or break the page right after a stated paragraph. Exactly the asked breaks must exist; a break may be a
manual page break (Ctrl+Enter) or the paragraph's "page break before" setting."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from forge.dag import NodeContext, Workflow, node
from forge.model import Check, Solution
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


@node("goal", "goal", ("params", "document", "plan"), ("layout", "facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("goal")
    where = values["params"]["target"]
    layout = wc.compose(rng, values["document"], values["plan"])
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
    facts = {"path": layout.path, "task": task}
    target = {"where": where, "paragraph": paragraph, "paragraphs": paragraphs, "at": at, "locs": locs,
              "headings": [locs[i] for i in headings]}
    return {"layout": layout, "facts": facts, "target": target}


@node("rubric", "rubric", ("layout", "target"), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: wc.Layout = values["layout"]
    t = values["target"]
    args: dict[str, Any] = {"path": layout.path}
    if t["paragraph"]:
        args["paragraph"] = t["paragraph"]
    else:
        args["paragraphs"] = t["paragraphs"]
    starts = ", ".join(wc.quoted(p) for p in ([t["paragraph"]] if t["paragraph"] else t["paragraphs"]))
    return {"rubric": [Check(
        id="breaks", criterion=f"In {layout.path}, exactly these paragraphs start a new page: {starts}.",
        primitive="docx.page_breaks", args=args), wc.text_kept(layout)]}


@node("solve", "solve", ("layout", "target"), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: wc.Layout = values["layout"]
    t = values["target"]
    locs, at = t["locs"], t["at"]
    how = "property" if t["where"] in ("heading", "every_heading") else "run"

    def breaks(*selectors: str) -> list[dict[str, Any]]:
        return [{"op": "docx.page_break", "path": layout.path, "paragraph_start": s, "how": how} for s in selectors]

    targets = [t["paragraph"]] if t["paragraph"] else t["paragraphs"]
    after = locs[at + 1] if at + 1 < len(locs) else locs[at - 2]
    if t["where"] == "every_heading":
        misses = [("misses the last heading", breaks(*targets[:-1])),
                  ("breaks after each heading instead of before it", breaks(*(locs[locs.index(h) + 1]
                                                                              for h in targets))),
                  ("also breaks before the title block's last line", breaks(locs[at - 1], *targets))]
    else:
        misses = [("breaks one paragraph too late", breaks(after)),
                  ("breaks one paragraph too early", breaks(locs[at - 1])),
                  ("adds a second break before the next paragraph as well", breaks(*targets, after))]
    return {"solutions": [Solution("oracle", "page break exactly where asked", breaks(*targets))] + [
        Solution(f"near-miss-{i}", why, ops) for i, (why, ops) in enumerate(misses, start=1)]}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(wc.APP,),
    description="Insert a page break before a stated heading or paragraph, before every heading, or after a paragraph.",
    knobs={"target": ("heading", "paragraph", "every_heading", "after_paragraph")},
    nodes=(*wc.source_nodes(), goal, wc.prepare, wc.instruction(NAME, PHRASINGS), rubric, solve),
)
