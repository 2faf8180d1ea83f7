"""calc.sheet_ops: add, rename, reorder or delete a worksheet in a multi-sheet workbook."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from forge.dag import NodeContext, Workflow, node
from forge.model import Check, Solution
from preparers import xlsx
from verifiers.checks.xlsx_common import cell_text
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


def _add_plan(rng: random.Random, names: list[str], new: str) -> dict[str, Any]:
    where = rng.choice(["first", "last", "after", "before"])
    other = None
    if where == "after":
        other = rng.choice(names[:-1])
    elif where == "before":
        other = rng.choice(names[1:])
    index = _moved([*names, new], new, where, other).index(new)
    words = {"first": f"as the very first sheet, before '{names[0]}'", "last": f"at the end, after '{names[-1]}'",
             "after": f"directly after the sheet '{other}'", "before": f"directly before the sheet '{other}'"}[where]
    return {"index": index, "action": f"Insert a new, empty sheet named '{new}' {words}."}


@node("goal", "goal", ("params", "table", "plan"), ("layout", "facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("goal")
    op = values["params"]["op"]
    base = cc.layout_from(values["table"], values["plan"])
    taken = {base.sheet.casefold()}
    pool = [n for n in EXTRA_SHEETS if n.casefold() not in taken]
    extras = rng.sample(pool, rng.randint(*EXTRA_COUNT[op]))
    layout = replace(base, extra_sheets=[(n, _extra_rows(n, base)) for n in extras])
    names = list(extras)
    names.insert(rng.randint(0, len(names)), layout.sheet)
    taken |= {n.casefold() for n in names}
    target: dict[str, Any] = {"op": op, "initial": names}
    if op == "add":
        new = rng.choice([n for n in NEW_SHEETS if n.casefold() not in taken])
        target |= {"new": new, **_add_plan(rng, names, new)}
        target["expected"] = names[:target["index"]] + [new] + names[target["index"]:]
    elif op == "rename":
        new = rng.choice([n for n in RENAMES if n.casefold() not in taken])
        target |= {"new": new, "expected": [new if n == layout.sheet else n for n in names],
                   "action": f"Rename the sheet '{layout.sheet}' to '{new}'; its table ({layout.table_ref}) must "
                             "stay exactly as it is."}
    elif op == "reorder":
        sheet, where, other = _pick_move(rng, names)
        target |= {"moved": sheet, "where": where, "other": other, "expected": _moved(names, sheet, where, other),
                   "action": f"Move the sheet '{sheet}' {_place_words(where, other)}."}
    else:
        victim = rng.choice(extras)
        target |= {"victim": victim, "expected": [n for n in names if n != victim],
                   "action": f"Delete the sheet '{victim}' from the workbook entirely (the whole sheet, not just "
                             "its contents)."}
    facts = {"path": layout.path, "sheet": layout.sheet, "sheet_list": quoted(names), "action": target["action"]}
    return {"layout": layout, "facts": facts, "target": target}


@node("prepare", "prepare", ("layout", "target"), ("assets", "launch"))
def prepare(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    """The shared workbook spec, with its sheets in the goal's initial order."""
    layout: cc.Layout = values["layout"]
    spec = cc.workbook_spec(layout)
    by_name = {s["name"]: s for s in spec["sheets"]}
    spec["sheets"] = [by_name[n] for n in values["target"]["initial"]]
    return cc.workbook_outputs(layout, xlsx.build(spec))


def _contents(layout: cc.Layout) -> dict[str, list[list[str]]]:
    """Each initial sheet's cell texts."""
    out = {layout.sheet: _texts([layout.header, *layout.rows])}
    out.update({name: _texts(rows) for name, rows in layout.extra_sheets})
    return out


