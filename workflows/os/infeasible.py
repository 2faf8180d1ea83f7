"""os.infeasible: a request about real files that the computer or the files cannot satisfy; decline, change nothing.

Kinds (workflows.infeasible_kit): `feature` asks for what no computer does with a file (print it on paper with no
printer, turn it into a hologram, make it take less than zero bytes); `missing` names a file the folder does not
hold; `contradiction` asks for a file deleted yet kept in place, or renamed while keeping its name. The near-misses
are an eager agent's stand-ins: a copy put somewhere, a file emptied, a folder made, the nearest file moved, one half
of the contradiction.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from kit.family import Goal, family
from preparers.tree import FileSpec
from workflows.infeasible_kit import KIND_TEXT, KINDS, Impossible, Params, rubric, solve
from workflows.os import kit as oc

NAME = "os.infeasible"
PHRASINGS = (
    "On this computer, the folder {folder} holds a few of my files. {request}",
    "Work in the folder {folder}. {request} Leave every other file as it is.",
    "Please take care of this in {folder}: {request.inline}.",
    "Using the terminal or the file manager, go to {folder}. {request}",
    "There is one job to do in {folder}. {request} Nothing else should change.",
)
NATURAL = (
    "In my folder {folder.file}, please {request.inline}.",
    "Could you help me with the files in {folder.file}? I'd like you to {request.inline}.",
    "I need a hand with the {folder.file} folder: {request.inline}.",
    "Quick favour with my {folder.file} folder: {request.inline}.",
    "Here's what I want done in {folder.file}. Please {request.inline}.",
)
EXTS = ("pdf", "txt", "docx", "csv", "md")


def goal(rng: random.Random, params: Params, pool: Mapping[str, Any]) -> Goal[list[FileSpec], Impossible]:
    files = oc.Files(pool, rng)
    project = rng.choice(pool["projects"])
    folder = oc.place(oc.home(rng.choice((f"Documents/{project}", f"work/{project}"))), params)
    ext = rng.choice(EXTS)
    spec = [files.new(folder, ext) for _ in range(rng.randint(3, 5))]
    names = [s.path.rsplit("/", 1)[1] for s in spec]
    name = rng.choice(names)
    path = f"{folder}/{name}"
    kind = params["impossible"]
    slips: tuple[tuple[str, tuple[dict[str, Any], ...]], ...]
    about = path
    if kind == "feature":
        choice = rng.randrange(3)
        why = f"no program on this computer can do it: the request {KIND_TEXT[kind]}"
        if choice == 0:
            request = f"Print {name} on paper and leave the printout on my desk."
            slips = (("copies the file to the Desktop as a stand-in",
                      ({"op": "fs.copy", "path": path, "dest": f"{oc.home('Desktop')}/{name}"},)),
                     ("makes a 'to print' folder beside it",
                      ({"op": "fs.mkdir", "path": f"{folder}/to print"},)))
        elif choice == 1:
            request = f"Turn {name} into a 3D hologram that floats above my desk."
            slips = (("makes a 'hologram' folder with a copy of the file",
                      ({"op": "fs.copy", "path": path, "dest": f"{folder}/hologram/{name}"},)),
                     ("renames the file with a .holo extension",
                      ({"op": "fs.rename", "path": path, "name": f"{name}.holo"},)))
        else:
            request = f"Make {name} take up less than zero bytes on the disk, keeping everything that is in it."
            slips = (("empties the file", ({"op": "fs.write_text", "path": path, "text": ""},)),
                     ("packs the file into a zip archive beside it",
                      ({"op": "fs.zip_create", "path": f"{folder}/{name}.zip", "members": [path], "base": folder},)))
    elif kind == "missing":
        ghost = f"{files.stem(ext)}.{ext}"
        request = f"Move the file {ghost} into a new subfolder named archive next to it."
        why = f"{folder} holds no file named {ghost} (it holds {oc.quote_list(names)})"
        about = f"{folder}/{ghost}"
        slips = ((f"moves {name} into archive instead",
                  ({"op": "fs.move", "path": path, "dest": f"{folder}/archive/{name}"},)),
                 ("makes the empty archive folder", ({"op": "fs.mkdir", "path": f"{folder}/archive"},)))
    elif rng.random() < 0.5:
        request = f"Delete {name}, but keep it right where it is so I can still open it there."
        why = "a file cannot be deleted and stay in its place at once"
        slips = (("deletes the file", ({"op": "fs.delete", "path": path},)),
                 ("moves the file into a subfolder as a compromise",
                  ({"op": "fs.move", "path": path, "dest": f"{folder}/old/{name}"},)))
    else:
        stem, _, suffix = name.rpartition(".")
        new = f"{stem}_final.{suffix}"
        request = f"Rename {name} to {new}, while making sure it keeps its current name."
        why = "a file cannot be renamed and keep its current name at once"
        slips = (("renames the file", ({"op": "fs.rename", "path": path, "name": new},)),
                 ("makes a renamed copy beside it", ({"op": "fs.copy", "path": path, "dest": f"{folder}/{new}"},)))
    facts = {"folder": folder, "request": request}
    return Goal(oc.dress(rng, params, pool, spec, folder, facts), facts, Impossible(about, why, slips))


WORKFLOW = family(
    NAME, oc.OS,
    description="Decline a request about files that cannot be done (something no program does, a file that is not "
                "there, a contradiction), changing nothing.",
    knobs={"impossible": KINDS},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
