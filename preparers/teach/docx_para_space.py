"""Snippet of the paragraph-space op (preparers/ops/docx_para_space.py) as python-docx lines."""

from __future__ import annotations

from preparers.teach import snippet


@snippet("docx.set_paragraph_space")
def set_paragraph_space(doc: str, path: str, paragraphs: list[str], before_pt: float | None = None,
                        after_pt: float | None = None) -> str:
    lines = ["from docx.shared import Pt", f"for start in {paragraphs!r}:",
             f"    fmt = next(p for p in {doc}.paragraphs if p.text.startswith(start)).paragraph_format"]
    if before_pt is not None:
        lines.append(f"    fmt.space_before = Pt({before_pt!r})  # Above paragraph")
    if after_pt is not None:
        lines.append(f"    fmt.space_after = Pt({after_pt!r})  # Below paragraph")
    return "\n".join(lines)
