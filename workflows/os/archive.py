"""os.archive: pack stated files, every file of one type, or a whole folder into a tar.gz / tar.bz2 / zip archive.

The rubric opens the archive (its format judged by the bytes, not the name), requires exactly the expected
files with their original content (one leading folder such as `site/` or `home/user/...` is accepted, as
`tar czf a.tgz site` and `zip -r a.zip /home/user/site` produce), and requires the originals untouched.
Near-misses: a member missing (or a folder zipped without its subfolders), the wrong compression under the
right name (`tar cf x.tar.gz`), originals removed (`--remove-files`, `zip -m`), a file of another type added.
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

NAME = "os.archive"
#: format -> (file suffix, how it is named, the compression of a near-miss with the wrong one, its name)
FORMATS = {"tar.gz": ("tar.gz", "a gzip-compressed tar archive", "", "an uncompressed tar"),
           "tar.bz2": ("tar.bz2", "a bzip2-compressed tar archive", "gz", "gzip instead of bzip2"),
           "zip": ("zip", "a zip archive", "gz", "a gzip-compressed tar")}
EXTS = ("csv", "pdf", "jpg", "txt", "docx", "png")
PHRASINGS = (
    "Create {fmt_name} {archive} containing {what}. Keep the original files where they are.",
    "Please back up {what} into {fmt_name} at {archive}. The originals must stay in place, unchanged.",
    "Using the terminal, pack {what} into {archive} ({fmt_name}). Don't delete or modify the original files.",
    "I need {what} bundled as {fmt_name}: save it as {archive} and leave the originals alone.",
    "Make {fmt_name} named {archive} that holds {what}, and nothing else. Do not remove the source files.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Please pack {what} into {fmt_name} at {archive}, keeping the originals.",
    "I need {fmt_name} of {what}, saved as {archive}.",
    "Could you back up {what} as {archive} ({fmt_name})? Keep the originals.",
    "Make {archive}, {fmt_name} with {what} in it and nothing else.",
    "Back up {what}: create {fmt_name} at {archive} and leave the source files where they are.",
)


class Params(TypedDict):
    format: Literal["tar.gz", "tar.bz2", "zip"]
    source: Literal["files", "ext", "folder"]


@dataclass(frozen=True)
class Target:
    archive: str  # the archive's path
    folder: str  # the folder the packed files come from
    members: dict[str, str]  # path inside the folder -> sha256, for every file the archive must hold
    format: str  # a key of FORMATS
    source: str  # files | ext | folder
    chosen: list[str]  # absolute paths of the files to pack
    others: list[str]  # the folder's other files


def goal(rng: random.Random, params: Params, pool: Mapping[str, Any]) -> Goal[list[FileSpec], Target]:
    fmt, source = params["format"], params["source"]
    files = oc.Files(pool, rng)
    project = rng.choice(pool["projects"])
    folder = oc.place(oc.home(rng.choice((f"Documents/{project}", f"projects/{project}", f"work/{project}"))), params)
    ext = rng.choice(EXTS)
    spec = [files.new(folder, ext) for _ in range(rng.randint(3, 4))]
    spec += [files.new(folder, e) for e in rng.sample([e for e in EXTS if e != ext], rng.randint(2, 3))]
    if source == "folder":
        sub = f"{folder}/{rng.choice(('assets', 'notes', 'data', 'old'))}"
        spec += [files.new(sub, rng.choice(EXTS)) for _ in range(2)]
    if source == "files":
        chosen = sorted(rng.sample(spec, 3), key=lambda s: s.name)
        what = f"the files {oc.quote_list([s.name for s in chosen])} from {folder}"
    elif source == "ext":
        chosen = [s for s in spec if s.name.endswith("." + ext)]
        what = f"every .{ext} file in {folder} (and no other files)"
    else:
        chosen = spec
        what = f"the whole folder {folder} (subfolder included)"
    suffix, fmt_name, _, _ = FORMATS[fmt]
    stem = rng.choice((f"{project}_backup", f"{project}-archive", f"{project}_bundle")
                      + ((f"{project}_{ext}_files",) if source == "ext" else ()))
    archive = oc.home(f"{rng.choice(('Desktop', 'Backups', 'Documents/archives'))}/{stem}.{suffix}")
    members = {s.path[len(folder) + 1:]: oc.sha(s) for s in chosen}
    facts = {"fmt_name": fmt_name, "archive": archive, "what": what}
    target = Target(archive, folder, members, fmt, source, [s.path for s in chosen],
                    [s.path for s in spec if s not in chosen])
    return Goal(oc.dress(rng, params, pool, spec, folder, facts), facts, target)


def rubric(tree: list[FileSpec], target: Target) -> list[Check]:
    t = target
    archive = Check("archive", f"{t.archive} is a {t.format} archive holding exactly "
                               f"{oc.quote_list(sorted(t.members))} with their original content.",
                    "fs.archive_contains", {"path": t.archive, "format": t.format, "members": sorted(t.members),
                                            "contents": t.members})
    names = oc.listing([s.path for s in tree], t.folder, recursive=True)
    contents = {s.path[len(t.folder) + 1:]: oc.sha(s) for s in tree if s.path.startswith(t.folder + "/")}
    kept = oc.listing_check("originals", t.folder, names, f"{t.folder} still holds all its original files, "
                            "unchanged.", recursive=True, contents=contents)
    return [archive, kept]


def _pack(t: Target, paths: list[str], fmt: str) -> dict[str, Any]:
    base = t.folder
    if t.source == "folder":
        paths, base = [t.folder], t.folder.rsplit("/", 1)[0]
    if fmt == "zip":
        return {"op": "fs.zip_create", "path": t.archive, "members": paths, "base": base}
    return {"op": "fs.tar_create", "path": t.archive, "members": paths, "base": base,
            "compression": {"tar.gz": "gz", "tar.bz2": "bz2"}.get(fmt, fmt)}


def solve(target: Target) -> Attempts:
    t = target
    chosen = t.chosen
    _, _, wrong, wrong_name = FORMATS[t.format]
    oracle = _pack(t, chosen, t.format)
    misses = [Attempt(f"writes {wrong_name} under the asked name", [{**_pack(t, chosen, "tar"), "compression": wrong}])]
    if t.source == "folder":
        top = [p for p in chosen if p.count("/") == t.folder.count("/") + 1]
        partial = {**oracle, "members": top, "base": t.folder}
        misses.append(Attempt("packs only the top-level files, not the subfolder", [partial]))
    else:
        misses.append(Attempt("leaves one file out", [{**oracle, "members": chosen[:-1]}]))
    removal = [{"op": "fs.delete", "path": p} for p in chosen]
    misses.append(Attempt("moves the files into the archive, deleting the originals", [oracle, *removal]))
    if t.source != "folder":
        extra = {**oracle, "members": [*chosen, t.others[0]]}
        misses.append(Attempt("also packs a file that was not asked for", [extra]))
    return Attempts(Attempt("packs exactly the asked files in the asked format", [oracle]), misses)


WORKFLOW = family(
    NAME, oc.OS,
    description="Create a tar.gz, tar.bz2 or zip archive of stated files, of every file of a type, or of a folder.",
    knobs={"format": tuple(FORMATS), "source": ("files", "ext", "folder")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
