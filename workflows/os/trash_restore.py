"""os.trash_restore: restore stated items from the Trash (~/.local/share/Trash) to where they were deleted from.

The Trash holds a handful of deleted files and folders, each with its `.trashinfo` (the original path,
percent-encoded, and the deletion date), as GNOME's file manager leaves them. The user names what to bring back,
never where it goes: that is in the `.trashinfo`. Knobs: `what` is a `file`, a `folder` (with its files), or a
`same_name` file (the Trash holds two items of that name from different folders; the later one is stored with a
counter, `report.2.pdf`, and the user says which folder's copy they want); `parent` is whether the folder it came
from still `exists` or is `gone` (deleted since, so the restore recreates it).

The rubric requires the item back at its original path with its bytes, and the Trash holding exactly its other
items (no leftover entry or `.trashinfo`); the tree frame refuses anything else restored or moved. Near-misses:
restored into the home folder instead, copied out of the Trash (both Trash entries left), moved back but the
`.trashinfo` left, the whole Trash restored, and for `same_name` the other folder's copy restored.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers.tree import FileSpec
from verifiers.checks.os_trash import TRASH, encoded
from workflows.os import kit as oc

NAME = "os.trash_restore"
PHRASINGS = (
    "Restore {item} from the Trash to the folder it was deleted from{which}. {note}Leave every other item in the "
    "Trash.",
    "I deleted {item} by mistake. Put it back from the Trash ({trash}) to its original location{which}, exactly "
    "as a file manager's Restore would. {note}Everything else stays in the Trash.",
    "Using the terminal, recover {item} from {trash} and move it back to where it was{which}; remove its Trash "
    "entry and its .trashinfo. {note}Don't restore anything else.",
    "Bring {item} back out of the Trash{which}: restore it to its original path, recorded in its .trashinfo "
    "file. {note}The other deleted items stay in the Trash.",
    "Undelete {item}{which}: restore it from the Trash to its original folder. {note}Leave the rest of the Trash "
    "as it is.",
)
NATURAL = (
    "Oops, I deleted {item}{which}. Can you restore it from the Trash to where it was?",
    "I need {item}{which} back. Please restore it from the Trash to its original place.",
    "Could you recover {item}{which} from the Trash? Put it back exactly where it used to be.",
    "I threw {item}{which} in the Trash too soon. Restore it to its old location, please.",
    "Please bring {item}{which} back from the Trash to the folder it came from; leave the rest there.",
)


class Params(TypedDict):
    what: Literal["file", "folder", "same_name"]
    parent: Literal["exists", "gone"]


@dataclass(frozen=True)
class Item:
    """One item in the Trash: its name there, where it was deleted from, and its files (original paths)."""

    stored: str  # the name under Trash/files (with a counter for a second item of one name)
    original: str  # the path it was deleted from
    files: tuple[FileSpec, ...]  # its files at their original paths (one for a file)


@dataclass(frozen=True)
class Target:
    asked: Item
    other: Item | None  # the same-named item from another folder (same_name)
    items: tuple[Item, ...]  # everything in the Trash, the asked item included


def _info(item: Item, when: str) -> FileSpec:
    return FileSpec(f"{TRASH}/info/{item.stored}.trashinfo", "text",
                    f"[Trash Info]\nPath={encoded(item.original)}\nDeletionDate={when}\n")


def _in_trash(item: Item) -> list[FileSpec]:
    """The item's files where the Trash keeps them."""
    return [replace(s, path=f"{TRASH}/files/{item.stored}{s.path[len(item.original):]}") for s in item.files]


def _dates(rng: random.Random, count: int) -> list[str]:
    """`count` deletion dates of the last weeks, oldest first."""
    year, month = rng.choice((2024, 2025)), rng.randint(1, 11)
    days = sorted(rng.sample(range(1, 29), count))
    return [f"{year}-{month:02d}-{d:02d}T{rng.randint(8, 22):02d}:{rng.randint(0, 59):02d}:"
            f"{rng.randint(0, 59):02d}" for d in days]


def _spaced(name: str) -> str:
    """'budget_review.pdf' -> 'budget review.pdf' (names a person types in a save dialog)."""
    return name.replace("_", " ")


