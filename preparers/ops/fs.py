"""fs ops: file-tree edits (move, copy, chmod, links, text edits, archives) confined to the state root.

The `fs` document is a handle (`FsHandle`) on the op's `path` inside the state root: nothing is loaded and
`save` does nothing, because every op acts on the tree at once. Paths follow `preparers.ops.resolve`: absolute,
under /home/user, no '..', never leaving the root (a symlink pointing out is refused).

How paths are interpreted, so near-misses and oracles mean what they say:
- `path` (the op's subject) is resolved like any op path, so a symlink inside the root is followed;
- other path arguments (`dest`, a link's location, archive `members`, `base`) are resolved up to their last
  component, which is *not* followed: `fs.move` onto an existing link replaces the link, not its target;
- link targets (`fs.symlink`) are stored verbatim (absolute /home/user/... or relative, as `ln -s` would),
  and must point inside /home/user.
Extraction (`fs.extract`) writes only regular files and folders and refuses members that would land outside
the destination. Example ops: `{"op": "fs.move", "path": "/home/user/Downloads/a.pdf",
"dest": "/home/user/Documents/PDFs/a.pdf"}`, `{"op": "fs.chmod", "path": "/home/user/bin/run.sh", "mode": "755"}`.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import os
import posixpath
import shutil
import stat
import tarfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from kit import bounded
from preparers.ops import HOME, OpError, document_kind, op, resolve

#: Biggest archive member `fs.extract` writes (a guard against archive bombs in untrusted states).
MAX_MEMBER_BYTES = bounded.MAX_MEMBER_BYTES


@dataclass(frozen=True)
class FsHandle:
    """The state `root` (standing for /home/user) and the op's `host` path inside it (may not exist yet)."""

    root: Path
    host: Path

    def locate(self, path: str) -> Path:
        """Host path of another path argument; its last component is not followed if it is a symlink."""
        if path == HOME:
            return resolve(self.root, path)
        parent, name = path.rstrip("/").rsplit("/", 1)
        if name in ("", ".", ".."):
            raise OpError(f"path {path!r} must name a file or folder")
        return resolve(self.root, parent or HOME) / name


def _load(host: Path, root: Path) -> FsHandle:
    return FsHandle(root, host)


def _save(handle: FsHandle, host: Path) -> None:
    """Nothing to write back: every fs op changes the tree directly."""


document_kind("fs", load=_load, save=_save)


def _need(host: Path) -> None:
    if not host.exists() and not host.is_symlink():
        raise FileNotFoundError(f"{host.name} does not exist")


def _write(target: Path, data: bytes, mode: str = "w") -> None:
    """Write `data` to `target`, never through a symlink: a link there is replaced (O_NOFOLLOW after unlink)."""
    if target.is_symlink():
        target.unlink()
    flags = os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC | (os.O_APPEND if mode == "a" else os.O_TRUNC)
    fd = os.open(target, flags, 0o644)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ValueError(f"{target.name} is not a regular file")
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)


def parse_mode(mode: str | int) -> int:
    """Permission bits from an octal string ("600", "0755") or an int (0o600 == 384)."""
    value = int(mode, 8) if isinstance(mode, str) else mode
    if not isinstance(value, int) or not 0 <= value <= 0o7777:
        raise ValueError(f"{mode=}, but must be octal permission bits such as '644'")
    return value


@op("fs.move")
def move(h: FsHandle, dest: str) -> None:
    """Move the file or folder at `path` to `dest` (its full new path); missing parent folders are created."""
    _need(h.host)
    target = h.locate(dest)
    if target.is_dir() and not target.is_symlink():
        raise ValueError(f"{dest} is an existing folder; give the full new path of the moved item")
    target.parent.mkdir(parents=True, exist_ok=True)
    os.replace(h.host, target)


@op("fs.copy")
def copy(h: FsHandle, dest: str) -> None:
    """Copy the file (content and mode, like `cp`) or folder (recursively, links kept as links) at `path` to `dest`."""
    _need(h.host)
    target = h.locate(dest)
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.is_symlink():  # replace a link, never write through it (it may point anywhere on the host)
        target.unlink()
    if h.host.is_dir():
        shutil.copytree(h.host, target, symlinks=True)
    else:
        _write(target, bounded.read_file(h.host))
        shutil.copymode(h.host, target)


