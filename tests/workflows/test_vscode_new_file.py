"""vscode.new_file: the family through the gate with every mutant, its check on hand-made files."""

from __future__ import annotations

import json

import pytest

from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from workflows.common import Fact
from workflows.vscode.new_file import NATURAL, PHRASINGS, WHAT, WORKFLOW

PATH = "/home/user/app/.github/CODEOWNERS"
RULES = ["* @acme/backend", "/docs/ @acme/docs", "/README.md @gkim"]


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["gitignore", "env_example", "codeowners"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, kind):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"kind": kind}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        created = task["rubric"][0]
        assert created["primitive"] == "text.file_entries" and created["args"]["ordered"] == (kind == "codeowners")


def _check(tmp_path, text: str | bytes | None, ordered: bool = True) -> bool:
    host = tmp_path / "app" / ".github" / "CODEOWNERS"
    host.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        host.write_bytes(text)
    elif text is not None:
        host.write_text(text)
    elif host.exists():
        host.unlink()
    args = {"path": PATH, "entries": RULES, "ordered": ordered}
    return run_check(State(tmp_path), "text.file_entries", args).passed


def test_the_check_on_hand_made_files(tmp_path):
    assert _check(tmp_path, "\n".join(RULES) + "\n")
    # a comment header and blank lines, as people write CODEOWNERS: fine
    assert _check(tmp_path, "# Owners of this repository\n\n" + "\n\n".join(RULES))
    # Windows line endings and indentation: the same entries
    assert _check(tmp_path, "\r\n".join(f"  {r}" for r in RULES) + "\r\n")
    # the rules in another order: wrong for CODEOWNERS, fine where order is free
    swapped = "\n".join(RULES[1:] + RULES[:1])
    assert not _check(tmp_path, swapped) and _check(tmp_path, swapped, ordered=False)
    # one rule commented out, or an extra owner on a rule
    assert not _check(tmp_path, "\n".join(["# " + RULES[0], *RULES[1:]]))
    assert not _check(tmp_path, "\n".join([RULES[0] + " @acme/web", *RULES[1:]]))
    # the file missing, or not text
    assert not _check(tmp_path, None)
    assert not _check(tmp_path, b"\xff\xfe\x00\x01")


@pytest.mark.parametrize("kind", ["gitignore", "env_example", "codeowners"])
def test_every_phrasing_states_the_path_and_every_line(kind):
    what = WHAT[kind].format(lines=", ".join(f"`{r}`" for r in RULES))
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.format(path=Fact(PATH), folder="/home/user/app", project="app", what=what)
        assert PATH in text or "CODEOWNERS" in text
        assert all(f"`{r}`" in text for r in RULES)
        assert ("in this order" in text) == (kind == "codeowners")
