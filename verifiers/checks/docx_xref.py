"""docx primitive for a cross-reference to a bookmark (writer.cross_reference).

`docx.cross_reference` reads every REF / PAGEREF field of the body (a `w:fldSimple`, or a complex field: begin,
instruction, separate, result runs, end, as Word and LibreOffice write it) and asks whether there is exactly one,
a REF to the stated bookmark showing its text, standing right after the stated words of the stated paragraph; and
whether that bookmark still marks its heading. Bookmarks are no fact of the docx frame, so this check also guards
the one the task refers to (the frame keeps the text, field results included).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lxml import etree

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.checks.docx import guarded
from verifiers.meaning import Meaning
from verifiers.readers.docx import Doc, W, find, load, norm

_REF = re.compile(r'^\s*(REF|PAGEREF)\s+"?([^\s"\\]+)"?', re.IGNORECASE)
MAX_PARAGRAPHS = 20000
MAX_ELEMENTS = 2_000_000


@dataclass
class Field:
    instr: str
    start: int  # offset of the result in the paragraph's shown text
    end: int = -1
    shown: bool = False
    result: list[str] = field(default_factory=list)


def fields(p: etree._Element) -> tuple[str, list[Field]]:
    """The paragraph's shown text (field results included, instructions not) and its fields, in order."""
    text: list[str] = []
    done: list[Field] = []
    stack: list[Field] = []

    def walk(el: etree._Element) -> None:
        for child in el:
            tag = child.tag
            if tag in (W + "pPr", W + "rPr", W + "del", W + "moveFrom"):
                continue
            if tag == W + "fldSimple":
                f = Field(child.get(W + "instr") or "", len("".join(text)), shown=True)
                stack.append(f)
                walk(child)
                stack.pop()
                f.end = len("".join(text))
                done.append(f)
            elif tag == W + "r":
                for part in child:
                    if part.tag == W + "fldChar":
                        kind = part.get(W + "fldCharType")
                        if kind == "begin":
                            stack.append(Field("", -1))
                        elif kind == "separate" and stack:
                            stack[-1].shown = True
                            stack[-1].start = len("".join(text))
                        elif kind == "end" and stack:
                            f = stack.pop()
                            if f.start < 0:
                                f.start = len("".join(text))
                            f.end = len("".join(text))
                            done.append(f)
                    elif part.tag == W + "instrText" and stack and not stack[-1].shown:
                        stack[-1].instr += part.text or ""
                    elif part.tag in (W + "t", W + "tab"):
                        if stack and not stack[-1].shown:
                            continue
                        piece = part.text or "" if part.tag == W + "t" else "\t"
                        text.append(piece)
                        for f in stack:
                            f.result.append(piece)
            else:
                walk(child)

    walk(p)
    return "".join(text), done


def bookmark_text(doc: Doc, name: str) -> tuple[int, str, etree._Element | None]:
    """(how many bookmarks are named `name`, the text the first spans, the paragraph it starts in)."""
    starts = [b for b in doc.body.iter(W + "bookmarkStart") if b.get(W + "name") == name]
    if not starts:
        return 0, "", None
    start = starts[0]
    home = next(iter(start.iterancestors(W + "p")), None)
    if home is None:
        home = start.getnext()
        while home is not None and home.tag != W + "p":
            home = home.getnext()
    bid, inside, out = start.get(W + "id"), False, []
    for n, el in enumerate(doc.body.iter()):
        if n > MAX_ELEMENTS:
            break
        if el is start:
            inside = True
        elif inside and el.tag == W + "bookmarkEnd" and el.get(W + "id") == bid:
            break
        elif inside and el.tag == W + "t" and not any(a.tag in (W + "del", W + "moveFrom")
                                                       for a in el.iterancestors()):
            out.append(el.text or "")
    return len(starts), "".join(out), home


@primitive("docx.cross_reference", grounded=("path", "paragraph", "phrase", "name", "heading"),
           meaning=Meaning(action=r"cross-?reference|reference"))
@guarded
def cross_reference(state: State, path: str, paragraph: str, phrase: str, name: str, heading: str,
                    after: str = "") -> Result:
    """The body has exactly one REF / PAGEREF field: a REF to the bookmark `name` (exact name) showing the
    bookmark's text, in the paragraph beginning `paragraph`, its result standing right after `phrase` (spaces
    aside) and followed by `after`; the bookmark `name` is still there once, on the paragraph beginning `heading`.
    A hyperlink to the bookmark or the heading's words typed are no cross-reference."""
    doc = load(state, path)
    refs: list[tuple[etree._Element, str, Field, str, str]] = []
    anchors = 0
    for n, p in enumerate(doc.body.iter(W + "p")):
        if n >= MAX_PARAGRAPHS:
            return fail(f"{path} has more than {MAX_PARAGRAPHS} paragraphs")
        text, found = fields(p)
        anchors += sum(1 for h in p.iter(W + "hyperlink") if h.get(W + "anchor") == name)
        for f in found:
            m = _REF.match(f.instr)
            if m:
                refs.append((p, text, f, m.group(1).upper(), m.group(2)))
    if len(refs) != 1:
        extra = f"; {anchors} hyperlink(s) jump to the bookmark {name!r} instead" if anchors and not refs else ""
        listed = ": " + ", ".join(f"{k} {t}" for _, _, _, k, t in refs[:4]) if refs else ""
        return fail(f"the document has {len(refs)} cross-reference field(s) (REF / PAGEREF), expected one{extra}"
                    + listed)
    p, text, f, kind, target = refs[0]
    if target != name:
        return fail(f"the cross-reference refers to the bookmark {target!r}, not {name!r}")
    if kind != "REF":
        return fail(f"the cross-reference to {name!r} is a {kind} field (it shows the page number), not a REF "
                    "showing the referenced text")
    if p is not find(doc, paragraph):
        return fail(f"the cross-reference stands in the paragraph {norm(text)[:40]!r}, not the paragraph beginning "
                    f"{paragraph!r}")
    before, rest = norm(text[:f.start]), text[f.end:].lstrip()
    if not before.endswith(norm(phrase)):
        return fail(f"the cross-reference follows {before[-40:]!r}, not the words {phrase!r}")
    if after and not rest.startswith(after):
        return fail(f"the cross-reference is followed by {rest[:30]!r}, expected {after!r} (is something left "
                    "where it was to go?)")
    count, marked, home = bookmark_text(doc, name)
    if count != 1:
        return fail(f"the document has {count} bookmark(s) named {name!r}, expected the one the task refers to")
    if home is None or home is not find(doc, heading):
        return fail(f"the bookmark {name!r} no longer marks the heading {heading!r}")
    shown = norm("".join(f.result))
    if shown.casefold() != norm(marked).casefold():
        return fail(f"the cross-reference shows {shown[:40]!r}, not the bookmark's text {norm(marked)[:40]!r}")
    return ok(f"one REF field to the bookmark {name!r} (on {heading!r}), showing {shown[:40]!r}, right after "
              f"{phrase!r} in the paragraph beginning {paragraph!r}")
