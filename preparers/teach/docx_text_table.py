"""Snippet of the text-to-table op (preparers/ops/docx_text_table.py) as python-docx lines."""

from __future__ import annotations

from preparers.teach import snippet

_MARK = {"tab": "\\t", "semicolon": ";"}


@snippet("docx.text_to_table")
def text_to_table(doc: str, path: str, after: str, count: int, separator: str, bold_header: bool = False,
                  split: bool = True, first: int = 0, last: int | None = None, keep_text: bool = False) -> str:
    mark = _MARK[separator]
    lines = [
        f"paras = {doc}.paragraphs",
        f"at = next(i for i, p in enumerate(paras) if p.text.startswith({after!r}))",
        f"lines = paras[at + 1:at + {count + 1}]  # the {count} typed rows right after it, cells split by {separator}s",
        f"rows = [[c.strip() for c in p.text.split('{mark}')] for p in lines]",
        f"table = {doc}.add_table(rows=len(rows), cols=max(len(r) for r in rows))",
        "table.style = 'Table Grid'",
        "for r, values in enumerate(rows):",
        "    for c, value in enumerate(values):",
        "        run = table.rows[r].cells[c].paragraphs[0].add_run(value)"]
    if bold_header:
        lines.append("        run.bold = r == 0 or None  # the header row bold")
    lines += ["lines[0]._p.addprevious(table._tbl)  # the table where the lines stood",
              "for p in lines:",
              "    p._p.getparent().remove(p._p)"]
    return "\n".join(lines)
