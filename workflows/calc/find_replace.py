"""calc.find_replace: replace a category value (whole cells) in one column, or everywhere on the sheet.

The sheet also holds a small code list next to the table (category -> code), so the old value occurs both in
the table's category column and outside it: a column-scoped replace must leave the list alone, a sheet-wide
one must change it too.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from verifiers.readers.xlsx import cell_text
from workflows.calc import kit as cc

NAME = "calc.find_replace"
RENAMES = ("{v} Group", "{v} Division", "Global {v}", "{v} Services", "{v} Unit", "Core {v}")
PHRASINGS = (
    "Open {path} and, on the sheet '{sheet}', replace every cell whose entire content is '{old}' with "
    "'{new}' {scope}. Save the file in place as xlsx.",
    "In the workbook {path} (sheet '{sheet}'), the value '{old}' has been renamed to '{new}'. Update every cell "
    "that contains exactly '{old}' {scope}. Keep the xlsx format when saving.",
    "Please change all occurrences of '{old}' to '{new}' on sheet '{sheet}' of {path} {scope}. Only whole-cell "
    "matches count: a cell must read '{old}' and nothing else. Then save the spreadsheet in place.",
    "Using LibreOffice Calc, open {path}, go to sheet '{sheet}' and use Find & Replace (entire cells) to turn "
    "'{old}' into '{new}' {scope}. Type the new text exactly as given. Save the workbook as xlsx.",
    "On the '{sheet}' sheet of {path}, rename '{old}' to '{new}' in every cell that holds exactly '{old}', "
    "{scope}. Don't touch any other cell. Save the file, keeping the xlsx format.",
)
NATURAL = (
    "In {path.file}, change every '{old}' entry to '{new}', {scope.bare}.",
    "Help me rename '{old}' to '{new}' on the '{sheet}' sheet of {path.file}, {scope.bare}.",
    "The label '{old}' in {path.file} should now read '{new}'. Please replace it {scope.bare}.",
    "Could you replace the cells that say '{old}' with '{new}' in my spreadsheet {path.file}, "
    "{scope.bare}?",
    "Please update {path.file}: change every cell containing exactly '{old}' to '{new}', {scope.bare}.",
)


def _legend(layout: cc.Layout, cat: int) -> tuple[cc.Layout, str]:
    """The layout with a code list (category, numeric code) two columns right of the table, and its range."""
    values = list(dict.fromkeys(layout.column(cat)))
    gap = layout.width
    legend: list[list[Any]] = [[v, 101 + i] for i, v in enumerate(values)]
    table = layout.rows + [[None] * gap] * max(0, len(legend) - len(layout.rows))
    rows = [[*row, None, *(legend[i] if i < len(legend) else [None, None])] for i, row in enumerate(table)]
    header: list[Any] = [*layout.header, None, layout.header[cat], "Code"]  # one blank gap column
    extended = replace(layout, header=header, kinds=[*layout.kinds, "blank", "legend", "legend"], rows=rows)
    first, last = extended.letter(gap + 1), extended.letter(gap + 2)
    return extended, f"{first}1:{last}{len(legend) + 1}"


def _texts(layout: cc.Layout) -> dict[str, str]:
    """Every filled cell of the sheet: coordinate -> text."""
    cells = {}
    for r, row in enumerate([layout.header, *layout.rows], start=1):
        for c, value in enumerate(row):
            if value is not None:
                cells[f"{layout.letter(c)}{r}"] = cell_text(value)
    return cells


class Params(TypedDict):
    scope: Literal["column", "sheet"]


@dataclass(frozen=True)
class Target:
    scope: str  # "column" or "sheet"
    old: str  # the category value to replace (whole cells)
    new: str  # its replacement
    col_ref: str  # the table's category column (the scope of a column replace)


def goal(rng: random.Random, params: Params, table: dict[str, Any], plan: dict[str, Any]) -> Goal[cc.Layout, Target]:
    scope = params["scope"]
    sheet = cc.layout_from(table, plan)
    cat = sheet.columns_of("category")[0]
    layout, legend_ref = _legend(sheet, cat)
    texts = list(_texts(layout).values())
    distinct = list(dict.fromkeys(sheet.column(cat)))
    # Only values that are not part of any other cell's text, so substring and whole-cell matching agree.
    clean = [v for v in distinct if not any(v.casefold() in t.casefold() for t in texts if t != v)]
    old = rng.choice(clean or distinct)
    taken = {t.casefold() for t in texts}
    new = rng.choice([n for n in (r.format(v=old) for r in RENAMES) if n.casefold() not in taken])
    col_ref = sheet.col_ref(cat)
    header = sheet.header[cat]
    scope_text = {
        "column": f"only within the '{header}' column of the table ({col_ref}); leave the '{header}' code list in "
                  f"{legend_ref} and every other cell as it is",
        "sheet": "everywhere on the sheet, in the table and in any other cell outside it",
    }[scope]
    facts = {"path": layout.path, "sheet": layout.sheet, "old": old, "new": new, "scope": scope_text}
    return Goal(layout, facts, Target(scope, old, new, col_ref))


def rubric(layout: cc.Layout, target: Target) -> list[Check]:
    t = target
    scope = t.col_ref if t.scope == "column" else "sheet"
    where = f"in {t.col_ref}" if t.scope == "column" else "anywhere on the sheet"
    check = Check(
        id="replaced",
        criterion=f"On sheet '{layout.sheet}' of {layout.path}, every cell {where} that held '{t.old}' now holds "
                  f"'{t.new}', none holds '{t.old}', and all other cells are unchanged.",
        primitive="xlsx.values_replaced",
        args={"path": layout.path, "sheet": layout.sheet, "old": t.old, "new": t.new, "scope": scope,
              "cells": _texts(layout)},
    )
    return [check]


def solve(layout: cc.Layout, target: Target) -> Attempts:
    t = target
    base = {"op": "xlsx.replace_values", "path": layout.path, "sheet": layout.sheet, "old": t.old}
    column = t.scope == "column"
    ref = {"ref": t.col_ref} if column else {}
    variant = t.new.lower() if t.new.lower() != t.new else t.new.upper()
    if column:
        wrong_scope = Attempt("replaces on the whole sheet, changing the code list too",
                              [{**base, "new": t.new, "ref": None}])
    else:
        wrong_scope = Attempt("replaces only in the table column, missing the code list",
                              [{**base, "new": t.new, "ref": t.col_ref}])
    return Attempts(
        Attempt("whole-cell replace within the asked scope", [{**base, "new": t.new, **ref}]),
        [Attempt("replaces only the first occurrence", [{**base, "new": t.new, **ref, "first_only": True}]),
         Attempt(f"types the new value with different case ({variant!r})", [{**base, "new": variant, **ref}]),
         wrong_scope],
    )


WORKFLOW = family(
    NAME, cc.CALC,
    description="Replace a category value by a new one (whole cells) within one column or on the whole sheet.",
    knobs={"scope": ("column", "sheet")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
