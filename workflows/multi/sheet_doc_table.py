"""multi.sheet_doc_table: copy a Calc table (all or stated columns, all rows or one category, in sheet order or
sorted) into a Writer report as a table right after a stated paragraph (Calc -> Writer).

The rows are never stated: the check reads them from the workbook's content and accepts them as a paste
from Calc carries them ("1,234.50" for 1234.5), in the asked order.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, Literal, TypedDict

from kit.axes import LOCATION, LOOKALIKES
from kit.family import Attempt, Attempts, Goal, family
from kit.grammar import count
from kit.model import HOME, Check
from workflows.calc import kit as cc
from workflows.multi import kit as mc

NAME = "multi.sheet_doc_table"
LEADS = ("The table below lists the entries taken from the workbook.", "The current figures are shown below.",
         "Details of each entry follow in the table below.", "The following table gives the figures used here.")
#: Difficulty axes (issue 15), honoured by the Calc kit's sample node: the workbook's rows (`records`, since the
#: knob `rows` picks which rows are copied), how deep it sits, and older copies of it beside it.
AXES = {"records": mc.ROWS, "location": LOCATION, "lookalikes": LOOKALIKES}
PHRASINGS = (
    "Copy the table on sheet '{sheet}' of {workbook} into the Writer document {doc}, as a table placed right "
    "after the paragraph \"{lead}\".{columns}{rows}{order} Keep a header row and save the document in place as "
    "docx.",
    "In {doc}, add a table directly below the paragraph \"{lead}\" holding the data of sheet '{sheet}' in "
    "{workbook}.{columns}{rows}{order} The first row of the table must be the header. Save {doc} as docx.",
    "Please bring the spreadsheet data into the report: open {workbook} (sheet '{sheet}') in Calc and {doc} in "
    "Writer, and insert a table right after \"{lead}\".{columns}{rows}{order} Start the table with the column "
    "headers, then save the report in the same file and format.",
    "The report {doc} needs the figures from {workbook}. Put them in a Writer table immediately after the "
    "paragraph \"{lead}\", taking them from sheet '{sheet}'.{columns}{rows}{order} Include a header row and save "
    "the document as docx.",
    "Using LibreOffice, take the rows of sheet '{sheet}' in {workbook} and insert them as a table in {doc}, just "
    "after the paragraph \"{lead}\".{columns}{rows}{order} Keep the headers as the first table row and save the "
    "document in place.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Please copy the data from {workbook.file} into {doc} as a table with a header row, right after "
    "\"{lead}\".{columns}{rows}{order}",
    "The report {doc} needs the figures from {workbook.file}: a table with headers after "
    "\"{lead}\".{columns}{rows}{order}",
    "Could you put the '{sheet}' sheet of {workbook.file} into {doc} as a table with headers, right after "
    "\"{lead}\"?{columns}{rows}{order}",
    "In {doc}, add a table right after \"{lead}\" with the data from {workbook.file}, headers first."
    "{columns}{rows}{order}",
    "I'd like the rows of {workbook.file} as a table with a header row in {doc}, placed after "
    "\"{lead}\".{columns}{rows}{order}",
)


class Params(TypedDict):
    columns: Literal["all", "subset"]
    rows: Literal["all", "category"]
    order: Literal["sheet", "asc", "desc"]


@dataclass(frozen=True)
class Selection:
    """What is copied: which columns (indexes, in table order), which rows (a category value, or None for all),
    and the column a sort goes by."""

    columns: list[int]
    cat: int  # the category column
    category: str | None
    sort: int


@dataclass(frozen=True)
class Target:
    doc: str  # the report the table goes into
    lead: str  # the paragraph the table follows
    header: list[str]  # the copied columns' names
    layout: cc.Layout  # the sheet
    selection: Selection


def _plan(rng: Any, params: Params, layout: cc.Layout) -> Selection:
    numeric = layout.columns_of(*cc.NUMERIC_KINDS)
    sort_col = rng.choice(numeric)
    if params["columns"] == "all":
        columns = list(range(layout.width))
    else:
        others = [i for i in range(1, layout.width) if i != sort_col]
        columns = [0, *rng.sample([sort_col, *rng.sample(others, 1)], 2)]
    cat = layout.columns_of("category")[0]
    values = layout.column(cat)
    repeated = sorted({v for v in values if values.count(v) >= 2 and values.count(v) < len(values) - 1})
    for _ in range(20):  # a sort must visibly reorder the chosen rows
        category = rng.choice(repeated) if params["rows"] == "category" else None
        p = Selection(columns, cat, category, sort_col)
        if params["order"] == "sheet" or _rows(layout, p, "sheet") != _rows(layout, p, params["order"]):
            break
    return p


def _rows(layout: cc.Layout, p: Selection, order: str) -> list[list[Any]]:
    rows = [list(r) for r in layout.rows if p.category is None or r[p.cat] == p.category]
    if order != "sheet":
        rows = mc.sort_rows(rows, p.sort, order == "desc")
    return rows


def _grid(layout: cc.Layout, rows: list[list[Any]], columns: list[int], *, header: bool = True) -> list[list[str]]:
    """The table as a paste from Calc types it: displayed texts."""
    head = [[layout.header[c] for c in columns]] if header else []
    return head + [[mc.shown(r[c], layout.kinds[c]) for c in columns] for r in rows]


def goal(rng: random.Random, params: Params, content: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[mc.Setup, Target]:
    layout = cc.layout_from(content["table"], plan["table"])
    p = _plan(rng, params, layout)
    lead = rng.choice(LEADS)
    first, last = mc.person(rng)
    doc_path = f"{HOME}/{rng.choice(mc.REPORT_FOLDERS)}/{content['table']['file_stem']}_report.docx"
    doc = mc.report(rng, doc_path, layout.title, layout.filename, f"{first} {last}", [lead])
    names = [layout.header[c] for c in p.columns]
    columns = (" Include every column of the sheet." if params["columns"] == "all"
               else f" Include only the columns {mc.quoted(names)}, in that order.")
    rows = "" if p.category is None else (f" Only include the rows whose {layout.header[p.cat]} is "
                                         f"'{p.category}'.")
    order = {"sheet": " Keep the rows in the same order as on the sheet.",
             "asc": f" Sort the rows by {layout.header[p.sort]}, smallest first.",
             "desc": f" Sort the rows by {layout.header[p.sort]}, largest first."}[params["order"]]
    facts = {"sheet": layout.sheet, "workbook": layout.path, "doc": doc_path, "lead": lead, "columns": columns,
             "rows": rows, "order": order}
    return Goal(mc.Setup((("calc", layout), ("writer", doc))), facts, Target(doc_path, lead, names, layout, p))


def rubric(params: Params, target: Target) -> list[Check]:
    t, layout = target, target.layout
    rows = _rows(layout, t.selection, params["order"])
    expected = [[mc.cell_value(r[c]) for c in t.selection.columns] for r in rows]
    return [Check("table", f"{t.doc} has, right after \"{t.lead}\", a table with the header "
                           f"{t.header} and the {count(len(rows), 'asked row')} of {layout.filename}.",
                  "multi.docx_table", {"path": t.doc, "after": t.lead, "header": t.header, "rows": expected})]


def solve(params: Params, target: Target) -> Attempts:
    t, layout, sel = target, target.layout, target.selection
    order = params["order"]

    def insert(grid: list[list[str]], after: str | None = t.lead) -> list[dict[str, Any]]:
        return [mc.op("docx.insert_table", t.doc, rows=grid, after=after, bold_header=True)]

    right = _rows(layout, sel, order)
    misses = [Attempt("pastes the table at the end of the document instead",
                      insert(_grid(layout, right, sel.columns), after=None))]
    if params["columns"] == "subset":
        misses.append(Attempt("copies every column of the sheet, not only the asked ones",
                              insert(_grid(layout, right, list(range(layout.width))))))
    else:
        misses.append(Attempt("leaves out the header row", insert(_grid(layout, right, sel.columns, header=False))))
    if params["rows"] == "category":
        misses.append(Attempt("copies the rows of every category",
                              insert(_grid(layout, _rows(layout, replace(sel, category=None), order), sel.columns))))
    else:
        misses.append(Attempt("the copied selection stops one row short",
                              insert(_grid(layout, right[:-1], sel.columns))))
    if order != "sheet":
        misses.append(Attempt("keeps the sheet's order instead of sorting",
                              insert(_grid(layout, _rows(layout, sel, "sheet"), sel.columns))))
    return Attempts(Attempt("insert the asked rows and columns as a table after the stated paragraph",
                            insert(_grid(layout, right, sel.columns))), misses)


WORKFLOW = family(
    NAME, mc.app_kit((mc.CALC, mc.WRITER), table=mc.passing(*AXES, renamed={"records": "rows"})),
    description="Copy a Calc table (all or stated columns, all rows or one category, optionally sorted) into a "
                "Writer report as a table after a stated paragraph.",
    knobs={"columns": ("all", "subset"), "rows": ("all", "category"), "order": ("sheet", "asc", "desc")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve, axes=AXES,
)
