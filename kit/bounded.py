"""Bounded access to untrusted trees and files: agent end states and packages from elsewhere.

Everything here distrusts what it reads. Files are opened without following a final symlink and without
blocking on a fifo, and read up to a byte cap. Archives are judged from their directories before a byte is
decompressed (member count, declared sizes, compression ratio, methods), and compressed streams are
inflated incrementally with a cap, so a 1.6 KB tar.bz2 cannot become 4 GB. Trees are walked with directory
file descriptors (`openat`), never with path strings, so a path longer than PATH_MAX is no blind spot, a
symlink is never entered, and nothing recurses in Python (a 1500-deep folder chain is an error with
evidence, never a RecursionError). `rmtree` deletes any tree, however deep, without recursion.

A limit hit raises `LimitExceeded` (a ValueError) whose message is one line of evidence: a check turns it
into a failed check, the gate into `unsafe`.
"""

from __future__ import annotations

import bz2
import contextlib
import errno
import io
import lzma
import os
import stat
import zipfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

#: Biggest file a reader loads into memory.
MAX_FILE_BYTES = 128 << 20
#: Biggest archive member (declared, uncompressed) a reader inflates.
MAX_MEMBER_BYTES = 64 << 20
#: Biggest sum of inflated bytes of one archive (or one compressed stream).
MAX_ARCHIVE_BYTES = 256 << 20
#: Most members an archive may list.
MAX_MEMBERS = 20_000
#: Highest inflated/compressed ratio for members above RATIO_FLOOR bytes (deflate tops out near 1032:1; real
#: office XML rarely passes 50:1, so only bombs come near this).
MAX_RATIO = 200
RATIO_FLOOR = 4 << 20
#: Deepest folder nesting a walk follows; real homes nest a few dozen levels at most.
MAX_DEPTH = 128
#: Most entries one walk visits.
MAX_ENTRIES = 200_000

_OPEN_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


class LimitExceeded(ValueError):
    """An untrusted file or tree is over a limit; the message is one line of evidence.

    Every one raised is also noted (`take_hits`), even when a reader turns it into a failed check: the check
    worker reports them, so the gate can call a package that trips a limit `unsafe`."""

    def __init__(self, evidence: str) -> None:
        super().__init__(evidence)
        note(evidence)


_hits: list[str] = []


def note(evidence: str) -> None:
    """Record a limit hit that is reported rather than raised (e.g. a state grown past its disk budget)."""
    _hits.append(evidence)


def take_hits() -> list[str]:
    """The evidence of every limit hit in this process since the last call (and forget them)."""
    hits = list(_hits)
    _hits.clear()
    return hits


def read_file(path: Path | str, limit: int = MAX_FILE_BYTES, *, dir_fd: int | None = None) -> bytes:
    """The bytes of the regular file at `path`: a final symlink, a fifo or a device is refused (OSError,
    without blocking), a file above `limit` bytes raises `LimitExceeded`."""
    fd = os.open(path, _OPEN_FLAGS, dir_fd=dir_fd)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(errno.EINVAL, f"not a regular file ({stat.filemode(info.st_mode)})", str(path))
        if info.st_size > limit:
            raise LimitExceeded(f"{Path(path).name} has {info.st_size} bytes, over the {limit >> 20} MB limit")
        chunks, total = [], 0
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:  # grew while we read
                raise LimitExceeded(f"{Path(path).name} grew past the {limit >> 20} MB limit while read")
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_text(path: Path | str, limit: int = MAX_FILE_BYTES, encoding: str = "utf-8") -> str:
    return read_file(path, limit).decode(encoding)


