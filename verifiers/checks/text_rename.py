"""`text.identifier_renamed`: a source file is its initial text with one identifier renamed, whole words only."""

from __future__ import annotations

from pathlib import Path

from kit import bounded
from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.meaning import Meaning


def _text(host: Path) -> str:
    return bounded.read_file(host).decode("utf-8")


@primitive("text.identifier_renamed", grounded=("path", "old", "new"), meaning=Meaning(action=r"renam|replac"))
def identifier_renamed(state: State, path: str, old: str, new: str, expected: str) -> Result:
    """The file's text is exactly `expected`: the initial text with every whole-word `old` turned into `new` (a
    longer name holding `old`, e.g. a test named after the function, keeps its name). Line endings count as
    written; the first differing line is the evidence."""
    got = state.read(path, _text, "text file")
    if got == expected:
        return ok(f"{path}: every {old!r} is now {new!r}, nothing else changed")
    got_lines, want_lines = got.splitlines(), expected.splitlines()
    for number, (g, w) in enumerate(zip(got_lines, want_lines, strict=False), start=1):
        if g != w:
            return fail(f"{path} line {number} is {g.strip()!r}, expected {w.strip()!r}")
    if len(got_lines) != len(want_lines):
        return fail(f"{path} has {len(got_lines)} lines, expected {len(want_lines)}")
    return fail(f"{path} differs from the expected text only in line endings or the final newline")
