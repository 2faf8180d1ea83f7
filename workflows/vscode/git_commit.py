"""vscode.git_commit: commit the changes of the project open in VS Code (Source Control: stage all, message,
Commit; or git in its terminal) with a stated message, and push to the project's origin, or keep it local.

The project is a real repository (preparers/git.py) whose origin is a bare repository in ~/remotes; the working
tree has an edited README and a new docs page. Check (git.committed, on .git and the bare origin, which the tree
frame leaves to it): one new commit on main on top of the old tip, with the stated message and exactly the working
tree's files, pushed when asked; the other refs unchanged. Near-misses: `git commit -a` (the new file left out), the
issue reference dropped from the message, and the push forgotten (or made when the commit was to stay local).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family, prepare_node
from kit.model import HOME, Asset, Check
from preparers import vscode
from preparers.git import blob_id, repository
from workflows.vscode import kit as vsc
from workflows.vscode.content import project_files

NAME = "vscode.git_commit"
MESSAGES = ("Document the {mod} setup steps (#{n})", "Add developer notes for {mod} (#{n})",
            "Explain how to run {mod} locally (#{n})", "Write up the {mod} configuration (#{n})")
PUSH = {
    "push": "and push it to origin",
    "local": "but do not push it yet (keep the commit local)",
}
PHRASINGS = (
    "In the {project} repository ({folder}), commit all my current changes, the new file included, on main with "
    "the message \"{message}\" {push}.",
    "Using VS Code's Source Control, stage every change in {folder} and commit it with the message \"{message}\", "
    "{push}. Leave the other branches alone.",
    "Please commit everything that changed in {folder} (edited and new files) as one commit with the message "
    "\"{message}\" {push}.",
    "My edits in the {project} project at {folder} are ready: commit all of them on main with the message "
    "\"{message}\" {push}.",
    "Open {folder} in VS Code and make one commit of all pending changes, new files too, with the message "
    "\"{message}\" {push}.",
)
NATURAL = (
    "Please commit all my changes in {project}, the new file too, with the message \"{message}\" {push}.",
    "Could you commit everything I changed in {project} as \"{message}\" {push}?",
    "Commit my pending changes in {folder} with the message \"{message}\" {push}.",
    "I'm done with the docs in {project}: commit all of it as \"{message}\" {push}.",
    "Can you make one commit of all my changes in {project}, message \"{message}\", {push}?",
)


class Params(TypedDict):
    push: Literal["push", "local"]


@dataclass(frozen=True)
class Target:
    repo: str
    origin: str
    message: str
    author: str
    email: str
    parent: str
    files: tuple[tuple[str, str], ...]  # (path, blob id) of the working tree
    kept: tuple[tuple[str, str], ...]
    git: tuple[tuple[str, bytes], ...]  # .git and the bare origin's files (home paths), and the working tree's


def goal(rng: random.Random, params: Params, project: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[vsc.Workspace, Target]:
    ws = vsc.base_workspace(project, plan, rng)
    name, mod = ws.project["project"], ws.project["modules"][0]
    committed = {rel: text.encode() for rel, text in project_files(ws.project).items()}
    base = {rel: data for rel, data in committed.items() if "/" not in rel}
    when = 1_714_000_000 + rng.randint(0, 20_000_000)
    first, *rest = ws.project["author"].split()
    email = f"{first.lower()}.{(rest[-1] if rest else first).lower()}@example.com"
    origin = f"{HOME}/remotes/{name}.git"
    git, commits = repository([(base, "Initial commit", when), (committed, "Add the first modules", when + 86_400)],
                              ws.project["author"], email, {"main": 1, "develop": 0}, "main", origin=origin)
    topic = mod.replace("_", " ")
    working = {**committed,
               "README.md": committed["README.md"] + f"\n## Development\n\nSee docs/{mod}.md for the {topic} "
                                                     "setup.\n".encode(),
               f"docs/{mod}.md": f"# {topic.title()}\n\n1. Copy the sample configuration.\n2. Run the {topic} "
                                 "step once by hand and check its log.\n".encode()}
    message = rng.choice(MESSAGES).format(mod=topic, n=rng.randint(40, 400))
    home: dict[str, bytes] = {f"{ws.folder}/.git/{rel}": data for rel, data in git.items()}
    for rel, data in git.items():
        if rel.startswith("objects/") or rel == "refs/heads/main":
            home[f"{origin}/{rel}"] = data
    home[f"{origin}/HEAD"] = b"ref: refs/heads/main\n"
    home[f"{origin}/config"] = b"[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = true\n"
    home.update({f"{ws.folder}/{rel}": data for rel, data in working.items() if working[rel] != committed.get(rel)})
    facts = {"folder": ws.folder, "project": name, "message": message, "push": PUSH[params["push"]]}
    kept = (("refs/heads/develop", commits[0]),)
    target = Target(ws.folder, origin, message, ws.project["author"], email, commits[1],
                    tuple(sorted((rel, blob_id(data)) for rel, data in working.items())), kept, tuple(home.items()))
    return Goal(ws, facts, target)


def prepare(workspace: vsc.Workspace, target: Target) -> dict[str, Any]:
    ws = workspace
    files = vscode.build({"folder": ws.folder, "files": project_files(ws.project), "user_settings": ws.user_settings,
                          "comments": ws.comments, "keybindings": ws.keybindings,
                          "folder_settings": ws.folder_settings, "code_workspace": ws.code_workspace,
                          "workspace_file": ws.workspace_file})
    files.update(dict(target.git))
    return {"assets": [Asset(dest, data) for dest, data in files.items()], "launch": ["code", ws.folder]}


def rubric(params: Params, target: Target) -> list[Check]:
    pushed = params["push"] == "push"
    return [Check("committed", f"In {target.repo}, main has one new commit on top of {target.parent[:10]} with the "
                               f"message \"{target.message}\" holding every change of the working tree (the new file "
                               f"included){', pushed to ' + target.origin if pushed else ', not pushed'}.",
                  "git.committed",
                  {"repo": target.repo, "branch": "main", "parent": target.parent, "message": target.message,
                   "files": dict(target.files),
                   "kept": dict(target.kept), "origin": target.origin, "pushed": pushed})]


def solve(params: Params, target: Target) -> Attempts:
    pushed = params["push"] == "push"
    base = {"op": "fs.git_commit", "path": target.repo, "message": target.message, "author": target.author,
            "email": target.email, "origin": target.origin if pushed else None}
    return Attempts(Attempt(f"git add -A && git commit -m \"{target.message}\"" + (" && git push" if pushed else ""),
                            [base]), [
        Attempt("git commit -a: the new file is left out of the commit", [{**base, "only_tracked": True}]),
        Attempt("dropped the issue reference from the message",
                [{**base, "message": target.message.rsplit(" (#", 1)[0]}]),
        Attempt("forgot to push" if pushed else "pushed the commit, which was to stay local",
                [{**base, "origin": None if pushed else target.origin}])])


WORKFLOW = family(
    NAME, vsc.VSCODE,
    description="Commit every change of the project's working tree (new files too) with a stated message, and push "
                "it to origin or keep it local.",
    knobs={"push": ("push", "local")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve, prepare=prepare_node(prepare),
)
