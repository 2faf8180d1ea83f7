"""vscode.files_exclude: add glob patterns to an exclude setting, or file associations.

`kind` picks the object setting: `files.exclude` (hide in the Explorer), `search.exclude` (skip in search),
`files.watcherExclude` (don't watch) — pattern -> true — or `files.associations` (pattern -> language id).
`scope` is where: the user's settings.json or the project's .vscode/settings.json. Entries already in the
object must stay.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
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
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Please add {entries} to {key} in {where.mine}: I want VS Code to {purpose}.",
    "Could you add {entries} to {key} in {where.mine}, keeping what's already there?",
    "Add {entries} to {key} in {where.mine}, so that VS Code will {purpose}.",
    "In {where.mine}, {key} should also include {entries}. Keep the existing entries.",
    "Extend {key} in {where.mine} with {entries}: VS Code should {purpose}."
)


class Params(TypedDict):
    kind: Literal["files_exclude", "search_exclude", "watcher_exclude", "associations"]
    scope: Literal["user", "workspace"]


@dataclass(frozen=True)
class Target:
    path: str  # the settings file to edit
    workspace: str | None  # the project folder, when that file is the workspace's .vscode/settings.json
    key: str  # the object setting
    entries: list[tuple[str, Any]]  # the entries to add: pattern -> true, or pattern -> language id

    def scope_args(self) -> dict[str, Any]:
        """The checks' `workspace` argument, when the file is a workspace's."""
        return {"workspace": self.workspace} if self.workspace else {}


def goal(rng: random.Random, params: Params, project: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[vsc.Workspace, Target]:
    kind, scope = params["kind"], params["scope"]
    key = KEYS[kind]
    ws = vsc.base_workspace(project, plan, rng)
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
    return Goal(ws, facts, Target(path, workspace, key, entries))


def rubric(target: Target) -> list[Check]:
    t = target
    return [Check(f"entry_{i}", f"{t.key} maps {pattern!r} to {vsc.show(value)} in {t.path}.",
                  "vscode.setting_equals",
                  {"path": t.path, "key": t.key, "entry": pattern, "value": value, **t.scope_args()})
            for i, (pattern, value) in enumerate(t.entries, start=1)]


def solve(params: Params, workspace: vsc.Workspace, target: Target) -> Attempts:
    ws = workspace
    kind, path, key, entries = params["kind"], target.path, target.key, target.entries

    def put(where: str, setting: str, pairs: list[tuple[str, Any]]) -> list[dict[str, Any]]:
        return [vsc.set_setting(where, setting, v, entry=p) for p, v in pairs]

    other_key = "search.exclude" if key == "files.exclude" else "files.exclude"
    other_path = ws.folder_settings_path if path == vsc.USER_SETTINGS else vsc.USER_SETTINGS
    if kind == "associations":
        slip = Attempt("uses the language's display name instead of its id",
                       put(path, key, [(p, {"jsonc": "JSON with Comments", "ini": "Ini"}.get(v, v.title()))
                                       for p, v in entries]))
    else:
        slip = Attempt("leaves out the leading **/ of the patterns",
                       put(path, key, [(p.removeprefix("**/"), v) for p, v in entries]))
    misses = [Attempt(f"adds the entries to {other_key} instead", put(path, other_key, entries)), slip,
              Attempt("adds them to the wrong settings file", put(other_path, key, entries))]
    if len(entries) > 1:
        misses.append(Attempt("adds only the first entry", put(path, key, entries[:1])))
    existing = ws.user_settings.get(key) if path == vsc.USER_SETTINGS else (ws.folder_settings or {}).get(key)
    if existing:
        misses.append(Attempt(f"replaces the whole {key} object, dropping its earlier entries",
                              [vsc.set_setting(path, key, dict(entries))]))
    return Attempts(Attempt(f"adds the entries to {key}", put(path, key, entries)), misses)


WORKFLOW = family(
    NAME, vsc.VSCODE,
    description="Add glob patterns to files.exclude, search.exclude or files.watcherExclude, or add file "
                "associations, in user or workspace settings.",
    knobs={"kind": tuple(KEYS), "scope": ("user", "workspace")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
