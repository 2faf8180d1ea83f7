"""git as a developer uses it, written as git writes it: a branch (`git branch` / `git checkout -b`,
vscode.git_branch): a loose ref .git/refs/heads/<name> holding the start commit's id, and with `switch` HEAD
pointing at it (the start is the current HEAD, or, a near-miss's slip, another branch `start`); a commit of the
working tree (`git add -A && git commit`, vscode.git_commit): loose objects and the branch moved, pushed to a
local bare `origin` when asked."""

from __future__ import annotations

import zlib
from pathlib import Path

from kit import bounded
from preparers.git import commit_objects
from preparers.ops import OpError, op
from preparers.ops.fs import FsHandle


def _commit(h: FsHandle, ref: str) -> str:
    host = h.host / ".git" / ref
    if not host.is_file():
        raise OpError(f"fs.git_branch: no ref {ref}")
    return bounded.read_file(host).decode().strip()


@op("fs.git_branch")
def git_branch(h: FsHandle, name: str, switch: bool = True, start: str | None = None) -> None:
    """Create branch `name` in the repository at `path` from HEAD (or from branch `start`); `switch` checks it out."""
    head = bounded.read_file(h.host / ".git" / "HEAD").decode().strip()
    if not head.startswith("ref: refs/heads/"):
        raise OpError("fs.git_branch: HEAD is detached")
    commit = _commit(h, f"refs/heads/{start}" if start else head.removeprefix("ref: "))
    target = h.host / ".git" / "refs" / "heads" / name
    if target.exists():
        raise OpError(f"fs.git_branch: branch {name!r} exists")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(commit + "\n")
    if switch:
        (h.host / ".git" / "HEAD").write_text(f"ref: refs/heads/{name}\n")


def _worktree(root: Path) -> dict[str, bytes]:
    """The working tree's files (everything but .git), as `git add -A` stages them."""
    files = {}
    for entry in bounded.walk(root, descend=lambda e: e.rel != ".git"):
        if entry.is_dir or entry.rel == ".git":
            continue
        files[entry.rel] = bounded.read_file(root / entry.rel)
    return files


@op("fs.git_commit")
def git_commit(h: FsHandle, message: str, author: str, email: str, when: int = 1_717_000_000,
               origin: str | None = None, only_tracked: bool = False) -> None:
    """Commit the working tree of the repository at `path` on its current branch with `message` (`git add -A`;
    `only_tracked`: `git commit -a`, new files left out) and, with `origin` (a bare repository's path), push the
    branch there."""
    head = bounded.read_file(h.host / ".git" / "HEAD").decode().strip().removeprefix("ref: ")
    parent = _commit(h, head)
    files = _worktree(h.host)
    if only_tracked:
        tracked = _tracked(h.host / ".git", parent)
        files = {rel: data for rel, data in files.items() if rel in tracked}
    sha, objects = commit_objects(files, parent, message, author, email, when)
    stores = [h.host / ".git"] + ([h.locate(origin)] if origin else [])
    for store in stores:
        for oid, packed in objects.items():
            target = store / "objects" / oid[:2] / oid[2:]
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(packed)
        (store / head).parent.mkdir(parents=True, exist_ok=True)
        (store / head).write_text(sha + "\n")
    if origin:
        remote = h.host / ".git" / "refs" / "remotes" / "origin" / head.removeprefix("refs/heads/")
        remote.parent.mkdir(parents=True, exist_ok=True)
        remote.write_text(sha + "\n")


def _tracked(git: Path, commit: str) -> set[str]:
    """The paths of `commit`'s tree."""
    def read(oid: str) -> bytes:
        raw = zlib.decompress(bounded.read_file(git / "objects" / oid[:2] / oid[2:]))
        return raw[raw.index(b"\0") + 1:]

    def walk(oid: str, prefix: str) -> set[str]:
        body, out, i = read(oid), set(), 0
        while i < len(body):
            space, nul = body.index(b" ", i), body.index(b"\0", i)
            mode, name = body[i:space].decode(), body[space + 1:nul].decode()
            child = body[nul + 1:nul + 21].hex()
            out |= walk(child, f"{prefix}{name}/") if mode == "40000" else {f"{prefix}{name}"}
            i = nul + 21
        return out

    tree = read(commit).split(b"\n", 1)[0].decode().removeprefix("tree ")
    return walk(tree, "")
