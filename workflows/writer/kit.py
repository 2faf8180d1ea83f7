"""Nodes and helpers shared by the LibreOffice Writer families.

Every Writer family starts with `sample` (plan: theme, document kind, folder, paper) and the `content`
LLM node (a realistic document: see workflows/writer/content.py), then its own `goal` composes a `Layout`
(the initial document) plus `facts` (what the instruction states). The shared `prepare` node builds the
docx asset, and the shared `instruction` LLM node phrases the facts.

Paragraphs are named in instructions and checks by the start of their text (`locator`): the shortest
prefix of at least four words that no other paragraph starts with.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from kit.axes import LOCATION, LOOKALIKES, deepen, look_alike_paths, pick, span
from kit.dag import Node, NodeContext, llm_node, node
from kit.family import AppKit
from kit.model import HOME, Asset
from preparers import docx
from workflows.common import instruction
from workflows.frame import tree_frame_node
from workflows.teacher import teacher_node
from workflows.writer.content import (
    DOCUMENT_SCHEMA,
    DOCUMENT_SKETCH,
    KINDS,
    THEME_NAMES,
    check_document,
    generate_document,
)
from workflows.writer.more_sections import lengthen

__all__ = ["instruction"]  # re-exported: families call wc.instruction(...)

APP = "libreoffice_writer"
FOLDERS = ("Documents", "Desktop", "Documents/reports", "Documents/letters", "work", "Documents/office")
PAPERS = ("A4", "Letter")
DEFAULT_MARGIN = {"A4": 1134, "Letter": 1440}  # 2 cm, 1 inch
ITEM_LEADS = ("The following actions were agreed:", "Please complete these steps:", "Next actions for the team:",
              "Key actions for the coming weeks:")
TABLE_LEADS = ("The table below summarises the current position.", "Details are listed in the following table.",
               "The table below gives the latest figures.", "A summary by area follows.")


def norm(text: str) -> str:
    return " ".join(text.split())


@dataclass(frozen=True)
class Para:
    """One paragraph: its text, what it is in the document (`role`), its style ("" = Normal) and direct
    formatting (keys of preparers.docx paragraph blocks: align, bold, italic, size, font, line_spacing)."""

    text: str
    role: str  # title | front | heading | body | lead | item | subitem | closing
    style: str = ""
    fmt: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Grid:
    rows: tuple[tuple[str, ...], ...]
    bold_header: bool = True


@dataclass(frozen=True)
class Layout:
    """The initial document: where it lives and what it holds."""

    path: str
    blocks: tuple[Para | Grid, ...]
    paper: str = "A4"
    orientation: str = "portrait"
    margins: Mapping[str, int] = field(default_factory=dict)
    header: Mapping[str, Any] | None = None
    footer: Mapping[str, Any] | None = None
    author: str = ""
    lookalikes: int = 0  # axis `lookalikes`: older copies of the document beside it

    @property
    def filename(self) -> str:
        return self.path.rsplit("/", 1)[-1]

    @property
    def folder(self) -> str:
        return self.path.rsplit("/", 1)[0]

    @property
    def paragraphs(self) -> list[Para]:
        return [b for b in self.blocks if isinstance(b, Para)]

    @property
    def grids(self) -> list[Grid]:
        return [b for b in self.blocks if isinstance(b, Grid)]

    def texts(self, *roles: str) -> list[str]:
        return [p.text for p in self.paragraphs if not roles or p.role in roles]

    def locate(self, text: str) -> str | None:
        """The locator of the paragraph whose text is `text`, or None when no prefix is unique."""
        texts = [norm(t) for t in self.texts()]
        return locator(texts, texts.index(norm(text)))

    def with_blocks(self, blocks: Sequence[Para | Grid]) -> Layout:
        return replace(self, blocks=tuple(blocks))

    def spec(self) -> dict[str, Any]:
        blocks: list[dict[str, Any]] = []
        for b in self.blocks:
            if isinstance(b, Grid):
                blocks.append({"table": [list(r) for r in b.rows], "bold_header": b.bold_header})
            else:
                blocks.append({"text": b.text, "style": b.style, **b.fmt})
        margins = {side: self.margins.get(side, DEFAULT_MARGIN[self.paper])
                   for side in ("top", "bottom", "left", "right")}
        spec: dict[str, Any] = {"blocks": blocks, "author": self.author,
                                "page": {"paper": self.paper, "orientation": self.orientation, "margins": margins}}
        for part in ("header", "footer"):
            if getattr(self, part):
                spec[part] = dict(getattr(self, part))
        return spec


def locator(texts: Sequence[str], index: int, min_words: int = 4) -> str | None:
    """Shortest prefix (>= `min_words` words, trailing ,;: dropped) that only `texts[index]` starts with."""
    words = norm(texts[index]).split()
    for n in range(min(min_words, len(words)), len(words) + 1):
        prefix = " ".join(words[:n])
        short = prefix.rstrip(",;:")
        for candidate in (short, prefix):
            hits = [i for i, t in enumerate(texts) if norm(t).startswith(candidate)]
            if hits == [index] or (n == len(words) and [i for i in hits if norm(texts[i]) == candidate] == [index]):
                return candidate
    return None


def compose(rng: random.Random, document: Mapping[str, Any], plan: Mapping[str, Any], *, styled: bool = True,
            items: bool = False, table: str = "") -> Layout:
    """The initial layout for a generated document.

    `styled`: title in style Title and headings in Heading 1 (else both typed as bold Normal paragraphs);
    `items`: the list material as plain paragraphs after the first section, introduced by a lead line;
    `table`: "" (none), "grid" (a lead line and the table after the first section) or "lead" (the lead only)."""
    heading_style, heading_fmt = ("Heading 1", {}) if styled else ("", {"bold": True})
    title = Para(document["title"], "title", "Title" if styled else "", {} if styled else {"bold": True, "size": 16})
    blocks: list[Para | Grid] = [title, *(Para(line, "front") for line in document["front"])]
    for i, section in enumerate(document["sections"]):
        blocks.append(Para(section["heading"], "heading", heading_style, heading_fmt))
        blocks += [Para(text, "body") for text in section["paragraphs"]]
        if i == 0 and items:
            blocks.append(Para(rng.choice(ITEM_LEADS), "lead"))
            blocks += [Para(item["text"], "item") for item in document["items"]]
        if i == 0 and table:
            blocks.append(Para(rng.choice(TABLE_LEADS), "lead"))
            if table == "grid":
                rows = [tuple(document["table"]["header"])] + [tuple(r) for r in document["table"]["rows"]]
                blocks.append(Grid(tuple(rows)))
    blocks += [Para(line, "closing") for line in document["closing"]]
    path = f"{HOME}/{plan['folder']}/{document['file_stem']}.docx"
    return Layout(path=path, blocks=tuple(blocks), paper=plan["paper"], author=document["author"],
                  lookalikes=int(plan.get("lookalikes", 0)))


def targets(layout: Layout, *roles: str) -> list[tuple[Para, str]]:
    """(paragraph, locator) for every paragraph of `roles` that has a unique locator."""
    out = []
    for p in layout.paragraphs:
        if p.role in roles:
            where = layout.locate(p.text)
            if where is not None:
                out.append((p, where))
    return out


# --- shared nodes -----------------------------------------------------------------------------------

#: Difficulty axes (issue 15), the first level being today's behaviour with the same random draws.
#: `paragraphs`: body paragraphs under the headings; the theme's own sections give 3-8, the bigger levels append
#: generic sections (workflows/writer/more_sections.py).
AXES: dict[str, tuple[Any, ...]] = {"paragraphs": ("3-8", "12-18", "24-32"), "location": LOCATION,
                                    "lookalikes": LOOKALIKES}


@node("sample", "sample", ("params",), ("plan",))
def sample(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("sample")
    theme, kind = rng.choice(THEME_NAMES), rng.choice(KINDS)
    folder = deepen(rng.choice(FOLDERS), pick(values["params"], "location", AXES))
    plan: dict[str, Any] = {"theme": theme, "kind": kind, "folder": folder, "paper": rng.choice(PAPERS)}
    if pick(values["params"], "lookalikes", AXES) != "0":  # only when moved: the default plan stays as it was
        plan["lookalikes"] = pick(values["params"], "lookalikes", AXES)
    size = pick(values["params"], "paragraphs", AXES)
    if size != AXES["paragraphs"][0]:  # drawn from its own rng: the default draws stay as they were
        plan["paragraphs"] = ctx.rng("paragraphs").randint(*span(size))
    return {"plan": plan}


def _offline_document(rng: random.Random, values: Mapping[str, Any]) -> dict[str, Any]:
    plan = values["plan"]
    return generate_document(rng, theme=plan["theme"], kind=plan["kind"])


_content = llm_node("content", kind="llm", inputs=("plan",), output="document", prompt="writer_content.txt",
                    schema=DOCUMENT_SCHEMA, offline=_offline_document, check=check_document, sketch=DOCUMENT_SKETCH)


def _long_content(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    """The content node; at a bigger `paragraphs` level the document (model or offline) is lengthened with
    generic sections (`more_sections.lengthen`) up to the plan's body paragraph count."""
    want = values["plan"].get("paragraphs")
    if want is None:
        return _content.fn(ctx, values)
    plan = {k: v for k, v in values["plan"].items() if k != "paragraphs"}  # the model writes what its schema allows
    out = _content.fn(ctx, {**values, "plan": plan})
    if not out or not isinstance(out.get("document"), dict):
        return out
    return {**out, "document": lengthen(ctx.rng("more_sections"), out["document"], want)}


