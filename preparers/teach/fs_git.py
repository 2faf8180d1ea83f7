"""Branches as a developer makes them at a terminal (`preparers.ops.fs_git`)."""

from __future__ import annotations

import shlex

from preparers.teach import q, snippet


@snippet("fs.git_branch")
def git_branch(path: str, name: str, switch: bool = True, start: str | None = None) -> str:
    where = f" {shlex.quote(start)}" if start else ""
    verb = "git checkout -b" if switch else "git branch"
    return f"cd {q(path)} && git status --short --branch && {verb} {shlex.quote(name)}{where}"
