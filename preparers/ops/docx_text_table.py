"""docx op for converting typed lines to a table (writer.text_to_table)."""

from __future__ import annotations

from docx.document import Document
from docx.enum.style import WD_STYLE_TYPE

from preparers.docx import style_id
from preparers.ops import OpError, op
from preparers.ops.docx import paragraph

SEPARATORS = {"tab": "\t", "semicolon": ";"}


@op("docx.text_to_table")
def text_to_table(document: Document, after: str, count: int, separator: str, bold_header: bool = False,
                  split: bool = True, first: int = 0, last: int | None = None, keep_text: bool = False) -> None:
    """Turn the `count` paragraphs after the paragraph beginning `after` (cells split at `separator`) into a table
    in their place, as Table > Convert > Text to Table does. Slips, for near-misses: `split=False` puts each line in
    one cell; lines before `first` or from `last` on stay paragraphs; `keep_text` leaves every line below the new
    table."""
    if separator not in SEPARATORS:
        raise OpError(f"docx.text_to_table: separator={separator!r}, but must be one of {list(SEPARATORS)}")
    anchor = paragraph(document, after)
    paragraphs = document.paragraphs
    at = next(i for i, p in enumerate(paragraphs) if p._p is anchor._p)
    lines = paragraphs[at + 1:at + 1 + count]
    if len(lines) != count or any(SEPARATORS[separator] not in p.text for p in lines):
        raise OpError(f"docx.text_to_table: the {count} paragraphs after {after!r} are not all separated lines")
    chosen = lines[first:last]
    rows = [[c.strip() for c in p.text.split(SEPARATORS[separator])] if split else [p.text] for p in chosen]
    width = max(len(r) for r in rows)
    table = document._body.add_table(len(rows), width, document._block_width)
    table._tbl.tblStyle_val = style_id(document, "Table Grid", WD_STYLE_TYPE.TABLE)
    for r, (row, values) in enumerate(zip(table.rows, rows, strict=True)):
        for cell, value in zip(row.cells, values, strict=False):
            run = cell.paragraphs[0].add_run(value)
            run.bold = True if bold_header and r == 0 and first == 0 else None
    chosen[0]._p.addprevious(table._tbl)
    if not keep_text:
        for p in chosen:
            p._p.getparent().remove(p._p)
