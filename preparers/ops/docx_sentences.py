"""docx op for splitting paragraphs into one paragraph per sentence (writer.sentence_per_line)."""

from __future__ import annotations

import copy
import re

from docx.document import Document
from docx.oxml.ns import qn
from docx.text.paragraph import Paragraph

from preparers.ops import op
from preparers.ops.docx import paragraph

#: A sentence ends at . ! or ? followed by a space and a capital letter or digit.
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9])")


def sentences(text: str) -> list[str]:
    return [s.strip() for s in SENTENCE_END.split(" ".join(text.split())) if s.strip()]


@op("docx.split_sentences")
def split_sentences(document: Document, paragraph_starts: list[str], line_breaks: bool = False,
                    first_only: bool = False) -> None:
    """Split each named paragraph at its sentence ends into paragraphs of the same style and paragraph format,
    each keeping the first run's character formatting. Slips, for near-misses: `line_breaks` puts manual line
    breaks (Shift+Enter) between the sentences instead; `first_only` splits off only the first sentence."""
    for start in paragraph_starts:
        p = paragraph(document, start)
        parts = sentences(p.text)
        if first_only:
            parts = parts[:1] + [" ".join(parts[1:])] if len(parts) > 1 else parts
        rpr = copy.deepcopy(p.runs[0]._r.rPr) if p.runs and p.runs[0]._r.rPr is not None else None
        for run in p.runs:
            run._r.getparent().remove(run._r)
        if line_breaks:
            for k, part in enumerate(parts):
                run = p.add_run(part)
                if rpr is not None:
                    run._r.insert(0, copy.deepcopy(rpr))
                if k < len(parts) - 1:
                    run.add_break()
            continue
        anchor = p._p
        for k, part in enumerate(parts):
            target = p
            if k > 0:  # a new paragraph after the last one, with the same style and paragraph format
                new = copy.deepcopy(p._p)
                for child in list(new):
                    if child.tag != qn("w:pPr"):
                        new.remove(child)
                anchor.addnext(new)
                anchor = new
                target = Paragraph(new, p._parent)
            run = target.add_run(part)
            if rpr is not None:
                run._r.insert(0, copy.deepcopy(rpr))
