"""docx primitive for subscript and superscript characters (writer.sub_superscript).

`docx.script_chars` asks whether the stated characters of stated words (the digits of CO2, the 2 of m2, the "st" of
21st) sit below or above the line, and nothing else of that paragraph does; the frame (verifiers/frame/docx.py)
reads the vertical position of every run, so it refuses a subscript or superscript anywhere else.
"""

from __future__ import annotations

import re

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.checks.docx import guarded
from verifiers.meaning import Meaning, Said
from verifiers.readers.docx import find, load, runs, vertical

POSITIONS = {"sub": "subscript", "super": "superscript"}


@primitive("docx.script_chars", grounded=("path", "paragraph", "tokens", "position"),
           meaning=Meaning(action=r"subscript|superscript|sub-script|super-script",
                           args={"position": Said("script")}))
@guarded
def script_chars(state: State, path: str, paragraph: str, tokens: list[str], marks: list[list[int]],
                 position: str) -> Result:
    """In the paragraph beginning `paragraph`, each word of `tokens` (whole, once) has its characters
    `marks[i]` = [start, end) in `position` ("sub" or "super") and its other characters on the baseline; every
    other character of the paragraph is on the baseline too."""
    if position not in POSITIONS or len(tokens) != len(marks) or not tokens:
        return fail(f"check misconfigured: position={position!r}, {len(tokens)} tokens, {len(marks)} marks")
    doc = load(state, path)
    p = find(doc, paragraph)
    chars = [(c, r) for r, t in runs(p) for c in t]
    full = "".join(c for c, _ in chars)
    want: dict[int, str] = {}
    for token, (start, end) in zip(tokens, marks, strict=True):
        hits = [m.start() for m in re.finditer(rf"(?<!\w){re.escape(token)}(?!\w)", full)]
        if len(hits) != 1:
            return fail(f"the paragraph holds {token!r} {len(hits)} times, expected once")
        for k in range(len(token)):
            want[hits[0] + k] = position if start <= k < end else ""
    name = POSITIONS[position]
    for i, (c, r) in enumerate(chars):
        got = vertical(doc, r, p)
        expected = want.get(i, "")
        if got == expected or c.isspace():
            continue
        inside = next((t for t in tokens if full.find(t) <= i < full.find(t) + len(t)), None)
        if inside is None:
            return fail(f"{full[max(0, i - 12):i + 12]!r}: {c!r} is {POSITIONS.get(got, got)}, but only the marked "
                        f"characters of {', '.join(tokens)} should be")
        seen = POSITIONS.get(got, "on the baseline")
        return fail(f"in {inside!r}, {c!r} is {seen}, expected {POSITIONS.get(expected, 'on the baseline')}")
    marked = ", ".join(f"{t[s:e]} of {t}" for t, (s, e) in zip(tokens, marks, strict=True))
    return ok(f"{marked} {'are' if len(tokens) > 1 else 'is'} {name}; the rest of the paragraph is on the baseline")
