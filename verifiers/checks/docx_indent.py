"""docx primitive for paragraph indents (writer.paragraph_indent).

`docx.paragraph_indent` asks whether the target paragraphs have the asked left ("before text") and first-line
indents, a hanging indent being a first line set back from the left indent, and whether every other paragraph kept
the indents it had. The docx frame does not read indents, so the check carries the others' initial values.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from lxml import etree

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.checks.docx import guarded
from verifiers.meaning import Meaning, Said
from verifiers.readers.docx import Doc, W, find, load

KINDS = ("first_line", "left", "hanging")
TOLERANCE_CM = 0.05


def _twips(value: str | None) -> int:
    try:
        return int(float(value or "0"))
    except ValueError:
        return 0


def indent_of(doc: Doc, p: etree._Element) -> list[float]:
    """[left, first line] of paragraph `p` in cm, effective (paragraph, style chain, defaults); a hanging indent
    reads as a negative first line. Writer may write the left indent as w:start."""
    sources = [p.find(W + "pPr")] + [s.find(W + "pPr") for s in doc.chain(doc.para_style(p))]
    sources.append(doc._default(f"{W}docDefaults/{W}pPrDefault/{W}pPr"))
    left: int | None = None
    first: int | None = None
    for ppr in sources:
        ind = ppr.find(W + "ind") if ppr is not None else None
        if ind is None:
            continue
        if left is None and (ind.get(W + "left") is not None or ind.get(W + "start") is not None):
            left = _twips(ind.get(W + "left") if ind.get(W + "left") is not None else ind.get(W + "start"))
        if first is None and ind.get(W + "hanging") is not None:
            first = -_twips(ind.get(W + "hanging"))
        elif first is None and ind.get(W + "firstLine") is not None:
            first = _twips(ind.get(W + "firstLine"))
    return [round((left or 0) * 2.54 / 1440, 3), round((first or 0) * 2.54 / 1440, 3)]


def expected_indent(kind: str, cm: float, was: Sequence[float]) -> list[float]:
    """[left, first line] a paragraph that had `was` must have once given `kind` indent of `cm`."""
    if kind == "first_line":
        return [was[0], cm]
    if kind == "left":
        return [cm, was[1]]
    return [cm, -cm]


def _close(got: Sequence[float], want: Sequence[float]) -> bool:
    return all(abs(g - w) <= TOLERANCE_CM for g, w in zip(got, want, strict=True))


def _shown(value: Sequence[float]) -> str:
    return f"left {value[0]:g} cm, first line {value[1]:+g} cm"


def _short(selector: str) -> str:
    return repr(selector if len(selector) <= 40 else selector[:37] + "...")


@primitive("docx.paragraph_indent", grounded=("path", "kind", "cm", "paragraph"),
           meaning=Meaning(action=r"indent", args={"kind": Said("indent")}))
@guarded
def paragraph_indent(state: State, path: str, kind: str, cm: float, targets: Mapping[str, Sequence[float]],
                     unchanged: Mapping[str, Sequence[float]], paragraph: str | None = None) -> Result:
    """Each paragraph of `targets` (locator -> its initial [left, first line] in cm) has the `kind` indent of `cm`
    ("first_line": the first line `cm` in from the left indent; "left": the whole paragraph `cm` in, first line as
    it was; "hanging": left `cm`, the first line back at the margin) within 0.05 cm; each paragraph of `unchanged`
    still has its [left, first line]. `paragraph` names the one target when there is one."""
    if kind not in KINDS or not targets:
        return fail(f"check misconfigured: kind={kind!r}, {len(targets)} targets")
    doc = load(state, path)
    for selector, was in targets.items():
        got, want = indent_of(doc, find(doc, selector)), expected_indent(kind, cm, was)
        if not _close(got, want):
            return fail(f"paragraph {_short(selector)} has {_shown(got)}, expected {_shown(want)}")
    for selector, was in unchanged.items():
        got = indent_of(doc, find(doc, selector))
        if not _close(got, was):
            return fail(f"paragraph {_short(selector)} had {_shown(was)} and must keep it, but has {_shown(got)}")
    return ok(f"{len(targets)} paragraph(s) have a {kind.replace('_', '-')} indent of {cm:g} cm; {len(unchanged)} "
              "others keep theirs")
