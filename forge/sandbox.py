"""Run package scripts (setup.sh, .sh solutions) under bubblewrap.

Each run gets a host folder bound at /home/user and nothing else writable: the package read-only at
/forge/pkg, read-only /usr, /etc (with /etc/shadow, /etc/gshadow, /etc/sudoers masked) and /opt, a small
private /tmp, private /proc and /dev, an empty network namespace, its own PID namespace (so every
process it starts dies with it), a cleared environment and no capabilities.

Who the script runs as: as root (CI), bwrap drops to `nobody` (uid 65534) before the script starts, so
the process limit counts (the kernel never applies RLIMIT_NPROC to root) and files it leaves on the host
belong to nobody. As an ordinary user, bwrap maps the user to uid 1000 in a user namespace.

Limits: CPU seconds, address space, file size, processes (ulimit); wall time; total bytes printed; total
bytes written under /home/user. Exceeding a limit kills the whole sandbox. Afterwards the home folder is
scanned: setuid/setgid files, device files, fifos and symlinks that point outside /home/user are
violations, as is a process still running when the script exits. A violation makes the run `unsafe`.

Without `bwrap` Forge refuses to run scripts unless the caller explicitly opts out (`Sandbox(enabled=False)`,
the CLI's `--no-sandbox`); then the script runs with its /home/user paths rewritten to the state folder —
for trusted packages only.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import stat
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from forge.errors import SandboxError

SYSTEM_DIRS = ("/usr", "/etc", "/opt")
MASKED = ("/etc/shadow", "/etc/gshadow", "/etc/sudoers")
NOBODY = 65534
HOME = "/home/user"
#: Exit status of the wrapper when the script left processes behind (with a marker line on stderr).
LEFTOVER_EXIT = 125
LEFTOVER_MARK = "forge-sandbox: left"


@dataclass(frozen=True)
class Limits:
    wall_seconds: float = 60.0
    cpu_seconds: int = 30
    memory_mb: int = 2048
    file_mb: int = 256
    disk_mb: int = 512  # all files under /home/user together
    tmp_mb: int = 64  # the private /tmp (a tmpfs in memory)
    processes: int = 256
    output_bytes: int = 1 << 20  # stdout + stderr; more is a flood and kills the run
    keep_bytes: int = 64 * 1024  # how much output is kept as evidence


@dataclass(frozen=True)
class RunResult:
    returncode: int
    stdout: str
    stderr: str
    timed_out: bool = False
    violations: tuple[str, ...] = field(default_factory=tuple)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.timed_out and not self.violations

    @property
    def unsafe(self) -> bool:
        return bool(self.violations)

    def evidence(self) -> str:
        if self.violations:
            return "; ".join(self.violations)
        if self.timed_out:
            return f"timed out after {self.seconds:.1f} s"
        tail = (self.stderr.strip().splitlines() or [""])[-1][:300]
        return f"exit {self.returncode}" + (f": {tail}" if tail else "")


def scan_home(home: Path) -> list[str]:
    """Files a script must not leave in a task's home: setuid/setgid, devices, fifos, sockets, escaping links."""
    problems: list[str] = []
    root = home.resolve()
    for dirpath, dirnames, filenames in os.walk(home):
        for name in dirnames + filenames:
            path = Path(dirpath) / name
            rel = path.relative_to(home)
            info = path.lstat()
            if stat.S_ISLNK(info.st_mode):
                target = os.readlink(path)
                inside = target.replace(HOME, str(root), 1) if target.startswith(HOME) else target
                resolved = (path.parent / inside).resolve()
                if resolved != root and root not in resolved.parents:
                    problems.append(f"{HOME}/{rel} is a symlink to {target}, outside {HOME}")
            elif not (stat.S_ISREG(info.st_mode) or stat.S_ISDIR(info.st_mode)):
                problems.append(f"{HOME}/{rel} is a special file (mode {stat.filemode(info.st_mode)})")
            elif info.st_mode & (stat.S_ISUID | stat.S_ISGID):
                problems.append(f"{HOME}/{rel} has the setuid/setgid bit (mode {stat.filemode(info.st_mode)})")
        if len(problems) >= 5:
            break
    return problems


