"""xlsx primitive for "fill a per-category summary block" tasks (calc.conditional_sum): each value cell next to a
category label holds a SUMIF / COUNTIF / AVERAGEIF formula giving that category's total, count or average.

The formulas refer to the whole table, so `xlsx.formula_column`'s own-row rule does not apply; instead each one
must compute what the right formula computes when the table's numbers change (`disagreement`) and when its texts,
the label cell included, change (`text_disagreement`): a typed result dressed as a formula, a range sliding down as
the formula is filled, or a category typed into the formula instead of read from its label cannot agree."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from openpyxl.utils import get_column_letter

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.checks.xlsx_common import same_value
from verifiers.checks.xlsx_values import _formula_result
from verifiers.formula import FormulaError, disagreement, function_names, text_disagreement
from verifiers.meaning import Meaning, Prose
from verifiers.readers import StateError
from verifiers.readers.xlsx import bounds, cell_lookup, cell_text

FUNCTIONS = ("SUMIF", "COUNTIF", "AVERAGEIF")


def _names_function(text: str, args: Mapping[str, Any]) -> str | None:
    function = str(args.get("function"))
    if function not in FUNCTIONS or not re.search(rf"\b{function}\b", text, re.IGNORECASE):
        return f"function={function!r} is checked but the instruction does not name it"
    rivals = [f for f in FUNCTIONS if f != function and re.search(rf"\b{f}\b", text, re.IGNORECASE)]
    return f"the instruction also names {rivals[0]}" if rivals else None


@primitive("xlsx.conditional_summary", grounded=("path", "sheet", "ref", "function", "source"),
           secret=("expected", "formulas"),
           meaning=Meaning(action=r"SUMIF|COUNTIF|AVERAGEIF|summar|total|count|average",
                           args={"function": Prose(_names_function)}))
def conditional_summary(state: State, path: str, sheet: str, ref: str, labels: list[str], function: str,
                        source: str, expected: list[float], formulas: list[str]) -> Result:
    """Each cell of the one-column `ref` (the value cells beside the category `labels`) holds a formula calling
    `function` that shows the matching number of `expected` and computes what the matching item of `formulas`
    computes when the table's numbers or texts change; `source` names the summed or averaged column (the category
    column for a count), for grounding; the labels (in the file the task starts from) are for the evidence."""
    min_col, min_row, max_col, max_row = bounds(ref)
    cells = [f"{get_column_letter(min_col)}{r}" for r in range(min_row, max_row + 1)]
    if min_col != max_col or not (len(cells) == len(labels) == len(expected) == len(formulas)) or not cells:
        raise StateError(f"check misconfigured: {len(cells)} cells, {len(labels)} labels, {len(expected)} values, "
                         f"{len(formulas)} formulas")
    ws = state.sheet(path, sheet)
    lookup = cell_lookup(state.workbook(path), sheet)
    problems: list[str] = []
    example = ""
    for coord, label, want, reference in zip(cells, labels, expected, formulas, strict=True):
        formula: Any = ws[coord].value
        if not (isinstance(formula, str) and formula.startswith("=")):
            problems.append(f"{coord} ({label}) holds {cell_text(formula)!r}, not a formula")
            continue
        try:
            called = function_names(formula)
            value = _formula_result(state, path, sheet, coord)
            differs = disagreement(formula, reference, lookup) or text_disagreement(formula, reference, lookup)
        except FormulaError as exc:
            problems.append(f"{coord} ({label}): {exc}")
            continue
        if function not in called:
            problems.append(f"{coord} ({label}) = {formula!r} does not call {function}")
        elif isinstance(value, str | bool) or not same_value(value, want, 1e-6 * max(1.0, abs(want))):
            problems.append(f"{coord} ({label}) = {formula!r} shows {cell_text(value)!r}, expected {want!r}")
        elif differs:
            problems.append(f"{coord} ({label}) = {formula!r} is not the asked {function}: {differs}")
        elif not example:
            example = f"{coord} = {formula!r} -> {cell_text(value)}"
    if problems:
        more = f" (+{len(problems) - 3} more)" if len(problems) > 3 else ""
        return fail(f"{len(problems)} of {len(cells)} summary cells on {sheet} are wrong: {'; '.join(problems[:3])}"
                    f"{more}")
    return ok(f"all {len(cells)} summary cells on {sheet} are {function} formulas per category, e.g. {example}")
