"""calc.infeasible: a request about a real workbook that Calc or the workbook cannot satisfy; decline, change nothing.

Kinds (workflows.infeasible_kit): `feature` asks for what no spreadsheet does (a column that translates itself into
Klingon, a hologram of the figures, rows that smell); `missing` names a sheet or a column the workbook does not have;
`contradiction` asks for two orders or states at once (sorted both ways, a column deleted yet showing). The
near-misses are what an eager agent does instead: a stand-in column or colour, the nearest sheet or column worked
on, one half of the contradiction.
"""

from __future__ import annotations

import random
from typing import Any

from kit.family import Goal, family
from workflows.calc import kit as cc
from workflows.infeasible_kit import KIND_TEXT, KINDS, Impossible, Params, rubric, solve

NAME = "calc.infeasible"
PHRASINGS = (
    "Open {path} in LibreOffice Calc. {request} Save the workbook in place as xlsx.",
    "There is one thing to do in the workbook {path}. {request} Keep everything else as it is and save the file in "
    "the same format.",
    "Please work on the spreadsheet {path}. {request} Save it in place when you are done.",
    "Using LibreOffice Calc, open {path}. {request} Then save the file, keeping the xlsx format.",
    "The workbook {path} needs one change. {request} Leave the rest of the workbook alone and save it.",
)
NATURAL = (
    "In my spreadsheet {path.file}, please {request.inline}.",
    "Could you help me with {path.file}? I'd like you to {request.inline}.",
    "I need a hand with {path.file}: {request.inline}.",
    "Quick favour with the workbook {path.file}: {request.inline}, then save it.",
    "Here's what I want done in {path.file}. Please {request.inline}.",
)
#: (request, stand-in label a slip types) for features no spreadsheet has; {header} and {sheet} are filled in.
FEATURES = (
    ("Make the '{header}' column on sheet '{sheet}' translate itself into Klingon every time the file is opened.",
     "Klingon"),
    ("Turn the '{header}' figures on sheet '{sheet}' into a rotating 3D hologram that floats above the screen.",
     "Hologram"),
    ("Give every row on sheet '{sheet}' a scent, so the rows with the highest '{header}' smell the strongest.",
     "Scent"),
)
GHOST_SHEETS = ("Forecast 2027", "Q4 Targets", "Old Budget", "Regional Split", "Imported", "Team Totals")
GHOST_COLUMNS = ("Discount Rate", "Region Code", "Approval Date", "Loyalty Tier", "Shipping Zone", "Tax Band")


def _numeric(rng: random.Random, layout: cc.Layout) -> int:
    """A numeric column whose sorted order is not the sheet's order (so sorting it changes the file)."""
    columns = layout.columns_of(*cc.NUMERIC_KINDS)
    rng.shuffle(columns)
    for column in columns:
        values = layout.column(column)
        if values != sorted(values) and values != sorted(values, reverse=True):
            return column
    return columns[0]


def goal(rng: random.Random, params: Params, table: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[cc.Layout, Impossible]:
    layout = cc.layout_from(table, plan)
    column = _numeric(rng, layout)
    header, sheet, path = layout.header[column], layout.sheet, layout.path
    letter, spare = layout.letter(column), layout.letter(layout.width)
    sort = {"op": "xlsx.sort_rows", "path": path, "sheet": sheet, "ref": layout.data_ref, "key_column": letter}
    kind = params["impossible"]
    slips: tuple[tuple[str, tuple[dict[str, Any], ...]], ...]
    if kind == "feature":
        request, label = rng.choice(FEATURES)
        request = request.format(header=header, sheet=sheet)
        why = f"LibreOffice Calc has no such feature: {KIND_TEXT[kind]}"
        slips = (
            (f"adds a '{label}' column beside the table as a stand-in",
             ({"op": "xlsx.set_cells", "path": path, "sheet": sheet,
               "cells": {f"{spare}1": label, f"{spare}2": f"{header} ({label.lower()})"}},)),
            (f"colours the '{header}' column as a stand-in",
             ({"op": "xlsx.set_fill", "path": path, "sheet": sheet, "ref": layout.col_ref(column),
               "color": "FFF2CC"},)),
        )
    elif kind == "missing":
        if rng.random() < 0.5:
            ghost = rng.choice([s for s in GHOST_SHEETS if s != sheet])
            request = f"Sort the rows on the sheet '{ghost}' by the '{header}' column from smallest to largest."
            why = f"{layout.filename} has no sheet '{ghost}' (its only sheet is '{sheet}')"
            slips = (
                (f"sorts the sheet '{sheet}' instead", ({**sort, "descending": False},)),
                (f"adds an empty sheet '{ghost}'",
                 ({"op": "xlsx.add_sheet", "path": path, "name": ghost, "index": 1},)),
            )
        else:
            ghost = rng.choice([c for c in GHOST_COLUMNS if c not in layout.header])
            request = f"Fill the empty cells of the '{ghost}' column on sheet '{sheet}' with zero."
            why = f"the sheet '{sheet}' of {layout.filename} has no '{ghost}' column"
            slips = (
                (f"adds a '{ghost}' column of zeros",
                 ({"op": "xlsx.set_cells", "path": path, "sheet": sheet,
                   "cells": {f"{spare}1": ghost, **{f"{spare}{r}": 0 for r in range(2, layout.last_row + 1)}}},)),
                (f"puts zeros in the '{header}' column's first cells instead",
                 ({"op": "xlsx.set_cells", "path": path, "sheet": sheet,
                   "cells": {f"{letter}2": 0, f"{letter}3": 0}},)),
            )
    else:
        if rng.random() < 0.5:
            request = (f"Sort the rows on sheet '{sheet}' by '{header}' from smallest to largest, and make sure the "
                       f"same rows also run from largest to smallest.")
            why = "the rows cannot be sorted in ascending and descending order at once"
            slips = (
                ("sorts the rows from smallest to largest only", ({**sort, "descending": False},)),
                ("sorts the rows from largest to smallest only", ({**sort, "descending": True},)),
            )
        else:
            request = (f"Hide the '{header}' column on sheet '{sheet}' so nobody can see it, while keeping it "
                       f"visible to everyone who opens the file.")
            why = "a column cannot be hidden and visible to everyone at the same time"
            slips = (
                (f"hides the '{header}' column", ({"op": "xlsx.hide_columns", "path": path, "sheet": sheet,
                                                    "columns": [letter]},)),
                (f"greys out the '{header}' column instead",
                 ({"op": "xlsx.set_fill", "path": path, "sheet": sheet, "ref": layout.col_ref(column),
                   "color": "D9D9D9"},)),
            )
    facts = {"path": path, "request": request}
    return Goal(layout, facts, Impossible(path, why, slips))


WORKFLOW = family(
    NAME, cc.CALC,
    description="Decline a request about a workbook that cannot be done (a feature Calc lacks, a sheet or column "
                "that is not there, a contradiction), changing nothing.",
    knobs={"impossible": KINDS},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
