"""Nodes and helpers shared by the VS Code families.

Every VS Code family starts with `sample` (language, where projects live, whether the user's settings.json
carries comments) and the `content` LLM node (a project, see workflows/vscode/content.py). Its goal node
builds a `Workspace`: the project files, the user's settings.json and keybindings.json, and optionally a
folder `.vscode/settings.json` or a `*.code-workspace` file. The shared `prepare` node writes them all and
opens the project (or its workspace file) in VS Code.

settings.json is written the way VS Code writes it (4-space indent, keys in insertion order); a user who
edits it by hand may have left `//` comments in it, which VS Code accepts (JSONC), so some tasks have them.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from kit.axes import LOCATION, deepen, pick, span
from kit.dag import Node, NodeContext, llm_node, node
from kit.family import AppKit
from kit.model import HOME, Asset
from preparers import vscode
from workflows.common import instruction
from workflows.frame import tree_frame_node
from workflows.teacher import teacher_node
from workflows.vscode.content import CONTENT_SCHEMA, LANGUAGES, generate_project, project_files

APP = "vs_code"
USER_DIR = vscode.USER_DIR
USER_SETTINGS = f"{USER_DIR}/settings.json"
KEYBINDINGS = f"{USER_DIR}/keybindings.json"
PROJECT_ROOTS = ("projects", "code", "work", "src", "dev", "Documents/code")

#: key -> plausible values people keep in their user settings.json.
BASE_SETTINGS: dict[str, tuple[Any, ...]] = {
    "workbench.colorTheme": ("Default Dark Modern", "Default Light Modern", "Monokai", "One Dark Pro"),
    "editor.fontSize": (13, 14, 15),
    "telemetry.telemetryLevel": ("off", "error"),
    "git.autofetch": (True,),
    "git.confirmSync": (False,),
    "explorer.confirmDelete": (False,),
    "explorer.confirmDragAndDrop": (False,),
    "workbench.startupEditor": ("none",),
    "security.workspace.trust.untrustedFiles": ("open",),
    "terminal.integrated.fontSize": (12, 13),
    "window.zoomLevel": (1, -1),
    "editor.renderWhitespace": ("boundary", "trailing"),
    "editor.tabSize": (2,),
    "workbench.iconTheme": ("material-icon-theme", "vscode-icons"),
    "breadcrumbs.enabled": (False,),
    "git.enableSmartCommit": (True,),
    "diffEditor.ignoreTrimWhitespace": (False,),
    "editor.accessibilitySupport": ("off",),
    "[python]": ({"editor.defaultFormatter": "ms-python.black-formatter", "editor.formatOnSave": True},),
    "[javascript]": ({"editor.defaultFormatter": "esbenp.prettier-vscode"},),
}
COMMENTS = ("// appearance", "// personal defaults", "// TODO: revisit after the team style guide",
            "// git", "// synced from my laptop")
#: custom keybindings people keep in keybindings.json.
BASE_KEYBINDINGS: tuple[dict[str, str], ...] = (
    {"key": "ctrl+tab", "command": "workbench.action.nextEditor"},
    {"key": "ctrl+shift+tab", "command": "workbench.action.previousEditor"},
    {"key": "ctrl+alt+r", "command": "workbench.action.reloadWindow"},
    {"key": "ctrl+e", "command": "-workbench.action.quickOpen"},
    {"key": "ctrl+shift+/", "command": "editor.action.blockComment", "when": "editorTextFocus && !editorReadonly"},
)


@dataclass(frozen=True)
class Workspace:
    """The initial state: project files, user settings and keybindings, optional workspace settings."""

    folder: str  # absolute path of the project folder
    project: dict[str, Any]
    user_settings: dict[str, Any]
    keybindings: list[dict[str, Any]]
    comments: dict[str, str] = field(default_factory=dict)  # user settings key -> comment line above it
    folder_settings: dict[str, Any] | None = None  # .vscode/settings.json, when present
    code_workspace: dict[str, Any] | None = None  # <project>.code-workspace, when present
    open_workspace_file: bool = False

    @property
    def folder_settings_path(self) -> str:
        return f"{self.folder}/.vscode/settings.json"

    @property
    def workspace_file(self) -> str:
        return f"{self.folder}/{self.project['project']}.code-workspace"

    def with_user(self, key: str, value: Any) -> Workspace:
        return replace(self, user_settings={**self.user_settings, key: copy.deepcopy(value)})


def show(value: Any) -> str:
    """A settings value as it appears in settings.json (and in instructions): "on", true, 16, [80, 120]."""
    return json.dumps(value, ensure_ascii=False)


def mistyped(value: Any) -> Any:
    """A plausible slip for a settings value: a quoted boolean, off by one, a list item dropped or off by one,
    or a string in the wrong letter case."""
    if isinstance(value, bool):
        return show(value)  # "true" typed as a string
    if isinstance(value, int):
        return value + 1
    if isinstance(value, list):
        if len(value) > 1:
            return value[:-1]
        return [value[0] + 1] if isinstance(value[0], int) and not isinstance(value[0], bool) else []
    text = str(value)
    return text.lower() if text != text.lower() else text.capitalize()


# --- shared nodes -----------------------------------------------------------------------------------

#: Difficulty axes (issue 15), the first level being today's behaviour with the same random draws.
AXES: dict[str, tuple[Any, ...]] = {"location": LOCATION,
                                    "settings": ("4-8", "9-12", "13-16")}  # the user's existing settings


@node("sample", "sample", ("params",), ("plan",))
def sample(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("sample")
    language = rng.choice(LANGUAGES)
    root = deepen(rng.choice(PROJECT_ROOTS), pick(values["params"], "location", AXES))
    low, high = span(pick(values["params"], "settings", AXES))
    return {"plan": {"language": language, "root": root,
                     "comments": rng.random() < 0.35, "n_settings": rng.randint(low, high)}}


def _offline_project(rng: random.Random, values: Mapping[str, Any]) -> dict[str, Any]:
    return generate_project(rng, language=values["plan"]["language"])


content = llm_node("content", kind="llm", inputs=("plan",), output="project", prompt="vscode_content.txt",
                   schema=CONTENT_SCHEMA, offline=_offline_project)


def base_workspace(project: Mapping[str, Any], plan: Mapping[str, Any], rng: random.Random,
                   avoid: tuple[str, ...] = ()) -> Workspace:
    """The user's everyday setup: a few settings (none of the keys in `avoid`) and 0-2 custom keybindings."""
    keys = rng.sample([k for k in BASE_SETTINGS if k not in avoid], plan["n_settings"])
    settings = {k: copy.deepcopy(rng.choice(BASE_SETTINGS[k])) for k in keys}
    comments = {}
    if plan["comments"]:
        comments = {k: c for k, c in zip(rng.sample(keys, 2), rng.sample(COMMENTS, 2), strict=True)}
    rules = [dict(r) for r in rng.sample(BASE_KEYBINDINGS, rng.randint(0, 2))]
    folder = f"{HOME}/{plan['root']}/{project['project']}"
    return Workspace(folder, dict(project), settings, rules, comments)


