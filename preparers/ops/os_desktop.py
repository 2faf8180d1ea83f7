"""Desktop option ops (fs document kind): set the default application of MIME types in an XDG mimeapps.list.

`fs.mime_default` edits the file in place, line by line, as a person with an editor would: an existing entry of the
type in the section gets the new value, a missing one is added at the end of the section (the section is added at
the end of the file when missing); comments and every other line stay. In `[Default Applications]` the value is the
desktop id alone (what `gio mime` writes); in `[Added Associations]` the id is put `first` or `last` in the type's
list (a near-miss: an association that is no default).
"""

from __future__ import annotations

from kit import bounded
from preparers.ops import op
from preparers.ops.fs import FsHandle, _need, _write


def _value(section: str, old: str, app: str, place: str) -> str:
    if section == "Default Applications":
        return app
    ids = [x.strip() for x in old.split(";") if x.strip() and x.strip() != app]
    ids = [app, *ids] if place == "first" else [*ids, app]
    return ";".join(ids) + ";"


@op("fs.mime_default")
def mime_default(h: FsHandle, mimes: list[str], app: str, section: str = "Default Applications",
                 place: str = "first") -> None:
    """Make `app` (a desktop id) the entry of each MIME type of `mimes` in `[section]` of the mimeapps.list at
    `path` (see the module doc)."""
    _need(h.host)
    lines = bounded.read_file(h.host).decode("utf-8").splitlines()
    todo = list(mimes)
    current, end = "", None  # end: the index after the last non-blank line of the wanted section
    for i, raw in enumerate(lines):
        line = raw.strip()
        if line.startswith("[") and line.endswith("]"):
            current = line[1:-1].strip()
            continue
        if current != section or not line or line[0] in "#;":
            continue
        end = i + 1
        key, eq, old = line.partition("=")
        if eq and key.strip() in todo:
            lines[i] = f"{key.strip()}={_value(section, old, app, place)}"
            todo.remove(key.strip())
    added = [f"{m}={_value(section, '', app, place)}" for m in todo]
    if end is None:
        lines = [*lines, *([""] if lines and lines[-1].strip() else []), f"[{section}]", *added]
    else:
        lines[end:end] = added
    _write(h.host, ("\n".join(lines) + "\n").encode("utf-8"))
