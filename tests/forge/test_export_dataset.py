"""`forge export jsonl|parquet`: one row per accepted task; answers only in the `hidden` column.

A small mixed batch goes through the real gate; both files are loaded back with Hugging Face `datasets`.
"""

from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from forge.catalog import Catalog
from forge.export.dataset import HIDDEN_COLUMN, STUDENT_COLUMNS, export_dataset
from forge.generate import Generator, Selection, plan_for
from kit.errors import ForgeError
from kit.sandbox import Sandbox
from kit.taxonomy import load_taxonomy
from verifiers.checks import registry
from verifiers.grounding import leaks

datasets = pytest.importorskip("datasets", reason="pip install -e '.[dev]' (datasets, pyarrow)")
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    root = tmp_path_factory.mktemp("dataset")
    taxonomy = load_taxonomy()
    catalog = Catalog(f"sqlite:///{root / 'forge.db'}")
    catalog.sync_skills(taxonomy.values())
    counts = Generator(root / "tasks", catalog, sandbox=Sandbox(), taxonomy=taxonomy).run(
        plan_for(taxonomy, Selection(), 8, seed=3))
    assert counts["accepted"] == 8, counts
    return catalog


def _accepted_ids(catalog: Catalog) -> list[str]:
    return [r[0] for r in catalog.query("SELECT id FROM tasks WHERE status = 'accepted' ORDER BY id")[1]]


@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
def test_loads_with_datasets_and_hides_answers(catalog: Catalog, tmp_path: Path, fmt: str) -> None:
    out = tmp_path / f"tasks.{fmt}"
    assert export_dataset(catalog, out, fmt) == 8
    table = datasets.load_dataset("json" if fmt == "jsonl" else "parquet", data_files=str(out), split="train")
    assert table.column_names == [*STUDENT_COLUMNS, HIDDEN_COLUMN]
    assert sorted(table["id"]) == _accepted_ids(catalog)
    primitives = registry()
    for row in table:
        stored = catalog.task(row["id"])
        assert stored is not None and stored.path is not None
        task = json.loads((Path(stored.path) / "task.json").read_text())
        hidden = row[HIDDEN_COLUMN]
        assert json.loads(hidden["rubric"]) == task["rubric"]
        assert set(json.loads(hidden["solutions"])) == {task["solutions"]["oracle"], *task["solutions"]["near_misses"]}
        student_text = "\n".join([row["instruction"], row["setup_script"], *row["launch"],
                                  *(a["dest"] for a in row["assets"])])
        for check in task["rubric"]:  # no answer reaches a student-facing column (the gate's own test)
            for name in primitives[check["primitive"]].secret:
                if name in check["args"]:
                    assert not leaks(student_text, check["args"][name]), (row["id"], name)
        for solution in json.loads(hidden["solutions"]).values():
            assert solution not in student_text
        for asset, declared in zip(row["assets"], task["setup"]["assets"], strict=True):
            data = base64.b64decode(asset["content_base64"]) if fmt == "jsonl" else asset["content"]
            assert isinstance(data, bytes)  # Parquet: binary, not base64 text
            assert hashlib.sha256(data).hexdigest() == asset["sha256"] == declared["sha256"]
        # provenance: where the task came from
        assert (row["round"], row["seed"], row["workflow_signature"], row["register"]) == (
            stored.round, task["seed"], stored.workflow_signature, stored.register)


def test_parquet_is_written_in_row_groups(catalog: Catalog, tmp_path: Path, monkeypatch) -> None:
    import pyarrow.parquet as pq

    from forge.export import dataset

    monkeypatch.setattr(dataset, "ROW_GROUP", 3)  # 8 rows -> groups of 3, 3, 2: never the whole table at once
    out = tmp_path / "groups.parquet"
    assert export_dataset(catalog, out, "parquet") == 8
    meta = pq.ParquetFile(out).metadata
    assert [meta.row_group(i).num_rows for i in range(meta.num_row_groups)] == [3, 3, 2]
    assert not list(tmp_path.glob(".*.tmp"))


def test_filters_and_errors(catalog: Catalog, tmp_path: Path) -> None:
    out = tmp_path / "calc.jsonl"
    count = export_dataset(catalog, out, "jsonl", apps=["libreoffice_calc"])
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert count == len(rows) >= 1 and {r["domain"] for r in rows} == {"libreoffice_calc"}
    with pytest.raises(ForgeError, match="choose one of jsonl, parquet"):
        export_dataset(catalog, tmp_path / "x.csv", "csv")
    with pytest.raises(ForgeError, match="no accepted task matches round=3"):
        export_dataset(catalog, tmp_path / "x.jsonl", "jsonl", round=3)


def test_cli_export_parquet(catalog: Catalog, tmp_path: Path) -> None:
    from forge.cli import app

    out = tmp_path / "tasks.parquet"
    result = CliRunner().invoke(app, ["export", "parquet", str(out), "--db", catalog.url])
    assert result.exit_code == 0, result.output
    assert f"{out}: 8 tasks" in result.output
    result = CliRunner().invoke(app, ["export", "jsonl", str(tmp_path / "x.jsonl"), "--db", catalog.url,
                                      "--round", "9"])
    assert result.exit_code == 1
    assert "Error: no accepted task matches round=9" in result.output
