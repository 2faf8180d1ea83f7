"""docx primitive for a bookmark (writer.bookmark).

`docx.bookmark` asks whether the document has a bookmark of the stated name (and only one of that name) that marks
the stated paragraph. Bookmarks are no fact of the docx frame (a writer adds its own, like Word's `_GoBack`), so
this check alone judges them; names starting with "_" are a writer's own and are ignored.
"""

from __future__ import annotations

from typing import Any

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.checks.docx import guarded
from verifiers.meaning import Meaning
from verifiers.readers.docx import W, find, load


@primitive("docx.bookmark", grounded=("path", "paragraph", "name"), meaning=Meaning(action=r"bookmark"))
@guarded
def bookmark(state: State, path: str, paragraph: str, name: str) -> Result:
    """The document has exactly one bookmark named `name` (exact name), no other bookmark of its own, and that
    bookmark starts in the paragraph beginning `paragraph` (or just before it) and ends in it."""
    doc = load(state, path)
    starts = [b for b in doc.body.iter(W + "bookmarkStart") if not (b.get(W + "name") or "").startswith("_")]
    names = [b.get(W + "name") or "" for b in starts]
    if names.count(name) != 1:
        close = [n for n in names if n.lower() == name.lower()]
        return fail(f"the document has {names.count(name)} bookmark(s) named {name!r}"
                    + (f" (but {close[0]!r})" if close and not names.count(name) else "")
                    + (f"; its bookmarks: {names[:5]}" if names else ""))
    if len(names) > 1:
        return fail(f"the document has {len(names)} bookmarks ({names[:5]}), expected only {name!r}")
    start = starts[0]
    bid = start.get(W + "id")
    end = next((e for e in doc.body.iter(W + "bookmarkEnd") if e.get(W + "id") == bid), None)
    p = find(doc, paragraph)
    blocks = list(doc.blocks())

    def home(el: Any) -> Any:
        """The body paragraph an element lies in, or the next one for a mark between paragraphs."""
        owner = next(iter(el.iterancestors(W + "p")), None)
        if owner is not None:
            return owner
        nxt = el.getnext()
        while nxt is not None and nxt.tag not in (W + "p", W + "tbl"):
            nxt = nxt.getnext()
        return nxt

    if home(start) is not p:
        where = home(start)
        text = doc.text(where) if where is not None and where in blocks and where.tag == W + "p" else ""
        return fail(f"the bookmark {name!r} marks {text[:40]!r}, not the paragraph beginning {paragraph!r}")
    if end is None or next(iter(end.iterancestors(W + "p")), p) is not p:
        return fail(f"the bookmark {name!r} does not end in the paragraph beginning {paragraph!r}")
    return ok(f"one bookmark {name!r}, on the paragraph beginning {paragraph!r}")
