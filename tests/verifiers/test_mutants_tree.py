"""The file-tree mutators, and the issue's `os.cleanup` regression: an emptied or overwritten kept file fails."""

from __future__ import annotations

import shutil

import pytest

from tests.verifiers.mutkit import judge, rubric_passes, states
from verifiers.mutants import tree as tree_mutants
from workflows.os import cleanup as os_cleanup
from workflows.os import copy as os_copy
from workflows.os import organize as os_organize
from workflows.os import permissions as os_permissions


@pytest.mark.parametrize(("workflow", "params"), [
    (os_cleanup.WORKFLOW, {"criterion": "ext", "depth": "recursive"}),
    (os_organize.WORKFLOW, {"mapping": "two_exts", "dest": "new", "case": "exact"}),
    (os_permissions.WORKFLOW, {"target": "private_600", "scope": "one"}),
    (os_copy.WORKFLOW, {"what": "file_to_folder"}),
])
def test_the_rubric_rejects_every_damaging_mutant_and_accepts_every_neutral_one(tmp_path, workflow, params):
    ctx = states(workflow, params, tmp_path)
    judged = judge(ctx, tree_mutants.mutants, tmp_path)
    assert any(j.mutant.kind == "damaging" for j in judged)
    assert [j.mutant.name for j in judged if j.mutant.kind == "neutral"] == ["tree.mtimes_changed"]
    wrong = [f"{j.mutant.kind} {j.mutant.name}: {j.evidence or 'passed'}" for j in judged if j.wrong]
    assert not wrong, wrong


@pytest.mark.parametrize("damage", ["emptied", "overwritten"])
def test_cleanup_fails_when_a_kept_file_is_emptied_or_overwritten(tmp_path, damage):
    """The issue's example: kept files were checked by name only."""
    ctx = states(os_cleanup.WORKFLOW, {"criterion": "backup", "depth": "flat"}, tmp_path)
    state = tmp_path / "state"
    shutil.copytree(ctx.oracle, state)
    root = ctx.task["rubric"][0]["args"]["path"].removeprefix("/home/user/")
    kept = sorted(p for p in (state / root).rglob("*") if p.is_file() and p.stat().st_size > 0)[0]
    kept.write_bytes(b"" if damage == "emptied" else b"something else entirely\n")
    passed, evidence = rubric_passes(ctx.task, state)
    assert not passed
    assert "are not the original files" in evidence


def test_a_symlink_where_a_copy_was_asked_is_offered_and_rejected(tmp_path):
    ctx = states(os_copy.WORKFLOW, {"what": "file_bak"}, tmp_path)
    links = [j for j in judge(ctx, tree_mutants.mutants, tmp_path) if j.mutant.name.startswith("tree.symlink")]
    assert links and not any(j.passed for j in links)
