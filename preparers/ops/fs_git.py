"""Make a git branch the way `git branch` / `git checkout -b` do (vscode.git_branch): a loose ref
.git/refs/heads/<name> holding the start commit's id, and with `switch` HEAD pointing at it. The start is the
current HEAD, or (a near-miss's slip) another branch `start`."""

from __future__ import annotations

from kit import bounded
from preparers.ops import OpError, op
from preparers.ops.fs import FsHandle


def _commit(h: FsHandle, ref: str) -> str:
    host = h.host / ".git" / ref
    if not host.is_file():
        raise OpError(f"fs.git_branch: no ref {ref}")
    return bounded.read_file(host).decode().strip()


@op("fs.git_branch")
def git_branch(h: FsHandle, name: str, switch: bool = True, start: str | None = None) -> None:
    """Create branch `name` in the repository at `path` from HEAD (or from branch `start`); `switch` checks it out."""
    head = bounded.read_file(h.host / ".git" / "HEAD").decode().strip()
    if not head.startswith("ref: refs/heads/"):
        raise OpError("fs.git_branch: HEAD is detached")
    commit = _commit(h, f"refs/heads/{start}" if start else head.removeprefix("ref: "))
    target = h.host / ".git" / "refs" / "heads" / name
    if target.exists():
        raise OpError(f"fs.git_branch: branch {name!r} exists")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(commit + "\n")
    if switch:
        (h.host / ".git" / "HEAD").write_text(f"ref: refs/heads/{name}\n")
