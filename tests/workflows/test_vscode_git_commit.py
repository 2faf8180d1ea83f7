"""vscode.git_commit: the family through the gate with every mutant, and the check on repositories changed by real
git commands (amend, a second commit, a push of another branch, packed refs in origin)."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from preparers.git import blob_id, repository
from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from workflows.vscode.git_commit import WORKFLOW

GIT = shutil.which("git")
needs_git = pytest.mark.skipif(GIT is None, reason="git is not installed")
FIRST = {"README.md": b"# app\n"}
LAST = {**FIRST, "src/main.py": b"print('hi')\n"}
ORIGIN = "/home/user/remotes/app.git"


@pytest.mark.slow
@pytest.mark.parametrize("push", ["push", "local"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, push):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"push": push}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        assert task["rubric"][0]["args"]["pushed"] == (push == "push")


def _repo(tmp_path):
    git, commits = repository([(FIRST, "Initial commit", 1_700_000_000), (LAST, "Add main", 1_700_100_000)],
                              "Ann Lee", "ann.lee@example.com", {"main": 1, "develop": 0}, "main", origin=ORIGIN)
    work, bare = tmp_path / "app", tmp_path / "remotes" / "app.git"
    files = {**{f"app/.git/{r}": d for r, d in git.items()}, **{f"app/{r}": d for r, d in LAST.items()},
             **{f"remotes/app.git/{r}": d for r, d in git.items() if r.startswith("objects/")},
             "remotes/app.git/refs/heads/main": git["refs/heads/main"],
             "remotes/app.git/HEAD": b"ref: refs/heads/main\n", "remotes/app.git/config": b"[core]\n\tbare = true\n"}
    for rel, data in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_bytes(data)
    (work / "README.md").write_bytes(b"# app\n\nMore.\n")
    (work / "docs").mkdir()
    (work / "docs" / "setup.md").write_bytes(b"# Setup\n")
    want = {**LAST, "README.md": b"# app\n\nMore.\n", "docs/setup.md": b"# Setup\n"}
    args = {"repo": "/home/user/app", "branch": "main", "parent": commits[1], "message": "Add setup notes (#12)",
            "files": {r: blob_id(d) for r, d in want.items()}, "kept": {"refs/heads/develop": commits[0]},
            "origin": ORIGIN, "pushed": True}
    return work, bare, args


def _git(work, *args: str) -> None:
    subprocess.run([GIT or "git", "-c", f"url.{work.parent}/remotes/.insteadOf=/home/user/remotes/", *args],
                   cwd=work, check=True, capture_output=True, text=True)


def _passes(tmp_path, args) -> bool:
    return run_check(State(tmp_path), "git.committed", args).passed


@needs_git
def test_the_check_on_repositories_changed_by_git(tmp_path):
    work, bare, args = _repo(tmp_path)
    assert not _passes(tmp_path, args)
    _git(work, "add", "-A")
    _git(work, "commit", "-q", "-m", "Add setup notes (#12)")
    assert not _passes(tmp_path, args)  # committed, not pushed
    assert _passes(tmp_path, {**args, "pushed": False})
    _git(work, "push", "-q", "origin", "main")
    assert _passes(tmp_path, args)
    _git(bare, "pack-refs", "--all")  # origin's refs packed: still pushed
    assert _passes(tmp_path, args)
    _git(work, "commit", "-q", "--amend", "-m", "Add setup notes")  # message changed after the push
    assert not _passes(tmp_path, args)


@needs_git
def test_the_check_refuses_two_commits_and_a_new_branch(tmp_path):
    work, _, args = _repo(tmp_path)
    _git(work, "add", "README.md")
    _git(work, "commit", "-q", "-m", "Add setup notes (#12)")
    _git(work, "add", "-A")
    _git(work, "commit", "-q", "-m", "Add setup notes (#12)")  # the right files, in two commits
    assert not _passes(tmp_path, {**args, "pushed": False})
    shutil.rmtree(work)
    work, _, args = _repo(tmp_path)
    _git(work, "checkout", "-q", "-b", "docs")  # committed on a branch of its own
    _git(work, "add", "-A")
    _git(work, "commit", "-q", "-m", "Add setup notes (#12)")
    assert not _passes(tmp_path, {**args, "pushed": False})


@needs_git
def test_a_repository_packed_by_git_gc(tmp_path):
    """Review session 23: after `git gc` the objects are in a pack (deltas included), not loose: the right commit
    still passes and an amended message still fails."""
    work, _, args = _repo(tmp_path)
    _git(work, "add", "-A")
    _git(work, "commit", "-q", "-m", "Add setup notes (#12)")
    _git(work, "gc", "-q", "--aggressive")
    assert not list((work / ".git" / "objects").glob("??/*"))  # nothing loose left
    assert _passes(tmp_path, {**args, "pushed": False})
    _git(work, "commit", "-q", "--amend", "-m", "Add setup notes")
    _git(work, "gc", "-q", "--prune=now")
    assert not _passes(tmp_path, {**args, "pushed": False})
