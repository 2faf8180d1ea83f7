"""Text-processing primitives: the lines a shell pipeline (grep, cut, sort, uniq -c) writes into an output file.

Lines are compared as a person reads them: leading and trailing spaces and runs of spaces are free (`uniq -c` pads
its counts), a final newline or trailing blank lines are free; every other difference (a line more or less, another
order where the order is asked, a header line) fails.
"""

from __future__ import annotations

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.checks.fs import guarded
from verifiers.meaning import Meaning
from verifiers.readers.tree import read_text


def _norm(text: str) -> list[str]:
    lines = [" ".join(line.split()) for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return lines


@primitive("text.lines", grounded=("path",), secret=("lines",),
           meaning=Meaning(action=r"extract|list|count|sort|filter|pull|collect|copy|write|save|put|lines?\b|column"))
@guarded
def lines(state: State, path: str, lines: list[str], ordered: bool = True) -> Result:
    """The text file at `path` holds exactly `lines` (spacing free), in this order unless `ordered` is False."""
    have, want = _norm(read_text(state, path)), [" ".join(x.split()) for x in lines]
    if not ordered:
        have, want = sorted(have), sorted(want)
    if have == want:
        return ok(f"{path} holds the expected {len(want)} line(s)")
    missing = [x for x in want if x not in have]
    extra = [x for x in have if x not in want]
    if not missing and not extra:
        where = next(i for i, (a, b) in enumerate(zip(have, want, strict=False)) if a != b) \
            if len(have) == len(want) else min(len(have), len(want))
        return fail(f"{path} holds the right lines ({len(have)} vs {len(want)} expected) but not as expected from "
                    f"line {where + 1} on (order or repeats)")
    shown = "; ".join([*(f"missing {x[:60]!r}" for x in missing[:2]), *(f"unexpected {x[:60]!r}" for x in extra[:2])])
    return fail(f"{path}: {len(missing)} expected line(s) missing, {len(extra)} unexpected: {shown}")
