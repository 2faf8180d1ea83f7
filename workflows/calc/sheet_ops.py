"""calc.sheet_ops: add, rename, reorder or delete a worksheet in a multi-sheet workbook."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family, prepare_node
from kit.model import Check
from preparers import xlsx
from verifiers.readers.xlsx import cell_text
from workflows.calc import kit as cc

NAME = "calc.sheet_ops"
OPS = ("add", "rename", "reorder", "delete")
EXTRA_SHEETS = ("Notes", "Summary", "Archive", "Lookup", "Checklist", "Contacts")
NEW_SHEETS = ("Forecast", "Comments", "Review", "Targets", "Q4 Plan", "Budget Draft", "Follow Up", "Charts")
RENAMES = ("Master Data", "Raw Data", "Current", "Final Figures", "Working Copy", "Records", "Main Table",
           "Data 2025")
#: How many extra sheets sit beside the data sheet, per op.
EXTRA_COUNT = {"add": (1, 2), "rename": (1, 2), "reorder": (2, 3), "delete": (2, 3)}
PHRASINGS = (
    "Open {path} in LibreOffice Calc. The workbook currently has the sheets {sheet_list}, in that order. "
    "{action} Do not change anything else: the other sheets keep their names, contents and relative order. "
    "Save the file in place as xlsx.",
    "In the workbook {path} (sheets: {sheet_list}), do the following: {action} Nothing else should change, so "
    "the remaining sheets keep their names, data and relative order. Save it in the same xlsx format.",
    "Please tidy up the sheet tabs of {path}. Right now the tabs are {sheet_list}, from left to right. "
    "{action} Leave all other tabs, their relative order and their data alone, and save the workbook in place.",
    "The spreadsheet {path} contains the sheets {sheet_list} (in this order); the main table is on '{sheet}'. "
    "{action} Apart from that keep the workbook as it is (names, data, relative order of the other sheets), "
    "and save it as xlsx in place.",
    "Using LibreOffice Calc, open {path}; its sheet tabs read {sheet_list} from left to right. {action} "
    "The remaining sheets must keep their names, contents and relative order. Save the file, keeping the "
    "xlsx format.",
)
NATURAL = (
    "In my workbook {path.file}, please {action.bare.inline}.",
    "Help me reorganize the sheets of {path.file}: {action.bare.inline}. Leave the other sheets as they "
    "are.",
    "Could you {action.bare.inline} in {path.file}? Nothing else should change.",
    "The tabs of {path.file} need one change: {action.bare.inline}.",
    "I need a quick fix to {path.file}: {action.bare.inline}, then save the file.",
)


def quoted(names: list[str]) -> str:
    items = [f"'{n}'" for n in names]
    return ", ".join(items[:-1]) + f" and {items[-1]}" if len(items) > 1 else items[0]


def _extra_rows(name: str, layout: cc.Layout) -> list[list[Any]]:
    """A little believable content for an extra sheet."""
    numeric = layout.columns_of(*cc.NUMERIC_KINDS)[0]
    category = layout.columns_of("category")[0]
    if name == "Notes":
        return [["Note"], [f"Source: {layout.title}"], ["Figures are preliminary until month end."],
                ["Send corrections to the team lead."]]
    if name == "Summary":
        return [["Metric", "Value"], ["Records", len(layout.rows)],
                [f"Total {layout.header[numeric]}", round(sum(layout.column(numeric)), 2)]]
    if name == "Archive":
        return [list(layout.header), *[list(r) for r in layout.rows[:2]]]
    if name == "Lookup":
        return [[layout.header[category]], *[[v] for v in sorted(set(layout.column(category)))]]
    if name == "Checklist":
        return [["Step", "Done"], ["Import data", "yes"], ["Check totals", "yes"], ["Send report", "no"]]
    return [["Name", "Role"], ["Maria Lopez", "Owner"], ["James Smith", "Reviewer"]]


def _texts(rows: list[list[Any]]) -> list[list[str]]:
    return [[cell_text(v) for v in row] for row in rows]


def _moved(names: list[str], sheet: str, where: str, other: str | None) -> list[str]:
    """`names` after moving `sheet` to `where` (first, last, after or before `other`)."""
    rest = [n for n in names if n != sheet]
    index = {"first": 0, "last": len(rest)}.get(where)
    if index is None:
        index = rest.index(str(other)) + (where == "after")
    return rest[:index] + [sheet] + rest[index:]


def _place_words(where: str, other: str | None) -> str:
    """How a move of a sheet to `where` reads after "Move the sheet 'X' "."""
    return {"first": "so that it becomes the very first sheet", "last": "to the end, so that it becomes the last sheet",
            "after": f"so that it sits directly after the sheet '{other}'",
            "before": f"so that it sits directly before the sheet '{other}'"}[where]


def _pick_move(rng: random.Random, names: list[str]) -> tuple[str, str, str | None]:
    options: list[tuple[str, str, str | None]] = [(s, w, None) for s in names for w in ("first", "last")]
    options += [(s, w, o) for s in names for o in names if o != s for w in ("after", "before")]
    return rng.choice([m for m in options if _moved(names, *m) != names])


def _add_plan(rng: random.Random, names: list[str], new: str) -> tuple[int, str]:
    where = rng.choice(["first", "last", "after", "before"])
    other = None
    if where == "after":
        other = rng.choice(names[:-1])
    elif where == "before":
        other = rng.choice(names[1:])
    index = _moved([*names, new], new, where, other).index(new)
    words = {"first": f"as the very first sheet, before '{names[0]}'", "last": f"at the end, after '{names[-1]}'",
             "after": f"directly after the sheet '{other}'", "before": f"directly before the sheet '{other}'"}[where]
    return index, f"Insert a new, empty sheet named '{new}' {words}."


class Params(TypedDict):
    op: Literal["add", "rename", "reorder", "delete"]


@dataclass(frozen=True)
class Target:
    op: str  # add / rename / reorder / delete
    initial: list[str]  # the sheet names in their initial order
    expected: list[str]  # the sheet names after the task
    action: str  # the task in words
    new: str | None = None  # add, rename: the new sheet name
    index: int | None = None  # add: the new sheet's 0-based position
    moved: str | None = None  # reorder: the sheet to move ...
    where: str | None = None  # ... first, last, after or before ...
    other: str | None = None  # ... this sheet
    victim: str | None = None  # delete: the sheet to delete


def goal(rng: random.Random, params: Params, table: dict[str, Any], plan: dict[str, Any]) -> Goal[cc.Layout, Target]:
    op = params["op"]
    base = cc.layout_from(table, plan)
    taken = {base.sheet.casefold()}
    pool = [n for n in EXTRA_SHEETS if n.casefold() not in taken]
    extras = rng.sample(pool, rng.randint(*EXTRA_COUNT[op]))
    layout = replace(base, extra_sheets=[(n, _extra_rows(n, base)) for n in extras])
    names = list(extras)
    names.insert(rng.randint(0, len(names)), layout.sheet)
    taken |= {n.casefold() for n in names}
    if op == "add":
        new = rng.choice([n for n in NEW_SHEETS if n.casefold() not in taken])
        index, action = _add_plan(rng, names, new)
        target = Target(op, names, names[:index] + [new] + names[index:], action, new=new, index=index)
    elif op == "rename":
        new = rng.choice([n for n in RENAMES if n.casefold() not in taken])
        target = Target(op, names, [new if n == layout.sheet else n for n in names],
                        f"Rename the sheet '{layout.sheet}' to '{new}'; its table ({layout.table_ref}) must "
                        "stay exactly as it is.", new=new)
    elif op == "reorder":
        sheet, where, other = _pick_move(rng, names)
        target = Target(op, names, _moved(names, sheet, where, other),
                        f"Move the sheet '{sheet}' {_place_words(where, other)}.", moved=sheet, where=where,
                        other=other)
    else:
        victim = rng.choice(extras)
        target = Target(op, names, [n for n in names if n != victim],
                        f"Delete the sheet '{victim}' from the workbook entirely (the whole sheet, not just "
                        "its contents).", victim=victim)
    facts = {"path": layout.path, "sheet": layout.sheet, "sheet_list": quoted(names), "action": target.action}
    return Goal(layout, facts, target)


def prepare(layout: cc.Layout, target: Target) -> Mapping[str, Any]:
    """The shared workbook spec, with its sheets in the goal's initial order."""
    spec = cc.workbook_spec(layout)
    by_name = {s["name"]: s for s in spec["sheets"]}
    spec["sheets"] = [by_name[n] for n in target.initial]
    return cc.workbook_outputs(layout, xlsx.build(spec))


