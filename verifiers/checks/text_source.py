"""Source-file edits a developer makes in VS Code, each read from the file's text (vscode.edit_file):
`text.all_replaced` (every occurrence of a string replaced), `text.function_reindented` (one function's tab
indentation turned into 4 spaces a level) and `text.function_deleted` (one function gone, decorators included).

Each compares the file with the text the edit must leave, up to what an editor may change without anyone
meaning it: trailing whitespace and the number of blank lines between blocks (deleting a function leaves one
blank line or three, as the hand falls). Leading whitespace, every other line, the line order and the line endings
(LF or CRLF, each line's) count. A
Python file must still compile (compiled, never run; a hostile file is a failed check).
"""

from __future__ import annotations

from pathlib import Path

from kit import bounded
from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.meaning import Meaning


def _text(host: Path) -> str:
    return bounded.read_file(host).decode("utf-8")


def normalized(text: str) -> list[str]:
    """The file's lines with trailing whitespace dropped, each run of blank lines as one, no blank lines at the
    ends."""
    lines: list[str] = []
    for line in text.splitlines():
        line = line.rstrip()
        if line or (lines and lines[-1]):
            lines.append(line)
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _compare(state: State, path: str, expected: str, done: str) -> Result:
    got = state.read(path, _text, "text file")
    crlf = "\r\n" in got
    if crlf != ("\r\n" in expected):  # every line rewritten (the editor's end-of-line switched)
        return fail(f"{path}: its line endings changed to {'CRLF' if crlf else 'LF'}")
    got_lines, want_lines = normalized(got), normalized(expected)
    if got_lines != want_lines:
        for number, (g, w) in enumerate(zip(got_lines, want_lines, strict=False), start=1):
            if g != w:
                return fail(f"{path}: line {number} (blank runs counted once) is {g!r}, expected {w!r}")
        return fail(f"{path} has {len(got_lines)} lines (blank runs counted once), expected {len(want_lines)}")
    if path.endswith(".py"):
        try:
            compile(got, path, "exec", dont_inherit=True)
        except (SyntaxError, ValueError, MemoryError, RecursionError) as exc:
            return fail(f"{path} no longer compiles ({type(exc).__name__}: {exc})")
    return ok(f"{path}: {done}, nothing else changed")


@primitive("text.all_replaced", grounded=("path", "old", "new"), meaning=Meaning(action=r"replac|chang|swap|switch"))
def all_replaced(state: State, path: str, old: str, new: str, expected: str) -> Result:
    """The file at `path` reads `expected`: its initial text with every occurrence of the string `old` replaced by
    `new` (exact case), and nothing else changed (blank-line runs and trailing spaces aside)."""
    got = state.read(path, _text, "text file")
    left = got.count(old) if old and old not in new else 0
    if left:
        return fail(f"{path} still holds {left} occurrence(s) of {old!r}")
    return _compare(state, path, expected, f"every {old!r} is now {new!r}")


@primitive("text.function_reindented", grounded=("path", "function"),
           meaning=Meaning(action=r"re-?indent|indent|spaces|tabs?\b"))
def function_reindented(state: State, path: str, function: str, expected: str) -> Result:
    """The file at `path` reads `expected`: the function `function`, indented with tabs, now indented with four
    spaces a level (each leading tab is four spaces; tabs inside the code are kept), nothing else changed."""
    got = state.read(path, _text, "text file")
    if any(line.startswith(("\t", " \t", "  \t", "   \t", "    \t")) for line in got.splitlines()):
        return fail(f"{path} still has lines indented with tabs")
    return _compare(state, path, expected, f"{function} is indented with 4 spaces a level")


@primitive("text.function_deleted", grounded=("path", "function"),
           meaning=Meaning(action=r"delet|remov|drop|get rid|strip out"))
def function_deleted(state: State, path: str, function: str, expected: str) -> Result:
    """The file at `path` reads `expected`: its initial text without the function `function` (its decorators,
    signature, docstring and whole body), nothing else changed (blank-line runs aside)."""
    got = state.read(path, _text, "text file")
    if f"def {function}(" in got:
        return fail(f"{path} still defines {function}()")
    return _compare(state, path, expected, f"{function}() is deleted")
