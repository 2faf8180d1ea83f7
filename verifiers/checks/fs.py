"""fs primitives: files, folders, modes, links, text, config values and archives under /home/user.

Paths are absolute under /home/user and resolved inside the state root (`state.path`), which refuses links
that lead out. A path's last component is looked at *as itself* where that matters (`fs.symlink_to`,
`fs.exists`/`fs.absent`, listings): a link is a link, not its target. Content checks follow links inside the root.

What the real tools produce is accepted: text compares ignore trailing whitespace and the final newline;
config values ignore spacing around '=' and matching quotes; archive members may carry one leading folder
(`tar czf a.tgz site/`, `zip -r a.zip /home/user/x` store `site/...` and `home/user/x/...`); modes are octal
strings ("600") as an instruction states them. Derived values (listings, hashes) are plain args; computed
answers a student must find (`fs.answer_equals`) are `secret`. Entries, text, config files, listings and archives
are read by `verifiers.readers.tree`.
"""

from __future__ import annotations

import functools
import os
import posixpath
import stat
from collections.abc import Callable
from typing import Any

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.meaning import Meaning, ReadBack, Said
from verifiers.readers.tree import (
    describe,
    entry,
    lexists,
    listing,
    read_archive,
    read_config,
    read_text,
    sha256_of,
)


def guarded(fn: Callable[..., Result]) -> Callable[..., Result]:
    """Turn an OS error while looking at the state (e.g. a folder the student made unreadable) into a fail."""
    @functools.wraps(fn)
    def wrapper(state: State, *args: Any, **kwargs: Any) -> Result:
        try:
            return fn(state, *args, **kwargs)
        except OSError as exc:
            return fail(f"cannot inspect {kwargs.get('path', args[:1])}: {type(exc).__name__}: {exc.strerror or exc}")
    return wrapper


def _lines(text: str) -> list[str]:
    """Lines with trailing whitespace removed, and trailing blank lines dropped."""
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _mode(mode: str) -> int:
    return int(mode, 8)


def _show(value: int) -> str:
    return f"{value:03o}"


# --- existence, kind, mode --------------------------------------------------------------------------

@primitive("fs.exists", grounded=("path",), meaning=Meaning(action=r"creat|make|add|save|copy|move|rename|extract|new"))
@guarded
def exists(state: State, path: str, kind: str = "any") -> Result:
    """Something exists at `path`; `kind` "file" (regular, not a link), "dir" (not a link) or "any"."""
    host = entry(state, path)
    if not lexists(host):
        return fail(f"{path} does not exist")
    found = describe(host)
    wanted = {"file": "a file", "dir": "a folder"}.get(kind, found)
    if found != wanted:
        return fail(f"{path} is {found}, expected {wanted}")
    return ok(f"{path} exists ({found})")


@primitive("fs.is_dir", grounded=("path",), meaning=Meaning(action=r"folder|director|creat|make"))
@guarded
def is_dir(state: State, path: str) -> Result:
    """`path` is a folder (not a link to one): `fs.exists` with kind "dir"."""
    return exists(state, path, kind="dir")


@primitive("fs.absent", grounded=("path",), meaning=Meaning(action=r"delet|remov|clean|trash|eras|move|rename|get rid"))
@guarded
def absent(state: State, path: str) -> Result:
    """Nothing (no file, folder or link) exists at `path`."""
    host = entry(state, path)
    if lexists(host):
        return fail(f"{path} still exists ({describe(host)})")
    return ok(f"{path} does not exist")


@primitive("fs.file_mode", grounded=("path", "mode"),
           meaning=Meaning(action=r"permission|mode|executable|chmod|private|read-only"))
@guarded
def file_mode(state: State, path: str, mode: str) -> Result:
    """The permission bits of the file or folder at `path` (links followed) are exactly `mode` (octal, "600")."""
    host = state.path(path)
    if not host.exists():
        return fail(f"{path} does not exist")
    actual = stat.S_IMODE(host.stat().st_mode)
    if actual != _mode(mode):
        return fail(f"{path} has mode {_show(actual)}, expected {mode}")
    return ok(f"{path} has mode {mode}")


@primitive("fs.mode_bits", grounded=("path", "require"),
           meaning=Meaning(action=r"permission|mode|executable|chmod|private|read-only",
                           args={"require": ReadBack("'mode 755', 'rwxr-x---'")}))
