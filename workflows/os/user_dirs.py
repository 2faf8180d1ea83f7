"""os.user_dirs: move one of the desktop's user folders (Downloads, Pictures, Documents, Music, Videos) elsewhere by
editing the XDG user directories file ~/.config/user-dirs.dirs.

Knob `move`: `repoint` to a folder that exists already (a synced folder), `create` a new folder and point to it, or
`move_files` too (the old folder's files go into the new one; the old folder stays, empty). The rubric reads the
file as the desktop does (`"$HOME/..."` or an absolute path in double quotes; `~` or a bare relative path is not
understood), requires the new folder (and for `move_files` its files, with their bytes), and every other user
folder as it was; the tree frame keeps the rest.

Near-misses: the neighbouring key changed, the path written with `~` or without `$HOME`, the folder not created,
the files copied instead of moved, the files left behind.
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

NAME = "os.user_dirs"
PATH = oc.home(".config/user-dirs.dirs")
HEADER = ("# This file is written by xdg-user-dirs-update\n# If you want to change or add directories, just edit the "
          "line you're\n# interested in. All local changes will be retained on the next run.\n# Format is "
          "XDG_xxx_DIR=\"$HOME/yyy\", where yyy is a shell-escaped\n# homedir-relative path, or "
          "XDG_xxx_DIR=\"/yyy\", where /yyy is an\n# absolute path. No other format is supported.\n#\n")
DIRS = {"XDG_DESKTOP_DIR": "Desktop", "XDG_DOWNLOAD_DIR": "Downloads", "XDG_TEMPLATES_DIR": "Templates",
        "XDG_PUBLICSHARE_DIR": "Public", "XDG_DOCUMENTS_DIR": "Documents", "XDG_MUSIC_DIR": "Music",
        "XDG_PICTURES_DIR": "Pictures", "XDG_VIDEOS_DIR": "Videos"}
#: key -> (the folder's name for a user, new places for it, file types it holds)
MOVABLE = {
    "XDG_DOWNLOAD_DIR": ("Downloads", ("Incoming", "data/downloads", "transfer/downloads"), ("pdf", "zip", "txt")),
    "XDG_PICTURES_DIR": ("Pictures", ("Dropbox/Photos", "Nextcloud/Pictures", "media/photos"), ("jpg", "png")),
    "XDG_DOCUMENTS_DIR": ("Documents", ("Nextcloud/Documents", "work/docs", "Dropbox/Documents"),
                          ("pdf", "docx", "txt")),
    "XDG_MUSIC_DIR": ("Music", ("media/music", "Nextcloud/Music", "audio/library"), ("mp3", "wav")),
    "XDG_VIDEOS_DIR": ("Videos", ("media/videos", "Nextcloud/Videos", "footage"), ("txt", "jpg")),
}
PHRASINGS = (
    "Make {new} my {label} folder: point {key} in {path} to it{how}. Keep every other user folder as it is.",
    "Change the XDG user directories file {path} so that {key} is {new}{how}. The other entries stay unchanged.",
    "My {label} folder should be {new} from now on. Edit {path} accordingly ({key}){how}. Nothing else changes.",
    "Relocate the desktop's {label} folder to {new} by updating {key} in {path}{how}. Leave the other folders alone.",
    "Using the terminal, set {key} in {path} to {new}{how}. Don't change any other line of that file.",
)
NATURAL = (
    "I'd like {new} to be my {label} folder from now on{how}. The setting is {key} in {path}.",
    "Please make my desktop use {new} as the {label} folder{how}; it's {key} in {path}.",
    "Could you switch my {label} folder to {new}{how}? Change {key} in {path}.",
    "Point my {label} folder at {new}{how}. The file is {path}, the line {key}.",
    "From now on my {label} folder should live in {new}{how}; please update {key} in {path}.",
)


class Params(TypedDict):
    move: Literal["repoint", "create", "move_files"]


@dataclass(frozen=True)
class Target:
    move: str
    key: str
    old: str  # the folder it names now (absolute)
    new: str  # the folder it must name (absolute)
    neighbour: str  # another key
    dirs: dict[str, str]  # every key -> its folder (absolute), as the file has them
    files: tuple[FileSpec, ...]  # the old folder's files


def goal(rng: random.Random, params: Params, pool: Mapping[str, Any]) -> Goal[list[FileSpec], Target]:
    move = params["move"]
    key = rng.choice(sorted(MOVABLE))
    label, places, exts = MOVABLE[key]
    new = oc.home(rng.choice(places))
    old = oc.home(DIRS[key])
    files = oc.Files(pool, rng)
    inside = tuple(files.new(old, rng.choice(exts)) for _ in range(rng.randint(2, 4)))
    spec = [FileSpec(PATH, "text", HEADER + "".join(f'{k}="$HOME/{v}"\n' for k, v in DIRS.items())), *inside]
    if move == "repoint":  # the synced folder is there already, with something in it
        spec.append(files.new(new, rng.choice(exts)))
    how = {"repoint": "",
           "create": " and create that folder (it does not exist yet)",
           "move_files": f" and create that folder, then move every file from {old} into it (leave {old} itself, "
                         "empty)"}[move]
    facts = {"path": PATH, "key": key, "label": label, "new": new, "how": how}
    dirs = {k: oc.home(v) for k, v in DIRS.items()}
    neighbour = rng.choice([k for k in MOVABLE if k != key])
    return Goal(oc.dress(rng, params, pool, spec, PATH, facts), facts,
                Target(move, key, old, new, neighbour, dirs, inside))


def rubric(target: Target) -> list[Check]:
    t = target
    others = {k: v for k, v in t.dirs.items() if k != t.key}
    checks = [Check("points", f"In {PATH}, {t.key} names {t.new}.", "xdg.user_dir",
                    {"path": PATH, "key": t.key, "folder": t.new}),
              Check("kept", f"Every other user folder in {PATH} is as it was.", "xdg.user_dirs_kept",
                    {"path": PATH, "dirs": others}),
              ]
    if t.move != "repoint":  # a folder that was there already is the frame's to keep
        checks.append(Check("folder", f"{t.new} is a folder.", "fs.is_dir", {"path": t.new}))
    if t.move == "move_files":
        contents = {s.name: oc.sha(s) for s in t.files}
        checks.append(oc.listing_check("moved", t.new, sorted(contents), f"{t.new} holds exactly the files that "
                                       f"were in {t.old}.", contents=contents))
        checks.append(oc.listing_check("emptied", t.old, [], f"{t.old} is left empty."))
    return checks


def _line(key: str, value: str) -> str:
    return f'{key}="{value}"'


def solve(target: Target) -> Attempts:
    t = target
    rel = t.new.removeprefix(oc.home("") + "/")

    def point(key: str, value: str) -> dict[str, Any]:
        return {"op": "fs.replace_in_file", "path": PATH, "old": _line(key, f"$HOME/{DIRS[key]}"),
                "new": _line(key, value)}

    edit = point(t.key, f"$HOME/{rel}")
    made = [] if t.move == "repoint" else [{"op": "fs.mkdir", "path": t.new}]
    moves = [{"op": "fs.move", "path": s.path, "dest": f"{t.new}/{s.name}"} for s in t.files] \
        if t.move == "move_files" else []
    misses = [Attempt("changes the neighbouring folder's key instead", [point(t.neighbour, f"$HOME/{rel}"), *made,
                                                                       *moves]),
              Attempt("writes the path with ~, which the format does not expand", [point(t.key, f"~/{rel}"), *made,
                                                                                   *moves])]
    if t.move == "repoint":
        misses.append(Attempt("writes the path without $HOME", [{**edit, "new": _line(t.key, rel)}]))
    elif t.move == "create":
        misses.append(Attempt("edits the file but never creates the folder", [edit]))
    else:
        misses += [Attempt("copies the files instead of moving them",
                           [edit, *made, *({**m, "op": "fs.copy"} for m in moves)]),
                   Attempt("leaves the files in the old folder", [edit, *made])]
    return Attempts(Attempt("points the key at the new folder (and creates and fills it as asked)",
                            [edit, *made, *moves]), misses)


WORKFLOW = family(
    NAME, oc.kit_without("location"),  # the file lives where the desktop reads it
    description="Move a desktop user folder (Downloads, Pictures, ...) by editing ~/.config/user-dirs.dirs: point "
                "it at an existing folder, a new one, or a new one with the old folder's files moved in.",
    knobs={"move": ("repoint", "create", "move_files")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
