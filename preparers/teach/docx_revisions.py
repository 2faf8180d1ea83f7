"""Snippet of the tracked-changes op (preparers/ops/docx_revisions.py) as python-docx / lxml lines."""

from __future__ import annotations

from preparers.teach import snippet


@snippet("docx.resolve_changes")
def resolve_changes(doc: str, path: str, action: str, skip: list[str] | None = None, mixed: bool = False) -> str:
    keep, drop = ("w:ins", "w:del") if action == "accept" else ("w:del", "w:ins")
    return "\n".join([
        "from docx.oxml.ns import qn",
        f"body = {doc}.element.body",
        f"for el in list(body.iter(qn({drop!r}))):  # {action} all: these changes go",
        "    el.getparent().remove(el)",
        f"for el in list(body.iter(qn({keep!r}))):  # and these become plain text",
        "    for t in el.iter(qn('w:delText')):",
        "        t.tag = qn('w:t')",
        "    parent, at = el.getparent(), el.getparent().index(el)",
        "    for child in list(el):",
        "        parent.insert(at, child)",
        "        at += 1",
        "    parent.remove(el)"])
