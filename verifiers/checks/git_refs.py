"""`git.branch_created`: a branch made in a project's git repository (vscode.git_branch), read from .git as git
writes it: HEAD, loose refs under refs/ and packed-refs (after `git gc` or `git pack-refs`), a loose ref winning
over a packed one. Nothing is run; every read is bounded.

The tree frame does not walk .git (an application's own bookkeeping: git rewrites its index, logs and objects as
it runs; verifiers/frame/tree.py), so this check is the frame for the refs: every other branch and tag is where it
was and no other one is made.
"""

from __future__ import annotations

import os
import re

from kit import bounded
from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.meaning import Meaning
from verifiers.readers import StateError

MAX_REFS = 5_000
SHA = re.compile(r"[0-9a-f]{40}")


def _small(state: State, path: str) -> str | None:
    host = state.path(path)
    if not host.is_file() or host.is_symlink():
        return None
    return bounded.read_file(host, 1 << 20).decode("utf-8", "replace")


def refs(state: State, repo: str) -> dict[str, str]:
    """refname -> commit id of every branch and tag (loose refs win over packed-refs)."""
    found: dict[str, str] = {}
    packed = _small(state, f"{repo}/.git/packed-refs") or ""
    for line in packed.splitlines()[:MAX_REFS]:
        parts = line.split(" ", 1)
        if len(parts) == 2 and SHA.fullmatch(parts[0]):
            found[parts[1].strip()] = parts[0]
    top = state.path(f"{repo}/.git/refs")
    if top.is_dir():
        seen = 0
        for folder, _dirs, files in os.walk(top, followlinks=False):
            for name in files:
                seen += 1
                if seen > MAX_REFS:
                    raise StateError(f"{repo}/.git/refs holds more than {MAX_REFS} refs")
                rel = os.path.relpath(os.path.join(folder, name), top).replace(os.sep, "/")
                text = _small(state, f"{repo}/.git/refs/{rel}")
                if text is not None and SHA.fullmatch(text.strip()):
                    found[f"refs/{rel}"] = text.strip()
    return {k: v for k, v in found.items() if k.startswith(("refs/heads/", "refs/tags/"))}


@primitive("git.branch_created", grounded=("name",), meaning=Meaning(action=r"branch|creat|check ?out|switch"))
def branch_created(state: State, repo: str, name: str, commit: str, checked_out: bool, head: str,
                   kept: dict[str, str]) -> Result:
    """In the git repository `repo`, the branch `name` points at `commit`; HEAD is on it when `checked_out`, else
    still on the branch `head`; every ref of `kept` (refname -> commit) is unchanged and no other branch or tag
    exists."""
    try:
        found = refs(state, repo)
        head_text = _small(state, f"{repo}/.git/HEAD")
    except (StateError, OSError, ValueError) as exc:
        return fail(f"{repo}: the repository cannot be read ({exc})")
    if head_text is None:
        return fail(f"{repo} is no longer a git repository (.git/HEAD is missing)")
    ref = f"refs/heads/{name}"
    if ref not in found:
        branches = sorted(r.removeprefix("refs/heads/") for r in found if r.startswith("refs/heads/"))
        return fail(f"{repo} has no branch {name!r} (branches: {', '.join(branches[:8])})")
    if found[ref] != commit:
        return fail(f"branch {name!r} points at {found[ref][:10]}, not at {commit[:10]} (the commit HEAD was on)")
    on = head_text.strip().removeprefix("ref:").strip() if head_text.startswith("ref:") else head_text.strip()
    want = ref if checked_out else f"refs/heads/{head}"
    if on != want:
        return fail(f"HEAD is on {on!r}, expected {want!r}" + ("" if checked_out else " (the branch is only made)"))
    moved = sorted(r for r, sha in kept.items() if found.get(r) != sha)
    extra = sorted(set(found) - set(kept) - {ref})
    if moved or extra:
        return fail(f"{repo}: " + "; ".join(([f"{', '.join(moved)} moved or deleted"] if moved else [])
                                           + ([f"other refs made: {', '.join(extra[:5])}"] if extra else [])))
    where = "and HEAD is on it" if checked_out else f"and HEAD stays on {head}"
    return ok(f"branch {name!r} points at {commit[:10]} {where}; the {len(kept)} other ref(s) are unchanged")
