"""calc.transpose_range: copy a table turned on its side (Paste Special > Transpose) to a stated place: below the
table on its own sheet, or onto a new sheet."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from verifiers.readers.xlsx import cell_text
from workflows.calc import kit as cc

NAME = "calc.transpose_range"
#: Names a person gives the sheet that holds a transposed copy.
NEW_SHEETS = ("Transposed", "By Field", "Rotated", "Side View", "Fields Across", "Wide View")
PHRASINGS = (
    "Open {path} and, on the sheet '{sheet}', copy the whole table {ref} (header row included) and paste it "
    "transposed, so that its rows become columns, {where}. Keep the original table where it is and save the file "
    "in place as xlsx.",
    "In the workbook {path}, sheet '{sheet}', make a transposed copy of the range {ref}: the header row should "
    "become the first column and each record a column of its own. Put it {where}. Leave the original range as it "
    "is and save it in the same format.",
    "Please transpose the table {ref} of sheet '{sheet}' in {path} (rows become columns, columns become rows) "
    "and paste the result {where}. Copy, don't move: the original stays. Save the workbook as xlsx.",
    "The table on sheet '{sheet}' of {path} ({ref}) reads better turned on its side. Paste a transposed copy "
    "of it {where}, keep the source table unchanged, and save the spreadsheet in place.",
    "Using LibreOffice Calc, open {path}, copy {ref} on sheet '{sheet}' and use Paste Special with Transpose to "
    "paste it {where}. The original cells stay as they are. Save the file (keep the xlsx format).",
)
NATURAL = (
    "Could you transpose the table in {path.file} so its rows become columns? Put the copy {where}.",
    "I'd like a transposed copy of the '{sheet}' table in {path.file}, {where}, with the original left as is.",
    "Help me flip the table in {path.file} on its side (rows into columns) and paste it {where}.",
    "Please paste the table of {path.file} transposed {where}; keep the original table too.",
    "In my spreadsheet {path.file}, make a copy of the table with rows and columns swapped, {where}.",
)


class Params(TypedDict):
    dest: Literal["below", "new_sheet"]


@dataclass(frozen=True)
class Target:
    dest_sheet: str  # where the transposed block goes (the table's own sheet, or the new sheet)
    anchor: str  # its top-left cell
    expected: tuple[tuple[Any, ...], ...]  # the block: numbers, else cell texts (row i = the table's column i)


def _json(value: Any) -> Any:
    """A cell value as the check compares it: numbers as numbers (a number pasted as text fails), else its text."""
    return value if isinstance(value, int | float) and not isinstance(value, bool) else cell_text(value)


def _transposed(layout: cc.Layout) -> tuple[tuple[Any, ...], ...]:
    table = [list(layout.header), *layout.rows]
    return tuple(tuple(_json(row[c]) for row in table) for c in range(layout.width))


def goal(rng: random.Random, params: Params, table: dict[str, Any], plan: dict[str, Any]) -> Goal[cc.Layout, Target]:
    layout = cc.layout_from(table, plan)
    if params["dest"] == "below":
        dest_sheet, anchor = layout.sheet, f"A{layout.last_row + 3}"
        where = f"below the table on the same sheet, with its top-left cell at {anchor}"
    else:
        dest_sheet = rng.choice([n for n in NEW_SHEETS if n != layout.sheet])
        anchor = "A1"
        where = f"on a new sheet named '{dest_sheet}' (added after '{layout.sheet}'), starting at cell {anchor}"
    facts = {"path": layout.path, "sheet": layout.sheet, "ref": layout.table_ref, "where": where}
    return Goal(layout, facts, Target(dest_sheet, anchor, _transposed(layout)))


def rubric(params: Params, layout: cc.Layout, target: Target) -> list[Check]:
    transposed = Check(
        id="transposed",
        criterion=f"In {layout.path}, the block starting at {target.dest_sheet}!{target.anchor} holds "
                  f"{layout.sheet}!{layout.table_ref} transposed: its header as the first column and each data "
                  f"row as a column.",
        primitive="xlsx.range_transposed",
        args={"path": layout.path, "sheet": target.dest_sheet, "anchor": target.anchor,
              "source_sheet": layout.sheet, "source_ref": layout.table_ref,
              "expected": [list(row) for row in target.expected]},
    )
    if params["dest"] == "below":
        return [transposed]
    # the frame counts the sheets; their names and order are a goal check's question
    sheets = Check(
        id="sheets",
        criterion=f"{layout.path} has the sheets '{layout.sheet}' and '{target.dest_sheet}', in that order.",
        primitive="xlsx.sheet_names",
        args={"path": layout.path, "expected": [layout.sheet, target.dest_sheet]},
    )
    return [transposed, sheets]


def _lower(anchor: str) -> str:
    letters = anchor.rstrip("0123456789")
    return f"{letters}{int(anchor[len(letters):]) + 1}"


def solve(params: Params, layout: cc.Layout, target: Target) -> Attempts:
    base = {"op": "xlsx.transpose_range", "path": layout.path, "sheet": layout.sheet, "ref": layout.table_ref,
            "dest_sheet": target.dest_sheet, "anchor": target.anchor}
    return Attempts(
        Attempt("copy the table and paste it transposed at the stated cell", [base]),
        [Attempt("pastes the table as it is, not transposed", [{**base, "plain": True}]),
         Attempt("transposes the data rows but leaves out the header row", [{**base, "ref": layout.data_ref}]),
         Attempt("pastes the transposed table one row below the stated cell",
                 [{**base, "anchor": _lower(target.anchor)}]),
         Attempt("cuts the table instead of copying it, emptying the original range", [{**base, "cut": True}])],
    )


WORKFLOW = family(
    NAME, cc.CALC,
    description="Paste a transposed copy of a table (rows become columns) below it or onto a new sheet, keeping "
                "the original.",
    knobs={"dest": ("below", "new_sheet")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