@op("fs.rename")
def rename(h: FsHandle, name: str) -> None:
    """Give the file or folder at `path` a new `name` in the same folder."""
    if "/" in name or name in ("", ".", ".."):
        raise ValueError(f"{name=}, but must be a plain file name")
    _need(h.host)
    os.replace(h.host, h.host.with_name(name))


@op("fs.delete")
def delete(h: FsHandle) -> None:
    """Delete the file, link or folder (recursively) at `path`."""
    _need(h.host)
    if h.host.is_dir() and not h.host.is_symlink():
        shutil.rmtree(h.host)
    else:
        h.host.unlink()


@op("fs.mkdir")
def mkdir(h: FsHandle) -> None:
    """Create the folder at `path` and any missing parents (like `mkdir -p`)."""
    h.host.mkdir(parents=True, exist_ok=True)


@op("fs.chmod")
def chmod(h: FsHandle, mode: str | int, recursive: bool = False) -> None:
    """Set the permission bits of `path` (octal string like "600"); `recursive` also sets everything inside."""
    _need(h.host)
    bits = parse_mode(mode)
    if recursive and h.host.is_dir():
        inside = [e.rel for e in bounded.walk(h.host) if not e.is_link]  # links are never followed
        for rel in reversed(inside):  # deepest first: a folder's new mode must not block the walk below it
            (h.host / rel).chmod(bits)
    h.host.chmod(bits)


@op("fs.symlink")
def symlink(h: FsHandle, target: str) -> None:
    """Create a symbolic link at `path` pointing to `target` (stored verbatim: absolute under /home/user, or
    relative to the link's folder, like `ln -s target path`)."""
    if h.host.exists() or h.host.is_symlink():
        raise ValueError(f"{h.host.name} already exists")
    link_dir = posixpath.dirname(HOME + "/" + str(h.host.relative_to(h.root.resolve())))
    logical = posixpath.normpath(target if target.startswith("/") else posixpath.join(link_dir, target))
    if not (logical == HOME or logical.startswith(HOME + "/")):
        raise ValueError(f"link target {target!r} points outside {HOME}")
    h.host.parent.mkdir(parents=True, exist_ok=True)
    os.symlink(target, h.host)


@op("fs.write_text")
def write_text(h: FsHandle, text: str) -> None:
    """Write `text` (UTF-8) to the file at `path`, replacing its content or creating it."""
    h.host.parent.mkdir(parents=True, exist_ok=True)
    _write(h.host, text.encode("utf-8"))


@op("fs.append_text")
def append_text(h: FsHandle, text: str) -> None:
    """Append `text` verbatim to the file at `path` (created if missing); include the newline you want."""
    h.host.parent.mkdir(parents=True, exist_ok=True)
    _write(h.host, text.encode("utf-8"), "a")


@op("fs.replace_in_file")
def replace_in_file(h: FsHandle, old: str, new: str, count: int = 0) -> None:
    """Replace literal `old` by `new` in the text file at `path`: every occurrence, or the first `count`."""
    _need(h.host)
    text = bounded.read_file(h.host).decode("utf-8")
    if old not in text:
        raise ValueError(f"{old!r} does not occur in {h.host.name}")
    _write(h.host, text.replace(old, new, count if count > 0 else -1).encode("utf-8"))


def _archive_items(h: FsHandle, members: list[str], base: str) -> list[tuple[Path, str]]:
    """(host path, archive name) for each member and, for folders, everything inside them."""
    base_dir = base.rstrip("/")
    items = []
    for member in members:
        if not (member == base_dir or member.startswith(base_dir + "/")):
            raise ValueError(f"member {member!r} is not inside base {base!r}")
        host = h.locate(member)
        _need(host)
        name = member[len(base_dir) + 1:] or posixpath.basename(member)
        items.append((host, name))
        if host.is_dir() and not host.is_symlink():
            # folders before files at each level, as before; links to folders are listed, not entered
            below = list(bounded.walk(host))
            order = {e.rel: (tuple(e.rel.split("/")[:-1]), not e.is_dir, e.rel) for e in below}
            for rel in sorted(order, key=lambda r: order[r]):
                items.append((host / rel, f"{name}/{rel}"))
    return items


