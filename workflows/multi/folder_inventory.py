"""multi.folder_inventory: list the files of a folder in a new Calc workbook (names, plus extensions or sizes in
bytes), sorted by name or size, optionally only one file type (files -> Calc).

The folder also holds a subfolder (not a file, so not listed). File names start with distinct letters and
sizes are distinct, so "A to Z" and "largest first" have one answer whatever collation an app sorts with.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.axes import LOCATION, deepen, pick, span
from kit.family import Attempt, Attempts, Goal, family
from kit.grammar import count
from kit.model import HOME, Check
from preparers import tree
from workflows.multi import kit as mc
from workflows.os import kit as oc

NAME = "multi.folder_inventory"
EXTS = ("pdf", "docx", "txt", "md", "csv", "xlsx", "jpg", "png", "mp3", "log", "conf")
BASES = ("Documents", "projects", "work", "Documents/archive", "Desktop")
SUBFOLDERS = ("old", "drafts", "archive", "backup", "misc")
SHEETS = ("Inventory", "Files", "Listing", "Contents")
FIELDS = {"name_only": ("File Name",), "name_ext": ("File Name", "Extension"),
          "name_size": ("File Name", "Size (bytes)")}
WHAT = {"name_only": "one row per file with its full name (extension included)",
        "name_ext": "one row per file with its full name and, in the second column, its extension in lower case "
                    "without the dot (e.g. pdf)",
        "name_size": "one row per file with its full name and, in the second column, its size in bytes"}
#: The same columns said briefly, for the natural register (a user names the columns, not the row layout).
COLUMNS = {"name_only": "each file's full name (extension included)",
           "name_ext": "each file's name and its extension (lower case, no dot)",
           "name_size": "each file's name and its size in bytes"}
ORDERS = {"name_asc": "sorted by file name from A to Z", "name_desc": "sorted by file name from Z to A",
          "size_desc": "sorted by size, largest file first"}
#: Difficulty axes (issue 15): how many files the folder holds, how deep it sits, and more files in subfolders
#: (look-alikes that must not be listed).
AXES = {"files": ("7-9", "10-12", "13-16"), "location": LOCATION, "noise": mc.NOISE}
PHRASINGS = (
    "Make an inventory of the folder {folder} in LibreOffice Calc: create the workbook {workbook} whose sheet "
    "'{sheet}' has the header {header} in row 1 and, below it, {what}, {order}.{only} List only the files directly "
    "in the folder, not subfolders. Save it as xlsx.",
    "I need a spreadsheet listing {scope} in {folder}. Create {workbook} with a sheet named '{sheet}': row 1 holds "
    "the header {header}, then {what}, {order}. Leave out folders. Save the workbook in xlsx format.",
    "Look at the files in {folder} (ignore its subfolders) and record them in a new Calc workbook {workbook}, "
    "sheet '{sheet}': header {header} in the first row, then {what}, {order}.{only} Save as xlsx.",
    "Create {workbook} (sheet '{sheet}') listing {scope} stored directly in {folder}. Use the header {header}, then "
    "{what}, {order}. Subfolders are not files, so leave them out. Keep the xlsx format when saving.",
    "Using the file manager or a terminal together with LibreOffice Calc, build a file list of {folder}: a new "
    "workbook {workbook} whose sheet '{sheet}' starts with the header {header}, followed by {what}, {order}.{only} "
    "Only files count, not folders. Save it as xlsx.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Could you list {scope} directly in {folder} in a new workbook {workbook}? Sheet '{sheet}', header {header}, "
    "{columns}, {order}.",
    "I need an inventory of {scope} directly in {folder}: {columns}, {order}, in {workbook} (sheet '{sheet}', "
    "header {header}).",
    "Please make a spreadsheet {workbook} listing {scope} directly in {folder}, with {columns}: sheet '{sheet}', "
    "header {header}, {order}.",
    "Help me keep track of {scope} directly in {folder}: a new workbook {workbook}, sheet '{sheet}', header "
    "{header}, {columns}, {order}.",
    "List {scope} directly in {folder} in {workbook}, sheet '{sheet}', under the header {header}: {columns}, "
    "{order}."
)


class Params(TypedDict):
    fields: Literal["name_only", "name_ext", "name_size"]
    order: Literal["name_asc", "name_desc", "size_desc"]
    filter: Literal["all", "one_ext"]


@dataclass(frozen=True)
class Target:
    workbook: str
    sheet: str
    header: list[str]
    ext: str  # the file type of the one-type filter
    folder: str  # the folder to list
    sub: str  # its subfolder (not a file: never listed)
    files: list[tuple[str, int]]  # (name, size in bytes) of the folder's files


def _files(rng: Any, pool: Mapping[str, Any], folder: str, level: str) -> list[tree.FileSpec]:
    """Files whose names start with distinct letters and whose sizes are distinct: 7-9 at the default `files`
    level (up to 9 of 43 candidates), else as many as the level draws."""
    maker = oc.Files(pool, rng)
    picked: list[tree.FileSpec] = []
    letters: set[str] = set()
    sizes: set[int] = set()
    twice = rng.choice(EXTS[:6])  # one type at least twice, for the one-type filter
    exts = [twice, twice, twice] + [rng.choice(EXTS) for _ in range(40)]
    most = 9
    if level != AXES["files"][0]:  # only when moved: the default draws stay as they were
        most = rng.randint(*span(level))
        exts += [rng.choice(EXTS) for _ in range(200)]
    for ext in exts:
        try:
            spec = maker.new(folder, ext)
        except ValueError:
            continue
        size = len(tree.render(spec))
        if spec.name[0].casefold() in letters or size in sizes:
            continue
        letters.add(spec.name[0].casefold())
        sizes.add(size)
        picked.append(spec)
        if len(picked) == most:
            break
    return picked


def goal(rng: random.Random, params: Params, content: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[mc.Setup, Target]:
    pool = content["pool"]
    project = rng.choice(pool["projects"])
    folder = f"{HOME}/{deepen(rng.choice(BASES), pick(params, 'location', AXES))}/{project}"
    files = _files(rng, pool, folder, pick(params, "files", AXES))
    sub = f"{folder}/{rng.choice(SUBFOLDERS)}"
    inner = [oc.Files(pool, rng).content(f"{sub}/{f.name}") for f in rng.sample(files, 2)]
    others = [f"{folder}/{name}" for name in SUBFOLDERS if f"{folder}/{name}" != sub]
    for more in others[:mc.EXTRA[pick(params, "noise", AXES)]]:  # the `noise` axis: more subfolders of look-alikes
        inner += [oc.Files(pool, rng).content(f"{more}/{f.name}") for f in rng.sample(files, 3)]
    counts = {oc.ext_of(f.name): sum(oc.ext_of(g.name) == oc.ext_of(f.name) for g in files) for f in files}
    ext = rng.choice(sorted(e for e, n in counts.items() if 2 <= n < len(files)))
    workbook = f"{HOME}/{rng.choice(('Documents', 'Desktop'))}/{project}_inventory.xlsx"
    sheet = rng.choice(SHEETS)
    header = list(FIELDS[params["fields"]])
    only = f" Include only the .{ext} files." if params["filter"] == "one_ext" else ""
    facts = {"folder": folder, "workbook": workbook, "sheet": sheet, "header": mc.quoted(header),
             "what": WHAT[params["fields"]], "order": ORDERS[params["order"]], "only": only,
             "scope": f"the .{ext} files" if only else "the files", "columns": COLUMNS[params["fields"]]}
    target = Target(workbook, sheet, header, ext, folder, sub, [(f.name, len(tree.render(f))) for f in files])
    return Goal(mc.Setup((("tree", [*files, *inner]),)), facts, target)


def _rows(t: Target, fields: str, order: str, *, filtered: bool, folder_row: bool = False,
          dotted: bool = False, kilobytes: bool = False) -> list[list[Any]]:
    files = [(n, s) for n, s in t.files if not filtered or oc.ext_of(n) == t.ext]
    if folder_row:
        files.append((t.sub.rsplit("/", 1)[1], 4096))
    if order.startswith("size"):
        files.sort(key=lambda f: f[1], reverse=order == "size_desc")
    else:
        files.sort(key=lambda f: f[0].casefold(), reverse=order == "name_desc")
    rows: list[list[Any]] = []
    for name, size in files:
        if fields == "name_ext":
            rows.append([name, ("." if dotted else "") + oc.ext_of(name)])
        elif fields == "name_size":
            rows.append([name, round(size / 1024) if kilobytes else size])
        else:
            rows.append([name])
    return rows


def rubric(params: Params, target: Target) -> list[Check]:
    t, p = target, params
    rows = _rows(t, p["fields"], p["order"], filtered=p["filter"] == "one_ext")
    return [Check("inventory", f"Sheet '{t.sheet}' of {t.workbook} lists the {count(len(rows), 'asked file')} "
                               f"of {t.folder} under the header {t.header}, {ORDERS[p['order']]}.",
                  "multi.sheet_table", {"path": t.workbook, "sheet": t.sheet, "header": t.header,
                                        "rows": rows, "typed": True})]


def solve(params: Params, target: Target) -> Attempts:
    t, p = target, params
    fields, order, filtered = p["fields"], p["order"], p["filter"] == "one_ext"

    def write(rows: list[list[Any]], header: bool = True) -> list[dict[str, Any]]:
        return [mc.op("multi.write_xlsx", t.workbook, sheet=t.sheet, rows=([t.header] if header else []) + rows)]

    opposite = {"name_asc": "name_desc", "name_desc": "name_asc", "size_desc": "size_asc"}[order]
    misses = [
        Attempt("also lists the subfolder as if it were a file",
                write(_rows(t, fields, order, filtered=filtered, folder_row=True))),
        Attempt("sorts in the opposite direction", write(_rows(t, fields, opposite, filtered=filtered))),
    ]
    if filtered:
        misses.append(Attempt("lists every file, not only the asked type",
                              write(_rows(t, fields, order, filtered=False))))
    else:
        misses.append(Attempt("forgets the last file of the list", write(_rows(t, fields, order, filtered=False)[:-1])))
    extra: tuple[str, dict[str, bool]] = {"name_ext": ("writes the extensions with their dot", {"dotted": True}),
                                          "name_size": ("gives sizes in kilobytes, not bytes", {"kilobytes": True}),
                                          "name_only": ("leaves out the header row", {})}[fields]
    rows = _rows(t, fields, order, filtered=filtered, **extra[1])
    misses.append(Attempt(extra[0], write(rows, header=fields != "name_only")))
    return Attempts(Attempt("list the asked files in the stated order",
                            write(_rows(t, fields, order, filtered=filtered))), misses)


WORKFLOW = family(
    NAME, mc.app_kit((mc.OS, mc.CALC), pool={}),
    description="List the files of a folder (names, extensions or sizes) in a new Calc workbook, sorted, "
                "optionally only one file type.",
    knobs={"fields": tuple(FIELDS), "order": tuple(ORDERS), "filter": ("all", "one_ext")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve, axes=AXES,
)
