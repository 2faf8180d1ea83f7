"""docx op for page columns (writer.page_columns)."""

from __future__ import annotations

from docx.document import Document
from docx.enum.section import WD_ORIENT
from docx.oxml import OxmlElement
from docx.oxml.ns import qn

from preparers.ops import op


@op("docx.set_columns")
def set_columns(document: Document, count: int, line: bool = False, space_cm: float = 1.25,
                landscape: bool = False) -> None:
    """Lay every section out in `count` columns `space_cm` apart, with a separator line when `line`, as Format >
    Page Style > Columns does; `landscape` also turns the pages (a near-miss)."""
    for section in document.sections:
        sect = section._sectPr
        cols = sect.find(qn("w:cols"))
        if cols is None:
            cols = OxmlElement("w:cols")
            grid = sect.find(qn("w:docGrid"))  # w:cols comes before w:docGrid in a sectPr
            if grid is not None:
                grid.addprevious(cols)
            else:
                sect.append(cols)
        cols.set(qn("w:num"), str(count))
        cols.set(qn("w:space"), str(round(space_cm / 2.54 * 1440)))
        cols.set(qn("w:sep"), "1" if line else "0")
        if landscape and section.orientation != WD_ORIENT.LANDSCAPE:
            section.orientation = WD_ORIENT.LANDSCAPE
            section.page_width, section.page_height = section.page_height, section.page_width