def preflight(path: Path | str) -> None:
    """Refuse a file before a parser that opens it by name sees it: not a regular file (a fifo would block the
    parser forever), bigger than MAX_FILE_BYTES, or a zip whose directory promises too much (`check_zip`)."""
    info = os.lstat(path)
    if not stat.S_ISREG(info.st_mode):
        raise OSError(errno.EINVAL, f"not a regular file ({stat.filemode(info.st_mode)})", str(path))
    if info.st_size > MAX_FILE_BYTES:
        raise LimitExceeded(f"{Path(path).name} has {info.st_size} bytes, over the {MAX_FILE_BYTES >> 20} MB limit")
    fd = os.open(path, _OPEN_FLAGS)
    try:
        head = os.read(fd, 4)
    finally:
        os.close(fd)
    if is_zip(head):
        check_zip(Path(path))


def harden_parsers() -> None:
    """Process-wide parser limits: Pillow refuses images above 25 megapixels (~100 MB decoded) outright."""
    from PIL import Image

    Image.MAX_IMAGE_PIXELS = 12_500_000  # Pillow raises DecompressionBombError above twice this


#: Symlinks followed while resolving one path (the kernel's own limit is 40).
MAX_LINKS = 40


def resolve_in(root: Path, rel: str, *, home: str, top: Path | None = None) -> Path:
    """The host path inside `root` for `rel` (a path relative to `home`, which `root` stands for), with every
    symlink resolved *inside the root*: one component at a time with lstat, a link to `home/x` meaning
    `root/x`, a relative link taken from its own folder. The host's own paths never take part (`Path.resolve`
    would follow `/home/user/...` to the host's real home). The result holds no symlink, so opening it cannot
    be redirected. Raises ValueError when a link leads above `home`, on a loop (MAX_LINKS), or when a
    component cannot be looked at (a path too long, a folder that is not one). `top`: `root.resolve()`, when the
    caller has it already (a state resolving many paths)."""
    top = root.resolve() if top is None else top
    base = str(top)  # each component is looked at by a string path: pathlib's joins were most of the cost
    done: list[str] = []  # components known to be real (not links) under the root
    todo = [p for p in rel.split("/") if p not in ("", ".")][::-1]
    links = 0
    while todo:
        part = todo.pop()
        if part == "..":
            if not done:
                raise ValueError(f"leads outside {home} (through a symlink)")
            done.pop()
            continue
        here = "/".join((base, *done, part))
        try:
            info = os.lstat(here)
        except FileNotFoundError:
            done.append(part)
            continue
        except OSError as exc:  # ENAMETOOLONG, ENOTDIR, EACCES: it cannot lead anywhere usable
            raise ValueError(f"cannot be resolved: {exc.strerror}") from None
        if not stat.S_ISLNK(info.st_mode):
            done.append(part)
            continue
        links += 1
        if links > MAX_LINKS:
            raise ValueError("has too many levels of symbolic links (a loop?)")
        target = os.readlink(here)
        if target.startswith("/"):
            if not (target == home or target.startswith(home + "/")):
                raise ValueError(f"resolves outside the state root (a symlink to {target})")
            done = []
            target = target[len(home):]
        todo.extend(p for p in reversed(target.split("/")) if p not in ("", "."))
    return top.joinpath(*done)


# --- archives -----------------------------------------------------------------------------------------

def check_zip(source: bytes | IO[bytes] | Path | str, *, office: bool = False) -> None:
    """Refuse a zip whose directory promises too much, before anything is inflated.

    Python's zipfile never returns more than a member's declared size for stored and deflated members, so
    checking the declared sizes bounds the work; bzip2/lzma members inflate a whole chunk at once and are
    refused (`office` containers only ever use stored or deflated anyway)."""
    opened = io.BytesIO(source) if isinstance(source, bytes) else source
    try:
        with zipfile.ZipFile(opened) as zf:
            infos = zf.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError) as exc:
        raise LimitExceeded(f"not a readable zip ({exc})") from None
    finally:
        if not isinstance(source, bytes | Path | str):
            with contextlib.suppress(OSError, ValueError):
                opened.seek(0)  # type: ignore[union-attr]
    check_zip_members(infos, office=office)


