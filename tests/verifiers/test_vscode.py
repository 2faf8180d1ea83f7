"""The VS Code preparer and the vscode.* primitives, on files shaped the way VS Code (and its users) write them."""

from __future__ import annotations

import json
from pathlib import Path

from preparers import vscode
from preparers.ops import apply_ops
from preparers.ops.json_doc import loads_jsonc
from verifiers.checks import State, run_check
from verifiers.checks.vscode import keystroke

USER = "/home/user/.config/Code/User"
SETTINGS = f"{USER}/settings.json"
KEYS = f"{USER}/keybindings.json"
PROJECT = "/home/user/projects/demo"
SETTINGS_JSONC = """{
    // appearance
    "workbench.colorTheme": "Monokai",
    "editor.fontSize": 15,
    "editor.rulers": [80, 120],
    "files.exclude": {"**/.DS_Store": true, "**/node_modules": true},
    "editor.formatOnSave": true, // trailing comma below is fine for VS Code
}
"""
KEYBINDINGS = """// Place your key bindings in this file to override the defaults
[
    {"key": "shift+ctrl+alt+U", "command": "editor.action.transformToUppercase",
     "when": "editorTextFocus  &&  !editorReadonly"},
    {"key": "ctrl+k ctrl+c", "command": "-editor.action.addCommentLine", "when": "editorTextFocus && !editorReadonly"},
]
"""


def _write(tmp_path: Path, path: str, text: str) -> None:
    file = tmp_path / path.removeprefix("/home/user/")
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(text, encoding="utf-8")


def _check(tmp_path: Path, primitive: str, path: str = SETTINGS, **args):
    return run_check(State(tmp_path), primitive, {"path": path, **args})


def test_build_writes_vscode_shaped_files():
    files = vscode.build({"folder": PROJECT, "files": {"README.md": "# demo\n"},
                          "user_settings": {"editor.fontSize": 15}, "comments": {"editor.fontSize": "// mine"},
                          "keybindings": [], "folder_settings": {"editor.tabSize": 2},
                          "code_workspace": {"folders": [{"path": "."}]},
                          "workspace_file": f"{PROJECT}/d.code-workspace"})
    assert files[SETTINGS].decode() == '{\n    // mine\n    "editor.fontSize": 15\n}\n'
    assert files[KEYS].decode().startswith("// Place your key bindings") and loads_jsonc(files[KEYS].decode()) == []
    assert files[f"{PROJECT}/.vscode/settings.json"].decode() == '{\n    "editor.tabSize": 2\n}\n'
    assert files[f"{PROJECT}/d.code-workspace"].decode().startswith('{\n\t"folders"')
    assert files[f"{PROJECT}/README.md"] == b"# demo\n"


def test_setting_equals_reads_jsonc(tmp_path):
    _write(tmp_path, SETTINGS, SETTINGS_JSONC)
    assert _check(tmp_path, "vscode.setting_equals", key="editor.fontSize", value=15).passed
    assert _check(tmp_path, "vscode.setting_equals", key="editor.formatOnSave", value=True).passed
    assert _check(tmp_path, "vscode.setting_equals", key="editor.rulers", value=[120, 80], unordered=True).passed
    assert _check(tmp_path, "vscode.setting_equals", key="files.exclude", entry="**/node_modules", value=True).passed
    result = _check(tmp_path, "vscode.setting_equals", key="editor.fontSize", value=16)
    assert not result.passed and "editor.fontSize = 15, expected 16" in result.evidence
    result = _check(tmp_path, "vscode.setting_equals", key="editor.wordWrap", value="on")
    assert not result.passed and "editor.wordWrap is not set" in result.evidence
    result = _check(tmp_path, "vscode.setting_equals", key="files.exclude", entry="**/dist", value=True)
    assert not result.passed and "has no entry '**/dist'" in result.evidence


def test_setting_equals_keeps_types_apart(tmp_path):
    _write(tmp_path, SETTINGS, '{"editor.formatOnSave": "true", "editor.tabSize": "2"}')
    assert not _check(tmp_path, "vscode.setting_equals", key="editor.formatOnSave", value=True).passed
    assert not _check(tmp_path, "vscode.setting_equals", key="editor.tabSize", value=2).passed


def test_workspace_settings_in_folder_and_workspace_file(tmp_path):
    folder_settings = f"{PROJECT}/.vscode/settings.json"
    workspace_file = f"{PROJECT}/demo.code-workspace"
    _write(tmp_path, folder_settings, '{"editor.tabSize": 2}')
    _write(tmp_path, workspace_file,
           '{\n\t"folders": [{"path": "."}],\n\t"settings": {"go.lintTool": "golangci-lint"}\n}')
    assert _check(tmp_path, "vscode.setting_equals", folder_settings, key="editor.tabSize", value=2,
                  workspace=PROJECT).passed
    assert _check(tmp_path, "vscode.setting_equals", workspace_file, key="go.lintTool", value="golangci-lint",
                  workspace=workspace_file).passed
    result = _check(tmp_path, "vscode.setting_equals", workspace_file, key="folders", value=[{"path": "."}])
    assert not result.passed and "folders is not set" in result.evidence  # only "settings" counts
    result = _check(tmp_path, "vscode.setting_equals", SETTINGS, key="editor.tabSize", value=2, workspace=PROJECT)
    assert not result.passed and "rubric error" in result.evidence


