"""os.find_act: find every file under a folder tree that matches a stated rule and move or copy them all.

The tree is a project folder with subfolders two levels deep; the matching files sit at every level (at least one
directly in the folder, two or more in subfolders, one two levels down). Knob `match`: files whose `name` contains
a stated word in any letter case (`find -iname '*invoice*'`), or files whose `size` is over a stated number of KB
(`find -size +20k`; the others are far below it, a few just over half of it). Knob `action`: `collect` moves them
all directly into a new folder (no subfolders; the names are unique), `mirror` copies them into a new folder under
the same relative subfolders, leaving the originals.

The rubric lists the destination and the source tree recursively, each file with its content. Near-misses: only
the files directly in the folder (no recursion), a case-sensitive name match or half the size threshold, copying
instead of moving (or moving instead of copying), and the structure kept instead of flattened (or flattened
instead of kept).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers import tree as ptree
from preparers.tree import FileSpec
from workflows.os import kit as oc

NAME = "os.find_act"
WORDS = ("invoice", "receipt", "draft", "scan", "backup", "contract")
SUBFOLDERS = ("2023", "2024", "clients", "archive", "shared", "misc", "q1", "q2", "old", "incoming")
THRESHOLDS = (20, 32, 50)  # KB
PHRASINGS = (
    "Find every file under {root} (in all subfolders, at any depth) {rule}, and {act}. {keep}",
    "Search the whole folder tree {root} recursively for files {rule}. {act_cap}. {keep}",
    "Using find or the file manager's search, locate all files {rule} anywhere below {root} and {act}. {keep}",
    "Some files {rule} are scattered across the subfolders of {root}. Go through every level and {act}. {keep}",
    "Recursively, for each file {rule} inside {root} or any of its subfolders: {act_each}. {keep}",
)
NATURAL = (
    "I have files {rule} all over {root} and its subfolders. Please {act}.",
    "Could you dig through {root}, every subfolder included, find all files {rule} and {act}?",
    "Please {act}: every file {rule}, wherever it sits below {root}.",
    "Go through {root} and all the folders inside it; I want every file {rule} handled: {act}.",
    "I need all files {rule} from anywhere in {root}. Please {act}.",
)


class Params(TypedDict):
    match: Literal["name", "size"]
    action: Literal["collect", "mirror"]


@dataclass(frozen=True)
class Target:
    root: str  # the folder tree searched
    dest: str  # the new folder the matches go to
    hits: tuple[str, ...]  # the matching files (absolute paths)
    slips: tuple[str, ...]  # files a careless match also takes (other case, or between half and the threshold)
    action: str


def _sized(spec: FileSpec, size: int, pool: Mapping[str, Any], rng: random.Random) -> FileSpec:
    """`spec` as a text file of about `size` bytes (a long log, a big export, a long note)."""
    ext = oc.ext_of(spec.name)
    if ext == "csv":
        table = rng.choice(pool["tables"])
        lines = [",".join(map(str, table["header"]))] + [",".join(map(str, r)) for r in table["rows"]]
        head, body = lines[0], lines[1:]
    else:
        source = rng.choice(pool["logs"])["lines"] if ext == "log" else rng.choice(pool["documents"])["lines"]
        head, body = source[0], source[1:] or source
    out, i = [head], 0
    while sum(len(x) + 1 for x in out) < size:
        out.append(body[i % len(body)])
        i += 1
    return FileSpec(spec.path, "text", "\n".join(out) + "\n", mode=spec.mode)


def _folders(rng: random.Random, root: str) -> list[str]:
    """The tree's folders: the root, 2-3 subfolders, and one or two second-level folders."""
    first = rng.sample(SUBFOLDERS, rng.randint(2, 3))
    second = [f"{rng.choice(first)}/{name}" for name in rng.sample([s for s in SUBFOLDERS if s not in first], 2)]
    return [root, *(f"{root}/{f}" for f in first), *(f"{root}/{s}" for s in second)]


def _name_files(files: oc.Files, rng: random.Random, folders: list[str], word: str
                ) -> tuple[list[FileSpec], list[FileSpec], list[FileSpec]]:
    """(matching files, those among them written with a capital, files that do not match)."""
    hits, capital = [], []
    spots = [folders[0], *rng.sample(folders[1:-1], 2), folders[-1], *rng.sample(folders, rng.randint(0, 2))]
    for i, folder in enumerate(spots):
        ext = rng.choice(("pdf", "txt", "jpg", "csv", "md", "png"))
        stem = files.stem(ext)
        upper = i in (1, 3)
        name = (f"{word.capitalize()}-{stem}" if upper else
                rng.choice((f"{word}_{stem}", f"{stem}_{word}", f"{stem}-{word}s")))
        spec = files.content(f"{folder}/{name}.{ext}")
        hits.append(spec)
        if upper:
            capital.append(spec)
    others: list[FileSpec] = []
    count = rng.randint(5, 8)
    while len(others) < count:  # a pool name that happens to hold the word is no bystander
        spec = files.new(rng.choice(folders), rng.choice(("pdf", "txt", "jpg", "csv", "md", "docx")))
        if word not in spec.name.lower():
            others.append(spec)
    return hits, capital, others


