"""vscode.workspace_settings: set project-specific settings, not user settings.

`container` is where VS Code keeps them for this project: the folder's `.vscode/settings.json` (the project
folder is open) or the `settings` object of a `*.code-workspace` file (that workspace is open). With
`initial` = existing the container already holds other settings that must stay; with none there are none
yet (for a folder, not even the .vscode directory). `count` is how many settings to set.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from forge.dag import NodeContext, Workflow, node
from forge.model import Check, Solution
from verifiers.checks.json_doc import leaves
from workflows.vscode import kit as vsc

NAME = "vscode.workspace_settings"
GENERIC = (("files.trimTrailingWhitespace", True), ("files.insertFinalNewline", True), ("editor.formatOnSave", True),
           ("editor.wordWrap", "on"), ("files.autoSave", "onFocusChange"))
#: language -> project settings that make sense for it.
BY_LANGUAGE: dict[str, tuple[tuple[str, Any], ...]] = {
    "python": (("python.analysis.typeCheckingMode", "strict"), ("python.testing.pytestEnabled", True),
               ("editor.defaultFormatter", "ms-python.black-formatter"), ("editor.rulers", [88]),
               ("python.analysis.extraPaths", ["./src"]), ("python.envFile", "${workspaceFolder}/.env.local")),
    "typescript": (("typescript.tsdk", "node_modules/typescript/lib"),
                   ("editor.defaultFormatter", "esbenp.prettier-vscode"), ("editor.tabSize", 2),
                   ("typescript.preferences.importModuleSpecifier", "relative"), ("npm.packageManager", "pnpm")),
    "go": (("go.lintTool", "golangci-lint"), ("go.formatTool", "goimports"), ("go.testFlags", ["-v", "-race"]),
           ("editor.insertSpaces", False), ("go.buildTags", "integration")),
    "rust": (("rust-analyzer.check.command", "clippy"), ("rust-analyzer.cargo.features", "all"),
             ("editor.rulers", [100]), ("rust-analyzer.inlayHints.typeHints.enable", False)),
    "web": (("editor.defaultFormatter", "esbenp.prettier-vscode"), ("editor.tabSize", 2),
            ("html.format.wrapLineLength", 100), ("css.lint.duplicateProperties", "warning"),
            ("emmet.triggerExpansionOnTab", True)),
}
PHRASINGS = (
    "For this project only, set {settings} in {where}. Don't put them in your user settings.",
    "The project at {folder} needs its own VS Code configuration: set {settings} in {where}, leaving your user "
    "settings alone.",
    "Configure VS Code per project, not globally: in {where}, set {settings}. Keep any settings already there.",
    "Please give {folder} these settings of its own: {settings}. They belong in {where}.",
    "Using the Workspace tab of VS Code's settings editor (or by editing the file), set {settings} in {where}.",
)


def _text(settings: list[tuple[str, Any]]) -> str:
    parts = [f"`{k}` to {vsc.show(v)}" for k, v in settings]
    return " and ".join(parts)


@node("goal", "goal", ("params", "project", "plan"), ("workspace", "facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("goal")
    params = values["params"]
    ws = vsc.base_workspace(values["project"], values["plan"], rng)
    pool = list({k: v for k, v in (*BY_LANGUAGE[ws.project["language"]], *GENERIC)}.items())
    rng.shuffle(pool)
    targets, rest = pool[:params["count"]], pool[params["count"]:]
    existing = dict(rest[:rng.randint(1, 3)]) if params["initial"] == "existing" else {}
    if params["container"] == "folder":
        ws = replace(ws, folder_settings=existing or None)
        path, workspace = ws.folder_settings_path, ws.folder
        where = f"the workspace settings of the project folder {ws.folder} (its .vscode/settings.json)"
    else:
        ws = replace(ws, code_workspace={"folders": [{"path": "."}], "settings": existing}, open_workspace_file=True)
        path = workspace = ws.workspace_file
        where = f"the \"settings\" of the workspace file {ws.workspace_file} (the workspace VS Code has open)"
    facts = {"settings": _text(targets), "where": where, "folder": ws.folder}
    target = {"path": path, "workspace": workspace, "targets": targets, "existing": existing,
              "file": ws.code_workspace or {}}
    return {"workspace": ws, "facts": facts, "target": target}


@node("rubric", "rubric", ("target",), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    t = values["target"]
    base = {"path": t["path"], "workspace": t["workspace"]}
    checks = [Check(f"setting_{i}", f"{k} is {vsc.show(v)} in {t['path']}.", "vscode.setting_equals",
                    {**base, "key": k, "value": v}) for i, (k, v) in enumerate(t["targets"], start=1)]
    if t["existing"]:
        checks.append(Check("kept", f"The settings already in {t['path']} are unchanged.", "vscode.settings_kept",
                            {**base, "settings": t["existing"]}))
    if t["path"].endswith(".code-workspace"):  # the rest of the workspace file (its folders) is not the task's
        rest = [leaf for leaf in leaves(t["file"]) if leaf[0][:1] != ["settings"]]
        checks.append(Check("file_kept", f"Apart from its settings, {t['path']} is unchanged.", "json.values_kept",
                            {"path": t["path"], "values": rest}))
    return {"rubric": checks}


@node("solve", "solve", ("workspace", "target"), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    ws: vsc.Workspace = values["workspace"]
    t = values["target"]
    targets = t["targets"]

    def put(path: str, pairs: list[tuple[str, Any]]) -> list[dict[str, Any]]:
        return [vsc.set_setting(path, k, v) for k, v in pairs]

    in_workspace_file = t["path"].endswith(".code-workspace")
    wrong_place = (ws.folder_settings_path, "writes them to the folder's .vscode/settings.json instead of the "
                   "workspace file") if in_workspace_file else (f"{ws.folder}/settings.json", "creates settings.json "
                                                                "in the project root instead of in .vscode/")
    misses = [("puts the settings in the user settings instead", put(vsc.USER_SETTINGS, targets)),
              (wrong_place[1], put(wrong_place[0], targets))]
    if len(targets) > 1:
        misses.append(("sets only the first setting", put(t["path"], targets[:1])))
    else:
        key, value = targets[0]
        misses.append((f"sets {key} to a mistyped value", put(t["path"], [(key, vsc.mistyped(value))])))
    if t["existing"]:
        fresh = dict(targets)
        ops = ([{"op": "json.set", "path": t["path"], "key": ["settings"], "value": fresh}] if in_workspace_file
               else [vsc.replace_file(t["path"], fresh)])
        misses.append(("replaces the existing workspace settings instead of adding to them", ops))
    solutions = [Solution("oracle", "sets the settings in the project's own settings", put(t["path"], targets))]
    solutions += [Solution(f"near-miss-{i}", why, ops) for i, (why, ops) in enumerate(misses, start=1)]
    return {"solutions": solutions}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(vsc.APP,),
    description="Set project-specific VS Code settings in the folder's .vscode/settings.json or a .code-workspace "
                "file, not in the user settings.",
    knobs={"container": ("folder", "code_workspace"), "initial": ("none", "existing"), "count": (1, 2)},
    nodes=(*vsc.source_nodes(), goal, vsc.prepare, vsc.instruction(NAME, PHRASINGS), rubric, solve),
)