@op("fs.tar_create")
def tar_create(h: FsHandle, members: list[str], base: str, compression: str = "gz") -> None:
    """Write a tar archive at `path` holding `members` (absolute paths; folders recursively) named relative to
    `base`; `compression` is "gz", "bz2", "xz" or "" (plain tar). Links are stored as links."""
    if compression not in ("gz", "bz2", "xz", ""):
        raise ValueError(f"{compression=}, but must be 'gz', 'bz2', 'xz' or ''")
    items = _archive_items(h, members, base)
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for host, name in items:
            tar.add(host, arcname=name, recursive=False)
    compress: dict[str, Callable[[bytes], bytes]] = {"gz": gzip.compress, "bz2": bz2.compress,
                                                     "xz": lzma.compress, "": bytes}
    h.host.parent.mkdir(parents=True, exist_ok=True)
    _write(h.host, compress[compression](buffer.getvalue()))


@op("fs.zip_create")
def zip_create(h: FsHandle, members: list[str], base: str) -> None:
    """Write a zip archive at `path` holding `members` (absolute paths; folders recursively) named relative to
    `base`, like `cd base && zip -r path ...`."""
    items = _archive_items(h, members, base)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for host, name in items:
            zf.write(host, name)
    h.host.parent.mkdir(parents=True, exist_ok=True)
    _write(h.host, buffer.getvalue())


def _safe_name(name: str) -> str:
    clean = posixpath.normpath(name.lstrip("/"))
    if clean in (".", "") or clean.startswith("../") or clean == "..":
        raise ValueError(f"archive member {name!r} would land outside the destination")
    return clean


@op("fs.extract")
def extract(h: FsHandle, dest: str, members: list[str] | None = None) -> None:
    """Extract the archive at `path` (zip or tar, any compression; detected from its bytes) into the folder
    `dest` (created if missing); `members` limits it to those member names. Only files and folders are written.
    Archives over the limits of `kit.bounded` (member size, total size, ratio, count) are refused whole."""
    _need(h.host)
    data = bounded.read_file(h.host)
    files: dict[str, bytes] = {}
    folders: list[str] = []
    if bounded.is_zip(data):  # by magic: a tar may hold a docx (a zip)
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            bounded.check_zip_members(zf.infolist())
            for info in zf.infolist():
                if info.is_dir():
                    folders.append(info.filename)
                else:
                    files[info.filename] = zf.read(info)
    else:
        with tarfile.open(fileobj=io.BytesIO(bounded.decompress(data))) as tar:
            bounded.check_tar(tar)
            for tinfo in tar.getmembers():
                if tinfo.isdir():
                    folders.append(tinfo.name)
                elif tinfo.isreg():
                    stream = tar.extractfile(tinfo)
                    files[tinfo.name] = stream.read() if stream else b""
    wanted = None if members is None else {_safe_name(m) for m in members}
    missing = sorted((wanted or set()) - {_safe_name(n) for n in files})
    if missing:
        raise ValueError(f"the archive has no members {missing}")
    out = resolve(h.root, dest.rstrip("/") or HOME)  # the folder itself may be a link inside the root
    out.mkdir(parents=True, exist_ok=True)
    base = HOME + "/" + out.relative_to(h.root.resolve()).as_posix() if out != h.root.resolve() else HOME
    if wanted is None:
        for folder in folders:
            resolve(h.root, f"{base}/{_safe_name(folder)}").mkdir(parents=True, exist_ok=True)
    for name, body in files.items():
        clean = _safe_name(name)
        if wanted is not None and clean not in wanted:
            continue
        target = h.locate(f"{base}/{clean}")  # folders resolved inside the root; a link at the end is replaced
        target.parent.mkdir(parents=True, exist_ok=True)
        _write(target, body)
