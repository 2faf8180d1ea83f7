"""os.user_dirs: the family through the gate with every mutant, and user-dirs.dirs read as the desktop reads it."""

from __future__ import annotations

import json

import pytest

from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from verifiers.checks.os_xdg import parse_user_dirs
from workflows.os.user_dirs import WORKFLOW

PATH = "/home/user/.config/user-dirs.dirs"


@pytest.mark.slow
@pytest.mark.parametrize("move", ["repoint", "create", "move_files"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, move):
    folder = make_package(WORKFLOW, {"move": move}, tmp_path, seed=2)
    verdict = gate_package(folder, mutants=None)
    assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
        (s.name, s.evidence) for s in verdict.stages if not s.passed]
    task = json.loads((folder / "task.json").read_text())
    assert [c["primitive"] for c in task["rubric"]][:2] == ["xdg.user_dir", "xdg.user_dirs_kept"]


def test_only_home_relative_and_absolute_paths_count():
    dirs = parse_user_dirs('# comment\nXDG_MUSIC_DIR="$HOME/media/music"\nXDG_VIDEOS_DIR="/home/user/clips/"\n'
                           'XDG_PICTURES_DIR="~/Photos"\nXDG_DOWNLOAD_DIR=Incoming\nXDG_DOCUMENTS_DIR="$HOME"\n'
                           'XDG_MUSIC_DIR="$HOME/audio"\n')
    assert dirs == {"XDG_MUSIC_DIR": "/home/user/audio", "XDG_VIDEOS_DIR": "/home/user/clips",
                    "XDG_PICTURES_DIR": "", "XDG_DOWNLOAD_DIR": "", "XDG_DOCUMENTS_DIR": "/home/user"}


def test_the_check_accepts_either_form_and_names_a_wrong_one(tmp_path):
    (tmp_path / ".config").mkdir()
    args = {"path": PATH, "key": "XDG_PICTURES_DIR", "folder": "/home/user/Dropbox/Photos"}
    for line, passes in (('"$HOME/Dropbox/Photos"', True), ('"/home/user/Dropbox/Photos"', True),
                         ('"~/Dropbox/Photos"', False), ('"$HOME/Pictures"', False)):
        (tmp_path / ".config/user-dirs.dirs").write_text(f"XDG_PICTURES_DIR={line}\n")
        assert run_check(State(tmp_path), "xdg.user_dir", args).passed is passes, line
