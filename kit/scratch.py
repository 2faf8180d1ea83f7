"""Where the gate's short-lived folders go: a roomy RAM disk when the machine has one.

The gate makes and deletes several folders per task (the initial state, one state per control), and the
probes of a round write thousands of packages they delete afterwards. On a disk mounted with `discard`
(ext4 on this VM) every unlink and rmdir waits for the device: py-spy put half of a gate thread's time
in `shutil.rmtree`, and with its scratch on tmpfs the gate made ~15 % more tasks per second (an A/B
on a loaded machine). Packages a user keeps (`--out`) and the catalog stay where the user put them.

Order: `$FORGE_SCRATCH` if set; else `$TMPDIR` if set (the user chose); else `/dev/shm` when it is a
writable tmpfs with at least MIN_FREE bytes free; else the system temp folder. What a package script may
write there is bounded by the sandbox's disk limit (polled while it runs).

Folders Forge makes there are owned (`work_folder`), so a later run can sweep those of killed runs (`sweep`).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import re
import shutil
import socket
import tempfile
import threading
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from kit import bounded

#: /dev/shm is used only with this much free: gates in flight each hold a few states, and a hostile script
#: may write up to the sandbox's disk limit (512 MB) before it is stopped.
MIN_FREE = 4 << 30
RAM_DISK = Path("/dev/shm")


@cache
def scratch_root() -> str:
    """The folder new scratch folders go in (see the module docstring)."""
    chosen = os.environ.get("FORGE_SCRATCH") or os.environ.get("TMPDIR")
    if chosen:
        return chosen
    if _roomy_tmpfs(RAM_DISK):
        return str(RAM_DISK)
    return tempfile.gettempdir()


@contextlib.contextmanager
def temp_files_in_ram() -> Iterator[None]:
    """Within the block, this process's temp files (`tempfile`) go to the RAM disk when `scratch_root()` chose it and
    the user set no TMPDIR. Document libraries write temp files on the hot path: openpyxl writes every worksheet it
    saves to a NamedTemporaryFile and unlinks it, and on the ext4 `discard` mount that unlink waited up to a second
    under load (measured: 0.6-960 ms per save; 0.1 ms on tmpfs). Check workers already have a private tmpfs /tmp.
    The previous setting comes back after the block (the process's other temp files are none of Forge's business)."""
    before = tempfile.tempdir
    if not os.environ.get("TMPDIR") and scratch_root() == str(RAM_DISK):
        tempfile.tempdir = str(RAM_DISK)
    try:
        yield
    finally:
        tempfile.tempdir = before


def _roomy_tmpfs(path: Path) -> bool:
    try:
        fields = (line.split() for line in Path("/proc/self/mounts").read_text().splitlines())
        is_tmpfs = any(f[1:3] == [str(path), "tmpfs"] for f in fields)
        return is_tmpfs and os.access(path, os.W_OK | os.X_OK) and shutil.disk_usage(path).free >= MIN_FREE
    except OSError:
        return False


# --- Leftovers of killed runs ------------------------------------------------------------------------------------
# A run killed with SIGKILL cannot clean up: its work folders (the gate's states, the probes' packages; on a RAM disk
# they hold memory) would stay for good. So every scratch folder Forge makes has an owner the next run can ask about:
# the folder `forge-<kind>-<host tag>-<pid>-<random>` has a lock file beside it, `<same name>.lock`, made first and
# held (flock) by the owning process until it removes the folder. The kernel drops the lock when the owner dies,
# however it dies, so `sweep` removes exactly the folders whose lock it can take. A lock works across PID namespaces
# and cannot be fooled by a reused pid; the pid in the name is for people (and for folders without a lock file).
# The lock sits outside the folder: the sandboxed check workers write inside it, never beside it.

#: Kinds of owned scratch folders so far (any lowercase word will do): gate_runner's work folder, a gate's
#: per-package folder, a round's probes, a `forge check` copy of a state.
KINDS = ("work", "gate", "probe", "check")
_KIND = re.compile(r"^[a-z]+$")
_OWNED = re.compile(r"^forge-[a-z]+-([0-9a-f]{8})-(\d+)-")
_LOCK = ".lock"
#: Seconds of slack when comparing a process's start with a time recorded after it started (rounding, clocks).
_SLACK = 2.0
#: Lock file descriptors of the folders this process owns (closing one releases the folder).
_held: dict[str, int] = {}
_held_guard = threading.Lock()


def host_tag() -> str:
    """8 hex digits naming this machine (a scratch folder on a shared disk is only ever swept by its own host)."""
    return hashlib.sha256(socket.gethostname().encode()).hexdigest()[:8]


def owned_prefix(kind: str) -> str:
    """The name prefix of a scratch folder of `kind` owned by this process."""
    if not _KIND.match(kind):
        raise ValueError(f"scratch folder kind {kind!r}: one lowercase word, e.g. {', '.join(KINDS)}")
    return f"forge-{kind}-{host_tag()}-{os.getpid()}-"


def work_folder(kind: str, parent: str | Path | None = None) -> Path:
    """A new scratch folder of `kind` in `parent` (default: `scratch_root()`), owned by this process until
    `remove(folder)`: its lock file is made and locked first, so no sweep ever sees the folder unowned."""
    while True:
        fd, lock = tempfile.mkstemp(prefix=owned_prefix(kind), suffix=_LOCK, dir=parent or scratch_root())
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # a new file: nobody else can hold it
        folder = lock.removesuffix(_LOCK)
        try:
            os.mkdir(folder, 0o700)
        except FileExistsError:  # a folder of that name without its lock (planted, or left half-made)
            os.unlink(lock)
            os.close(fd)
            continue
        with _held_guard:
            _held[folder] = fd
        return Path(folder)


def remove(folder: str | Path) -> None:
    """Delete an owned scratch folder (any depth, read-only folders too) and release its lock."""
    with contextlib.suppress(OSError):
        bounded.rmtree(folder)
    with _held_guard:
        fd = _held.pop(str(folder), None)
    with contextlib.suppress(OSError):
        os.unlink(f"{folder}{_LOCK}")
    if fd is not None:
        os.close(fd)


@contextlib.contextmanager
def owned_folder(kind: str, parent: str | Path | None = None) -> Iterator[Path]:
    """`work_folder` for the length of a `with` block, removed at its end."""
    folder = work_folder(kind, parent)
    try:
        yield folder
    finally:
        remove(folder)


def _boot_time() -> float:
    for line in Path("/proc/stat").read_text().splitlines():
        if line.startswith("btime "):
            return float(line.split()[1])
    raise OSError("no btime in /proc/stat")


def process_alive(pid: int, since: float | None = None) -> bool:
    """Whether `pid` is a live process that could have done something at time `since` (epoch seconds): a pid
    that is gone, a zombie, or a process started after `since` (the pid was reused by someone else) is not."""
    if pid <= 0:
        return False
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    except OSError:  # no /proc: ask the kernel (cannot tell a reused pid)
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True
    fields = stat[stat.rindex(")") + 2:].split()  # after "pid (comm) "; comm may hold spaces and parentheses
    if fields[0] in ("Z", "X"):
        return False
    if since is None:
        return True
    try:
        started = _boot_time() + int(fields[19]) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return True
    return started <= since + _SLACK


def _take(lock: str) -> int | None:
    """The lock of a folder whose owner is gone, now held by us; None while its owner lives (or on any doubt)."""
    try:
        fd = os.open(lock, os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def sweep(roots: list[str] | None = None) -> list[Path]:
    """Remove the scratch folders (and lock files) of dead Forge processes of this host, in `scratch_root()` and
    the system temp folder (a Gate without a work folder uses the latter); returns the folders removed. Folders of
    live processes, of other hosts, links, and anything not named by `owned_prefix` are left alone. A folder
    without a lock file (made by an older Forge) goes when its pid is gone or was reused since."""
    host, removed = host_tag(), []
    for root in dict.fromkeys(roots or [scratch_root(), tempfile.gettempdir()]):
        try:
            entries = list(os.scandir(root))
        except OSError:
            continue
        for entry in entries:
            found = _OWNED.match(entry.name)
            if not found or found.group(1) != host:
                continue
            path = entry.path.removesuffix(_LOCK)
            try:
                if entry.name.endswith(_LOCK):
                    if os.path.lexists(path):
                        continue  # handled with its folder
                    fd = _take(entry.path)  # a lock left alone: its owner died while removing the folder
                    if fd is not None:
                        os.unlink(entry.path)
                        os.close(fd)
                    continue
                if not entry.is_dir(follow_symlinks=False):
                    continue
                if os.path.lexists(path + _LOCK):
                    fd = _take(path + _LOCK)
                    if fd is None:
                        continue
                elif process_alive(int(found.group(2)), since=entry.stat(follow_symlinks=False).st_ctime):
                    continue
                else:
                    fd = None
            except OSError:
                continue
            with contextlib.suppress(OSError):
                bounded.rmtree(path)
                removed.append(Path(path))
            with contextlib.suppress(OSError):
                os.unlink(path + _LOCK)
            if fd is not None:
                os.close(fd)
    return removed
