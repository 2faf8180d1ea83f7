"""xlsx primitives: structure (merged cells, hidden columns, frozen panes, autofilters).

Written to accept what LibreOffice Calc saves as well as what openpyxl writes:
- column dimensions may be grouped (`<col min="2" max="3" hidden="1">` covers B:C);
- a frozen pane's `topLeftCell` follows the scroll position, so the split counts decide the freeze cell;
- an autofilter is the sheet's `<autoFilter ref>`, or (when only that survives) the sheet-local
  `_xlnm._FilterDatabase` defined name, which openpyxl drops on load.
"""

from __future__ import annotations

import re
import zipfile
from typing import Any
from xml.etree import ElementTree

from openpyxl.utils import column_index_from_string, coordinate_to_tuple, get_column_letter

from kit import bounded
from verifiers.checks import Result, State, StateError, fail, ok, primitive
from verifiers.checks.xlsx_common import bounds, cell_text

#: Horizontal alignments that show a merged cell's content centered ("Center Across Selection" on a merged
#: cell looks the same as "center"; without a merge it is not a merge, which `merged_range` reports).
CENTERED = ("center", "centerContinuous")


def _ref(bounds: tuple[int, int, int, int]) -> str:
    min_col, min_row, max_col, max_row = bounds
    return f"{get_column_letter(min_col)}{min_row}:{get_column_letter(max_col)}{max_row}"


@primitive("xlsx.merged_range", grounded=("path", "sheet", "ref", "text", "horizontal"))
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


def _column_state(ws: Any, index: int) -> tuple[bool, str]:
    """(hidden, how it was decided) for column `index`, reading grouped min..max dimensions."""
    for key, dim in ws.column_dimensions.items():
        try:
            low = int(dim.min) if dim.min else column_index_from_string(key)
            high = int(dim.max) if dim.max else low
        except ValueError:
            continue
        if low <= index <= high:
            span = get_column_letter(low) + (f":{get_column_letter(high)}" if high != low else "")
            if dim.hidden:
                return True, f"hidden (dimension {span})"
            if dim.width is not None and dim.width <= 0:
                return True, f"width 0 (dimension {span})"
            return False, f"visible (dimension {span})"
    return False, "visible (no dimension)"


@primitive("xlsx.columns_hidden", grounded=("path", "sheet", "columns", "headers"))
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
        hidden, how = _column_state(ws, column_index_from_string(letter))
        seen.append(f"{letter} {how}")
        if not hidden:
            return fail(f"column {letter} is not hidden: {'; '.join(seen)}")
    for letter in visible:
        hidden, how = _column_state(ws, column_index_from_string(letter))
        if hidden:
            return fail(f"column {letter} should stay visible but is {how}; asked to hide only {', '.join(columns)}")
    return ok(f"{'; '.join(seen)}; columns {', '.join(visible)} visible")


def _pane_cell(ws: Any) -> tuple[str | None, str]:
    """The frozen panes' first scrolling cell (e.g. "B2"), or None, with what the sheet view shows."""
    pane = ws.sheet_view.pane
    if pane is None:
        return None, "no pane"
    state = pane.state or "split"
    if state not in ("frozen", "frozenSplit"):
        return None, f"pane state {state!r} (split, not frozen)"
    try:
        x_split = int(round(float(pane.xSplit or 0)))
        y_split = int(round(float(pane.ySplit or 0)))
    except (TypeError, ValueError):
        x_split = y_split = 0
    seen = f"frozen pane xSplit={x_split}, ySplit={y_split}, topLeftCell={pane.topLeftCell}"
    if x_split > 0 or y_split > 0:
        # the splits count from the view's own top-left cell (A1 unless the sheet was scrolled when frozen)
        col, row = 1, 1
        origin = ws.sheet_view.topLeftCell
        if origin:
            try:
                col, row = coordinate_to_tuple(str(origin).replace("$", "").upper())[::-1]
            except (ValueError, TypeError):
                col, row = 1, 1
            if (col, row) != (1, 1):
                seen += f", view starts at {origin}"
        return f"{get_column_letter(col + x_split)}{row + y_split}", seen
    if pane.topLeftCell:
        return str(pane.topLeftCell).replace("$", "").upper(), seen
    return None, seen


@primitive("xlsx.freeze_panes", grounded=("path", "sheet", "cell"), headless=False)
def freeze_panes(state: State, path: str, sheet: str, cell: str) -> Result:
    """The sheet's panes are frozen at `cell`: rows above it and columns left of it stay visible."""
    ws = state.sheet(path, sheet)
    actual, seen = _pane_cell(ws)
    if actual is None:
        return fail(f"{sheet}: panes are not frozen ({seen})")
    if actual != cell.replace("$", "").upper():
        return fail(f"{sheet}: panes are frozen at {actual}, expected {cell} ({seen})")
    return ok(f"{sheet}: panes frozen at {actual} ({seen})")


def _filter_database(state: State, path: str, sheet: str) -> str | None:
    """The range of the sheet-local `_xlnm._FilterDatabase` defined name, read from workbook.xml."""
    ns = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
    try:
        host = state.path(path)
        bounded.preflight(host)  # a fifo would block ZipFile forever; a bomb is refused
        with zipfile.ZipFile(host) as archive:
            root = ElementTree.fromstring(archive.read("xl/workbook.xml"))
    except Exception:  # an unreadable archive just has no such name
        return None
    names = [s.get("name") for s in root.iter(f"{ns}sheet")]
    if sheet not in names:
        return None
    for defined in root.iter(f"{ns}definedName"):
        if defined.get("name") == "_xlnm._FilterDatabase" and defined.get("localSheetId") == str(names.index(sheet)):
            value = (defined.text or "").strip()
            return re.sub(r"^.*!", "", value) or None
    return None


@primitive("xlsx.autofilter", grounded=("path", "sheet", "ref"))
def autofilter(state: State, path: str, sheet: str, ref: str) -> Result:
    """The sheet has an AutoFilter over exactly `ref` (header row included)."""
    ws = state.sheet(path, sheet)
    want = bounds(ref)
    actual = ws.auto_filter.ref if ws.auto_filter is not None else None
    source = "autoFilter"
    if not actual:
        actual = _filter_database(state, path, sheet)
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
