"""A hostile corpus: real attacks in package scripts and files, run as one batch through `forge verify`.

Each package starts as a valid generated task; one attack is then written into it. After the batch:
every hostile package is rejected as `unsafe` or `setup_fail` with evidence, the canary files on the
host (a folder under the test's tmp dir, one in the invoking user's home, one in the host's /tmp) are
untouched, the loopback service saw no connection, no sandboxed process survives, and the valid
package verified after the corpus is still accepted (the batch goes on).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from forge.cli import app
from tests.gatekit import make_package
from workflows.calc.freeze_panes import WORKFLOW

pytestmark = pytest.mark.slow

SECRET = "forge-canary-secret-42"


class Host:
    """The things on the host an attack must not reach."""

    def __init__(self, tmp: Path) -> None:
        self.dir = tmp / "canary-dir"
        self.dir.mkdir()
        (self.dir / "keep.txt").write_text(SECRET)
        self.home_dir = Path.home() / f".forge-canary-{os.getpid()}"
        self.home_dir.mkdir(exist_ok=True)
        (self.home_dir / "id_rsa").write_text(SECRET)
        self.tmp_file = Path("/tmp") / f"forge-canary-{os.getpid()}.txt"
        self.tmp_file.write_text(SECRET)
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(8)
        self.server.settimeout(0.2)
        self.port = self.server.getsockname()[1]
        self.connections = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.server.accept()
            except OSError:
                continue
            self.connections += 1
            conn.close()

    def snapshot(self) -> dict[str, tuple[str, int]]:
        files = [*self.dir.rglob("*"), *self.home_dir.rglob("*"), self.tmp_file]
        return {str(p): (p.read_text(), p.stat().st_mtime_ns) for p in files if p.is_file()} | {
            str(self.dir): ("dir", len(list(self.dir.iterdir())))}

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        self.server.close()
        shutil.rmtree(self.home_dir, ignore_errors=True)
        self.tmp_file.unlink(missing_ok=True)


def _edit_setup(pkg: Path, *, before: str = "", after: str = "") -> None:
    lines = (pkg / "setup.sh").read_text().splitlines()
    at = lines.index("set -euo pipefail") + 1
    lines[at:at] = [before] if before else []
    (pkg / "setup.sh").write_text("\n".join(lines + ([after] if after else [])) + "\n")


def _edit_task(pkg: Path, change: Callable[[dict], None]) -> None:
    task = json.loads((pkg / "task.json").read_text())
    change(task)
    (pkg / "task.json").write_text(json.dumps(task))


def _symlink_asset(pkg: Path) -> None:
    asset = next((pkg / "assets").iterdir())
    asset.unlink()
    asset.symlink_to("/etc/passwd")


def _traversal(pkg: Path) -> None:
    def change(task: dict) -> None:
        task["setup"]["assets"][0]["file"] = "assets/../../x"
    _edit_task(pkg, change)


def _hostile_solution(pkg: Path) -> None:
    (pkg / "solution" / "near-miss-1.sh").write_text("#!/bin/bash\nhead -c 3000000000 /dev/zero\n")

    def change(task: dict) -> None:
        task["solutions"]["near_misses"][0] = "solution/near-miss-1.sh"
    _edit_task(pkg, change)


def attacks(host: Host) -> dict[str, Callable[[Path], None]]:
    """name -> how it turns a valid package into an attack."""
    def setup(before: str = "", after: str = "") -> Callable[[Path], None]:
        return lambda pkg: _edit_setup(pkg, before=before, after=after)

    return {
        "rm-rf-home": setup(after="rm -rf ~ /home/user/*"),
        "rm-rf-root": setup(after="rm -rf --no-preserve-root /"),
        "write-outside-home": setup(before=f"echo pwned > {host.dir}/keep.txt; echo pwned > /etc/forge-pwned"),
        "delete-host-dir": setup(before=f"rm -rf {host.dir} {host.tmp_file}; test ! -e {host.dir}/keep.txt && false"),
        "read-etc-shadow": setup(after="cp /etc/shadow ~/shadow.txt"),
        "read-root-and-user-home": setup(before=f"cp -r /root {host.home_dir} ~/"),
        "read-env-secrets": setup(after="env > ~/env.txt"),
        "connect-host-loopback": setup(before=f"exec 3<>/dev/tcp/127.0.0.1/{host.port}; echo hi >&3"),
        "fork-bomb": setup(before="bomb() { bomb | bomb & }; bomb"),
        "infinite-loop": setup(before="while :; do :; done"),
        "fill-the-disk": setup(before="while :; do head -c 50000000 /dev/zero > ~/fill.$RANDOM; done"),
        "asset-symlink-to-host": _symlink_asset,
        "asset-path-traversal": _traversal,
        "setuid-shell": setup(after="cp /bin/bash ~/sh && chmod u+s ~/sh"),
        "symlink-out-of-home": setup(after="ln -s /etc/passwd ~/passwd"),
        "kill-parent": setup(before="kill -9 $PPID; kill -9 -1"),
        "print-gigabytes": setup(before="head -c 3000000000 /dev/zero"),
        "sleep-forever": setup(before="sleep infinity"),
        "leave-background-process": setup(after="(setsid sleep 1000 >/dev/null 2>&1 &); true"),
        "hostile-near-miss-script": _hostile_solution,
    }


@pytest.fixture
def host(tmp_path: Path) -> Iterator[Host]:
    host = Host(tmp_path)
    yield host
    host.close()


def _sandboxed_processes(ours: Path) -> list[str]:
    """Processes still alive that name /forge/pkg/ (a sandbox or a package script), except those inside a sandbox
    of another run on this machine (a benchmark beside the tests): a bwrap binds its package at /forge/pkg, so
    a sandbox is ours when its command line names a folder under `ours`. An escaped process, reparented away
    from its sandbox, always counts."""
    procs: dict[int, tuple[int, str]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        procs[int(entry.name)] = (ppid, cmd)

    def foreign(pid: int) -> bool:
        seen = set()
        while pid in procs and pid not in seen:
            seen.add(pid)
            ppid, cmd = procs[pid]
            if "bwrap" in cmd and "/forge/pkg" in cmd:
                return str(ours) not in cmd
            pid = ppid
        return False

    return [f"{pid}: {cmd[:80]}" for pid, (_, cmd) in sorted(procs.items())
            if "/forge/pkg/" in cmd and not foreign(pid)]


def test_hostile_corpus_is_contained_and_rejected(tmp_path, host):
    valid = make_package(WORKFLOW, {"target": "both"}, tmp_path / "made", seed=7)
    corpus = attacks(host)
    assert len(corpus) >= 15
    folders = []
    for name, attack in corpus.items():
        folder = tmp_path / "corpus" / name
        shutil.copytree(valid, folder)
        attack(folder)
        folders.append(folder)
    good = tmp_path / "corpus" / "zz-valid-after"
    shutil.copytree(valid, good)
    before = host.snapshot()

    result = CliRunner().invoke(app, ["verify", "--json", "--timeout", "4", *map(str, folders), str(good)])

    verdicts = {Path(v["path"]).name: v for v in map(json.loads, result.stdout.splitlines())}
    assert host.snapshot() == before
    assert host.connections == 0
    assert _sandboxed_processes(tmp_path) == []
    assert verdicts.pop("zz-valid-after")["status"] == "accepted"
    for name, verdict in verdicts.items():
        failed = [s for s in verdict["stages"] if not s["passed"]]
        assert verdict["status"] in ("unsafe", "setup_fail"), (name, verdict["status"], failed)
        assert failed and failed[-1]["evidence"], name
    assert set(verdicts) == set(corpus)
    assert result.exit_code == 1
    by_status = {name: v["status"] for name, v in verdicts.items()}
    for must_be_unsafe in ("asset-symlink-to-host", "asset-path-traversal", "setuid-shell", "symlink-out-of-home",
                           "print-gigabytes", "leave-background-process", "hostile-near-miss-script"):
        assert by_status[must_be_unsafe] == "unsafe", (must_be_unsafe, verdicts[must_be_unsafe]["stages"][-1])
