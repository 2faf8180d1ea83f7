"""Warm sandboxes for setup scripts: one bubblewrap start serves many setup.sh runs, each in a fresh home.

`Sandbox.run_script` starts bubblewrap for every script: namespaces, mounts, `setpriv` and a wrapper shell cost
19 ms of CPU a run, a sixth of a Calc task's whole gate. Here a few sandboxes stay up (as root only: each script
still gets a user id of its own, which takes a privileged launcher inside) and run scripts one at a time:

- /home is a host folder whose `user` folder is new for every run, owned by the run's own user id, and moved to
  the caller's home when the run ends; the batch's packages folder is bound read-only at /forge/out and the script
  runs from its package there, FORGE_ASSETS naming its assets (a script may read its neighbours, as it could read
  their files on any desktop, but what it leaves must still be exactly its own declared assets); /tmp is the
  sandbox's own.
- the launcher (bash, root inside with CAP_SETUID, CAP_SETGID and CAP_KILL only) runs each script in a subshell
  that sets the same ulimits as `Sandbox.run_script` and its working folder, then becomes, through `setpriv` and
  `env -i`, bash as a fresh user id without capabilities or new privileges, with the same environment (no shell
  or link in between: each exec or fork there cost ~0.7 ms of a 5 ms run), stdout and stderr into a file the
  host measures; then it counts and kills whatever is left running and reports anything left in /tmp, /dev/shm
  or System V IPC. A script that relies on the classic /forge/pkg path fails here and is run classically.
- only a *clean* run is answered here: exit 0, no output, nothing left running or lying around, within the wall
  and disk limits, nothing `scan_home` objects to. Anything else (a failing or hostile script, a sandbox that
  died) makes the warm sandbox go (the next run gets a new one) and the script run again from a fresh home by
  `Sandbox.run_script`, whose result stands: every verdict and evidence about a bad script is the classic one.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import queue
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from forge.workers import LineReader
from kit import bounded
from kit.sandbox import RunResult, Sandbox, sandbox_uid, scan_home

#: How often the host measures the home and the output while a script runs (seconds).
POLL = 0.05
#: The launcher: one line per run in ("uid<TAB>package folder under /forge/out<TAB>script"), one line out
#: ("exit status, processes left, stray files, IPC objects"). $LIMITS: `Sandbox.ulimits()`.
_LOOP = r"""
while IFS=$'\t' read -r uid rel script; do
  (eval "$LIMITS"; cd /home/user || exit 125
   exec setpriv --reuid="$uid" --regid="$uid" --clear-groups --inh-caps=-all --bounding-set=-all --no-new-privs \
     env -i HOME=/home/user USER=user PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 FORGE_NO_LAUNCH=1 \
     FORGE_ASSETS="/forge/out/$rel/assets" bash "/forge/out/$rel/$script") </dev/null >/forge/io/out 2>&1
  rc=$?
  left=0; for p in /proc/[0-9]*; do case "${p#/proc/}" in 1|"$$") ;; *) left=$((left+1));; esac; done
  if [ "$left" -gt 0 ]; then kill -9 -1 2>/dev/null; fi
  shopt -s nullglob dotglob; stray=(/tmp/* /dev/shm/* /dev/mqueue/*); shopt -u nullglob dotglob
  ipc=0
  for f in /proc/sysvipc/shm /proc/sysvipc/msg /proc/sysvipc/sem; do
    [ -r "$f" ] || continue
    n=-1; while read -r _; do n=$((n+1)); done < "$f"; ipc=$((ipc+n))
  done
  echo "$rc $left ${#stray[@]} $ipc"
done
"""


class _Slot:
    """One warm sandbox: its launcher process and its host folders (`base` is /home, `io` holds the output)."""

    def __init__(self, sandbox: Sandbox, packages: Path, folder: Path) -> None:
        self.sandbox = sandbox
        self.base, self.io = folder / "home", folder / "io"
        for path in (self.base, self.io):
            path.mkdir(parents=True)
            os.chmod(path, 0o755 if path == self.base else 0o700)
        args = [str(sandbox.bwrap), *sandbox.system_args(), "--dev", "/dev", "--proc", "/proc",
                 "--size", str(sandbox.limits.tmp_mb << 20), "--perms", "1777", "--tmpfs", "/tmp",
                 "--perms", "0755", "--tmpfs", "/forge",
                 "--ro-bind", str(packages), "/forge/out", "--bind", str(self.io), "/forge/io",
                 "--bind", str(self.base), "/home",
                 "--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try",
                 "--hostname", "forge", "--die-with-parent", "--new-session", "--clearenv",
                 "--setenv", "PATH", "/usr/bin:/bin", "--setenv", "LIMITS", sandbox.ulimits(),
                 "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID", "--cap-add", "CAP_KILL",
                 "--", "bash", "-c", _LOOP]
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     env={"PATH": "/usr/bin:/bin"}, start_new_session=True, text=True, bufsize=1)
        self.answers: queue.Queue[str] = queue.Queue()
        LineReader(self.proc.stdout, self.answers)

    def run(self, rel: str, script: str, home: Path) -> RunResult | None:
        """Run `script` of the package at /forge/out/`rel` into a fresh home, moved to `home` (an empty folder on
        the same file system) if the run was clean; None (home untouched) for any other run."""
        lim = self.sandbox.limits
        user, out = self.base / "user", self.io / "out"
        uid = sandbox_uid()
        user.mkdir()
        os.chown(user, uid, uid)
        start = time.monotonic()
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"{uid}\t{rel}\t{script}\n")
        self.proc.stdin.flush()
        while True:
            try:
                line = self.answers.get(timeout=POLL)
                break
            except queue.Empty:
                pass
            if (time.monotonic() - start > lim.wall_seconds or self.proc.poll() is not None
                    or _size(out) > 0 or _tree(user, lim.disk_mb << 20) > lim.disk_mb << 20):
                return None
        fields = line.split()
        if (len(fields) != 4 or fields != ["0", "0", "0", "0"] or _size(out) > 0
                or _tree(user, lim.disk_mb << 20) > lim.disk_mb << 20 or scan_home(user)):
            return None
        os.rename(user, home)  # onto the empty folder; it stays as it is if this fails (another file system)
        return RunResult(0, "", "", seconds=time.monotonic() - start)

    def alive(self) -> bool:
        return self.proc.poll() is None

    def close(self, *, gently: bool = False) -> None:
        """End the sandbox: `gently` lets the launcher leave its loop first (so the CPU time of its runs reaches
        this process, which `benchmarks/throughput.py` counts); then anything left is killed."""
        if gently and self.proc.stdin is not None:
            with contextlib.suppress(OSError):
                self.proc.stdin.close()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=2)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, 9)
        self.proc.wait()
        shutil.rmtree(self.base.parent, ignore_errors=True)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _tree(path: Path, limit: int) -> int:
    try:
        return bounded.tree_bytes(path, limit)
    except (bounded.LimitExceeded, OSError):
        return limit + 1


class WarmSetups:
    """Setup scripts of the packages under `packages`, run in `size` warm sandboxes (thread-safe); any other script,
    and every run that is not clean, goes to `sandbox.run_script`."""

    def __init__(self, sandbox: Sandbox, packages: Path, workdir: Path, size: int = 2) -> None:
        self.sandbox = sandbox
        self.packages = packages.resolve()
        self.workdir = workdir
        self.usable = sandbox.enabled and sandbox.as_root
        self._idle: queue.Queue[_Slot | None] = queue.Queue()
        for _ in range(size):
            self._idle.put(None)  # started on first use
        self._names = itertools.count()
        self._lock = threading.Lock()
        self.started = 0  # warm sandboxes started (tests: a clean run reuses one, any other replaces it)

    def run_script(self, package: Path, script: str, home: Path) -> RunResult:
        rel = self._rel(package, script)
        if rel is None or not _empty_dir(home):
            return self.sandbox.run_script(package, script, home)
        slot = self._idle.get()
        result = None
        try:
            if slot is None or not slot.alive():
                slot = self._start(slot)
            result = slot.run(rel, script, home)
        except Exception:  # a warm sandbox that broke is never the script's fault: its own sandbox decides
            result = None
        finally:
            if result is None and slot is not None:  # whatever the script did stays out of the next run
                slot.close()
                slot = None
            self._idle.put(slot)
        return result or self.sandbox.run_script(package, script, home)

    def _start(self, old: _Slot | None) -> _Slot:
        if old is not None:
            old.close()
        with self._lock:
            self.started += 1
        return _Slot(self.sandbox, self.packages, self.workdir / f"setup-{os.getpid()}-{next(self._names)}")

    def _rel(self, package: Path, script: str) -> str | None:
        """The package's folder under /forge/out, or None when it cannot run warm (not root, elsewhere, odd names)."""
        if not self.usable:
            return None
        try:
            rel = package.resolve().relative_to(self.packages).as_posix()
        except ValueError:
            return None
        odd = ("\t", "\n", "\r", "\0")
        if any(c in rel + script for c in odd) or ".." in Path(script).parts or script.startswith("/"):
            return None
        return rel

    def close(self) -> None:
        while not self._idle.empty():
            slot = self._idle.get_nowait()
            if slot is not None:
                slot.close(gently=True)


def _empty_dir(path: Path) -> bool:
    try:
        return path.is_dir() and not path.is_symlink() and not any(path.iterdir())
    except OSError:
        return False


@contextlib.contextmanager
def warm_setups(sandbox: Sandbox, packages: Path, workdir: Path, size: int) -> Iterator[WarmSetups]:
    setups = WarmSetups(sandbox, packages, workdir, size)
    try:
        yield setups
    finally:
        setups.close()
