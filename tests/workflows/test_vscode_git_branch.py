"""vscode.git_branch: the family through the gate with every mutant, the repository writer and the check on
repositories changed by real git commands (packed refs, a deleted branch, a detached HEAD, a stray tag)."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from preparers.git import repository
from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from workflows.vscode.git_branch import WORKFLOW

GIT = shutil.which("git")
needs_git = pytest.mark.skipif(GIT is None, reason="git is not installed")
FIRST = {"README.md": b"# app\n", ".gitignore": b"dist/\n"}
LAST = {**FIRST, "src/app/main.py": b"print('hi')\n"}


@pytest.mark.slow
@pytest.mark.parametrize("switch", ["checkout", "create"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, switch):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"switch": switch}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        assert task["rubric"][0]["args"]["checked_out"] == (switch == "checkout")


def _repo(tmp_path):
    git, commits = repository([(FIRST, "Initial commit", 1_700_000_000), (LAST, "Add main", 1_700_100_000)],
                              "Ann Lee", "ann.lee@example.com", {"main": 1, "develop": 0}, "main")
    work = tmp_path / "app"
    for rel, data in {**{f".git/{r}": d for r, d in git.items()}, **LAST}.items():
        (work / rel).parent.mkdir(parents=True, exist_ok=True)
        (work / rel).write_bytes(data)
    args = {"repo": "/home/user/app", "name": "feature/main-retry", "commit": commits[1], "checked_out": True,
            "head": "main", "kept": {"refs/heads/main": commits[1], "refs/heads/develop": commits[0]}}
    return work, args


def _git(work, *args: str) -> str:
    return subprocess.run([GIT or "git", *args], cwd=work, check=True, capture_output=True, text=True).stdout


def _passes(tmp_path, args) -> bool:
    return run_check(State(tmp_path), "git.branch_created", args).passed


@needs_git
def test_the_repository_is_clean_and_consistent(tmp_path):
    work, _ = _repo(tmp_path)
    assert _git(work, "status", "--porcelain") == ""
    assert _git(work, "fsck", "--strict") == ""
    assert _git(work, "log", "--format=%s", "develop") == "Initial commit\n"


@needs_git
def test_the_check_on_repositories_changed_by_git(tmp_path):
    work, args = _repo(tmp_path)
    assert not _passes(tmp_path, args)
    _git(work, "checkout", "-b", "feature/main-retry")
    assert _passes(tmp_path, args)
    _git(work, "pack-refs", "--all")  # refs packed, as after git gc: still the same branches
    assert _passes(tmp_path, args)
    assert not _passes(tmp_path, {**args, "checked_out": False})
    _git(work, "tag", "v0.1")  # a tag nobody asked for
    assert not _passes(tmp_path, args)
    _git(work, "tag", "-d", "v0.1")
    _git(work, "branch", "-D", "develop")  # the other branch deleted
    assert not _passes(tmp_path, args)


@needs_git
def test_the_check_refuses_a_detached_head_and_a_missing_repository(tmp_path):
    work, args = _repo(tmp_path)
    _git(work, "branch", "feature/main-retry")
    _git(work, "checkout", "--detach", "feature/main-retry")
    assert not _passes(tmp_path, args)
    shutil.rmtree(work / ".git")
    assert not _passes(tmp_path, args)
