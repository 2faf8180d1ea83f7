"""`forge solve` refusing a package leaves nothing behind in --state: what setup.sh made there (a link to /, a
fifo, a setuid copy of bash, megabytes of data) is removed without following a link; a folder it had to create
goes, an empty one given to it stays empty."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from forge.cli import app
from tests.gatekit import make_package
from workflows.os.copy import WORKFLOW

H = "/home/user"


def _hostile(tmp_path: Path) -> tuple[Path, Path]:
    """A package whose setup.sh fills the home with traps, then plants a link that climbs out (refused)."""
    pkg = make_package(WORKFLOW, {"what": "file_bak"}, tmp_path / "pkg", seed=3)
    dest = json.loads((pkg / "solution" / "oracle.json").read_text())["ops"][0]["dest"]
    outside = tmp_path / "outside.txt"
    outside.write_text("keep me\n")
    traps = ["ln -s / root", "mkfifo pipe", "cp /bin/bash bash && chmod u+s bash",
             "head -c 20000000 /dev/zero > big", f"ln -s ../../../../../../../../..{outside} {dest}"]
    (pkg / "setup.sh").write_text((pkg / "setup.sh").read_text() + "\n".join(traps) + "\n")
    return pkg, outside


@pytest.mark.slow
@pytest.mark.parametrize("given", ["new", "empty"])
def test_a_refused_solve_removes_what_it_made(tmp_path, given):
    pkg, outside = _hostile(tmp_path)
    state = tmp_path / "user" / "states" / "s1"
    if given == "empty":
        state.mkdir(parents=True)
    result = CliRunner().invoke(app, ["solve", str(pkg), "--state", str(state)])
    assert result.exit_code == 1 and result.output.count("\n") == 1, result.output
    assert "outside /home/user" in result.output and "Traceback" not in result.output
    if given == "new":
        assert not (tmp_path / "user").exists(), "the folders it created are gone"
    else:
        assert state.is_dir() and list(state.iterdir()) == [], "the empty folder is empty again"
    assert outside.read_text() == "keep me\n" and os.path.isdir("/bin")


def test_a_state_that_is_not_empty_is_refused_and_kept(tmp_path):
    pkg = make_package(WORKFLOW, {"what": "file_bak"}, tmp_path / "pkg", seed=3)
    state = tmp_path / "state"
    state.mkdir()
    (state / "mine.txt").write_text("the user's\n")
    result = CliRunner().invoke(app, ["solve", str(pkg), "--state", str(state)])
    assert result.exit_code == 1 and "not empty" in result.output
    assert (state / "mine.txt").read_text() == "the user's\n"
