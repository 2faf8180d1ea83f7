"""Environment variables a user sets persistently, read as the login session or the shell would read the file.

Two syntaxes (`syntax`):
- `environment.d`: systemd's user environment files (~/.config/environment.d/*.conf): `KEY=VALUE` lines, `#`
  comments; spaces around '=' and matching quotes are free; `export` is not part of the format (a line that starts
  with it sets nothing); only files ending in .conf are read (the caller names the file).
- `shell`: a file bash sources (~/.bashrc, ~/.profile): `export KEY=VALUE`, or `KEY=VALUE` plus an `export KEY`
  line; no spaces around '=' (bash would run `KEY` as a command); quotes follow the shell's rules. A variable
  assigned but never exported is invisible to the programs the shell starts, so it is not set.

In both, the last assignment wins (as when the file is read top to bottom). Lines inside shell blocks are read like
any other: the files the families prepare keep their blocks free of the variables they ask about.
"""

from __future__ import annotations

import re
import shlex

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.checks.fs import guarded
from verifiers.meaning import Meaning
from verifiers.readers.tree import read_text

SYNTAXES = ("environment.d", "shell")
_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_SHELL_ASSIGN = re.compile(rf"^\s*(export\s+)?({_NAME})=(.*)$")
_SHELL_EXPORT = re.compile(rf"^\s*export\s+((?:{_NAME}\s*)+)(?:#.*)?$")
_ENVD_ASSIGN = re.compile(rf"^\s*({_NAME})\s*=\s*(.*)$")
#: lines read at most (a hostile file of a million lines is refused, not parsed)
MAX_LINES = 5000


def _shell_value(raw: str) -> str | None:
    """The value of a shell assignment's right side (quotes removed, a trailing comment dropped); None when the
    shell would not read it as one word."""
    try:
        words = shlex.split(raw, comments=True, posix=True)
    except ValueError:
        return None
    if len(words) > 1:
        return None  # `K=a b` runs `b` with K set for it alone
    return words[0] if words else ""


def _envd_value(raw: str) -> str:
    value = raw.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def assignments(text: str, syntax: str, name: str) -> tuple[list[str], bool, list[str]]:
    """(the values `name` is given, in order; whether the shell exports it; notes on lines that look like
    assignments of `name` but set nothing)."""
    values: list[str] = []
    exported = syntax == "environment.d"
    notes: list[str] = []
    for line in text.splitlines()[:MAX_LINES]:
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if syntax == "environment.d":
            if match := _ENVD_ASSIGN.match(line):
                if match.group(1) == name:
                    values.append(_envd_value(match.group(2)))
            elif re.match(rf"^\s*export\s+{name}\b", line):
                notes.append(f"'{stripped}' uses export, which environment.d does not read")
            continue
        if match := _SHELL_ASSIGN.match(line):
            if match.group(2) != name:
                continue
            value = _shell_value(match.group(3))
            if value is None:
                notes.append(f"'{stripped}' is not one shell word")
                continue
            values.append(value)
            exported = exported or bool(match.group(1))
        elif (export := _SHELL_EXPORT.match(line)) and name in export.group(1).split():
            exported = True
        elif re.match(rf"^\s*(export\s+)?{name}\s+=|^\s*(export\s+)?{name}=\s", line):
            notes.append(f"'{stripped}' has spaces around '=', which the shell reads as a command")
    return values, exported, notes


@primitive("env.variable_set", grounded=("path", "name", "value"),
           meaning=Meaning(action=r"set|export|define|add|change|point|environment variable"))
@guarded
def variable_set(state: State, path: str, name: str, value: str, syntax: str) -> Result:
    """Reading the file at `path` as `syntax` (environment.d or shell) gives the environment variable `name` the
    value `value` (its last assignment), exported where the shell needs it."""
    if syntax not in SYNTAXES:
        return fail(f"check misconfigured: syntax={syntax!r}, not one of {list(SYNTAXES)}")
    values, exported, notes = assignments(read_text(state, path), syntax, name)
    said = f" ({'; '.join(notes[:3])})" if notes else ""
    if not values:
        return fail(f"{path} does not set {name}{said}")
    if values[-1] != value:
        return fail(f"{path} sets {name}={values[-1]!r}, expected {value!r}{said}")
    if not exported:
        return fail(f"{path} sets {name}={value!r} but never exports it, so programs started from the shell do "
                    f"not see it")
    return ok(f"{path} sets {name}={value!r}" + (" and exports it" if syntax == "shell" else ""))


@primitive("fs.lines_kept", grounded=("path",),
           meaning=Meaning(action=None, why="the file's other lines (comments included), kept around the one the "
                                            "task adds or changes; the tree frame sees only that the file changed"))
@guarded
def lines_kept(state: State, path: str, lines: list[str]) -> Result:
    """Every one of `lines` (the file's lines the task keeps) is still in the file, in the same order; new lines
    may come between them (trailing whitespace and blank lines are free)."""
    want = [line.rstrip() for line in lines if line.strip()]
    actual = [line.rstrip() for line in read_text(state, path).splitlines()[:MAX_LINES * 2]]
    at = 0
    for line in actual:
        if at < len(want) and line == want[at]:
            at += 1
    if at < len(want):
        return fail(f"{path} lost or moved the line {want[at]!r} ({at} of the {len(want)} kept lines found in "
                    f"order)")
    return ok(f"{path} keeps all {len(want)} other lines in order")
