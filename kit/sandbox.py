"""Run package scripts (setup.sh, .sh solutions) under bubblewrap.

Each run gets a host folder bound at /home/user and nothing else writable: the package read-only at
/forge/pkg, read-only /usr, /etc (with /etc/shadow, /etc/gshadow, /etc/sudoers masked) and /opt, a small
private /tmp, private /proc and /dev, an empty network namespace, its own PID namespace (so every
process it starts dies with it), a cleared environment and no capabilities.

Who the script runs as: as root (CI), bwrap drops to a user id of its own (`sandbox_uid()`, above 2**28)
before the script starts, so the process limit counts (the kernel never applies RLIMIT_NPROC to root) and
counts this sandbox only: RLIMIT_NPROC is per real uid, and a shared `nobody` would make every Forge run on
the host share one budget (and let `kill -9 -1` in one sandbox reach the others). Files it leaves on the host
belong to that id; the check workers run as nobody (`WorkerPool.prepare` hands them the files). As an
ordinary user, bwrap maps the user to uid 1000 in a user namespace; there RLIMIT_NPROC counts the invoking
user's processes, so the limit is set to the budget plus what the user already runs (documented, not
per-sandbox: without root or a delegated cgroup there is no per-sandbox process count).

Infrastructure, not the package: a run whose wrapper never started (bwrap or ulimit failed), one that hit
ENOSPC while the scratch disk had less room than the disk budget, or a fork that failed while the host's
process table was nearly full carries `RunResult.infra`; the gate records `infra_fail` (retried by resume).

Limits: CPU seconds, address space, file size, processes (ulimit); wall time; total bytes printed; total
bytes written under /home/user. Exceeding a limit kills the whole sandbox. Afterwards the home folder is
scanned: setuid/setgid files, device files, fifos and symlinks that point outside /home/user are
violations, as is a process still running when the script exits. A violation makes the run `unsafe`.

A batch (`forge.generate`) runs setup scripts in warm sandboxes (`forge.warm`) that keep these rules per run and
hand every run that is not clean back to `run_script`.

Without `bwrap` Forge refuses to run scripts unless the caller explicitly opts out (`Sandbox(enabled=False)`,
the CLI's `--no-sandbox`); then the script runs with its /home/user paths rewritten to the state folder —
for trusted packages only.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
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

from kit import bounded
from kit.errors import SandboxError

SYSTEM_DIRS = ("/usr", "/etc", "/opt")
MASKED = ("/etc/shadow", "/etc/gshadow", "/etc/sudoers")
NOBODY = 65534
HOME = "/home/user"
#: Exit status of the wrapper when the script left processes behind (with a marker line on stderr).
LEFTOVER_EXIT = 125
LEFTOVER_MARK = "forge-sandbox: left"
STARTED_MARK = "forge-sandbox: started"


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
    # The warm check workers (forge.workers): address space, CPU seconds per request, open files. `forge check`
    # and `forge solve` use less memory than the gate (one state at a time; a bomb must stay under 1 GB).
    worker_memory_mb: int = 1024
    worker_cpu_seconds: int = 60
    open_files: int = 512


@dataclass(frozen=True)
class RunResult:
    returncode: int
    stdout: str
    stderr: str
    timed_out: bool = False
    violations: tuple[str, ...] = field(default_factory=tuple)
    seconds: float = 0.0
    infra: str = ""  # why the machine, not the script, made the run fail (the gate says infra_fail: retried)

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.timed_out and not self.violations and not self.infra

    @property
    def unsafe(self) -> bool:
        return bool(self.violations)

    def evidence(self) -> str:
        if self.violations:
            return "; ".join(self.violations)
        if self.infra:
            return f"infrastructure: {self.infra}"
        if self.timed_out:
            return f"timed out after {self.seconds:.1f} s"
        tail = (self.stderr.strip().splitlines() or [""])[-1][:300]
        return f"exit {self.returncode}" + (f": {tail}" if tail else "")


def scan_home(home: Path) -> list[str]:
    """Files a script must not leave in a task's home: setuid/setgid, devices, fifos, sockets, escaping links.

    The walk uses directory descriptors (`kit.bounded.walk`): a path longer than PATH_MAX hides nothing, and a
    tree nested deeper than the walk allows is itself a violation. A link is judged by resolving it inside the
    home (`kit.bounded.resolve_in`), so a chain of links that climbs out (`b -> /home/user`, `a -> b/..`) is
    caught as well as a plain `-> /etc`."""
    problems: list[str] = []
    try:
        for item in bounded.walk(home):
            shown = f"{HOME}/{bounded.short(item.rel)}"
            if item.is_link:
                try:
                    bounded.resolve_in(home, item.rel, home=HOME)
                except ValueError as exc:  # leads outside /home/user, loops, or cannot be followed at all
                    target = item.readlink()
                    problems.append(f"{shown} is a symlink to {target}, outside {HOME}" if "outside" in str(exc)
                                    else f"{shown} is a symlink to {target} that {exc}")
            elif not (item.is_file or item.is_dir):
                problems.append(f"{shown} is a special file (mode {stat.filemode(item.info.st_mode)})")
            elif item.info.st_mode & (stat.S_ISUID | stat.S_ISGID):
                problems.append(f"{shown} has the setuid/setgid bit (mode {stat.filemode(item.info.st_mode)})")
            if len(problems) >= 5:
                break
    except bounded.LimitExceeded as exc:
        problems.append(f"{HOME}: {exc}")
    except OSError as exc:
        problems.append(f"{HOME} cannot be scanned: {exc.strerror or exc}")
    return problems


def chown_tree(home: Path, uid: int = NOBODY) -> None:
    """Give a folder and everything in it (links themselves, not their targets) to `uid` (no recursion, no
    path strings: any depth the walk allows; deeper parts keep their owner)."""
    os.lchown(home, uid, uid)
    with contextlib.suppress(bounded.LimitExceeded):
        for item in bounded.walk(home, max_depth=4 * bounded.MAX_DEPTH, max_entries=4 * bounded.MAX_ENTRIES):
            with contextlib.suppress(FileNotFoundError):
                os.chown(item.name, uid, uid, dir_fd=item.dir_fd, follow_symlinks=False)


#: Per-sandbox user ids (as root): BASE + 4096 slots per host process id, so no two live sandboxes on a host
#: share one and RLIMIT_NPROC counts one sandbox's processes only.
UID_BASE = 1 << 28
_uids = itertools.count()


def sandbox_uid() -> int:
    """A user id no other live sandbox on this host uses (for processes below 2**18; pids wrap above)."""
    return UID_BASE + ((os.getpid() & 0x3FFFF) << 12) + (next(_uids) & 0xFFF)


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

    def bwrap_args(self, binds: list[tuple[str, str, bool]], uid: int = NOBODY) -> list[str]:
        """bwrap options for a read-only system plus `binds` (host, inside, writable), no network; as root the
        command runs as `uid` (nobody unless a per-sandbox id from `sandbox_uid()` is given)."""
        args = [str(self.bwrap), *self.system_args()]
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
                     "setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "--inh-caps=-all",
                     "--bounding-set=-all", "--no-new-privs"]
        else:
            args += ["--unshare-user", "--uid", "1000", "--gid", "1000", "--"]
        return args

    def system_args(self) -> list[str]:
        """bwrap options for the read-only system: /usr, /etc (secrets masked), /opt and the /bin, /lib links."""
        args = []
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
        uid = sandbox_uid() if self.as_root else NOBODY
        if self.as_root:
            chown_tree(home, uid)
        # The wrapper says when the limits are set and the script starts (no line: bwrap or ulimit failed, the
        # machine's fault), then counts processes still alive in the PID namespace after the script (pid 1 is
        # bwrap's init, $$ is this shell); the glob needs no fork.
        inner = (f'{self.ulimits()}; echo "{STARTED_MARK}" >&2; '
                 f'FORGE_NO_LAUNCH=1 FORGE_ASSETS=/forge/pkg/assets bash "/forge/pkg/{script}"; '
                 'rc=$?; left=0; for p in /proc/[0-9]*; do case "${p#/proc/}" in 1|"$$") ;; *) left=$((left+1));; '
                 f'esac; done; if [ "$left" -gt 0 ]; then echo "{LEFTOVER_MARK} $left process(es) running" >&2; '
                 f"exit {LEFTOVER_EXIT}; fi; exit $rc")
        binds = [(str(home), HOME, True), (str(package), "/forge/pkg", False)]
        try:
            result = self.run([*self.bwrap_args(binds, uid), "bash", "-c", inner], {"PATH": "/usr/bin:/bin"}, home)
        except OSError as exc:  # cannot even fork bwrap (EAGAIN, ENOMEM): the machine, not the package
            return RunResult(126, "", str(exc), infra=f"cannot start the sandbox: {exc}")
        started = STARTED_MARK + "\n" in result.stderr  # bwrap may warn before it; the script cannot un-print it
        result = dataclasses.replace(result, stderr=result.stderr.replace(STARTED_MARK + "\n", "", 1),
                                     infra=result.infra or _infra_reason(result, started, home, self.limits))
        violations = list(result.violations)
        if result.returncode == LEFTOVER_EXIT and LEFTOVER_MARK in result.stderr:
            line = next(x for x in result.stderr.splitlines() if LEFTOVER_MARK in x)
            violations.append("the script " + line.removeprefix("forge-sandbox: ") + " after it ended")
        violations += scan_home(home)
        if violations == list(result.violations):
            return result
        return dataclasses.replace(result, violations=tuple(violations), infra="")

    def run(self, cmd: list[str], env: dict[str, str], home: Path, cwd: Path | None = None) -> RunResult:
        """Run `cmd` in its own process group, enforcing wall time, output and disk limits; kill it all after."""
        lim = self.limits
        start = time.monotonic()
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                env=env, cwd=cwd, start_new_session=True)
        out, err = _Drain(proc.stdout, lim.keep_bytes), _Drain(proc.stderr, lim.keep_bytes)
        violations: list[str] = []
        timed_out, starved = False, ""
        next_disk = start + 0.1
        try:
            while proc.poll() is None:
                now = time.monotonic()
                if now - start > lim.wall_seconds:
                    timed_out = True
                    starved = _starved(proc.pid, now - start, lim.processes)
                    break
                if out.total + err.total > lim.output_bytes:
                    violations.append(f"printed more than {lim.output_bytes} bytes of output")
                    break
                if now >= next_disk:  # often: on a RAM disk a flood writes ~2 GB/s
                    next_disk = now + 0.1
                    try:
                        used = bounded.tree_bytes(home, lim.disk_mb << 20)
                    except bounded.LimitExceeded as exc:  # too deep or too many files to even count
                        violations.append(f"under {HOME}: {exc}")
                        break
                    except OSError:
                        used = 0  # a folder vanished or was made unreadable mid-count; the next poll sees it
                    if used > lim.disk_mb << 20:
                        violations.append(f"wrote more than {lim.disk_mb} MB under {HOME}")
                        break
                time.sleep(0.005 if now - start < 0.2 else 0.05)
        finally:
            _kill_group(proc.pid)
            proc.wait()
            out.join()
            err.join()
        return RunResult(proc.returncode, out.text(), err.text(), timed_out, tuple(violations),
                         time.monotonic() - start, infra=starved if timed_out and not violations else "")


def _infra_reason(result: RunResult, started: bool, home: Path, limits: Limits) -> str:
    """Why a failed run is the machine's fault, or "" when it may be the script's.

    - the wrapper never said it started: bwrap or ulimit failed (namespaces, memory, processes);
    - "No space left on device" while the scratch disk has less room than the sandbox's disk budget: the
      script could not have had its budget (a script that fills its own budget is stopped as a violation);
    - "Resource temporarily unavailable" on fork while the host's process table is nearly full: the
      per-sandbox user id gives each script its own process budget, so only a full host explains it."""
    if result.returncode == 0 or result.violations or result.timed_out:
        return ""
    if not started:
        tail = (result.stderr.strip().splitlines() or ["no output"])[-1][:200]
        return f"the sandbox did not start ({tail})"
    if "No space left on device" in result.stderr:
        free = shutil.disk_usage(home).free
        if free < limits.disk_mb << 20:
            return f"the scratch disk is full ({free >> 20} MB free, a sandbox may use {limits.disk_mb} MB)"
    if "Resource temporarily unavailable" in result.stderr and _host_processes_nearly_full():
        return "the host is out of processes (fork failed with EAGAIN)"
    return ""


def _starved(pid: int, wall: float, processes: int) -> str:
    """Why a run that hit its wall-clock limit was starved by the machine's load, or "".

    Read from the scheduler (/proc/<pid>/schedstat: time on a CPU, time waiting runnable for one) over the
    sandbox's live processes: a script one of whose processes waited for a CPU most of the wall time while the
    whole script ran little was stopped by load, not by its own loop (which runs) or sleep (which does not wait
    for a CPU). A script cannot fake this: spawning busy processes to make its own queue runs them, and their CPU
    time counts - that of the ones already gone too, through their parents' reaped-children times. The wait is
    one process's, not a sum: a fork bomb's hundreds of processes each wait a little as they wake to retry their
    fork, and summed those waits once passed half the wall time on a loaded machine; and a script holding half
    its process budget is its own load (`processes`: the sandbox's limit)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, ValueError, IndexError):
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
    tree, grew = {pid}, True
    while grew:
        more = {p for p, parent in parents.items() if parent in tree} - tree
        grew, tree = bool(more), tree | more
    if len(tree) > processes // 2:
        return ""
    ran = waited = 0.0
    ours = (os.getpriority(os.PRIO_PROCESS, 0), os.sched_getaffinity(0))
    for member in tree:
        try:
            stat_fields = Path(f"/proc/{member}/stat").read_text().rsplit(")", 1)[1].split()
            fields = Path(f"/proc/{member}/schedstat").read_text().split()
            theirs = (int(stat_fields[16]), os.sched_getaffinity(member))
        except (OSError, ValueError, IndexError):
            continue
        if theirs != ours or int(stat_fields[38]) != os.SCHED_OTHER:
            return ""  # it lowered its own priority, pinned itself or chose an idle policy: starving is its doing
        reaped = (int(stat_fields[13]) + int(stat_fields[14])) / os.sysconf("SC_CLK_TCK")  # cutime + cstime
        ran, waited = ran + int(fields[0]) / 1e9 + reaped, max(waited, int(fields[1]) / 1e9)
    if waited >= 0.5 * wall and ran < 0.1 * wall:
        return (f"the machine was too busy: a process of the script waited {waited:.1f} s for a CPU, the script ran "
                f"{ran:.2f} s in {wall:.1f} s")
    return ""


def _host_processes_nearly_full() -> bool:
    try:
        running = int(Path("/proc/loadavg").read_text().split()[3].split("/")[1])
        cap = min(int(Path("/proc/sys/kernel/pid_max").read_text()), int(Path("/proc/sys/kernel/threads-max")
                                                                          .read_text()))
    except (OSError, ValueError, IndexError):
        return False
    return running > 0.9 * cap


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
