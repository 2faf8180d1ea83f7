"""xlsx primitive about scope: what the task did not ask to change is exactly as it was.

An instruction that asks for one column, one style or one chart never allows editing other data, deleting a
row, or dropping or renaming a sheet; a rubric that checks only the asked change accepts all of those. The
rubric therefore carries the initial value of every cell out of the task's scope and this check compares.
Numbers are carried as numbers: the same digits retyped as text are a change (a sum skips them). With
`exact`, the workbook may also hold nothing new: no extra sheet, no new filled cell, no hidden row or column."""

from __future__ import annotations

from typing import Any

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.meaning import Meaning
from verifiers.readers import StateError
from verifiers.readers.xlsx import cell_lookup, cell_text


def _split(key: str) -> tuple[str, str]:
    sheet, sep, coord = key.rpartition("!")
    if not sep or not sheet:
        raise StateError(f"check misconfigured: {key!r} is not 'Sheet!A1'")
    return sheet, coord


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _differs(got: Any, want: Any) -> bool:
    """Whether the cell value `got` is not the initial `want` (a number, or the initial text)."""
    if _is_number(want):
        return not _is_number(got) or abs(float(got) - float(want)) > 1e-9 * max(1.0, abs(float(want)))
    return cell_text(got).strip() != str(want).strip()


def _shown(value: Any) -> str:
    return repr(value) if isinstance(value, str) else cell_text(value)


def _additions(wb: Any, cells: dict[str, Any], sheets: list[str]) -> str | None:
    """What the workbook holds beyond its initial sheets and cells, or None."""
    extra = [name for name in wb.sheetnames if name not in sheets]
    if extra:
        return f"sheet(s) {extra} added"
    for ws in wb.worksheets:
        hidden = [k for k, d in ws.column_dimensions.items() if d.hidden]
        if hidden:
            return f"{ws.title}: column(s) {', '.join(hidden[:6])} hidden"
        rows = [str(k) for k, d in ws.row_dimensions.items() if d.hidden]
        if rows:
            return f"{ws.title}: row(s) {', '.join(rows[:6])} hidden"
        new = [c.coordinate for row in ws.iter_rows() for c in row if c.value is not None
               and cell_text(c.value).strip() != "" and f"{ws.title}!{c.coordinate}" not in cells]
        if new:
            return f"{ws.title}: new content in {', '.join(new[:6])}"
    return None


@primitive("xlsx.unchanged", grounded=("path",),
           meaning=Meaning(action=None, why="guards the cells out of the task's scope"))
def unchanged(state: State, path: str, cells: dict[str, Any], sheets: list[str] | None = None,
              exact: bool = False) -> Result:
    """Every cell of `cells` ("Sheet!A1" -> its initial number or text) still holds it: out-of-scope data kept.
    With `exact`, nothing was added either: no sheet beyond `sheets`, no other filled cell, nothing hidden."""
    wb = state.workbook(path)
    changed: list[str] = []
    names, value = wb.sheetnames, cell_lookup(wb, "")  # each sheet looked up once, not once per cell
    for key, want in cells.items():
        sheet, coord = _split(key)  # never an empty sheet name
        if sheet not in names:
            return fail(f"{path} has no sheet {sheet!r} any more (sheets: {names})")
        got = value(sheet, coord)
        if _differs(got, want):
            changed.append(f"{key}: {_shown(want)} -> {_shown(got)}")
    if changed:
        more = f" (+{len(changed) - 4} more)" if len(changed) > 4 else ""
        return fail(f"{len(changed)} cell(s) out of the task's scope changed: {'; '.join(changed[:4])}{more}")
    if exact:
        added = _additions(wb, cells, sheets or sorted({_split(k)[0] for k in cells}))
        if added:
            return fail(f"all {len(cells)} cells out of the task's scope keep their values, but {added}")
    return ok(f"all {len(cells)} cells out of the task's scope keep their initial values")
