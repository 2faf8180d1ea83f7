"""Hostile trees: agent end states and packages that try to reach the host, exhaust memory or disk, hide below
PATH_MAX, hang a reader or crash a walk. Every case is a real attack on real components (bubblewrap, the warm
check workers, the CLI); each asserts what must hold: the host is untouched, the verdict is `unsafe` or a
failed check with one line of evidence (never `infra_fail`, a traceback or a hang), nothing leaks.

Unit cases (no sandbox) run in the fast suite; those that start bwrap are marked slow.
"""

from __future__ import annotations

import bz2
import io
import json
import os
import resource
import shutil
import subprocess
import sys
import tarfile
import threading
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from forge.cli import app
from kit import bounded, scratch
from kit.errors import PackageError
from kit.package import load_package
from kit.sandbox import Limits, RunResult, Sandbox, scan_home
from preparers.ops import OpError, apply_ops
from verifiers.checks import State, run_check

H = "/home/user"
ROOT = Path(__file__).resolve().parents[2]


def _deep(base: Path, depth: int, name: str = "d") -> int:
    """A chain of `depth` folders below `base` made with descriptors (the path outgrows PATH_MAX); returns an
    open descriptor of the deepest folder (the caller closes it)."""
    fd = os.open(base, os.O_RDONLY | os.O_DIRECTORY)
    for _ in range(depth):
        os.mkdir(name, dir_fd=fd)
        child = os.open(name, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
        os.close(fd)
        fd = child
    return fd


def _zip(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, body in members.items():
            zf.writestr(name, body)
    return out.getvalue()


def _tar_bz2(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w") as tar:
        for name, body in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(body)
            tar.addfile(info, io.BytesIO(body))
    return bz2.compress(out.getvalue())


class TreeMemory(threading.Thread):
    """Samples the summed RSS of a process and all its descendants (sandboxed workers included: rusage would miss
    them, they are reaped inside their PID namespace) every 50 ms; `stop()` returns the peak in KB."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid, self.peak, self._done = pid, 0, threading.Event()
        self.start()

    def run(self) -> None:
        while not self._done.is_set():
            parents: dict[int, int] = {}
            rss: dict[int, int] = {}
            for entry in Path("/proc").iterdir():
                if entry.name.isdigit():
                    try:
                        fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                        parents[int(entry.name)] = int(fields[1])
                        rss[int(entry.name)] = int(fields[21]) * (os.sysconf("SC_PAGE_SIZE") // 1024)
                    except (OSError, ValueError, IndexError):
                        continue
            tree, grew = {self.pid}, True
            while grew:
                more = {p for p, parent in parents.items() if parent in tree} - tree
                grew = bool(more)
                tree |= more
            self.peak = max(self.peak, sum(rss.get(p, 0) for p in tree))
            self._done.wait(0.05)

    def stop(self) -> int:
        self._done.set()
        self.join()
        return self.peak


@pytest.fixture
def canary() -> Iterator[Path]:
    """A file at /home/user/.forge-canary-<pid> on the host: what a link to an absolute /home/user path reaches
    when an op follows it on the host. /home/user is created for the test when missing (and removed after)."""
    home = Path(H)
    made = not home.exists()
    home.mkdir(parents=True, exist_ok=True)
    path = home / f".forge-canary-{os.getpid()}"
    path.write_text("keep me\n")
    yield path
    path.unlink(missing_ok=True)
    if made:
        shutil.rmtree(home, ignore_errors=True)


# --- ops never follow links out (no sandbox: the in-process path is the one that could reach the host) -----

def test_copy_onto_a_planted_link_replaces_the_link_never_writes_through(tmp_path, canary):
    root = tmp_path / "home"
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "a.txt").write_text("payload\n")
    os.symlink(str(canary), root / "notes.txt")  # what setup.sh plants: notes.txt -> /home/user/.forge-canary
    os.symlink("../../../../../../../../.." + str(canary), root / "climb.txt")
    apply_ops(root, [{"op": "fs.copy", "path": f"{H}/docs/a.txt", "dest": f"{H}/notes.txt"},
                     {"op": "fs.copy", "path": f"{H}/docs/a.txt", "dest": f"{H}/climb.txt"}])
    assert canary.read_text() == "keep me\n"
    for name in ("notes.txt", "climb.txt"):
        assert not (root / name).is_symlink() and (root / name).read_text() == "payload\n"


@pytest.mark.parametrize("op", [
    {"op": "fs.write_text", "path": f"{H}/climb.txt", "text": "x"},
    {"op": "fs.append_text", "path": f"{H}/climb.txt", "text": "x"},
    {"op": "fs.replace_in_file", "path": f"{H}/climb.txt", "old": "keep", "new": "lost"},
    {"op": "fs.chmod", "path": f"{H}/climb.txt", "mode": "777"},
    {"op": "fs.delete", "path": f"{H}/climb.txt"},
    {"op": "fs.extract", "path": f"{H}/a.zip", "dest": f"{H}/climbdir"},
])
def test_ops_through_a_link_climbing_out_are_refused(tmp_path, canary, op):
    root = tmp_path / "home"
    root.mkdir()
    (root / "a.zip").write_bytes(_zip({"x.txt": b"x"}))
    os.symlink("../../../../../../../../.." + str(canary), root / "climb.txt")
    os.symlink("../../../../../../../../.." + str(canary.parent), root / "climbdir")
    with pytest.raises(OpError, match="outside"):
        apply_ops(root, [op])
    assert canary.read_text() == "keep me\n" and oct(canary.stat().st_mode)[-3:] != "777"


def test_a_link_to_home_means_inside_the_root(tmp_path, canary):
    """An absolute /home/user/... link in a state is resolved as the desktop would: inside the root."""
    root = tmp_path / "home"
    root.mkdir()
    os.symlink(str(canary), root / "notes.txt")
    apply_ops(root, [{"op": "fs.write_text", "path": f"{H}/notes.txt", "text": "inside\n"}])
    assert (root / canary.name).read_text() == "inside\n"
    assert canary.read_text() == "keep me\n"


def test_link_loops_and_chains_that_climb_out_fail_cleanly(tmp_path):
    root = tmp_path / "home"
    root.mkdir()
    os.symlink("loop", root / "loop")
    os.symlink("/home/user", root / "b")
    os.symlink("b/..", root / "a")  # lexically inside, really /home: the resolver follows it like the kernel
    state = State(root)
    assert "too many levels" in run_check(state, "fs.text_contains", {"path": f"{H}/loop/x", "text": "x"}).evidence
    assert "outside" in run_check(state, "fs.text_contains", {"path": f"{H}/a/etc/passwd", "text": "x"}).evidence
    problems = scan_home(root)
    assert any("a is a symlink" in p for p in problems), problems


def test_dir_modes_never_reads_outside_the_folder(tmp_path):
    root = tmp_path / "home"
    (root / "bin").mkdir(parents=True)
    os.symlink("/etc/shadow", root / "bin" / "s")
    climb = run_check(State(root), "fs.dir_modes", {"path": f"{H}/bin", "modes": {"../../../../../etc/shadow": "640"}})
    assert not climb.passed and "not a plain entry name" in climb.evidence
    link = run_check(State(root), "fs.dir_modes", {"path": f"{H}/bin", "modes": {"s": "640"}})
    assert not link.passed and "outside" in link.evidence
    for result in (climb, link):
        assert "has mode" not in result.evidence  # no mode of the host's file in the evidence


# --- bounded readers ------------------------------------------------------------------------------------

def test_zip_bombs_are_refused_before_inflating(tmp_path):
    bomb = _zip({"xl/worksheets/sheet1.xml": b"\0" * (80 << 20)})  # 80 MB of zeros in ~80 KB
    assert len(bomb) < 200_000
    with pytest.raises(bounded.LimitExceeded, match="inflates"):
        bounded.check_zip(bomb)
    (tmp_path / "a.xlsx").write_bytes(bomb)
    start = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    result = run_check(State(tmp_path), "xlsx.sheet_names", {"path": f"{H}/a.xlsx", "expected": ["Sheet1"]})
    assert not result.passed and "inflates" in result.evidence
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - start < 64 << 10  # KB: nothing was inflated


def test_compressed_stream_bombs_stop_at_the_cap(tmp_path):
    tar = _tar_bz2({"big.bin": b"\0" * (70 << 20)})
    assert len(tar) < 4096
    (tmp_path / "a.tar.bz2").write_bytes(tar)
    result = run_check(State(tmp_path), "fs.archive_contains",
                       {"path": f"{H}/a.tar.bz2", "format": "tar.bz2", "members": ["big.bin"]})
    assert not result.passed and "64 MB" in result.evidence
    with pytest.raises(bounded.LimitExceeded, match="more than 1 MB"):
        bounded.decompress(bz2.compress(b"\0" * (3 << 20)), limit=1 << 20)
    with pytest.raises(OpError, match="64 MB"):
        apply_ops(tmp_path, [{"op": "fs.extract", "path": f"{H}/a.tar.bz2", "dest": f"{H}/out"}])
    assert not (tmp_path / "out" / "big.bin").exists()


def test_fifo_in_place_of_a_file_never_blocks(tmp_path):
    os.mkfifo(tmp_path / "a.xlsx")
    os.mkfifo(tmp_path / "notes.txt")
    state = State(tmp_path)
    for name, args in [("xlsx.sheet_names", {"path": f"{H}/a.xlsx", "expected": ["S"]}),
                       ("xlsx.autofilter", {"path": f"{H}/a.xlsx", "sheet": "S", "ref": "A1:B2"}),
                       ("fs.text_contains", {"path": f"{H}/notes.txt", "text": "x"}),
                       ("fs.same_content", {"path": f"{H}/notes.txt", "sha256": "0" * 64})]:
        assert not run_check(state, name, args).passed
    with pytest.raises(OpError):
        apply_ops(tmp_path, [{"op": "fs.replace_in_file", "path": f"{H}/notes.txt", "old": "a", "new": "b"}])
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    os.mkfifo(pkg / "task.json")
    with pytest.raises(PackageError, match="regular"):
        load_package(pkg)


def test_walks_see_below_path_max_and_refuse_endless_depth(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    fd = _deep(home, 40, "x" * 200)  # ~8000 characters: twice PATH_MAX, still within the depth limit
    try:
        os.mkfifo("fifo", dir_fd=fd)
        os.symlink("/", "root", dir_fd=fd)
        with open(os.open("suid", os.O_WRONLY | os.O_CREAT, 0o4755, dir_fd=fd), "w") as out:
            out.write("#!/bin/sh\n")
        os.chmod("suid", 0o4755, dir_fd=fd)
    finally:
        os.close(fd)
    problems = " | ".join(scan_home(home))
    assert "fifo" in problems or "special file" in problems
    assert "symlink to /" in problems and "setuid" in problems
    deep = tmp_path / "deep"
    deep.mkdir()
    os.close(_deep(deep, 1500))
    assert "nests more than" in " ".join(scan_home(deep))
    assert not run_check(State(deep), "fs.dir_listing", {"path": H, "names": [], "recursive": True}).passed
    bounded.rmtree(deep)  # shutil.rmtree recurses and gives up here
    assert not deep.exists()


def test_copy_tree_copies_bytes_only(tmp_path):
    src = tmp_path / "src"
    (src / "d").mkdir(parents=True)
    (src / "d" / "a.txt").write_text("a")
    (src / "d").chmod(0o500)
    os.mkfifo(src / "fifo")
    os.symlink("/etc/passwd", src / "link")
    notes = bounded.copy_tree(src, tmp_path / "dst", 1 << 20)
    dst = tmp_path / "dst"
    assert (dst / "d" / "a.txt").read_text() == "a" and oct((dst / "d").stat().st_mode)[-3:] == "500"
    assert os.readlink(dst / "link") == "/etc/passwd" and not (dst / "fifo").exists()
    assert notes == ["1 fifo(s) left out"]
    (src / "d").chmod(0o700)
    (src / "big").write_bytes(b"x" * 3000)
    with pytest.raises(bounded.LimitExceeded, match="more than"):
        bounded.copy_tree(src, tmp_path / "dst2", 2000)


# --- the sandbox: infra is infra, hostile is unsafe ------------------------------------------------------

def _script(tmp_path: Path, text: str, limits: Limits | None = None) -> RunResult:
    package = tmp_path / "pkg"
    package.mkdir(exist_ok=True)
    (package / "setup.sh").write_text(text)
    home = tmp_path / "home"
    if home.exists():
        bounded.rmtree(home)
    home.mkdir()
    return Sandbox(limits).run_script(package, "setup.sh", home)


@pytest.mark.slow
def test_full_scratch_disk_is_infra_not_a_failed_setup(tmp_path):
    huge = Limits(disk_mb=shutil.disk_usage(tmp_path).free // (1 << 20) + 1024)
    full = _script(tmp_path, "echo data > /dev/full", huge)  # a real ENOSPC, with less room left than the budget
    assert full.infra and not full.ok and "scratch disk is full" in full.evidence()
    own = _script(tmp_path, "echo data > /dev/full")  # room to spare: the script's own failure
    assert not own.infra and not own.ok


@pytest.mark.slow
def test_a_sandbox_that_cannot_start_is_infra(tmp_path, monkeypatch):
    monkeypatch.setattr(Sandbox, "ulimits", lambda self: "exit 126")
    result = _script(tmp_path, "true")
    assert result.infra and "did not start" in result.evidence()


@pytest.mark.slow
@pytest.mark.skipif(os.geteuid() != 0, reason="per-sandbox user ids need root (bwrap maps one user otherwise)")
def test_process_budget_is_per_sandbox(tmp_path):
    """A script that exhausts its process limit does not starve a sandbox running beside it."""
    small = Limits(processes=48, wall_seconds=20)
    hog: list[RunResult] = []
    other = tmp_path / "other"
    other.mkdir()
    thread = threading.Thread(target=lambda: hog.append(_script(
        tmp_path, "for i in $(seq 120); do sleep 4 & done; wait", small)))
    thread.start()
    time.sleep(1.0)
    calm = _script(other, "for i in $(seq 30); do sleep 1 & done; wait; id -u", small)
    thread.join()
    assert calm.ok, calm.evidence()
    assert "Resource temporarily unavailable" in hog[0].stderr and not hog[0].infra
    assert int(calm.stdout.split()[-1]) >= 1 << 28  # its own user id, not nobody shared by every sandbox


# --- end to end through the CLI -------------------------------------------------------------------------

def _package(tmp_path: Path, name: str = "made") -> Path:
    from tests.gatekit import make_package
    from workflows.os.copy import WORKFLOW

    return make_package(WORKFLOW, {"what": "file_bak"}, tmp_path / name, seed=3)


def _append_setup(pkg: Path, line: str) -> None:
    (pkg / "setup.sh").write_text((pkg / "setup.sh").read_text() + line + "\n")


@pytest.fixture
def scratch_dir(tmp_path, monkeypatch) -> Iterator[Path]:
    """Scratch folders go under the test's tmp dir, so a leaked work folder is seen."""
    folder = tmp_path / "scratch"
    folder.mkdir()
    monkeypatch.setenv("FORGE_SCRATCH", str(folder))
    scratch.scratch_root.cache_clear()
    yield folder
    scratch.scratch_root.cache_clear()


@pytest.mark.slow
def test_solve_never_writes_through_a_link_planted_by_setup(tmp_path, canary):
    pkg = _package(tmp_path)
    dest = json.loads((pkg / "solution" / "oracle.json").read_text())["ops"][0]["dest"]
    _append_setup(pkg, f"ln -s {canary} {dest}")  # inside /home/user: passes the scan, the classic trap
    state = tmp_path / "state"
    result = CliRunner().invoke(app, ["solve", str(pkg), "--state", str(state)])
    assert result.exit_code == 0, result.output
    assert canary.read_text() == "keep me\n"
    copied = state / dest.removeprefix(H + "/")
    assert not copied.is_symlink() and copied.is_file()
    climb = _package(tmp_path, "climb")
    _append_setup(climb, f"ln -s ../../../../../../../../..{canary} {dest}")
    result = CliRunner().invoke(app, ["solve", str(climb), "--state", str(tmp_path / "state2")])
    assert result.exit_code == 1 and "outside /home/user" in result.output and "Traceback" not in result.output
    assert canary.read_text() == "keep me\n"


@pytest.mark.slow
def test_check_on_a_hostile_state_fails_with_evidence(tmp_path, scratch_dir):
    pkg = _package(tmp_path)
    rubric = json.loads((pkg / "task.json").read_text())["rubric"]
    target = rubric[0]["args"]["path"].removeprefix(H + "/")
    state = tmp_path / "agent"
    (state / target).parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(state / target)  # a fifo where the check reads
    os.symlink("loop", state / "loop")
    os.close(_deep(state, 300))  # deeper than any walk goes
    runner = CliRunner()
    result = runner.invoke(app, ["check", str(pkg), "--state", str(state), "--json"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    answer = json.loads(result.output)
    assert not answer["passed"] and all("cannot be read safely" in c["evidence"] for c in answer["checks"])
    assert list(scratch_dir.iterdir()) == []
    bounded.rmtree(state / "d")
    result = runner.invoke(app, ["check", str(pkg), "--state", str(state), "--json"])
    answer = json.loads(result.output)
    first = next(c for c in answer["checks"] if c["id"] == rubric[0]["id"])
    assert not first["passed"] and "fifo" in first["evidence"], first
    assert list(scratch_dir.iterdir()) == []


@pytest.mark.slow
def test_check_on_a_bomb_stays_under_a_gigabyte(tmp_path):
    pkg = _package(tmp_path)
    rubric = json.loads((pkg / "task.json").read_text())["rubric"]
    rubric.append({"id": "sheet", "criterion": "a workbook", "primitive": "xlsx.sheet_names",
                   "args": {"path": f"{H}/bomb.xlsx", "expected": ["S"]}})
    rubric.append({"id": "tar", "criterion": "an archive", "primitive": "fs.archive_contains",
                   "args": {"path": f"{H}/bomb.tar.bz2", "format": "tar.bz2", "members": ["a"]}})
    task = json.loads((pkg / "task.json").read_text())
    task["rubric"] = rubric
    (pkg / "task.json").write_text(json.dumps(task))
    state = tmp_path / "agent"
    state.mkdir()
    (state / "bomb.xlsx").write_bytes(_zip({f"xl/worksheets/sheet{i}.xml": b"<c/>" * (15 << 20) for i in range(4)}))
    (state / "bomb.tar.bz2").write_bytes(_tar_bz2({"a": b"\0" * (60 << 20), "b": b"\0" * (60 << 20),
                                                   "c": b"\0" * (60 << 20), "d": b"\0" * (60 << 20),
                                                   "e": b"\0" * (60 << 20)}))
    proc = subprocess.Popen([sys.executable, "-m", "forge", "check", str(pkg), "--state", str(state), "--json"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    peak = TreeMemory(proc.pid)
    out, err = proc.communicate(timeout=300)
    peak_kb = peak.stop()
    assert proc.returncode == 1, err.decode()
    assert b"Traceback" not in err
    checks = {c["id"]: c for c in json.loads(out)["checks"]}
    assert not checks["sheet"]["passed"] and "limit" in checks["sheet"]["evidence"], checks["sheet"]
    assert not checks["tar"]["passed"] and "MB" in checks["tar"]["evidence"], checks["tar"]
    assert 20_000 < peak_kb < 1 << 20, f"peak RSS {peak_kb} KB"


@pytest.mark.slow
def test_verify_rejects_hostile_trees_as_unsafe_and_never_hangs(tmp_path, scratch_dir):
    valid = _package(tmp_path)
    cases = {
        "fifo-task-json": lambda p: ((p / "task.json").unlink(), os.mkfifo(p / "task.json")),
        "deep-package": lambda p: os.close(_deep(p / "assets", 1500)),
        "long-path-setuid": lambda p: _append_setup(p, "cd ~; for i in $(seq 30); do mkdir " + "y" * 200 + "; cd "
                                                    + "y" * 200 + "; done; cp /bin/true t; chmod u+s t"),
        "long-path-root-link": lambda p: _append_setup(p, "cd ~; for i in $(seq 30); do mkdir " + "z" * 200
                                                       + "; cd " + "z" * 200 + "; done; ln -s / r"),
        "long-path-fifo": lambda p: _append_setup(p, "cd ~; for i in $(seq 30); do mkdir " + "w" * 200 + "; cd "
                                                  + "w" * 200 + "; done; mkfifo f"),
        "deep-home": lambda p: _append_setup(p, "cd ~; for i in $(seq 1500); do mkdir d; cd d; done"),
        "home-link-chain": lambda p: _append_setup(p, "ln -s /home/user ~/b; ln -s b/.. ~/a"),
    }
    folders = []
    for name, attack in cases.items():
        folder = tmp_path / "corpus" / name
        shutil.copytree(valid, folder)
        attack(folder)
        folders.append(folder)
    good = tmp_path / "corpus" / "zz-valid"
    shutil.copytree(valid, good)
    try:
        proc = subprocess.run([sys.executable, "-m", "forge", "verify", "--json", "--timeout", "20",
                               *map(str, folders), str(good)], cwd=ROOT, capture_output=True, text=True, timeout=600,
                              env={**os.environ, "FORGE_SCRATCH": str(scratch_dir)})
    finally:
        bounded.rmtree(tmp_path / "corpus")  # pytest's own cleanup recurses and would choke on the deep chain
    assert "Traceback" not in proc.stderr, proc.stderr
    verdicts = {Path(v["path"]).name: v for v in map(json.loads, proc.stdout.splitlines())}
    assert verdicts.pop("zz-valid")["status"] == "accepted"
    for name, verdict in verdicts.items():
        failed = [s for s in verdict["stages"] if not s["passed"]]
        assert verdict["status"] == "unsafe", (name, failed)
        assert failed[-1]["evidence"] and "\n" not in failed[-1]["evidence"], name
    assert set(verdicts) == set(cases)
    assert list(scratch_dir.iterdir()) == [], list(scratch_dir.iterdir())


@pytest.mark.slow
def test_an_oracle_flooding_the_scratch_disk_is_unsafe(tmp_path):
    from forge.workers import WorkerPool

    sandbox = Sandbox(Limits(disk_mb=64))
    work = tmp_path / "work"
    work.mkdir()
    state = work / "state"
    state.mkdir()
    (state / "a.zip").write_bytes(_zip({"big.bin": os.urandom(1 << 16) * 480}))  # 30 MB, incompressible-ish
    pool = WorkerPool(sandbox, work, 1)
    try:
        pool.prepare(state)
        control = pool.control({"initial": None, "state": str(state), "rubric": [], "ops": [
            {"op": "fs.extract", "path": f"{H}/a.zip", "dest": f"{H}/x{i}"} for i in range(3)]})
    finally:
        pool.close()
    assert control.unsafe and not control.applied and "more than 64 MB" in control.error, control
    assert bounded.tree_bytes(state) < 100 << 20


STARVED_RUN = """
import json, os, sys
from pathlib import Path
from kit.sandbox import Limits, Sandbox
os.sched_setaffinity(0, {0})
home = Path(sys.argv[1]) / "home"
home.mkdir()
print("ready", flush=True)
sys.stdin.readline()
r = Sandbox(Limits(wall_seconds=2)).run_script(Path(sys.argv[1]) / "pkg", "setup.sh", home)
print(json.dumps({"timed_out": r.timed_out, "infra": r.infra}), flush=True)
"""


@pytest.mark.slow
def test_a_timeout_caused_by_load_is_infra_and_a_sleeper_is_not(tmp_path):
    """A script starved of CPU (its core shared with 24 busy sessions) times out as infrastructure; one that sleeps
    through its limit, lowers its own priority to look starved or forks a bomb, is the script's fault. Only core 0
    is hogged, for a few seconds per case."""
    def run(script: str) -> dict:
        folder = tmp_path / str(len(list(tmp_path.iterdir())))
        (folder / "pkg").mkdir(parents=True)
        (folder / "pkg" / "setup.sh").write_text(script)
        driver = subprocess.Popen([sys.executable, "-c", STARVED_RUN, str(folder)], cwd=ROOT, text=True,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert driver.stdout is not None and driver.stdin is not None
        assert driver.stdout.readline().strip() == "ready"
        # Each hog in its own session: the kernel's autogroups share a core between sessions first, so only many
        # sessions (not nice values) leave the sandbox's session a small share.
        hog = "import os; os.sched_setaffinity(0, {0})\nwhile True: pass"
        hogs = [subprocess.Popen([sys.executable, "-c", hog], start_new_session=True) for _ in range(24)]
        try:
            time.sleep(1.0)
            driver.stdin.write("go\n")
            driver.stdin.flush()
            answer = json.loads(driver.stdout.readline())
        finally:
            for proc in hogs:
                proc.kill()
                proc.wait()
            driver.wait(timeout=60)
        return answer

    starved = run("i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done")
    sleeper = run("sleep 30")
    faker = run("renice -n 19 $$ >/dev/null; i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done")
    bomb = run("bomb() { bomb | bomb & }; bomb; sleep 30")
    assert starved["timed_out"] and "too busy" in starved["infra"], starved
    assert sleeper["timed_out"] and sleeper["infra"] == "", sleeper
    assert faker["timed_out"] and faker["infra"] == "", faker
    assert bomb["timed_out"] and bomb["infra"] == "", bomb  # its hundreds of processes are its own load


def _huge_workbook(rows: int) -> bytes:
    """A real xlsx whose sheet holds rows x 22 numbers: ~13 MB on disk, ~63 MB of XML at 95,000 rows, inside
    every archive limit (size, ratio), so only the worker's memory ceiling stands between openpyxl and the host."""
    import random

    import openpyxl

    book = openpyxl.Workbook()
    book.active.title = "S"
    book.active["A1"] = 1
    small = io.BytesIO()
    book.save(small)
    rng = random.Random(2)
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(small.getvalue())) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename == "xl/worksheets/sheet1.xml":
                head, rest = data.split(b"<sheetData>", 1)
                cells = "".join(f'<row r="{r}">' + "".join(f'<c r="{chr(65 + c)}{r}"><v>{rng.randint(0, 10**6)}</v></c>'
                                                           for c in range(22)) + "</row>" for r in range(1, rows))
                data = head + b"<sheetData>" + cells.encode() + b"</sheetData>" + rest.split(b"</sheetData>", 1)[1]
            dst.writestr(info.filename, data)
    return out.getvalue()


@pytest.mark.slow
def test_the_worker_memory_ceiling_stops_openpyxl_on_a_workbook_inside_every_archive_limit(tmp_path):
    from forge.workers import WorkerPool

    work = tmp_path / "work"
    state = work / "state"
    state.mkdir(parents=True)
    (state / "big.xlsx").write_bytes(_huge_workbook(95_000))
    bounded.check_zip((state / "big.xlsx").read_bytes())  # no archive limit refuses it
    pool = WorkerPool(Sandbox(Limits(worker_memory_mb=768)), work, 1)
    try:
        pool.prepare(state)
        peak = TreeMemory(pool._idle[0].group.proc.pid)
        control = pool.control({"initial": None, "state": str(state), "ops": None, "rubric": [
            {"id": "names", "criterion": "x", "primitive": "xlsx.sheet_names",
             "args": {"path": f"{H}/big.xlsx", "expected": ["S"]}}]})
        peak_kb = peak.stop()
    finally:
        pool.close()
    assert not control.infra, control
    outcome = control.outcomes[0]
    assert not outcome["passed"] and "MemoryError" in outcome["evidence"], outcome
    assert control.unsafe  # in the gate, a package whose state needs more than the ceiling is unsafe
    assert peak_kb < 900 << 10, f"peak RSS {peak_kb} KB"
