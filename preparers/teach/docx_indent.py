"""Snippet of the indent op (preparers/ops/docx_indent.py) as python-docx lines."""

from __future__ import annotations

from preparers.teach import snippet


@snippet("docx.set_indent")
def set_indent(doc: str, path: str, paragraphs: list[str], left_cm: float | None = None,
               first_line_cm: float | None = None) -> str:
    lines = ["from docx.shared import Cm", f"for start in {paragraphs!r}:",
             f"    fmt = next(p for p in {doc}.paragraphs if p.text.startswith(start)).paragraph_format"]
    if left_cm is not None:
        lines.append(f"    fmt.left_indent = Cm({left_cm!r})  # Before text")
    if first_line_cm is not None:
        lines.append(f"    fmt.first_line_indent = Cm({first_line_cm!r})  # First line (negative: hanging)")
    return "\n".join(lines)
