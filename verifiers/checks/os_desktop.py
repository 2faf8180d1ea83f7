"""Desktop option primitives: default applications in an XDG `mimeapps.list` (~/.config/mimeapps.list).

The file is read the way GLib reads a keyfile, so whatever a desktop would obey passes: a section header that
appears twice continues the same section, a key set twice keeps its last value, spacing around '=' is free, and
a value is a list of desktop ids separated by ';' (a trailing ';' or none). The default application for a MIME
type is, as the XDG MIME Applications spec says, the first id of its `[Default Applications]` entry, or when it has
none, the first id of its `[Added Associations]` entry that `[Removed Associations]` does not remove (every listed
application counts as installed). A file that is not UTF-8 text, or is too large, fails the check.
"""

from __future__ import annotations

from typing import Any

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.meaning import Meaning
from verifiers.readers.tree import read_text

DEFAULTS = "Default Applications"
ADDED = "Added Associations"
REMOVED = "Removed Associations"
SECTIONS = (DEFAULTS, ADDED, REMOVED)


def parse_mimeapps(text: str) -> dict[str, dict[str, list[str]]]:
    """{section: {mime type: [desktop ids]}} for the three association sections (others are dropped)."""
    model: dict[str, dict[str, list[str]]] = {s: {} for s in SECTIONS}
    section = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip()
            continue
        if "=" not in line or section not in model:
            continue
        key, value = line.split("=", 1)
        model[section][key.strip()] = [x.strip() for x in value.split(";") if x.strip()]
    return model


def default_for(model: dict[str, dict[str, list[str]]], mime: str) -> str:
    """The desktop id the desktop opens `mime` with ('' when none)."""
    if model[DEFAULTS].get(mime):
        return model[DEFAULTS][mime][0]
    removed = set(model[REMOVED].get(mime, []))
    return next((a for a in model[ADDED].get(mime, []) if a not in removed), "")


def _read(state: State, path: str) -> dict[str, dict[str, list[str]]]:
    try:
        return parse_mimeapps(read_text(state, path))
    except (UnicodeDecodeError, ValueError) as exc:
        raise _Unreadable(f"{path} cannot be read as a keyfile: {exc}") from exc


class _Unreadable(Exception):
    pass


@primitive("desktop.mime_default", grounded=("path", "mimes", "app"),
           meaning=Meaning(action=r"default|open with|opens? (?:with|in)|associat"))
def mime_default(state: State, path: str, mimes: list[str], app: str) -> Result:
    """In the mimeapps.list at `path`, the default application of every MIME type of `mimes` is `app` (a desktop
    id such as gimp.desktop)."""
    try:
        model = _read(state, path)
    except _Unreadable as exc:
        return fail(str(exc))
    wrong = [f"{m} opens with {default_for(model, m) or 'no application'}" for m in mimes
             if default_for(model, m) != app]
    if wrong:
        return fail(f"{path}: {len(wrong)} of {len(mimes)} type(s) do not default to {app}: {'; '.join(wrong[:4])}")
    return ok(f"{path}: {', '.join(mimes)} default to {app}")


@primitive("desktop.mimeapps_kept", grounded=("path",),
           meaning=Meaning(action=None, why="every other association in the file, kept around the asked default"))
def mimeapps_kept(state: State, path: str, entries: dict[str, dict[str, list[str]]], mimes: list[str],
                  app: str) -> Result:
    """The mimeapps.list at `path` holds the associations `entries` ({section: {mime: [ids]}}) for every MIME type
    not in `mimes`, in their order. For the asked `mimes` the default entry is the goal check's question, and their
    added associations keep every id they had (setting a default with `gio mime` or a file manager also adds `app`
    there, in any place; nothing else)."""
    try:
        model = _read(state, path)
    except _Unreadable as exc:
        return fail(str(exc))
    problems = []
    for section in SECTIONS:
        have, want = model[section], entries.get(section, {})
        for mime in sorted(set(have) | set(want)):
            got, should = have.get(mime, []), want.get(mime, [])
            if mime in mimes:
                if section == DEFAULTS:
                    continue
                extra = [a for a in got if a not in should and a != app]
                lost = [a for a in should if a not in got]
                if section == REMOVED and app in got and app not in should:
                    extra.append(app)
                if extra or lost:
                    problems.append(f"[{section}] {mime} = {';'.join(got)} (had {';'.join(should) or 'nothing'})")
            elif got != should:
                now = ";".join(got) if got else "nothing"
                problems.append(f"[{section}] {mime} = {now}, expected {';'.join(should) or 'nothing'}")
    if problems:
        return fail(f"{path}: {len(problems)} association(s) changed that the task leaves: {'; '.join(problems[:4])}")
    count = sum(len(v) for v in entries.values())
    return ok(f"{path}: the other associations ({count} entries) are as they were")


def mimeapps_text(model: dict[str, Any]) -> str:
    """The file a desktop writes for `model` ({section: {mime: [ids]}}), sections in the usual order."""
    parts = []
    for section in SECTIONS:
        keys = model.get(section) or {}
        if keys:
            trail = "" if section == DEFAULTS else ";"
            parts.append(f"[{section}]\n" + "".join(f"{m}={';'.join(ids)}{trail}\n" for m, ids in keys.items()))
    return "\n".join(parts)
