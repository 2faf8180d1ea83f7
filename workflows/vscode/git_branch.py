"""vscode.git_branch: make a git branch in the project open in VS Code (Source Control: Create Branch..., or
`git checkout -b` in its terminal), from the current commit, and switch to it or stay where HEAD is.

The project is a real repository (preparers/git.py): a short history, `main` checked out with a clean working
tree, and a `develop` branch one commit behind. Check (git.branch_created, on .git, which the tree frame leaves to
it): the branch points at the commit HEAD was on, HEAD is on the new branch (checkout) or still on main (create),
every other ref unchanged and no other made. Near-misses: the branch made from develop, the slash in its name typed
as a dash, and switched-to when it was to be only made (or only made when it was to be switched to).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family, prepare_node
from kit.model import Asset, Check
from preparers import vscode
from preparers.git import repository
from workflows.vscode import kit as vsc
from workflows.vscode.content import project_files

NAME = "vscode.git_branch"
KINDS = ("feature/{mod}-export", "fix/{mod}-timeouts", "feature/{mod}-caching", "chore/{mod}-cleanup",
         "fix/{mod}-unicode-names", "feature/{mod}-retry")
SWITCH = {
    "checkout": "and switch to it, so that my next commits go there",
    "create": "but stay on main: do not switch to the new branch yet",
}
PHRASINGS = (
    "In the git repository of the {project} project ({folder}), create a branch named `{name}` from the current "
    "commit {switch}. Change nothing else.",
    "Using VS Code's Source Control, make a new branch `{name}` from HEAD in {folder} {switch}. Leave the other "
    "branches as they are.",
    "Please create the git branch `{name}` in {folder}, starting from the commit main is on now, {switch}.",
    "I want to start work on `{name}` in the {project} repository at {folder}: create that branch from the current "
    "HEAD {switch}. Do not touch other branches.",
    "Open {folder} in VS Code and create a branch `{name}` from where HEAD is now, {switch}. Nothing else changes.",
)
NATURAL = (
    "Please create a branch `{name}` in my {project} repo from the current commit, {switch}.",
    "Could you make a new git branch called `{name}` in {project}, {switch}?",
    "I need a branch `{name}` off the current HEAD of {folder}, {switch}.",
    "Create the branch `{name}` from where main is now in {project}, {switch}.",
    "Can you branch off `{name}` from the current commit of my {project} project, {switch}?",
)
AUTHOR_EMAIL = "{first}.{last}@example.com"


class Params(TypedDict):
    switch: Literal["checkout", "create"]


@dataclass(frozen=True)
class Target:
    repo: str
    name: str
    commit: str  # the commit HEAD (main) is on
    kept: tuple[tuple[str, str], ...]  # (refname, commit) of the existing branches
    git: tuple[tuple[str, bytes], ...]  # the repository's .git files (home paths)


def goal(rng: random.Random, params: Params, project: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[vsc.Workspace, Target]:
    ws = vsc.base_workspace(project, plan, rng)
    files = {rel: text.encode() for rel, text in project_files(ws.project).items()}
    base = {rel: data for rel, data in files.items() if "/" not in rel}
    last = sorted(r for r in files if "/" in r)[-1]
    middle = {rel: data for rel, data in files.items() if rel != last}
    when = 1_714_000_000 + rng.randint(0, 20_000_000)
    first, *rest = ws.project["author"].split()
    email = AUTHOR_EMAIL.format(first=first.lower(), last=(rest[-1] if rest else first).lower())
    snapshots = [(base, "Initial commit", when), (middle, "Add the first modules", when + 86_400 * 3),
                 (files, f"Add {last.rsplit('/', 1)[-1]}", when + 86_400 * 5)]
    git, commits = repository(snapshots, ws.project["author"], email, {"main": 2, "develop": 1}, "main")
    name = rng.choice(KINDS).format(mod=ws.project["modules"][0].replace("_", "-"))
    facts = {"folder": ws.folder, "project": ws.project["project"], "name": name,
             "switch": SWITCH[params["switch"]]}
    kept = (("refs/heads/develop", commits[1]), ("refs/heads/main", commits[2]))
    home_git = tuple((f"{ws.folder}/.git/{rel}", data) for rel, data in git.items())
    return Goal(ws, facts, Target(ws.folder, name, commits[2], kept, home_git))


def prepare(workspace: vsc.Workspace, target: Target) -> dict[str, Any]:
    ws = workspace
    files = vscode.build({"folder": ws.folder, "files": project_files(ws.project), "user_settings": ws.user_settings,
                          "comments": ws.comments, "keybindings": ws.keybindings,
                          "folder_settings": ws.folder_settings, "code_workspace": ws.code_workspace,
                          "workspace_file": ws.workspace_file})
    files.update(dict(target.git))
    return {"assets": [Asset(dest, data) for dest, data in files.items()], "launch": ["code", ws.folder]}


def rubric(params: Params, target: Target) -> list[Check]:
    checkout = params["switch"] == "checkout"
    where = "HEAD is on it" if checkout else "HEAD stays on main"
    return [Check("branched", f"In {target.repo}, the branch `{target.name}` points at the commit main was on "
                              f"({target.commit[:10]}) and {where}; the other branches are unchanged.",
                  "git.branch_created",
                  {"repo": target.repo, "name": target.name, "commit": target.commit, "checked_out": checkout,
                   "head": "main", "kept": dict(target.kept)})]


def solve(params: Params, target: Target) -> Attempts:
    checkout = params["switch"] == "checkout"
    base = {"op": "fs.git_branch", "path": target.repo, "name": target.name, "switch": checkout}
    wrong_switch = ("made the branch but stayed on main" if checkout
                    else "switched to the new branch, which was only to be made")
    return Attempts(Attempt(f"{'git checkout -b' if checkout else 'git branch'} {target.name}", [base]), [
        Attempt(wrong_switch, [{**base, "switch": not checkout}]),
        Attempt("made the branch from develop instead of the current commit", [{**base, "start": "develop"}]),
        Attempt("typed the slash of the name as a dash", [{**base, "name": target.name.replace("/", "-", 1)}])])


WORKFLOW = family(
    NAME, vsc.VSCODE,
    description="Create a git branch from the current commit of the project's repository, switching to it or "
                "staying on main.",
    knobs={"switch": ("checkout", "create")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve, prepare=prepare_node(prepare),
)