def test_settings_kept_allows_new_members_but_not_lost_ones(tmp_path):
    _write(tmp_path, SETTINGS, SETTINGS_JSONC)
    kept = {"editor.fontSize": 15, "files.exclude": {"**/.DS_Store": True}}
    assert _check(tmp_path, "vscode.settings_kept", settings=kept).passed
    apply_ops(tmp_path, [{"op": "json.set", "path": SETTINGS, "key": ["files.exclude"], "value": {"**/dist": True}}])
    result = _check(tmp_path, "vscode.settings_kept", settings=kept)
    assert not result.passed and "files.exclude (now" in result.evidence


def test_keystrokes_compare_by_keys_not_spelling():
    assert keystroke("shift+ctrl+alt+U") == keystroke("ctrl+shift+alt+u")
    assert keystroke("ctrl+k ctrl+c") != keystroke("ctrl+c")
    assert keystroke("cmd+k") == keystroke("meta+k")
    assert keystroke("ctrl++") == ((("ctrl",), "+"),)


def test_keybinding_exists(tmp_path):
    _write(tmp_path, KEYS, KEYBINDINGS)
    args = {"key": "ctrl+shift+alt+u", "command": "editor.action.transformToUppercase"}
    context = "editorTextFocus && !editorReadonly"
    assert _check(tmp_path, "vscode.keybinding_exists", KEYS, **args, when=context).passed
    assert _check(tmp_path, "vscode.keybinding_exists", KEYS, **args, default_when=context).passed
    # asked for everywhere, the rule works only where the editor has focus: narrowed
    result = _check(tmp_path, "vscode.keybinding_exists", KEYS, **args)
    assert not result.passed and "only when 'editorTextFocus && !editorReadonly'" in result.evidence
    result = _check(tmp_path, "vscode.keybinding_exists", KEYS, **args, when="editorTextFocus")
    assert not result.passed and "expected 'editorTextFocus'" in result.evidence
    result = _check(tmp_path, "vscode.keybinding_exists", KEYS, key="ctrl+alt+u", command=args["command"])
    assert not result.passed and "no rule ctrl+alt+u" in result.evidence
    assert _check(tmp_path, "vscode.keybinding_exists", KEYS, key="ctrl+k ctrl+c",
                  command="editor.action.addCommentLine", removed=True, default_when=context).passed
    # a removal limited to another context than the default's removes nothing where the default is active
    assert not _check(tmp_path, "vscode.keybinding_exists", KEYS, key="ctrl+k ctrl+c",
                      command="editor.action.addCommentLine", removed=True, default_when="terminalFocus").passed
    assert not _check(tmp_path, "vscode.keybinding_exists", KEYS, key="ctrl+k ctrl+c",
                      command="editor.action.addCommentLine").passed


def test_keybindings_kept(tmp_path):
    _write(tmp_path, KEYS, KEYBINDINGS)
    rule = {"key": "ctrl+k ctrl+c", "command": "-editor.action.addCommentLine",
            "when": "editorTextFocus && !editorReadonly"}
    assert _check(tmp_path, "vscode.keybindings_kept", KEYS, rules=[rule]).passed
    result = _check(tmp_path, "vscode.keybindings_kept", KEYS, rules=[{"key": "ctrl+e", "command": "x"}])
    assert not result.passed and "ctrl+e -> x" in result.evidence


def test_missing_and_corrupt_files_fail_with_evidence(tmp_path):
    result = _check(tmp_path, "vscode.setting_equals", key="editor.fontSize", value=15)
    assert not result.passed and "does not exist" in result.evidence
    _write(tmp_path, SETTINGS, '{"editor.fontSize": 15')
    result = _check(tmp_path, "vscode.setting_equals", key="editor.fontSize", value=15)
    assert not result.passed and "not a readable JSON file" in result.evidence
    _write(tmp_path, KEYS, json.dumps({"key": "ctrl+k"}))
    result = _check(tmp_path, "vscode.keybinding_exists", KEYS, key="ctrl+k", command="x")
    assert not result.passed and "must be a JSON array" in result.evidence
    _write(tmp_path, SETTINGS, "[1, 2]")
    result = _check(tmp_path, "vscode.settings_kept", settings={"a": 1})
    assert not result.passed and "not an object" in result.evidence
