"""`git.branch_created`: a branch made in a project's git repository (vscode.git_branch), read from .git as git
writes it: HEAD, loose refs under refs/ and packed-refs (after `git gc` or `git pack-refs`), a loose ref winning
over a packed one. Nothing is run; every read is bounded.

The tree frame does not walk .git (an application's own bookkeeping: git rewrites its index, logs and objects as
it runs; verifiers/frame/tree.py), so this check is the frame for the refs: every other branch and tag is where it
was and no other one is made.
"""

from __future__ import annotations

import os
import re
import zlib

from kit import bounded
from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.meaning import Meaning
from verifiers.readers import StateError

MAX_REFS = 5_000
SHA = re.compile(r"[0-9a-f]{40}")


def _small(state: State, path: str) -> str | None:
    host = state.path(path)
    if not host.is_file() or host.is_symlink():
        return None
    return bounded.read_file(host, 1 << 20).decode("utf-8", "replace")


def refs(state: State, repo: str) -> dict[str, str]:
    """refname -> commit id of every branch and tag (loose refs win over packed-refs)."""
    found: dict[str, str] = {}
    packed = _small(state, f"{repo}/.git/packed-refs") or ""
    for line in packed.splitlines()[:MAX_REFS]:
        parts = line.split(" ", 1)
        if len(parts) == 2 and SHA.fullmatch(parts[0]):
            found[parts[1].strip()] = parts[0]
    top = state.path(f"{repo}/.git/refs")
    if top.is_dir():
        seen = 0
        for folder, _dirs, files in os.walk(top, followlinks=False):
            for name in files:
                seen += 1
                if seen > MAX_REFS:
                    raise StateError(f"{repo}/.git/refs holds more than {MAX_REFS} refs")
                rel = os.path.relpath(os.path.join(folder, name), top).replace(os.sep, "/")
                text = _small(state, f"{repo}/.git/refs/{rel}")
                if text is not None and SHA.fullmatch(text.strip()):
                    found[f"refs/{rel}"] = text.strip()
    return {k: v for k, v in found.items() if k.startswith(("refs/heads/", "refs/tags/"))}


@primitive("git.branch_created", grounded=("name",), meaning=Meaning(action=r"branch|creat|check ?out|switch"))
def branch_created(state: State, repo: str, name: str, commit: str, checked_out: bool, head: str,
                   kept: dict[str, str]) -> Result:
    """In the git repository `repo`, the branch `name` points at `commit`; HEAD is on it when `checked_out`, else
    still on the branch `head`; every ref of `kept` (refname -> commit) is unchanged and no other branch or tag
    exists."""
    try:
        found = refs(state, repo)
        head_text = _small(state, f"{repo}/.git/HEAD")
    except (StateError, OSError, ValueError) as exc:
        return fail(f"{repo}: the repository cannot be read ({exc})")
    if head_text is None:
        return fail(f"{repo} is no longer a git repository (.git/HEAD is missing)")
    ref = f"refs/heads/{name}"
    if ref not in found:
        branches = sorted(r.removeprefix("refs/heads/") for r in found if r.startswith("refs/heads/"))
        return fail(f"{repo} has no branch {name!r} (branches: {', '.join(branches[:8])})")
    if found[ref] != commit:
        return fail(f"branch {name!r} points at {found[ref][:10]}, not at {commit[:10]} (the commit HEAD was on)")
    on = head_text.strip().removeprefix("ref:").strip() if head_text.startswith("ref:") else head_text.strip()
    want = ref if checked_out else f"refs/heads/{head}"
    if on != want:
        return fail(f"HEAD is on {on!r}, expected {want!r}" + ("" if checked_out else " (the branch is only made)"))
    moved = sorted(r for r, sha in kept.items() if found.get(r) != sha)
    extra = sorted(set(found) - set(kept) - {ref})
    if moved or extra:
        return fail(f"{repo}: " + "; ".join(([f"{', '.join(moved)} moved or deleted"] if moved else [])
                                           + ([f"other refs made: {', '.join(extra[:5])}"] if extra else [])))
    where = "and HEAD is on it" if checked_out else f"and HEAD stays on {head}"
    return ok(f"branch {name!r} points at {commit[:10]} {where}; the {len(kept)} other ref(s) are unchanged")


MAX_OBJECT = 8 << 20
MAX_TREE_ENTRIES = 5_000


MAX_PACK = 64 << 20
MAX_DELTA_CHAIN = 64
_PACK_KINDS = {1: "commit", 2: "tree", 3: "blob", 4: "tag"}


def _inflate(data: bytes, start: int, oid: str) -> bytes:
    inflate = zlib.decompressobj()
    raw = inflate.decompress(data[start:], MAX_OBJECT + 64)
    if inflate.unconsumed_tail or len(raw) > MAX_OBJECT:
        raise StateError(f"object {oid[:10]} inflates past {MAX_OBJECT} bytes")
    return raw


