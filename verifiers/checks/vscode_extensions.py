"""`vscode.extension_installed`: an extension is installed from a .vsix the way VS Code installs it
(vscode.install_vsix), read from ~/.vscode/extensions.

VS Code keeps each extension in `<publisher>.<name>-<version>/` (the package's `extension/` folder, unpacked) and
lists the installed ones in `extensions.json`, which is what it loads at start (a folder it does not list is
ignored). The folder is an application profile the tree frame does not walk (verifiers/frame/tree.py), so this
check is also its frame: the user's other extensions stay listed and on disk, nothing else is listed, and an
older version of the extension is no longer listed (VS Code removes its folder at once or at its next start).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from kit import bounded
from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.meaning import Meaning
from verifiers.readers import StateError
from verifiers.readers.json import load

MAX_LISTED = 2_000


def _digest(host: Path) -> str:
    return hashlib.sha256(bounded.read_file(host)).hexdigest()


def json_digest(data: Any) -> str:
    """The digest a JSON file of the package is compared by: its meaning, not its spacing."""
    return hashlib.sha256(json.dumps(data, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def _folders(state: State, extensions: str) -> dict[str, str]:
    """lower-cased name -> name of each folder in `extensions` (bounded)."""
    host = state.path(extensions)
    if not host.is_dir():
        raise StateError(f"{extensions} is not a folder")
    found: dict[str, str] = {}
    with os.scandir(host) as it:
        for n, entry in enumerate(it):
            if n > MAX_LISTED:
                raise StateError(f"{extensions} holds more than {MAX_LISTED} entries")
            if entry.is_dir(follow_symlinks=False):
                found[entry.name.lower()] = entry.name
    return found


def _listed(entries: Any) -> list[tuple[str, str, str]]:
    """(id lower-cased, version, folder) of each well-formed entry of extensions.json."""
    if not isinstance(entries, list):
        raise StateError("extensions.json is not a list")
    out = []
    for e in entries[:MAX_LISTED]:
        ident = e.get("identifier", {}).get("id") if isinstance(e, dict) and isinstance(e.get("identifier"),
                                                                                       dict) else None
        if not isinstance(ident, str):
            raise StateError(f"extensions.json has an entry without an identifier: {str(e)[:80]}")
        location = e.get("location") if isinstance(e.get("location"), dict) else {}
        where = e.get("relativeLocation") or str(location.get("fsPath") or location.get("path") or "").rsplit("/",
                                                                                                              1)[-1]
        out.append((ident.lower(), str(e.get("version", "")), str(where)))
    return out


@primitive("vscode.extension_installed", grounded=("vsix",), meaning=Meaning(action=r"install|add|set up"))
def extension_installed(state: State, vsix: str, extensions: str, id: str, version: str, manifest: dict[str, Any],
                        files: dict[str, str], kept: list[list[str]], old_version: str | None = None) -> Result:
    """The extension `id` `version` of the package `vsix` is installed in the extensions folder `extensions`: its
    folder `<id>-<version>` holds its package.json (`manifest` by JSON meaning; VS Code may add its `__metadata`) and
    each of `files` (relative path -> sha256 of the package's bytes, of `json_digest` for a .json), extensions.json
    lists it once and at that folder, every extension of `kept` ([id, version]) is still listed and on disk, nothing
    else is listed, and `old_version` (an older version it replaces) is no longer listed."""
    try:
        folders = _folders(state, extensions)
        listed = _listed(load(state, f"{extensions}/extensions.json"))
    except StateError as exc:
        return fail(f"{extensions}: {exc}")
    folder = f"{id}-{version}"
    if folder.lower() not in folders:
        return fail(f"{extensions} has no folder {folder} (folders: {', '.join(sorted(folders.values())[:8])})")
    actual = folders[folder.lower()]
    problems = []
    try:
        package = load(state, f"{extensions}/{actual}/package.json")
        if not isinstance(package, dict) or {k: v for k, v in package.items() if k != "__metadata"} != manifest:
            problems.append("package.json differs from the package's")
    except StateError as exc:
        problems.append(f"package.json: {exc}")
    for rel, want in sorted(files.items()):
        try:
            where = f"{extensions}/{actual}/{rel}"
            got = json_digest(load(state, where)) if rel.endswith(".json") else state.read(where, _digest, "file")
        except StateError as exc:
            problems.append(f"{rel}: {exc}")
            continue
        if got != want:
            problems.append(f"{rel} differs from the package's")
    if problems:
        return fail(f"{extensions}/{actual} is not the unpacked extension: {'; '.join(problems[:4])}")
    mine = [(v, where) for ident, v, where in listed if ident == id.lower()]
    if [v for v, _ in mine] != [version]:
        return fail(f"extensions.json lists {id} as version(s) {[v for v, _ in mine] or 'none'}, expected {version} "
                    "once" + (f" (replacing {old_version})" if old_version else ""))
    if mine[0][1].lower() != folder.lower():
        return fail(f"extensions.json lists {id} {version} at {mine[0][1]!r}, not at its folder {folder}")
    others = {(ident, v) for ident, v, _ in listed if ident != id.lower()}
    want_kept = {(k.lower(), v) for k, v in kept}
    if others != want_kept:
        lost = sorted(want_kept - others)
        extra = sorted(others - want_kept)
        return fail(f"extensions.json: {'no longer lists ' + str(lost) if lost else ''}"
                    f"{'; ' if lost and extra else ''}{'also lists ' + str(extra) if extra else ''}")
    gone = [f"{k}-{v}" for k, v in kept if f"{k}-{v}".lower() not in folders]
    if gone:
        return fail(f"{extensions}: the folders of the other extensions are gone: {', '.join(gone)}")
    return ok(f"{id} {version} is unpacked in {extensions}/{actual} and listed in extensions.json"
              + (f" in place of {old_version}" if old_version else "") + f"; the {len(kept)} other extension(s) stay")
