"""Trash primitives: items restored from the freedesktop Trash (~/.local/share/Trash) to where they were deleted from.

The Trash keeps each deleted item under `files/<name>` and a `info/<name>.trashinfo` keyfile whose `Path=` holds
the item's original path, percent-encoded (a space is `%20`); a second item of one name gets a counter
(`report.2.pdf`). A restore puts the item back at that path and removes both Trash entries, as a file manager's
"Restore" does. `trash.restored` reads the restored items (a file with its bytes, a folder with its files);
`trash.holds` reads what the Trash still holds (the tree frame lets the Trash change, as a deletion does, so which
items a restore takes out is asked here).
"""

from __future__ import annotations

import stat
from typing import Any
from urllib.parse import quote

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.checks.fs import guarded
from verifiers.meaning import Meaning, Seen, Visible
from verifiers.readers.tree import entry, sha256_of

TRASH = "/home/user/.local/share/Trash"


def encoded(path: str) -> str:
    """`path` as a .trashinfo's Path= writes it."""
    return quote(path, safe="/")


def original_paths(value: Any, seen: Seen) -> str | None:
    """Each original path is stated, or visible as the Trash records it (percent-encoded, in a .trashinfo)."""
    for path in value if isinstance(value, list) else [value]:
        if not isinstance(path, str) or not (seen(path) or seen(encoded(path))):
            return f"the original path {path!r} is neither stated nor recorded in the Trash"
    return None


@primitive("trash.restored", grounded=("names", "paths"),
           meaning=Meaning(action=r"restor|recover|undelet|(?:put|bring)\b[^;\n]{0,120}?\bback\b|undo",
                           args={"paths": Visible(original_paths)}))
@guarded
def restored(state: State, names: list[str], paths: list[str], contents: dict[str, str]) -> Result:
    """Each item of `paths` (the original paths of the items called `names`) is back where it was deleted from, with
    its bytes: every file of `contents` ({absolute path: sha256}, a restored folder's files included) is there."""
    problems = []
    missing = [p for p in paths if not entry(state, p).exists() or entry(state, p).is_symlink()]
    problems += [f"{path} is not there" for path in missing]
    for path, digest in sorted(contents.items()):
        if path in missing:
            continue
        host = entry(state, path)
        if not host.exists() or host.is_symlink() or not stat.S_ISREG(host.lstat().st_mode):
            problems.append(f"{path} is missing")
        elif sha256_of(host) != digest:
            problems.append(f"{path} does not hold the deleted file's content")
    if problems:
        return fail(f"{len(problems)} problem(s) restoring {', '.join(names)}: {'; '.join(problems[:4])}")
    return ok(f"{', '.join(names)} restored to {', '.join(paths)} ({len(contents)} file(s) with their content)")


@primitive("trash.holds", grounded=(),
           meaning=Meaning(action=None, why="what the Trash keeps: the tree frame lets the Trash change as a "
                                            "deletion does, so the items a restore must take out are checked here"))
@guarded
def holds(state: State, files: dict[str, str], info: dict[str, str]) -> Result:
    """The Trash's `files/` holds exactly the entries `files` and its `info/` exactly `info` ({name: sha256 of a
    file's bytes, "" for a folder}), each as it was."""
    problems = []
    for folder, want in (("files", files), ("info", info)):
        host = state.path(f"{TRASH}/{folder}")
        have = {p.name: p for p in host.iterdir()} if host.is_dir() and not host.is_symlink() else {}
        if extra := sorted(set(have) - set(want)):
            problems.append(f"Trash/{folder} still holds {', '.join(extra[:4])}")
        if gone := sorted(set(want) - set(have)):
            problems.append(f"Trash/{folder} lost {', '.join(gone[:4])}, which the task leaves in the Trash")
        for name in sorted(set(want) & set(have)):
            entry_ = have[name]
            kind_ok = entry_.is_dir() if not want[name] else entry_.is_file()
            if entry_.is_symlink() or not kind_ok or (want[name] and sha256_of(entry_) != want[name]):
                problems.append(f"Trash/{folder}/{name} is not as it was")
    if problems:
        return fail("; ".join(problems[:6]))
    return ok(f"the Trash holds exactly its other {len(files)} item(s) and their {len(info)} info file(s), "
              "as they were")
