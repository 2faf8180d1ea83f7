"""docx op for the space above and below paragraphs (writer.paragraph_spacing)."""

from __future__ import annotations

from docx.document import Document
from docx.shared import Pt

from preparers.ops import op
from preparers.ops.docx import paragraph


@op("docx.set_paragraph_space")
def set_paragraph_space(document: Document, paragraphs: list[str], before_pt: float | None = None,
                        after_pt: float | None = None) -> None:
    """Set the space above (`before_pt`) and/or below (`after_pt`) the named paragraphs, in points, as Format >
    Paragraph > Indents & Spacing does."""
    for selector in paragraphs:
        fmt = paragraph(document, selector).paragraph_format
        if before_pt is not None:
            fmt.space_before = Pt(before_pt)
        if after_pt is not None:
            fmt.space_after = Pt(after_pt)
