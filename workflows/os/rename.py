"""os.rename: rename many files by a stated pattern (prefix, suffix, replace, lower case, spaces, date, extension).

Scope `all` renames every file of a folder; `ext` only the files with one extension while other files (which
would match the pattern too) must keep their names. The rubric compares the folder as a whole: exactly the
renamed names, each holding its original content. Near-misses are the classic slips: the suffix after the
extension, the extension left in capitals, a separator forgotten, a file skipped, the wrong files renamed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers.tree import FileSpec
from workflows.os import kit as oc

NAME = "os.rename"
EXTS = ("pdf", "jpg", "docx", "txt", "png", "mp3", "csv")
WORDS = (("draft", "final"), ("old", "archived"), ("copy", "backup"), ("wip", "done"), ("v1", "v2"))
EXT_CHANGES = (("jpeg", "jpg"), ("htm", "html"), ("text", "txt"), ("yml", "yaml"), ("markdown", "md"))
SUFFIXES = ("_final", "_v2", "_approved", "_signed", "_reviewed")
PHRASINGS = (
    "Rename {which}: {how} Keep the files in {folder} and don't change their content.",
    "In {folder}, {how_lc} This applies to {which_short}. Don't move or edit the files.",
    "Please batch-rename the files in {folder}. {how} This concerns {which_short}.",
    "Use the terminal (or the file manager) to rename {which}. {how} The files stay in {folder}.",
    "The names of the files in {folder} need fixing. {how} Do this for {which_short}, nothing else.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Please rename {which}: {how_lc}",
    "The names of {which} need fixing: {how_lc}",
    "Could you rename {which}? {how}",
    "I want {which} renamed. {how} Leave the files where they are.",
    "Rename {which}, please. {how}",
)


class Params(TypedDict):
    pattern: Literal["prefix", "suffix", "replace", "lowercase", "spaces", "date_prefix", "extension"]
    scope: Literal["all", "ext"]


@dataclass(frozen=True)
class Target:
    folder: str  # the folder whose files are renamed
    renames: dict[str, str]  # old path -> new path, for every file the rule changes
    others: list[str]  # paths of the files of another type that keep their names (scope `ext`)
    pattern: str
    arg: str  # the prefix, suffix, date or "old|new" of the pattern


def _split(name: str) -> tuple[str, str]:
    stem, _, ext = name.rpartition(".")
    return stem, ext


def _rule(pattern: str, arg: str) -> Callable[[str], str]:
    """name -> new name for the pattern (the oracle's rule); `arg` is the prefix, suffix, date or "old|new"."""
    old, _, new = arg.partition("|")

    def apply(name: str) -> str:
        stem, ext = _split(name)
        if pattern == "prefix":
            return f"{arg}{name}"
        if pattern == "date_prefix":
            return f"{arg}_{name}"
        if pattern == "suffix":
            return f"{stem}{arg}.{ext}"
        if pattern == "replace":
            return name.replace(old, new)
        if pattern == "lowercase":
            return name.lower()
        if pattern == "spaces":
            return name.replace(" ", "_")
        return f"{stem}.{new}"  # extension
    return apply


#: pattern -> (the plausible wrong rule, what it gets wrong)
SLIPS: dict[str, tuple[Callable[[str, str], str], str]] = {
    "prefix": (lambda name, arg: f"{arg.rstrip('_-')}{name}", "forgets the separator of the prefix"),
    "date_prefix": (lambda name, arg: f"{arg.replace('-', '')}_{name}", "writes the date without dashes"),
    "suffix": (lambda name, arg: f"{name}{arg}", "puts the suffix after the extension"),
    "replace": (lambda name, arg: name.replace(arg.split("|")[0], arg.split("|")[1].capitalize()),
                "capitalizes the new word"),
    "lowercase": (lambda name, arg: f"{_split(name)[0].lower()}.{_split(name)[1]}",
                  "lowercases the name but not the extension"),
    "spaces": (lambda name, arg: name.replace(" ", "-"), "uses hyphens instead of underscores"),
    "extension": (lambda name, arg: f"{name}.{arg.split('|')[1]}",
                  "appends the new extension instead of replacing the old one"),
}


def _names(pattern: str, arg: str, files: oc.Files, rng: random.Random, ext: str, n: int) -> list[str]:
    """n file names with extension `ext` that the pattern applies to (all but one, for "replace")."""
    old, _, new = arg.partition("|")
    names = []
    for i in range(n):
        stem, suffix = files.stem(ext), ext
        while pattern == "replace" and (old in stem or new in stem):
            stem = files.stem(ext)
        if pattern == "replace" and i < n - 1:
            stem = rng.choice((f"{stem}_{old}", f"{old}_{stem}"))
        elif pattern == "lowercase":
            stem = stem.replace("_", " ").title().replace(" ", rng.choice(("_", "", "-")))
            suffix = ext.upper() if i % 2 == 0 else ext
        elif pattern == "spaces":
            stem = (stem.replace("_", " ").replace("-", " ") if "_" in stem or "-" in stem else f"{stem} notes")
            stem = stem[0].upper() + stem[1:] if i % 2 else stem
        names.append(f"{stem}.{suffix}")
    return names


def goal(rng: random.Random, params: Params, pool: Mapping[str, Any]) -> Goal[list[FileSpec], Target]:
    pattern, scope = params["pattern"], params["scope"]
    files = oc.Files(pool, rng)
    project = rng.choice(pool["projects"])
    if pattern == "extension":
        old_ext, new_ext = rng.choice(EXT_CHANGES)
        ext, arg = old_ext, f"{old_ext}|{new_ext}"
    else:
        ext = rng.choice(EXTS)
        arg = {"prefix": f"{project}_", "suffix": rng.choice(SUFFIXES), "replace": "|".join(rng.choice(WORDS)),
               "date_prefix": f"{rng.randint(2023, 2025)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
               "lowercase": "", "spaces": ""}[pattern]
    folder = oc.place(oc.home(rng.choice((f"Documents/{project}", f"work/{project}", f"Pictures/{project}"
                                          if ext in oc.IMAGE_EXTS else f"Documents/{project}/files"))), params)
    targets = _names(pattern, arg, files, rng, ext, rng.randint(4, 6))
    others = []
    if scope == "ext":
        other_ext = rng.choice([e for e in EXTS if e != ext])
        others = _names(pattern, arg, files, rng, other_ext, rng.randint(2, 3))
    spec = [files.content(f"{folder}/{name}") for name in targets + others]
    rule = _rule(pattern, arg)
    example = f"example.{ext}"
    how = {
        "prefix": f"add the prefix '{arg}' in front of each name (so {example} becomes {rule(example)}).",
        "date_prefix": f"put the date {arg} and an underscore in front of each name (so {example} becomes "
                       f"{rule(example)}).",
        "suffix": f"add '{arg}' to the end of each name, before the extension (so {example} becomes "
                  f"{rule(example)}).",
        "replace": f"replace '{arg.partition('|')[0]}' with '{arg.partition('|')[2]}' in every name that contains it.",
        "lowercase": "change each name to all lower case, extension included (so Example.PDF becomes example.pdf).",
        "spaces": "replace every space in each name with an underscore (so 'my file.txt' becomes my_file.txt).",
        "extension": f"change the extension from .{arg.partition('|')[0]} to .{arg.partition('|')[2]}, keeping "
                     "the rest of each name.",
    }[pattern]
    also = f" (also those ending in .{ext.upper()})" if pattern == "lowercase" else ""
    which = f"the .{ext} files in {folder}{also}" if scope == "ext" else f"every file in {folder}"
    which_short = f"the .{ext} files{also}, leaving the other files' names alone even if the rule would apply to " \
                  "them" if scope == "ext" else "every file in the folder"
    facts = {"folder": folder, "which": which, "which_short": which_short, "how": how[0].upper() + how[1:],
             "how_lc": how}
    renames = {f"{folder}/{n}": f"{folder}/{rule(n)}" for n in targets if rule(n) != n}
    return Goal(oc.dress(rng, params, pool, spec, folder, facts), facts,
                Target(folder, renames, [f"{folder}/{n}" for n in others], pattern, arg))


def rubric(tree: list[FileSpec], target: Target) -> list[Check]:
    t = target
    after = {t.renames.get(s.path, s.path): s for s in tree}
    names = oc.listing(after, t.folder)
    contents = {p.rsplit("/", 1)[1]: oc.sha(s) for p, s in after.items() if p.rsplit("/", 1)[0] == t.folder}
    return [oc.listing_check("renamed", t.folder, names, f"{t.folder} holds exactly {oc.quote_list(names)}, each "
                             "with its original content.", contents=contents)]


def _ops(renames: Mapping[str, str]) -> list[dict[str, Any]]:
    return [{"op": "fs.rename", "path": s, "name": d.rsplit("/", 1)[1]} for s, d in renames.items()]


def solve(target: Target) -> Attempts:
    t = target
    renames = t.renames
    slip, why = SLIPS[t.pattern]
    wrong = {s: f"{t.folder}/{slip(s.rsplit('/', 1)[1], t.arg)}" for s in renames}
    skipped = dict(list(renames.items())[:-1])
    misses = [Attempt(why, _ops(wrong)), Attempt("skips one of the files", _ops(skipped))]
    rule = _rule(t.pattern, t.arg)
    extra = {s: f"{t.folder}/{rule(s.rsplit('/', 1)[1])}" for s in t.others}
    extra = {s: d for s, d in extra.items() if s != d}
    if extra:
        misses.append(Attempt("also renames the files of another type", _ops({**renames, **extra})))
    else:
        copies = [{"op": "fs.copy", "path": s, "dest": d} for s, d in renames.items()]
        misses.append(Attempt("copies the files under the new names, keeping the old ones", copies))
    return Attempts(Attempt("renames exactly the stated files by the rule", _ops(renames)), misses)


WORKFLOW = family(
    NAME, oc.OS,
    description="Batch-rename files by a stated rule (prefix, suffix, replace, lower case, spaces, date, extension).",
    knobs={"pattern": ("prefix", "suffix", "replace", "lowercase", "spaces", "date_prefix", "extension"),
           "scope": ("all", "ext")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
