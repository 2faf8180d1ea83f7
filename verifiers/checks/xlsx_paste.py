"""xlsx primitive for "replace the formulas with their values" tasks (calc.paste_values, Paste Special > Values
only): each asked cell holds a typed number equal to what its formula showed, neither a formula nor text.

That the other columns keep their formulas (the neighbouring computed column, the source of a copy) is the
frame's question: it sees a formula turned into a number where the oracle leaves one.
"""

from __future__ import annotations

from typing import Any

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.checks.xlsx_common import same_value
from verifiers.meaning import ByProperty, Meaning
from verifiers.readers.xlsx import cell_text


@primitive("xlsx.values_pasted", grounded=("path", "sheet", "header"), secret=("expected",),
           meaning=Meaning(action=r"values?(?: only)?|formulas?|paste special|static|fixed numbers|plain numbers",
                           args={"header": ByProperty("cells")}))
def values_pasted(state: State, path: str, sheet: str, header: str, cells: list[str], expected: list[float],
                  tolerance: float = 0.0005) -> Result:
    """Each of `cells` holds the typed number `expected` for it (within `tolerance`): the result the formulas of
    the '{header}' column showed, pasted as a value. A formula left (or written again) fails, and so does a number
    typed as text or rounded to fewer decimals than the formula gave."""
    if len(cells) != len(expected) or not cells:
        return fail(f"check misconfigured: {len(cells)} cells for {len(expected)} expected values")
    ws = state.sheet(path, sheet)
    problems = []
    for coord, want in zip(cells, expected, strict=True):
        value: Any = ws[coord].value
        if isinstance(value, str) and value.startswith("="):
            problems.append(f"{coord} still holds the formula {value[:40]!r}")
        elif value is None or (isinstance(value, str) and not value.strip()):
            problems.append(f"{coord} is empty")
        elif not isinstance(value, int | float) or isinstance(value, bool):
            problems.append(f"{coord} holds the text {cell_text(value)[:40]!r}, not a number")
        elif not same_value(value, want, tolerance):
            problems.append(f"{coord} = {cell_text(value)}, the formula gave {cell_text(want)}")
    where = f"{len(cells)} cells for the '{header}' values on {sheet}"
    if problems:
        return fail(f"{len(problems)} of the {where} do not hold the formula's value as a number: "
                    f"{'; '.join(problems[:4])}")
    return ok(f"all {where} hold the formulas' results as typed numbers ({cells[0]}:{cells[-1]})")
