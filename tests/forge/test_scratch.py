"""Scratch folders: the user's choice first, then a roomy RAM disk, then the system temp folder."""

from pathlib import Path

import pytest

from forge.workers import gate_runner
from kit import scratch
from kit.sandbox import Sandbox


@pytest.fixture
def fresh(monkeypatch):
    monkeypatch.delenv("FORGE_SCRATCH", raising=False)
    monkeypatch.delenv("TMPDIR", raising=False)
    scratch.scratch_root.cache_clear()
    yield monkeypatch
    scratch.scratch_root.cache_clear()


def test_forge_scratch_then_tmpdir_win(fresh, tmp_path):
    fresh.setenv("TMPDIR", str(tmp_path / "t"))
    fresh.setenv("FORGE_SCRATCH", str(tmp_path / "s"))
    assert scratch.scratch_root() == str(tmp_path / "s")
    scratch.scratch_root.cache_clear()
    fresh.delenv("FORGE_SCRATCH")
    assert scratch.scratch_root() == str(tmp_path / "t")


def test_a_ram_disk_only_when_it_is_a_roomy_tmpfs(fresh, tmp_path):
    assert not scratch._roomy_tmpfs(tmp_path)  # a folder, not a tmpfs mount
    fresh.setattr(scratch, "MIN_FREE", 1 << 60)
    assert not scratch._roomy_tmpfs(scratch.RAM_DISK)
    assert scratch.scratch_root() != str(scratch.RAM_DISK)


def test_the_gate_works_in_scratch_and_leaves_nothing(fresh, tmp_path):
    fresh.setenv("FORGE_SCRATCH", str(tmp_path))
    with gate_runner(Sandbox(), 1) as (_, workdir):
        assert workdir.parent == tmp_path
    assert list(Path(tmp_path).iterdir()) == []
