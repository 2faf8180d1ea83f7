"""os.cleanup: find and delete files by a stated rule, in one folder or in it and all its subfolders.

Rules: an extension (.tmp, .part, .swp, .pyc), backup files (names ending in `~` or `.bak`), empty (0-byte)
files, files dated before a cutoff by the date in their name, or duplicate copies (" (copy)" in the name).
`depth: flat` keeps matching files in subfolders; `recursive` removes them too. Each tree holds near-matches
a sloppy rule also catches (notes_tmp.txt for *.tmp, a one-byte file for "empty", the cutoff day itself for
"before", the originals of backups). The rubric lists the whole tree: exactly the files that must remain.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers.tree import FileSpec
from workflows.os import kit as oc

NAME = "os.cleanup"
TEMP_EXTS = ("tmp", "part", "swp", "pyc")
PHRASINGS = (
    "Clean up {root}: delete {rule}, {where}. Don't delete anything else.",
    "Please remove {rule}, {where}. All other files must stay.",
    "Using the terminal, find and delete {rule}, {where}. Leave every other file untouched.",
    "{root} is cluttered. Get rid of {rule}, {where}, and keep everything else.",
    "Delete {rule}, {where}. Be careful not to remove any other file.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "{root} is cluttered. Please delete {rule}, {where}.",
    "Could you get rid of {rule}, {where}? Keep everything else.",
    "Clean out {rule}, {where}, and keep every other file.",
    "I want {rule} removed, {where}. Nothing else should go.",
    "Please tidy {root} by deleting {rule}, {where}.",
)


class Params(TypedDict):
    criterion: Literal["ext", "backup", "empty", "dated", "copies"]
    depth: Literal["flat", "recursive"]


@dataclass(frozen=True)
class Target:
    root: str  # the folder to clean up
    delete: list[str]  # the files the rule and the depth select
    hits: list[str]  # every file the rule matches, at any depth
    near: list[str]  # near-matches that must stay
    criterion: str
    depth: str


def _matches(criterion: str, files: oc.Files, rng: random.Random, folder: str, arg: str,
             cutoff: dt.date) -> tuple[list[FileSpec], list[FileSpec]]:
    """(files the rule matches, near-matches that must stay) in `folder`."""
    if criterion == "ext":
        hits = [files.content(f"{folder}/{files.stem('txt')}.{arg}") for _ in range(rng.randint(2, 3))]
        return hits, [files.content(f"{folder}/{files.stem('txt')}_{arg}.txt")]
    if criterion == "backup":
        originals = [files.new(folder, rng.choice(("txt", "conf", "md", "csv"))) for _ in range(2)]
        hits = [FileSpec(originals[0].path + "~", "text", "(older version)\n" + originals[0].text),
                files.content(originals[1].path + ".bak")]
        return hits, originals
    if criterion == "empty":
        hits = [FileSpec(f"{folder}/{files.stem('txt')}.{rng.choice(('txt', 'log', 'md'))}", "empty")
                for _ in range(rng.randint(2, 3))]
        return hits, [FileSpec(f"{folder}/{files.stem('txt')}.txt", "text", "\n")]
    if criterion == "dated":
        service = rng.choice(("backup", "sync", "report", "export"))
        days = rng.sample(range(1, 60), 3)
        hits = [files.content(f"{folder}/{service}-{(cutoff - dt.timedelta(days=d)).isoformat()}.log") for d in days]
        keep = [files.content(f"{folder}/{service}-{(cutoff + dt.timedelta(days=d)).isoformat()}.log")
                for d in (0, rng.randint(1, 20))]
        return hits, keep
    stems = [files.new(folder, rng.choice(("docx", "xlsx", "pdf", "jpg"))) for _ in range(2)]
    hits = [files.content(f"{s.path.rsplit('.', 1)[0]} (copy).{s.path.rsplit('.', 1)[1]}") for s in stems]
    return hits, stems


def goal(rng: random.Random, params: Params, pool: Mapping[str, Any]) -> Goal[list[FileSpec], Target]:
    criterion, depth = params["criterion"], params["depth"]
    files = oc.Files(pool, rng)
    project = rng.choice(pool["projects"])
    root = oc.place(oc.home(rng.choice((f"projects/{project}", f"Documents/{project}", f"work/{project}"))), params)
    subs = [f"{root}/{s}" for s in rng.sample(("drafts", "exports", "old", "logs", "assets"), 2)]
    arg = rng.choice(TEMP_EXTS)
    cutoff = dt.date(rng.choice((2023, 2024, 2025)), rng.randint(2, 11), rng.randint(1, 28))
    spec: list[FileSpec] = []
    hits_all: list[str] = []  # every match, whatever the depth
    near: list[str] = []
    for folder in [root, *subs]:
        spec += [files.new(folder, rng.choice(("pdf", "txt", "csv", "jpg", "docx", "md"))) for _ in range(2)]
        hits, keep = _matches(criterion, files, rng, folder, arg, cutoff)
        spec += hits + keep
        near += [k.path for k in keep]
        hits_all += [h.path for h in hits]
    delete = [p for p in hits_all if depth == "recursive" or p.rsplit("/", 1)[0] == root]
    rule = {"ext": f"every file with the extension .{arg}",
            "backup": "every backup file (a file whose name ends in ~ or in .bak)",
            "empty": "every empty file (0 bytes)",
            "dated": f"every log file whose name carries a date before {cutoff.isoformat()} (files dated "
                     f"{cutoff.isoformat()} or later stay)",
            "copies": "every duplicate whose name contains ' (copy)'"}[criterion]
    where = (f"in {root} and all of its subfolders" if depth == "recursive" else
             f"directly in {root} only (leave its subfolders alone)")
    facts = {"root": root, "rule": rule, "where": where}
    return Goal(oc.dress(rng, params, pool, spec, root, facts), facts,
                Target(root, delete, hits_all, near, criterion, depth))


def rubric(tree: list[FileSpec], target: Target) -> list[Check]:
    t = target
    kept = [s for s in tree if s.path not in t.delete]
    names = oc.listing([s.path for s in kept], t.root, recursive=True)
    # kept files are compared by content too: emptying or overwriting one is not "cleaning up"
    prefix = t.root.rstrip("/") + "/"
    contents = {s.path.removeprefix(prefix): oc.sha(s) for s in kept if s.path.startswith(prefix)}
    return [oc.listing_check("remaining", t.root, names, f"Below {t.root} exactly these files remain, each with "
                             f"its original content: {oc.quote_list(names)}.", recursive=True, contents=contents)]


def _rm(paths: list[str]) -> list[dict[str, Any]]:
    return [{"op": "fs.delete", "path": p} for p in sorted(paths)]


def solve(target: Target) -> Attempts:
    t = target
    delete, root = t.delete, t.root
    misses = []
    if t.depth == "recursive":
        top = [p for p in delete if p.rsplit("/", 1)[0] == root]
        misses.append(Attempt("deletes only in the top folder, forgetting the subfolders", _rm(top)))
    else:
        misses.append(Attempt("also deletes matching files in the subfolders", _rm(t.hits)))
    near_top = [p for p in t.near if p.rsplit("/", 1)[0] == root]
    why = {"ext": "uses a loose pattern that also catches names merely containing the extension",
           "backup": "also deletes the originals of the backups", "empty": "also deletes a file holding one newline",
           "dated": "also deletes the file dated on the cutoff day (before-or-on)",
           "copies": "deletes the originals too"}[t.criterion]
    misses.append(Attempt(why, _rm(delete + near_top[:1])))
    misses.append(Attempt("misses one matching file", _rm(delete[1:])))
    return Attempts(Attempt("deletes exactly the matching files", _rm(delete)), misses)


WORKFLOW = family(
    NAME, oc.OS,
    description="Delete files by extension, backups (~, .bak), empty files, files dated before a day, or copies.",
    knobs={"criterion": ("ext", "backup", "empty", "dated", "copies"), "depth": ("flat", "recursive")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
