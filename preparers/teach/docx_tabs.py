"""Snippet of the tab-stop op (preparers/ops/docx_tabs.py) as python-docx lines."""

from __future__ import annotations

from preparers.teach import snippet


@snippet("docx.add_tab_stop")
def add_tab_stop(doc: str, path: str, paragraphs: list[str], cm: float, align: str) -> str:
    return "\n".join([
        "from docx.enum.text import WD_TAB_ALIGNMENT",
        "from docx.shared import Cm",
        f"for start in {paragraphs!r}:",
        f"    p = next(p for p in {doc}.paragraphs if ' '.join(p.text.split()).startswith(start))  # tabs as spaces",
        f"    p.paragraph_format.tab_stops.add_tab_stop(Cm({cm!r}), WD_TAB_ALIGNMENT.{align.upper()})"])
