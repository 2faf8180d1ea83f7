"""xlsx primitives: structure (merged cells, hidden columns, frozen panes, autofilters).

The sheet view is read by `verifiers.readers.xlsx`, which accepts what LibreOffice Calc saves as well as what
openpyxl writes:
- column dimensions may be grouped (`<col min="2" max="3" hidden="1">` covers B:C);
- a frozen pane's `topLeftCell` follows the scroll position, so the split counts decide the freeze cell;
- an autofilter is the sheet's `<autoFilter ref>`, or (when only that survives) the sheet-local
  `_xlnm._FilterDatabase` defined name, which openpyxl drops on load.
"""

from __future__ import annotations

from openpyxl.utils import column_index_from_string, get_column_letter

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.meaning import Meaning, Said, choice
from verifiers.readers import StateError
from verifiers.readers.xlsx import bounds, cell_text, column_state, filter_database, pane_cell

#: Horizontal alignments that show a merged cell's content centered ("Center Across Selection" on a merged
#: cell looks the same as "center"; without a merge it is not a merge, which `merged_range` reports).
CENTERED = ("center", "centerContinuous")


def _ref(bounds: tuple[int, int, int, int]) -> str:
    min_col, min_row, max_col, max_row = bounds
    return f"{get_column_letter(min_col)}{min_row}:{get_column_letter(max_col)}{max_row}"


@primitive("xlsx.merged_range", grounded=("path", "sheet", "ref", "text", "horizontal"),
           meaning=Meaning(action=r"merg|span",
                           args={"horizontal": Said("align", choice({"center": "center", "centerContinuous": "center",
                                                                     "left": "left", "right": "right"}))}))
def merged_range(state: State, path: str, sheet: str, ref: str, text: str | None = None,
                 horizontal: str | None = None) -> Result:
    """Exactly `ref` is one merged cell; optionally its top-left cell holds `text` and is aligned `horizontal`."""
    ws = state.sheet(path, sheet)
    want = bounds(ref)
    merged = [tuple(r.bounds) for r in ws.merged_cells.ranges]
    shown = ", ".join(_ref(b) for b in merged) or "none"
    if want not in merged:
        overlapping = [_ref(b) for b in merged if not (b[2] < want[0] or b[0] > want[2] or b[3] < want[1]
                                                      or b[1] > want[3])]
        near = f"; overlapping {', '.join(overlapping)}" if overlapping else ""
        return fail(f"{sheet}!{ref} is not merged (merged ranges: {shown}{near})")
    others = [_ref(b) for b in merged if b != want]
    if others:  # one merge was asked for: another one joins cells the instruction never mentioned
        return fail(f"{sheet}!{ref} is merged, but so are {', '.join(others[:4])}")
    corner = ws.cell(want[1], want[0])
    evidence = f"{sheet}!{_ref(want)} is merged"
    if text is not None:
        if cell_text(corner.value).strip() != text.strip():
            return fail(f"{evidence}, but {corner.coordinate} holds {cell_text(corner.value)!r}, expected {text!r}")
        evidence += f", {corner.coordinate} = {text!r}"
    if horizontal is not None:
        actual = corner.alignment.horizontal if corner.alignment is not None else None
        accepted = CENTERED if horizontal == "center" else (horizontal,)
        if actual not in accepted:
            return fail(f"{evidence}, but its horizontal alignment is {actual or 'general'!r}, expected {horizontal!r}")
        evidence += f", aligned {actual}"
    return ok(evidence)


@primitive("xlsx.columns_hidden", grounded=("path", "sheet", "columns", "headers"),
           meaning=Meaning(action=r"hid(?:e|den)|visible|show"))
def columns_hidden(state: State, path: str, sheet: str, columns: list[str], headers: list[str],
                   visible: list[str], header_row: int = 1) -> Result:
    """The `columns` (letters, still headed `headers`) are hidden and the `visible` columns are not."""
    ws = state.sheet(path, sheet)
    for letter, header in zip(columns, headers, strict=True):
        actual = cell_text(ws[f"{letter}{header_row}"].value).strip()
        if actual != header.strip():
            return fail(f"{sheet}!{letter}{header_row} is {actual!r}, expected the header {header!r} "
                        "(columns were deleted or moved rather than hidden)")
    seen = []
    for letter in columns:
        hidden, how = column_state(ws, column_index_from_string(letter))
        seen.append(f"{letter} {how}")
        if not hidden:
            return fail(f"column {letter} is not hidden: {'; '.join(seen)}")
    for letter in visible:
        hidden, how = column_state(ws, column_index_from_string(letter))
        if hidden:
            return fail(f"column {letter} should stay visible but is {how}; asked to hide only {', '.join(columns)}")
    return ok(f"{'; '.join(seen)}; columns {', '.join(visible)} visible")


@primitive("xlsx.freeze_panes", grounded=("path", "sheet", "cell"), headless=False,
           meaning=Meaning(action=r"freez|froze|lock|visible"))
def freeze_panes(state: State, path: str, sheet: str, cell: str) -> Result:
    """The sheet's panes are frozen at `cell`: rows above it and columns left of it stay visible."""
    ws = state.sheet(path, sheet)
    actual, seen = pane_cell(ws)
    if actual is None:
        return fail(f"{sheet}: panes are not frozen ({seen})")
    if actual != cell.replace("$", "").upper():
        return fail(f"{sheet}: panes are frozen at {actual}, expected {cell} ({seen})")
    return ok(f"{sheet}: panes frozen at {actual} ({seen})")


@primitive("xlsx.autofilter", grounded=("path", "sheet", "ref"), meaning=Meaning(action=r"filter|autofilter"))
def autofilter(state: State, path: str, sheet: str, ref: str) -> Result:
    """The sheet has an AutoFilter over exactly `ref` (header row included)."""
    ws = state.sheet(path, sheet)
    want = bounds(ref)
    actual = ws.auto_filter.ref if ws.auto_filter is not None else None
    source = "autoFilter"
    if not actual:
        actual = filter_database(state, path, sheet)
        source = "_FilterDatabase name"
    if not actual:
        return fail(f"{sheet} has no AutoFilter")
    try:
        got = bounds(actual)
    except StateError:
        return fail(f"{sheet}: AutoFilter range {actual!r} ({source}) is not a cell range")
    if got != want:
        return fail(f"{sheet}: AutoFilter covers {_ref(got)} ({source}), expected {_ref(want)}")
    # The task asks for the filter buttons, not for a filter: a criterion, or rows of the table hidden, hides
    # data the instruction never asked to hide.
    criteria = list(ws.auto_filter.filterColumn) if ws.auto_filter is not None else []
    if criteria:
        columns = ", ".join(f"#{(c.colId or 0) + 1}" for c in criteria)
        return fail(f"{sheet}: AutoFilter covers {_ref(got)}, but filters its column(s) {columns}: "
                    "no criterion was asked")
    rows = getattr(ws, "row_dimensions", {})
    hidden = [r for r in range(got[1] + 1, got[3] + 1) if r in rows and rows[r].hidden]
    if hidden:
        return fail(f"{sheet}: AutoFilter covers {_ref(got)}, but row(s) {', '.join(map(str, hidden[:6]))} are hidden")
    return ok(f"{sheet}: AutoFilter covers {_ref(got)} ({source}), no criterion, no row hidden")
