"""Warm setup sandboxes (forge/warm.py): one bubblewrap start for many setup scripts, each run as clean as a run of
its own. Real bubblewrap, real generated packages, hostile scripts; compared with `Sandbox.run_script`."""

from __future__ import annotations

import hashlib
import os
import stat
import time
from pathlib import Path

import pytest

from forge.catalog import Catalog
from forge.generate import Generator, Selection, plan_for
from forge.warm import WarmSetups
from kit.sandbox import Sandbox
from kit.taxonomy import load_taxonomy

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="warm setup sandboxes run as root only")


def _tree(root: Path) -> dict[str, tuple[str, int]]:
    return {str(p.relative_to(root)): (hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "dir",
                                       stat.S_IMODE(p.lstat().st_mode)) for p in sorted(root.rglob("*"))}


def _package(out: Path, name: str, script: str) -> Path:
    folder = out / "test" / name
    (folder / "assets").mkdir(parents=True)
    (folder / "assets" / "a.txt").write_text("asset\n")
    (folder / "setup.sh").write_text("#!/usr/bin/env bash\nset -euo pipefail\n" + script + "\n")
    return folder


def _run(runner, package: Path, tmp: Path, name: str):
    home = tmp / name
    home.mkdir()
    return runner.run_script(package, "setup.sh", home), home


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """Real packages of every app with file-heavy setups (workbooks, mail profiles, file trees, pictures)."""
    tmp = tmp_path_factory.mktemp("warm")
    taxonomy = load_taxonomy()
    ids = plan_for(taxonomy, Selection(apps=("libreoffice_calc", "thunderbird", "os", "gimp", "chrome")), 10, 3)
    generator = Generator(tmp / "out", Catalog(f"sqlite:///{tmp}/c.db"), sandbox=Sandbox(), taxonomy=taxonomy)
    generator.run(ids)
    packages = sorted(p.parent for p in (tmp / "out").rglob("setup.sh"))
    assert len(packages) >= 8
    return tmp / "out", packages


def test_generated_setups_run_warm_into_the_same_homes_as_their_own_sandboxes(generated, tmp_path):
    out, packages = generated
    warm = WarmSetups(Sandbox(), out, tmp_path, size=1)
    try:
        for i, package in enumerate(packages):
            hot, home = _run(warm, package, tmp_path, f"warm-{i}")
            cold, cold_home = _run(Sandbox(), package, tmp_path, f"cold-{i}")
            assert hot.ok and cold.ok, (hot.evidence(), cold.evidence())
            assert _tree(home) == _tree(cold_home) and _tree(home), package.name
            assert home.stat().st_uid != 0  # the run's own user id owns the home, as in its own sandbox
        assert warm.started == 1  # one sandbox served every clean run
    finally:
        warm.close()


HOSTILE = {
    "fails": "exit 3",
    "prints": "echo hello",
    "leaves a process": "sleep 30 &",
    "leaves a file in /tmp": "touch /tmp/mark",
    "escaping link": "ln -s /etc/passwd /home/user/link",
    "writes beside the home": "touch /home/evil",
    "writes into the package": "touch /forge/pkg/evil",
    "setuid file": "cp /bin/true /home/user/t; chmod u+s /home/user/t",
    "floods the disk": "head -c 600M /dev/zero > /home/user/big",
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_run_that_is_not_clean_is_judged_by_its_own_sandbox_and_the_warm_one_is_replaced(name, tmp_path):
    out = tmp_path / "out"
    package = _package(out, "hostile", HOSTILE[name])
    clean = _package(out, "clean", 'mkdir -p /home/user/d; cp "$FORGE_ASSETS/a.txt" /home/user/d/a.txt')
    warm = WarmSetups(Sandbox(), out, tmp_path, size=1)
    try:
        assert _run(warm, clean, tmp_path, "first")[0].ok
        hot, home = _run(warm, package, tmp_path, "hostile")
        cold, cold_home = _run(Sandbox(), package, tmp_path, "cold")
        assert (hot.returncode, hot.ok, hot.unsafe, hot.timed_out) == (cold.returncode, cold.ok, cold.unsafe,
                                                                       cold.timed_out)
        assert hot.violations == cold.violations and hot.stdout == cold.stdout
        assert not (out / "test" / "hostile" / "evil").exists() and not (tmp_path / "evil").exists()
        after, after_home = _run(warm, clean, tmp_path, "after")
        assert after.ok and _tree(after_home) == {"d": ("dir", 0o755), "d/a.txt": (
            hashlib.sha256(b"asset\n").hexdigest(), 0o644)}
        assert warm.started == 2  # the sandbox the hostile script ran in was not used again
    finally:
        warm.close()


def test_nothing_of_one_run_reaches_the_next(tmp_path):
    """A leftover process that writes later, a file in /tmp: the next script sees neither."""
    out = tmp_path / "out"
    first = _package(out, "first", "touch /tmp/mark; (sleep 0.5; touch /home/user/late) &")
    second = _package(out, "second", "sleep 1; [ ! -e /tmp/mark ] || exit 9; mkdir -p /home/user/ok")
    warm = WarmSetups(Sandbox(), out, tmp_path, size=1)
    try:
        _run(warm, first, tmp_path, "one")
        result, home = _run(warm, second, tmp_path, "two")
        time.sleep(0.5)
        assert result.ok, result.evidence()
        assert sorted(p.name for p in home.iterdir()) == ["ok"]
    finally:
        warm.close()


def test_a_package_outside_the_packages_folder_runs_in_its_own_sandbox(tmp_path):
    package = _package(tmp_path / "elsewhere", "p", "mkdir -p /home/user/x")
    warm = WarmSetups(Sandbox(), tmp_path / "out", tmp_path, size=1)
    try:
        result, home = _run(warm, package, tmp_path, "h")
        assert result.ok and (home / "x").is_dir() and warm.started == 0
    finally:
        warm.close()
