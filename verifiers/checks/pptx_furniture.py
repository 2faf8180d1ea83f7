"""pptx furniture primitives: the footer text and the slide numbers a deck shows (Insert > Header and Footer).

Both live on each slide as placeholders of the layout's furniture, which PowerPoint, python-pptx users and
LibreOffice (7.2 on) write alike: a `<p:sp>` whose `<p:ph type="ftr">` holds the footer text, and one whose
`<p:ph type="sldNum">` holds a `<a:fld type="slidenum">` field (the number the slide shows; LibreOffice writes the
slide's number as its text, python-pptx's layout copy `‹#›`). A layout's or the master's placeholder alone shows
nothing on the slide; a number typed as text, or a text box at the bottom, is no slide number or footer. The
title slide (the first) may be left out (Impress's "Do not show on first slide"): `title_slide=False` then asks
that it shows none.
"""

from __future__ import annotations

from typing import Any

from preparers import pptx as deckio
from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.meaning import Meaning, Said, choice
from verifiers.readers.pptx import load

A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
P = "{http://schemas.openxmlformats.org/presentationml/2006/main}"


def furniture(slide: Any, kind: str) -> list[Any]:
    """The slide's own `<p:sp>` placeholders of type `kind` (`ftr`, `sldNum`, `dt`), in tree order."""
    return [sp for sp in slide._element.iter(f"{P}sp")
            if any(ph.get("type") == kind for ph in sp.iterfind(f"{P}nvSpPr/{P}nvPr/{P}ph"))]


def text_of(sp: Any) -> str:
    """The placeholder's text, paragraphs joined by spaces (fields included), whitespace normalised."""
    paras = [''.join(t.text or "" for t in p.iter(f"{A}t")) for p in sp.iterfind(f"{P}txBody/{A}p")]
    return deckio.norm(" ".join(paras))


def numbered(sp: Any) -> bool:
    """The placeholder holds a slide-number field."""
    return any(f.get("type") == "slidenum" for f in sp.iter(f"{A}fld"))


def _where(titles: list[str], i: int) -> str:
    return f"slide {i + 1} ({titles[i]!r})" if titles[i] else f"slide {i + 1}"


def _scope(title_slide: bool) -> str:
    return "every slide" if title_slide else "every slide but the title slide"


@primitive("pptx.footer_text", grounded=("path", "text", "title_slide"),
           meaning=Meaning(action=r"footer",
                           args={"title_slide": Said("cover", choice({True: "with", False: "without"}))}))
def footer_text(state: State, path: str, text: str, title_slide: bool = True) -> Result:
    """Every slide (with `title_slide=False` every slide but the first) shows the footer `text` in a footer
    placeholder, and no other footer; with `title_slide=False` the first slide shows no footer."""
    parsed = load(state, path)
    titles = parsed.titles()
    want = deckio.norm(text)
    problems = []
    for i, slide in enumerate(parsed.prs.slides):
        shown = [t for t in (text_of(sp) for sp in furniture(slide, "ftr")) if t]
        if i == 0 and not title_slide:
            if shown:
                problems.append(f"{_where(titles, i)} shows the footer {shown[0]!r}, but the title slide should not")
        elif not shown:
            problems.append(f"{_where(titles, i)} has no footer")
        elif shown != [want]:
            problems.append(f"{_where(titles, i)} has the footer {' / '.join(shown)!r}, expected {want!r}")
    if not titles:
        return fail(f"{path} has no slides")
    if problems:
        return fail(f"{len(problems)} slide(s) wrong: {'; '.join(problems[:4])}{'; ...' if len(problems) > 4 else ''}")
    return ok(f"{_scope(title_slide)} of the {len(titles)} shows the footer {want!r}")


@primitive("pptx.slide_numbers", grounded=("path", "title_slide"),
           meaning=Meaning(action=r"slide numbers?|page numbers?|number (?:the|each|every|all)",
                           args={"title_slide": Said("cover", choice({True: "with", False: "without"}))}))
def slide_numbers(state: State, path: str, title_slide: bool = True) -> Result:
    """Every slide (with `title_slide=False` every slide but the first) shows its slide number: a slide-number
    placeholder holding a slide-number field (a number typed as text does not count); with `title_slide=False` the
    first slide shows none."""
    parsed = load(state, path)
    titles = parsed.titles()
    problems = []
    for i, slide in enumerate(parsed.prs.slides):
        places = furniture(slide, "sldNum")
        fields = [sp for sp in places if numbered(sp)]
        if i == 0 and not title_slide:
            if fields:
                problems.append(f"{_where(titles, i)} shows its slide number, but the title slide should not")
        elif not fields:
            problems.append(f"{_where(titles, i)} shows no slide number" +
                            (" (its number placeholder holds no slide-number field)" if places else ""))
    if not titles:
        return fail(f"{path} has no slides")
    if problems:
        return fail(f"{len(problems)} slide(s) wrong: {'; '.join(problems[:4])}{'; ...' if len(problems) > 4 else ''}")
    return ok(f"{_scope(title_slide)} of the {len(titles)} shows its slide number")
