"""Nodes and helpers shared by the OS (files and terminal) families.

Every OS family runs `sample` (pick a scenario) -> `content` (LLM node: a pool of realistic names and file
contents, offline from `workflows.os.content`) -> its own `goal` node (arrange pool items into a tree of
`FileSpec`s, state the facts, fix the target) -> the shared `prepare` node (tree -> assets) -> the shared
`instruction` node -> its `rubric` and `solve` nodes. `Files` turns pool items into files whose content fits
their extension, with names unique in their folder; `sha` and `listing` help rubrics compare folders.

Difficulty axes (`AXES`): a goal moves its working folder down with `place` (`location`) and ends with `dress`,
which adds older copies of the working folder or file beside it (`lookalikes`: a task done on a copy instead
fails the family's own checks) and files in folders the task never touches until the tree holds the `files`
level's count. Neither draws a random number at the default levels, so seed packages keep their bytes.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from typing import Any

from kit.axes import LOCATION, LOOKALIKES, deepen, pick, span
from kit.dag import Node, NodeContext, llm_node, node
from kit.family import AppKit
from kit.ids import digest
from kit.model import HOME, Check
from preparers import tree
from preparers.tree import FileSpec
from workflows.common import instruction
from workflows.frame import tree_frame_node
from workflows.os.content import POOL_SCHEMA, POOL_SKETCH, SCENARIOS, check_pool, generate_pool
from workflows.teacher import teacher_node

__all__ = ["instruction"]  # re-exported: families call oc.instruction(...)

APP = "os"
LAUNCH = ["gnome-terminal"]

IMAGE_EXTS = ("jpg", "png", "gif", "jpeg")
AUDIO_EXTS = ("mp3", "wav")
DATA_EXTS = ("csv", "xlsx", "tsv")
#: Extension -> which pool list names files of that type.
_STEMS = {**{e: "photos" for e in IMAGE_EXTS}, **{e: "tracks" for e in AUDIO_EXTS},
          **{e: "tables" for e in DATA_EXTS}, "log": "logs", "sh": "scripts", "py": "scripts",
          "conf": "settings", "ini": "settings", "cfg": "settings", "env": "settings"}


def home(rel: str) -> str:
    """/home/user/<rel>."""
    return f"{HOME}/{rel}".rstrip("/")


def ext_of(name: str) -> str:
    """The lowercase extension after the last dot ("" when none)."""
    return name.rsplit(".", 1)[-1].lower() if "." in name.lstrip(".") else ""


def sha(spec: FileSpec) -> str:
    """sha256 of the bytes the preparer gives `spec`."""
    return digest(tree.render(spec))


def listing(paths: Iterable[str], folder: str, *, recursive: bool = False) -> list[str]:
    """Names of the entries directly in `folder` (files and first-level subfolders) among `paths` (files), or
    with `recursive` the relative paths of every file below it."""
    prefix = folder.rstrip("/") + "/"
    rels = [p[len(prefix):] for p in paths if p.startswith(prefix)]
    return sorted(set(rels if recursive else (r.split("/", 1)[0] for r in rels)))


def listing_check(check_id: str, folder: str, names: list[str], criterion: str, *, recursive: bool = False,
                  contents: Mapping[str, str] | None = None) -> Check:
    args: dict[str, Any] = {"path": folder, "names": sorted(names)}
    if recursive:
        args["recursive"] = True
    if contents:
        args["contents"] = dict(sorted(contents.items()))
    return Check(check_id, criterion, "fs.dir_listing", args)


def quote_list(names: list[str]) -> str:
    """'a', 'b' and 'c' — how a list of names is written in an instruction."""
    quoted = [f"'{n}'" for n in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


class Files:
    """Makes files from the pool: names unique per folder, content fitting the extension."""

    def __init__(self, pool: Mapping[str, Any], rng: random.Random) -> None:
        self.pool = pool
        self.rng = rng
        self.taken: set[str] = set()
        self._streams: dict[str, Iterator[str]] = {}

    def _stems(self, source: str) -> Iterator[str]:
        if source == "documents":
            base = [d["stem"] for d in self.pool["documents"]]
        elif source in ("tables", "scripts"):
            base = [t["stem"] for t in self.pool[source]]
        elif source == "logs":
            base = [t["service"] for t in self.pool["logs"]]
        elif source == "settings":
            base = [s["app"] for s in self.pool["settings"]]
        else:
            base = list(self.pool[source])
        yield from base
        for suffix in ("_v2", "_old", "_final", "_copy2", "_2024", "_draft", "_b", "_new"):
            yield from (stem + suffix for stem in base)

    def stem(self, ext: str) -> str:
        """The next stem of the right type for `ext` not used anywhere in the tree yet."""
        source = _STEMS.get(ext, "documents")
        stream = self._streams.setdefault(source, self._stems(source))
        for stem in stream:
            if stem not in self.taken:
                self.taken.add(stem)
                return stem
        raise ValueError(f"the pool has no unused stems left for .{ext}")

    def new(self, folder: str, ext: str, *, mode: int = 0o644, upper: bool = False) -> FileSpec:
        """A file with a fresh name of the right type in `folder` (absolute) and content fitting `ext`;
        `upper` writes the extension in capitals (IMG_2041.JPG), as cameras and Windows tools do."""
        return self.content(f"{folder}/{self.stem(ext)}.{ext.upper() if upper else ext}", mode=mode)

    def content(self, path: str, *, mode: int = 0o644) -> FileSpec:
        """A spec for `path` whose content fits its extension (pool text, table, log, script, settings...)."""
        rng, pool = self.rng, self.pool
        name = path.rsplit("/", 1)[-1]
        ext = ext_of(name.rstrip("~"))
        kind = tree.kind_for(name)
        stem = name.split(".", 1)[0]
        if ext in IMAGE_EXTS or ext in AUDIO_EXTS:
            return FileSpec(path, kind, f"{stem.replace('_', ' ')} - {pool['owner']}", mode=mode)
        if ext in DATA_EXTS:
            table = rng.choice(pool["tables"])
            rows = tuple(tuple(r) for r in [table["header"], *table["rows"]])
            return FileSpec(path, kind, rows=rows, mode=mode)
        if ext == "log":
            return FileSpec(path, "text", "\n".join(rng.choice(pool["logs"])["lines"]) + "\n", mode=mode)
        if ext in ("sh", "py"):
            lines = rng.choice(pool["scripts"])["lines"]
            return FileSpec(path, "text", "\n".join(lines) + "\n", mode=mode)
        if ext in ("conf", "ini", "cfg"):
            return FileSpec(path, "text", render_ini(rng.choice(pool["settings"])["sections"]), mode=mode)
        if ext in ("yaml", "yml"):
            sections = rng.choice(pool["settings"])["sections"]
            text = "".join(f"{name}:\n" + "".join(f"  {k}: {v}\n" for k, v in keys.items())
                           for name, keys in sections.items())
            return FileSpec(path, "text", text, mode=mode)
        if ext == "json":
            return FileSpec(path, "text", json.dumps(rng.choice(pool["settings"])["sections"], indent=2) + "\n",
                            mode=mode)
        doc = rng.choice(pool["documents"])
        text = "\n".join(doc["lines"]) + "\n"
        if ext in ("htm", "html"):
            body = "".join(f"<p>{line}</p>\n" for line in doc["lines"][2:])
            text = f"<!DOCTYPE html>\n<html><head><title>{doc['title']}</title></head>\n<body>\n{body}</body></html>\n"
        return FileSpec(path, kind if kind in ("pdf", "docx") else "text", text, mode=mode)


def render_ini(sections: Mapping[str, Mapping[str, str]], *, header: str = "") -> str:
    """`[section]` blocks of `key = value` lines, as most Linux apps write them."""
    parts = [f"# {header}\n"] if header else []
    for name, keys in sections.items():
        body = "".join(f"{k} = {v}\n" for k, v in keys.items())
        parts.append(f"[{name}]\n{body}" if name else body)
    return "\n".join(parts)


# --- shared nodes -----------------------------------------------------------------------------------

@node("sample", "sample", ("params",), ("plan",))
def sample(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("sample")
    return {"plan": {"scenario": rng.choice(SCENARIOS).name}}


def _offline_pool(rng: random.Random, values: Mapping[str, Any]) -> dict[str, Any]:
    return generate_pool(rng, values["plan"]["scenario"])


content = llm_node("content", kind="llm", inputs=("plan",), output="pool", prompt="os_content.txt",
                   schema=POOL_SCHEMA, offline=_offline_pool, check=check_pool, sketch=POOL_SKETCH)


@node("prepare", "prepare", ("tree",), ("assets", "launch"))
def prepare(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    """The tree's files as assets; the task opens a terminal."""
    return {"assets": tree.build(values["tree"]), "launch": list(LAUNCH)}


