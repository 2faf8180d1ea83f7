"""docx preparer: a document spec in, deterministic docx bytes out (python-docx).

Spec (plain, JSON-compatible data):
    {"blocks": [{"text": "Quarterly Report", "style": "Title"},            # a paragraph
                {"text": "Sales rose.", "align": "justify", "bold": True,  # optional direct formatting:
                 "line_spacing": 1.5, "font": "Liberation Serif", "size": 12},  # align/bold/italic/font/size
                {"table": [["Item", "Owner"], ["Venue", "Ana"]], "bold_header": True}],
     "page": {"paper": "A4", "orientation": "portrait",                     # optional
              "margins": {"top": 1440, "bottom": 1440, "left": 1440, "right": 1440}},  # twips
     "header": {"text": "Northwind | Minutes", "align": "center"},         # optional, also "footer"
     "author": "Maria Lopez"}
Sizes are in twips (1/20 pt, 1/1440 inch) because that is what docx stores; `PAPERS` names paper sizes.
The output goes through `preparers._zip.normalize`, so the same spec always gives the same bytes.
"""

from __future__ import annotations

import datetime as dt
import io
from typing import Any

import docx
from docx.document import Document
from docx.enum.section import WD_ORIENT
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.shared import Pt, Twips
from docx.text.paragraph import Paragraph

from preparers._zip import normalize

#: Paper sizes in twips, portrait (width, height).
PAPERS: dict[str, tuple[int, int]] = {
    "A4": (11906, 16838),
    "Letter": (12240, 15840),
    "Legal": (12240, 20160),
    "A5": (8391, 11906),
}
ALIGNMENTS = {
    "left": WD_ALIGN_PARAGRAPH.LEFT,
    "center": WD_ALIGN_PARAGRAPH.CENTER,
    "right": WD_ALIGN_PARAGRAPH.RIGHT,
    "justify": WD_ALIGN_PARAGRAPH.JUSTIFY,
}
EPOCH = dt.datetime(2024, 1, 1)
TWIPS_PER = {"in": 1440.0, "cm": 1440 / 2.54, "mm": 144 / 2.54, "pt": 20.0}


def twips(value: float, unit: str) -> int:
    """`value` in `unit` (in, cm, mm, pt) as whole twips."""
    return round(value * TWIPS_PER[unit])


def format_paragraph(paragraph: Paragraph, block: dict[str, Any]) -> None:
    """Apply the optional direct formatting keys of a paragraph block (shared with the edit ops)."""
    if block.get("align"):
        paragraph.alignment = ALIGNMENTS[block["align"]]
    if block.get("line_spacing"):
        paragraph.paragraph_format.line_spacing = float(block["line_spacing"])
    for run in paragraph.runs:
        if "bold" in block:
            run.bold = block["bold"]
        if "italic" in block:
            run.italic = block["italic"]
        if block.get("size"):
            run.font.size = Pt(block["size"])
        if block.get("font"):
            run.font.name = block["font"]


def _add_table(document: Document, block: dict[str, Any]) -> None:
    rows = block["table"]
    table = document.add_table(rows=len(rows), cols=len(rows[0]))
    table.style = document.styles["Table Grid"]
    for r, (row, values) in enumerate(zip(table.rows, rows, strict=True)):  # `table.cell` walks the whole table
        for cell, value in zip(row.cells, values, strict=False):  # a short row leaves its last cells empty
            run = cell.paragraphs[0].add_run(str(value))
            if r == 0 and block.get("bold_header"):
                run.bold = True


def _page(document: Document, page: dict[str, Any]) -> None:
    section = document.sections[0]
    width, height = PAPERS[page.get("paper", "A4")]
    if page.get("orientation") == "landscape":
        section.orientation = WD_ORIENT.LANDSCAPE
        width, height = height, width
    section.page_width, section.page_height = Twips(width), Twips(height)
    for side, value in page.get("margins", {}).items():
        setattr(section, f"{side}_margin", Twips(value))


def _header_footer(document: Document, spec: dict[str, Any]) -> None:
    for part in ("header", "footer"):
        if spec.get(part):
            target = getattr(document.sections[0], part)
            paragraph = target.paragraphs[0]
            paragraph.add_run(spec[part]["text"])
            format_paragraph(paragraph, spec[part])


def build_document(spec: dict[str, Any]) -> Document:
    """The python-docx document for `spec` (exposed for tests)."""
    document = docx.Document()
    for block in spec["blocks"]:
        if "table" in block:
            _add_table(document, block)
            continue
        paragraph = document.add_paragraph(style=block.get("style") or None)
        paragraph.add_run(block["text"])
        format_paragraph(paragraph, block)
    _page(document, spec.get("page", {}))
    _header_footer(document, spec)
    props = document.core_properties
    props.author = props.last_modified_by = spec.get("author", "Office User")
    props.title = spec.get("title", "")
    props.created = props.modified = EPOCH
    props.revision = 1
    return document


def build(spec: dict[str, Any]) -> bytes:
    """docx bytes for `spec`, byte-reproducible."""
    out = io.BytesIO()
    build_document(spec).save(out)
    return normalize(out.getvalue())
