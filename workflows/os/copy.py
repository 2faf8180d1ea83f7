"""os.copy: copy files — a .bak backup next to a file, a file or every file of a type into a folder, a whole folder.

The rubric requires the copies (names and content) and the originals untouched. For a folder copy the new path
is stated and must not end up nested (`cp -r src dest` when dest exists gives dest/src). Near-misses: moving
instead of copying, the backup under another name (.backup, ~), a file left out, a folder copied without its
subfolder or nested one level too deep.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers.tree import FileSpec
from workflows.os import kit as oc

NAME = "os.copy"
PHRASINGS = (
    "{task} The originals must stay where they are, unchanged.",
    "Please make copies: {task_lc} Don't move or modify the original files.",
    "Using the terminal or the file manager, {task_lc} Keep the originals in place.",
    "Before I change anything, I want a backup. {task} Leave the source files as they are.",
    "Copy (not move) as follows. {task} Nothing in the source location should change.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "{task} Keep the originals where they are.",
    "Please {task_lc}",
    "I want a safety copy first: {task_lc}",
    "Could you do this for me? {task} The originals stay where they are.",
    "Quick favour: {task_lc} The source files must stay untouched.",
)


class Params(TypedDict):
    what: Literal["file_bak", "file_to_folder", "ext_to_folder", "folder"]


@dataclass(frozen=True)
class Target:
    what: str  # the `what` knob
    copies: dict[str, str]  # source path -> the copy's path
    folder: str  # the folder the sources are in
    dest: str  # where the copies go (the new folder, for a folder copy)


def goal(rng: random.Random, params: Params, pool: Mapping[str, Any]) -> Goal[list[FileSpec], Target]:
    what = params["what"]
    files = oc.Files(pool, rng)
    project = rng.choice(pool["projects"])
    folder = oc.place(oc.home(rng.choice((f"Documents/{project}", f"projects/{project}", f"work/{project}"))), params)
    backup = oc.home(rng.choice(("Backups", f"Backups/{project}", "Documents/backup", "USB/backup")))
    exts = rng.sample(("pdf", "csv", "docx", "jpg", "txt", "xlsx"), 3)
    spec: list[FileSpec] = [files.new(folder, e) for e in exts for _ in range(2)]
    copies: dict[str, str] = {}  # source -> copy
    if what == "file_bak":
        config = files.new(oc.home(f".config/{rng.choice(pool['settings'])['app']}"), rng.choice(("conf", "ini")))
        spec.append(config)
        copies[config.path] = config.path + ".bak"
        task = (f"Make a backup copy of {config.path} in the same folder, named {config.path}.bak (same content).")
    elif what == "file_to_folder":
        source = rng.choice(spec)
        spec.append(files.new(backup, rng.choice(exts)))  # the backup folder exists and holds something
        copies[source.path] = f"{backup}/{source.name}"
        task = f"Copy the file {source.path} into the folder {backup}, keeping its name."
    elif what == "ext_to_folder":
        ext = exts[0]
        spec.append(files.new(backup, exts[1]))
        copies = {s.path: f"{backup}/{s.name}" for s in spec if s.path.startswith(folder + "/") and
                  s.name.endswith("." + ext)}
        task = f"Copy every .{ext} file from {folder} into the folder {backup}, keeping their names."
    else:
        sub = f"{folder}/{rng.choice(('assets', 'notes', 'data'))}"
        spec += [files.new(sub, rng.choice(exts)) for _ in range(2)]
        dest = f"{backup}/{folder.rsplit('/', 1)[1]}-copy"
        copies = {s.path: dest + s.path[len(folder):] for s in spec if s.path.startswith(folder + "/")}
        task = (f"Copy the whole folder {folder}, subfolders included, to {dest} (that new folder should hold the "
                f"same files and subfolders as {folder}, not a folder inside it).")
    facts = {"task": task, "task_lc": task[0].lower() + task[1:]}
    dest = f"{backup}/{folder.rsplit('/', 1)[1]}-copy" if what == "folder" else backup
    near = next(iter(copies)) if what == "file_bak" else folder  # the look-alikes sit beside what is copied
    return Goal(oc.dress(rng, params, pool, spec, near, facts), facts, Target(what, copies, folder, dest))


def rubric(tree: list[FileSpec], target: Target) -> list[Check]:
    t = target
    by_path = {s.path: s for s in tree}
    if t.what == "file_bak":
        (source, copy), = t.copies.items()
        sha = oc.sha(by_path[source])
        return [Check("copy", f"{copy} is a copy of {source}.", "fs.same_content", {"path": copy, "sha256": sha}),
                Check("original", f"{source} is unchanged.", "fs.same_content", {"path": source, "sha256": sha})]
    checks = []
    after = {**{p: oc.sha(s) for p, s in by_path.items()}, **{c: oc.sha(by_path[s]) for s, c in t.copies.items()}}
    for i, (folder, recursive) in enumerate(((t.dest, t.what == "folder"), (t.folder, True)), start=1):
        names = oc.listing(after, folder, recursive=recursive)
        contents = {p[len(folder) + 1:]: sha for p, sha in after.items()
                    if p.startswith(folder + "/") and (recursive or "/" not in p[len(folder) + 1:])}
        label = "the copies" if i == 1 else "the originals, unchanged"
        checks.append(oc.listing_check(f"listing{i}", folder, names, f"{folder} holds exactly {oc.quote_list(names)}"
                                       f" ({label}).", recursive=recursive, contents=contents))
    return checks


def _ops(pairs: Mapping[str, str], op: str = "fs.copy") -> list[dict[str, Any]]:
    return [{"op": op, "path": s, "dest": d} for s, d in pairs.items()]


def solve(target: Target) -> Attempts:
    t = target
    copies = t.copies
    misses = [Attempt("moves instead of copying", _ops(copies, "fs.move"))]
    if t.what == "file_bak":
        (source, copy), = copies.items()
        misses += [Attempt("names the backup .backup", _ops({source: source + ".backup"})),
                   Attempt("names the backup with a trailing ~", _ops({source: source + "~"}))]
    elif t.what == "folder":
        top = {s: d for s, d in copies.items() if "/" not in s[len(t.folder) + 1:]}
        nested = {s: f"{t.dest}/{t.folder.rsplit('/', 1)[1]}{s[len(t.folder):]}" for s in copies}
        misses += [Attempt("copies only the top-level files (cp without -r)", _ops(top)),
                   Attempt("nests the folder inside the destination", _ops(nested))]
    elif t.what == "ext_to_folder":
        misses.append(Attempt("leaves one file out", _ops(dict(list(copies.items())[:-1]))))
    else:
        (source, copy), = copies.items()
        renamed = {source: f"{copy.rsplit('.', 1)[0]}_copy.{copy.rsplit('.', 1)[1]}"}
        misses.append(Attempt("gives the copy a different name", _ops(renamed)))
    return Attempts(Attempt("copies exactly the asked files", _ops(copies)), misses)


WORKFLOW = family(
    NAME, oc.OS,
    description="Copy files: a .bak backup, a file or every file of a type into a folder, or a whole folder.",
    knobs={"what": ("file_bak", "file_to_folder", "ext_to_folder", "folder")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
