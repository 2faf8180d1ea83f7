"""A small git repository written as git writes it (for vscode.git_branch): loose zlib objects, loose refs, HEAD,
config and an index that matches the working tree, so `git status` is clean and every git command works on it.

Deterministic: fixed dates per commit, zlib at git's default level. `repository(files, history, branches, head)`
returns .git-relative path -> bytes and the commit ids.
"""

from __future__ import annotations

import hashlib
import struct
import zlib
from collections.abc import Mapping, Sequence


def blob_id(data: bytes) -> str:
    """The id git gives a file's content."""
    return hashlib.sha1(f"blob {len(data)}".encode() + b"\0" + data).hexdigest()  # noqa: S324


def commit_objects(files: Mapping[str, bytes], parent: str, message: str, author: str, email: str, when: int
                   ) -> tuple[str, dict[str, bytes]]:
    """The commit of `files` on top of `parent`: (its id, object id -> zlib bytes of it, its tree and blobs)."""
    objects: dict[str, bytes] = {}
    tree = _tree(files, objects)
    text = (f"tree {tree}\nparent {parent}\nauthor {author} <{email}> {when} +0000\n"
            f"committer {author} <{email}> {when} +0000\n\n{message}\n")
    sha, packed = _object("commit", text.encode())
    objects[sha] = packed
    return sha, objects


def _object(kind: str, body: bytes) -> tuple[str, bytes]:
    raw = f"{kind} {len(body)}".encode() + b"\0" + body
    return hashlib.sha1(raw).hexdigest(), zlib.compress(raw)  # noqa: S324 - git's object ids are SHA-1


def _tree(files: Mapping[str, bytes], objects: dict[str, bytes]) -> str:
    """The tree object of `files` (path -> bytes), written into `objects` with its blobs and subtrees."""
    here: dict[str, tuple[str, str]] = {}  # name -> (mode, sha)
    folders: dict[str, dict[str, bytes]] = {}
    for path, data in files.items():
        head, _, rest = path.partition("/")
        if rest:
            folders.setdefault(head, {})[rest] = data
        else:
            sha, packed = _object("blob", data)
            objects[sha] = packed
            here[head] = ("100644", sha)
    for name, inner in folders.items():
        here[name] = ("40000", _tree(inner, objects))
    order = sorted(here, key=lambda n: n + "/" if here[n][0] == "40000" else n)
    body = b"".join(f"{here[n][0]} {n}".encode() + b"\0" + bytes.fromhex(here[n][1]) for n in order)
    sha, packed = _object("tree", body)
    objects[sha] = packed
    return sha


def _index(files: Mapping[str, bytes]) -> bytes:
    """A version-2 index of `files` (stat fields zero: git re-reads such files once and finds them unchanged)."""
    entries = b""
    for path in sorted(files):
        sha = hashlib.sha1(f"blob {len(files[path])}".encode() + b"\0" + files[path]).digest()  # noqa: S324
        name = path.encode()
        entry = struct.pack(">10I", 0, 0, 0, 0, 0, 0, 0o100644, 0, 0, len(files[path])) + sha
        entry += struct.pack(">H", min(len(name), 0xFFF)) + name
        entries += entry + b"\0" * (8 - (len(entry) % 8))
    data = b"DIRC" + struct.pack(">II", 2, len(files)) + entries
    return data + hashlib.sha1(data).digest()  # noqa: S324


def repository(snapshots: Sequence[tuple[Mapping[str, bytes], str, int]], author: str, email: str,
               branches: Mapping[str, int], head: str, origin: str | None = None
               ) -> tuple[dict[str, bytes], list[str]]:
    """The .git folder of a linear history: `snapshots` are (files, message, unix time) oldest first; `branches`
    maps a branch name to the index of the commit it points at; `head` is the checked-out branch (the working tree
    and index are its commit's files). With `origin` (a bare repository's path) the repository has that remote,
    `head` tracks it, and the user's name and e-mail are set. Returns (.git-relative path -> bytes, commit ids oldest
    first)."""
    objects: dict[str, bytes] = {}
    commits: list[str] = []
    for files, message, when in snapshots:
        tree = _tree(files, objects)
        lines = [f"tree {tree}"] + ([f"parent {commits[-1]}"] if commits else [])
        lines += [f"author {author} <{email}> {when} +0000", f"committer {author} <{email}> {when} +0000", "",
                  message, ""]
        sha, packed = _object("commit", "\n".join(lines).encode())
        objects[sha] = packed
        commits.append(sha)
    out: dict[str, bytes] = {
        "HEAD": f"ref: refs/heads/{head}\n".encode(),
        "config": b"[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n"
                  b"\tlogallrefupdates = true\n",
        "description": b"Unnamed repository; edit this file 'description' to name the repository.\n",
        "index": _index(snapshots[branches[head]][0]),
    }
    for name, at in branches.items():
        out[f"refs/heads/{name}"] = f"{commits[at]}\n".encode()
    if origin:
        out["config"] += (f'[user]\n\tname = {author}\n\temail = {email}\n[remote "origin"]\n\turl = {origin}\n'
                          f'\tfetch = +refs/heads/*:refs/remotes/origin/*\n[branch "{head}"]\n\tremote = origin\n'
                          f"\tmerge = refs/heads/{head}\n").encode()
        out[f"refs/remotes/origin/{head}"] = f"{commits[branches[head]]}\n".encode()
    for sha, packed in objects.items():
        out[f"objects/{sha[:2]}/{sha[2:]}"] = packed
    return out, commits
