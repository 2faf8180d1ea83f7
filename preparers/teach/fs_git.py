"""Branches as a developer makes them at a terminal (`preparers.ops.fs_git`)."""

from __future__ import annotations

import shlex

from preparers.teach import q, snippet


@snippet("fs.git_branch")
def git_branch(path: str, name: str, switch: bool = True, start: str | None = None) -> str:
    where = f" {shlex.quote(start)}" if start else ""
    verb = "git checkout -b" if switch else "git branch"
    return f"cd {q(path)} && git status --short --branch && {verb} {shlex.quote(name)}{where}"


@snippet("fs.git_commit")
def git_commit(path: str, message: str, author: str, email: str, when: int = 1_717_000_000,
               origin: str | None = None, only_tracked: bool = False) -> str:
    stage = "git commit -q -a" if only_tracked else "git add -A && git commit -q"
    push = " && git push -q origin HEAD" if origin else ""
    return f"cd {q(path)} && git status --short && {stage} -m {shlex.quote(message)}{push}"
