"""writer.heading: turn typed title/section lines (bold Normal text) into Heading 1/2/3 paragraphs.

Targets: the title line, one section line, every section line, or an outline (title one level, sections
the next). The check is exclusive: only the stated lines may carry the heading style.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from forge.dag import NodeContext, Workflow, node
from forge.model import Check, Solution
from workflows.writer import kit as wc

NAME = "writer.heading"
PHRASINGS = (
    "Open {path} in LibreOffice Writer and {task}. Do not change any wording. Save the document in place, "
    "keeping the Word (.docx) format.",
    "The document {path} has its headings typed as plain bold text. Please {task}, then save it under the same "
    "name as .docx.",
    "In LibreOffice Writer, {task} in the file {path}. Leave everything else alone and keep it as a .docx file "
    "when you save.",
    "Fix the structure of {path}: {task}. Save your changes to the same file in Word format.",
    "Using the paragraph styles list in Writer, {task} in {path}, and save the file as .docx in place.",
)


def _lines(lines: list[str]) -> str:
    return ", ".join(wc.quoted(t) for t in lines)


@node("goal", "goal", ("params", "document", "plan"), ("layout", "facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("goal")
    params = values["params"]
    layout = wc.compose(rng, values["document"], values["plan"], styled=False)
    level, target = params["level"], params["target"]
    title = layout.texts("title")[0]
    headings = layout.texts("heading")
    style, sub = f"Heading {level}", f"Heading {level + 1}"
    groups: list[tuple[str, list[str]]]
    if target == "title":
        groups = [(style, [title])]
        task = f'apply the paragraph style "{style}" to the title line {wc.quoted(title)}'
    elif target == "section":
        groups = [(style, [rng.choice(headings)])]
        task = f'apply the paragraph style "{style}" to the section line {wc.quoted(groups[0][1][0])}'
    elif target == "all_sections":
        groups = [(style, headings)]
        task = f'apply the paragraph style "{style}" to every section line: {_lines(headings)}'
    else:
        groups = [(style, [title]), (sub, headings)]
        task = (f'apply the paragraph style "{style}" to the title line {wc.quoted(title)} and the style "{sub}" '
                f"to every section line: {_lines(headings)}")
    facts = {"path": layout.path, "task": task}
    return {"layout": layout, "facts": facts, "target": {"groups": groups, "headings": headings, "title": title}}


@node("rubric", "rubric", ("layout", "target"), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: wc.Layout = values["layout"]
    checks = [Check(id=f"style-{i}", criterion=f"In {layout.path}, exactly the lines {_lines(lines)} use the "
                                               f"paragraph style {style!r}.",
                    primitive="docx.styled_paragraphs",
                    args={"path": layout.path, "style": style, "paragraphs": lines})
              for i, (style, lines) in enumerate(values["target"]["groups"], start=1)]
    return {"rubric": [*checks, wc.text_kept(layout)]}


@node("solve", "solve", ("params", "layout", "target"), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: wc.Layout = values["layout"]
    t = values["target"]
    level = values["params"]["level"]
    groups: list[tuple[str, list[str]]] = t["groups"]

    def ops(pairs: list[tuple[str, list[str]]]) -> list[dict[str, Any]]:
        return [{"op": "docx.set_style", "path": layout.path, "paragraphs": lines, "style": style}
                for style, lines in pairs]

    wrong_level = f"Heading {level + 1 if level < 3 else level - 1}"
    first_style, first_lines = groups[0]
    others = [h for h in t["headings"] if h not in first_lines] or [t["title"]]
    wrong_target = [(first_style, [others[0]] + first_lines[1:])] + groups[1:]
    body = layout.texts("body")
    after = layout.texts()[layout.texts().index(first_lines[-1]) + 1]
    extra = body[0] if after not in body else after
    return {"solutions": [
        Solution("oracle", "applies the stated heading styles", ops(groups)),
        Solution("near-miss-1", f"uses {wrong_level} instead of {first_style}",
                 ops([(wrong_level, first_lines)] + groups[1:])),
        Solution("near-miss-2", "styles the wrong line", ops(wrong_target)),
        Solution("near-miss-3", "also styles the paragraph after the heading line",
                 ops([(first_style, [*first_lines, extra])] + groups[1:])),
    ]}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(wc.APP,),
    description="Apply Heading 1/2/3 paragraph styles to stated title or section lines of a document.",
    knobs={"level": (1, 2, 3), "target": ("title", "section", "all_sections", "outline")},
    nodes=(*wc.source_nodes(), goal, wc.prepare, wc.instruction(NAME, PHRASINGS), rubric, solve),
)
