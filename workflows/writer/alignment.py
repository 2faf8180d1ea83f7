"""writer.alignment: align the title, one body paragraph, or every body paragraph left, center, right or
justified. Paragraphs outside the target must not take the new alignment."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from forge.dag import NodeContext, Workflow, node
from forge.model import Check, Solution
from verifiers.checks.docx import alignment
from workflows.writer import kit as wc

NAME = "writer.alignment"
WORDS = {"left": "left-aligned (align left)", "center": "centered (align center)",
         "right": "right-aligned (align right)", "justify": "justified (justify, flush with both margins)"}
WRONG = {"left": "center", "center": "right", "right": "center", "justify": "center"}
PHRASINGS = (
    "Open {path} in LibreOffice Writer and make {what} {how}. Leave the alignment of every other paragraph as it "
    "is, and save the document in place as .docx.",
    "In the document {path}, {what} should be {how}. Change only that, then save the file in Word format under the "
    "same name.",
    "Please change the paragraph alignment in {path}: {what} must be {how}; other paragraphs keep their current "
    "alignment. Keep the .docx format when saving.",
    "Using the alignment buttons in Writer, make {what} of {path} {how}. Save your changes to the same .docx file.",
    "Edit {path} so that {what} is {how}, without touching the alignment of anything else. Save it as .docx in "
    "place.",
)


@node("goal", "goal", ("params", "document", "plan"), ("layout", "facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("goal")
    align, where = values["params"]["align"], values["params"]["target"]
    layout = wc.compose(rng, values["document"], values["plan"])
    if align == "left":  # start from a document where left alignment is not already there
        layout = layout.with_blocks([wc.Para(b.text, b.role, b.style, {**b.fmt, "align": "justify"})
                                     if isinstance(b, wc.Para) and b.role == "body" else
                                     wc.Para(b.text, b.role, b.style, {**b.fmt, "align": "center"})
                                     if isinstance(b, wc.Para) and b.role == "title" else b for b in layout.blocks])
    body = wc.targets(layout, "body")
    title = layout.texts("title")[0]
    paragraph, paragraphs = None, []
    if where == "title":
        paragraph = title
        what = f"the title {wc.quoted(title)}"
        unchanged = [loc for _, loc in body]
    elif where == "paragraph":
        para, paragraph = rng.choice(body)
        what = f"the paragraph beginning {wc.quoted(paragraph)}"
        unchanged = [loc for p, loc in body if p is not para] + [title]
    else:
        paragraphs = [loc for _, loc in body]
        what = (f"every body paragraph (the {len(body)} paragraphs of running text under the section headings; not "
                "the title, the headings or the short lines at the top and bottom)")
        unchanged = [title]
    facts = {"path": layout.path, "what": what, "how": WORDS[align]}
    target = {"align": align, "paragraph": paragraph, "paragraphs": paragraphs, "unchanged": unchanged,
              "body": [loc for _, loc in body], "title": title, "where": where}
    return {"layout": layout, "facts": facts, "target": target}


@node("rubric", "rubric", ("layout", "target", "assets"), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: wc.Layout = values["layout"]
    t = values["target"]
    targets = [t["paragraph"]] if t["paragraph"] else t["paragraphs"]
    # every other paragraph keeps the alignment it had: re-aligning them (to anything) is not the task
    kept = wc.kept_paragraphs(layout, values["assets"], targets, alignment)
    args: dict[str, Any] = {"path": layout.path, "align": t["align"], "unchanged": kept}
    if t["paragraph"]:
        args["paragraph"] = t["paragraph"]
    else:
        args["paragraphs"] = t["paragraphs"]
    return {"rubric": [Check(
        id="align", criterion=f"In {layout.path}, the {t['where']} target is aligned {t['align']} and every other "
                              "paragraph keeps its alignment.",
        primitive="docx.paragraph_alignment", args=args), wc.text_kept(layout),
        wc.chars_kept(layout, values["assets"])]}


@node("solve", "solve", ("layout", "target"), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: wc.Layout = values["layout"]
    t = values["target"]
    targets = [t["paragraph"]] if t["paragraph"] else t["paragraphs"]
    base = {"op": "docx.set_alignment", "path": layout.path, "align": t["align"]}
    if t["where"] == "body":
        wrong_target = ("misses the last body paragraph", targets[:-1])
    elif t["where"] == "title":
        wrong_target = ("aligns the first body paragraph instead of the title", t["body"][:1])
    else:
        wrong_target = ("aligns the next paragraph instead", [t["unchanged"][0]])
    return {"solutions": [
        Solution("oracle", f"aligns the target {t['align']}", [{**base, "paragraphs": targets}]),
        Solution("near-miss-1", f"aligns it {WRONG[t['align']]} instead",
                 [{**base, "paragraphs": targets, "align": WRONG[t["align"]]}]),
        Solution("near-miss-2", wrong_target[0], [{**base, "paragraphs": wrong_target[1]}]),
        Solution("near-miss-3", "aligns the whole document (select all)",
                 [{**base, "paragraphs": [wc.norm(p) for p in layout.texts()]}]),
    ]}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(wc.APP,),
    description="Align the title, a paragraph or all body paragraphs left, center, right or justified.",
    knobs={"align": ("left", "center", "right", "justify"), "target": ("title", "paragraph", "body")},
    nodes=(*wc.source_nodes(), goal, wc.prepare, wc.instruction(NAME, PHRASINGS), rubric, solve),
)
