"""writer.header_footer: add a header or footer holding stated text or an automatic page number, aligned left,
center or right. A typed "1" is not a page number: the check wants a PAGE field."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from forge.dag import NodeContext, Workflow, node
from forge.model import Check, Solution
from workflows.writer import kit as wc

NAME = "writer.header_footer"
ALIGN_WORDS = {"left": "left-aligned", "center": "centered", "right": "right-aligned"}
LABELS = ("Confidential", "Internal use only", "Draft for discussion", "For review", "Final version")
PHRASINGS = (
    "Open {path} in LibreOffice Writer and add a {part} to the pages that contains {content}, {align_word} "
    "(align {align}). Save the document in place as .docx.",
    "The document {path} needs a {part}: {content}, aligned {align}. Please add it in Writer (Insert > Header and "
    "Footer) and save the file in Word format under the same name.",
    "Please give {path} a {part} showing {content}. The {part} text should be {align_word} (align {align}). Keep "
    "the .docx format when saving.",
    "In Writer, switch on the {part} for {path} and put {content} in it, aligned {align}. Save your changes to the "
    "same .docx file.",
    "Add {content} to the {part} of {path}, {align_word} (align {align}), then save it as .docx in place.",
)


@node("goal", "goal", ("params", "document", "plan"), ("layout", "facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("goal")
    part, content, align = values["params"]["part"], values["params"]["content"], values["params"]["align"]
    document = values["document"]
    layout = wc.compose(rng, document, values["plan"])
    text = None
    if content == "text":
        text = rng.choice((f"{document['org']} | {rng.choice(LABELS)}", f"{document['title']} | {document['org']}",
                           f"{rng.choice(LABELS)} | {document['org']}"))
        shown = f'the text "{text}" (typed exactly like that)'
    else:
        shown = "an automatic page number (a page number field that changes from page to page, not a typed number)"
    facts = {"path": layout.path, "part": part, "content": shown, "align": align, "align_word": ALIGN_WORDS[align]}
    return {"layout": layout, "facts": facts,
            "target": {"part": part, "text": text, "page_number": content == "page_number", "align": align}}


@node("rubric", "rubric", ("layout", "target"), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: wc.Layout = values["layout"]
    t = values["target"]
    args: dict[str, Any] = {"path": layout.path, "part": t["part"], "page_number": t["page_number"],
                            "align": t["align"]}
    what = "a page number field"
    if t["text"]:
        args["text"] = t["text"]
        what = f'"{t["text"]}"'
    return {"rubric": [Check(
        id=t["part"], criterion=f"The {t['part']} of {layout.path} holds {what}, aligned {t['align']}.",
        primitive="docx.header_footer", args=args), wc.text_kept(layout)]}


@node("solve", "solve", ("layout", "target"), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: wc.Layout = values["layout"]
    t = values["target"]
    other_part = "footer" if t["part"] == "header" else "header"
    other_align = "center" if t["align"] != "center" else "right"
    right = {"op": "docx.set_header_footer", "path": layout.path, "part": t["part"], "align": t["align"],
             **({"text": t["text"]} if t["text"] else {"page_number": True})}
    if t["text"]:
        words = t["text"].split(" | ")
        third = Solution("near-miss-3", "types only part of the text", [{**right, "text": words[0]}])
    else:
        third = Solution("near-miss-3", "types the number 1 instead of inserting a page number field",
                         [{**right, "literal_number": True}])
    return {"solutions": [
        Solution("oracle", f"{t['part']} as stated", [right]),
        Solution("near-miss-1", f"puts it in the {other_part} instead", [{**right, "part": other_part}]),
        Solution("near-miss-2", f"aligns it {other_align}", [{**right, "align": other_align}]),
        third,
    ]}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(wc.APP,),
    description="Add a header or footer with stated text or an automatic page number, aligned left/center/right.",
    knobs={"part": ("header", "footer"), "content": ("text", "page_number"), "align": ("left", "center", "right")},
    nodes=(*wc.source_nodes(), goal, wc.prepare, wc.instruction(NAME, PHRASINGS), rubric, solve),
)
