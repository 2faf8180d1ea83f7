"""Snippets of the docx character-effect and letter-case ops (preparers/ops/docx_text.py) as python-docx lines."""

from __future__ import annotations

from preparers.teach import snippet
from preparers.teach.docx import restyled


def _find(doc: str, selector: str) -> str:
    return f"p = next(p for p in {doc}.paragraphs if p.text.startswith({selector!r}))"


@snippet("docx.char_effect")
def char_effect(doc: str, path: str, paragraph_start: str, phrase: str | None = None, strike: bool | None = None,
                highlight: str | None = None, color: str | None = None, underline: bool | None = None) -> str:
    style = []
    if strike is not None:
        style.append(f"run.font.strike = {strike!r}")
    if underline is not None:
        style.append(f"run.underline = {underline!r}")
    if highlight is not None:
        name = "".join("_" + c if c.isupper() else c for c in highlight).upper()
        style.append(f"run.font.highlight_color = WD_COLOR_INDEX.{name}")
    if color is not None:
        style.append(f"run.font.color.rgb = RGBColor.from_string({color.upper()!r})")
    return restyled(doc, paragraph_start, phrase, style,
                    imports=("from docx.enum.text import WD_COLOR_INDEX", "from docx.shared import RGBColor"))


_CASE = {
    "upper": ["new = text.upper()"],
    "lower": ["new = text.lower()"],
    "title": ["# Capitalize Every Word: the first letter or digit of each word a capital, the rest small",
              "new = re.sub(r'\\S+', lambda m: re.sub(r'[^\\W_]', lambda c: c.group().upper(), m.group(), count=1),",
              "             text.lower())"],
    "sentence": ["# Sentence case: the first letter of each sentence a capital, the rest small",
                 "chars, start = [], True",
                 "for c in text.lower():",
                 "    chars.append(c.upper() if start and c.isalpha() else c)",
                 "    start = (start and not c.isalpha()) or c in '.!?'",
                 "new = ''.join(chars)"],
}


@snippet("docx.change_case")
def change_case(doc: str, path: str, paragraph_start: str, case: str, words: int | None = None,
                chars: int | None = None) -> str:
    return "\n".join([
        "import re",
        _find(doc, paragraph_start),
        "text = p.text",
        *_CASE[case],
        "at = 0",
        "for run in p.runs:  # each run keeps its formatting; only the letters change",
        "    run.text, at = new[at:at + len(run.text)], at + len(run.text)"])


@snippet("docx.remove_duplicates")
def remove_duplicates(doc: str, path: str, keep: str = "first", skip: int = 0) -> str:
    return "\n".join([
        "seen = set()",
        f"for p in list({doc}.paragraphs):  # keep the first copy of each text, delete the repeats",
        "    text = ' '.join(p.text.split())",
        "    if text and text in seen:",
        "        p._p.getparent().remove(p._p)",
        "    elif text:",
        "        seen.add(text)"])
