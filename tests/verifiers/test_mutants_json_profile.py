"""The JSON profile mutators (Chrome, VS Code), and the issue's Chrome regression: a second bookmark with the
asked name pointing elsewhere fails."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.verifiers.mutkit import judge, rubric_passes, states
from verifiers.mutants import json_profile
from workflows.chrome import add_bookmark as chrome_add_bookmark
from workflows.chrome import edit_bookmark as chrome_edit_bookmark
from workflows.chrome import homepage as chrome_homepage
from workflows.chrome import search_engine as chrome_search_engine
from workflows.chrome import startup_pages as chrome_startup_pages
from workflows.vscode import editor_setting as vscode_editor_setting
from workflows.vscode import files_exclude as vscode_files_exclude
from workflows.vscode import keybinding as vscode_keybinding
from workflows.vscode import workspace_settings as vscode_workspace_settings


@pytest.mark.parametrize(("workflow", "params"), [
    (chrome_add_bookmark.WORKFLOW, {"location": "bar_folder", "count": 1}),
    (chrome_edit_bookmark.WORKFLOW, {"action": "rename_folder", "location": "bar"}),
    (chrome_homepage.WORKFLOW, {"target": "url_replace", "button": "unchanged"}),
    (vscode_keybinding.WORKFLOW, {"action": "add_when", "chord": "chord"}),
    (vscode_editor_setting.WORKFLOW, {k: v[0] for k, v in vscode_editor_setting.WORKFLOW.knobs.items()}),
    (vscode_workspace_settings.WORKFLOW, {"container": "code_workspace", "initial": "existing", "count": 1}),
    (vscode_workspace_settings.WORKFLOW, {"container": "folder", "initial": "none", "count": 1}),
    (vscode_files_exclude.WORKFLOW, {"kind": "files_exclude", "scope": "user"}),
    (vscode_files_exclude.WORKFLOW, {"kind": "associations", "scope": "workspace"}),
    (vscode_keybinding.WORKFLOW, {"action": "disable", "chord": "single"}),
    (chrome_search_engine.WORKFLOW, {k: v[0] for k, v in chrome_search_engine.WORKFLOW.knobs.items()}),
    (chrome_startup_pages.WORKFLOW, {k: v[0] for k, v in chrome_startup_pages.WORKFLOW.knobs.items()}),
])
def test_the_rubric_rejects_every_damaging_mutant_and_accepts_every_neutral_one(tmp_path, workflow, params):
    ctx = states(workflow, params, tmp_path)
    judged = judge(ctx, json_profile.mutants, tmp_path)
    assert any(j.mutant.kind == "damaging" for j in judged) and any(j.mutant.kind == "neutral" for j in judged)
    wrong = [f"{j.mutant.kind} {j.mutant.name}: {j.evidence or 'passed'}" for j in judged if j.wrong]
    assert not wrong, wrong


def test_a_second_bookmark_with_the_asked_name_pointing_elsewhere_fails(tmp_path):
    """The issue's example, built by hand rather than by the mutator."""
    ctx = states(chrome_add_bookmark.WORKFLOW, {"location": "bar", "count": 1}, tmp_path)
    check = next(c for c in ctx.task["rubric"] if c["primitive"] == "chrome.bookmark_exists")
    state = tmp_path / "state"
    shutil.copytree(ctx.oracle, state)
    path = state / ".config/google-chrome/Default/Bookmarks"
    tree = json.loads(path.read_text())
    bar = tree["roots"]["bookmark_bar"]["children"]
    bar.append({"id": "999", "name": check["args"]["name"], "type": "url", "url": "https://phishing.example/"})
    path.write_text(json.dumps(tree))
    passed, evidence = rubric_passes(ctx.task, state)
    assert not passed
    assert f"2 bookmarks called {check['args']['name']!r}" in evidence


def test_new_ids_and_timestamps_and_another_layout_pass(tmp_path):
    ctx = states(chrome_add_bookmark.WORKFLOW, {"location": "other_folder", "count": 2}, tmp_path)
    neutral = [j for j in judge(ctx, json_profile.mutants, tmp_path) if j.mutant.kind == "neutral"]
    assert [j.mutant.name.split(":")[0] for j in neutral] == ["json.new_ids_and_times"]
    assert all(j.passed for j in neutral)
