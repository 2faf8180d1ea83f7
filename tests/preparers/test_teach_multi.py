"""Hand-off teacher snippets (preparers/teach/multi.py): a CSV opened as Calc types it and saved as a workbook, a
table written into a new workbook, a picture scaled and exported, each leaving what the op leaves, run exactly as a
student's command runs (forge.agent.shell.AgentShell, bubblewrap); a workbook the hand-off makes is then edited by
the next heredoc (the oracle of multi.attachment_sheet: convert, then sort)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
import pytest
from PIL import Image, ImageChops, ImageStat

from forge.agent.shell import AgentShell
from kit.sandbox import Sandbox, chown_tree
from preparers.ops import apply_ops
from preparers.teach import look, teach

pytestmark = pytest.mark.skipif(not Sandbox().enabled, reason="student commands run only in bubblewrap")

H = "/home/user"
CSV = "\ufeffName,Joined,Visits,Spend,Code\nana,2024-03-01,12,10.50,007\nBo,2023-13-40,3,-2.25,x1\n\nCy,,40,0.0,N/A\n"


def _state(root: Path) -> None:
    (root / "Downloads").mkdir(parents=True)
    (root / "Downloads" / "visits 2024.csv").write_text(CSV, encoding="utf-8")
    (root / "Downloads" / "visits.tsv").write_text(CSV.replace(",", "\t"), encoding="utf-8")
    (root / "Pictures").mkdir()
    picture = Image.new("RGBA", (64, 48), (250, 120, 30, 255))
    for x in range(64):
        for y in range(0, 48, 3):
            picture.putpixel((x, y), (x * 4, y * 5, 200, 128))
    picture.save(root / "Pictures" / "photo.png")


def m(_op: str, path: str, /, **args: Any) -> dict[str, Any]:
    return {"op": _op, "path": path, **args}


BOOKS: dict[str, tuple[list[dict[str, Any]], str]] = {
    "csv": ([m("multi.csv_to_xlsx", f"{H}/Downloads/visits 2024.csv", dest=f"{H}/Documents/Visits/visits.xlsx")],
            "Documents/Visits/visits.xlsx"),
    "tsv-named-sorted": ([m("multi.csv_to_xlsx", f"{H}/Downloads/visits.tsv", dest=f"{H}/visits.xlsx", sheet="Data"),
                          m("xlsx.sort_rows", f"{H}/visits.xlsx", sheet="Data", ref="A2:E4", key_column="C",
                            descending=True)], "visits.xlsx"),
    "csv-no-header": ([m("multi.csv_to_xlsx", f"{H}/Downloads/visits 2024.csv", dest=f"{H}/Desktop/v.xlsx",
                         skip_header=True)], "Desktop/v.xlsx"),
    "write": ([m("multi.write_xlsx", f"{H}/Documents/inventory.xlsx", sheet="Files",
                 rows=[["Name", "Size", "Date"], ["a.txt", 12, "2024-02-29"], ["b 'q'.png", 3.5, "2023-12-31"],
                       ["c.md", 0, "n/a"]])],
              "Documents/inventory.xlsx"),
}


def _run(tmp_path: Path, ops: list[dict[str, Any]]) -> tuple[Path, Path]:
    by_op, by_shell = tmp_path / "op", tmp_path / "shell"
    _state(by_op)
    apply_ops(by_op, ops)
    _state(by_shell)
    sandbox = Sandbox()
    if sandbox.as_root:
        chown_tree(by_shell)
    shell = AgentShell(sandbox)
    seen = shell.run(by_shell, look(ops, [f"{H}/{p.relative_to(by_shell).as_posix()}"
                                          for p in by_shell.rglob("*") if p.is_file()]))
    assert seen.exit_code == 0, seen.shown
    done = shell.run(by_shell, teach(ops))
    assert done.exit_code == 0, done.shown
    return by_op, by_shell


def _files(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*"))


def _cells(path: Path) -> dict[str, Any]:
    wb = openpyxl.load_workbook(path)
    return {ws.title: [[(c.value, type(c.value).__name__, c.number_format) for c in row] for row in ws.iter_rows()]
            for ws in wb.worksheets}


@pytest.mark.parametrize("name", list(BOOKS))
def test_the_snippet_writes_the_workbook_the_op_writes(tmp_path: Path, name: str) -> None:
    ops, made = BOOKS[name]
    by_op, by_shell = _run(tmp_path, ops)
    assert _files(by_shell) == _files(by_op)  # the workbook where the op puts it, and nothing else
    assert _cells(by_shell / made) == _cells(by_op / made)


@pytest.mark.parametrize("dest", ["Pictures/photo_small.jpg", "Pictures/out/photo.png", "photo.webp"])
def test_the_snippet_exports_the_picture_the_op_exports(tmp_path: Path, dest: str) -> None:
    ops = [m("multi.export_image", f"{H}/Pictures/photo.png", dest=f"{H}/{dest}", width=40, height=30)]
    by_op, by_shell = _run(tmp_path, ops)
    assert _files(by_shell) == _files(by_op)
    assert (by_shell / "Pictures/photo.png").read_bytes() == (by_op / "Pictures/photo.png").read_bytes()
    with Image.open(by_shell / dest) as mine, Image.open(by_op / dest) as theirs:
        assert (mine.format, mine.size, mine.mode) == (theirs.format, theirs.size, theirs.mode)
        diff = ImageStat.Stat(ImageChops.difference(mine.convert("RGB"), theirs.convert("RGB"))).mean
        assert max(diff) < 1.0, diff
