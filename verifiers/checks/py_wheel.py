"""A Python distribution installed into the user site (~/.local/lib/python3.*/site-packages) and its command.

Installed means what Python and pip read: the distribution's `<name>-<version>.dist-info` folder in the user site
of some python3.X, with METADATA naming it and that version and a RECORD listing its files, and each of its module
files there with the wheel's bytes. pip's own additions (INSTALLER, REQUESTED, byte-code, RECORD lines for them)
are free. A command is a launcher in ~/.local/bin: an executable Python script that imports and calls the entry
point.
"""

from __future__ import annotations

import re

from kit import bounded
from kit.model import HOME
from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.checks.fs import guarded
from verifiers.meaning import Meaning
from verifiers.readers.tree import sha256_of

LIB = f"{HOME}/.local/lib"
MAX_PYTHONS = 20  # python3.X folders looked at


def _text(state: State, path: str) -> str | None:
    host = state.path(path)
    if not host.is_file():
        return None
    return bounded.read_file(host, 1 << 20).decode("utf-8", errors="replace")


def _sites(state: State) -> list[str]:
    lib = state.path(LIB)
    if not lib.is_dir():
        return []
    names = sorted(p.name for p in list(lib.iterdir())[:200] if re.fullmatch(r"python3\.\d+", p.name))
    return [f"{LIB}/{name}/site-packages" for name in names[:MAX_PYTHONS]]


def _tidy(state: State, folder: str) -> list[str]:
    """What pip never leaves in a folder it installs into: the folder made read-only (the next upgrade or uninstall
    fails), an empty folder in it (a half-made or stray directory)."""
    host = state.path(folder)
    if not host.is_dir():
        return []
    problems = [f"{folder} is read-only"] if not host.stat().st_mode & 0o200 else []
    for child in list(host.iterdir())[:5000]:
        if child.is_dir() and not child.is_symlink() and not any(True for _ in child.iterdir()):
            problems.append(f"{folder}/{child.name} is an empty folder")
    return problems


def _problems(state: State, site: str, dist_info: str, name: str, version: str, files: dict[str, str]) -> list[str]:
    meta = _text(state, f"{site}/{dist_info}/METADATA")
    if meta is None:
        return [f"{site}/{dist_info}/METADATA is missing"]
    fields = dict(re.findall(r"^(Name|Version):\s*(.+?)\s*$", meta.split("\n\n", 1)[0], re.MULTILINE))
    problems = []
    if fields.get("Name", "").lower().replace("-", "_") != name.lower().replace("-", "_"):
        problems.append(f"METADATA names {fields.get('Name')!r}, not {name!r}")
    if fields.get("Version") != version:
        problems.append(f"METADATA gives version {fields.get('Version')!r}, not {version!r}")
    record = _text(state, f"{site}/{dist_info}/RECORD")
    listed = {line.split(",", 1)[0] for line in (record or "").splitlines()[:10_000]}
    if record is None:
        problems.append("its RECORD is missing")
    for rel, digest in files.items():
        path = f"{site}/{rel}"
        host = state.path(path)
        if not host.is_file():
            problems.append(f"{rel} is not installed")
        elif sha256_of(host) != digest:
            problems.append(f"{rel} differs from the wheel's")
        elif record is not None and rel not in listed:
            problems.append(f"RECORD does not list {rel}")
    if not problems:
        folders = {site, f"{site}/{dist_info}", *(f"{site}/{rel}".rsplit("/", 1)[0] for rel in files)}
        problems = [p for folder in sorted(folders) for p in _tidy(state, folder)]
    return problems


@primitive("py.wheel_installed", grounded=("wheel",),
           meaning=Meaning(action=r"install|pip"))
@guarded
def wheel_installed(state: State, wheel: str, name: str, version: str, files: dict[str, str]) -> Result:
    """The distribution `name` `version` (from `wheel`) is installed in the user site of a python3.X: its
    .dist-info with METADATA and RECORD, and each of `files` ({path in site-packages: sha256}) with the wheel's
    bytes."""
    dist_info = f"{name.replace('-', '_')}-{version}.dist-info"
    sites = _sites(state)
    if not sites:
        return fail(f"no user site: {LIB} holds no python3.X folder")
    found = {site: _problems(state, site, dist_info, name, version, files) for site in sites}
    for site, problems in found.items():
        if not problems:
            return ok(f"{name} {version} is installed in {site} ({len(files)} files, METADATA and RECORD)")
    site, problems = min(found.items(), key=lambda item: len(item[1]))
    return fail(f"{name} {version} from {wheel} is not installed in the user site: in {site}, "
                f"{'; '.join(problems[:4])}")


@primitive("py.console_script", grounded=("command",),
           meaning=Meaning(action=r"command|run|terminal|install"))
@guarded
def console_script(state: State, command: str, entry: str) -> Result:
    """~/.local/bin/`command` is an executable Python launcher that imports and calls `entry` ("module:func")."""
    path = f"{HOME}/.local/bin/{command}"
    host = state.path(path)
    if not host.is_file():
        return fail(f"{path} does not exist")
    if not host.stat().st_mode & 0o100:
        return fail(f"{path} is not executable")
    if untidy := _tidy(state, f"{HOME}/.local/bin"):
        return fail("; ".join(untidy[:3]))
    text = bounded.read_file(host, 1 << 16).decode("utf-8", errors="replace")
    module, _, func = entry.partition(":")
    if not re.match(r"#!\S*python", text):
        return fail(f"{path} does not start with a python #! line")
    if not re.search(rf"^\s*from\s+{re.escape(module)}\s+import\s+{re.escape(func)}\b", text, re.MULTILINE) \
            or f"{func}()" not in text:
        return fail(f"{path} does not import and call {entry}")
    return ok(f"{path} launches {entry}")
