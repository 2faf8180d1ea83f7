"""GIMP preference primitives: settings in the user's `gimprc` (~/.config/GIMP/2.10/gimprc).

A gimprc is a list of S-expressions, one per setting: `(undo-levels 5)`, `(theme "Dark")`, and a few nested ones,
`(default-image (width 1920) (height 1080) ...)`. GIMP reads them in order, so a setting written twice keeps its
later value. A setting is named by its path: `undo-levels`, `default-image/width`; a value reads without its
quotes. Comments (`#` to the end of a line) are free. The reader is bounded (a file over 1 MiB, a list nested
deeper than 16, or unbalanced parentheses fail the check); a line that is no S-expression (`undo-levels = 20`)
is not read as a setting, as GIMP skips it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from kit import bounded
from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.meaning import Meaning, Prose, Said

MAX_BYTES = 1 << 20
MAX_DEPTH = 16
_TOKEN = re.compile(r'\s+|#[^\n]*|\(|\)|"(?:[^"\\]|\\.)*"|[^\s()"#]+')


class GimprcError(ValueError):
    """The file is not a gimprc a check can read."""


def parse_gimprc(text: str) -> dict[str, str]:
    """{setting path: its last value} of a gimprc's text (see the module doc)."""
    if len(text) > MAX_BYTES:
        raise GimprcError(f"larger than {MAX_BYTES} bytes")
    settings: dict[str, str] = {}
    stack: list[list[str]] = []  # per open list: its tokens so far
    names: list[str] = []
    at = 0
    while at < len(text):
        match = _TOKEN.match(text, at)
        if not match:
            raise GimprcError(f"unreadable text at offset {at}")
        token, at = match.group(0), match.end()
        if token.isspace() or token.startswith("#"):
            continue
        if token == "(":
            if len(stack) >= MAX_DEPTH:
                raise GimprcError("nested too deep")
            stack.append([])
        elif token == ")":
            if not stack:
                raise GimprcError("a ')' closes nothing")
            items = stack.pop()
            if items and not items[0].startswith('"'):
                path = "/".join([*names[:len(stack)], items[0]])
                if len(items) >= 2:
                    settings[path] = " ".join(x[1:-1] if x.startswith('"') else x for x in items[1:])
            del names[len(stack):]
        elif stack:
            stack[-1].append(token)
            if len(stack[-1]) == 1:
                names[len(stack) - 1:] = [token]
    if stack:
        raise GimprcError("a '(' is never closed")
    return settings


def read_gimprc(state: State, path: str) -> dict[str, str]:
    def parse(host: Any) -> dict[str, str]:
        return parse_gimprc(bounded.read_file(host).decode("utf-8"))
    return state.read(path, parse, "GIMP gimprc")


def stated_values(text: str, args: Mapping[str, Any]) -> str | None:
    """Each asked value is written in the instruction."""
    for key, value in dict(args.get("settings") or {}).items():
        if str(value).lower() not in text.lower():
            return f"the value {value!r} of {key} is not in the instruction"
    return None


def _same(have: str | None, want: str) -> bool:
    if have is None:
        return False
    try:
        return float(have) == float(want)
    except ValueError:
        return have.lower() == want.lower()


@primitive("gimprc.option", grounded=("path", "option", "settings"),
           meaning=Meaning(action=r"set|change|make|use|switch|raise|increas|lower|keep|give|edit|configur|tweak"
                                  r"|adjust",
                           args={"option": Said("gimp_option"), "settings": Prose(stated_values)}))
def option(state: State, path: str, option: str, settings: dict[str, str]) -> Result:
    """In the gimprc at `path`, each of `settings` ({setting path: value}, GIMP's `option` in the user's words)
    holds its value (numbers by value, words in any case)."""
    have = read_gimprc(state, path)
    wrong = [f"{key} = {have[key]!r}" if key in have else f"{key} is not set" for key, want in settings.items()
             if not _same(have.get(key), str(want))]
    if wrong:
        return fail(f"{path}: the {option} preference is not as asked: {'; '.join(wrong[:4])}")
    shown = ", ".join(f"{key} = {value}" for key, value in settings.items())
    return ok(f"{path}: {shown}")


@primitive("gimprc.kept", grounded=("path",),
           meaning=Meaning(action=None, why="the gimprc's other settings, kept around the asked preference; the "
                                            "tree frame leaves GIMP's profile folder to GIMP, which writes it"))
def kept(state: State, path: str, settings: dict[str, str]) -> Result:
    """Each of `settings` (the file's other settings as they were) still holds its value; new settings are free."""
    have = read_gimprc(state, path)
    changed = [f"{key} = {have[key]!r} (was {want!r})" if key in have else f"{key} is gone"
               for key, want in settings.items() if not _same(have.get(key), str(want))]
    if changed:
        return fail(f"{path}: {len(changed)} other setting(s) changed: {'; '.join(changed[:4])}")
    return ok(f"{path}: the other {len(settings)} settings are as they were")
