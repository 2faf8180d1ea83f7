"""os.permissions: change permission bits — make scripts executable, files private / read-only, folders private.

Targets: `exec` (the owner can run it: `chmod +x` and `chmod u+x` both pass), exact modes 755, 600, 444 and 640,
and `dir_700` for folders. Scope `one` names a single file (or folder); `all_ext` means every file with one
extension in a folder (for folders: every listed subfolder). The rubric checks the target modes and that every
other entry of the folder keeps its mode, so over-applying (`chmod -R`, `chmod 600 *`) fails as well as
near-miss modes (400 for 600, 775 for 755, 750 for 700).
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

NAME = "os.permissions"
#: target -> (mode to set or "+500" for "executable", how it is said, near-miss modes with why)
TARGETS: dict[str, tuple[str, str, tuple[tuple[str, str], ...]]] = {
    "exec": ("+500", "executable (so you can run it directly)",
             (("600", "makes it private instead of executable"), ("644", "leaves it non-executable"))),
    "mode_755": ("755", "mode 755 (rwxr-xr-x: everyone may read and run it, only you may change it)",
                 (("775", "gives the group write access too (775)"),
                  ("744", "sets 744, leaving others unable to run it"))),
    "private_600": ("600", "private, mode 600 (rw-------: only you may read and write it)",
                    (("400", "makes it read-only for the owner (400) instead"), ("660", "lets the group in (660)"))),
    "readonly_444": ("444", "read-only for everyone, mode 444 (r--r--r--)",
                     (("400", "makes it readable only by the owner (400)"), ("555", "adds execute bits (555)"))),
    "group_640": ("640", "mode 640 (rw-r-----: you read and write, the group reads, others nothing)",
                  (("604", "swaps group and other bits (604)"), ("660", "lets the group write too (660)"))),
    "dir_700": ("700", "private, mode 700 (rwx------: only you may open it), while the files inside keep their "
                "own modes",
                (("750", "leaves the group able to open it (750)"), ("755", "leaves it open to everyone (755)"))),
}
EXTS = {"exec": ("sh",), "mode_755": ("sh",), "private_600": ("env", "csv", "txt", "pdf"),
        "readonly_444": ("pdf", "csv", "docx", "txt"), "group_640": ("csv", "pdf", "md", "xlsx"),
        "dir_700": ("pdf", "csv", "txt", "docx")}
PHRASINGS = (
    "Change the permissions of {what} so that {it_is} {how}. Leave the permissions of everything else in "
    "{folder} as they are.",
    "{Target} Please make {it} {how}. Don't change the permissions of anything else in {folder}.",
    "Using the terminal, set the permissions so that {what} {is_are} {how}. Nothing else in {folder} should "
    "change.",
    "Set up {what} properly: {it} should be {how}. Other entries of {folder} keep their current modes.",
    "Fix the file permissions in {folder}. {Target} Make {it} {how}, and leave the rest of the folder alone.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Please make {what} {how}.",
    "{Target} Could you make {it} {how}?",
    "I need {what} to be {how}; leave everything else in {folder} as it is.",
    "Can you fix the permissions so {what} {is_are} {how}?",
    "{Target} Set things up so {it_is} {how}.",
)


class Params(TypedDict):
    target: Literal["exec", "mode_755", "private_600", "readonly_444", "group_640", "dir_700"]
    scope: Literal["one", "all_ext"]


@dataclass(frozen=True)
class Target:
    folder: str  # the folder whose entries the task is about
    modes: dict[str, str]  # path -> the mode to set ("+500": executable by the owner)
    kind: str  # the `target` knob: a key of TARGETS
    scope: str


def goal(rng: random.Random, params: Params, pool: Mapping[str, Any]) -> Goal[list[FileSpec], Target]:
    kind, scope = params["target"], params["scope"]
    files = oc.Files(pool, rng)
    project = rng.choice(pool["projects"])
    mode, how, _ = TARGETS[kind]
    ext = rng.choice(EXTS[kind])
    folder = oc.place(oc.home(rng.choice(("bin", "scripts", f"projects/{project}/bin")) if ext == "sh" else
                              rng.choice((f"Documents/{project}", "Documents/private", f"work/{project}/records"))),
                      params)
    spec: list[FileSpec] = []
    if kind == "dir_700":
        subs = [f"{folder}/{s}" for s in rng.sample(("clients", "contracts", "payroll", "medical", "taxes",
                                                     "personal"), 2 if scope == "all_ext" else 1)]
        for sub in subs:
            spec += [files.new(sub, rng.choice(EXTS[kind])) for _ in range(rng.randint(2, 3))]
        targets = subs
    else:
        targets = [files.new(folder, ext).path for _ in range(rng.randint(3, 4) if scope == "all_ext" else 1)]
        spec += [files.content(p) for p in targets]
        if scope == "one":  # siblings of the same type, which must keep their mode
            spec += [files.new(folder, ext) for _ in range(rng.randint(1, 2))]
    others = [e for e in ("md", "txt", "conf", "csv", "pdf") if e != ext]
    spec += [files.new(folder, e) for e in rng.sample(others, rng.randint(2, 3))]
    noun = "folder" if kind == "dir_700" else "file"
    if scope == "one":
        what, it, is_are, target = targets[0], "it", "is", f"The {noun} is {targets[0]}."
    elif kind == "dir_700":
        what, it, is_are = "the folders " + oc.quote_list(targets).replace("'", ""), "each of them", "are"
        target = f"The folders are {oc.quote_list(targets)}."
    else:
        what, it, is_are = f"every .{ext} file in {folder}", "each of them", "is"
        target = f"This concerns every .{ext} file in {folder}, and only those."
    facts = {"what": what, "it": it, "it_is": "it is" if scope == "one" else "each of them is", "is_are": is_are,
             "how": how, "folder": folder, "Target": target}
    return Goal(oc.dress(rng, params, pool, spec, folder, facts), facts,
                Target(folder, {p: mode for p in targets}, kind, scope))


def _folder_modes(spec: list[FileSpec], folder: str, changed: Mapping[str, str]) -> dict[str, str]:
    """Every entry of `folder` -> its expected mode: the changed ones', files' own, subfolders 755."""
    modes = {}
    for name in oc.listing([s.path for s in spec], folder):
        path = f"{folder}/{name}"
        own = next((s.mode for s in spec if s.path == path), None)
        modes[name] = changed.get(path, f"{own:03o}" if own is not None else "755")
    return modes


def rubric(tree: list[FileSpec], target: Target) -> list[Check]:
    t = target
    checks = []
    if t.scope == "one" or t.kind == "dir_700":
        for i, (path, mode) in enumerate(sorted(t.modes.items()), start=1):
            if mode.startswith("+"):
                checks.append(Check(f"target{i}", f"{path} is executable by its owner (read and execute bits set).",
                                    "fs.mode_bits", {"path": path, "require": mode[1:]}))
            else:
                checks.append(Check(f"target{i}", f"{path} has mode {mode}.", "fs.file_mode",
                                    {"path": path, "mode": mode}))
    folders = [t.folder] + (sorted(t.modes) if t.kind == "dir_700" else [])
    for i, folder in enumerate(folders, start=1):
        expected = _folder_modes(tree, folder, t.modes)
        checks.append(Check(f"folder{i}", f"In {folder}, the entries have these modes: {expected}.",
                            "fs.dir_modes", {"path": folder, "modes": expected}))
    # a mode change leaves every file's bytes as they were: an emptied or rewritten script is not "chmod"
    prefix = t.folder.rstrip("/") + "/"
    inside = [s for s in tree if s.path.startswith(prefix)]
    names = oc.listing([s.path for s in inside], t.folder, recursive=True)
    checks.append(oc.listing_check("content", t.folder, names, f"Below {t.folder} the files are still "
                                   f"{oc.quote_list(names)}, each with its original content.", recursive=True,
                                   contents={s.path.removeprefix(prefix): oc.sha(s) for s in inside}))
    return checks


def _chmod(paths: list[str], mode: str, **extra: Any) -> list[dict[str, Any]]:
    return [{"op": "fs.chmod", "path": p, "mode": "755" if mode == "+500" else mode, **extra} for p in paths]


def solve(tree: list[FileSpec], target: Target) -> Attempts:
    t = target
    targets = sorted(t.modes)
    mode, _, wrong_modes = TARGETS[t.kind]
    misses = [Attempt(why, _chmod(targets, wrong)) for wrong, why in wrong_modes]
    if t.kind == "dir_700":
        misses.append(Attempt("applies the mode recursively (chmod -R 700), files included",
                              _chmod(targets, mode, recursive=True)))
    elif t.scope == "one":
        siblings = sorted(s.path for s in tree if s.path.rsplit("/", 1)[0] == t.folder and s.path not in targets)
        misses.append(Attempt("changes every file in the folder, not just the one asked",
                              _chmod(targets + siblings, mode)))
    else:
        misses.append(Attempt("misses one of the files", _chmod(targets[:-1], mode)))
    return Attempts(Attempt("sets the asked mode on exactly the targets", _chmod(targets, mode)), misses)


WORKFLOW = family(
    NAME, oc.OS,
    description="Set permission bits: executable scripts, private (600/700), read-only (444), 640 or 755 modes.",
    knobs={"target": tuple(TARGETS), "scope": ("one", "all_ext")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