def goal(rng: random.Random, params: Params, pool: Mapping[str, Any]) -> Goal[list[FileSpec], Target]:
    what, parent = params["what"], params["parent"]
    files = oc.Files(pool, rng)
    project, other_project = rng.sample(pool["projects"], 2)
    base = oc.place(oc.home(rng.choice((f"Documents/{project}", f"projects/{project}", f"work/{project}"))), params)
    folder = f"{base}/{rng.choice(('drafts', 'notes', 'exports', 'scans'))}" if parent == "gone" else base
    spec: list[FileSpec] = [files.new(base, rng.choice(("pdf", "docx", "txt", "md"))) for _ in range(2)]
    if what == "folder":
        name = rng.choice(("meeting-notes", "invoices", "photos-2024", "references", "old-drafts"))
        original = f"{folder}/{name}"
        inside = [files.new(original, rng.choice(("pdf", "txt", "jpg", "csv"))) for _ in range(rng.randint(2, 4))]
        asked = Item(name, original, tuple(inside))
    else:
        # no office files (their bytes change on a re-save); same_name: kinds whose bytes follow their text
        ext = rng.choice(("pdf", "txt", "jpg", "md", "png") + (() if what == "same_name" else ("csv",)))
        stem = files.stem(ext)
        name = _spaced(f"{stem}.{ext}") if rng.random() < 0.5 else f"{stem}.{ext}"
        asked = Item(name, f"{folder}/{name}", (files.content(f"{folder}/{name}"),))
    other = None
    items = [asked]
    if what == "same_name":  # the same name deleted from another folder too; the later deletion has a counter
        elsewhere = oc.home(rng.choice((f"Downloads/{other_project}", f"Desktop/{other_project}",
                                        f"Documents/{other_project}")))
        spec.append(files.new(elsewhere, rng.choice(("txt", "pdf"))))
        twin = files.content(f"{elsewhere}/{name}")
        twin = replace(twin, text=f"{twin.text.rstrip()}\n(older version)\n")  # never the asked file's bytes
        other = Item(name, twin.path, (twin,))
        stem, dot, ext = name.rpartition(".")
        later = f"{stem}.2.{ext}" if dot else f"{name}.2"
        asked, other = (replace(asked, stored=later), other) if rng.random() < 0.5 else \
            (asked, replace(other, stored=later))
        items = [other, asked] if asked.stored == later else [asked, other]
    for _ in range(rng.randint(2, 4)):  # other deleted things, from folders that may or may not still exist
        where = oc.home(rng.choice(("Downloads", "Desktop", f"Documents/{other_project}", f"Pictures/{project}")))
        one = files.new(where, rng.choice(("pdf", "txt", "jpg", "png", "md", "csv", "log")))
        items.append(Item(one.name, one.path, (one,)))
    dates = _dates(rng, len(items))
    rng.shuffle(dates)
    for item, when in zip(items, dates, strict=True):  # a counter's item was deleted after its namesake
        counted = item.stored != item.original.rsplit("/", 1)[1]
        spec += [*_in_trash(item), _info(item, max(dates) if counted else when)]
    which = ""
    if other is not None:
        which = f" (the one that was in {asked.original.rsplit('/', 1)[0].removeprefix(oc.home('') + '/')})"
    note = "If its folder no longer exists, create it again. " if parent == "gone" else ""
    kind = "the folder" if what == "folder" else "the file"
    facts = {"item": f"{kind} '{name}'", "which": which, "note": note, "trash": TRASH}
    tree = oc.dress(rng, params, pool, spec, base, facts)
    return Goal(tree, facts, Target(asked, other, tuple(items)))


def _trash_after(target: Target, tree: list[FileSpec], gone: Item) -> dict[str, dict[str, str]]:
    """What the Trash holds after the restore: {"files": {name: sha256, "" for a folder}, "info": {...}}."""
    by_path = {s.path: s for s in tree}
    left = [i for i in target.items if i != gone]
    files = {i.stored: oc.sha(by_path[f"{TRASH}/files/{i.stored}"]) if len(i.files) == 1 and
             i.files[0].path == i.original else "" for i in left}
    info = {f"{i.stored}.trashinfo": oc.sha(by_path[f"{TRASH}/info/{i.stored}.trashinfo"]) for i in left}
    return {"files": dict(sorted(files.items())), "info": dict(sorted(info.items()))}


def rubric(tree: list[FileSpec], target: Target) -> list[Check]:
    t, a = target, target.asked
    contents = {s.path: oc.sha(s) for s in a.files}
    return [
        Check("restored", f"{a.original} is back where it was deleted from, with its content.", "trash.restored",
              {"names": [a.original.rsplit("/", 1)[1]], "paths": [a.original], "contents": contents}),
        Check("trash", "The Trash holds exactly its other items and their .trashinfo files.", "trash.holds",
              _trash_after(t, tree, a)),
    ]


def _restore(item: Item, dest: str | None = None) -> list[dict[str, Any]]:
    return [{"op": "fs.move", "path": f"{TRASH}/files/{item.stored}", "dest": dest or item.original},
            {"op": "fs.delete", "path": f"{TRASH}/info/{item.stored}.trashinfo"}]


def solve(params: Params, target: Target) -> Attempts:
    a = target.asked
    name = a.original.rsplit("/", 1)[1]
    misses = [
        Attempt("restores it into the home folder instead of its original folder", _restore(a, oc.home(name))),
        Attempt("copies it out of the Trash, leaving its Trash entry and .trashinfo",
                [{"op": "fs.copy", "path": f"{TRASH}/files/{a.stored}", "dest": a.original}]),
        Attempt("moves it back but leaves its .trashinfo in the Trash",
                [{"op": "fs.move", "path": f"{TRASH}/files/{a.stored}", "dest": a.original}]),
        Attempt("restores everything in the Trash", [op for item in target.items for op in _restore(item)]),
    ]
    if target.other is not None:
        misses.append(Attempt("restores the same-named item from the other folder", _restore(target.other)))
        misses.append(Attempt("puts the other folder's same-named item at the asked path",
                              _restore(target.other, a.original)))
        if a.stored != name:
            misses.append(Attempt("restores it under its name in the Trash, with the counter",
                                  _restore(a, f"{a.original.rsplit('/', 1)[0]}/{a.stored}")))
    return Attempts(Attempt("moves the item back to its original path and removes its .trashinfo", _restore(a)),
                    misses)


WORKFLOW = family(
    NAME, oc.OS,
    description="Restore a stated file or folder from the Trash to the path its .trashinfo records, recreating the "
                "folder if needed, and leave the rest of the Trash.",
    knobs={"what": ("file", "folder", "same_name"), "parent": ("exists", "gone")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
