"""The JSON reader: JSON and JSONC files (comments and trailing commas, which VS Code accepts and keeps) parsed
once per state and file, for the `json.*` checks (`verifiers.checks.json_doc`), Chrome's profile files (`Bookmarks`,
`Preferences`: `verifiers.checks.chrome`) and VS Code's settings (`verifiers.checks.vscode`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from preparers.chrome import folders_at
from preparers.ops.json_doc import loads_jsonc
from verifiers.readers import Source, StateError

# --- JSON and JSONC files -----------------------------------------------------------------------------

def parse_jsonc(host: Path) -> Any:
    return loads_jsonc(host.read_text(encoding="utf-8"))


def load(state: Source, path: str) -> Any:
    """The parsed file at `path`; a missing or unparsable file raises `StateError` (a failed check)."""
    return state.read(path, parse_jsonc, "JSON file")


def leaves(data: Any, prefix: tuple[str, ...] = ()) -> list[list[Any]]:
    """`[key path, value]` for every leaf of `data` (objects are walked; lists and scalars are leaves), the
    argument `json.values_kept` takes."""
    if isinstance(data, dict) and data:
        return [leaf for key, value in data.items() for leaf in leaves(value, (*prefix, str(key)))]
    return [[list(prefix), data]] if prefix else []


def parse_json(host: Path) -> Any:
    return json.loads(host.read_text(encoding="utf-8"))


# --- Chrome's Bookmarks and Preferences ---------------------------------------------------------------

def parse_bookmarks(host: Path) -> dict[str, Any]:
    tree = json.loads(host.read_text(encoding="utf-8"))
    if not isinstance(tree, dict) or not isinstance(tree.get("roots"), dict):
        raise ValueError("no 'roots' object")
    return tree


def parse_chrome_prefs(host: Path) -> dict[str, Any]:
    prefs = json.loads(host.read_text(encoding="utf-8"))
    if not isinstance(prefs, dict):
        raise ValueError("top level is not an object")
    return prefs


def folder_nodes(state: Source, path: str, folder: list[str]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    tree = state.read(path, parse_bookmarks, "Chrome Bookmarks file")
    return tree, folders_at(tree, folder)


def chrome_prefs(state: Source, path: str) -> dict[str, Any]:
    return state.read(path, parse_chrome_prefs, "Chrome Preferences file")


# --- VS Code's settings -------------------------------------------------------------------------------

def vscode_settings(state: Source, path: str, workspace: str | None) -> dict[str, Any]:
    """The settings object of `path` ({} for an empty file); a `*.code-workspace` keeps them under "settings"."""
    if workspace is not None and not (path == workspace or path.startswith(workspace.rstrip("/") + "/")):
        raise StateError(f"rubric error: {path} is not inside the workspace {workspace}")
    data = load(state, path)
    if path.endswith(".code-workspace"):
        data = data.get("settings") if isinstance(data, dict) else None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise StateError(f"{path}: the settings are a {type(data).__name__}, not an object")
    return data
