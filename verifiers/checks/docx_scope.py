"""docx primitive about scope: the character formatting the task did not ask for is what it was.

A task that aligns, spaces or breaks paragraphs never asks to change fonts, sizes or emphasis; a rubric that
checks the asked property and the text accepts a document re-fonted in Comic Sans or with a body paragraph
made bold. The rubric carries each paragraph's initial run formats (read with the checks' own reader,
`verifiers.readers.docx.run_formats`, so styles resolve alike) and this check compares. A font that resolves to
no name on either side (the document's default or theme font) is not compared: re-saving may spell it out."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.checks.docx import guarded
from verifiers.meaning import Meaning
from verifiers.readers.docx import PROPS, find, load, run_formats


def _named(font: Any) -> bool:
    return isinstance(font, str) and font != "(theme font)"


def _fits(got: Sequence[Any], want: Sequence[Any]) -> bool:
    bold, italic, underline, size, font = got
    w_bold, w_italic, w_underline, w_size, w_font = want
    if (bool(bold), bool(italic), bool(underline)) != (bool(w_bold), bool(w_italic), bool(w_underline)):
        return False
    if size is not None and w_size is not None and abs(float(size) - float(w_size)) > 0.01:
        return False
    if _named(font) and _named(w_font):
        return str(font).strip().lower() == str(w_font).strip().lower()
    return True


@primitive("docx.chars_kept", grounded=("path",),
           meaning=Meaning(action=None, why="guards the character formats a task leaves alone"))
@guarded
def chars_kept(state: State, path: str, paragraphs: Mapping[str, Sequence[Sequence[Any]]],
               fonts: Sequence[str] = ()) -> Result:
    """Every paragraph of `paragraphs` (locator -> its initial run formats) has runs of those formats only.
    `fonts` are the named fonts the initial document uses: any other named font in a kept paragraph is new."""
    doc = load(state, path)
    known = {f.strip().lower() for f in fonts}
    changed: list[str] = []
    for where, want in paragraphs.items():
        got = run_formats(doc, find(doc, where))
        for fmt in got:
            new_font = bool(known) and _named(fmt[4]) and str(fmt[4]).strip().lower() not in known
            if new_font or not any(_fits(fmt, w) for w in want):
                shown = ", ".join(f"{k}={v}" for k, v in zip(PROPS, fmt, strict=True) if v not in (None, False))
                changed.append(f"{where[:30]!r} has a run {shown or 'plain'}")
                break
    if changed:
        more = f" (+{len(changed) - 3} more)" if len(changed) > 3 else ""
        return fail(f"{len(changed)} paragraph(s) changed their character formatting: {'; '.join(changed[:3])}{more}")
    return ok(f"all {len(paragraphs)} paragraphs keep their character formatting")
