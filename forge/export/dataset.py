"""Export accepted tasks as one table (JSON Lines or Parquet), or as a Hugging Face dataset folder.

One row per task. Student-facing columns hold what an agent may see: the instruction, the setup script and
the assets it places, plus provenance (round, seed, workflow signature, instruction register). Everything
that gives the answer away lives in the single `hidden` column, an object (not JSON text): `rubric` (the checks
with their expected values), `solutions` (oracle and near-miss scripts), `params` (the skill's knobs), `feasible`
(false for a task whose right outcome is to decline: telling a student would give the answer away). A pipeline
drops one column to get a student-safe table.

One layout in both formats: an asset is `{dest, sha256, content_base64}` in JSONL and in Parquet alike (JSON has
no bytes, and a loader should not have to know which file it read); `hidden` is a JSON object in JSONL and
Arrow's JSON type in Parquet, which `datasets` decodes to the same Python object.

`export_hub` writes a folder that `datasets.load_dataset(OUT)` reads: `data/{train,validation,test}.<fmt>` split
by skill (a skill's tasks all go to one split, chosen by a hash of its id: the same skill lands in the same split
in every export, so a later, larger export never moves a task across splits) and a README.md dataset card whose
YAML front matter names the splits' files (`configs`), with fields, counts per app, licence and how it was made.

Memory stays flat whatever the size: tasks are read one at a time (forge.export.source.iter_accepted), Parquet
is written in row groups of at most ROW_GROUP rows or GROUP_BYTES of assets (pyarrow's ParquetWriter), JSONL a
line at a time (measured: peak RSS 201 MB for 80 tasks, 187 MB for 800, with pyarrow's ~87 MB import included).
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import shutil
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from forge.catalog import Catalog, TaskRow
from forge.export.source import iter_accepted
from kit.errors import ForgeError
from kit.package import Package

#: The student-facing columns, in order; `hidden` is the only other column.
STUDENT_COLUMNS = ("id", "domain", "apps", "skill_id", "family", "round", "seed", "workflow_signature", "register",
                   "instruction", "setup_script", "assets", "launch")
HIDDEN_COLUMN = "hidden"
FORMATS = ("jsonl", "parquet")
#: Parquet columns with min/max statistics (readers filter row groups on them); the long ones have none.
STATISTICS = ("id", "domain", "skill_id", "family", "round", "seed", "workflow_signature", "register")
#: Rows per Parquet row group, and asset bytes that close a group early: a group is built in memory, then written,
#: so a group of large images must not hold 64 of them.
ROW_GROUP = 64
GROUP_BYTES = 4 << 20
#: The splits of a dataset folder and the share of skills each gets (by a hash of the skill id).
SPLITS = (("train", 0.8), ("validation", 0.1), ("test", 0.1))
LICENSE = "apache-2.0"  # the project's licence (pyproject.toml); tasks are generated from its own code and seeds


def task_record(package: Package, row: TaskRow) -> dict[str, Any]:
    """One row: student-facing fields, then `hidden` (an object: rubric, solutions, params, feasible)."""
    task = package.task
    assets = [{"dest": str(a["dest"]), "sha256": str(a["sha256"]),
               "content_base64": base64.b64encode((package.root / a["file"]).read_bytes()).decode("ascii")}
              for a in task["setup"]["assets"]]
    declared = task.get("solutions", {})
    roles = [("oracle", declared.get("oracle", "")), *(("near_miss", rel) for rel in declared.get("near_misses", []))]
    solutions = [{"role": role, "path": rel, "script": (package.root / rel).read_text(encoding="utf-8")}
                 for role, rel in roles if rel]
    workflow = task.get("workflow") or {}
    return {
        "id": package.id,
        "domain": str(task["app"]),
        "apps": [str(a) for a in task.get("apps") or [task["app"]]],
        "skill_id": str(task["skill_id"]),
        "family": str(task["family"]),
        "round": int(row.round or 0),
        "seed": int(task["seed"]),
        "workflow_signature": str(row.workflow_signature or workflow.get("signature", "")),
        "register": row.register,  # may be NULL: catalogs and families from before registers existed
        "instruction": str(task["instruction"]),
        "setup_script": (package.root / task["setup"]["entry"]).read_text(encoding="utf-8"),
        "assets": assets,
        "launch": [str(a) for a in task["setup"].get("launch", [])],
        HIDDEN_COLUMN: {"rubric": task["rubric"], "solutions": solutions, "params": task.get("params", {}),
                        "feasible": task.get("feasible", True) is not False},
    }


def records(catalog: Catalog, *, round: int | None = None, apps: Sequence[str] = ()) -> Iterator[dict[str, Any]]:
    """The rows, one task at a time. Raises `ForgeError` at once (before the first row) when nothing matches."""
    tasks = iter_accepted(catalog, round, apps)
    return (task_record(package, row) for row, package in tasks)


def split_of(skill_id: str) -> str:
    """The split of every task of `skill_id`: a stable hash of the id, so no skill is in two splits, and the
    same skill is in the same split in every export (SPLITS gives each split's share of skills)."""
    digest = hashlib.sha256(f"forge-split\0{skill_id}".encode()).digest()
    point = int.from_bytes(digest[:8], "big") / 2**64
    for name, share in SPLITS:
        if point < share:
            return name
        point -= share
    return SPLITS[0][0]


def _check_format(fmt: str) -> None:
    if fmt not in FORMATS:
        raise ForgeError(f"format {fmt!r}: choose one of {', '.join(FORMATS)}")


def export_dataset(catalog: Catalog, out: Path, fmt: str, *, round: int | None = None,
                   apps: Sequence[str] = ()) -> int:
    """Write the accepted tasks to the file `out` as `fmt` (jsonl or parquet); returns the number of rows.
    Written to a temporary file beside `out` and renamed, so a failed export leaves no half file."""
    _check_format(fmt)
    rows = records(catalog, round=round, apps=apps)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.tmp")
    try:
        with _writer(tmp, fmt) as writer:
            for row in rows:
                writer.add(row)
        tmp.replace(out)
    finally:
        tmp.unlink(missing_ok=True)
    return writer.count


def export_hub(catalog: Catalog, out: Path, fmt: str = "parquet", *, round: int | None = None,
               apps: Sequence[str] = (), license: str = LICENSE) -> dict[str, Counter[str]]:
    """Write the folder `out` as a Hugging Face dataset: `data/<split>.<fmt>` per split (by skill, `split_of`)
    and a README.md card; `datasets.load_dataset(str(out))` reads it. Returns split -> tasks per app.

    `out` must be new, empty or an earlier dataset export (README.md and data/ only), which is replaced; the
    folder is written beside it first, so a failed export leaves the old one as it was."""
    _check_format(fmt)
    if not re.fullmatch(r"[a-z0-9][a-z0-9.+-]{0,63}", license):
        raise ForgeError(f"--license {license!r}: give a Hub licence id, e.g. apache-2.0, cc-by-4.0, mit, other")
    if out.exists() and (not out.is_dir() or {p.name for p in out.iterdir()} - {"README.md", "data"}):
        raise ForgeError(f"{out}: holds files other than an earlier dataset export (README.md, data/); give a new "
                         "or empty folder")
    rows = records(catalog, round=round, apps=apps)  # nothing matches: the error comes before anything is written
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.tmp-{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    (tmp / "data").mkdir(parents=True)
    counts: dict[str, Counter[str]] = {name: Counter() for name, _ in SPLITS}
    skills: dict[str, set[str]] = {name: set() for name, _ in SPLITS}
    writers = {name: _writer(tmp / "data" / f"{name}.{fmt}", fmt) for name, _ in SPLITS}
    try:
        try:
            for row in rows:
                split = split_of(row["skill_id"])
                writers[split].add(row)
                counts[split][row["domain"]] += 1
                skills[split].add(row["skill_id"])
        finally:
            for writer in writers.values():
                writer.close()
        for name, _ in SPLITS:  # a split no skill hashed to: no file, and the card does not name it
            if not counts[name]:
                (tmp / "data" / f"{name}.{fmt}").unlink()
        (tmp / "README.md").write_text(dataset_card(catalog, counts, skills, fmt, license, round, apps),
                                       encoding="utf-8")
        if out.exists():
            shutil.rmtree(out)
        tmp.rename(out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return counts


class _Writer:
    """Rows to one file: a JSON object a line, or Parquet row groups (see `_parquet_group`)."""

    def __init__(self, path: Path, fmt: str) -> None:
        self.path, self.fmt, self.count = path, fmt, 0
        self._group: list[dict[str, Any]] = []
        self._size = 0
        self._file: Any = None
        self._parquet: Any = None

    def __enter__(self) -> _Writer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def add(self, row: dict[str, Any]) -> None:
        self.count += 1
        if self.fmt == "jsonl":
            if self._file is None:
                self._file = open(self.path, "w", encoding="utf-8")  # noqa: SIM115 - closed in close()
            self._file.write(json.dumps(row, ensure_ascii=False) + "\n")
            return
        self._group.append(row)
        self._size += sum(len(a["content_base64"]) for a in row["assets"])
        if len(self._group) == ROW_GROUP or self._size >= GROUP_BYTES:
            self._flush()

    def _flush(self) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        if self._parquet is None:
            # Min/max statistics only for the short columns: for assets or scripts they would be whole values.
            self._parquet = pq.ParquetWriter(self.path, _schema(), write_statistics=list(STATISTICS))
        if self._group:
            rows = [{**r, HIDDEN_COLUMN: json.dumps(r[HIDDEN_COLUMN], sort_keys=True, ensure_ascii=False)}
                    for r in self._group]
            table = pa.Table.from_pylist(rows, schema=_schema(storage=True)).cast(_schema())
            self._parquet.write_table(table, row_group_size=ROW_GROUP)
            # Arrow's allocator keeps freed buffers for reuse; handing them back keeps a long export flat (measured
            # on 800 tasks: peak RSS 279 MB without this, 162 MB with it).
            pa.default_memory_pool().release_unused()
        self._group.clear()
        self._size = 0

    def close(self) -> None:
        if self.fmt == "jsonl":
            if self._file is None:
                self._file = open(self.path, "w", encoding="utf-8")  # noqa: SIM115 - an empty file, closed here
            self._file.close()
            return
        self._flush()
        self._parquet.close()


def _writer(path: Path, fmt: str) -> _Writer:
    return _Writer(path, fmt)


def _schema(*, storage: bool = False) -> Any:
    """The Parquet schema; `storage`: with `hidden` as its JSON text (what Arrow's JSON type stores)."""
    import pyarrow as pa

    text = pa.string()
    return pa.schema([
        ("id", text), ("domain", text), ("apps", pa.list_(text)), ("skill_id", text), ("family", text),
        ("round", pa.int64()), ("seed", pa.int64()), ("workflow_signature", text), ("register", text),
        ("instruction", text), ("setup_script", text),
        ("assets", pa.list_(pa.struct([("dest", text), ("sha256", text), ("content_base64", text)]))),
        ("launch", pa.list_(text)),
        (HIDDEN_COLUMN, text if storage else pa.json_()),
    ])


#: The columns as `datasets` features (the card's `dataset_info.features`): with them, a loader takes `hidden` as
#: one JSON object in both formats, where inferring a JSONL file's types would merge the rubrics' differing args
#: into one struct padded with nulls.
FEATURES_YAML = tuple("""\
- name: id
  dtype: string
- name: domain
  dtype: string
- name: apps
  list: string
- name: skill_id
  dtype: string
- name: family
  dtype: string
- name: round
  dtype: int64
- name: seed
  dtype: int64
- name: workflow_signature
  dtype: string
- name: register
  dtype: string
- name: instruction
  dtype: string
- name: setup_script
  dtype: string
- name: assets
  list:
  - name: dest
    dtype: string
  - name: sha256
    dtype: string
  - name: content_base64
    dtype: string
- name: launch
  list: string
- name: hidden
  dtype: json""".splitlines())

def features() -> Any:
    """The columns as `datasets.Features`, for loading one JSONL file as the card loads the folder:
    `load_dataset("json", data_files="tasks.jsonl", features=features())` (Parquet files carry their types)."""
    from datasets import Features, Json, List, Value

    text = Value("string")
    return Features({**dict.fromkeys(STUDENT_COLUMNS, text), "apps": List(text), "round": Value("int64"),
                     "seed": Value("int64"), "assets": List({"dest": text, "sha256": text, "content_base64": text}),
                     "launch": List(text), HIDDEN_COLUMN: Json()})


FIELDS = (
    ("id", "string", "the catalog task id, `<skill>--s<seed>--<index>` (OSWorld result folders use it too)"),
    ("domain", "string", "the app in OSWorld's terms (libreoffice_calc, thunderbird, os, multi_apps ...)"),
    ("apps", "list of strings", "every app the task needs"),
    ("skill_id", "string", "the atomic skill; the split is chosen per skill"),
    ("family", "string", "the workflow family that made the task"),
    ("round", "int", "the feedback round (0: the seed taxonomy)"),
    ("seed", "int", "the run seed: (skill, workflow version, seed) gives the same task byte for byte"),
    ("workflow_signature", "string", "hash of the family's code and configuration"),
    ("register", "string", "explicit (a specification) or natural (a user's goal); empty for old tasks"),
    ("instruction", "string", "what the agent is asked"),
    ("setup_script", "string", "bash that recreates the initial state as the desktop user (assets under "
                               "$FORGE_ASSETS)"),
    ("assets", "list of {dest, sha256, content_base64}", "files setup_script places; base64 in every format"),
    ("launch", "list of strings", "the command that opens the app on the initial state"),
    ("hidden", "object", "ANSWERS, never shown to a student: `rubric` (checks with criterion, primitive, args), "
                         "`solutions` ([{role: oracle|near_miss, path, script}]), `params` (the skill's knobs), "
                         "`feasible` (false: the right outcome is to decline and change nothing)"),
)


def dataset_card(catalog: Catalog, counts: dict[str, Counter[str]], skills: dict[str, set[str]], fmt: str,
                 license: str, round: int | None, apps: Sequence[str]) -> str:
    """README.md of a dataset folder: YAML front matter the Hub reads (licence, configs with one data file per
    split, split sizes), then fields, counts per app and split, and how the tasks were made."""
    present = [name for name, _ in SPLITS if counts[name]]
    total = sum(sum(c.values()) for c in counts.values())
    size = next((label for limit, label in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"),
                                             (1_000_000, "100K<n<1M")) if total < limit), "1M<n<10M")
    front = ["---", f"license: {license}", "pretty_name: Forge desktop tasks", "language:", "- en",
             "task_categories:", "- other", "tags:", "- computer-use", "- desktop-agents", "- osworld", "- synthetic",
             "size_categories:", f"- {size}", "configs:", "- config_name: default", "  data_files:"]
    for name in present:
        front += [f"  - split: {name}", f"    path: data/{name}.{fmt}"]
    front += ["dataset_info:", "  features:", *(f"  {line}" for line in FEATURES_YAML), "  splits:"]
    for name in present:
        front += [f"  - name: {name}", f"    num_examples: {sum(counts[name].values())}"]
    front.append("---")
    domains = sorted({d for c in counts.values() for d in c})
    table = ["| app | " + " | ".join(present) + " | total |", "|---|" + "---:|" * (len(present) + 1)]
    for domain in domains:
        cells = [counts[name][domain] for name in present]
        table.append(f"| {domain} | " + " | ".join(str(c) for c in cells) + f" | {sum(cells)} |")
    table.append("| **all** | " + " | ".join(str(sum(counts[n].values())) for n in present) + f" | {total} |")
    table.append("| skills | " + " | ".join(str(len(skills[n])) for n in present)
                 + f" | {len(set().union(*skills.values()))} |")
    missing = [name for name, _ in SPLITS if not counts[name]]
    runs = catalog.query("SELECT DISTINCT backend FROM runs ORDER BY 1")[1]
    backends = ", ".join(str(r[0]) for r in runs) or "unknown"
    selected = f"round {round}" if round is not None else "every round"
    if apps:
        selected += f", apps {', '.join(apps)}"
    fields = "\n".join(f"| `{name}` | {kind} | {about} |" for name, kind, about in FIELDS)
    return "\n".join(front) + f"""

# Forge desktop tasks

{total} verifiable desktop tasks for computer-use agents ({selected}), made by Forge: each atomic skill has a
reusable workflow that turns a seed into a task package (instruction, setup script, assets, rubric, oracle and
near-miss solutions), and every task passed Forge's gate before export.

## Splits

Split by skill: all tasks of a skill are in one split (train 80 %, validation 10 %, test 10 % of skills, chosen by a
hash of the skill id, so a skill stays in its split in every later export).{
    " Empty here (no skill hashed to it): " + ", ".join(missing) + "." if missing else ""}

```python
from datasets import load_dataset
tasks = load_dataset("path/to/this/folder")            # DatasetDict: {", ".join(present)}
student_view = tasks["train"].remove_columns(["hidden"])  # what an agent may see
```

## Tasks per app

{chr(10).join(table)}

## Fields

| field | type | meaning |
|---|---|---|
{fields}

Files are {fmt.upper()} (`data/<split>.{fmt}`); the layout is the same in JSONL and Parquet. `hidden` is stored
as JSON text and decoded by `datasets` (its `json` type), whose decoder may change the last bit of a float
(0.3 -> 0.30000000000000004): compare numbers of the rubric with a tolerance. To recreate a task's
initial state: write each asset's decoded `content_base64` to a folder, set `FORGE_ASSETS` to it, and run
`setup_script` as the desktop user (home /home/user).

## How it was made

- Generation: Forge workflows (templates and programmatic preparers; LLM backends used: {backends}); every task is
  deterministic in (skill, workflow version, seed).
- The gate, before a task is accepted: schema, grounding (every checked value is stated or derivable from the
  instruction or the initial state; no answer leaks into student-facing text), setup in a sandbox, the rubric fails
  on the untouched state, passes on the oracle, fails on every near-miss and on generic mutants of the oracle's end
  state, and the frame refuses any change outside what the task allows.
- Only accepted tasks are exported; `hidden` holds the answers and must be dropped before a student sees a row.

## Licence

{license}: the tasks are generated from Forge's own code and seeds (no third-party content).
"""