def _tree_bytes(home: Path, stop_at: int) -> int:
    total = 0
    for dirpath, _, filenames in os.walk(home):
        for name in filenames:
            with contextlib.suppress(OSError):
                total += (Path(dirpath) / name).lstat().st_size
            if total > stop_at:
                return total
    return total


def chown_tree(home: Path, uid: int = NOBODY) -> None:
    """Give a folder and everything in it (links themselves, not their targets) to `uid`."""
    for dirpath, dirnames, filenames in os.walk(home):
        os.lchown(dirpath, uid, uid)
        for name in dirnames + filenames:
            os.lchown(Path(dirpath) / name, uid, uid)


class Sandbox:
    def __init__(self, limits: Limits | None = None, *, enabled: bool = True) -> None:
        self.limits = limits or Limits()
        self.enabled = enabled
        self.bwrap = shutil.which("bwrap")
        self.as_root = os.geteuid() == 0
        if enabled and not self.bwrap:
            raise SandboxError("bubblewrap (bwrap) is not installed, so package scripts cannot run safely; "
                               "install it (apt-get install bubblewrap) or pass --no-sandbox for trusted packages")
        if enabled and self.as_root and not shutil.which("setpriv"):
            raise SandboxError("running as root needs `setpriv` (util-linux) to drop to nobody inside the sandbox; "
                               "install util-linux")

    # --- command lines -------------------------------------------------------------------------------

    def bwrap_args(self, binds: list[tuple[str, str, bool]]) -> list[str]:
        """bwrap options for a read-only system plus `binds` (host, inside, writable), no network."""
        args = [str(self.bwrap)]
        for folder in SYSTEM_DIRS:
            if Path(folder).exists():
                args += ["--ro-bind", folder, folder]
        for name in ("bin", "lib", "lib64", "sbin"):
            target = Path("/" + name)
            if target.is_symlink():
                args += ["--symlink", os.readlink(target), f"/{name}"]
            elif target.exists():
                args += ["--ro-bind", str(target), f"/{name}"]
        for secret in MASKED:
            if Path(secret).exists():
                args += ["--ro-bind", "/dev/null", secret]
        args += ["--dev", "/dev", "--proc", "/proc", "--size", str(self.limits.tmp_mb << 20),
                 "--perms", "1777", "--tmpfs", "/tmp"]
        parents = {str(a) for _, inside, _ in binds for a in Path(inside).parents if str(a) != "/"}
        for parent in sorted(p for p in parents if not p.startswith(SYSTEM_DIRS)):
            args += ["--perms", "0755", "--dir", parent]
        for host, inside, writable in binds:
            args += ["--bind" if writable else "--ro-bind", host, inside]
        args += ["--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try",
                 "--hostname", "forge", "--die-with-parent", "--new-session", "--clearenv",
                 "--setenv", "HOME", HOME, "--setenv", "USER", "user",
                 "--setenv", "PATH", "/usr/local/bin:/usr/bin:/bin", "--setenv", "LANG", "C.UTF-8",
                 "--chdir", HOME if any(inside == HOME for _, inside, _ in binds) else "/"]
        if self.as_root:
            args += ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID", "--",
                     "setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", "--inh-caps=-all",
                     "--bounding-set=-all", "--no-new-privs"]
        else:
            args += ["--unshare-user", "--uid", "1000", "--gid", "1000", "--"]
        return args

    def ulimits(self) -> str:
        """Shell lines that set the limits, failing closed when one cannot be set."""
        lim = self.limits
        processes = lim.processes if self.as_root else lim.processes + _own_processes()
        return "; ".join(f"ulimit {flag} {value} || exit 126" for flag, value in (
            ("-t", lim.cpu_seconds), ("-v", lim.memory_mb * 1024), ("-f", lim.file_mb * 1024), ("-u", processes)))

    def run_script(self, package: Path, script: str, home: Path) -> RunResult:
        """Run `package/script` with bash, with `home` standing for /home/user."""
        if not self.enabled:
            text = (package / script).read_text(encoding="utf-8").replace(HOME, str(home))
            env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(home), "FORGE_NO_LAUNCH": "1",
                   "FORGE_ASSETS": str(package / "assets"), "LANG": "C.UTF-8"}
            return self.run(["bash", "-c", f"{self.ulimits()}; {text}"], env, home, cwd=home)
        if self.as_root:
            chown_tree(home)
        # The wrapper counts processes still alive in the PID namespace after the script (pid 1 is bwrap's
        # init, $$ is this shell); the glob needs no fork.
        inner = (f'{self.ulimits()}; FORGE_NO_LAUNCH=1 FORGE_ASSETS=/forge/pkg/assets bash "/forge/pkg/{script}"; '
                 'rc=$?; left=0; for p in /proc/[0-9]*; do case "${p#/proc/}" in 1|"$$") ;; *) left=$((left+1));; '
                 f'esac; done; if [ "$left" -gt 0 ]; then echo "{LEFTOVER_MARK} $left process(es) running" >&2; '
                 f"exit {LEFTOVER_EXIT}; fi; exit $rc")
        cmd = [*self.bwrap_args([(str(home), HOME, True), (str(package), "/forge/pkg", False)]), "bash", "-c", inner]
        result = self.run(cmd, {"PATH": "/usr/bin:/bin"}, home)
        violations = list(result.violations)
        if result.returncode == LEFTOVER_EXIT and LEFTOVER_MARK in result.stderr:
            line = next(x for x in result.stderr.splitlines() if LEFTOVER_MARK in x)
            violations.append("the script " + line.removeprefix("forge-sandbox: ") + " after it ended")
        violations += scan_home(home)
        if violations == list(result.violations):
            return result
        return RunResult(result.returncode, result.stdout, result.stderr, result.timed_out, tuple(violations),
                         result.seconds)

    def run(self, cmd: list[str], env: dict[str, str], home: Path, cwd: Path | None = None) -> RunResult:
        """Run `cmd` in its own process group, enforcing wall time, output and disk limits; kill it all after."""
        lim = self.limits
        start = time.monotonic()
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                env=env, cwd=cwd, start_new_session=True)
        out, err = _Drain(proc.stdout, lim.keep_bytes), _Drain(proc.stderr, lim.keep_bytes)
        violations: list[str] = []
        timed_out = False
        next_disk = start + 0.1
        try:
            while proc.poll() is None:
                now = time.monotonic()
                if now - start > lim.wall_seconds:
                    timed_out = True
                    break
                if out.total + err.total > lim.output_bytes:
                    violations.append(f"printed more than {lim.output_bytes} bytes of output")
                    break
                if now >= next_disk:  # often: on a RAM disk a flood writes ~2 GB/s
                    next_disk = now + 0.1
                    if _tree_bytes(home, lim.disk_mb << 20) > lim.disk_mb << 20:
                        violations.append(f"wrote more than {lim.disk_mb} MB under {HOME}")
                        break
                time.sleep(0.005 if now - start < 0.2 else 0.05)
        finally:
            _kill_group(proc.pid)
            proc.wait()
            out.join()
            err.join()
        return RunResult(proc.returncode, out.text(), err.text(), timed_out, tuple(violations),
                         time.monotonic() - start)


class _Drain(threading.Thread):
    """Reads a pipe to the end, keeping the first `keep` bytes and counting the rest."""

    def __init__(self, stream: IO[bytes] | None, keep: int) -> None:
        super().__init__(daemon=True)
        self.stream = stream
        self.keep = keep
        self.head = bytearray()
        self.total = 0
        self.start()

    def run(self) -> None:
        assert self.stream is not None
        while chunk := self.stream.read1(1 << 16):  # type: ignore[attr-defined]
            self.total += len(chunk)
            if len(self.head) < self.keep:
                self.head += chunk[: self.keep - len(self.head)]
        self.stream.close()

    def text(self) -> str:
        return bytes(self.head).decode("utf-8", "replace")


def _own_processes() -> int:
    uid = os.getuid()
    count = 0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                count += entry.stat().st_uid == uid
    return count


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)