def rubric(layout: cc.Layout, target: Target) -> list[Check]:
    t = target
    path = layout.path
    checks = [Check(id="sheet-names",
                    criterion=f"The sheets of {path} are exactly {quoted(t.expected)}, in this order.",
                    primitive="xlsx.sheet_names", args={"path": path, "expected": t.expected})]
    if t.op == "rename":  # the frame sees every cell of a renamed sheet change (kept ones are the frame's)
        rows = _texts([layout.header, *layout.rows])
        checks.append(Check(id="content-1",
                            criterion=f"Sheet '{t.new}' still holds its original {len(rows)} rows unchanged.",
                            primitive="xlsx.sheet_content", args={"path": path, "sheet": str(t.new), "rows": rows}))
    if t.op == "add":
        checks.append(Check(id="new-sheet-empty", criterion=f"The new sheet '{t.new}' is empty.",
                            primitive="xlsx.sheet_empty", args={"path": path, "sheet": t.new}))
    return checks


def _neighbour(names: list[str], sheet: str, exclude: tuple[str | None, ...] = ()) -> str:
    i = names.index(sheet)
    order = [*names[i + 1:], *reversed(names[:i])]
    return next(n for n in order if n not in exclude)


def solve(layout: cc.Layout, target: Target) -> Attempts:
    t = target
    names = t.initial
    at = {"path": layout.path}
    if t.op == "add":
        new, index = str(t.new), int(t.index or 0)
        off = index + 1 if index < len(names) else index - 1
        return Attempts(
            Attempt("insert the empty sheet with the exact name at the asked position",
                    [{"op": "xlsx.add_sheet", **at, "name": new, "index": index}]),
            [Attempt("inserts the sheet one position off",
                     [{"op": "xlsx.add_sheet", **at, "name": new, "index": off}]),
             Attempt("types the name in lower case",
                     [{"op": "xlsx.add_sheet", **at, "name": new.lower(), "index": index}]),
             Attempt(f"inserts a copy of '{layout.sheet}' instead of an empty sheet",
                     [{"op": "xlsx.copy_sheet", **at, "sheet": layout.sheet, "name": new, "index": index}])],
        )
    if t.op == "rename":
        sheet, new = layout.sheet, str(t.new)
        index = names.index(sheet)
        return Attempts(
            Attempt("rename the data sheet in place",
                    [{"op": "xlsx.rename_sheet", **at, "sheet": sheet, "new_name": new}]),
            [Attempt("types the new name in lower case",
                     [{"op": "xlsx.rename_sheet", **at, "sheet": sheet, "new_name": new.lower()}]),
             Attempt("renames the neighbouring sheet instead",
                     [{"op": "xlsx.rename_sheet", **at, "sheet": _neighbour(names, sheet), "new_name": new}]),
             Attempt("adds a sheet with the new name but leaves the old one as it was",
                     [{"op": "xlsx.add_sheet", **at, "name": new, "index": index + 1}]),
             Attempt("replaces the sheet by a new empty one with the new name, losing the table",
                     [{"op": "xlsx.delete_sheet", **at, "sheet": sheet},
                      {"op": "xlsx.add_sheet", **at, "name": new, "index": index}])],
        )
    if t.op == "reorder":
        sheet, where, other = str(t.moved), str(t.where), t.other
        index = t.expected.index(sheet)
        off = index + 1 if index + 1 < len(names) else index - 1
        wrong = _neighbour(names, sheet, exclude=(other,))
        wrong_index = _moved(names, wrong, where, other).index(wrong)
        return Attempts(
            Attempt("move the sheet to the asked position",
                    [{"op": "xlsx.move_sheet", **at, "sheet": sheet, "index": index}]),
            [Attempt("moves the sheet one position off",
                     [{"op": "xlsx.move_sheet", **at, "sheet": sheet, "index": off}]),
             Attempt(f"moves the neighbouring sheet '{wrong}' instead",
                     [{"op": "xlsx.move_sheet", **at, "sheet": wrong, "index": wrong_index}])],
        )
    victim = str(t.victim)
    return Attempts(
        Attempt("delete the stated sheet", [{"op": "xlsx.delete_sheet", **at, "sheet": victim}]),
        [Attempt("deletes the neighbouring sheet instead",
                 [{"op": "xlsx.delete_sheet", **at, "sheet": _neighbour(names, victim)}]),
         Attempt("clears the sheet's contents but keeps the sheet",
                 [{"op": "xlsx.clear_sheet", **at, "sheet": victim}])],
    )


WORKFLOW = family(
    NAME, cc.CALC,
    description="Add, rename, reorder or delete a worksheet, keeping the other sheets and their data intact.",
    knobs={"op": OPS},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve, prepare=prepare_node(prepare),
)
