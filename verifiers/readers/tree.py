"""The file-tree reader: entries under /home/user looked at as themselves (a link is a link), text files, config
files (ini / conf / .env), folder listings and archives (zip, tar and compressed tars, within the limits of
`kit.bounded`), for the `fs.*` checks (`verifiers.checks.fs`), and the text or docx reports the `multi.*` checks
read numbers from.

Paths are absolute under /home/user and resolved inside the state root (`Source.path`), which refuses links that
lead out; a path's last component is not followed where that matters (`entry`).
"""

from __future__ import annotations

import hashlib
import io
import os
import tarfile
import zipfile
from pathlib import Path

from kit import bounded
from kit.model import HOME
from verifiers.readers import Source, StateError
from verifiers.readers import docx as docxc

# --- entries and text ---------------------------------------------------------------------------------

#: Archive bytes read per member at most (a corrupt or hostile archive must not exhaust memory).
MAX_MEMBER_BYTES = 64 * 1024 * 1024


def entry(state: Source, path: str) -> Path:
    """Host path of `path` with its folder resolved in the root but its last component not followed."""
    if path == HOME:
        return state.path(path)
    parent, name = path.rstrip("/").rsplit("/", 1)
    if name in ("", ".", ".."):
        raise StateError(f"path {path!r} must name a file or folder")
    return state.path(parent or HOME) / name


def lexists(host: Path) -> bool:
    return host.exists() or host.is_symlink()


def describe(host: Path) -> str:
    if host.is_symlink():
        return f"a symlink to {os.readlink(host)!r}"
    return "a folder" if host.is_dir() else "a file" if host.is_file() else "something else"


def _text(host: Path) -> str:
    return bounded.read_file(host).decode("utf-8")


def read_text(state: Source, path: str) -> str:
    """The UTF-8 text of the file at `path` (links inside the root followed); StateError if missing or binary."""
    return state.read(path, _text, "UTF-8 text file")


# --- content, config files ----------------------------------------------------------------------------

def sha256_of(host: Path) -> str:
    return hashlib.sha256(bounded.read_file(host)).hexdigest()


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def parse_config(text: str) -> dict[str, dict[str, list[str]]]:
    """ini / conf / .env text -> {section ("" before any header): {key: [values, in order]}}.

    Comment lines (# or ;) and blank lines are skipped; `export KEY=v` counts as KEY; a repeated key keeps
    every value so a check can tell a replaced line from a duplicated one."""
    sections: dict[str, dict[str, list[str]]] = {"": {}}
    current = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            current = line[1:-1].strip()
            sections.setdefault(current, {})
            continue
        if "=" not in line:
            continue
        key, value = line.split("=", 1)
        key = key.strip().removeprefix("export ").strip()
        sections[current].setdefault(key, []).append(_unquote(value))
    return sections


def read_config(state: Source, path: str) -> dict[str, dict[str, list[str]]]:
    return parse_config(read_text(state, path))


# --- folders and archives -----------------------------------------------------------------------------

def listing(folder: Path, recursive: bool) -> dict[str, Path]:
    """name -> host; recursive: relative paths of every non-folder entry (links listed, never entered)."""
    if not recursive:
        return {p.name: p for p in folder.iterdir()}
    return {e.rel: folder / e.rel for e in bounded.walk(folder) if not e.is_dir}


def _decompress(data: bytes) -> bytes:
    """Undo gzip / bzip2 / xz by magic bytes, with the limits of `kit.bounded`; anything else is returned as is."""
    return bounded.decompress(data)


def read_archive(host: Path) -> tuple[str, dict[str, str]]:
    """(format detected from the bytes, {file member name: sha256}); folders are left out."""
    data = bounded.read_file(host)
    if data[:4] in (b"PK\x03\x04", b"PK\x05\x06"):
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            bounded.check_zip_members(zf.infolist())
            return "zip", {i.filename: hashlib.sha256(zf.read(i)).hexdigest() for i in zf.infolist()
                           if not i.is_dir() and i.file_size <= MAX_MEMBER_BYTES}
    compression = {b"\x1f\x8b": "tar.gz", b"BZ": "tar.bz2", b"\xfd7": "tar.xz"}.get(data[:2], "tar")
    members = {}
    with tarfile.open(fileobj=io.BytesIO(_decompress(data))) as tar:
        bounded.check_tar(tar)
        for info in tar.getmembers():
            if info.isdir():
                continue
            stream = tar.extractfile(info) if info.isreg() and info.size <= MAX_MEMBER_BYTES else None
            members[info.name] = hashlib.sha256(stream.read()).hexdigest() if stream else ""
    return compression, members


# --- reports (a text or docx file's lines) ------------------------------------------------------------

def _report_text(host: Path) -> str:
    return host.read_bytes().decode("utf-8-sig")


def report_lines(state: Source, path: str) -> list[str]:
    if path.lower().endswith(".docx"):
        return docxc.body_paragraphs(docxc.load(state, path))
    return [" ".join(line.split()) for line in state.read(path, _report_text, "UTF-8 text file").splitlines()]


def text_lines(path: str, data: bytes) -> list[str]:
    """The non-empty paragraphs (docx) or lines (text) of a file's bytes, whitespace collapsed, as the checks
    read them: what a family stores for `number_in_text(others=...)`."""
    if path.lower().endswith(".docx"):
        lines = docxc.body_paragraphs(docxc.from_bytes(data))
    else:
        lines = [" ".join(line.split()) for line in data.decode("utf-8-sig").splitlines()]
    return [line for line in lines if line]
