"""writer.line_spacing: set line spacing (single, 1.5, double, exactly N pt, at least N pt) on one body paragraph
or on every body paragraph; the title, headings and other paragraphs keep theirs."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from forge.dag import NodeContext, Workflow, node
from forge.model import Check, Solution
from verifiers.checks.docx import line_spacing_of
from workflows.writer import kit as wc

NAME = "writer.line_spacing"
#: knob -> (rule, value, how the instruction says it, near-miss (rule, value, why))
SPACINGS: dict[str, tuple[str, float, str, tuple[str, float, str]]] = {
    "single": ("multiple", 1.0, "single line spacing (1.0 line)", ("multiple", 1.5, "uses 1.5 lines")),
    "one_half": ("multiple", 1.5, "1.5 line spacing (one and a half lines)", ("multiple", 2.0, "uses double")),
    "double": ("multiple", 2.0, "double line spacing (2 lines)", ("multiple", 1.5, "uses 1.5 lines")),
    "exact": ("exact", 18.0, "a fixed line spacing of exactly 18 pt", ("atLeast", 18.0, "uses 'at least 18 pt'")),
    "at_least": ("atLeast", 16.0, "a line spacing of at least 16 pt (the 'At least' setting)",
                 ("exact", 16.0, "uses 'fixed' instead of 'at least'")),
}
PHRASINGS = (
    "Open {path} in LibreOffice Writer and give {what} {how}. Leave the spacing of the title, the headings and all "
    "other paragraphs unchanged. Save the document in place as .docx.",
    "In the document {path}, set {what} to {how}. Nothing else should change; save the file in Word format under "
    "the same name.",
    "Please use Format > Paragraph in Writer to give {what} of {path} {how}. Other paragraphs keep their current "
    "spacing. Keep the .docx format when saving.",
    "Edit {path}: {what} needs {how}. Don't modify the paragraph styles or any other paragraph, and save it as .docx "
    "in place.",
    "Change the line spacing of {what} in {path} to {how}, then save your changes to the same .docx file.",
)


@node("goal", "goal", ("params", "document", "plan"), ("layout", "facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("goal")
    spacing, where = values["params"]["spacing"], values["params"]["target"]
    layout = wc.compose(rng, values["document"], values["plan"])
    body = wc.targets(layout, "body")
    # the Title style is single-spaced already, so it can only show a change for the other spacings
    keep = [loc for _, loc in wc.targets(layout, *(("heading",) if spacing == "single" else ("title", "heading")))]
    if where == "paragraph":
        para, paragraph = rng.choice(body)
        targets = [paragraph]
        unchanged = [loc for p, loc in body if p is not para] + keep
        what = f"the paragraph beginning {wc.quoted(paragraph)}"
    else:
        targets = [loc for _, loc in body]
        unchanged = keep
        what = (f"every body paragraph (the {len(body)} paragraphs of running text under the section headings; not "
                "the title, the headings or the short lines at the top and bottom)")
    facts = {"path": layout.path, "what": what, "how": SPACINGS[spacing][2]}
    return {"layout": layout, "facts": facts,
            "target": {"spacing": spacing, "where": where, "targets": targets, "unchanged": unchanged}}


@node("rubric", "rubric", ("layout", "target", "assets"), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: wc.Layout = values["layout"]
    t = values["target"]
    rule, value, how, _ = SPACINGS[t["spacing"]]
    # every other paragraph keeps the spacing it had: respacing them (to anything) is not the task
    kept = wc.kept_paragraphs(layout, values["assets"], t["targets"], lambda doc, p: list(line_spacing_of(doc, p)))
    args: dict[str, Any] = {"path": layout.path, "rule": rule, "value": value, "unchanged": kept}
    if t["where"] == "paragraph":
        args["paragraph"] = t["targets"][0]
    else:
        args["paragraphs"] = t["targets"]
    return {"rubric": [Check(
        id="spacing", criterion=f"In {layout.path}, the {t['where']} target has {how}; title, headings and other "
                                "paragraphs keep their spacing.",
        primitive="docx.line_spacing", args=args), wc.text_kept(layout), wc.chars_kept(layout, values["assets"])]}


@node("solve", "solve", ("layout", "target"), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: wc.Layout = values["layout"]
    t = values["target"]
    rule, value, _, (wrong_rule, wrong_value, why) = SPACINGS[t["spacing"]]
    base = {"op": "docx.set_line_spacing", "path": layout.path, "rule": rule, "value": value}
    targets = t["targets"]
    if t["where"] == "body":
        partial = ("misses the last body paragraph", targets[:-1])
    else:
        partial = ("changes the next paragraph instead", t["unchanged"][:1])
    return {"solutions": [
        Solution("oracle", "sets the stated spacing on the target", [{**base, "paragraphs": targets}]),
        Solution("near-miss-1", why, [{**base, "paragraphs": targets, "rule": wrong_rule, "value": wrong_value}]),
        Solution("near-miss-2", partial[0], [{**base, "paragraphs": partial[1]}]),
        Solution("near-miss-3", "changes every paragraph, title and headings included",
                 [{**base, "paragraphs": [wc.norm(p) for p in layout.texts()]}]),
    ]}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(wc.APP,),
    description="Set single, 1.5, double, exact or at-least line spacing on a paragraph or all body paragraphs.",
    knobs={"spacing": tuple(SPACINGS), "target": ("paragraph", "body")},
    nodes=(*wc.source_nodes(), goal, wc.prepare, wc.instruction(NAME, PHRASINGS), rubric, solve),
)
