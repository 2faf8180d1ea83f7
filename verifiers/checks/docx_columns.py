"""docx primitive for page columns (writer.page_columns).

`docx.page_columns` asks whether every section of the document lays its text out in the asked number of columns,
with or without a separator line between them. The docx frame reads each section's page size, orientation and
margins but not its columns, so this check is the only one that reads them.
"""

from __future__ import annotations

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.checks.docx import guarded
from verifiers.meaning import Meaning, Said, when
from verifiers.readers.docx import W, load, sections


def _on(value: str | None) -> bool:
    return (value or "0").lower() in ("1", "true", "on")


@primitive("docx.page_columns", grounded=("path", "count", "line"),
           meaning=Meaning(action=r"columns?", args={"line": Said("column_line", when("line"))}))
@guarded
def page_columns(state: State, path: str, count: int, line: bool = False) -> Result:
    """Every section has `count` columns (w:cols/@w:num; none: one column) and a separator line between them
    exactly when `line`."""
    doc = load(state, path)
    found = sections(doc)
    if not found:
        return fail(f"{path} has no section properties (one column)")
    for i, sect in enumerate(found, 1):
        cols = sect.find(W + "cols")
        try:
            num = int(cols.get(W + "num") or "1") if cols is not None else 1
        except ValueError:
            num = 1
        if num != count:
            return fail(f"section {i} of {len(found)} has {num} column(s), expected {count}")
        sep = cols is not None and _on(cols.get(W + "sep"))
        if sep != line:
            return fail(f"section {i} has {'a' if sep else 'no'} separator line between its columns, expected "
                        f"{'one' if line else 'none'}")
    return ok(f"all {len(found)} section(s) have {count} columns" + (" with a separator line" if line else ""))
