"""Snippet of the sentence-splitting op (preparers/ops/docx_sentences.py) as python-docx lines."""

from __future__ import annotations

from preparers.teach import snippet


@snippet("docx.split_sentences")
def split_sentences(doc: str, path: str, paragraph_starts: list[str], line_breaks: bool = False,
                    first_only: bool = False) -> str:
    return "\n".join([
        "import copy, re",
        f"for start in {paragraph_starts!r}:",
        f"    p = next(p for p in {doc}.paragraphs if p.text.startswith(start))",
        "    # a sentence ends at . ! or ? followed by a space and a capital letter or digit",
        "    parts = re.split(r'(?<=[.!?])\\s+(?=[A-Z0-9])', ' '.join(p.text.split()))",
        "    rpr = p.runs[0]._r.rPr if p.runs else None  # keep the paragraph's own run formatting",
        "    for r in p.runs:",
        "        r._r.getparent().remove(r._r)",
        "    anchor = p",
        "    for k, part in enumerate(parts):",
        "        if k == 0:",
        "            target = p",
        "        else:  # a new paragraph after the last one, in the same style and paragraph format",
        "            target = anchor.insert_paragraph_before('')",
        "            anchor._p.addnext(target._p)",
        "            target.style = p.style",
        "            if p._p.pPr is not None:",
        "                target._p.remove(target._p.get_or_add_pPr())",
        "                target._p.insert(0, copy.deepcopy(p._p.pPr))",
        "            anchor = target",
        "        run = target.add_run(part)",
        "        if rpr is not None:",
        "            run._r.insert(0, copy.deepcopy(rpr))"])
