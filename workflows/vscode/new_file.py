"""vscode.new_file: create a small line-based file in a project with VS Code (New File, type, save): a data
folder's .gitignore, a .env.example listing the settings a developer must provide, or the repository's
.github/CODEOWNERS.

Check: the file holds exactly the stated entries (blank and `#` comment lines free), in the stated order for
CODEOWNERS, where the last matching rule wins; the tree frame refuses any other file created or changed.
Near-misses: the entries typed on one line as the instruction lists them, the last entry forgotten, and one slip
per kind: the patterns appended to the project's root .gitignore instead, the file saved as .env, the catch-all
owner rule moved to the end (where it overrides every other rule).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.vscode import kit as vsc
from workflows.vscode.content import project_files

NAME = "vscode.new_file"
#: data folder -> (what it holds, for its README; the ignore patterns people keep there)
FOLDERS = {
    "data": ("Raw exports from the production database", ("*.csv", "*.parquet", "raw/", "!README.md")),
    "exports": ("Generated reports", ("*.xlsx", "*.pdf", "*.zip", "!README.md")),
    "notebooks": ("Exploration notebooks", (".ipynb_checkpoints/", "*.html", "scratch/", "!README.md")),
    "logs": ("Local log files", ("*.log", "*.log.gz", "archive/", "!README.md")),
    "fixtures/large": ("Big test fixtures, downloaded by scripts/fetch_fixtures.sh", ("*.json.gz", "*.bin",
                                                                                      "!README.md")),
}
SETTINGS = ("{env}_API_URL=http://localhost:8080", "{env}_LOG_LEVEL=info", "DATABASE_URL=postgres://app:app@localhost"
            ":5432/{pkg}", "SMTP_HOST=localhost", "SMTP_PORT=1025", "SENTRY_DSN=", "{env}_WORKERS=4",
            "REDIS_URL=redis://localhost:6379/0")
TEAMS = ("backend", "platform", "data", "web", "infra")
WHAT = {
    "gitignore": "with these ignore patterns, one per line: {lines}",
    "env_example": "listing these settings, one per line: {lines}",
    "codeowners": "with these ownership rules, one per line and in this order: {lines}",
}
PHRASINGS = (
    "In VS Code, create a new file {path} in the {project} project {what}. Save it; change no other file.",
    "Open {folder} in VS Code and add the file {path} {what}. Leave every other file as it is.",
    "Please create {path} {what}. Nothing else in the project should change.",
    "The {project} project at {folder} needs a new file, {path}, {what}. Create and save it, touching nothing "
    "else.",
    "Using VS Code, make a new file at {path} {what}. Save it and don't modify other files.",
)
NATURAL = (
    "Please add {path} to my {project} project, {what}.",
    "Could you add a new {path.file} at {path} {what}?",
    "I need a new file {path} in my {project} project, {what}.",
    "Create the file {path} {what}, and leave the rest of the project alone.",
    "Can you set up {path} {what}? Don't change other files.",
)


class Params(TypedDict):
    kind: Literal["gitignore", "env_example", "codeowners"]


@dataclass(frozen=True)
class Target:
    path: str  # absolute path of the new file
    entries: tuple[str, ...]  # its lines, in the stated order
    ordered: bool
    slip: dict[str, Any]  # the kind's own near-miss op


def _handle(author: str) -> str:
    first, *rest = author.lower().split()
    return f"@{first[0]}{rest[-1] if rest else first}"


def goal(rng: random.Random, params: Params, project: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[vsc.Workspace, Target]:
    ws = vsc.base_workspace(project, plan, rng)
    name = ws.project["project"]
    pkg, env = name.replace("-", "_"), name.replace("-", "_").upper()
    kind = params["kind"]
    extra: dict[str, str] = {}
    if kind == "gitignore":
        sub = rng.choice(sorted(FOLDERS))
        about, patterns = FOLDERS[sub]
        keep = list(patterns[:-1])
        entries = tuple(rng.sample(keep, rng.randint(2, len(keep)))) + (patterns[-1],)
        extra = {f"{sub}/README.md": f"# {sub}\n\n{about}. Nothing here but this README is committed.\n"}
        path = f"{ws.folder}/{sub}/.gitignore"
        root = f"{ws.folder}/.gitignore"
        text = project_files(ws.project)[".gitignore"]
        slip = {"op": "fs.write_text", "path": root,
                "text": text + "".join(f"!{sub}/{e[1:]}\n" if e.startswith("!") else f"{sub}/{e}\n" for e in entries)}
    elif kind == "env_example":
        chosen = sorted(rng.sample(range(len(SETTINGS)), rng.randint(3, 4)))
        entries = tuple(SETTINGS[i].format(env=env, pkg=pkg) for i in chosen)
        path = f"{ws.folder}/.env.example"
        slip = {"op": "fs.write_text", "path": f"{ws.folder}/.env", "text": "\n".join(entries) + "\n"}
    else:
        org = rng.choice(("acme", "northwind", "fabrikam", "contoso"))
        team, other = rng.sample(TEAMS, 2)
        rules = [f"* @{org}/{team}", f"/docs/ @{org}/docs", f"/{rng.choice(('.github', 'ci'))}/ @{org}/{other}",
                 f"/README.md {_handle(ws.project['author'])}"]
        entries = (rules[0], *rng.sample(rules[1:], 2))
        path = f"{ws.folder}/.github/CODEOWNERS"
        slip = {"op": "fs.write_text", "path": path, "text": "\n".join(entries[1:] + entries[:1]) + "\n"}
    ws = replace(ws, project={**ws.project, "files": extra})
    lines = ", ".join(f"`{e}`" for e in entries)
    facts = {"folder": ws.folder, "project": name, "path": path, "what": WHAT[kind].format(lines=lines)}
    return Goal(ws, facts, Target(path, entries, kind == "codeowners", slip))


def rubric(params: Params, target: Target) -> list[Check]:
    order = " in the stated order" if target.ordered else ""
    return [Check("created", f"{target.path} exists and holds exactly the lines "
                             f"{', '.join(target.entries)}{order} (blank and comment lines aside).",
                  "text.file_entries", {"path": target.path, "entries": list(target.entries),
                                        "ordered": target.ordered})]


def solve(params: Params, target: Target) -> Attempts:
    def write(lines: tuple[str, ...] | list[str], sep: str = "\n") -> dict[str, Any]:
        return {"op": "fs.write_text", "path": target.path, "text": sep.join(lines) + "\n"}

    slip_does = {"gitignore": "added the patterns to the project's root .gitignore instead",
                 "env_example": "saved the file as .env instead of .env.example",
                 "codeowners": "put the catch-all rule last, where it overrides every other rule"}[params["kind"]]
    return Attempts(Attempt(f"create {target.path} with the stated lines", [write(target.entries)]), [
        Attempt("typed the entries on one line, as the instruction lists them", [write(target.entries, ", ")]),
        Attempt("forgot the last entry", [write(target.entries[:-1])]),
        Attempt(slip_does, [target.slip])])


WORKFLOW = family(
    NAME, vsc.VSCODE,
    description="Create a small line-based file in a project (a folder's .gitignore, a .env.example, the "
                "CODEOWNERS file) holding exactly the stated lines.",
    knobs={"kind": ("gitignore", "env_example", "codeowners")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
