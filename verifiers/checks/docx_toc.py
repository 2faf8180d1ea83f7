"""docx primitive for a table of contents (writer.table_of_contents).

`docx.toc` asks whether the document holds exactly one table of contents (a TOC field, as Word or LibreOffice
writes it), covering heading levels 1 to the stated one, placed just before the stated heading (the document's
first). Its entries are the writing app's and are not judged; the docx frame leaves them out.
"""

from __future__ import annotations

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.checks.docx import guarded
from verifiers.meaning import Meaning
from verifiers.readers.docx import load, norm
from verifiers.readers.docx_toc import toc_blocks, tocs


@primitive("docx.toc", grounded=("path", "levels", "heading"),
           meaning=Meaning(action=r"table of contents|contents"))
@guarded
def toc(state: State, path: str, levels: int, heading: str) -> Result:
    """The document has exactly one TOC field; its \\o switch covers heading levels 1 to `levels`; and the first
    block with text after the table of contents is the paragraph beginning `heading` (the first outside it)."""
    doc = load(state, path)
    found = tocs(doc)
    if len(found) != 1:
        return fail(f"the document has {len(found)} table(s) of contents (TOC fields), expected exactly one")
    field = found[0]
    if field.levels != (1, levels):
        shown = f"levels {field.levels[0]}-{field.levels[1]}" if field.levels else "no outline levels (no \\o)"
        return fail(f"the table of contents covers {shown}, expected levels 1-{levels} ({field.instr[:60]!r})")
    blocks = list(doc.blocks())
    inside = toc_blocks(doc)
    after = next((b for i, b in enumerate(blocks) if i > max(field.blocks) and i not in inside and doc.text(b)), None)
    want = next((b for i, b in enumerate(blocks) if i not in inside and doc.text(b).startswith(norm(heading))), None)
    if want is None:
        return fail(f"no paragraph outside the table of contents begins with {heading!r}")
    if after is not want:
        shown = repr(doc.text(after)[:40]) if after is not None else "the end of the document"
        return fail(f"the table of contents is followed by {shown}, not placed just before the heading {heading!r}")
    return ok(f"one table of contents ({field.instr[:60]!r}), levels 1-{levels}, just before {heading!r}")