def check_zip_members(infos: list[zipfile.ZipInfo], *, office: bool = False) -> None:
    """The limits of `check_zip` for an already opened zip's `infolist()`."""
    if len(infos) > MAX_MEMBERS:
        raise LimitExceeded(f"the zip lists {len(infos)} members, over the limit of {MAX_MEMBERS}")
    total = 0
    for info in infos:
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED) and (office or info.file_size):
            raise LimitExceeded(f"zip member {info.filename!r} uses compression method {info.compress_type}; "
                                "only stored and deflated members are read")
        _member(info.filename, info.file_size, info.compress_size)
        total += info.file_size
        if total > MAX_ARCHIVE_BYTES:
            raise LimitExceeded(f"the zip inflates to more than {MAX_ARCHIVE_BYTES >> 20} MB")


def _member(name: str, size: int, packed: int) -> None:
    if size > MAX_MEMBER_BYTES:
        raise LimitExceeded(f"archive member {name!r} inflates to {size} bytes, over the "
                            f"{MAX_MEMBER_BYTES >> 20} MB limit")
    if size > RATIO_FLOOR and size > MAX_RATIO * max(packed, 1):
        raise LimitExceeded(f"archive member {name!r} inflates {size // max(packed, 1)}:1, over the "
                            f"{MAX_RATIO}:1 limit (a compression bomb)")


def is_zip(data: bytes) -> bool:
    return data[:4] in (b"PK\x03\x04", b"PK\x05\x06")


def decompress(data: bytes, limit: int = MAX_ARCHIVE_BYTES) -> bytes:
    """Undo gzip / bzip2 / xz (detected by magic bytes, every concatenated stream) with at most `limit` bytes
    of output; anything else is returned as is."""
    if data[:2] == b"\x1f\x8b":
        def make() -> object:
            return zlib.decompressobj(wbits=47)
    elif data[:3] == b"BZh":
        def make() -> object:
            return bz2.BZ2Decompressor()
    elif data[:6] == b"\xfd7zXZ\x00":
        def make() -> object:
            return lzma.LZMADecompressor()
    else:
        return data
    out = bytearray()
    rest = data
    while rest:  # one engine per concatenated stream (`cat a.gz b.gz`, pbzip2 output)
        engine: Any = make()
        try:  # at most limit+1 bytes out: reaching them is the bomb, whatever is left unread
            out += engine.decompress(rest, limit + 1 - len(out))
        except (OSError, EOFError, ValueError, zlib.error, lzma.LZMAError) as exc:
            raise LimitExceeded(f"a corrupt compressed stream ({exc})") from None
        if len(out) > limit:
            raise LimitExceeded(f"the compressed stream inflates to more than {limit >> 20} MB")
        if not engine.eof:
            raise LimitExceeded("a truncated compressed stream")
        rest = engine.unused_data.lstrip(b"\0")
    return bytes(out)


def check_tar(tar: object) -> None:
    """Refuse a tar (an opened `tarfile.TarFile` on decompressed bytes) with too many or too big members."""
    import tarfile

    assert isinstance(tar, tarfile.TarFile)
    total = 0
    for count, info in enumerate(tar, start=1):
        if count > MAX_MEMBERS:
            raise LimitExceeded(f"the tar lists more than {MAX_MEMBERS} members")
        if info.isreg():
            _member(info.name, info.size, info.size)
            total += info.size
    if total > MAX_ARCHIVE_BYTES:
        raise LimitExceeded(f"the tar holds more than {MAX_ARCHIVE_BYTES >> 20} MB")