def _varint(data: bytes, i: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[i]
        value |= (byte & 0x7F) << shift
        shift, i = shift + 7, i + 1
        if not byte & 0x80:
            return value, i


def _apply_delta(base: bytes, delta: bytes) -> bytes:
    size, i = _varint(delta, 0)
    if size != len(base):
        raise StateError("a packed delta does not fit its base")
    target, i = _varint(delta, i)
    if target > MAX_OBJECT:
        raise StateError(f"a packed object is larger than {MAX_OBJECT} bytes")
    out = bytearray()
    while i < len(delta):
        op = delta[i]
        i += 1
        if op & 0x80:  # copy from the base: offset (4 bytes) and size (3 bytes), present by bit
            offset = length = 0
            for bit in range(4):
                if op & (1 << bit):
                    offset, i = offset | delta[i] << (8 * bit), i + 1
            for bit in range(3):
                if op & (1 << (4 + bit)):
                    length, i = length | delta[i] << (8 * bit), i + 1
            out += base[offset:offset + (length or 0x10000)]
        elif op:
            out += delta[i:i + op]
            i += op
        else:
            raise StateError("a packed delta holds a zero instruction")
        if len(out) > target:
            break
    if len(out) != target:
        raise StateError("a packed delta does not give its stated size")
    return bytes(out)


def _pack_entry(state: State, store: str, pack: bytes, offset: int, oid: str, depth: int = 0) -> tuple[str, bytes]:
    if depth > MAX_DELTA_CHAIN or not 12 <= offset < len(pack):
        raise StateError(f"object {oid[:10]}: a broken pack entry")
    byte = pack[offset]
    kind, i = (byte >> 4) & 7, offset + 1
    while byte & 0x80:
        byte, i = pack[i], i + 1
    if kind in _PACK_KINDS:
        return _PACK_KINDS[kind], _inflate(pack, i, oid)
    if kind == 6:  # OFS_DELTA: the base is earlier in this pack
        byte, i = pack[i], i + 1
        back = byte & 0x7F
        while byte & 0x80:
            byte, i = pack[i], i + 1
            back = ((back + 1) << 7) | (byte & 0x7F)
        base_kind, base = _pack_entry(state, store, pack, offset - back, oid, depth + 1)
    elif kind == 7:  # REF_DELTA: the base named by its id
        base_kind, base = _object(state, store, pack[i:i + 20].hex(), depth + 1)
        i += 20
    else:
        raise StateError(f"object {oid[:10]}: pack entry type {kind}")
    return base_kind, _apply_delta(base, _inflate(pack, i, oid))


def _packed(state: State, store: str, oid: str, depth: int) -> tuple[str, bytes] | None:
    """(kind, body) of `oid` from the packs of `store` (objects/pack/*.idx version 2 and its .pack), or None."""
    folder = state.path(f"{store}/objects/pack")
    if not folder.is_dir() or folder.is_symlink():
        return None
    want = bytes.fromhex(oid)
    for idx in sorted(folder.glob("pack-*.idx"))[:64]:
        data = bounded.read_file(idx, MAX_PACK)
        if data[:8] != b"\xfftOc\x00\x00\x00\x02":
            continue
        count = int.from_bytes(data[8 + 255 * 4:8 + 256 * 4], "big")
        lo = int.from_bytes(data[8 + (want[0] - 1) * 4:8 + want[0] * 4], "big") if want[0] else 0
        hi = int.from_bytes(data[8 + want[0] * 4:12 + want[0] * 4], "big")
        names = 8 + 256 * 4
        while lo < hi:  # binary search of the sorted ids
            mid = (lo + hi) // 2
            found = data[names + mid * 20:names + mid * 20 + 20]
            if found == want:
                break
            lo, hi = (mid + 1, hi) if found < want else (lo, mid)
        else:
            continue
        offsets = names + count * 24
        offset = int.from_bytes(data[offsets + mid * 4:offsets + mid * 4 + 4], "big")
        if offset & 0x80000000:
            large = offsets + count * 4 + (offset & 0x7FFFFFFF) * 8
            offset = int.from_bytes(data[large:large + 8], "big")
        pack = bounded.read_file(idx.with_suffix(".pack"), MAX_PACK)
        if pack[:4] != b"PACK":
            raise StateError(f"{idx.with_suffix('.pack').name} is not a pack")
        return _pack_entry(state, store, pack, offset, oid, depth)
    return None


def _object(state: State, store: str, oid: str, depth: int = 0) -> tuple[str, bytes]:
    """(kind, body) of the object `oid` in the object store `store` (`.git` or a bare repository): loose, or in a
    pack (after `git gc`), inflated at most MAX_OBJECT bytes (a zip-bomb object fails)."""
    if not SHA.fullmatch(oid):
        raise StateError(f"{oid!r} is not an object id")
    host = state.path(f"{store}/objects/{oid[:2]}/{oid[2:]}")
    if not host.is_file():
        try:
            found = _packed(state, store, oid, depth)
        except (IndexError, ValueError) as exc:
            raise StateError(f"object {oid[:10]}: a broken pack ({exc})") from None
        if found is None:
            raise StateError(f"object {oid[:10]} is not in {store} (neither loose nor packed)")
        return found
    inflate = zlib.decompressobj()
    raw = inflate.decompress(bounded.read_file(host, MAX_OBJECT), MAX_OBJECT + 64)
    if inflate.unconsumed_tail:
        raise StateError(f"object {oid[:10]} inflates past {MAX_OBJECT} bytes")
    head, _, body = raw.partition(b"\0")
    return head.split(b" ")[0].decode("ascii", "replace"), body


def _tree_files(state: State, store: str, oid: str, prefix: str = "", depth: int = 0) -> dict[str, str]:
    """path -> blob id of every file of tree `oid`."""
    kind, body = _object(state, store, oid)
    if kind != "tree" or depth > 64:
        raise StateError(f"{oid[:10]} is not a tree")
    out: dict[str, str] = {}
    i = 0
    while i < len(body):
        space, nul = body.index(b" ", i), body.index(b"\0", i)
        mode, name = body[i:space].decode(), body[space + 1:nul].decode("utf-8", "replace")
        child = body[nul + 1:nul + 21].hex()
        if mode == "40000":
            out.update(_tree_files(state, store, child, f"{prefix}{name}/", depth + 1))
        else:
            out[f"{prefix}{name}"] = child
        if len(out) > MAX_TREE_ENTRIES:
            raise StateError(f"tree {oid[:10]} lists more than {MAX_TREE_ENTRIES} files")
        i = nul + 21
    return out


@primitive("git.committed", grounded=("message",), meaning=Meaning(action=r"commit"))
def committed(state: State, repo: str, branch: str, parent: str, message: str, files: dict[str, str],
              kept: dict[str, str], origin: str, pushed: bool) -> Result:
    """In the git repository `repo`, HEAD is still on `branch`, whose tip is a new commit on top of `parent` with
    the message `message` (a trailing newline aside) whose files are exactly `files` (path -> blob id: every change
    of the working tree staged, new files included); every ref of `kept` is unchanged and no other branch or tag is
    made. When `pushed`, the branch is pushed to `origin` (a bare repository's path): its `branch` is that commit, whose
    objects are in it; otherwise origin's `branch` is still `parent`."""
    git = f"{repo}/.git"
    try:
        found = refs(state, repo)
        head_text = _small(state, f"{git}/HEAD") or ""
        ref = f"refs/heads/{branch}"
        if head_text.strip() != f"ref: {ref}":
            return fail(f"HEAD is {head_text.strip()[:60]!r}, expected it on {branch}")
        tip = found.get(ref, "")
        if tip == parent:
            return fail(f"{branch} is still at {parent[:10]}: nothing was committed")
        kind, body = _object(state, git, tip)
        if kind != "commit":
            return fail(f"{branch} points at a {kind}, not a commit")
        header, _, text = body.decode("utf-8", "replace").partition("\n\n")
        fields = [line.split(" ", 1) for line in header.splitlines() if " " in line]
        parents = [v for k, v in fields if k == "parent"]
        tree = next((v for k, v in fields if k == "tree"), "")
        if parents != [parent]:
            return fail(f"the commit {tip[:10]} has parent(s) {[p[:10] for p in parents]}, expected {parent[:10]} "
                        "(one new commit on top of the one before)")
        if text.rstrip("\n") != message:
            return fail(f"the commit message is {text.rstrip()[:120]!r}, expected {message!r}")
        have = _tree_files(state, git, tree)
    except (StateError, OSError, ValueError, UnicodeDecodeError) as exc:
        return fail(f"{repo}: the repository cannot be read ({exc})")
    if have != files:
        missing = sorted(set(files) - set(have))
        differ = sorted(p for p in files if p in have and have[p] != files[p])
        extra = sorted(set(have) - set(files))
        return fail("the commit's files are not the working tree's: "
                    + "; ".join(x for x in (f"left out {missing[:4]}" if missing else "",
                                            f"other content in {differ[:4]}" if differ else "",
                                            f"also holds {extra[:4]}" if extra else "") if x))
    moved = sorted(r for r, sha in kept.items() if found.get(r) != sha)
    extra_refs = sorted(set(found) - set(kept) - {ref})
    if moved or extra_refs:
        return fail(f"{repo}: other refs changed: {', '.join((moved + extra_refs)[:5])}")
    try:
        there = _small(state, f"{origin}/refs/heads/{branch}") or ""
        packed = _small(state, f"{origin}/packed-refs") or ""
        at = there.strip() or next((line.split()[0] for line in packed.splitlines()
                                     if line.endswith(f" {ref}")), "")
        if pushed and at != tip:
            return fail(f"{origin}: {branch} is at {at[:10] or 'nothing'}, not at the new commit {tip[:10]}: "
                        "not pushed")
        if not pushed and at != parent:
            return fail(f"{origin}: {branch} is at {at[:10] or 'nothing'}, no longer at {parent[:10]}: pushed, "
                        "though the commit was to stay local")
        if pushed:
            _object(state, origin, tip)
    except (StateError, OSError, ValueError) as exc:
        return fail(f"{origin}: {exc}")
    where = f" and pushed to {origin}" if pushed else ", not pushed"
    return ok(f"{branch} has the new commit {tip[:10]} {message!r} with all {len(files)} files{where}")
