"""Seconds per file of the LibreOffice tier for one batch of office files (default 200).

Builds the files with the workflows (offline; the mix of Calc, Writer and Impress skills unless --app),
then runs the tier's two batched steps on them as the gate does: the open check (one soffice call per
module: CSV for Calc, PDF for Writer/Impress, plus pdfinfo/pdftotext) and the re-save (one call per format).

    python benchmarks/realapps.py [-n 200] [--app libreoffice_calc] [--seed 1]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from forge.generate import Selection, plan, select_skills
from forge.realapps import OFFICE_APPS, libreoffice
from kit.dag import NodeContext
from kit.llm import OfflineBackend
from kit.sandbox import Sandbox
from kit.taxonomy import load_taxonomy
from workflows import get_family

OFFICE = ("libreoffice_calc", "libreoffice_writer", "libreoffice_impress")


def build_files(n: int, apps: tuple[str, ...], seed: int, folder: Path) -> list[Path]:
    taxonomy = load_taxonomy()
    known = {s.app for s in taxonomy.values()}
    skills = [s for s in select_skills(taxonomy, Selection(apps=tuple(a for a in apps if a in known)))
              if s.app in OFFICE]
    files: list[Path] = []
    for task_id in plan(skills, n * 2, seed):
        skill = taxonomy[task_id.skill_id]
        ctx = NodeContext(skill.params, seed, skill.id, task_id.index, OfflineBackend())
        for asset in get_family(skill.family).run(ctx)["assets"]:
            if asset.app in OFFICE_APPS and len(files) < n:
                path = folder / f"{len(files):04d}_{asset.name}"
                path.write_bytes(asset.data)
                files.append(path)
        if len(files) >= n:
            break
    return files


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", type=int, default=200)
    parser.add_argument("--app", action="append", default=[], help="restrict to these apps (repeatable)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "files").mkdir()
        (root / "office").mkdir()
        files = build_files(args.n, tuple(args.app or OFFICE), args.seed, root / "files")
        kinds = {ext: sum(f.suffix == ext for f in files) for ext in libreoffice.FORMATS}
        office = libreoffice.Office(root / "office", Sandbox())
        start = time.perf_counter()
        opened = libreoffice.open_check(office, files)
        open_seconds = time.perf_counter() - start
        start = time.perf_counter()
        saved = libreoffice.resave(office, files)
        resave_seconds = time.perf_counter() - start
    ok_open = sum(v.ok for v in opened.values())
    ok_saved = sum(out is not None for out, _ in saved.values())
    print(f"files: {len(files)} {kinds}; soffice calls: {office.calls}")
    print(f"open check: {open_seconds:6.1f} s  {open_seconds / len(files):.3f} s/file  ({ok_open}/{len(files)} open)")
    per_file = resave_seconds / len(files)
    print(f"re-save:    {resave_seconds:6.1f} s  {per_file:.3f} s/file  ({ok_saved}/{len(files)} saved)")
    total = open_seconds + resave_seconds
    print(f"tier total: {total:6.1f} s  {total / len(files):.3f} s/file")
    for verdict in [v for v in opened.values() if not v.ok][:5]:
        print("  not opened:", verdict.evidence)


if __name__ == "__main__":
    main()