# --- trees --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Entry:
    """One entry of a walk: its path relative to the root (for evidence), its lstat, and where it lives
    (`dir_fd` + `name`, valid only while the walk is at this entry)."""

    rel: str
    info: os.stat_result
    dir_fd: int
    name: str

    @property
    def is_dir(self) -> bool:
        return stat.S_ISDIR(self.info.st_mode)

    @property
    def is_link(self) -> bool:
        return stat.S_ISLNK(self.info.st_mode)

    @property
    def is_file(self) -> bool:
        return stat.S_ISREG(self.info.st_mode)

    @property
    def is_package(self) -> bool:
        """A folder holding task.json (looked up relative to this folder's parent descriptor)."""
        try:
            os.stat(f"{self.name}/task.json", dir_fd=self.dir_fd, follow_symlinks=False)
        except OSError:
            return False
        return True

    def read(self, limit: int = MAX_FILE_BYTES) -> bytes:
        return read_file(self.name, limit, dir_fd=self.dir_fd)

    def readlink(self) -> str:
        return os.readlink(self.name, dir_fd=self.dir_fd)


def walk(root: Path | str, *, max_depth: int = MAX_DEPTH, max_entries: int = MAX_ENTRIES,
         descend: Callable[[Entry], bool] | None = None) -> Iterator[Entry]:
    """Every entry below `root` (not `root` itself) in sorted, depth-first order, symlinks not entered.

    Folders are opened with O_NOFOLLOW relative to their parent's descriptor, so no path string is ever
    resolved (no PATH_MAX limit, no race with a link swapped in). Raises `LimitExceeded` past `max_depth`
    levels or `max_entries` entries; a folder that cannot be opened raises OSError naming it. `descend(entry)`
    False keeps the walk out of that folder (it is still yielded)."""
    top = os.open(root, _DIR_FLAGS)
    stack: list[tuple[int, str, Iterator[str]]] = [(top, "", iter(_names(top)))]
    seen = 0
    try:
        while stack:
            fd, prefix, names = stack[-1]
            name = next(names, None)
            if name is None:
                os.close(fd)
                stack.pop()
                continue
            seen += 1
            if seen > max_entries:
                raise LimitExceeded(f"the tree holds more than {max_entries} entries")
            rel = f"{prefix}{name}"
            try:
                info = os.stat(name, dir_fd=fd, follow_symlinks=False)
            except FileNotFoundError:
                continue
            item = Entry(rel, info, fd, name)
            yield item
            if stat.S_ISDIR(info.st_mode) and (descend is None or descend(item)):
                if len(stack) >= max_depth:
                    raise LimitExceeded(f"{short(rel)} nests more than {max_depth} folders deep")
                try:
                    child = os.open(name, _DIR_FLAGS, dir_fd=fd)
                except OSError as exc:
                    raise OSError(exc.errno, f"cannot open folder {short(rel)}: {exc.strerror}") from None
                stack.append((child, rel + "/", iter(_names(child))))
    finally:
        for fd, _, _ in stack:
            with contextlib.suppress(OSError):
                os.close(fd)


def _names(fd: int) -> list[str]:
    with os.scandir(fd) as entries:
        return sorted(e.name for e in entries)


def short(rel: str) -> str:
    """`rel` shortened for one line of evidence (a 1500-level path would drown it)."""
    return rel if len(rel) <= 120 else f"{rel[:60]}...{rel[-40:]} ({rel.count('/') + 1} levels)"


def tree_bytes(root: Path | str, stop_at: int | None = None) -> int:
    """Bytes of the regular files below `root` (links and folders count nothing); stops early past `stop_at`.
    A tree deeper or bigger than `walk` allows raises `LimitExceeded` (it is hostile whatever its size)."""
    total = 0
    for item in walk(root):
        if item.is_file:
            total += item.info.st_size
        if stop_at is not None and total > stop_at:
            break
    return total


