"""calc.remove_duplicates: delete duplicate data rows (exact copies, or repeated keys), keeping first occurrences.

The goal node injects 2-4 duplicates after their originals. In `exact` mode they are exact copies and one more
row repeats a key with different values (not a duplicate: it must stay); in `key` mode some copies repeat the
key with different values and all of them must go.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.grammar import article
from kit.model import Check
from workflows.calc import kit as cc

NAME = "calc.remove_duplicates"
PHRASINGS = (
    "Open {path} and look at the table on the sheet '{sheet}' ({ref}, header in row 1). {rule} Delete the "
    "duplicate rows entirely so no blank rows remain, keep the header, and save the file in place as xlsx.",
    "The data on sheet '{sheet}' of {path} (rows {ref}) contains duplicates. {rule} Remove them by deleting "
    "whole rows, leave the remaining rows in their current order with no gaps, and save the workbook as xlsx.",
    "Please clean up the duplicate records in {path}, sheet '{sheet}', range {ref}. {rule} Don't sort the table "
    "or leave empty rows behind. Save the spreadsheet in the same file and format.",
    "Using LibreOffice Calc, open {path}, go to sheet '{sheet}' and deduplicate the rows {ref}. {rule} The "
    "rows that stay must keep their order and sit directly under the header. Save as xlsx, overwriting the file.",
    "Some rows in the table on the '{sheet}' sheet of {path} ({ref}) were entered twice. {rule} Delete the "
    "extra rows (whole rows, no blank lines left) and save the file in place, keeping the xlsx format.",
)
NATURAL = (
    "Some rows in {path.file} were entered twice. Please delete the extra rows. {rule.first}",
    "Help me clean up the duplicates in my spreadsheet {path.file}. {rule.first}",
    "There are repeated entries on the '{sheet}' sheet of {path.file}; remove them. {rule.first}",
    "Could you get rid of the duplicate records in {path.file}? {rule.first}",
    "I need the double entries gone from {path.file}, with no blank rows left. {rule.first}",
)
RULES = {
    "exact": "A row is a duplicate only when it is identical in every column to an earlier row; keep the first "
             "occurrence and delete the later copies. Rows that share some values but differ in any column are "
             "not duplicates.",
    "key": "Rows are duplicates when they have the same '{key}' value, even if other columns differ; keep only "
           "the first row for each '{key}' and delete the later ones.",
}


def _changed(rng: random.Random, rows: list[list[Any]], row: list[Any], columns: list[int]) -> list[Any]:
    """A copy of `row` with one of `columns` given another row's (different) value."""
    copy = list(row)
    column = rng.choice(columns)
    copy[column] = rng.choice([r[column] for r in rows if r[column] != row[column]])
    return copy


def _inject(rng: random.Random, rows: list[list[Any]], mode: str, numeric: list[int]
            ) -> tuple[list[list[Any]], list[int]]:
    """Rows with duplicates inserted after their sources; returns them and the 0-based indexes of the extras."""
    count = rng.randint(2, 4)
    sources = rng.sample(range(len(rows)), count + (mode == "exact"))
    tagged: list[tuple[list[Any], str, int]] = [(list(r), "orig", i) for i, r in enumerate(rows)]
    if mode == "exact":
        extras = [(list(rows[s]), "dup", s) for s in sources[:count]]
        extras.append((_changed(rng, rows, rows[sources[count]], numeric), "near", sources[count]))
    else:
        differ = set(rng.sample(range(count), rng.randint(1, count - 1)))
        extras = [(_changed(rng, rows, rows[s], numeric) if i in differ else list(rows[s]), "dup", s)
                  for i, s in enumerate(sources)]
    for extra in extras:
        at = next(i for i, (_, tag, source) in enumerate(tagged) if tag == "orig" and source == extra[2])
        tagged.insert(rng.randint(at + 1, len(tagged)), extra)
    return [r for r, _, _ in tagged], [i for i, (_, tag, _) in enumerate(tagged) if tag == "dup"]


class Params(TypedDict):
    mode: Literal["exact", "key"]


@dataclass(frozen=True)
class Target:
    mode: str  # "exact" (identical rows) or "key" (a repeated key column value)
    dups: list[int]  # 0-based data-row indexes of the injected duplicates: the rows to delete
    key: int  # the key column


def goal(rng: random.Random, params: Params, table: dict[str, Any], plan: dict[str, Any]) -> Goal[cc.Layout, Target]:
    mode = params["mode"]
    sheet = cc.layout_from(table, plan)
    rows, dups = _inject(rng, sheet.rows, mode, sheet.columns_of(*cc.NUMERIC_KINDS))
    layout = sheet.with_rows(rows)
    key = layout.columns_of("key")[0]
    facts = {"path": layout.path, "sheet": layout.sheet, "ref": layout.table_ref,
             "rule": RULES[mode].format(key=layout.header[key])}
    return Goal(layout, facts, Target(mode, dups, key))


def _keep(layout: cc.Layout, gone: list[int]) -> list[list[str]]:
    return [row for i, row in enumerate(layout.text_rows()) if i not in gone]


def rubric(layout: cc.Layout, target: Target) -> list[Check]:
    kept = _keep(layout, target.dups)
    check = Check(
        id="deduplicated",
        criterion=f"On sheet '{layout.sheet}' of {layout.path}, the header is kept and the data rows are exactly the "
                  f"{len(kept)} first occurrences, in their original order, with no blank rows"
                  + (f" (rows that repeat {article(layout.header[target.key])} '{layout.header[target.key]}' value are "
                     "duplicates)."
                     if target.mode == "key" else "."),
        primitive="xlsx.table_rows",
        args={"path": layout.path, "sheet": layout.sheet, "header": list(layout.header), "rows": kept,
              **({"key": layout.header[target.key]} if target.mode == "key" else {})},
    )
    return [check]


def solve(rng: random.Random, layout: cc.Layout, target: Target) -> Attempts:
    dups = target.dups
    base = {"op": "xlsx.delete_rows", "path": layout.path, "sheet": layout.sheet}

    def delete(indexes: list[int]) -> list[dict[str, Any]]:
        return [{**base, "rows": sorted(i + 2 for i in indexes)}]

    left = rng.choice(dups)
    misses = [Attempt("leaves one duplicate row in place", delete([i for i in dups if i != left]))]
    keys = [row[target.key] for row in layout.rows]
    firsts = [keys.index(keys[i]) for i in dups]
    if target.mode == "exact":
        near = next(i for i, k in enumerate(keys) if keys.index(k) != i and i not in dups)
        extra = rng.choice([i for i in range(len(keys)) if i not in dups and keys.index(keys[i]) == i
                            and keys.count(keys[i]) == 1])
        misses += [
            Attempt("also deletes a row that is not a duplicate", delete([*dups, extra])),
            Attempt("deduplicates by the key column alone, deleting a row that differs", delete([*dups, near])),
        ]
    else:
        exact = [i for i, f in zip(dups, firsts, strict=True) if layout.rows[i] == layout.rows[f]]
        misses += [
            Attempt("keeps the last occurrence, deleting the first one instead", delete(firsts)),
            Attempt("removes only exact copies, keeping rows that repeat the key with other values", delete(exact)),
        ]
    return Attempts(Attempt("deletes every later duplicate row", delete(dups)), misses)


WORKFLOW = family(
    NAME, cc.CALC,
    description="Delete duplicate rows of a table (exact copies or repeated keys), keeping first occurrences.",
    knobs={"mode": ("exact", "key")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
