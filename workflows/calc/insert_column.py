"""calc.insert_column: insert a column into a table right before or after a named column (Sheet > Insert Columns),
with a header and its data cells left empty, filled with one text, or computed as a percentage of another column;
the columns from there on move one to the right."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from verifiers import extract
from verifiers.readers.xlsx import cell_text
from workflows.calc import kit as cc

NAME = "calc.insert_column"
BLANK_HEADERS = ("Notes", "Comments", "Follow Up", "Remarks", "Checked By")
TEXTS = (("Status", "Pending"), ("Currency", "USD"), ("Reviewed", "No"), ("Source", "Import"),
         ("Owner", "Unassigned"))
PERCENT_HEADERS = ("Tax", "Fee", "Deposit", "Reserve", "Discount")
PERCENTS = (5, 8, 10, 15, 20, 25)
PHRASINGS = (
    "Open {path} and, on the sheet '{sheet}', insert a new column {place}, so that the columns from there on move "
    "one to the right. Give it the header '{header}' in row 1 and {fill}. Save the file in place as xlsx.",
    "In the workbook {path}, sheet '{sheet}', add a column headed '{header}' {place}; nothing may be overwritten, "
    "the existing columns shift over. {Fill}. Save it in the same format.",
    "Please make room for a '{header}' column on sheet '{sheet}' of {path}: insert it {place} and {fill}. "
    "Keep every other column whole. Save the workbook as xlsx.",
    "The table on sheet '{sheet}' of {path} needs a new '{header}' column {place} (the columns right of it "
    "move over by one). {Fill}. Save the spreadsheet in place.",
    "Using LibreOffice Calc, open {path}, go to sheet '{sheet}' and insert a column {place} (Sheet > Insert "
    "Columns). Type '{header}' as its header and {fill}. Save the file (keep the xlsx format).",
)
NATURAL = (
    "Insert a '{header}' column {place} in {path.file} and {fill}.",
    "Could you add a new column '{header}' {place} in the table of {path.file}? {Fill}.",
    "I need a '{header}' column in {path.file}, inserted {place}, without overwriting anything; {fill}.",
    "Help me insert a column {place} in {path.file}, headed '{header}'; {fill}.",
    "Please put a new '{header}' column {place} on the '{sheet}' sheet of {path.file} and {fill}.",
)


class Params(TypedDict):
    fill: Literal["blank", "text", "percent"]
    side: Literal["before", "after"]


@dataclass(frozen=True)
class Target:
    anchor: int  # the named column (0-based, before the insertion)
    at: int  # the new column's index (0-based, after the insertion)
    header: str
    text: str | None  # the text of every data row (fill=text)
    source: int | None  # the column a percentage is taken of (fill=percent; 0-based, before the insertion)
    percent: int | None
    place: str  # where, in words
    expected: tuple[tuple[Any, ...], ...]  # the table from A1 once inserted (numbers, else cell texts; None: empty)


def _json(value: Any) -> Any:
    return value if isinstance(value, int | float) and not isinstance(value, bool) else cell_text(value)


def _sources(layout: cc.Layout) -> list[int]:
    """The numeric columns a percentage can be taken of: those whose header says no aggregate of its own ('First
    Reply Min', 'Invoice Count'), since the formula check wants the instruction to ask for ROUND and nothing else;
    every numeric column when none is left (a model's table)."""
    numeric = layout.columns_of(*cc.NUMERIC_KINDS)
    return [c for c in numeric if not extract.expressed(layout.header[c], "aggregate")] or numeric


content = cc.redrawn_content(lambda layout, params: params["fill"] != "percent" or any(
    not extract.expressed(layout.header[c], "aggregate") for c in layout.columns_of(*cc.NUMERIC_KINDS)))


def goal(rng: random.Random, params: Params, table: dict[str, Any], plan: dict[str, Any]) -> Goal[cc.Layout, Target]:
    layout = cc.layout_from(table, plan)
    width, fill = layout.width, params["fill"]
    # never at the end of the table: inserting there is the near-miss of a column added after the table
    anchor = rng.randrange(1, width) if params["side"] == "before" else rng.randrange(0, width - 1)
    at = anchor if params["side"] == "before" else anchor + 1
    place = f"{params['side']} the '{layout.header[anchor]}' column"
    text = source = percent = None
    if fill == "blank":
        header = rng.choice(BLANK_HEADERS)
        words = "leave its data cells empty"
        column: list[Any] = [None] * len(layout.rows)
    elif fill == "text":
        header, text = rng.choice(TEXTS)
        words = f"fill every data row of it with the text '{text}'"
        column = [text] * len(layout.rows)
    else:
        header, source, percent = rng.choice(PERCENT_HEADERS), rng.choice(_sources(layout)), rng.choice(PERCENTS)
        letter = layout.letter(at)
        words = (f"fill each data row of it with a formula giving {percent}% of that row's "
                 f"'{layout.header[source]}' value, rounded to 2 decimals (once inserted it is column {letter}: "
                 f"header in {letter}1, formulas in {letter}2:{letter}{layout.last_row})")
        column = [round(float(row[source]) * percent / 100 + 1e-9, 2) for row in layout.rows]
    table_rows = [[*layout.header[:at], header, *layout.header[at:]],
                  *[[*row[:at], value, *row[at:]] for row, value in zip(layout.rows, column, strict=True)]]
    expected = tuple(tuple(None if v is None else _json(v) for v in row) for row in table_rows)
    facts = {"path": layout.path, "sheet": layout.sheet, "header": header, "place": place, "fill": words,
             "Fill": words[0].upper() + words[1:]}
    return Goal(layout, facts, Target(anchor, at, header, text, source, percent, place, expected))


def rubric(params: Params, layout: cc.Layout, target: Target) -> list[Check]:
    inserted = Check(
        id="inserted",
        criterion=f"On sheet '{layout.sheet}' of {layout.path}, a column '{target.header}' is inserted "
                  f"{target.place} (column {layout.letter(target.at)}), its data cells "
                  f"{'empty' if params['fill'] == 'blank' else 'filled as asked'}, and the columns from there on "
                  f"moved one to the right, each with its own values.",
        primitive="xlsx.column_inserted",
        args={"path": layout.path, "sheet": layout.sheet, "header": target.header, "place": target.place,
              "column": target.at + 1, "expected": [list(row) for row in target.expected]},
    )
    if target.source is None:
        return [inserted]
    letter = layout.letter(target.at)
    moved = layout.letter(target.source + (1 if target.source >= target.at else 0))
    formulas = [f"=ROUND({moved}{r}*{target.percent}/100,2)" for r in range(2, layout.last_row + 1)]
    computed = Check(
        id="formulas",
        criterion=f"Every data cell of the new '{target.header}' column ({letter}2:{letter}{layout.last_row}) is a "
                  f"formula over its own row giving {target.percent}% of its '{layout.header[target.source]}' "
                  f"value, rounded to 2 decimals.",
        primitive="xlsx.formula_column",
        args={"path": layout.path, "sheet": layout.sheet, "header_cell": f"{letter}1", "header": target.header,
              "ref": f"{letter}2:{letter}{layout.last_row}",
              "expected": [float(row[target.at]) for row in target.expected[1:]], "tolerance": 0.006,
              "formulas": formulas},
    )
    return [inserted, computed]


def solve(params: Params, layout: cc.Layout, target: Target) -> Attempts:
    base: dict[str, Any] = {"op": "xlsx.insert_column", "path": layout.path, "sheet": layout.sheet,
                            "at": layout.letter(target.at), "header": target.header}
    if target.text is not None:
        base["text"] = target.text
    if target.source is not None:
        base |= {"source": layout.letter(target.source), "percent": target.percent}
    other = target.at + 1 if params["side"] == "before" else target.at - 1
    misses = [Attempt("inserts the column on the other side of the named column",
                      [{**base, "at": layout.letter(other)}]),
              Attempt("types the new column over the column at that place instead of inserting it",
                      [{**base, "overwrite": True}]),
              Attempt("adds the column at the end of the table instead",
                      [{**base, "at": layout.letter(layout.width)}]),
              Attempt("leaves the header cell empty", [{**base, "header": None}])]
    if params["fill"] != "blank":
        misses.append(Attempt("leaves the last data row of the new column empty", [{**base, "skip_last": True}]))
    if target.source is not None:
        others = [c for c in layout.columns_of(*cc.NUMERIC_KINDS) if c != target.source]
        if others:
            misses.append(Attempt("takes the percentage of another column", [{**base,
                                                                              "source": layout.letter(others[0])}]))
    return Attempts(Attempt("insert the column at the stated place and fill it as asked", [base]), misses)


WORKFLOW = family(
    NAME, cc.CALC,
    description="Insert a column right before or after a named column of a table, with a header and its cells "
                "empty, one text, or a percentage of another column; the columns after it move right.",
    knobs={"fill": ("blank", "text", "percent"), "side": ("before", "after")},
    source=(cc.sample, content),
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
