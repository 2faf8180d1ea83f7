"""A per-process cache of parsed documents for files whose bytes the gate sees again and again.

One task's controls (no-op, oracle, each near-miss) all start from the same initial files, so a check
worker would parse the same workbook up to five times. Within `hot_folder(root)` (the worker marks the
initial state's files), parsing a file whose content hash is hot keeps a pickle of the result; later
parses of the same bytes unpickle it (~6x faster than openpyxl's load) into a fresh, independent
object, so an op may still edit its copy. Other files are parsed normally. Keyed by (content hash,
parser), so a stale entry is impossible.

What does not pickle, or copies faster than it unpickles (a python-pptx deck: lxml trees; a decoded Pillow
picture), goes through `copied` instead: the last few parses stay as objects, whatever their file, and every
caller gets its own copy (a deck ~4 ms instead of a 12-20 ms parse; a picture ~1 ms instead of a 10-30 ms
decode).
"""

from __future__ import annotations

import hashlib
import io
import pickle
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from kit import bounded

T = TypeVar("T")
SIZE = 32
_hot: set[str] = set()
_pickles: OrderedDict[tuple[str, str], bytes] = OrderedDict()


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


#: {(device, inode, size, mtime ns, ctime ns): digest} of files marked hot: a task's controls mark the same initial
#: files. A stale entry (an inode reused within one clock tick) only costs a cache miss: pickles are keyed by the
#: digest of the bytes a parse actually read
_digests: OrderedDict[tuple[int, int, int, int, int], str] = OrderedDict()


def file_digest(path: Path) -> str:
    """The sha256 of the regular file at `path`, kept by its inode, size and times: the gate digests a task's initial
    and oracle files several times (hot folders, the mutators' changed and kept files)."""
    info = path.stat()
    key = (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)
    digest = _digests.get(key)
    if digest is None:
        digest = _digests[key] = _digest(bounded.read_file(path))
        if len(_digests) > 4 * SIZE:
            _digests.popitem(last=False)
    return digest


#: {folder: the digests of its files} for the last few folders `hot_folder` marked
_folders: OrderedDict[str, frozenset[str]] = OrderedDict()
_folders_lock = threading.Lock()
#: a file over this size is never marked hot: its parse is not worth keeping
HOT_MAX_BYTES = 16 << 20


@contextmanager
def hot_folder(root: Path) -> Iterator[None]:
    """Within the block, parses of the contents of every file under `root` (up to `HOT_MAX_BYTES`) are cached.

    A task's controls mark the same initial and oracle folders again and again (~10 times a task; a walk and a stat
    of every file each time): the digests found stay per folder (the last `SIZE`). A stale entry, a folder
    rewritten since, only costs cache misses: pickles are keyed by the digest of the bytes a parse actually read."""
    key = str(root)
    with _folders_lock:
        hashes = _folders.get(key)
        if hashes is not None:
            _folders.move_to_end(key)
    if hashes is None:
        found = set()
        for p in root.rglob("*"):
            try:
                if p.is_file() and not p.is_symlink() and p.stat().st_size <= HOT_MAX_BYTES:
                    found.add(file_digest(p))
            except (OSError, ValueError):  # gone, unreadable or over a limit: never hot, read (and refused) later
                continue
        hashes = frozenset(found)
        with _folders_lock:
            _folders[key] = hashes
            while len(_folders) > SIZE:
                _folders.popitem(last=False)
    _hot.update(hashes)
    try:
        yield
    finally:
        _hot.difference_update(hashes)


def parse(host: Path, name: str, parser: Callable[[io.BytesIO], T]) -> T:
    """`parser(BytesIO(bytes of host))`, served from the cache when the bytes are hot. The file is read with the
    limits of `kit.bounded` (no fifo, no final symlink, size cap; a zip's directory checked first)."""
    data = bounded.read_file(host)
    key = (_digest(data), name) if _hot else ("", name)
    cached = _pickles.get(key) if key[0] in _hot else None
    if cached is not None:  # these very bytes passed the zip check when they were parsed
        _pickles.move_to_end(key)
        return pickle.loads(cached)  # type: ignore[no-any-return]
    if bounded.is_zip(data):
        bounded.check_zip(data)
    if key[0] not in _hot:
        return parser(io.BytesIO(data))
    result = parser(io.BytesIO(data))
    try:
        _pickles[key] = pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
        return result
    if len(_pickles) > SIZE:
        _pickles.popitem(last=False)
    return result


#: parsed objects `copied` keeps: {(digest of the bytes, name): object}, the most recently used last
COPIED = 8
_copied: OrderedDict[tuple[bytes, str], Any] = OrderedDict()
_copied_lock = threading.Lock()


def copied(data: bytes, name: str, parse: Callable[[bytes], T], copy: Callable[[T], T], *,
           keep: Callable[[T], bool] = lambda _: True) -> T:
    """`parse(data)` as an object of the caller's own: the last `COPIED` parses (by the digest of their bytes and
    `name`) stay parsed, untouched, and every call gets `copy(kept object)`, so a caller may edit what it gets.
    `keep(parsed)` may refuse to keep an object (a huge picture). A parse that raises is not kept."""
    key = (hashlib.blake2b(data, digest_size=20).digest(), name)
    with _copied_lock:
        kept = _copied.get(key)
        if kept is not None:
            _copied.move_to_end(key)
    if kept is None:
        kept = parse(data)
        if not keep(kept):
            return kept  # nobody else holds it: no copy needed
        with _copied_lock:
            _copied[key] = kept
            while len(_copied) > COPIED:
                _copied.popitem(last=False)
    return copy(kept)


def clear() -> None:
    _pickles.clear()
    _digests.clear()
    with _folders_lock:
        _folders.clear()
    with _copied_lock:
        _copied.clear()