@node("prepare", "prepare", ("workspace",), ("assets", "launch"))
def prepare(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    ws: Workspace = values["workspace"]
    files = vscode.build({"folder": ws.folder, "files": project_files(ws.project), "user_settings": ws.user_settings,
                          "comments": ws.comments, "keybindings": ws.keybindings,
                          "folder_settings": ws.folder_settings, "code_workspace": ws.code_workspace,
                          "workspace_file": ws.workspace_file})
    assets = [Asset(dest, data) for dest, data in files.items()]
    return {"assets": assets, "launch": ["code", ws.workspace_file if ws.open_workspace_file else ws.folder]}


def source_nodes() -> tuple[Node, ...]:
    """sample -> content: the start of every VS Code family."""
    return (sample, content)


#: The VS Code app kit: families built with `kit.family.family(NAME, VSCODE, ...)`.
VSCODE = AppKit(apps=(APP,), source=source_nodes, state="workspace", prepare=prepare, instruction=instruction,
                axes=AXES, frame=tree_frame_node, teacher=teacher_node)


# --- ops builders (solutions are data) ---------------------------------------------------------------

def set_setting(path: str, key: str, value: Any, entry: str | None = None) -> dict[str, Any]:
    """A `json.set` op for one setting (or one member of an object setting); `*.code-workspace` files keep
    settings under "settings"."""
    keys = (["settings"] if path.endswith(".code-workspace") else []) + [key] + ([entry] if entry is not None else [])
    return {"op": "json.set", "path": path, "key": keys, "value": copy.deepcopy(value)}


def replace_file(path: str, data: Any) -> dict[str, Any]:
    """Overwrite a whole JSON file (a classic terminal mistake: `echo '{...}' > settings.json`)."""
    return {"op": "json.set", "path": path, "key": [], "value": copy.deepcopy(data)}
