"""docx primitive for tab stops (writer.tab_stops).

`docx.tab_stop` asks whether the target paragraphs have a tab stop of the asked alignment at the asked position,
and no other tab stop of their own, and whether every other paragraph kept the tab stops it had. The docx frame does
not read tab stops, so the check carries the others' initial ones.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from lxml import etree

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.checks.docx import guarded
from verifiers.meaning import Meaning, Said
from verifiers.readers.docx import Doc, W, find, load

ALIGNS = ("left", "right", "center", "decimal")
TOLERANCE_CM = 0.05
_ALIAS = {"start": "left", "end": "right"}


def tab_stops(doc: Doc, p: etree._Element) -> list[list[object]]:
    """The paragraph's effective tab stops as sorted [position in cm, alignment]: its style chain's stops, then its
    own (a w:val="clear" stop removes an inherited one at that position)."""
    sources = [s.find(W + "pPr") for s in doc.chain(doc.para_style(p))][::-1] + [p.find(W + "pPr")]
    stops: dict[int, str] = {}
    for ppr in sources:
        tabs = ppr.find(W + "tabs") if ppr is not None else None
        for tab in tabs.findall(W + "tab") if tabs is not None else ():
            try:
                pos = int(float(tab.get(W + "pos") or "0"))
            except ValueError:
                continue
            kind = tab.get(W + "val") or "left"
            near = next((k for k in stops if abs(k - pos) <= 20), None)
            if kind == "clear":
                if near is not None:
                    del stops[near]
                continue
            if near is not None:
                del stops[near]
            stops[pos] = _ALIAS.get(kind, kind)
    return [[round(pos * 2.54 / 1440, 2), kind] for pos, kind in sorted(stops.items())]


def _same(got: Sequence[Sequence[object]], want: Sequence[Sequence[object]]) -> bool:
    return len(got) == len(want) and all(
        g[1] == w[1] and abs(float(g[0]) - float(w[0])) <= TOLERANCE_CM  # type: ignore[arg-type]
        for g, w in zip(got, want, strict=True))


def _shown(stops: Sequence[Sequence[object]]) -> str:
    return ", ".join(f"{kind} at {pos:g} cm" for pos, kind in stops) or "none"


def _short(selector: str) -> str:
    return repr(selector if len(selector) <= 40 else selector[:37] + "...")


@primitive("docx.tab_stop", grounded=("path", "align", "cm"),
           meaning=Meaning(action=r"tab", args={"align": Said("tab_align")}))
@guarded
def tab_stop(state: State, path: str, align: str, cm: float, targets: Sequence[str],
             unchanged: Mapping[str, Sequence[Sequence[object]]]) -> Result:
    """Each paragraph of `targets` has exactly one tab stop, `align` at `cm` cm (within 0.05 cm); each paragraph of
    `unchanged` still has the tab stops it had."""
    if align not in ALIGNS or not targets:
        return fail(f"check misconfigured: align={align!r}, {len(targets)} targets")
    doc = load(state, path)
    want = [[cm, align]]
    for selector in targets:
        got = tab_stops(doc, find(doc, selector))
        if not _same(got, want):
            return fail(f"paragraph {_short(selector)} has tab stops: {_shown(got)}; expected {_shown(want)} only")
    for selector, was in unchanged.items():
        got = tab_stops(doc, find(doc, selector))
        if not _same(got, was):
            return fail(f"paragraph {_short(selector)} had tab stops: {_shown(was)} and must keep them, but has "
                        f"{_shown(got)}")
    return ok(f"{len(targets)} paragraph(s) have a {align} tab stop at {cm:g} cm; {len(unchanged)} others keep theirs")
