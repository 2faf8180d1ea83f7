"""A first look at the spreadsheets a task names, for the agent's first message.

An agent at a terminal looks before it edits: the teacher's scripts print the sheet, then write the columns they
saw. An agent answering offline (`forge student prompts` / `answers`) runs its commands blind, so without this look
it cannot know a column's letter from its header. The preview is what that first look would print: each sheet's
name and size, then its first rows (cells cut short, formulas as typed). It is part of the first turn of every
path (`forge.agent.episode.task_message`), so teacher trajectories, prompts and live runs see the same text.

Only spreadsheets (.xlsx, .csv) whose file name the instruction says, or every spreadsheet of the home when there
are at most `ALONE` of them and the instruction names none (a natural instruction says "my budget sheet"). Files
are read with the checks' bounded readers; one that cannot be read (damaged, hostile, too large) gets no preview.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

from kit import bounded
from kit.sandbox import HOME
from verifiers.checks import State
from verifiers.readers.xlsx import cell_text

SUFFIXES = (".xlsx", ".csv")
#: Spreadsheets previewed at most, and the count at or under which an instruction that names none sees them all.
MOST, ALONE = 2, 2
ROWS, COLUMNS, SHEETS, CELL = 6, 10, 3, 28
CSV_BYTES = 4096


def preview_documents(instruction: str, home: Path, walk_limit: int = 20_000) -> str:
    """The preview text (empty when there is nothing to show)."""
    found: list[str] = []
    with contextlib.suppress(bounded.LimitExceeded, OSError):
        for entry in bounded.walk(home, max_depth=32, max_entries=walk_limit):
            if entry.is_file and entry.rel.lower().endswith(SUFFIXES):
                found.append(entry.rel)
    text = instruction.lower()
    named = [rel for rel in found if Path(rel).name.lower() in text]
    chosen = named or (found if len(found) <= ALONE else [])
    parts = [part for rel in chosen[:MOST] if (part := _preview(home, rel))]
    return "\n\n".join(parts)


def _preview(home: Path, rel: str) -> str:
    path = f"{HOME}/{rel}"
    try:
        body = _csv(home / rel) if rel.lower().endswith(".csv") else _xlsx(State(home), path)
    except Exception:  # noqa: BLE001 - a file that cannot be read gets no preview, never a failed first turn
        return ""
    return f"A first look at {path}:\n{body}" if body else ""


def _cut(value: Any) -> str:
    text = cell_text(value).replace("\n", " ")
    return text if len(text) <= CELL else text[: CELL - 1] + "…"


def _xlsx(state: State, path: str) -> str:
    wb = state.workbook(path)
    lines = []
    for name in wb.sheetnames[:SHEETS]:
        ws = wb[name]
        lines.append(f"sheet {name!r} ({ws.max_row} rows x {ws.max_column} columns, used range {ws.dimensions}):")
        for row in ws.iter_rows(min_row=1, max_row=min(ws.max_row, ROWS), max_col=min(ws.max_column, COLUMNS)):
            cells = [f"{c.coordinate}={_cut(c.value)}" for c in row if c.value is not None]
            if cells:
                lines.append("  " + " | ".join(cells))
        if ws.max_row > ROWS:
            lines.append(f"  [... rows {ROWS + 1}-{ws.max_row}]")
    if len(wb.sheetnames) > SHEETS:
        lines.append(f"[... {len(wb.sheetnames) - SHEETS} more sheets: {', '.join(wb.sheetnames[SHEETS:])}]")
    return "\n".join(lines)


def _csv(host: Path) -> str:
    head = bounded.read_file(host)[:CSV_BYTES].decode("utf-8", errors="replace")
    lines = head.splitlines()[:ROWS]
    return "\n".join("  " + (line if len(line) <= 200 else line[:199] + "…") for line in lines)