@guarded
def mode_bits(state: State, path: str, require: str = "0", forbid: str = "0") -> Result:
    """The permission bits of `path` include every bit of `require` and none of `forbid` (octal strings), e.g.
    require "500" = the owner can read and execute (what `chmod +x` and `chmod u+x` both give)."""
    host = state.path(path)
    if not host.exists():
        return fail(f"{path} does not exist")
    actual = stat.S_IMODE(host.stat().st_mode)
    missing, extra = _mode(require) & ~actual, actual & _mode(forbid)
    if missing or extra:
        return fail(f"{path} has mode {_show(actual)}: " + ", ".join(
            part for part in (f"bits {_show(missing)} missing" if missing else "",
                              f"bits {_show(extra)} must be clear" if extra else "") if part))
    return ok(f"{path} has mode {_show(actual)} (requires {require}, forbids {forbid})")


@primitive("fs.dir_modes", grounded=("path", "modes"),
           meaning=Meaning(action=r"permission|mode|executable|chmod|private|read-only",
                           args={"modes": ReadBack("'mode 755', 'rwxr-x---'")}))
@guarded
def dir_modes(state: State, path: str, modes: dict[str, str]) -> Result:
    """Each named entry of the folder `path` has the given permission bits: {name: "644"} exactly, or
    {name: "+500"} at least those bits (e.g. owner read + execute, whatever `chmod +x` or `u+x` gave)."""
    folder = state.path(path)
    if not folder.is_dir():
        return fail(f"{path} is not a folder")
    wrong = []
    for name, mode in sorted(modes.items()):
        if "/" in name or name in ("", ".", ".."):  # an entry of this folder, never a path elsewhere
            wrong.append(f"{name!r} is not a plain entry name")
            continue
        host = state.path(f"{path.rstrip('/')}/{name}")  # a link is followed inside the root only
        if not host.exists():
            wrong.append(f"{name} is missing")
            continue
        actual = stat.S_IMODE(host.stat().st_mode)
        if mode.startswith("+") and _mode(mode[1:]) & ~actual:
            wrong.append(f"{name} has mode {_show(actual)}, which lacks bits {mode[1:]}")
        elif not mode.startswith("+") and actual != _mode(mode):
            wrong.append(f"{name} has mode {_show(actual)}, expected {mode}")
    if wrong:
        return fail(f"in {path}: " + "; ".join(wrong))
    return ok(f"all {len(modes)} entries of {path} have the expected modes")


# --- links ----------------------------------------------------------------------------------------

@primitive("fs.symlink_to", grounded=("path", "target"), meaning=Meaning(action=r"link|symlink|symbolic"))
@guarded
def symlink_to(state: State, path: str, target: str) -> Result:
    """`path` is a symbolic link that points (absolutely or relatively) at `target`, which exists."""
    host = entry(state, path)
    if not host.is_symlink():
        return fail(f"{path} is not a symlink ({describe(host)})" if lexists(host) else f"{path} does not exist")
    raw = os.readlink(host)
    logical = posixpath.normpath(raw if raw.startswith("/") else posixpath.join(posixpath.dirname(path), raw))
    if logical != posixpath.normpath(target):
        return fail(f"{path} points to {raw!r} (= {logical}), expected {target}")
    if not lexists(entry(state, target)):
        return fail(f"{path} points to {target}, but {target} does not exist")
    return ok(f"{path} -> {raw!r}")


# --- content --------------------------------------------------------------------------------------

@primitive("fs.same_content", grounded=("path",),
           meaning=Meaning(action=None,
                           why="bytes as they were or as their source's: a kept original, or a copy beside the goal"))
@guarded
def same_content(state: State, path: str, sha256: str) -> Result:
    """`path` is a regular file (not a link) whose bytes have this sha256 (e.g. the original asset's)."""
    host = entry(state, path)
    if not host.is_file() or host.is_symlink():
        return fail(f"{path} is {describe(host)}, expected a file" if lexists(host) else f"{path} does not exist")
    if sha256_of(host) != sha256:
        # neither the digest it has nor its size: an app's save stamps the time into a file (openpyxl's core.xml,
        # every zip entry), and evidence must not change with the clock
        return fail(f"{path} has different content (not the expected sha256 {sha256[:12]})")
    return ok(f"{path} has the expected content")


@primitive("fs.text_equals", grounded=("path", "text"),
           meaning=Meaning(action=r"write|type|put|save|enter|replace|change"))
@guarded
def text_equals(state: State, path: str, text: str) -> Result:
    """The text file at `path` holds exactly `text` (trailing whitespace and final newlines ignored)."""
    actual = read_text(state, path)
    if _lines(actual) != _lines(text):
        return fail(f"{path} holds {actual[:200]!r}, expected {text!r}")
    return ok(f"{path} holds the expected text")


@primitive("fs.text_contains", grounded=("path", "text"),
           meaning=Meaning(action=r"write|add|append|type|put|save|insert|enter"))
@guarded
def text_contains(state: State, path: str, text: str) -> Result:
    """The text file at `path` contains `text` somewhere."""
    if text not in read_text(state, path):
        return fail(f"{path} does not contain {text!r}")
    return ok(f"{path} contains {text!r}")


