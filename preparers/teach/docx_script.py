"""Snippet of the subscript / superscript op (preparers/ops/docx_script.py) as python-docx lines."""

from __future__ import annotations

from preparers.teach import snippet


@snippet("docx.script_chars")
def script_chars(doc: str, path: str, paragraph_start: str, tokens: list[str], marks: list[list[int]],
                 position: str) -> str:
    attr = "subscript" if position == "sub" else "superscript"
    return "\n".join([
        "import copy, re",
        f"p = next(p for p in {doc}.paragraphs if p.text.startswith({paragraph_start!r}))",
        "text = p.text",
        "marked = set()  # the paragraph's character positions to set " + attr,
        f"for token, (start, end) in {list(zip(tokens, [tuple(m) for m in marks], strict=True))!r}:",
        "    at = re.search(r'(?<!\\w)' + re.escape(token) + r'(?!\\w)', text).start()",
        "    marked.update(range(at + start, at + end))",
        "rpr = p.runs[0]._r.rPr if p.runs else None  # keep the paragraph's own run formatting",
        "for r in p.runs:",
        "    r._r.getparent().remove(r._r)",
        "pieces = []  # [text, marked?], consecutive characters of one kind together",
        "for i, c in enumerate(text):",
        "    if pieces and pieces[-1][1] == (i in marked):",
        "        pieces[-1][0] += c",
        "    else:",
        "        pieces.append([c, i in marked])",
        "for piece, flag in pieces:",
        "    run = p.add_run(piece)",
        "    if rpr is not None:",
        "        run._r.insert(0, copy.deepcopy(rpr))",
        "    if flag:",
        f"        run.font.{attr} = True"])