def source_nodes() -> tuple[Node, ...]:
    """sample -> content: the start of every OS family."""
    return (sample, content)


# --- difficulty axes (issue 15): the first level of each is today's tree, drawn with the same rng calls -------

AXES: dict[str, tuple[Any, ...]] = {
    "files": ("5-30", "40-60", "80-120"),  # how many files the whole tree holds (today's trees hold 5-30)
    "location": LOCATION,  # how deep the working folder sits (kit.axes.deepen)
    "lookalikes": LOOKALIKES,  # older copies of the working folder (or file) beside it
}
#: Where the `files` axis puts the files nobody asked about: folders no family works in (each family's paths
#: are also kept clear of them, see `_clear`), in a person's usual places.
BYSTANDER_ROOTS = ("Documents/old-projects", "Documents/receipts", "Documents/letters", "Pictures/phone-backup",
                   "Music/playlists", "Videos/clips", "work/handover", "projects/archive-2021", "Downloads/installers",
                   "Desktop/to-sort")
#: Types whose pool lists are long (documents, photos, tracks): 120 files never run out of fresh names.
_BYSTANDER_EXTS = ("pdf", "txt", "docx", "md", "jpg", "png", "jpeg", "gif", "mp3", "wav", "csv")
_PATH = re.compile(r"/home/user/[^\s'\",;()]+")


