"""File-tree ops as the shell lines a person types (coreutils, tar, python's zipfile module)."""

from __future__ import annotations

import shlex

from preparers.ops.fs import parse_mode
from preparers.teach import HOME, Language, language, q, snippet

language(Language("fs", shell=True))


def _parent(path: str) -> str:
    return path.rstrip("/").rsplit("/", 1)[0] or HOME


def _mkparent(path: str) -> str:
    parent = _parent(path)
    return "" if parent == HOME else f"mkdir -p {q(parent)} && "


@snippet("fs.move")
def move(path: str, dest: str) -> str:
    return f"{_mkparent(dest)}mv {q(path)} {q(dest)}"


@snippet("fs.copy")
def copy(path: str, dest: str) -> str:
    return f"{_mkparent(dest)}cp -a {q(path)} {q(dest)}"


@snippet("fs.rename")
def rename(path: str, name: str) -> str:
    return f"mv {q(path)} {q(_parent(path) + '/' + name)}"


@snippet("fs.delete")
def delete(path: str) -> str:
    return f"rm -rf {q(path)}"


@snippet("fs.mkdir")
def mkdir(path: str) -> str:
    return f"mkdir -p {q(path)}"


@snippet("fs.chmod")
def chmod(path: str, mode: str | int, recursive: bool = False) -> str:
    return f"chmod {'-R ' if recursive else ''}{parse_mode(mode):o} {q(path)}"


@snippet("fs.symlink")
def symlink(path: str, target: str) -> str:
    return f"{_mkparent(path)}ln -s {shlex.quote(target)} {q(path)}"


def _heredoc(text: str) -> str:
    """`text` as a quoted heredoc body; a text that does not end with a newline is written with printf."""
    if text.endswith("\n") and "\nEOF\n" not in "\n" + text:
        return f"<<'EOF'\n{text}EOF"
    return ""


@snippet("fs.write_text")
def write_text(path: str, text: str) -> str:
    body = _heredoc(text)
    if body:
        return f"{_mkparent(path)}cat > {q(path)} {body}"
    return f"{_mkparent(path)}printf '%s' {shlex.quote(text)} > {q(path)}"


@snippet("fs.append_text")
def append_text(path: str, text: str) -> str:
    body = _heredoc(text)
    if body:
        return f"{_mkparent(path)}cat >> {q(path)} {body}"
    return f"{_mkparent(path)}printf '%s' {shlex.quote(text)} >> {q(path)}"


@snippet("fs.replace_in_file")
def replace_in_file(path: str, old: str, new: str, count: int = 0) -> str:
    limit = f", {count}" if count > 0 else ""
    return ("python3 - <<'PY'\nfrom pathlib import Path\n"
            f"p = Path({path!r})\np.write_text(p.read_text().replace({old!r}, {new!r}{limit}))\nPY")


def _members(members: list[str], base: str) -> str:
    base = base.rstrip("/")
    return " ".join(shlex.quote(m[len(base) + 1:] or m.rsplit("/", 1)[-1]) for m in members)


@snippet("fs.tar_create")
def tar_create(path: str, members: list[str], base: str, compression: str = "gz") -> str:
    flag = {"gz": "z", "bz2": "j", "xz": "J", "": ""}[compression]
    return f"{_mkparent(path)}tar -c{flag}f {q(path)} -C {q(base.rstrip('/') or HOME)} {_members(members, base)}"


@snippet("fs.zip_create")
def zip_create(path: str, members: list[str], base: str) -> str:
    return (f"{_mkparent(path)}(cd {q(base.rstrip('/') or HOME)} && python3 -m zipfile -c {q(path)} "
            f"{_members(members, base)})")


@snippet("fs.extract")
def extract(path: str, dest: str, members: list[str] | None = None) -> str:
    names = " ".join(shlex.quote(m) for m in members or [])
    out = q(dest.rstrip("/") or HOME)
    if path.endswith(".zip"):
        if members:
            return (f"mkdir -p {out} && python3 - <<'PY'\nimport zipfile\n"
                    f"zipfile.ZipFile({path!r}).extractall({dest!r}, members={list(members)!r})\nPY")
        return f"mkdir -p {out} && python3 -m zipfile -e {q(path)} {out}"
    return f"mkdir -p {out} && tar -xf {q(path)} -C {out}{' ' + names if names else ''}"
