"""os.extract: unpack a downloaded zip / tar.gz / tar archive into a stated folder, beside it, or just one file.

The archive holds a few files and one subfolder. The rubric lists the destination recursively: exactly the
archive's files (or the one asked for) with their content, plus whatever was already there — and the archive
itself must still exist. Near-misses: unpacking into the wrong folder (beside the archive, or into a new folder
named after it, as "Extract Here" does), leaving a file out or unpacking everything when one file was asked,
and deleting the archive afterwards.
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

NAME = "os.extract"
FORMATS = {"zip": "zip", "tar.gz": "tar.gz", "tar": "tar"}
PHRASINGS = (
    "I downloaded {archive}. {task} Keep the archive itself.",
    "Please unpack {archive}: {task_lc} Don't delete the archive afterwards.",
    "Using the terminal or the archive manager, open {archive}. {task} The archive file should stay where it is.",
    "There is an archive at {archive}. {task} Leave the archive in place when you are done.",
    "Extract from {archive} as follows. {task} Do not remove or rename the archive.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "I downloaded {archive}. {task}",
    "Please unpack {archive}: {task_lc}",
    "Could you open up {archive} for me? {task} Keep the archive.",
    "There's an archive at {archive}. {task}",
    "{archive} has files I need. {task}",
)


class Params(TypedDict):
    format: Literal["zip", "tar.gz", "tar"]
    mode: Literal["new_folder", "beside", "one_file"]


@dataclass(frozen=True)
class Target:
    archive: str  # the archive's path
    dest: str  # the folder to extract into
    wanted: list[str]  # the members to extract (paths inside the archive)
    contents: dict[str, str]  # wanted member -> sha256

    @property
    def here(self) -> str:
        """The folder the archive is in."""
        return self.archive.rsplit("/", 1)[0]


def goal(rng: random.Random, params: Params, pool: Mapping[str, Any]) -> Goal[list[FileSpec], Target]:
    fmt, mode = params["format"], params["mode"]
    files = oc.Files(pool, rng)
    project = rng.choice(pool["projects"])
    here = oc.place(oc.home(rng.choice(("Downloads", "Desktop", "Downloads/shared"))), params)
    sub = rng.choice(("images", "data", "notes", "extras", "raw"))
    exts = rng.sample(("pdf", "csv", "jpg", "txt", "docx", "png", "md"), 4)
    members = [files.content(f"{files.stem(e)}.{e}") for e in exts]
    members += [files.content(f"{sub}/{files.stem(e)}.{e}") for e in rng.sample(exts, 2)]
    stem = rng.choice((f"{project}_files", f"{project}-shared", f"{project}_export", f"{project}_handoff"))
    archive = FileSpec(f"{here}/{stem}.{FORMATS[fmt]}", fmt, members=tuple(members))
    spec = [archive] + [files.new(here, e) for e in rng.sample(("pdf", "jpg", "mp3", "docx"), 2)]
    dest = here if mode == "beside" else oc.home(rng.choice((f"Documents/{project}/{stem}", f"projects/{project}",
                                                             f"Documents/{stem}")))
    wanted = [members[0]] if mode == "one_file" else members
    example = next(m for m in members if "/" in m.path)
    if mode == "one_file":
        task = (f"Extract only the file {members[0].path} from it into the folder {dest}, so that it ends up as "
                f"{dest}/{members[0].path}. Don't extract anything else.")
    elif mode == "beside":
        task = (f"Extract all of its contents directly into {dest}, the folder the archive is in (for example, "
                f"{example.path} must end up as {dest}/{example.path}, not inside a new folder).")
    else:
        task = (f"Extract all of its contents into the folder {dest} (create it), so that for example "
                f"{example.path} ends up as {dest}/{example.path}.")
    facts = {"archive": archive.path, "task": task, "task_lc": task[0].lower() + task[1:]}
    target = Target(archive.path, dest, [m.path for m in wanted], {m.path: oc.sha(m) for m in wanted})
    return Goal(oc.dress(rng, params, pool, spec, archive.path, facts), facts, target)


def rubric(tree: list[FileSpec], target: Target) -> list[Check]:
    t = target
    dest = t.dest
    after = {s.path: oc.sha(s) for s in tree} | {f"{dest}/{rel}": sha for rel, sha in t.contents.items()}
    names = oc.listing(after, dest, recursive=True)
    contents = {p[len(dest) + 1:]: sha for p, sha in after.items() if p.startswith(dest + "/")}
    archive = [s for s in tree if s.path == t.archive][0]
    checks = [
        oc.listing_check("extracted", dest, names, f"{dest} holds exactly {oc.quote_list(names)} (recursively), "
                         "the extracted files with their archived content.", recursive=True, contents=contents),
        Check("archive_kept", f"{t.archive} still exists, unchanged.", "fs.same_content",
              {"path": t.archive, "sha256": oc.sha(archive)}),
    ]
    here = t.here
    if dest != here:  # extracting beside the archive as well is not what was asked
        beside = oc.listing(after, here)
        # the files that were there keep their bytes too: emptying one while extracting is no extraction
        kept = {s.path.rsplit("/", 1)[1]: oc.sha(s) for s in tree if s.path.rsplit("/", 1)[0] == here}
        checks.append(oc.listing_check("beside_kept", here, beside, f"{here} holds exactly {oc.quote_list(beside)}"
                                       " (nothing extracted beside the archive), its files unchanged.",
                                       contents=kept))
    return checks


def solve(target: Target) -> Attempts:
    t = target
    base = {"op": "fs.extract", "path": t.archive}
    members = {"members": t.wanted} if len(t.wanted) == 1 else {}
    oracle = {**base, "dest": t.dest, **members}
    here = t.here
    if t.dest == here:
        stem = t.archive.rsplit("/", 1)[1].split(".")[0]
        wrong = Attempt("extracts into a new folder named after the archive", [{**oracle, "dest": f"{here}/{stem}"}])
    else:
        wrong = Attempt("extracts beside the archive instead of into the asked folder", [{**oracle, "dest": here}])
    if members:
        partial = Attempt("extracts the whole archive instead of the one file", [{**base, "dest": t.dest}])
    else:
        partial = Attempt("leaves one file out", [{**oracle, "members": t.wanted[:-1]}])
    gone = Attempt("deletes the archive after extracting it", [oracle, {"op": "fs.delete", "path": t.archive}])
    return Attempts(Attempt("extracts the asked files into the asked folder", [oracle]), [wrong, partial, gone])


WORKFLOW = family(
    NAME, oc.OS,
    description="Extract a zip, tar.gz or tar archive into a stated folder, beside itself, or only one member.",
    knobs={"format": tuple(FORMATS), "mode": ("new_folder", "beside", "one_file")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
