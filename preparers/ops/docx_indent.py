"""docx op for paragraph indents (writer.paragraph_indent)."""

from __future__ import annotations

from docx.document import Document
from docx.shared import Cm

from preparers.ops import op
from preparers.ops.docx import paragraph


@op("docx.set_indent")
def set_indent(document: Document, paragraphs: list[str], left_cm: float | None = None,
               first_line_cm: float | None = None) -> None:
    """Set the left ("before text") indent and/or the first-line indent (negative: hanging) of the named
    paragraphs, in cm, as Format > Paragraph > Indents & Spacing does."""
    for selector in paragraphs:
        fmt = paragraph(document, selector).paragraph_format
        if left_cm is not None:
            fmt.left_indent = Cm(left_cm)
        if first_line_cm is not None:
            fmt.first_line_indent = Cm(first_line_cm)
