"""VS Code files: user settings.json and keybindings.json, a project's .vscode/settings.json, *.code-workspace.

Written the way VS Code writes them: settings.json with 4-space indentation and keys in insertion order
(comment lines above some keys are allowed, since VS Code reads JSONC and users annotate their settings),
keybindings.json with VS Code's header comment above the array, workspace files tab-indented.
`build(spec)` turns a whole setup into destination path -> bytes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

USER_DIR = "/home/user/.config/Code/User"
KEYBINDINGS_HEADER = "// Place your key bindings in this file to override the defaults\n"


def render_settings(data: Mapping[str, Any], comments: Mapping[str, str] | None = None, indent: str = "    ") -> str:
    """settings.json text, with the comment line `comments[key]` above each such top-level key."""
    if not data:
        return "{\n}\n"
    out = []
    for line in json.dumps(data, indent=indent, ensure_ascii=False).split("\n"):
        for key, comment in (comments or {}).items():
            if line.startswith(f"{indent}{json.dumps(key, ensure_ascii=False)}:"):
                out.append(f"{indent}{comment}")
        out.append(line)
    return "\n".join(out) + "\n"


def render_keybindings(rules: list[dict[str, Any]]) -> str:
    """keybindings.json text: the header comment, then the rules (key, command, when) or an empty array."""
    return KEYBINDINGS_HEADER + (json.dumps(rules, indent=4, ensure_ascii=False) if rules else "[\n]") + "\n"


def build(spec: Mapping[str, Any]) -> dict[str, bytes]:
    """Files for a VS Code setup. `spec` keys: `folder` (project path), `files` (relative path -> text),
    `user_settings`, `comments`, `keybindings`, and optionally `folder_settings` (.vscode/settings.json) and
    `code_workspace` (written to `workspace_file`)."""
    folder = spec["folder"].rstrip("/")
    out = {f"{folder}/{rel}": text.encode("utf-8") for rel, text in spec.get("files", {}).items()}
    out[f"{USER_DIR}/settings.json"] = render_settings(spec.get("user_settings", {}), spec.get("comments")).encode()
    out[f"{USER_DIR}/keybindings.json"] = render_keybindings(list(spec.get("keybindings", []))).encode()
    if spec.get("folder_settings") is not None:
        out[f"{folder}/.vscode/settings.json"] = render_settings(spec["folder_settings"]).encode()
    if spec.get("code_workspace") is not None:
        out[spec["workspace_file"]] = render_settings(spec["code_workspace"], indent="\t").encode()
    return out
