"""Hand-made end states against the frame (issue 37): how many wrong ones each rubric rejects, and how many of those
only the frame rejects; how many valid ones it accepts.

Generates a default-mix batch (offline, real apps off), then per accepted task applies to the oracle's end state:
- wrong, in every workbook: a stray label beside the table, a new sheet, the sheets reordered, a value edited out of
  scope, a merged range below the table, a hidden row, a target formula typed as text;
- wrong, in the file tree: an empty "New folder" beside the first prepared file, a copy of a file in the Trash, that
  file's folder made read-only, a stray file beside it;
- valid: every file the oracle deletes moved into the Trash instead (as a file manager deletes), and the empty
  folders a desktop session makes (Desktop, Downloads, ...).
Each wrong state is judged by the whole rubric and by the rubric without its frame checks.

    python benchmarks/frame_attacks.py [-n 60] [--seed 12]
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import openpyxl

from forge.catalog import Catalog
from forge.generate import Generator, Selection, plan_for
from kit.sandbox import Sandbox
from kit.taxonomy import load_taxonomy
from preparers.ops import apply_ops
from verifiers.frame.tree import TRASH
from verifiers.gate.rubric import evaluate_rubric

FRAMES = ("xlsx.frame", "tree.frame")
HOME = "/home/user/"


def _home(package: Path, root: Path) -> dict[str, Any]:
    task = json.loads((package / "task.json").read_text())
    for asset in task["setup"]["assets"]:
        dest = root / asset["dest"].removeprefix(HOME)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(package / asset["file"], dest)
    return task


def _ops(package: Path, task: dict[str, Any]) -> list[dict[str, Any]]:
    return json.loads((package / task["solutions"]["oracle"]).read_text())["ops"]


def _passes(task: dict[str, Any], root: Path, *, frames: bool = True) -> bool:
    rubric = task["rubric"] if frames else [c for c in task["rubric"] if c["primitive"] not in FRAMES]
    return all(o.passed for o in evaluate_rubric({**task, "rubric": rubric}, root))


def _books(task: dict[str, Any], root: Path) -> list[Path]:
    return [p for p in root.rglob("*.xlsx") if p.is_file() and not any(part.startswith(".") for part in p.parts[-3:])]


def _edit_books(change: Callable[[Any, dict[str, Any]], bool]) -> Callable[[dict[str, Any], Path], bool]:
    def attack(task: dict[str, Any], root: Path) -> bool:
        done = False
        for path in _books(task, root):
            wb = openpyxl.load_workbook(path)
            if change(wb, task):
                wb.save(path)
                done = True
        return done
    return attack


def _typed_as_text(wb: Any, task: dict[str, Any]) -> bool:
    for check in task["rubric"]:
        if check["primitive"] == "xlsx.frame":
            for key, kind in check["args"]["allowed"].items():
                sheet, _, coord = key.partition("!")
                if kind == "f" and sheet in wb.sheetnames:
                    cell = wb[sheet][coord]
                    cell._value, cell.data_type = str(cell.value), "s"
                    return True
    return False


def _edit_value(wb: Any, task: dict[str, Any]) -> bool:
    cell = wb.worksheets[0].cell(row=wb.worksheets[0].max_row, column=1)
    cell.value = "zzz" if isinstance(cell.value, str) else 12345
    return True


def _first_folder(task: dict[str, Any], root: Path) -> Path | None:
    dests = [a["dest"].removeprefix(HOME) for a in task["setup"]["assets"]]
    visible = [d for d in dests if not any(part.startswith(".") for part in d.split("/"))]
    return (root / visible[0]).parent if visible else None


def _tree(change: Callable[[Path, Path], None]) -> Callable[[dict[str, Any], Path], bool]:
    """An attack on the folder of the task's first visible file: `change(folder, state root)`."""
    def attack(task: dict[str, Any], root: Path) -> bool:
        folder = _first_folder(task, root)
        if folder is None or not folder.is_dir():
            return False
        change(folder, root)
        return True
    return attack


def _trash_copy(folder: Path, root: Path) -> None:
    """A copy of the folder's first file left in the Trash (a name the task deletes nothing under)."""
    files = sorted(p for p in folder.iterdir() if p.is_file())
    (root / TRASH / "files").mkdir(parents=True, exist_ok=True)
    (root / TRASH / "info").mkdir(exist_ok=True)
    name = (files[0].name if files else "notes.txt") + ".old"
    (root / TRASH / "files" / name).write_bytes(files[0].read_bytes() if files else b"x")
    (root / TRASH / "info" / f"{name}.trashinfo").write_text("[Trash Info]\n")