content = replace(_content, fn=_long_content)


def document_outputs(layout: Layout) -> dict[str, Any]:
    """The prepare node's outputs: the docx at the layout's path, opened in Writer."""
    data = docx.build(layout.spec())
    copies = [Asset(path, data, app="writer") for path in look_alike_paths(layout.path, layout.lookalikes)]
    return {"assets": [Asset(layout.path, data, app="writer"), *copies],
            "launch": ["libreoffice", "--writer", layout.path]}


@node("prepare", "prepare", ("layout",), ("assets", "launch"))
def prepare(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    return document_outputs(values["layout"])


def source_nodes() -> tuple[Node, ...]:
    """sample -> content: the start of every Writer family."""
    return (sample, content)


def kept_paragraphs(layout: Layout | str, assets: Sequence[Asset], targets: Sequence[str],
                    measure: Callable[[Any, Any], Any]) -> dict[str, Any]:
    """{locator: measure(doc, paragraph)} in the initial document (a `Layout`, or a path whose initial bytes are
    among `assets`) for every paragraph that is not one of `targets` (and has a unique locator): what an
    "unchanged" check compares the end state with. The initial document is read with the checks' own reader, so
    styles and defaults resolve exactly as they will."""
    from verifiers.readers.docx import find, from_bytes, para_text

    path = layout.path if isinstance(layout, Layout) else layout
    doc = from_bytes(next(a.data for a in assets if a.dest == path))
    texts = [norm(t) for t in (layout.texts() if isinstance(layout, Layout) else map(para_text, doc.paragraphs()))]
    kept = {}
    for i, text in enumerate(texts):
        where = locator(texts, i) if text else None
        if where is not None and not any(text.startswith(norm(t)) for t in targets):
            kept[where] = measure(doc, find(doc, where))
    return kept


def quoted(text: str) -> str:
    """How a paragraph is named in an instruction."""
    return f'"{text}"'


#: The Writer app kit: families built with `kit.family.family(NAME, WRITER, ...)`.
WRITER = AppKit(apps=(APP,), source=source_nodes, state="layout", prepare=prepare, instruction=instruction,
                axes=AXES, frame=tree_frame_node, teacher=teacher_node)
