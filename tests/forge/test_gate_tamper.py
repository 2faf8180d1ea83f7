"""Tampered packages must get the right gate class (the reviewer's list, and more)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from forge.solve import LocalEnv
from kit.sandbox import Sandbox
from preparers.office_zip import normalize
from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package
from verifiers.gate.stages import Gate
from workflows.calc.sort_rows import WORKFLOW

PARAMS = {"key_kind": "numeric", "order": "desc"}


@pytest.fixture
def package(tmp_path: Path) -> Path:
    return make_package(WORKFLOW, PARAMS, tmp_path / "out", seed=7)


def edit_task(folder: Path, change: Callable[[dict], None]) -> None:
    task = json.loads((folder / "task.json").read_text())
    change(task)
    (folder / "task.json").write_text(json.dumps(task, indent=2))


def test_untouched_package_is_accepted(package):
    verdict = gate_package(package)
    assert verdict.status == "accepted", verdict.stages
    assert [s.name for s in verdict.stages] == ["safety", "schema", "grounding", "content", "setup", "noop", "oracle",
                                                "near-miss:near-miss-1", "near-miss:near-miss-2", "mutation", "teacher",
                                                "dedup"]


def test_empty_rubric_is_schema_fail(package):
    edit_task(package, lambda t: t.update(rubric=[]))
    verdict = gate_package(package)
    assert verdict.status == "schema_fail"
    assert "rubric" in verdict.evidence


def test_malformed_task_json_is_schema_fail(package):
    (package / "task.json").write_text("{not json")
    verdict = gate_package(package)
    assert verdict.status == "schema_fail"
    assert "task.json" in verdict.evidence


def test_unknown_primitive_is_schema_fail_with_suggestion(package):
    edit_task(package, lambda t: t["rubric"][0].update(primitive="xlsx.range_sortd"))
    verdict = gate_package(package)
    assert verdict.status == "schema_fail"
    assert "xlsx.range_sorted" in verdict.evidence


def test_oracle_that_does_nothing_is_unsolvable(package):
    (package / "solution" / "oracle.json").write_text(json.dumps({"name": "oracle", "description": "", "ops": []}))
    verdict = gate_package(package)
    assert verdict.status == "unsolvable"
    assert "fails on solution/oracle.json" in verdict.evidence


def test_failing_setup_script_is_setup_fail(package):
    (package / "setup.sh").write_text("#!/bin/bash\necho broken >&2\nexit 3\n")
    verdict = gate_package(package)
    assert verdict.status == "setup_fail"
    assert "exit 3" in verdict.evidence and "broken" in verdict.evidence


def test_setup_that_leaves_extra_files_is_setup_fail(package):
    with (package / "setup.sh").open("a") as fh:
        fh.write("echo surprise > /home/user/extra.txt\n")
    verdict = gate_package(package)
    assert verdict.status == "setup_fail"
    assert "extra.txt" in verdict.evidence


def test_instruction_missing_the_target_value_is_grounding_fail(package):
    header = json.loads((package / "task.json").read_text())["rubric"][0]["args"]["header"]
    edit_task(package, lambda t: t.update(instruction=t["instruction"].replace(header, "the right column")))
    verdict = gate_package(package)
    assert verdict.status == "grounding_fail"
    assert header in verdict.evidence


def test_instruction_missing_the_path_is_grounding_fail(package):
    path = json.loads((package / "task.json").read_text())["rubric"][0]["args"]["path"]
    edit_task(package, lambda t: t.update(instruction=t["instruction"].replace(path, "the workbook")))
    assert gate_package(package).status == "grounding_fail"


def test_rubric_already_satisfied_by_the_initial_file_is_trivial(package, tmp_path):
    task = json.loads((package / "task.json").read_text())
    asset = task["setup"]["assets"][0]
    # Make the shipped asset already solved: apply the oracle to a copy of the initial state.
    home = tmp_path / "home"
    target = home / asset["dest"].removeprefix("/home/user/")
    target.parent.mkdir(parents=True)
    shutil.copy(package / asset["file"], target)
    apply_ops(home, json.loads((package / "solution" / "oracle.json").read_text())["ops"])
    target.write_bytes(normalize(target.read_bytes()))  # a person's docProps, as the preparers write (content stage)
    shutil.copy(target, package / asset["file"])
    sha = hashlib.sha256(target.read_bytes()).hexdigest()
    edit_task(package, lambda t: t["setup"]["assets"][0].update(sha256=sha))
    verdict = gate_package(package)
    assert verdict.status == "trivial"


def test_near_miss_that_is_really_correct_is_lax(package):
    shutil.copy(package / "solution" / "oracle.json", package / "solution" / "near-miss-1.json")
    verdict = gate_package(package)
    assert verdict.status == "lax"


def test_asset_hash_mismatch_is_schema_fail(package):
    asset = next((package / "assets").iterdir())
    asset.write_bytes(asset.read_bytes() + b"x")
    assert gate_package(package).status == "schema_fail"


def test_symlinked_asset_is_refused(package):
    asset = next((package / "assets").iterdir())
    asset.unlink()
    os.symlink("/etc/passwd", asset)
    verdict = gate_package(package)
    assert verdict.status == "unsafe"
    assert "symlink" in verdict.evidence and "/etc/passwd" in verdict.evidence


def test_same_task_under_another_id_is_duplicate(package, tmp_path):
    gate = Gate(LocalEnv(Sandbox()))
    assert gate.verify(package).status == "accepted"
    copy = tmp_path / "copy"
    shutil.copytree(package, copy)
    edit_task(copy, lambda t: t.update(id="test.skill--s7--00099"))
    verdict = gate.verify(copy)
    assert verdict.status == "duplicate"
    assert package.name in verdict.evidence


def test_leak_detection_respects_number_boundaries():
    from verifiers.grounding import leaks

    assert leaks("the total is 1,234.50 dollars", 1234.5)
    assert not leaks("rows A2:E15", 15.5)
    assert not leaks("column 150", 15)
    assert not leaks("put it in cell A2", 2)
    assert leaks("there are 2 regions", 2)
