"""docx primitive for text converted to a table (writer.text_to_table).

`docx.text_table` asks whether the lines typed under a stated paragraph, cells split by a separator, became one real
table there: a row per line, a column per cell, no cell still holding the separator, no line left as a paragraph,
and, when asked, a bold first row. The frame (verifiers/frame/docx.py) keeps the rest of the document.
"""

from __future__ import annotations

from collections.abc import Sequence

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.checks.docx import guarded
from verifiers.meaning import Meaning, Said, when
from verifiers.readers.docx import W, char_value, find, grid, load, norm, para_text, runs

SEPARATORS = {"tab": "\t", "semicolon": ";"}


def _short(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:37] + "...")


@primitive("docx.text_table", grounded=("path", "after", "separator", "bold_header"),
           meaning=Meaning(action=r"table", args={"separator": Said("separator"),
                                                  "bold_header": Said("emphasis", when("bold"))}))
@guarded
def text_table(state: State, path: str, after: str, rows: Sequence[Sequence[str]], separator: str,
               bold_header: bool = False) -> Result:
    """The first block after the paragraph beginning `after` is a table holding exactly `rows` (the typed lines split
    at `separator`, "tab" or "semicolon"); no body paragraph still reads one of those lines; with `bold_header`, all
    first-row text is bold and no other row's is."""
    if separator not in SEPARATORS or not rows:
        return fail(f"check misconfigured: separator={separator!r}, {len(rows)} rows")
    doc = load(state, path)
    anchor = find(doc, after)
    blocks = [b for b in doc.blocks() if b.tag == W + "tbl" or doc.text(b)]
    at = next(i for i, b in enumerate(blocks) if b is anchor)
    block = blocks[at + 1] if at + 1 < len(blocks) else None
    if block is None or block.tag != W + "tbl":
        seen = _short(doc.text(block)) if block is not None else "the end of the document"
        return fail(f"no table right after the paragraph {_short(after)}: {seen} follows it")
    got = grid(block)
    want = [[norm(str(c)) for c in row] for row in rows]
    mark = SEPARATORS[separator]
    split = next((c for row in got for c in row if mark.strip() and mark in c), None)  # a tab reads as a space
    if split is not None:
        return fail(f"a cell still holds the {separator} separator: {_short(split)} (the lines were split at "
                    "something else)")
    if got != want:
        if len(got) != len(want) or any(len(g) != len(w) for g, w in zip(got, want, strict=False)):
            return fail(f"the table has {len(got)} rows of {[len(r) for r in got]} cells, expected {len(want)} rows "
                        f"of {len(want[0])} (first cells: {[r[:1] for r in got]})")
        r = next(i for i, (g, w) in enumerate(zip(got, want, strict=True)) if g != w)
        return fail(f"row {r + 1} of the table reads {got[r]}, expected {want[r]}")
    left = [doc.text(p) for p in doc.paragraphs() if [norm(c) for c in para_text(p).split(mark)] in want]
    if left:
        return fail(f"{len(left)} line(s) are still paragraphs beside the table, e.g. {_short(left[0])}")
    if bold_header:
        for r, tr in enumerate(block.findall(W + "tr")):
            for p in tr.iter(W + "p"):
                for run, text in runs(p):
                    bold = char_value(doc, run, p, "bold")
                    if text.strip() and bold != (r == 0):
                        where = "header" if r == 0 else f"row {r + 1}"
                        return fail(f"{where} text {_short(text)} is {'' if bold else 'not '}bold")
    return ok(f"the {len(want)} lines after {_short(after)} are a {len(want)} x {len(want[0])} table"
              + (" with a bold header row" if bold_header else ""))
