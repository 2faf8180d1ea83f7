"""Edits of one top-level function in a Python source file, as a developer makes them in VS Code
(vscode.edit_file): re-indent it from tabs to spaces, or delete it.

A function's block runs from the decorators right above its `def` line to its last non-blank line before the
next line at column 0. The slips are the near-misses' mistakes: `expand` with its default 8-column tab stops,
only the first tab of each line replaced, a decorator left behind, a selection that stops at the first blank
line inside the body, the function commented out instead of deleted.
"""

from __future__ import annotations

import re

from kit import bounded
from preparers.ops import OpError, op
from preparers.ops.fs import FsHandle


def function_span(lines: list[str], function: str) -> tuple[int, int, int]:
    """(first decorator line, def line, end) of top-level `function` in `lines` (0-based, end exclusive)."""
    head = next((i for i, line in enumerate(lines) if re.match(rf"(async\s+)?def\s+{re.escape(function)}\s*\(", line)),
                None)
    if head is None:
        raise OpError(f"no top-level function {function!r} in the file")
    start = head
    while start > 0 and lines[start - 1].startswith("@"):
        start -= 1
    end = head + 1
    while end < len(lines) and (not lines[end].strip() or lines[end][0] in " \t" or lines[end].startswith(")")):
        end += 1
    while end > head + 1 and not lines[end - 1].strip():
        end -= 1
    return start, head, end


def reindent(text: str, function: str, width: int = 4, first_only: bool = False) -> str:
    """`text` with each leading tab of `function`'s lines turned into `width` spaces (`first_only`: only the
    first tab of each line, a sed 's/^\\t/    /' slip)."""
    lines = text.split("\n")
    _, head, end = function_span(lines, function)
    for i in range(head, end):
        tabs = len(lines[i]) - len(lines[i].lstrip("\t"))
        if first_only:
            tabs = min(tabs, 1)
        lines[i] = " " * (width * tabs) + lines[i][tabs:]
    return "\n".join(lines)


def delete(text: str, function: str, keep_decorators: bool = False, partial: bool = False,
           comment_out: bool = False) -> str:
    """`text` without `function` and the blank lines after it (the slips: `keep_decorators`, `partial` stops at
    the first blank line inside the body, `comment_out` prefixes each line with '# ')."""
    lines = text.split("\n")
    start, head, end = function_span(lines, function)
    if keep_decorators:
        start = head
    if partial:
        end = next((i for i in range(head, end) if not lines[i].strip()), end)
    if comment_out:
        lines[start:end] = [f"# {line}" if line.strip() else line for line in lines[start:end]]
        return "\n".join(lines)
    stop = end
    while stop < len(lines) and not lines[stop].strip() and stop < len(lines) - 1:
        stop += 1
    return "\n".join(lines[:start] + lines[stop:])


def _edit(h: FsHandle, change: str) -> None:
    if not h.host.is_file():
        raise FileNotFoundError(h.host)
    h.host.write_text(change, encoding="utf-8")


@op("fs.reindent_function")
def reindent_function(h: FsHandle, function: str, width: int = 4, first_only: bool = False) -> None:
    """Turn the leading tabs of top-level `function` in the Python file at `path` into `width` spaces each."""
    if not h.host.is_file():
        raise FileNotFoundError(h.host)
    _edit(h, reindent(bounded.read_file(h.host).decode("utf-8"), function, width, first_only))


@op("fs.delete_function")
def delete_function(h: FsHandle, function: str, keep_decorators: bool = False, partial: bool = False,
                    comment_out: bool = False) -> None:
    """Delete top-level `function` (decorators and body) from the Python file at `path`."""
    if not h.host.is_file():
        raise FileNotFoundError(h.host)
    _edit(h, delete(bounded.read_file(h.host).decode("utf-8"), function, keep_decorators, partial, comment_out))
