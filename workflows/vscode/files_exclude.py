"""vscode.files_exclude: add glob patterns to an exclude setting, or file associations.

`kind` picks the object setting: `files.exclude` (hide in the Explorer), `search.exclude` (skip in search),
`files.watcherExclude` (don't watch) — pattern -> true — or `files.associations` (pattern -> language id).
`scope` is where: the user's settings.json or the project's .vscode/settings.json. Entries already in the
object must stay.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from forge.dag import NodeContext, Workflow, node
from forge.model import Check, Solution
from workflows.vscode import kit as vsc

NAME = "vscode.files_exclude"
KEYS = {"files_exclude": "files.exclude", "search_exclude": "search.exclude",
        "watcher_exclude": "files.watcherExclude", "associations": "files.associations"}
PURPOSE = {"files_exclude": "hide those files in the Explorer",
           "search_exclude": "leave those files out of search results",
           "watcher_exclude": "stop watching those files for changes",
           "associations": "open those files with the right language mode"}
#: language -> exclude patterns that fit its build output and caches.
PATTERNS: dict[str, tuple[str, ...]] = {
    "python": ("**/__pycache__", "**/*.pyc", "**/.pytest_cache", "**/.mypy_cache", "**/.venv", "**/dist"),
    "typescript": ("**/node_modules", "**/dist", "**/coverage", "**/*.tsbuildinfo", "**/.turbo"),
    "go": ("**/vendor", "**/bin", "**/*.test", "**/coverage.out"),
    "rust": ("**/target", "**/*.rs.bk", "**/Cargo.lock"),
    "web": ("**/node_modules", "**/dist", "**/.cache", "**/*.min.js", "**/*.map"),
}
WATCHER = ("**/node_modules/**", "**/.venv/**", "**/target/**", "**/dist/**", "**/logs/**", "**/.cache/**")
ASSOCIATIONS = (("*.tpl", "html"), ("Jenkinsfile", "groovy"), (".babelrc", "json"), ("*.mdx", "markdown"),
                ("Dockerfile.*", "dockerfile"), ("*.conf", "ini"), (".eslintrc", "jsonc"), ("*.service", "ini"),
                ("*.gotmpl", "html"), ("*.jsonl", "json"), ("Vagrantfile", "ruby"), ("*.env.example", "properties"))
EXISTING: dict[str, dict[str, Any]] = {"files.exclude": {"**/.DS_Store": True}, "search.exclude": {"**/*.lock": True},
            "files.watcherExclude": {"**/.git/objects/**": True}, "files.associations": {"*.h": "c"}}
PHRASINGS = (
    "In VS Code, add {entries} to the `{key}` setting in {where}, to {purpose}.",
    "I want VS Code to {purpose}: in {where}, extend `{key}` with {entries}. Keep the entries already there.",
    "Edit {where} so that `{key}` also contains {entries}.",
    "Please update `{key}` in {where}: add {entries}. Don't remove anything else from it.",
    "Using VS Code's settings (search for `{key}`), add {entries} in {where} so that it will {purpose}.",
)


@node("goal", "goal", ("params", "project", "plan"), ("workspace", "facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("goal")
    kind, scope = values["params"]["kind"], values["params"]["scope"]
    key = KEYS[kind]
    ws = vsc.base_workspace(values["project"], values["plan"], rng)
    count = rng.randint(1, 2)
    entries: list[tuple[str, Any]]
    if kind == "associations":
        entries = rng.sample(ASSOCIATIONS, count)
    else:
        pool = WATCHER if kind == "watcher_exclude" else PATTERNS[ws.project["language"]]
        entries = [(p, True) for p in rng.sample(pool, count)]
    existing = dict(EXISTING[key]) if rng.random() < 0.6 else {}
    if scope == "user":
        path, where, workspace = vsc.USER_SETTINGS, "your user settings", None
        if existing:
            ws = ws.with_user(key, existing)
    else:
        path, workspace = ws.folder_settings_path, ws.folder
        where = f"the workspace settings of the project {ws.folder} (.vscode/settings.json)"
        ws = replace(ws, folder_settings={key: existing} if existing else None)
    text = " and ".join(f"\"{p}\": {vsc.show(v)}" for p, v in entries)
    facts = {"entries": text, "key": key, "where": where, "purpose": PURPOSE[kind]}
    kept = ws.user_settings if scope == "user" else (ws.folder_settings or {})
    target = {"path": path, "workspace": workspace, "key": key, "entries": entries, "kept": kept}
    return {"workspace": ws, "facts": facts, "target": target}


def _ws(t: Mapping[str, Any]) -> dict[str, Any]:
    return {"workspace": t["workspace"]} if t["workspace"] else {}


@node("rubric", "rubric", ("target",), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    t = values["target"]
    checks = [Check(f"entry_{i}", f"{t['key']} maps {pattern!r} to {vsc.show(value)} in {t['path']}.",
                    "vscode.setting_equals",
                    {"path": t["path"], "key": t["key"], "entry": pattern, "value": value, **_ws(t)})
              for i, (pattern, value) in enumerate(t["entries"], start=1)]
    if t["kept"]:
        checks.append(Check("kept", f"The other settings in {t['path']} (and the earlier entries of {t['key']}) "
                                    "are unchanged.", "vscode.settings_kept",
                            {"path": t["path"], "settings": t["kept"], **_ws(t)}))
    return {"rubric": checks}


@node("solve", "solve", ("params", "workspace", "target"), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    ws: vsc.Workspace = values["workspace"]
    t = values["target"]
    kind, path, key, entries = values["params"]["kind"], t["path"], t["key"], t["entries"]

    def put(where: str, setting: str, pairs: list[tuple[str, Any]]) -> list[dict[str, Any]]:
        return [vsc.set_setting(where, setting, v, entry=p) for p, v in pairs]

    other_key = "search.exclude" if key == "files.exclude" else "files.exclude"
    other_path = ws.folder_settings_path if path == vsc.USER_SETTINGS else vsc.USER_SETTINGS
    if kind == "associations":
        slip = ("uses the language's display name instead of its id",
                [(p, {"jsonc": "JSON with Comments", "ini": "Ini"}.get(v, v.title())) for p, v in entries])
    else:
        slip = ("leaves out the leading **/ of the patterns", [(p.removeprefix("**/"), v) for p, v in entries])
    misses = [(f"adds the entries to {other_key} instead", put(path, other_key, entries)),
              (slip[0], put(path, key, slip[1])),
              ("adds them to the wrong settings file", put(other_path, key, entries))]
    if len(entries) > 1:
        misses.append(("adds only the first entry", put(path, key, entries[:1])))
    existing = ws.user_settings.get(key) if path == vsc.USER_SETTINGS else (ws.folder_settings or {}).get(key)
    if existing:
        misses.append((f"replaces the whole {key} object, dropping its earlier entries",
                       [vsc.set_setting(path, key, dict(entries))]))
    solutions = [Solution("oracle", f"adds the entries to {key}", put(path, key, entries))]
    solutions += [Solution(f"near-miss-{i}", why, ops) for i, (why, ops) in enumerate(misses, start=1)]
    return {"solutions": solutions}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(vsc.APP,),
    description="Add glob patterns to files.exclude, search.exclude or files.watcherExclude, or add file "
                "associations, in user or workspace settings.",
    knobs={"kind": tuple(KEYS), "scope": ("user", "workspace")},
    nodes=(*vsc.source_nodes(), goal, vsc.prepare, vsc.instruction(NAME, PHRASINGS), rubric, solve),
)
