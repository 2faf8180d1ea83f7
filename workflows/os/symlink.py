"""os.symlink: create a symbolic link to a file or folder — on the Desktop, under a new name, or in another folder.

The rubric reads the link itself (absolute and relative targets both count, as `ln -s` stores either) and
requires the target untouched: still a regular file with its content, or a folder with its files. Near-misses:
copying instead of linking, linking to the similarly named sibling (report_v2 instead of report_v3), and moving
the target to the link's place.
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

NAME = "os.symlink"
PHRASINGS = (
    "Create a symbolic link {link} that points to {target}. {note}",
    "Please make a symlink at {link} pointing to the {kind} {target}. {note}",
    "Using the terminal, link {target} to {link} (a symbolic link, not a copy). {note}",
    "I want quick access to the {kind} {target}: add a symbolic link to it at {link}. {note}",
    "Set up {link} as a soft link to {target}. {note}",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Please create a symlink at {link} that points to {target}. {note}",
    "I'd like a shortcut to the {kind} {target} at {link}, as a real symbolic link.",
    "Could you link {link} to the {kind} {target} with a symbolic link? {note}",
    "Make {link} a soft link to {target}, leaving the original {kind} in place.",
    "I keep needing {target}. Add a symbolic link to it at {link}.",
)


class Params(TypedDict):
    target_kind: Literal["file", "folder"]
    place: Literal["desktop", "renamed", "other_folder"]


@dataclass(frozen=True)
class Target:
    link: str  # the path of the link to create
    points_to: str  # the file or folder it must resolve to
    stored: str  # what the oracle writes into the link (relative when side by side)
    sibling: str  # the similarly named neighbour a careless link points to
    kind: str  # file | folder


def goal(rng: random.Random, params: Params, pool: Mapping[str, Any]) -> Goal[list[FileSpec], Target]:
    kind, place = params["target_kind"], params["place"]
    files = oc.Files(pool, rng)
    project, other = rng.sample(pool["projects"], 2)
    if kind == "file":
        folder = oc.place(oc.home(rng.choice((f"Documents/{project}", f"projects/{project}/reports",
                                              f"work/{project}"))), params)
        ext = rng.choice(("pdf", "docx", "xlsx", "csv", "md"))
        stem = files.stem(ext)
        target = files.content(f"{folder}/{stem}_v3.{ext}")
        sibling = files.content(f"{folder}/{stem}_v2.{ext}")
        spec = [target, sibling, files.new(folder, rng.choice(("txt", "jpg")))]
        target_path, sibling_path = target.path, sibling.path
        link_name = {"desktop": target.name, "renamed": f"latest.{ext}", "other_folder": f"{stem}.{ext}"}[place]
    else:
        base = oc.place(oc.home(rng.choice((f"projects/{project}", f"Documents/{project}"))), params)
        name = rng.choice(("data", "assets", "exports", "shared"))
        target_path, sibling_path = f"{base}/{name}", f"{base}/{name}_old"
        spec = [files.new(target_path, rng.choice(("csv", "jpg", "pdf"))) for _ in range(3)]
        spec += [files.new(sibling_path, "csv"), files.new(base, "md")]
        link_name = {"desktop": f"{project}-{name}", "renamed": "current", "other_folder": f"{project}-{name}"}[place]
    target_dir = target_path.rsplit("/", 1)[0]
    link_dir = {"desktop": oc.home("Desktop"), "renamed": target_dir,
                "other_folder": oc.home(f"projects/{other}")}[place]
    if place != "renamed":  # the link's folder exists already (it holds something)
        spec.append(files.new(link_dir, rng.choice(("txt", "md"))))
    link = f"{link_dir}/{link_name}"
    noun = "file" if kind == "file" else "folder"
    note = f"Leave the {noun} {target_path} itself where it is, unchanged."
    facts = {"link": link, "target": target_path, "kind": noun, "note": note}
    stored = target_path.rsplit("/", 1)[1] if place == "renamed" else target_path  # relative when side by side
    return Goal(oc.dress(rng, params, pool, spec, target_path, facts), facts,
                Target(link, target_path, stored, sibling_path, kind))


def rubric(tree: list[FileSpec], target: Target) -> list[Check]:
    t = target
    checks = [Check("link", f"{t.link} is a symbolic link to {t.points_to}.", "fs.symlink_to",
                    {"path": t.link, "target": t.points_to})]
    if t.kind == "file":
        original = next(s for s in tree if s.path == t.points_to)
        checks.append(Check("target_kept", f"{t.points_to} is still a regular file with its original content.",
                            "fs.same_content", {"path": t.points_to, "sha256": oc.sha(original)}))
    else:
        inside = {s.path[len(t.points_to) + 1:]: oc.sha(s) for s in tree if s.path.startswith(t.points_to + "/")}
        checks.append(oc.listing_check("target_kept", t.points_to, sorted(inside), f"{t.points_to} is still a "
                                       "folder holding its original files.", contents=inside))
    return checks


def solve(target: Target) -> Attempts:
    t = target
    link = {"op": "fs.symlink", "path": t.link}
    return Attempts(
        Attempt("creates the symbolic link", [{**link, "target": t.stored}]),
        [Attempt("copies the target instead of linking it", [{"op": "fs.copy", "path": t.points_to, "dest": t.link}]),
         Attempt("links to the similarly named sibling", [{**link, "target": t.sibling}]),
         Attempt("moves the target to the link's place", [{"op": "fs.move", "path": t.points_to, "dest": t.link}])],
    )


WORKFLOW = family(
    NAME, oc.OS,
    description="Create a symbolic link to a file or folder on the Desktop, under a new name, or in another folder.",
    knobs={"target_kind": ("file", "folder"), "place": ("desktop", "renamed", "other_folder")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
