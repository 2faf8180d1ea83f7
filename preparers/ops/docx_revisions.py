"""docx ops for tracked changes (writer.track_changes): mark changes in a paragraph, accept or reject them."""

from __future__ import annotations

from docx.document import Document
from docx.oxml.ns import qn
from lxml import etree

from preparers.ops import OpError, op
from preparers.ops.docx import paragraph


def _unwrap(el: etree._Element) -> None:
    parent = el.getparent()
    at = parent.index(el)
    for child in list(el):
        parent.insert(at, child)
        at += 1
    parent.remove(el)


@op("docx.resolve_changes")
def resolve_changes(document: Document, action: str, skip: list[str] | None = None,
                    mixed: bool = False) -> None:
    """Accept or reject every tracked insertion and deletion of the body, as Edit > Track Changes > Accept All /
    Reject All does. Slips, for near-misses: paragraphs starting with a text of `skip` keep their changes;
    `mixed` accepts the insertions but rejects the deletions."""
    if action not in ("accept", "reject"):
        raise OpError(f"docx.resolve_changes: action={action!r}, but must be accept or reject")
    body = document.element.body
    kept = [paragraph(document, s)._p for s in skip or []]  # held: lxml keeps one proxy per live element
    for tag in ("w:ins", "w:del"):
        for el in list(body.iter(qn(tag))):
            p = next(el.iterancestors(qn("w:p")), None)
            if p is not None and any(p is k for k in kept):
                continue
            keep = mixed or (tag == "w:ins") == (action == "accept")  # mixed: insertions in, deleted words kept
            if not keep:
                el.getparent().remove(el)
                continue
            for text in el.iter(qn("w:delText")):
                text.tag = qn("w:t")
            _unwrap(el)
