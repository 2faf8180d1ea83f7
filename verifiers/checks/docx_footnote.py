"""docx primitive for a footnote (writer.footnote).

`docx.footnote` asks whether the document has exactly one footnote (the separators a writer keeps in the part
aside), reading the stated text, whose reference mark stands right after the stated words of the stated
paragraph. The footnotes part is no part the frame reads, and a reference mark adds no text, so the frame keeps the
body's text.
"""

from __future__ import annotations

from docx.opc.constants import RELATIONSHIP_TYPE as RT
from lxml import etree

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.checks.docx import guarded
from verifiers.meaning import Meaning
from verifiers.readers.docx import W, find, load, norm

_SKIP = (W + "del", W + "moveFrom", W + "pPr", W + "rPr")


def _short(text: str) -> str:
    """The end of a text (where a mark follows it)."""
    return repr(text if len(text) <= 40 else "..." + text[-37:])


def _head(text: str) -> str:
    return repr(text if len(text) <= 60 else text[:57] + "...")


def _same(a: str, b: str) -> bool:
    return norm(a).rstrip(".").lower() == norm(b).rstrip(".").lower()


@primitive("docx.footnote", grounded=("path", "paragraph", "phrase", "text"), meaning=Meaning(action=r"footnote"))
@guarded
def footnote(state: State, path: str, paragraph: str, phrase: str, text: str) -> Result:
    """The document has one footnote; it reads `text` (case, spacing and a final full stop aside), and its
    reference mark is in the paragraph beginning `paragraph`, right after `phrase` (spaces between aside)."""
    doc = load(state, path)
    try:
        part = doc.document.part.part_related_by(RT.FOOTNOTES)
    except (KeyError, AttributeError):
        part = None
    root = None if part is None else getattr(part, "element", None)
    if part is not None and root is None:  # python-docx knows no footnotes: a plain part, parsed here
        root = etree.fromstring(part.blob, etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False))
    notes = [] if root is None else root.findall(W + "footnote")
    real = [n for n in notes if (n.get(W + "type") or "normal") == "normal"]
    if len(real) != 1:
        return fail(f"the document has {len(real)} footnote(s), expected exactly one")
    note = real[0]
    said = norm("".join(t.text or "" for t in note.iter(W + "t")))
    if not _same(said, text):
        return fail(f"the footnote reads {_head(said)}, expected {_head(text)}")
    nid = note.get(W + "id")
    refs = [r for r in doc.body.iter(W + "footnoteReference") if r.get(W + "id") == nid]
    if len(refs) != 1:
        return fail(f"the footnote is referenced {len(refs)} time(s) in the text, expected once")
    p = find(doc, paragraph)
    if p not in refs[0].iterancestors(W + "p"):
        return fail(f"the footnote mark is not in the paragraph beginning {paragraph!r}")
    before: list[str] = []
    for el in p.iter():
        if el is refs[0]:
            break
        if any(a.tag in _SKIP for a in el.iterancestors()):
            continue
        if el.tag == W + "t":
            before.append(el.text or "")
        elif el.tag == W + "tab":
            before.append(" ")
    lead = norm("".join(before))
    if not lead.endswith(norm(phrase)):
        return fail(f"the footnote mark follows {_short(lead) if lead else 'nothing'}, expected it right after "
                    f"{phrase!r}")
    return ok(f"one footnote {_head(said)}, its mark right after {phrase!r}")
