"""docx ops for character effects and letter case (writer.char_effect, writer.change_case).

Both edit a paragraph named by the start of its text, as instructions name it, and keep its runs' own formatting.
"""

from __future__ import annotations

import copy
import re

from docx.document import Document
from docx.enum.text import WD_COLOR_INDEX

from preparers.ops import OpError, op
from preparers.ops.docx import paragraph

#: Words a stylistic title case keeps small (a near-miss of Capitalize Every Word).
SMALL_WORDS = frozenset({"a", "an", "and", "as", "at", "but", "by", "for", "in", "of", "on", "or", "the", "to",
                         "with"})
CASES = ("upper", "lower", "title", "sentence", "headline")


@op("docx.char_effect")
def char_effect(document: Document, paragraph_start: str, phrase: str | None = None, strike: bool | None = None,
                highlight: str | None = None, color: str | None = None, underline: bool | None = None) -> None:
    """Strikethrough, highlighting (a Word highlight name: "yellow", "brightGreen"...), font colour (hex RGB) or
    underline on `phrase` inside the named paragraph, or on the whole paragraph."""
    p = paragraph(document, paragraph_start)
    full = p.text
    if phrase is not None and phrase not in full:
        raise OpError(f"docx.char_effect: {phrase!r} is not in the paragraph {paragraph_start!r}")
    start, end = (0, len(full)) if phrase is None else (full.index(phrase), full.index(phrase) + len(phrase))
    template = p.runs[0]._r if p.runs else None
    for run in p.runs:
        run._r.getparent().remove(run._r)
    for piece, target in ((full[:start], False), (full[start:end], True), (full[end:], False)):
        if not piece:
            continue
        run = p.add_run(piece)
        if template is not None and template.rPr is not None:
            run._r.insert(0, copy.deepcopy(template.rPr))
        if not target:
            continue
        if strike is not None:
            run.font.strike = strike
        if underline is not None:
            run.underline = underline
        if highlight is not None:
            run.font.highlight_color = getattr(WD_COLOR_INDEX, _snake(highlight))
        if color is not None:
            run.font.color.rgb = _rgb(color)


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)([A-Z])", r"_\1", name).upper()


def _rgb(hex_value: str) -> object:
    from docx.shared import RGBColor

    return RGBColor.from_string(hex_value.upper())


def change_text_case(text: str, case: str) -> str:
    """`text` in `case`: upper, lower, title (Capitalize Every Word), sentence, or headline (a stylistic title case
    that keeps short words small: a near-miss of title)."""
    if case == "upper":
        return text.upper()
    if case == "lower":
        return text.lower()
    if case in ("title", "headline"):
        words = re.split(r"(\s+)", text.lower())
        out = []
        for i, w in enumerate(words):
            small = case == "headline" and i > 0 and w in SMALL_WORDS
            out.append(w if small or not w.strip() else _cap(w))
        return "".join(out)
    out, start = [], True
    for c in text.lower():
        if start and c.isalpha():
            out.append(c.upper())
            start = False
        else:
            out.append(c)
            start = start or c in ".!?"
    return "".join(out)


def _cap(word: str) -> str:
    i = next((k for k, c in enumerate(word) if c.isalnum()), None)
    return word if i is None else word[:i] + word[i].upper() + word[i + 1:]


@op("docx.change_case")
def change_case(document: Document, paragraph_start: str, case: str, words: int | None = None,
                chars: int | None = None) -> None:
    """Put the named paragraph in letter `case` as Format > Text does, run by run (each run keeps its formatting).
    `words` or `chars` changes only the first `words` words or `chars` characters (a selection that stopped short:
    a near-miss)."""
    if case not in CASES:
        raise OpError(f"docx.change_case: case={case!r}, but must be one of {list(CASES)}")
    p = paragraph(document, paragraph_start)
    full = p.text
    stop = len(full)
    if words is not None:
        spans = [m.end() for m in re.finditer(r"\S+", full)]
        stop = spans[min(words, len(spans)) - 1] if spans and words > 0 else 0
    if chars is not None:
        stop = max(0, min(chars, stop))
    new = change_text_case(full[:stop], case) + full[stop:]
    if len(new) != len(full):  # a letter whose case has another length (ß -> SS): one run takes the text
        p.runs[0].text = new
        for run in p.runs[1:]:
            run._r.getparent().remove(run._r)
        return
    at = 0
    for run in p.runs:
        n = len(run.text)
        run.text = new[at:at + n]
        at += n


@op("docx.remove_duplicates")
def remove_duplicates(document: Document, keep: str = "first", skip: int = 0) -> None:
    """Delete every body paragraph whose text (whitespace collapsed) repeats another's, keeping the `keep` copy
    ("first", "last", or "none": every copy goes, a near-miss); `skip` leaves the last `skip` repeats in place (a
    near-miss)."""
    if keep not in ("first", "last", "none"):
        raise OpError(f"docx.remove_duplicates: keep={keep!r}, but must be first, last or none")
    paragraphs = [(p, " ".join(p.text.split())) for p in document.paragraphs]
    texts = [t for _, t in paragraphs if t]
    drop = []
    for i, (p, text) in enumerate(paragraphs):
        if not text or texts.count(text) < 2:
            continue
        before = [t for _, t in paragraphs[:i]].count(text)
        after = [t for _, t in paragraphs[i + 1:]].count(text)
        if keep == "none" or (keep == "first" and before) or (keep == "last" and after):
            drop.append(p)
    for p in drop[:len(drop) - skip]:
        p._p.getparent().remove(p._p)
