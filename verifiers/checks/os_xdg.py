"""XDG user directory primitives: ~/.config/user-dirs.dirs, where the desktop finds Downloads, Pictures, ...

The file holds lines `XDG_PICTURES_DIR="$HOME/Pictures"`; the format allows `"$HOME/<path>"` or an absolute
`"/<path>"` in double quotes, nothing else (`~` and relative paths are not expanded: the desktop falls back to the
home folder). A key set twice keeps its later value, as the shell that sources the file does. Comments are free.
"""

from __future__ import annotations

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.checks.fs import guarded
from verifiers.meaning import Meaning
from verifiers.readers.tree import read_text

HOME = "/home/user"


def parse_user_dirs(text: str) -> dict[str, str]:
    """{key: the folder it names, absolute; '' for a value the format does not allow} (the later line wins)."""
    dirs: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, value = (x.strip() for x in line.split("=", 1))
        if not (len(value) >= 2 and value[0] == value[-1] == '"'):
            dirs[key] = ""
            continue
        value = value[1:-1]
        if value == "$HOME" or value.startswith("$HOME/"):
            value = HOME + value[len("$HOME"):]
        dirs[key] = value.rstrip("/") if value.startswith("/") else ""
    return dirs


@primitive("xdg.user_dir", grounded=("path", "key", "folder"),
           meaning=Meaning(action=r"point|set|make|change|move|use|switch|relocat|updat|edit|live"))
@guarded
def user_dir(state: State, path: str, key: str, folder: str) -> Result:
    """In the user-dirs.dirs at `path`, `key` names `folder` (as "$HOME/..." or the absolute path)."""
    dirs = parse_user_dirs(read_text(state, path))
    if key not in dirs:
        return fail(f"{path} does not set {key}")
    if dirs[key] != folder.rstrip("/"):
        shown = dirs[key] or "a value the format does not allow (use \"$HOME/...\" or an absolute path)"
        return fail(f"{path}: {key} names {shown}, expected {folder}")
    return ok(f"{path}: {key} names {folder}")


@primitive("xdg.user_dirs_kept", grounded=("path",),
           meaning=Meaning(action=None, why="the other user folders, kept around the one the task moves"))
@guarded
def user_dirs_kept(state: State, path: str, dirs: dict[str, str]) -> Result:
    """Each of `dirs` ({key: absolute folder}) still names its folder."""
    have = parse_user_dirs(read_text(state, path))
    changed = [f"{key} = {have.get(key) or 'nothing usable'} (was {want})" for key, want in dirs.items()
               if have.get(key) != want]
    if changed:
        return fail(f"{path}: {len(changed)} other folder(s) changed: {'; '.join(changed[:4])}")
    return ok(f"{path}: the other {len(dirs)} user folders are as they were")
