"""Run package scripts under bubblewrap.

Each run gets: a fresh host folder bound at /home/user, the package bound read-only at /forge/pkg,
read-only system folders, private /tmp, /proc and /dev, no network (empty network namespace), a
cleared environment, ulimits (CPU, memory, file size, processes) and a wall-clock timeout that kills
the whole process group. Without `bwrap` Forge refuses to run scripts unless the caller explicitly
opts out (`Sandbox(enabled=False)`, the CLI's `--no-sandbox`), in which case the script runs with
its /home/user paths rewritten to the state folder — for trusted packages only.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from forge.errors import SandboxError

SYSTEM_DIRS = ("/usr", "/etc", "/opt")
MASKED = ("/etc/shadow", "/etc/gshadow", "/etc/sudoers")


@dataclass(frozen=True)
class Limits:
    wall_seconds: float = 60.0
    cpu_seconds: int = 30
    memory_mb: int = 2048
    file_mb: int = 256
    processes: int = 256
    output_bytes: int = 64 * 1024


@dataclass(frozen=True)
class RunResult:
    returncode: int
    stdout: str
    stderr: str
    timed_out: bool

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.timed_out

    def evidence(self) -> str:
        if self.timed_out:
            return "timed out"
        tail = (self.stderr.strip().splitlines() or [""])[-1][:300]
        return f"exit {self.returncode}" + (f": {tail}" if tail else "")


class Sandbox:
    def __init__(self, limits: Limits | None = None, *, enabled: bool = True) -> None:
        self.limits = limits or Limits()
        self.enabled = enabled
        self.bwrap = shutil.which("bwrap")
        if enabled and not self.bwrap:
            raise SandboxError("bubblewrap (bwrap) is not installed, so package scripts cannot run safely; "
                               "install it (apt-get install bubblewrap) or pass --no-sandbox for trusted packages")

    def _bwrap_args(self, home: Path, package: Path) -> list[str]:
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
        args += [
            "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
            "--bind", str(home), "/home/user", "--ro-bind", str(package), "/forge/pkg",
            "--unshare-all", "--uid", "1000", "--gid", "1000", "--hostname", "forge",
            "--die-with-parent", "--new-session", "--clearenv",
            "--setenv", "HOME", "/home/user", "--setenv", "USER", "user",
            "--setenv", "PATH", "/usr/local/bin:/usr/bin:/bin", "--setenv", "LANG", "C.UTF-8",
            "--setenv", "FORGE_NO_LAUNCH", "1", "--setenv", "FORGE_ASSETS", "/forge/pkg/assets",
            "--chdir", "/home/user",
        ]
        return args

    def _ulimits(self) -> str:
        lim = self.limits
        return (f"ulimit -t {lim.cpu_seconds} -v {lim.memory_mb * 1024} -f {lim.file_mb * 1024} "
                f"-u {lim.processes} 2>/dev/null || true")

    def run_script(self, package: Path, script: str, home: Path) -> RunResult:
        """Run `package/script` with bash, with `home` standing for /home/user."""
        if self.enabled:
            inner = f'{self._ulimits()}; exec bash "/forge/pkg/{script}"'
            cmd = [*self._bwrap_args(home, package), "bash", "-c", inner]
            env = {"PATH": "/usr/bin:/bin"}
        else:
            text = (package / script).read_text(encoding="utf-8").replace("/home/user", str(home))
            cmd = ["bash", "-c", f"{self._ulimits()}; {text}"]
            env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(home), "FORGE_NO_LAUNCH": "1",
                   "FORGE_ASSETS": str(package / "assets"), "LANG": "C.UTF-8"}
        return self._run(cmd, env, home if not self.enabled else None)

    def _run(self, cmd: list[str], env: dict[str, str], cwd: Path | None) -> RunResult:
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=err, env=env,
                                    cwd=cwd, start_new_session=True)
            timed_out = False
            try:
                proc.wait(timeout=self.limits.wall_seconds)
            except subprocess.TimeoutExpired:
                timed_out = True
            finally:
                _kill_group(proc.pid)
                proc.wait()
            return RunResult(proc.returncode, _head(out, self.limits.output_bytes),
                             _head(err, self.limits.output_bytes), timed_out)


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def _head(stream: object, limit: int) -> str:
    stream.seek(0)  # type: ignore[attr-defined]
    return stream.read(limit).decode("utf-8", "replace")  # type: ignore[attr-defined]