def copy_tree(src: Path | str, dst: Path | str, budget: int) -> list[str]:
    """Copy the untrusted tree `src` into the new folder `dst` without parsing, following or blocking on
    anything: folders, regular files (content and permission bits, never setuid/setgid) and symlinks (as
    links, target verbatim). Fifos, sockets and devices are left out; returns one note per kind left out.
    Raises `LimitExceeded` past `budget` bytes of file content or past `walk`'s depth and entry limits.

    Both sides are handled through directory descriptors, so depth never meets PATH_MAX; folder modes are
    set when each folder is done (a read-only folder still receives its files)."""
    os.mkdir(dst, 0o700)
    top = os.open(dst, _DIR_FLAGS)
    stack: list[tuple[str, int, int]] = [("", top, stat.S_IMODE(os.stat(src).st_mode))]  # (rel/, fd, mode)
    skipped: dict[str, int] = {}
    total = 0
    try:
        for item in walk(src):
            parent = item.rel.rsplit("/", 1)[0] + "/" if "/" in item.rel else ""
            while stack[-1][0] != parent:
                _close_dir(stack.pop())
            fd = stack[-1][1]
            mode = stat.S_IMODE(item.info.st_mode) & 0o1777
            if item.is_dir:
                os.mkdir(item.name, 0o700, dir_fd=fd)
                stack.append((item.rel + "/", os.open(item.name, _DIR_FLAGS, dir_fd=fd), mode))
            elif item.is_link:
                os.symlink(item.readlink(), item.name, dir_fd=fd)
            elif item.is_file:
                total += item.info.st_size
                if total > budget:
                    raise LimitExceeded(f"the state holds more than {budget >> 20} MB of files")
                data = item.read(min(MAX_FILE_BYTES, budget))
                out = os.open(item.name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600,
                              dir_fd=fd)
                try:
                    view = memoryview(data)
                    while view:
                        view = view[os.write(out, view):]
                    os.fchmod(out, mode)
                finally:
                    os.close(out)
            else:
                kind = stat.filemode(item.info.st_mode)[0]
                skipped[kind] = skipped.get(kind, 0) + 1
    finally:
        while stack:
            _close_dir(stack.pop())
    names = {"p": "fifo", "s": "socket", "c": "character device", "b": "block device"}
    return [f"{count} {names.get(kind, 'special file')}(s) left out" for kind, count in sorted(skipped.items())]


def _close_dir(entry: tuple[str, int, int]) -> None:
    _, fd, mode = entry
    try:
        os.fchmod(fd, mode)
    finally:
        os.close(fd)


def rmtree(path: Path | str) -> None:
    """Delete `path` and everything below it, however deep, without recursion or path strings.

    Sub-folders are first renamed up to `path` itself (renameat), so every folder is emptied one level down
    with two descriptors open; unreadable folders are made readable first. Missing `path` is fine."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return
    if not stat.S_ISDIR(info.st_mode):
        os.unlink(path)
        return
    top = _open_dir_fixing(None, str(path))
    try:
        pending: list[str | None] = [None]  # None: the top folder itself; else a flattened folder in it
        counter = 0
        while pending:
            current = pending.pop()
            fd = top if current is None else _open_dir_fixing(top, current)
            try:
                for name in _names(fd):
                    try:
                        sub = os.stat(name, dir_fd=fd, follow_symlinks=False)
                    except FileNotFoundError:
                        continue
                    if stat.S_ISDIR(sub.st_mode):
                        counter += 1
                        flat = f".forge-rm-{os.getpid()}-{counter}"
                        os.rename(name, flat, src_dir_fd=fd, dst_dir_fd=top)
                        pending.append(flat)
                    else:
                        os.unlink(name, dir_fd=fd)
            finally:
                if fd != top:
                    os.close(fd)
            if current is not None:
                os.rmdir(current, dir_fd=top)  # empty: its folders moved up, its files unlinked
    finally:
        os.close(top)
    os.rmdir(path)


def _open_dir_fixing(dir_fd: int | None, name: str) -> int:
    try:
        return os.open(name, _DIR_FLAGS, dir_fd=dir_fd)
    except PermissionError:
        os.chmod(name, 0o700, dir_fd=dir_fd)  # a folder left unreadable (mode 000) by a script
        return os.open(name, _DIR_FLAGS, dir_fd=dir_fd)
