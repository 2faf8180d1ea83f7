"""docx primitive for tracked changes resolved (writer.track_changes).

`docx.changes_resolved` asks whether no tracked change is left in the body and the changed paragraphs read as the
accepted or the rejected version. The docx frame reads text as Writer shows it with changes accepted, so it keeps the
other paragraphs.
"""

from __future__ import annotations

from collections.abc import Mapping

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.checks.docx import guarded
from verifiers.meaning import Meaning, Said
from verifiers.readers.docx import W, load, norm

MARKS = ("ins", "del", "moveFrom", "moveTo")


def _short(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:37] + "...")


@primitive("docx.changes_resolved", grounded=("path", "action"),
           meaning=Meaning(action=r"accept|reject|tracked|changes", args={"action": Said("revision")}))
@guarded
def changes_resolved(state: State, path: str, action: str, paragraphs: Mapping[str, str]) -> Result:
    """No w:ins, w:del, w:moveFrom or w:moveTo is left in the body, and for each `paragraphs` item (the start both
    versions share -> the text it must read) exactly one paragraph starts so and reads that text: every change
    `action`ed ("accept" or "reject")."""
    doc = load(state, path)
    left = sum(1 for tag in MARKS for _ in doc.body.iter(W + tag))
    if left:
        return fail(f"{left} tracked change(s) are still in the document")
    texts = [doc.text(p) for p in doc.paragraphs()]
    for start, want in paragraphs.items():
        hits = [t for t in texts if t.startswith(norm(start))]
        if len(hits) != 1:
            return fail(f"{len(hits)} paragraphs begin with {_short(start)}, expected one")
        if hits[0] != norm(want):
            return fail(f"the paragraph {_short(start)} reads {hits[0]!r}, expected {norm(want)!r} (every change "
                        f"{action}ed)")
    return ok(f"no tracked change is left; the {len(paragraphs)} changed paragraphs read as {action}ed")
