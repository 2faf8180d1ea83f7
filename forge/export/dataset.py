"""Export accepted tasks as one table (JSON Lines or Parquet) for training pipelines.

One row per task. Student-facing columns hold what an agent may see: the instruction, the setup script and
the assets it places. Everything that gives the answer away lives in the single `hidden` column (rubric
with its expected values, oracle and near-miss solutions, skill params), so a pipeline drops one column to
get a student-safe table. Both formats load with Hugging Face `datasets`
(`load_dataset("json", data_files=...)` / `load_dataset("parquet", data_files=...)`).
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from forge.catalog import Catalog
from forge.errors import ForgeError
from forge.export.source import accepted_packages
from forge.package import Package

#: The student-facing columns, in order; `hidden` is the only other column.
STUDENT_COLUMNS = ("id", "domain", "apps", "skill_id", "family", "round", "seed", "instruction", "setup_script",
                   "assets", "launch")
HIDDEN_COLUMN = "hidden"
FORMATS = ("jsonl", "parquet")


def task_record(package: Package, round: int) -> dict[str, Any]:
    """One row: student-facing fields, then `hidden` (JSON texts, so every task shares one schema)."""
    task = package.task
    assets = [{"dest": str(a["dest"]), "sha256": str(a["sha256"]),
               "content_base64": base64.b64encode((package.root / a["file"]).read_bytes()).decode("ascii")}
              for a in task["setup"]["assets"]]
    solutions = {rel: (package.root / rel).read_text(encoding="utf-8") for rel in package.solution_files() if rel}
    return {
        "id": package.id,
        "domain": str(task["app"]),
        "apps": [str(a) for a in task.get("apps") or [task["app"]]],
        "skill_id": str(task["skill_id"]),
        "family": str(task["family"]),
        "round": round,
        "seed": int(task["seed"]),
        "instruction": str(task["instruction"]),
        "setup_script": (package.root / task["setup"]["entry"]).read_text(encoding="utf-8"),
        "assets": assets,
        "launch": [str(a) for a in task["setup"].get("launch", [])],
        HIDDEN_COLUMN: {
            "rubric": json.dumps(task["rubric"], sort_keys=True, ensure_ascii=False),
            "solutions": json.dumps(solutions, sort_keys=True, ensure_ascii=False),
            "params": json.dumps(task.get("params", {}), sort_keys=True, ensure_ascii=False),
        },
    }


def records(catalog: Catalog, *, round: int | None = None, apps: Sequence[str] = ()) -> Iterator[dict[str, Any]]:
    for row, package in accepted_packages(catalog, round, apps):
        yield task_record(package, row.round)


def export_dataset(catalog: Catalog, out: Path, fmt: str, *, round: int | None = None,
                   apps: Sequence[str] = ()) -> int:
    """Write the accepted tasks to the file `out` as `fmt` (jsonl or parquet); returns the number of rows."""
    if fmt not in FORMATS:
        raise ForgeError(f"format {fmt!r}: choose one of {', '.join(FORMATS)}")
    rows = list(records(catalog, round=round, apps=apps))
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.tmp")
    if fmt == "jsonl":
        with open(tmp, "w", encoding="utf-8") as f:
            for row in rows:
                f.write(json.dumps(row, ensure_ascii=False, sort_keys=False) + "\n")
    else:
        import pyarrow as pa
        import pyarrow.parquet as pq

        pq.write_table(pa.Table.from_pylist(rows, schema=_schema()), tmp)
    tmp.replace(out)
    return len(rows)


def _schema() -> Any:
    import pyarrow as pa

    text = pa.string()
    return pa.schema([
        ("id", text), ("domain", text), ("apps", pa.list_(text)), ("skill_id", text), ("family", text),
        ("round", pa.int64()), ("seed", pa.int64()), ("instruction", text), ("setup_script", text),
        ("assets", pa.list_(pa.struct([("dest", text), ("sha256", text), ("content_base64", text)]))),
        ("launch", pa.list_(text)),
        (HIDDEN_COLUMN, pa.struct([("rubric", text), ("solutions", text), ("params", text)])),
    ])