def _size_files(files: oc.Files, rng: random.Random, folders: list[str], pool: Mapping[str, Any], limit: int
                ) -> tuple[list[FileSpec], list[FileSpec], list[FileSpec]]:
    """(files over `limit` KB, files between half of it and it, small files)."""
    spots = [folders[0], *rng.sample(folders[1:-1], 2), folders[-1], *rng.sample(folders, rng.randint(0, 1))]
    big = [_sized(files.new(f, rng.choice(("log", "csv", "txt"))), rng.randint(limit * 1300, limit * 2600), pool, rng)
           for f in spots]
    middle = [_sized(files.new(f, rng.choice(("log", "csv", "txt"))), rng.randint(limit * 600, limit * 850), pool,
                     rng) for f in rng.sample(folders, 2)]
    small = [files.new(rng.choice(folders), rng.choice(("pdf", "txt", "jpg", "md", "png", "log")))
             for _ in range(rng.randint(4, 6))]
    small = [s for s in small if len(ptree.render(s)) < limit * 400]  # far below the threshold
    return big, middle, small


def goal(rng: random.Random, params: Params, pool: Mapping[str, Any]) -> Goal[list[FileSpec], Target]:
    match, action = params["match"], params["action"]
    files = oc.Files(pool, rng)
    project = rng.choice(pool["projects"])
    root = oc.place(oc.home(rng.choice((f"Documents/{project}", f"projects/{project}", f"work/{project}"))), params)
    folders = _folders(rng, root)
    if match == "name":
        word = rng.choice(WORDS)
        hits, slips, others = _name_files(files, rng, folders, word)
        rule = f"whose name contains '{word}' (in any letter case)"
        label = f"{word}s"
    else:
        limit = rng.choice(THRESHOLDS)
        hits, slips, others = _size_files(files, rng, folders, pool, limit)
        rule = f"larger than {limit} KB"
        label = "large-files"
        others = [*slips, *others]
    dest = oc.home(rng.choice((f"Desktop/{project}-{label}", f"Documents/{project}-{label}",
                               f"backup/{project}-{label}")))
    if action == "collect":
        act = f"move them all directly into the new folder {dest} (no subfolders there)"
        act_each = f"move it directly into the new folder {dest}, without its subfolder"
        keep = "The other files stay where they are."
    else:
        act = f"copy them into the new folder {dest}, keeping the subfolder each one is in (relative to {root})"
        act_each = f"copy it to the new folder {dest} under the same relative subfolder path as in {root}"
        keep = "Leave the originals and every other file where they are."
    facts = {"root": root, "rule": rule, "act": act, "act_cap": act[0].upper() + act[1:], "act_each": act_each,
             "keep": keep}
    tree = oc.dress(rng, params, pool, [*hits, *others], root, facts)
    return Goal(tree, facts, Target(root, dest, tuple(s.path for s in hits), tuple(s.path for s in slips), action))


def _moves(target: Target, paths: tuple[str, ...] | list[str], *, flat: bool) -> dict[str, str]:
    """source -> destination for `paths`: directly in the destination (`flat`), or under their relative path."""
    return {p: f"{target.dest}/{p.rsplit('/', 1)[1] if flat else p[len(target.root) + 1:]}" for p in paths}


def _after(tree: list[FileSpec], moves: Mapping[str, str], *, copy: bool) -> dict[str, str]:
    """Every file's path after the moves (or copies) -> its sha256."""
    shas = {s.path: oc.sha(s) for s in tree}
    after = {p: sha for p, sha in shas.items() if copy or p not in moves}
    after.update({d: shas[s] for s, d in moves.items()})
    return after


def rubric(tree: list[FileSpec], target: Target) -> list[Check]:
    t = target
    moves = _moves(t, t.hits, flat=t.action == "collect")
    after = _after(tree, moves, copy=t.action == "mirror")
    checks = []
    for check_id, folder, what in (("dest", t.dest, "the matching files"), ("source", t.root, "what remains")):
        prefix = folder + "/"
        contents = {p[len(prefix):]: sha for p, sha in after.items() if p.startswith(prefix)}
        names = sorted(contents)
        checks.append(oc.listing_check(check_id, folder, names, f"Below {folder} are exactly {what}: "
                                       f"{oc.quote_list(names)}, each with its content.", recursive=True,
                                       contents=contents))
    return checks


def _ops(moves: Mapping[str, str], *, copy: bool) -> list[dict[str, Any]]:
    return [{"op": "fs.copy" if copy else "fs.move", "path": s, "dest": d} for s, d in sorted(moves.items())]


def solve(params: Params, target: Target) -> Attempts:
    t = target
    flat, copy = t.action == "collect", t.action == "mirror"
    oracle = _ops(_moves(t, t.hits, flat=flat), copy=copy)
    top = [p for p in t.hits if p.rsplit("/", 1)[0] == t.root]
    misses = [Attempt("only takes the files directly in the folder, not those in subfolders",
                      _ops(_moves(t, top, flat=flat), copy=copy))]
    if params["match"] == "name":
        caught = [p for p in t.hits if p not in t.slips]
        misses.append(Attempt("matches the word case-sensitively, missing the capitalised names",
                              _ops(_moves(t, caught, flat=flat), copy=copy)))
    else:
        misses.append(Attempt("uses half the size threshold, also taking the mid-sized files",
                              _ops(_moves(t, [*t.hits, *t.slips], flat=flat), copy=copy)))
    misses.append(Attempt("copies instead of moving" if flat else "moves instead of copying",
                          _ops(_moves(t, t.hits, flat=flat), copy=not copy)))
    misses.append(Attempt("keeps the subfolders instead of collecting the files in one folder" if flat else
                          "puts every copy directly in the folder, dropping the subfolders",
                          _ops(_moves(t, t.hits, flat=not flat), copy=copy)))
    return Attempts(Attempt("moves or copies exactly the matching files, at every depth", oracle), misses)


WORKFLOW = family(
    NAME, oc.OS,
    description="Find every file below a folder tree whose name contains a word or whose size is over a limit, and "
                "move them into one folder or copy them keeping their subfolders.",
    knobs={"match": ("name", "size"), "action": ("collect", "mirror")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
