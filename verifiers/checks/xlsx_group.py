"""xlsx primitive for a group-by summary (calc.group_summary): a sheet holds one row per category of a table, in
A-to-Z order, with one aggregate (total, average, count, highest) of each category's rows next to it: a pivot-like
table checked by its values, whether typed or computed by formulas (SUMIF, AVERAGEIF, COUNTIF ...).

What else may change is the frame's question (`xlsx.frame`), not this check's.
"""

from __future__ import annotations

from typing import Any

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.checks.xlsx_values import _formula_result
from verifiers.formula import FormulaError
from verifiers.meaning import Meaning, Said, upper
from verifiers.readers.xlsx import cell_text, numeric


def _shown(state: State, path: str, sheet: str, coord: str, raw: Any) -> Any:
    """A cell's value: a formula's computed value (cached, else evaluated), anything else as stored."""
    if isinstance(raw, str) and raw.startswith("="):
        return _formula_result(state, path, sheet, coord)
    return raw


@primitive("xlsx.group_summary", grounded=("path", "sheet", "source_sheet", "group_header", "value_header", "label",
                                           "function"),
           secret=("expected",),
           meaning=Meaning(action=r"summar|group|per\b|each|breakdown|break down|pivot|aggregat|roll",
                           args={"function": Said("aggregate", upper)}))
def group_summary(state: State, path: str, sheet: str, source_sheet: str, group_header: str, label: str,
                  function: str, groups: list[str], expected: list[float], value_header: str | None = None,
                  tolerance: float = 0.006) -> Result:
    """On `sheet`, A1 reads `group_header` and B1 `label`; from row 2 column A lists `groups` (the categories of
    `source_sheet`'s '{group_header}' column, A to Z) and column B the number `expected` for each (the `function`
    of its rows' '{value_header}' values, within `tolerance`; a typed number or a formula showing it); the row below
    the last group is empty. A number typed as text fails (a sum over it would skip it)."""
    if len(groups) != len(expected) or not groups:
        return fail(f"check misconfigured: {len(groups)} groups for {len(expected)} expected values")
    ws = state.sheet(path, sheet)
    problems = []
    for coord, heading in (("A1", group_header), ("B1", label)):
        if cell_text(ws[coord].value).strip() != heading:
            problems.append(f"{coord} = {cell_text(ws[coord].value)!r}, expected the header {heading!r}")
    for i, (group, want) in enumerate(zip(groups, expected, strict=True)):
        row = i + 2
        name = cell_text(ws[f"A{row}"].value).strip()
        if name != group:
            problems.append(f"A{row} = {name!r}, expected the group {group!r}")
        coord = f"B{row}"
        try:
            got = _shown(state, path, sheet, coord, ws[coord].value)
        except (FormulaError, KeyError) as exc:
            problems.append(f"{coord}: {exc}")
            continue
        number = numeric(got)
        if got is None or (isinstance(got, str) and not got.strip()):
            problems.append(f"{coord} is empty, expected {cell_text(want)} for {group!r}")
        elif number is None or isinstance(got, str):
            problems.append(f"{coord} holds the text {cell_text(got)!r}, not a number")
        elif abs(number - want) > tolerance + 1e-9:
            problems.append(f"{coord} = {cell_text(got)}, expected {cell_text(want)} for {group!r}")
    below = len(groups) + 2
    extra = [f"{c}{below}" for c in "AB" if cell_text(ws[f"{c}{below}"].value).strip()]
    if extra:
        problems.append(f"{', '.join(extra)} below the last group is not empty "
                        f"({cell_text(ws[extra[0]].value)!r})")
    of = f" of '{value_header}'" if value_header else ""
    what = f"the {function.lower()}{of} per '{group_header}' from {source_sheet}"
    if problems:
        return fail(f"{sheet} does not hold {what} ({len(groups)} groups, A to Z): {'; '.join(problems[:4])}")
    return ok(f"{sheet}!A1:B{len(groups) + 1} holds {what}: {len(groups)} groups, A to Z")
