"""docx primitive for the space above and below paragraphs (writer.paragraph_spacing).

`docx.paragraph_space` asks whether the target paragraphs have the asked space above ("before") or below ("after")
in points, the other side as it was, and whether every other paragraph kept both. The docx frame does not read
paragraph spacing, so the check carries the others' initial values.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from lxml import etree

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.checks.docx import guarded
from verifiers.meaning import Meaning, Said
from verifiers.readers.docx import Doc, W, find, load

SIDES = ("before", "after")
TOLERANCE_PT = 0.5


def space_of(doc: Doc, p: etree._Element) -> list[float]:
    """[space before, space after] of paragraph `p` in points, effective (paragraph, style chain, defaults)."""
    out = []
    for side in SIDES:
        el = doc.para_prop(p, "spacing", side)
        try:
            out.append(round(int(el.get(W + side)) / 20, 2) if el is not None else 0.0)
        except ValueError:
            out.append(0.0)
    return out


def expected_space(side: str, pt: float, was: Sequence[float]) -> list[float]:
    return [pt, was[1]] if side == "before" else [was[0], pt]


def _shown(value: Sequence[float]) -> str:
    return f"{value[0]:g} pt above, {value[1]:g} pt below"


def _short(selector: str) -> str:
    return repr(selector if len(selector) <= 40 else selector[:37] + "...")


def _close(got: Sequence[float], want: Sequence[float]) -> bool:
    return all(abs(g - w) <= TOLERANCE_PT for g, w in zip(got, want, strict=True))


@primitive("docx.paragraph_space", grounded=("path", "side", "pt", "paragraph"),
           meaning=Meaning(action=r"space|spacing", args={"side": Said("para_space")}))
@guarded
def paragraph_space(state: State, path: str, side: str, pt: float, targets: Mapping[str, Sequence[float]],
                    unchanged: Mapping[str, Sequence[float]], paragraph: str | None = None) -> Result:
    """Each paragraph of `targets` (locator -> its initial [before, after] in pt) has `pt` points of space on `side`
    ("before": above it, "after": below it) and its other side as it was, within 0.5 pt; each paragraph of
    `unchanged` still has its [before, after]. `paragraph` names the one target when there is one."""
    if side not in SIDES or not targets:
        return fail(f"check misconfigured: side={side!r}, {len(targets)} targets")
    doc = load(state, path)
    for selector, was in targets.items():
        got, want = space_of(doc, find(doc, selector)), expected_space(side, pt, was)
        if not _close(got, want):
            return fail(f"paragraph {_short(selector)} has {_shown(got)}, expected {_shown(want)}")
    for selector, was in unchanged.items():
        got = space_of(doc, find(doc, selector))
        if not _close(got, was):
            return fail(f"paragraph {_short(selector)} had {_shown(was)} and must keep it, but has {_shown(got)}")
    where = "above" if side == "before" else "below"
    return ok(f"{len(targets)} paragraph(s) have {pt:g} pt of space {where}; {len(unchanged)} others keep theirs")
