"""docx op for a hyperlink on a phrase (writer.hyperlink)."""

from __future__ import annotations

import copy

from docx.document import Document
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.shared import RGBColor
from docx.text.paragraph import Paragraph
from docx.text.run import Run
from lxml import etree

from preparers.ops import OpError, op

LINK_COLOUR = "0563C1"


def _text(r: etree._Element) -> str:
    return "".join(t.text or "" for t in r.findall(qn("w:t")))


def isolate(p: Paragraph, start: int, end: int) -> list[etree._Element]:
    """Split the paragraph's direct runs so that characters `start`..`end` of its text are whole runs (each piece
    keeps its run's formatting); returns those runs in order."""
    out, pos = [], 0
    for r in list(p._p.findall(qn("w:r"))):
        text = _text(r)
        lo, hi = pos, pos + len(text)
        pos = hi
        if hi <= start or lo >= end or not text:
            continue
        cuts = sorted({max(start, lo) - lo, min(end, hi) - lo} - {0, len(text)})
        pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
        made = []
        for piece in pieces:
            twin = copy.deepcopy(r)
            for t in twin.findall(qn("w:t")):
                twin.remove(t)
            t = OxmlElement("w:t")
            t.text = piece
            t.set("{http://www.w3.org/XML/1998/namespace}space", "preserve")
            twin.append(t)
            made.append(twin)
        for twin in made:
            r.addprevious(twin)
        r.getparent().remove(r)
        offset = lo
        for twin, piece in zip(made, pieces, strict=True):
            if offset >= start and offset + len(piece) <= end:
                out.append(twin)
            offset += len(piece)
    return out


def _occurrences(document: Document, phrase: str) -> list[tuple[Paragraph, int]]:
    found = []
    for p in document.paragraphs:
        text = "".join(_text(r) for r in p._p.findall(qn("w:r")))
        i = text.find(phrase)
        while i >= 0:
            found.append((p, i))
            i = text.find(phrase, i + len(phrase))
    return found


@op("docx.add_hyperlink")
def add_hyperlink(document: Document, phrase: str, url: str, scope: str = "all", whole_paragraph: bool = False
                  ) -> None:
    """Make `phrase` a hyperlink to `url` (Insert > Hyperlink on the selected words): every occurrence in the
    body's paragraphs (`scope` "all") or the first one ("first"), shown as links are (blue, underlined).
    `whole_paragraph` links the whole paragraph of each occurrence instead (a near-miss's selection)."""
    if scope not in ("all", "first"):
        raise OpError(f"docx.add_hyperlink: scope={scope!r}, but must be 'all' or 'first'")
    found = _occurrences(document, phrase)
    if not found:
        raise OpError(f"docx.add_hyperlink: {phrase!r} occurs in no paragraph")
    rid = document.part.relate_to(url, RT.HYPERLINK, is_external=True)
    done: set[int] = set()
    for p, at in reversed(found[:1] if scope == "first" else found):  # from the end: earlier offsets stay valid
        if whole_paragraph:
            if id(p._p) in done:
                continue
            done.add(id(p._p))
            at, length = 0, len("".join(_text(r) for r in p._p.findall(qn("w:r"))))
        else:
            length = len(phrase)
        runs = isolate(p, at, at + length)
        link = OxmlElement("w:hyperlink")
        link.set(qn("r:id"), rid)
        runs[0].addprevious(link)
        for r in runs:
            font = Run(r, p).font
            font.color.rgb = RGBColor.from_string(LINK_COLOUR)
            font.underline = True
            link.append(r)
