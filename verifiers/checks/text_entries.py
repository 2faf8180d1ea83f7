"""`text.file_entries`: a small line-based file a developer creates (a folder's .gitignore, a .env.example, a
CODEOWNERS file) holds exactly the stated entries (vscode.new_file).

Entries are the file's lines with surrounding spaces dropped, leaving out blank lines and `#` comment lines, which
every one of these formats allows. Where the order decides what the file means (CODEOWNERS: the last matching
rule wins) the entries must come in the stated order; otherwise any order passes, and a repeated entry is harmless.
"""

from __future__ import annotations

from pathlib import Path

from kit import bounded
from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.meaning import Meaning


def _text(host: Path) -> str:
    return bounded.read_file(host).decode("utf-8")


def entries_of(text: str) -> list[str]:
    """The file's entries: stripped lines that are neither blank nor `#` comments."""
    return [s for s in (line.strip() for line in text.splitlines()) if s and not s.startswith("#")]


@primitive("text.file_entries", grounded=("path", "entries"),
           meaning=Meaning(action=r"creat|add|make|new\b|write|set up"))
def file_entries(state: State, path: str, entries: list[str], ordered: bool = False) -> Result:
    """The text file at `path` exists and its entries (blank and `#` comment lines aside) are exactly `entries`: in
    this order when `ordered`, else in any order."""
    if not entries:
        return fail("check misconfigured: no entries")
    have = entries_of(state.read(path, _text, "text file"))
    missing = [e for e in entries if e not in have]
    extra = [e for e in have if e not in entries]
    if missing or extra:
        parts = ([f"missing {', '.join(repr(e) for e in missing[:5])}"] if missing else []) + (
            [f"unexpected {', '.join(repr(e) for e in extra[:5])}"] if extra else [])
        return fail(f"{path}: {'; '.join(parts)}")
    if ordered and have != list(entries):
        return fail(f"{path}: the entries are in the order {have[:8]}, expected {list(entries)}")
    return ok(f"{path} holds the {len(entries)} stated entries" + (" in order" if ordered else ""))
