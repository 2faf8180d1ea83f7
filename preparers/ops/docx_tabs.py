"""docx op for tab stops (writer.tab_stops)."""

from __future__ import annotations

from docx.document import Document
from docx.enum.text import WD_TAB_ALIGNMENT
from docx.shared import Cm

from preparers.ops import op
from preparers.ops.docx import paragraph


@op("docx.add_tab_stop")
def add_tab_stop(document: Document, paragraphs: list[str], cm: float, align: str) -> None:
    """Add a tab stop (`align`: left, right, center or decimal) at `cm` cm to the named paragraphs, as Format >
    Paragraph > Tabs does."""
    for selector in paragraphs:
        stops = paragraph(document, selector).paragraph_format.tab_stops
        stops.add_tab_stop(Cm(cm), getattr(WD_TAB_ALIGNMENT, align.upper()))
