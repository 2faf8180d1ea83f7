"""calc.text_formula: add a column whose every data row holds a text formula over that row: a name in capitals,
lower case or proper case, a column's stray spaces trimmed, or two columns joined with a separator."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from verifiers.formula import evaluate
from workflows.calc import kit as cc

NAME = "calc.text_formula"
OPERATIONS = ("upper", "lower", "proper", "trim", "join")
HEADERS = {
    "upper": ("{h} (Caps)", "{h} Upper", "{h} in Capitals"), "lower": ("{h} Lower", "{h} (Lower Case)"),
    "proper": ("{h} Cleaned", "Proper {h}", "{h} Fixed"), "trim": ("{h} Trimmed", "Clean {h}"),
    "join": ("Label", "Display Label", "Combined", "Full Label"),
}
SEPARATORS = (" - ", ", ", " / ")
#: operation -> (the formula of one row over its source cells, what the slip of the first near-miss writes instead)
FORMULAS = {"upper": "=UPPER({a})", "lower": "=LOWER({a})", "proper": "=PROPER({a})", "trim": "=TRIM({a})",
            "join": '={a}&"{sep}"&{b}'}
SLIPS = {"upper": ("=PROPER({a})", "capitalises each word (PROPER) instead of the whole text"),
         "lower": ("=PROPER({a})", "capitalises each word (PROPER) instead of lower case"),
         "proper": ("=UPPER({a})", "puts the whole text in capitals (UPPER) instead of proper case"),
         "trim": ("={a}", "copies the column without removing the spaces"),
         "join": ("={a}&{b}", "joins the two columns without the separator")}
PHRASINGS = (
    "Open {path} and go to the sheet '{sheet}'. Add a new column: type the header '{header}' in {header_cell}, "
    "then fill {ref} with formulas so that each row shows {calc}. Every cell of {ref} must be a formula that "
    "uses the cells of its own row (no typed-in text). Save the file in place as xlsx.",
    "In the workbook {path}, sheet '{sheet}', create a column titled '{header}' (header in cell {header_cell}). "
    "For every data row, the cells {ref} should hold a formula giving {calc} from that same row. "
    "Don't type the results in by hand. Keep the xlsx format when saving.",
    "The table on sheet '{sheet}' of {path} needs a text column. Put '{header}' in {header_cell} and, in "
    "each cell of {ref}, enter a formula for {calc} of that row. Then save the spreadsheet in place.",
    "Using LibreOffice Calc, open {path}. On the '{sheet}' sheet, label cell {header_cell} '{header}' and add "
    "row-by-row formulas in {ref} that give {calc}. Each formula must refer to its own row. Save as xlsx, "
    "overwriting the file.",
    "Please extend the table in {path} (sheet '{sheet}') with {header.a_quoted} column: header in {header_cell}, "
    "formulas in {ref}, one per data row, each giving {calc}. The text must come from formulas, not be typed. "
    "Save the workbook in the same place and format.",
)
NATURAL = (
    "Add {header.a_quoted} column to the table in {path.file} showing {calc.bare} for each row, using formulas.",
    "Help me add a new column '{header}' on the '{sheet}' sheet of {path.file}: a formula per row "
    "giving {calc.bare}.",
    "I need {header.a_quoted} column next to the data in {path.file}, with formulas that give {calc.bare} "
    "row by row.",
    "Please add '{header}' as a new column in {path.file}: each row should show {calc.bare} through a formula, "
    "not typed text.",
    "Could you extend the table in {path.file} with {header.a_quoted} column whose formulas give {calc.bare}?",
)
_PERSON = re.compile(r"[A-Za-z][A-Za-z'.-]*(?: [A-Za-z][A-Za-z'.-]*)+")


class Params(TypedDict):
    operation: Literal["upper", "lower", "proper", "trim", "join"]


@dataclass(frozen=True)
class Target:
    operation: str  # the knob
    sources: list[int]  # the source columns (one; two for a join, in sheet order)
    separator: str  # the join's separator ("" for the other operations)
    letter: str  # the new column's letter
    header: str  # the new column's header
    ref: str  # the new column's data cells


def _texts(layout: cc.Layout, column: int) -> bool:
    return all(isinstance(v, str) and re.search(r"[A-Za-z]", v) for v in layout.column(column))


def _people(layout: cc.Layout, column: int) -> bool:
    return all(isinstance(v, str) and _PERSON.fullmatch(v) for v in layout.column(column))


def _source(rng: random.Random, layout: cc.Layout, operation: str) -> int:
    """The column whose text the operation reworks: names for the case changes when the key column holds names
    (proper case only ever reworks names: codes like 'EXP-1042' have no words to capitalise)."""
    key, category = layout.columns_of("key"), layout.columns_of("category")
    names = [c for c in key if _people(layout, c)]
    texts = [c for c in key + category if _texts(layout, c)]
    if operation in ("upper", "proper", "trim") and names:
        return names[0]
    return rng.choice((category if operation == "proper" else texts) or [0])


def usable(layout: cc.Layout, params: Mapping[str, Any]) -> bool:
    """Proper case wants a column of names (people), so that there are words to capitalise."""
    return params["operation"] != "proper" or any(_people(layout, c) for c in layout.columns_of("key"))


content = cc.redrawn_content(usable)


def _mangled(rng: random.Random, value: str, operation: str) -> str:
    """The text as it arrives untidy: random case for proper case to fix, stray spaces for TRIM to remove."""
    if operation == "proper":
        words = [rng.choice((w.lower(), w.upper())) for w in value.split(" ")]
        mangled = " ".join(words)
        return mangled if mangled != value else value.lower()
    if operation == "trim":
        words = value.split(" ")
        gap = rng.randrange(len(words) - 1) if len(words) > 1 else -1
        inner = " ".join(w + (" " if i == gap and rng.random() < 0.6 else "") for i, w in enumerate(words))
        lead, trail = rng.choice((("  ", ""), ("", "  "), (" ", " "), ("", "")))
        out = f"{lead}{inner}{trail}"
        return out if out != value else f" {value}  "
    return value


def goal(rng: random.Random, params: Params, table: dict[str, Any], plan: dict[str, Any]) -> Goal[cc.Layout, Target]:
    operation = params["operation"]
    layout = cc.layout_from(table, plan)
    separator = ""
    if operation == "join":
        sources = sorted([layout.columns_of("key")[0], layout.columns_of("category")[0]])
        separator = rng.choice(SEPARATORS)
    else:
        sources = [_source(rng, layout, operation)]
    if operation in ("proper", "trim"):
        column = sources[0]
        layout = layout.with_rows([[_mangled(rng, v, operation) if c == column else v for c, v in enumerate(row)]
                                   for row in layout.rows])
    names = [f"'{layout.header[c]}' (column {layout.letter(c)})" for c in sources]
    calc = {
        "upper": f"the text of {names[0]} in capital letters (UPPER)",
        "lower": f"the text of {names[0]} in lower case (LOWER)",
        "proper": f"the text of {names[0]} in proper case (PROPER: each word starting with one capital)",
        "trim": f"the text of {names[0]} with its extra spaces removed (TRIM)",
        "join": f"{names[0]} and {names[-1]} joined with '{separator}' between them (use &, CONCAT or TEXTJOIN)",
    }[operation]
    taken = {h.casefold() for h in layout.header}
    options = [h.format(h=layout.header[sources[0]]) for h in HEADERS[operation]]
    header = rng.choice([h for h in options if h.casefold() not in taken] or [f"{options[0]} Column"])
    letter = layout.letter(layout.width)
    ref = f"{letter}2:{letter}{layout.last_row}"
    facts = {"path": layout.path, "sheet": layout.sheet, "header": header, "header_cell": f"{letter}1",
             "ref": ref, "calc": calc}
    return Goal(layout, facts, Target(operation, sources, separator, letter, header, ref))


def _formulas(layout: cc.Layout, target: Target, template: str | None = None, shift: int = 0) -> dict[str, str]:
    a, b = (layout.letter(c) for c in (target.sources[0], target.sources[-1]))
    text = template or FORMULAS[target.operation]
    return {f"{target.letter}{r}": text.format(a=f"{a}{r + shift}", b=f"{b}{r + shift}", sep=target.separator)
            for r in range(2, layout.last_row + 1)}


def rubric(layout: cc.Layout, target: Target) -> list[Check]:
    formulas = list(_formulas(layout, target).values())
    lookup = cc.layout_lookup(layout)
    expected = [str(evaluate(f, lookup)) for f in formulas]
    sources = [layout.header[c] for c in target.sources]
    args: dict[str, Any] = {
        "path": layout.path, "sheet": layout.sheet, "header_cell": f"{target.letter}1", "header": target.header,
        "ref": target.ref, "operation": target.operation, "sources": sources, "expected": expected,
        "formulas": formulas}
    if target.separator:
        args["separator"] = target.separator
    what = (f"'{sources[0]}' and '{sources[-1]}' joined with '{target.separator}'" if target.operation == "join"
            else f"'{sources[0]}' through {target.operation.upper()}")
    return [Check(
        id="text_column",
        criterion=f"On sheet '{layout.sheet}' of {layout.path}, {target.letter}1 is '{target.header}' and every cell "
                  f"of {target.ref} is a formula over its own row showing {what}.",
        primitive="xlsx.text_column", args=args)]


def solve(layout: cc.Layout, target: Target) -> Attempts:
    head = {f"{target.letter}1": target.header}
    formulas = _formulas(layout, target)
    lookup = cc.layout_lookup(layout)
    typed = {cell: evaluate(f, lookup) for cell, f in formulas.items()}
    last = f"{target.letter}{layout.last_row}"
    base = {"op": "xlsx.set_cells", "path": layout.path, "sheet": layout.sheet}
    slip, slip_does = SLIPS[target.operation]
    return Attempts(
        Attempt("header plus one text formula per data row", [{**base, "cells": {**head, **formulas}}]),
        [Attempt(slip_does, [{**base, "cells": {**head, **_formulas(layout, target, slip)}}]),
         Attempt("types the resulting text instead of formulas", [{**base, "cells": {**head, **typed}}]),
         Attempt("fills every row but the last one",
                 [{**base, "cells": {**head, **{c: f for c, f in formulas.items() if c != last}}}]),
         Attempt("formulas refer to the next row (references shifted down by one)",
                 [{**base, "cells": {**head, **_formulas(layout, target, shift=1)}}])],
    )


WORKFLOW = family(
    NAME, cc.CALC,
    source=(cc.sample, content),
    description="Add a column of text formulas over each row: a name in capitals, lower or proper case, a column's "
                "stray spaces trimmed, or two columns joined with a separator.",
    knobs={"operation": OPERATIONS},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
