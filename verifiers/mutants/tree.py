"""File-tree mutants: damage files a task had to leave alone, or touch the tree harmlessly.

In scope are the files the rubric points at: a file named by a check's `path`, or any file below a folder a
check's `path` names; files inside app profiles (`APP_PROFILES`) are left to the app-aware mutators. Of those,
*kept* files (the oracle left their bytes as they were) must stay as they were, so these are damaging (no
instruction asks for them; each picks its victim with `ctx.rng`):
- `tree.truncated`: a kept file emptied (`: > file`);
- `tree.overwritten`: a kept file's bytes replaced by other bytes of the same length;
- `tree.replaced`: a kept file replaced by a copy of another kept file;
- `tree.deleted`: a kept file removed;
- `tree.symlink_for_file`: a file the oracle created as a copy of another file becomes a link to that file
  (`ln -s` where `cp` was asked);
- `tree.extra_file`: a stray file in a folder whose exact listing a check fixes.
Neutral: `tree.mtimes_changed` (every file in scope touched to another time: copies and edits made by hand
carry new times, and no instruction fixes them).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kit.model import HOME, INFEASIBLE_RECORD
from kit.parsecache import file_digest as _digest
from verifiers.frame.tree import APP_PROFILES
from verifiers.mutants import Mutant, MutationContext

DECLARATION = INFEASIBLE_RECORD.removeprefix(HOME + "/")
#: files bigger than this are left alone (hashing and rewriting them would make the stage slow)
_MAX_BYTES = 32 * 1024 * 1024
# APP_PROFILES (verifiers.frame.tree): app profiles whose files their app rewrites on its own: damage there is
# modelled by the app-aware mutators (`thunderbird`, `json_profile`), which know what "out of scope" means inside them


def _profile(rel: str) -> bool:
    """Is `rel` inside an app profile, or inside a repository's .git folder or a bare repository (`origin.git/`)
    wherever it lies (git's own bookkeeping, judged by the git checks)?"""
    return rel.startswith(APP_PROFILES) or ".git/" in f"{rel}/"


def _files(root: Path) -> dict[str, Path]:
    out = {}
    for path in sorted(root.rglob("*")):
        if (path.is_file() and not path.is_symlink() and path.stat().st_size <= _MAX_BYTES
                and os.access(path, os.R_OK)):
            out[str(path.relative_to(root))] = path
    return out


def _rubric_paths(task: dict[str, object]) -> list[str]:
    """Home-relative paths the rubric's checks name (files or folders)."""
    out = set()
    for item in task.get("rubric", []):  # type: ignore[attr-defined]
        path = item.get("args", {}).get("path")
        if isinstance(path, str) and path.startswith(HOME + "/") and ".." not in path.split("/"):
            out.add(path.removeprefix(HOME + "/").rstrip("/"))
    return sorted(out)


def _listed_folders(task: dict[str, object]) -> list[str]:
    """Home-relative folders whose exact listing a check fixes (`fs.dir_listing`)."""
    return sorted({item["args"]["path"].removeprefix(HOME + "/").rstrip("/")  # type: ignore[index]
                   for item in task.get("rubric", [])  # type: ignore[attr-defined]
                   if item.get("primitive") == "fs.dir_listing" and isinstance(item["args"].get("path"), str)
                   and item["args"]["path"].startswith(HOME + "/")})


def byte_fixed(task: dict[str, Any], rel: str) -> bool:
    """Does the rubric require the file at home-relative `rel` to keep its exact bytes (an `fs.dir_listing`
    with `contents`, an `fs.same_content`)? Then it is a file moved or copied, not a document to edit, and a
    document mutator's "re-saved by the app" is no neutral rewrite of it."""
    for item in task.get("rubric", []):
        args = item.get("args", {})
        folder = str(args.get("path", "")).removeprefix(HOME + "/").rstrip("/")
        if item.get("primitive") == "fs.same_content" and folder == rel:
            return True
        if item.get("primitive") == "fs.dir_listing" and isinstance(args.get("contents"), dict) and any(
                f"{folder}/{name}" == rel for name in args["contents"]):
            return True
    return False


def in_scope(rel: str, paths: list[str]) -> bool:
    return any(rel == p or rel.startswith(p + "/") for p in paths)


def _rewrite(path: Path, data: bytes) -> None:
    """Write `data` over `path` keeping its mode, even when the task made it read-only (a careless `cp` or
    `: >` with sudo does the same): the damage is to the bytes, not the permissions."""
    mode = stat.S_IMODE(path.stat().st_mode)
    os.chmod(path, mode | stat.S_IWUSR | stat.S_IRUSR)
    try:
        path.write_bytes(data)
    finally:
        os.chmod(path, mode)


def _truncate(rel: str) -> Callable[[Path], None]:
    def apply(root: Path) -> None:
        _rewrite(root / rel, b"")

    return apply


def _overwrite(rel: str) -> Callable[[Path], None]:
    def apply(root: Path) -> None:
        data = (root / rel).read_bytes()
        _rewrite(root / rel, bytes(b ^ 0x5A for b in data))  # same length, every byte different

    return apply


def _replace(rel: str, other: str) -> Callable[[Path], None]:
    def apply(root: Path) -> None:
        _rewrite(root / rel, (root / other).read_bytes())

    return apply


def _delete(rel: str) -> Callable[[Path], None]:
    def apply(root: Path) -> None:
        folder = (root / rel).parent
        mode = stat.S_IMODE(folder.stat().st_mode)
        os.chmod(folder, mode | stat.S_IWUSR | stat.S_IXUSR)
        try:
            (root / rel).unlink()
        finally:
            os.chmod(folder, mode)

    return apply


def _link(rel: str, target: str) -> Callable[[Path], None]:
    def apply(root: Path) -> None:
        (root / rel).unlink()
        os.symlink(os.path.relpath(root / target, (root / rel).parent), root / rel)

    return apply


def _extra(folder: str, name: str) -> Callable[[Path], None]:
    def apply(root: Path) -> None:
        (root / folder).mkdir(parents=True, exist_ok=True)
        (root / folder / name).write_text("scratch notes\n", encoding="utf-8")

    return apply


def _touch(rels: list[str]) -> Callable[[Path], None]:
    def apply(root: Path) -> None:
        for i, rel in enumerate(rels):
            stamp = 1_600_000_000 + 3_600 * i  # fixed, far from any generated time: deterministic
            os.utime(root / rel, (stamp, stamp), follow_symlinks=False)

    return apply


TRASH = ".local/share/Trash"


def _leftover(folder: str) -> Callable[[Path], None]:
    def apply(root: Path) -> None:
        (root / folder / "New folder").mkdir(parents=True, exist_ok=True)

    return apply


def _in_trash(rel: str) -> Callable[[Path], None]:
    def apply(root: Path) -> None:
        name = Path(rel).name
        (root / TRASH / "files").mkdir(parents=True, exist_ok=True)
        (root / TRASH / "info").mkdir(parents=True, exist_ok=True)
        (root / TRASH / "files" / name).write_bytes((root / rel).read_bytes())
        (root / TRASH / "info" / f"{name}.trashinfo").write_text(
            f"[Trash Info]\nPath={HOME}/{rel}\nDeletionDate=2024-03-05T10:00:00\n", encoding="utf-8")

    return apply


def _read_only(folder: str) -> Callable[[Path], None]:
    def apply(root: Path) -> None:
        os.chmod(root / folder, 0o555)

    return apply


def _left_behind(ctx: MutationContext) -> list[Mutant]:
    """Wrong end states around what the task changes (issue 37): an empty "New folder" left beside it, a copy of a
    file it made or changed left in the Trash, the folder holding it made read-only."""
    changed = [rel for rel in ctx.changed() if not _profile(rel) and not rel.startswith(TRASH)
               and rel != DECLARATION  # the runner's record of a declined task, no file of the user's
               and (ctx.oracle / rel).is_file() and not (ctx.oracle / rel).is_symlink()]
    if not changed:
        return []
    rel = ctx.rng.choice(changed)
    folder = str(Path(rel).parent)
    out = [Mutant(f"tree.trash_copy:{Path(rel).name}", "damaging", _in_trash(rel))]
    if folder != "." and not (ctx.oracle / folder / "New folder").exists():
        out.append(Mutant(f"tree.leftover_folder:{folder}/New folder", "damaging", _leftover(folder)))
        mode = stat.S_IMODE((ctx.oracle / folder).stat().st_mode)
        if mode & stat.S_IWUSR:
            out.append(Mutant(f"tree.folder_read_only:{folder}", "damaging", _read_only(folder)))
    return out


def mutants(ctx: MutationContext) -> list[Mutant]:
    """Damaging mutants of the kept files in scope and the listed folders, and of what the task leaves around what it
    changes; a neutral mtime change."""
    rng = ctx.rng
    scope = _rubric_paths(ctx.task)
    before = _files(ctx.initial)
    after = _files(ctx.oracle)
    digests = {rel: _digest(path) for rel, path in after.items()
               if in_scope(rel, scope) and not _profile(rel)}
    kept = sorted(rel for rel in digests if rel in before and _digest(before[rel]) == digests[rel])
    out: list[Mutant] = []
    if kept:
        victim = rng.choice(kept)
        full = [rel for rel in kept if after[rel].stat().st_size > 0]
        out.append(Mutant(f"tree.deleted:{victim}", "damaging", _delete(victim)))
        if full:
            emptied = rng.choice(full)
            out.append(Mutant(f"tree.truncated:{emptied}", "damaging", _truncate(emptied)))
            overwritten = rng.choice(full)
            out.append(Mutant(f"tree.overwritten:{overwritten}", "damaging", _overwrite(overwritten)))
        others = [(a, b) for a in kept for b in kept if digests[a] != digests[b]]
        if others:
            a, b = rng.choice(others)
            out.append(Mutant(f"tree.replaced:{a}<-{b}", "damaging", _replace(a, b)))
    created = sorted(rel for rel in digests if rel not in before)
    by_digest: dict[str, list[str]] = {}
    for rel in sorted(after):
        if rel not in created:
            by_digest.setdefault(_digest(after[rel]), []).append(rel)
    copies = [(rel, by_digest[digests[rel]][0]) for rel in created
              if digests[rel] in by_digest and after[rel].stat().st_size > 0]  # all empty files look alike
    if copies:
        copy, original = rng.choice(copies)
        out.append(Mutant(f"tree.symlink_for_file:{copy}->{original}", "damaging", _link(copy, original)))
    for folder in _listed_folders(ctx.task):
        if (ctx.oracle / folder).is_dir():
            name = rng.choice(("notes.txt", "untitled.txt", ".~lock.tmp#", "scratch.txt"))
            if not (ctx.oracle / folder / name).exists():
                out.append(Mutant(f"tree.extra_file:{folder}/{name}", "damaging", _extra(folder, name)))
    out += _left_behind(ctx)
    if digests:
        out.append(Mutant("tree.mtimes_changed", "neutral", _touch(sorted(digests)), touches=tuple(sorted(digests))))
    return out
