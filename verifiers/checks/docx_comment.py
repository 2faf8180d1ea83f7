"""docx primitive for a review comment (writer.comment).

`docx.comment` asks whether the document holds exactly one comment, with the stated text, anchored to exactly the
stated words (or the whole stated paragraph). Comments live in their own part, which the docx frame does not read;
their range markers change no text, so the frame keeps the rest.
"""

from __future__ import annotations

from docx.opc.constants import RELATIONSHIP_TYPE as RT

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.checks.docx import guarded
from verifiers.meaning import Meaning
from verifiers.readers.docx import W, find, load, norm


def _short(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:37] + "...")


def _same(a: str, b: str) -> bool:
    return norm(a).rstrip(".").lower() == norm(b).rstrip(".").lower()


@primitive("docx.comment", grounded=("path", "paragraph", "phrase", "text"),
           meaning=Meaning(action=r"comment"))
@guarded
def comment(state: State, path: str, paragraph: str, text: str, phrase: str | None = None) -> Result:
    """The document has one comment; it reads `text` (case, spacing and a final full stop aside) and its range
    covers exactly `phrase` in the paragraph beginning `paragraph`, or that whole paragraph when no phrase."""
    doc = load(state, path)
    try:
        part = doc.document.part.part_related_by(RT.COMMENTS)
        comments = part.element.findall(W + "comment")
    except (KeyError, AttributeError):
        comments = []
    if len(comments) != 1:
        return fail(f"the document has {len(comments)} comment(s), expected exactly one")
    note = comments[0]
    said = norm("".join(t.text or "" for t in note.iter(W + "t")))
    if not _same(said, text):
        return fail(f"the comment reads {_short(said)}, expected {_short(text)}")
    cid = note.get(W + "id")
    p = find(doc, paragraph)
    starts = [el for el in doc.body.iter(W + "commentRangeStart") if el.get(W + "id") == cid]
    if not starts:
        refs = [el for el in doc.body.iter(W + "commentReference") if el.get(W + "id") == cid]
        return fail("the comment is anchored to a point, not to the words" if refs else
                    "the comment is not anchored in the text")
    inside, covered, where = False, [], set()
    for el in doc.body.iter():
        if el.tag == W + "commentRangeStart" and el.get(W + "id") == cid:
            inside = True
        elif el.tag == W + "commentRangeEnd" and el.get(W + "id") == cid:
            inside = False
        elif inside and el.tag in (W + "t", W + "tab"):
            covered.append(el.text or "" if el.tag == W + "t" else " ")
            where.add(next((a for a in el.iterancestors(W + "p")), None))
    got = norm("".join(covered))
    want = norm(phrase) if phrase is not None else doc.text(p)
    if where - {p} or got != want:
        return fail(f"the comment covers {_short(got) if got else 'no text'}, expected {_short(want)}"
                    + (" (it reaches into another paragraph)" if where - {p} else ""))
    return ok(f"one comment {_short(said)} on {_short(want)}")
