"""Snippet of the page-columns op (preparers/ops/docx_columns.py) as python-docx lines."""

from __future__ import annotations

from preparers.teach import snippet


@snippet("docx.set_columns")
def set_columns(doc: str, path: str, count: int, line: bool = False, space_cm: float = 1.25,
                landscape: bool = False) -> str:
    return "\n".join([
        "from docx.oxml import OxmlElement",
        "from docx.oxml.ns import qn",
        f"for section in {doc}.sections:  # the page layout's columns live in each section's w:cols",
        "    sect = section._sectPr",
        "    cols = sect.find(qn('w:cols'))",
        "    if cols is None:",
        "        cols = OxmlElement('w:cols')",
        "        sect.append(cols)",
        f"    cols.set(qn('w:num'), '{count}')",
        f"    cols.set(qn('w:space'), '{round(space_cm / 2.54 * 1440)}')  # {space_cm:g} cm between columns",
        f"    cols.set(qn('w:sep'), '{1 if line else 0}')  # separator line"])
