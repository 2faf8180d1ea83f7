"""os.organize: sort a messy folder by file extension into stated folders.

Mappings: one extension to one folder, two extensions to two folders, a group of extensions (all images ...)
to one folder, or every file into a subfolder of the source named after its extension. Destination folders
are new or already hold files that must stay; with `case: mixed` some files carry upper-case extensions
(IMG_2041.JPG) that count as the same type — the classic miss of `mv *.jpg`.
The rubric compares whole folders: each destination holds exactly its old files plus the moved ones, with
their original content, and the source keeps only what should stay.
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

NAME = "os.organize"
SOURCES = ("Downloads", "Desktop", "Documents/inbox", "Documents/unsorted")
SINGLES = ("pdf", "docx", "txt", "jpg", "png", "csv", "xlsx", "mp3", "wav")
GROUPS = {"images": ("jpg", "png", "gif"), "documents": ("pdf", "docx", "txt"), "audio files": ("mp3", "wav"),
          "spreadsheets": ("csv", "xlsx")}
PHRASINGS = (
    "The folder {src} is a mess. {moves} Keep the file names as they are. {keep}{case}",
    "Please tidy up {src}: {moves_lc} Don't rename anything. {keep}{case}",
    "Organize the files in {src} by type. {moves} Create any folder that doesn't exist yet. {keep}{case}",
    "Using the terminal or the file manager, clean up {src}. {moves} The moved files must keep their names and "
    "content. {keep}{case}",
    "I need {src} sorted by file extension. {moves} Don't change the files themselves. {keep}{case}",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "{src} is a mess. {moves}{case}",
    "Please tidy up {src}: {moves_lc}{case}",
    "Sort {src} by file type. {moves}{case}",
    "I'd like {src} organized. {moves} {keep}{case}",
    "Help me clean up {src}. {moves}{case}",
)


class Params(TypedDict):
    mapping: Literal["one_ext", "two_exts", "ext_group", "by_ext"]
    dest: Literal["new", "existing"]
    case: Literal["exact", "mixed"]


@dataclass(frozen=True)
class Target:
    src: str  # the messy folder
    moves: dict[str, str]  # source path -> destination path, for every file that moves
    dests: list[str]  # the destination folders, one per extension group


def _dest_for(ext: str, pool: Mapping[str, Any], rng: random.Random) -> str:
    project = rng.choice(pool["projects"])
    if ext in oc.IMAGE_EXTS:
        return oc.home(rng.choice((f"Pictures/{project}", "Pictures/sorted", f"Pictures/{ext}_files")))
    if ext in oc.AUDIO_EXTS:
        return oc.home(rng.choice((f"Music/{project}", "Music/recordings")))
    if ext in oc.DATA_EXTS:
        return oc.home(rng.choice((f"Documents/{project}/data", "Documents/spreadsheets")))
    return oc.home(rng.choice((f"Documents/{project}", "Documents/papers") + (("Documents/PDFs",) if ext == "pdf"
                                                                              else ())))


def goal(rng: random.Random, params: Params, pool: Mapping[str, Any]) -> Goal[list[FileSpec], Target]:
    files = oc.Files(pool, rng)
    src = oc.place(oc.home(rng.choice(SOURCES)), params)
    mapping, mixed = params["mapping"], params["case"] == "mixed"
    groups: list[tuple[str, ...]]
    if mapping == "one_ext":
        groups = [(rng.choice(SINGLES),)]
    elif mapping == "two_exts":
        first = rng.choice(SINGLES)
        groups = [(first,), (rng.choice([e for e in SINGLES if _family(e) != _family(first)]),)]
    elif mapping == "ext_group":
        groups = [GROUPS[rng.choice(sorted(GROUPS))]]
    else:
        groups = [(e,) for e in rng.sample(("pdf", "jpg", "docx", "csv", "mp3", "png", "txt"), 4)]
    moved_exts = {e for g in groups for e in g}
    dests = [f"{src}/{g[0]}" if mapping == "by_ext" else _dest_for(g[0], pool, rng) for g in groups]
    while len(set(dests)) < len(dests):
        dests[-1] = _dest_for(groups[-1][0], pool, rng)
    spec: list[FileSpec] = []
    moves: dict[str, str] = {}  # source path -> dest path
    for group, dest in zip(groups, dests, strict=True):
        for i in range(rng.randint(3, 5) if len(group) == 1 else 2 * len(group) + 1):
            ext = group[i % len(group)]
            item = files.new(src, ext, upper=mixed and (i % 3 == 1))
            spec.append(item)
            moves[item.path] = f"{dest}/{item.name}"
        if params["dest"] == "existing":
            spec += [files.new(dest, rng.choice(group)) for _ in range(rng.randint(1, 2))]
    others = [e for e in ("pdf", "docx", "txt", "jpg", "png", "csv", "xlsx", "mp3", "md", "gif", "wav")
              if e not in moved_exts] if mapping != "by_ext" else []
    spec += [files.new(src, e) for e in rng.sample(others, min(len(others), rng.randint(4, 6)))]
    if mapping == "by_ext":
        what = (f"move every file into a subfolder of {src} named after its extension in lower case: "
                + oc.quote_list(dests).replace("'", "") + ".")
    elif mapping == "ext_group":
        exts = oc.quote_list(["." + e for e in groups[0]]).replace("'", "")
        what = f"move all {_family(groups[0][0])} (the {exts} files) into {dests[0]}."
    else:
        what = "move " + " and ".join(f"every .{g[0]} file into {d}" for g, d in zip(groups, dests, strict=True)) + "."
    upper = next((s.name for s in spec if s.path in moves and s.name != s.name.lower()), "")
    case = (f" Extensions count whatever their letter case: a file such as {upper} belongs with the "
            f".{oc.ext_of(upper)} files.") if mixed else ""
    keep = f"No file should be left loose in {src}." if mapping == "by_ext" else \
        f"Files of any other type stay in {src}."
    facts = {"src": src, "moves": what[0].upper() + what[1:], "moves_lc": what, "keep": keep, "case": case}
    return Goal(oc.dress(rng, params, pool, spec, src, facts), facts, Target(src, moves, dests))


def _family(ext: str) -> str:
    return next((name for name, exts in GROUPS.items() if ext in exts), ext)


def rubric(tree: list[FileSpec], target: Target) -> list[Check]:
    t = target
    after = {t.moves.get(s.path, s.path): s for s in tree}
    checks = []
    for i, dest in enumerate(t.dests, start=1):
        names = oc.listing(after, dest)
        contents = {p.rsplit("/", 1)[1]: oc.sha(s) for p, s in after.items() if p.rsplit("/", 1)[0] == dest}
        checks.append(oc.listing_check(f"dest{i}", dest, names, f"{dest} holds exactly {oc.quote_list(names)}, "
                                       "each with its original content.", contents=contents))
    names = oc.listing(after, t.src)
    contents = {p.rsplit("/", 1)[1]: oc.sha(s) for p, s in after.items() if p.rsplit("/", 1)[0] == t.src}
    checks.append(oc.listing_check("source", t.src, names, f"{t.src} holds exactly {oc.quote_list(names)}, "
                                   "the files left there with their original content.", contents=contents))
    return checks


def _moves(moves: Mapping[str, str], op: str = "fs.move") -> list[dict[str, Any]]:
    return [{"op": op, "path": s, "dest": d} for s, d in moves.items()]


def solve(params: Params, tree: list[FileSpec], target: Target) -> Attempts:
    t = target
    moves = t.moves
    upper = {s: d for s, d in moves.items() if s.rsplit(".", 1)[1] != s.rsplit(".", 1)[1].lower()}
    misses = [Attempt("copies the files instead of moving them", _moves(moves, "fs.copy"))]
    if upper and params["mapping"] == "by_ext":
        wrong = {s: (f"{d.rsplit('/', 2)[0]}/{oc.ext_of(s).upper()}/{s.rsplit('/', 1)[1]}" if s in upper else d)
                 for s, d in moves.items()}
        misses.append(Attempt("names folders after the extension as written (JPG, not jpg)", _moves(wrong)))
    elif upper:
        misses.append(Attempt("matches extensions case-sensitively, leaving .JPG-style files",
                              _moves({s: d for s, d in moves.items() if s not in upper})))
    else:
        last = sorted(moves)[-1]
        misses.append(Attempt("misses one matching file", _moves({s: d for s, d in moves.items() if s != last})))
    stay = sorted(s.path for s in tree if s.path.rsplit("/", 1)[0] == t.src and s.path not in moves)
    if stay:
        extra = {stay[0]: f"{t.dests[0]}/{stay[0].rsplit('/', 1)[1]}"}
        misses.append(Attempt("also moves a file of another type", _moves({**moves, **extra})))
    else:  # by_ext: every file moves
        loud = {s: f"{d.rsplit('/', 2)[0]}/{oc.ext_of(s).upper()}/{s.rsplit('/', 1)[1]}" for s, d in moves.items()}
        misses.append(Attempt("names the subfolders in upper case (PDF, JPG)", _moves(loud)))
    return Attempts(Attempt("moves exactly the matching files", _moves(moves)), misses)


WORKFLOW = family(
    NAME, oc.OS,
    description="Move files by extension from a messy folder into stated (new or existing) folders.",
    knobs={"mapping": ("one_ext", "two_exts", "ext_group", "by_ext"), "dest": ("new", "existing"),
           "case": ("exact", "mixed")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
