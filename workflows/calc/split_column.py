"""calc.split_column: split a text column into two (Data > Text to Columns, or LEFT / MID formulas): full names at
the space, 'Last, First' names at the comma, or codes like 'VAN-4821' at the hyphen (the number part a number),
either into two new columns right of the table or in place of the column."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers.ops.xlsx_split import split_text
from verifiers.readers.xlsx import cell_text
from workflows.calc import kit as cc
from workflows.calc.content import FIRST_NAMES, LAST_NAMES

NAME = "calc.split_column"
#: separator -> (the character, the word the instruction says, the two parts' headers, how the texts read)
SEPARATORS = {
    "space": (" ", "space", ("First Name", "Last Name"), "full names such as 'Maria Lopez'"),
    "comma": (",", "comma", ("Last Name", "First Name"), "names written last name first, such as 'Lopez, Maria'"),
    "hyphen": ("-", "hyphen", ("Prefix", "Number"), "codes such as 'VAN-4821'"),
}
#: separator -> what the instruction adds about the parts (the slip each one guards against)
NOTES = {"space": "", "comma": " (no leading space on the first names)",
         "hyphen": " (the number part as a number, not as text)"}
PHRASINGS = (
    "Open {path} and, on the sheet '{sheet}', split the '{header}' column, which holds {texts}, at the {sep}: "
    "{where}. Save the file in place as xlsx.",
    "In the workbook {path}, sheet '{sheet}', the '{header}' column holds {texts}. Separate each one at the {sep} "
    "into two parts, '{first}' and '{second}'{note}, {where}. Save it in the same format.",
    "Please break the '{header}' values on sheet '{sheet}' of {path} apart at the {sep}; they are {texts}. "
    "{Where}. Keep every row together and save the workbook as xlsx.",
    "The '{header}' column on sheet '{sheet}' of {path} mixes two things ({texts}). Split it at the {sep} into "
    "'{first}' and '{second}'{note}: {where}. Save the spreadsheet in place.",
    "Using LibreOffice Calc (Data > Text to Columns, or formulas), open {path}, go to sheet '{sheet}' and split "
    "the '{header}' column at the {sep}{note}: {where}. Save the file (keep the xlsx format).",
)
NATURAL = (
    "Split the '{header}' column of {path.file} at the {sep}{note}: {where}.",
    "Could you separate the '{header}' entries in {path.file} at the {sep}{note}? {Where}.",
    "My '{header}' column in {path.file} holds {texts}; split it at the {sep}: {where}.",
    "Help me break up the '{header}' column of {path.file} at the {sep}; {where}.",
    "I want the '{header}' values of {path.file} split at the {sep}{note}. {Where}.",
)
PERSON = re.compile(r"^[A-Z][a-z]+ [A-Z][a-z]+$")
CODE = re.compile(r"^[A-Z]+-[1-9]\d*$")


class Params(TypedDict):
    separator: Literal["space", "comma", "hyphen"]
    place: Literal["new_columns", "in_place"]


@dataclass(frozen=True)
class Target:
    column: int  # the split column
    parts: tuple[str, str]  # the two headers
    columns: tuple[int, int]  # where the parts go (1-based)
    expected: tuple[tuple[Any, ...], ...]  # the table from A1 once split (numbers, else cell texts)


def _usable(layout: cc.Layout, params: Any) -> bool:
    keys = [str(v) for v in layout.column(0)] if layout.kinds[:1] == ["key"] else []
    pattern = CODE if params["separator"] == "hyphen" else PERSON
    return bool(keys) and all(pattern.match(k) for k in keys)


content = cc.redrawn_content(_usable)


def _json(value: Any) -> Any:
    return value if isinstance(value, int | float) and not isinstance(value, bool) else cell_text(value)


def _where(params: Params, layout: cc.Layout, header: str, parts: tuple[str, str]) -> str:
    if params["place"] == "new_columns":
        a, b = layout.letter(layout.width), layout.letter(layout.width + 1)
        return (f"put the parts in two new columns right of the table, '{parts[0]}' in {a} and '{parts[1]}' in {b} "
                f"(headers in row 1), keeping the '{header}' column")
    return (f"do it in place: '{parts[0]}' in column A and '{parts[1]}' in B, the other "
            f"columns moving one to the right")


def goal(rng: random.Random, params: Params, table: dict[str, Any], plan: dict[str, Any]) -> Goal[cc.Layout, Target]:
    layout = cc.layout_from(table, plan)
    char, word, parts, texts = SEPARATORS[params["separator"]]
    if not _usable(layout, params):  # a model's table without such a key column: names made from its keys
        layout = layout.with_rows([[f"REF-{1001 + i}" if params["separator"] == "hyphen" else
                                    f"{FIRST_NAMES[i % 30]} {LAST_NAMES[(7 * i + i // 30) % 30]}", *row[1:]]
                                   for i, row in enumerate(layout.rows)])
    if params["separator"] == "comma":  # 'Maria Lopez' -> 'Lopez, Maria'
        layout = layout.with_rows([[", ".join(reversed(str(row[0]).split(" ", 1))), *row[1:]]
                                   for row in layout.rows])
    header = layout.header[0]
    split = [split_text(str(row[0]), char) for row in layout.rows]
    if params["place"] == "new_columns":
        columns = (layout.width + 1, layout.width + 2)
        table_rows = [[*layout.header, *parts], *[[*row, *pair] for row, pair in zip(layout.rows, split,
                                                                                      strict=True)]]
    else:
        columns = (1, 2)
        table_rows = [[*parts, *layout.header[1:]], *[[*pair, *row[1:]] for row, pair in zip(layout.rows, split,
                                                                                              strict=True)]]
    expected = tuple(tuple(_json(v) for v in row) for row in table_rows)
    where = _where(params, layout, header, parts)
    facts = {"path": layout.path, "sheet": layout.sheet, "header": header, "sep": word, "texts": texts,
             "first": parts[0], "second": parts[1], "note": NOTES[params["separator"]], "where": where,
             "Where": where[0].upper() + where[1:]}
    return Goal(layout, facts, Target(0, parts, columns, expected))


def rubric(params: Params, layout: cc.Layout, target: Target) -> list[Check]:
    header = layout.header[target.column]
    word = SEPARATORS[params["separator"]][1]
    split = Check(
        id="split",
        criterion=f"On sheet '{layout.sheet}' of {layout.path}, the '{header}' column is split at the {word} into "
                  f"'{target.parts[0]}' and '{target.parts[1]}' ({_where(params, layout, header, target.parts)}): "
                  f"every row holds its own parts{NOTES[params['separator']]}.",
        primitive="xlsx.column_split",
        args={"path": layout.path, "sheet": layout.sheet, "header": header, "separator": word,
              "parts": list(target.parts), "columns": list(target.columns),
              "expected": [list(row) for row in target.expected]},
    )
    return [split]


def solve(params: Params, layout: cc.Layout, target: Target) -> Attempts:
    replace = params["place"] == "in_place"
    base = {"op": "xlsx.split_column", "path": layout.path, "sheet": layout.sheet, "column": "A",
            "separator": SEPARATORS[params["separator"]][0], "headers": list(target.parts), "replace": replace}
    misses = [Attempt("writes the two parts the wrong way round", [{**base, "swap": True}]),
              Attempt("fills only the first part", [{**base, "first_only": True}]),
              Attempt("leaves the header cells of the two parts empty", [{**base, "no_header": True}]),
              Attempt("splits the other way: into new columns instead of in place, or in place instead of into new "
                      "columns", [{**base, "replace": not replace}])]
    if params["separator"] == "comma":
        misses.append(Attempt("splits at the comma alone, leaving a space in front of each first name",
                              [{**base, "keep_space": True}]))
    if params["separator"] == "hyphen":
        misses.append(Attempt("keeps the number part as text", [{**base, "as_text": True}]))
    return Attempts(Attempt("split the column at the separator into the two stated columns", [base]), misses)


WORKFLOW = family(
    NAME, cc.CALC,
    description="Split a text column (full names at the space, 'Last, First' at the comma, codes at the hyphen) "
                "into two stated columns, right of the table or in place of it.",
    knobs={"separator": tuple(SEPARATORS), "place": ("new_columns", "in_place")},
    source=(cc.sample, content),
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
