"""docx primitive for a paragraph split into one paragraph per sentence (writer.sentence_per_line).

`docx.sentences_split` reads the whole body against the document with the stated paragraphs split at their sentence
ends: each sentence its own paragraph, in order, in the style its paragraph had, and no other text changed. A manual
line break (Shift+Enter) keeps one paragraph, so it reads as not split.
"""

from __future__ import annotations

from collections.abc import Sequence

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.checks.docx import guarded
from verifiers.meaning import Meaning
from verifiers.readers.docx import load, norm


def _short(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:37] + "...")


@primitive("docx.sentences_split", grounded=("path", "where"),
           meaning=Meaning(action=r"split|separate|own paragraph|one sentence|each sentence|sentence per|break"))
@guarded
def sentences_split(state: State, path: str, where: str, paragraphs: Sequence[str], sentences: Sequence[str],
                    styles: Sequence[str]) -> Result:
    """The body's non-empty paragraphs read exactly `paragraphs` (the document with the paragraphs at `where` split
    at their sentence ends); each text of `sentences` is a paragraph of its own, in the style named by the same
    index of `styles` (the style its paragraph had)."""
    if len(sentences) != len(styles) or not sentences:
        return fail(f"check misconfigured: {len(sentences)} sentences, {len(styles)} styles")
    doc = load(state, path)
    found = [(doc.text(p), p) for p in doc.paragraphs() if doc.text(p)]
    got = [text for text, _ in found]
    want = [norm(t) for t in paragraphs]
    for sentence, style in zip(sentences, styles, strict=True):
        hits = [p for text, p in found if text == norm(sentence)]
        if len(hits) != 1:
            holder = next((text for text in got if norm(sentence) in text), None)
            seen = f"it is inside {_short(holder)}" if holder else "it is gone"
            return fail(f"the sentence {_short(norm(sentence))} is not a paragraph of its own ({seen})")
        name = doc.style_name(doc.para_style(hits[0]))
        if name.replace(" ", "").lower() != style.replace(" ", "").lower():
            return fail(f"the sentence {_short(norm(sentence))} is in style {name!r}, expected {style!r} (the style "
                        "of the paragraph it came from)")
    if got != want:
        i = next((k for k, (a, b) in enumerate(zip(got, want, strict=False)) if a != b), min(len(got), len(want)))
        seen = _short(got[i]) if i < len(got) else "the end of the document"
        return fail(f"paragraph {i + 1} is {seen} where {_short(want[i]) if i < len(want) else 'nothing'} was "
                    f"expected ({len(got)} paragraphs, expected {len(want)})")
    return ok(f"{where!r}: each of the {len(sentences)} sentences is its own paragraph; {len(want)} paragraphs read "
              "as expected")