def _hide_last_row(wb: Any, task: dict[str, Any]) -> bool:
    ws = wb.worksheets[0]
    ws.row_dimensions[ws.max_row].hidden = True
    return True


def _stray_file(folder: Path, root: Path) -> None:
    (folder / "notes.tmp").write_text("tmp")


WRONG: dict[str, Callable[[dict[str, Any], Path], bool]] = {
    "stray label": _edit_books(lambda wb, t: bool(wb.worksheets[0].cell(
        row=1, column=wb.worksheets[0].max_column + 2, value="checked"))),
    "new sheet": _edit_books(lambda wb, t: bool(wb.create_sheet("Notes"))),
    "reordered sheets": _edit_books(lambda wb, t: bool(wb.create_sheet("Archive", 0))),
    "value out of scope": _edit_books(_edit_value),
    "merged range": _edit_books(lambda wb, t: wb.worksheets[0].merge_cells(
        start_row=wb.worksheets[0].max_row + 2, start_column=1, end_row=wb.worksheets[0].max_row + 2,
        end_column=2) or True),
    "hidden row": _edit_books(_hide_last_row),
    "formula typed as text": _edit_books(_typed_as_text),
    "empty New folder": _tree(lambda folder, root: (folder / "New folder").mkdir()),
    "copy left in the Trash": _tree(_trash_copy),
    "folder made read-only": _tree(lambda folder, root: folder.chmod(0o555)),
    "stray file": _tree(_stray_file),
}


def _valid(task: dict[str, Any], package: Path, root: Path) -> bool:
    """Deletions into the Trash, and the session's own folders; True when the rubric accepts that state."""
    for name in ("Desktop", "Downloads", "Music", "Pictures", "Public", "Templates", "Videos"):
        (root / name).mkdir(exist_ok=True)
    rest = []
    for op in _ops(package, task):
        if op["op"] != "fs.delete":
            rest.append(op)
            continue
        source = root / op["path"].removeprefix(HOME)
        (root / TRASH / "files").mkdir(parents=True, exist_ok=True)
        (root / TRASH / "info").mkdir(exist_ok=True)
        shutil.move(str(source), root / TRASH / "files" / source.name)
        (root / TRASH / "info" / f"{source.name}.trashinfo").write_text("[Trash Info]\n")
    apply_ops(root, rest)
    return _passes(task, root)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", type=int, default=60)
    parser.add_argument("--seed", type=int, default=12)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        out = Path(work)
        taxonomy = load_taxonomy()
        catalog = Catalog(f"sqlite:///{out / 'forge.db'}")
        catalog.sync_skills(taxonomy.values())
        counts = Generator(out / "tasks", catalog, sandbox=Sandbox(), taxonomy=taxonomy).run(
            plan_for(taxonomy, Selection(), options.n, seed=options.seed))
        packages = sorted(p.parent for p in (out / "tasks").glob("*/*/task.json"))
        print(f"{len(packages)} accepted of {sum(counts.values())} generated (seed {options.seed})")
        tally: Counter[tuple[str, str]] = Counter()
        valid = Counter[str]()
        for package in packages:
            for kind, attack in WRONG.items():
                with tempfile.TemporaryDirectory() as state:
                    root = Path(state)
                    task = _home(package, root)
                    apply_ops(root, _ops(package, task))
                    if not attack(task, root):
                        continue
                    verdict = "lax" if _passes(task, root) else (
                        "only the frame" if _passes(task, root, frames=False) else "also other checks")
                    tally[(kind, verdict)] += 1
                    for path in root.rglob("*"):  # a read-only folder must be removable
                        if path.is_dir() and not path.is_symlink():
                            path.chmod(0o755)
            with tempfile.TemporaryDirectory() as state:
                task = _home(package, Path(state))
                valid["accepted" if _valid(task, package, Path(state)) else "rejected"] += 1
        print(f"{'wrong end state':<24} {'tried':>5} {'rejected':>9} {'only by the frame':>18} {'passed (lax)':>13}")
        for kind in WRONG:
            tried = sum(tally[(kind, v)] for v in ("lax", "only the frame", "also other checks"))
            rejected = tried - tally[(kind, "lax")]
            print(f"{kind:<24} {tried:>5} {rejected:>9} {tally[(kind, 'only the frame')]:>18} "
                  f"{tally[(kind, 'lax')]:>13}")
        total = sum(valid.values())
        print(f"valid (deleted into the Trash, session folders): {valid['accepted']} of {total} accepted "
              f"({valid['accepted'] / max(total, 1):.1%})")


if __name__ == "__main__":
    main()