@node("rubric", "rubric", ("layout", "target"), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: cc.Layout = values["layout"]
    t = values["target"]
    path = layout.path
    checks = [Check(id="sheet-names",
                    criterion=f"The sheets of {path} are exactly {quoted(t['expected'])}, in this order.",
                    primitive="xlsx.sheet_names", args={"path": path, "expected": t["expected"]})]
    renamed = {layout.sheet: t["new"]} if t["op"] == "rename" else {}
    for old, rows in _contents(layout).items():
        if old == t.get("victim"):
            continue
        name = renamed.get(old, old)
        checks.append(Check(id=f"content-{len(checks)}",
                            criterion=f"Sheet '{name}' still holds its original {len(rows)} rows unchanged.",
                            primitive="xlsx.sheet_content", args={"path": path, "sheet": name, "rows": rows}))
    if t["op"] == "add":
        checks.append(Check(id="new-sheet-empty", criterion=f"The new sheet '{t['new']}' is empty.",
                            primitive="xlsx.sheet_empty", args={"path": path, "sheet": t["new"]}))
    return {"rubric": checks}


def _neighbour(names: list[str], sheet: str, exclude: tuple[str | None, ...] = ()) -> str:
    i = names.index(sheet)
    order = [*names[i + 1:], *reversed(names[:i])]
    return next(n for n in order if n not in exclude)


@node("solve", "solve", ("layout", "target"), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    layout: cc.Layout = values["layout"]
    t = values["target"]
    names: list[str] = t["initial"]
    at = {"path": layout.path}
    if t["op"] == "add":
        new, index = t["new"], t["index"]
        off = index + 1 if index < len(names) else index - 1
        return {"solutions": [
            Solution("oracle", "insert the empty sheet with the exact name at the asked position",
                     [{"op": "xlsx.add_sheet", **at, "name": new, "index": index}]),
            Solution("near-miss-1", "inserts the sheet one position off",
                     [{"op": "xlsx.add_sheet", **at, "name": new, "index": off}]),
            Solution("near-miss-2", "types the name in lower case",
                     [{"op": "xlsx.add_sheet", **at, "name": new.lower(), "index": index}]),
            Solution("near-miss-3", f"inserts a copy of '{layout.sheet}' instead of an empty sheet",
                     [{"op": "xlsx.copy_sheet", **at, "sheet": layout.sheet, "name": new, "index": index}]),
        ]}
    if t["op"] == "rename":
        sheet, new = layout.sheet, t["new"]
        index = names.index(sheet)
        return {"solutions": [
            Solution("oracle", "rename the data sheet in place",
                     [{"op": "xlsx.rename_sheet", **at, "sheet": sheet, "new_name": new}]),
            Solution("near-miss-1", "types the new name in lower case",
                     [{"op": "xlsx.rename_sheet", **at, "sheet": sheet, "new_name": new.lower()}]),
            Solution("near-miss-2", "renames the neighbouring sheet instead",
                     [{"op": "xlsx.rename_sheet", **at, "sheet": _neighbour(names, sheet), "new_name": new}]),
            Solution("near-miss-3", "adds a sheet with the new name but leaves the old one as it was",
                     [{"op": "xlsx.add_sheet", **at, "name": new, "index": index + 1}]),
            Solution("near-miss-4", "replaces the sheet by a new empty one with the new name, losing the table",
                     [{"op": "xlsx.delete_sheet", **at, "sheet": sheet},
                      {"op": "xlsx.add_sheet", **at, "name": new, "index": index}]),
        ]}
    if t["op"] == "reorder":
        sheet, where, other = t["moved"], t["where"], t["other"]
        index = t["expected"].index(sheet)
        off = index + 1 if index + 1 < len(names) else index - 1
        wrong = _neighbour(names, sheet, exclude=(other,))
        wrong_index = _moved(names, wrong, where, other).index(wrong)
        return {"solutions": [
            Solution("oracle", "move the sheet to the asked position",
                     [{"op": "xlsx.move_sheet", **at, "sheet": sheet, "index": index}]),
            Solution("near-miss-1", "moves the sheet one position off",
                     [{"op": "xlsx.move_sheet", **at, "sheet": sheet, "index": off}]),
            Solution("near-miss-2", f"moves the neighbouring sheet '{wrong}' instead",
                     [{"op": "xlsx.move_sheet", **at, "sheet": wrong, "index": wrong_index}]),
        ]}
    victim = t["victim"]
    return {"solutions": [
        Solution("oracle", "delete the stated sheet", [{"op": "xlsx.delete_sheet", **at, "sheet": victim}]),
        Solution("near-miss-1", "deletes the neighbouring sheet instead",
                 [{"op": "xlsx.delete_sheet", **at, "sheet": _neighbour(names, victim)}]),
        Solution("near-miss-2", "clears the sheet's contents but keeps the sheet",
                 [{"op": "xlsx.clear_sheet", **at, "sheet": victim}]),
    ]}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(cc.APP,),
    description="Add, rename, reorder or delete a worksheet, keeping the other sheets and their data intact.",
    knobs={"op": OPS},
    nodes=(*cc.source_nodes(), goal, prepare, cc.instruction(NAME, PHRASINGS), rubric, solve),
)