@primitive("fs.line_present", grounded=("path", "line"), meaning=Meaning(action=r"append|add|insert|replac|line"))
@guarded
def line_present(state: State, path: str, line: str) -> Result:
    """Some line of the text file at `path` is exactly `line` (surrounding whitespace ignored)."""
    if line.strip() not in {x.strip() for x in read_text(state, path).splitlines()}:
        return fail(f"{path} has no line {line!r}")
    return ok(f"{path} has the line {line!r}")


@primitive("fs.line_absent", grounded=("path", "line"), meaning=Meaning(action=r"remov|delet|replac|line"))
@guarded
def line_absent(state: State, path: str, line: str) -> Result:
    """No line of the text file at `path` is `line` (surrounding whitespace ignored)."""
    hits = [i for i, x in enumerate(read_text(state, path).splitlines(), start=1) if x.strip() == line.strip()]
    if hits:
        return fail(f"{path} still has the line {line!r} (line {hits[0]})")
    return ok(f"{path} has no line {line!r}")


@primitive("fs.lines_equal", grounded=("path",),
           meaning=Meaning(action=r"edit|change|update|append|add|remov|delet|replac|line"))
@guarded
def lines_equal(state: State, path: str, lines: list[str]) -> Result:
    """The file's lines are exactly `lines`, in order (trailing whitespace and trailing blank lines ignored)."""
    actual = _lines(read_text(state, path))
    want = _lines("\n".join(lines))
    if actual != want:
        diff = next((i for i, (a, b) in enumerate(zip(actual, want, strict=False)) if a != b), min(len(actual),
                                                                                                   len(want)))
        got = actual[diff] if diff < len(actual) else "<end of file>"
        exp = want[diff] if diff < len(want) else "<end of file>"
        return fail(f"{path} differs at line {diff + 1}: {got!r}, expected {exp!r} "
                    f"({len(actual)} lines, expected {len(want)})")
    return ok(f"{path} has the expected {len(want)} lines")


@primitive("fs.line_count", grounded=("path",), meaning=Meaning(action=r"line"))
@guarded
def line_count(state: State, path: str, count: int) -> Result:
    """The text file at `path` has `count` lines (trailing blank lines not counted)."""
    actual = len(_lines(read_text(state, path)))
    if actual != count:
        return fail(f"{path} has {actual} lines, expected {count}")
    return ok(f"{path} has {count} lines")


@primitive("fs.answer_equals", grounded=("path",), secret=("answer",),
           meaning=Meaning(action=r"count|how many|number|write|answer|find|total|size|which|list|contain|name"))
@guarded
def answer_equals(state: State, path: str, answer: int | str | list[str]) -> Result:
    """The file at `path` holds the computed `answer`: a number or text (whitespace around it ignored), or a list
    (one item per line, in order, blank lines ignored)."""
    text = read_text(state, path)
    if isinstance(answer, list):
        got: Any = [x.strip() for x in text.splitlines() if x.strip()]
        want: Any = [str(a).strip() for a in answer]
    else:
        got, want = text.strip(), str(answer).strip()
    if got != want:
        return fail(f"{path} holds {text[:200]!r}, which is not the expected answer")
    return ok(f"{path} holds the expected answer")


# --- config files ---------------------------------------------------------------------------------

@primitive("fs.config_value", grounded=("path", "key", "value", "section"),
           meaning=Meaning(action=r"set|change|add|update|edit"))
@guarded
def config_value(state: State, path: str, key: str, value: str, section: str = "") -> Result:
    """In the config file at `path`, `key` (in `[section]`, or outside sections when "") is set once, to `value`."""
    where = f"[{section}] " if section else ""
    found = read_config(state, path).get(section)
    if found is None:
        return fail(f"{path} has no section [{section}]")
    values = found.get(key, [])
    if not values:
        return fail(f"{path}: {where}{key} is not set")
    if len(values) > 1:
        return fail(f"{path}: {where}{key} is set {len(values)} times ({values})")
    if values[0] != value:
        return fail(f"{path}: {where}{key} = {values[0]!r}, expected {value!r}")
    return ok(f"{path}: {where}{key} = {value!r}")


@primitive("fs.config_matches", grounded=("path",),
           meaning=Meaning(action=None,
                           why="the file's other settings, kept around the edit that fs.config_value asks for"))
