"""Tables of contents in a parsed docx (writer.table_of_contents), read from the body's blocks.

A table of contents is a TOC field: a simple field (`w:fldSimple w:instr="TOC ..."`) or a complex one (`w:fldChar`
begin, `w:instrText` " TOC \\o "1-3" \\h ...", separate, the entries, end) that may span many paragraphs, usually
inside a content control whose gallery is "Table of Contents" (Word and LibreOffice both write one; LibreOffice
puts its "Table of Contents" title in it too). Its entries are whatever the writing app generated, so the docx
frame leaves every paragraph of a table of contents out (`toc_blocks`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lxml import etree

from verifiers.readers.docx import Doc, W
from verifiers.readers.docx import _style_key as _key

_LEVELS = re.compile(r"""\\o\s*"?\s*(\d+)\s*-\s*(\d+)""")


@dataclass
class Toc:
    instr: str  # the field code, whitespace collapsed
    blocks: list[int] = field(default_factory=list)  # indices into the body's blocks it spans

    @property
    def levels(self) -> tuple[int, int] | None:
        """The heading levels of its \\o switch (from, to), or None without one."""
        hit = _LEVELS.search(self.instr)
        return (int(hit.group(1)), int(hit.group(2))) if hit else None


def _is_toc(instr: str) -> bool:
    return (instr.split() or [""])[0].upper() == "TOC"


def _gallery(block: etree._Element) -> bool:
    """Whether the block lies in a content control of the "Table of Contents" gallery."""
    for sdt in block.iterancestors(W + "sdt"):
        gallery = sdt.find(f"{W}sdtPr/{W}docPartObj/{W}docPartGallery")
        if gallery is not None and "contents" in (gallery.get(W + "val") or "").lower():
            return True
    return False


def tocs(doc: Doc) -> list[Toc]:
    """Every TOC field of the body in order, with the blocks each spans (a field left open runs to the end)."""
    if "tocs" in doc._memo:
        return list(doc._memo["tocs"])
    found: list[Toc] = []
    stack: list[Toc] = []  # the open complex fields, innermost last: their code so far and their blocks
    for index, block in enumerate(doc.blocks()):
        for open_field in stack:
            open_field.blocks.append(index)
        for el in block.iter(W + "fldSimple", W + "fldChar", W + "instrText"):
            if el.tag == W + "fldSimple":
                found.append(Toc(el.get(W + "instr") or "", [index]))
            elif el.tag == W + "instrText" and stack:
                stack[-1].instr += el.text or ""
            elif el.tag == W + "fldChar" and el.get(W + "fldCharType") == "begin" and len(stack) < 64:
                stack.append(Toc("", [index]))
            elif el.tag == W + "fldChar" and el.get(W + "fldCharType") == "end" and stack:
                found.append(stack.pop())
    found += stack
    kept = sorted((Toc(" ".join(t.instr.split()), t.blocks) for t in found if _is_toc(t.instr)),
                  key=lambda t: t.blocks[0])
    doc._memo["tocs"] = kept
    return list(kept)


def toc_blocks(doc: Doc) -> set[int]:
    """Indices of the body's blocks that belong to a table of contents (its field or its content control)."""
    blocks = list(doc.blocks())
    inside = {i for toc in tocs(doc) for i in toc.blocks}
    inside |= {i for i, block in enumerate(blocks) if _gallery(block)}
    for toc in tocs(doc):  # its title ("Contents Heading" / Word's "TOC Heading") just before it
        first = min(toc.blocks) - 1
        while first >= 0 and blocks[first].tag == W + "p" and not doc.text(blocks[first]):
            first -= 1
        if first >= 0 and blocks[first].tag == W + "p" and _key(doc.style_name(doc.para_style(blocks[first]))) in (
                "contentsheading", "tocheading"):
            inside.add(first)
    return inside
