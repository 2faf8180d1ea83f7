"""xlsx primitive for "fill the missing values" tasks (calc.fill_blanks): exactly the empty cells hold the fill.

That nothing else changed (no value typed over a filled cell, no row deleted) is the family's second check,
`xlsx.unchanged` over every initially filled cell (workflows/calc/kit.unchanged_check).
"""

from __future__ import annotations

from typing import Any

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.checks.xlsx_common import same_value
from verifiers.checks.xlsx_values import _formula_result
from verifiers.formula import FormulaError
from verifiers.meaning import ByProperty, Meaning, Said
from verifiers.readers.xlsx import cell_text


@primitive("xlsx.blanks_filled", grounded=("path", "sheet", "header", "fill"), secret=("expected",),
           meaning=Meaning(action=r"fill|blank|empty|missing",
                           args={"header": ByProperty("cells"), "fill": Said("fill")}))
def blanks_filled(state: State, path: str, sheet: str, header: str, fill: str, cells: list[str],
                  expected: list[float], tolerance: float = 0.006) -> Result:
    """Each of `cells` (the column's initially empty cells) holds the number `expected` for it (a typed number or
    a formula showing it, within `tolerance`): `fill` names the rule that gave those numbers, for the evidence.

    A number typed as text ('0) fails: Calc would not count it in a sum."""
    if len(cells) != len(expected) or not cells:
        return fail(f"check misconfigured: {len(cells)} cells for {len(expected)} expected values")
    ws = state.sheet(path, sheet)
    problems = []
    for coord, want in zip(cells, expected, strict=True):
        value: Any = ws[coord].value
        if isinstance(value, str) and value.startswith("="):
            try:
                value = _formula_result(state, path, sheet, coord)
            except FormulaError as exc:
                problems.append(f"{coord}: {exc}")
                continue
        if value is None or (isinstance(value, str) and not value.strip()):
            problems.append(f"{coord} is still empty")
        elif not isinstance(value, int | float) or isinstance(value, bool):
            problems.append(f"{coord} holds the text {cell_text(value)!r}, not a number")
        elif not same_value(value, want, tolerance):
            problems.append(f"{coord} = {cell_text(value)}, expected {cell_text(want)}")
    where = f"{len(cells)} empty cells of '{header}' on {sheet}"
    if problems:
        return fail(f"{len(problems)} of the {where} are not filled with the {fill} value: {'; '.join(problems[:4])}")
    return ok(f"all {where} hold the {fill} value ({', '.join(cells)})")