@guarded
def config_matches(state: State, path: str, entries: dict[str, dict[str, str]]) -> Result:
    """The config file at `path` sets exactly `entries` ({section or "": {key: value}}), each key once; comments,
    spacing and order are free."""
    actual = {s: keys for s, keys in read_config(state, path).items() if keys or s}
    problems = []
    for section in sorted(set(actual) | {s for s, keys in entries.items() if keys or s}):
        have, want = actual.get(section, {}), entries.get(section, {})
        label = f"[{section}] " if section else ""
        if section not in actual:
            problems.append(f"section [{section}] is missing")
            continue
        for key in sorted(set(have) | set(want)):
            if key not in want:
                problems.append(f"{label}{key} is set but should not be")
            elif key not in have:
                problems.append(f"{label}{key} is missing")
            elif have[key] != [want[key]]:
                problems.append(f"{label}{key} = {have[key]}, expected {want[key]!r}")
    if problems:
        return fail(f"{path}: " + "; ".join(problems[:4]))
    return ok(f"{path} sets exactly the expected {sum(len(k) for k in entries.values())} keys")


@primitive("fs.commented", grounded=("path", "line"), meaning=Meaning(action=r"comment|disable"))
@guarded
def commented(state: State, path: str, line: str) -> Result:
    """`line` is commented out in the file at `path` ('#' before it, any spacing) and not active anywhere."""
    lines = [x.strip() for x in read_text(state, path).splitlines()]
    if line.strip() in lines:
        return fail(f"{path} still has {line!r} active")
    if not any(x.startswith("#") and x.lstrip("#").strip() == line.strip() for x in lines):
        return fail(f"{path} has no commented-out {line!r}")
    return ok(f"{path} has {line!r} commented out")


# --- folders and archives -------------------------------------------------------------------------

@primitive("fs.dir_listing", grounded=("path",),
           meaning=Meaning(action=None,
                           why="the folder's whole listing (the frame); the round trip reads what a clean-up removes"))
@guarded
def dir_listing(state: State, path: str, names: list[str], recursive: bool = False,
                contents: dict[str, str] | None = None) -> Result:
    """The folder `path` (a real folder, not a link to one) holds exactly `names`: its entries, or with `recursive`
    the relative paths of every file below it; `contents` ({name: sha256}) also requires those entries to be
    regular files with that content."""
    folder = state.path(path)
    if not folder.is_dir():
        return fail(f"{path} is not a folder" if folder.exists() else f"{path} does not exist")
    if entry(state, path).is_symlink():  # a link to another folder is no folder of its own (no copy, no extraction)
        return fail(f"{path} is {describe(entry(state, path))}, expected a real folder")
    found = listing(folder, recursive)
    missing, extra = sorted(set(names) - set(found)), sorted(set(found) - set(names))
    if missing or extra:
        return fail(f"{path}: missing {missing}, unexpected {extra}")
    changed = [n for n, sha in sorted((contents or {}).items())
               if found[n].is_symlink() or not found[n].is_file() or sha256_of(found[n]) != sha]
    if changed:
        return fail(f"{path}: {changed} are not the original files (different content, or not regular files)")
    return ok(f"{path} holds exactly the {len(names)} expected entries")


def _clean(name: str) -> str:
    while name.startswith("./"):
        name = name[2:]
    return name.lstrip("/")


@primitive("fs.archive_contains", grounded=("path", "format"),
           meaning=Meaning(action=r"archive|zip|tar|compress|back(?:\s|-)?up|bundle", args={"format": Said("archive")}))
@guarded
def archive_contains(state: State, path: str, format: str, members: list[str],
                     contents: dict[str, str] | None = None) -> Result:
    """`path` is an archive of `format` ("zip", "tar", "tar.gz", "tar.bz2", "tar.xz", judged by its bytes) whose
    files are exactly `members` (relative paths), all under one optional leading folder; `contents`
    ({member: sha256}) also checks those members' bytes."""
    found, raw = state.read(path, read_archive, "zip or tar archive")
    if found != format:
        return fail(f"{path} is a {found} archive, expected {format}")
    actual = {_clean(n): sha for n, sha in raw.items()}
    prefix = ""
    if members and set(actual) != set(members):
        first = sorted(members)[0]
        prefix = next((n[: -len(first)] for n in sorted(actual) if n.endswith("/" + first)), "")
    shown = {n[len(prefix):]: sha for n, sha in actual.items() if n.startswith(prefix)}
    if len(shown) != len(actual) or set(shown) != set(members):
        missing, extra = sorted(set(members) - set(shown)), sorted(set(actual) - {prefix + m for m in members})
        return fail(f"{path}: members missing {missing}, unexpected {extra}")
    changed = sorted(m for m, sha in (contents or {}).items() if shown[m] != sha)
    if changed:
        return fail(f"{path}: members {changed} differ from the original files")
    where = f" under {prefix!r}" if prefix else ""
    return ok(f"{path} is a {format} archive holding exactly the {len(members)} expected files{where}")
