"""xlsx primitive for cleaning a text column in place (calc.clean_text): stray spaces trimmed, names put in proper
case, or codes in capitals, the cleaned text typed over the old one (Find & Replace, Format > Text, or a helper
column pasted back as values).

Text compares exactly (case and spaces are the whole point); what else may change is the frame's question, which
also refuses a helper column left behind.
"""

from __future__ import annotations

from typing import Any

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.checks.xlsx_text import OPERATION_WORDS, _says_operation
from verifiers.meaning import Meaning, Prose
from verifiers.readers.xlsx import cell_text


@primitive("xlsx.text_cleaned", grounded=("path", "sheet", "header", "operation"), secret=("expected",),
           meaning=Meaning(action=r"clean|tidy|fix|correct|" + "|".join(OPERATION_WORDS.values()),
                           args={"operation": Prose(_says_operation)}))
def text_cleaned(state: State, path: str, sheet: str, header: str, operation: str, cells: list[str],
                 expected: list[str]) -> Result:
    """Each of `cells` (the data cells of the '{header}' column) holds exactly the text `expected` for it: the old
    text cleaned by `operation` (trim, proper, upper), typed in place. A formula left in a cell fails: the text is
    to be replaced, not computed from itself."""
    if len(cells) != len(expected) or not cells:
        return fail(f"check misconfigured: {len(cells)} cells for {len(expected)} expected texts")
    ws = state.sheet(path, sheet)
    problems = []
    for coord, want in zip(cells, expected, strict=True):
        got: Any = ws[coord].value
        if isinstance(got, str) and got.startswith("="):
            problems.append(f"{coord} holds the formula {got[:40]!r}, not the cleaned text")
        elif not isinstance(got, str) or got != want:
            problems.append(f"{coord} = {cell_text(got)!r}, expected {want!r}")
    where = f"the {len(cells)} data cells of '{header}' on {sheet}"
    if problems:
        return fail(f"{len(problems)} of {where} are not cleaned ({operation}): {'; '.join(problems[:4])}")
    return ok(f"all {where} hold their {operation} text ({cells[0]}: {expected[0]!r})")