def place(folder: str, params: Mapping[str, Any]) -> str:
    """The working `folder` moved down by the skill's `location` level (no random draw: every level draws the
    same numbers, so the default keeps today's packages)."""
    return deepen(folder, pick(params, "location", AXES))


def _related(a: str, b: str) -> bool:
    return a == b or a.startswith(b + "/") or b.startswith(a + "/")


def _look_alike_name(name: str, i: int) -> str:
    """'notes (old).txt', 'notes (old 2).txt'; 'site.tar.gz' -> 'site (old).tar.gz'; '.env' -> '.env (old)'."""
    stem, dot, ext = name.partition(".") if "." in name.lstrip(".") else (name, "", "")
    if not stem:  # a dot file
        stem, dot, ext = name, "", ""
    return ("{} (old){}", "{} (old 2){}")[i].format(stem, dot + ext)


def _look_alikes(spec: list[FileSpec], near: str, count: int) -> list[FileSpec]:
    """`count` older copies of `near`: beside a file, copies of it; beside a folder, sibling folders holding
    copies of its files (same names and bytes: what `cp -r` left behind last month)."""
    parent, name = near.rsplit("/", 1)
    own = next((s for s in spec if s.path == near), None)
    if own is not None:
        return [replace(own, path=f"{parent}/{_look_alike_name(name, i)}") for i in range(count)]
    inside = [s for s in spec if s.path.startswith(near + "/")]
    return [replace(s, path=f"{parent}/{_look_alike_name(name, i)}{s.path[len(near):]}")
            for i in range(count) for s in inside]


def _clear(spec: list[FileSpec], facts: Mapping[str, Any]) -> list[str]:
    """The bystander roots that share no folder with the task: none is, holds or sits in a folder of the tree or a
    path the instruction states (so no check's scope reaches a bystander). A file directly in the home (.bashrc)
    keeps nothing clear: no check lists the home itself."""
    busy = {s.path.rsplit("/", 1)[0] for s in spec} - {HOME}
    busy |= {m.rstrip(".") for v in facts.values() if isinstance(v, str) for m in _PATH.findall(v)}
    return [root for root in BYSTANDER_ROOTS if not any(_related(home(root), b) for b in busy)]


def dress(rng: random.Random, params: Mapping[str, Any], pool: Mapping[str, Any], spec: list[FileSpec],
          near: str, facts: Mapping[str, Any]) -> list[FileSpec]:
    """`spec` plus what the skill's `lookalikes` and `files` levels add: older copies of `near` (the working
    folder, or the one file the task edits) beside it, then files in folders the task never touches until the
    tree holds the `files` level's count. At the default levels `spec` itself, with no random draw."""
    copies = int(pick(params, "lookalikes", AXES))
    out = [*spec, *_look_alikes(spec, near, copies)] if copies else list(spec)
    if pick(params, "files", AXES) == AXES["files"][0]:
        return out
    low, high = span(pick(params, "files", AXES))
    want = rng.randint(low, high) - len(out)
    roots = _clear(out, facts)
    if want <= 0 or not roots:
        return out
    roots = rng.sample(roots, min(len(roots), 4))
    files = Files(pool, rng)
    folders = [home(r) for r in roots] + [f"{home(r)}/{rng.choice(('2022', 'old', 'misc', 'keep'))}" for r in roots]
    for i in range(want):
        try:
            out.append(files.new(folders[i % len(folders)], rng.choice(_BYSTANDER_EXTS)))
        except ValueError:  # a model's small pool has no fresh names left: the tree stays a little smaller
            break
    return out


def kit_without(*axes: str) -> AppKit:
    """The OS kit minus `axes`: for a family whose goal cannot follow them (a config file lives where its app
    reads it, so `location` cannot move it)."""
    return replace(OS, axes={k: v for k, v in AXES.items() if k not in axes})


#: The OS app kit: families built with `kit.family.family(NAME, OS, ...)`.
OS = AppKit(apps=(APP,), source=source_nodes, state="tree", prepare=prepare, instruction=instruction, axes=AXES,
            frame=tree_frame_node, teacher=teacher_node)
