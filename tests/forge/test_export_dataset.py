"""`forge export dataset|jsonl|parquet`: one row per accepted task; answers only in the `hidden` column.

A small mixed batch (plus skills that hash to the validation and test splits) goes through the real gate; every
export is loaded back with Hugging Face `datasets` (a dataset folder with `load_dataset(OUT)`, as the Hub would).
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from forge.catalog import Catalog
from forge.export.dataset import (
    FEATURES_YAML,
    HIDDEN_COLUMN,
    STUDENT_COLUMNS,
    export_dataset,
    export_hub,
    features,
    split_of,
)
from forge.generate import Generator, Selection, plan_for
from kit.errors import ForgeError
from kit.ids import TaskId
from kit.sandbox import Sandbox
from kit.taxonomy import load_taxonomy
from verifiers.checks import registry
from verifiers.grounding import leaks

datasets = pytest.importorskip("datasets", reason="pip install -e '.[dev]' (datasets, pyarrow)")
pytestmark = pytest.mark.slow
TASKS = 13


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    root = tmp_path_factory.mktemp("dataset")
    taxonomy = load_taxonomy()
    catalog = Catalog(f"sqlite:///{root / 'forge.db'}")
    catalog.sync_skills(taxonomy.values())
    # the mix, plus skills whose hash puts them in validation and test (two tasks of one skill: one split)
    extra = [TaskId("calc.sort.date_desc", 3, 0), TaskId("calc.sort.date_desc", 3, 1),
             TaskId("calc.freeze.header_row", 3, 0), TaskId("calc.formula_column.average", 3, 0),
             TaskId("calc.infeasible.missing", 3, 0)]  # a task to decline: its row says so in `hidden` alone
    counts = Generator(root / "tasks", catalog, sandbox=Sandbox(), taxonomy=taxonomy).run(
        [*plan_for(taxonomy, Selection(), 8, seed=3), *extra])
    assert counts["accepted"] == TASKS, counts
    return catalog


def _accepted_ids(catalog: Catalog) -> list[str]:
    return [r[0] for r in catalog.query("SELECT id FROM tasks WHERE status = 'accepted' ORDER BY id")[1]]


def _same(got: object, want: object) -> bool:
    """JSON equality, floats to 1e-12: `datasets` decodes JSON with pandas' ujson, whose float parsing may change
    the last bit (0.3 -> 0.30000000000000004); the dataset card says so."""
    if isinstance(want, float) and isinstance(got, int | float) and not isinstance(got, bool):
        return math.isclose(got, want, rel_tol=1e-12)
    if isinstance(want, dict):
        return isinstance(got, dict) and got.keys() == want.keys() and all(_same(got[k], want[k]) for k in want)
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and all(map(_same, got, want))
    return type(got) is type(want) and got == want


def _check_row(catalog: Catalog, row: dict, primitives: dict) -> None:
    """A loaded row: the answers only in `hidden` (an object), assets as declared, provenance as catalogued."""
    stored = catalog.task(row["id"])
    assert stored is not None and stored.path is not None
    task = json.loads((Path(stored.path) / "task.json").read_text())
    hidden = row[HIDDEN_COLUMN]
    assert isinstance(hidden, dict) and _same(hidden["rubric"], task["rubric"])  # decoded, not JSON text
    assert _same(hidden["params"], task.get("params", {}))
    assert hidden["feasible"] is (task.get("feasible", True) is not False)  # an infeasible task says so, hidden
    solutions = task["solutions"]
    assert [(s["role"], s["path"]) for s in hidden["solutions"]] == [
        ("oracle", solutions["oracle"]), *(("near_miss", p) for p in solutions["near_misses"])]
    student_text = "\n".join([row["instruction"], row["setup_script"], *row["launch"],
                              *(a["dest"] for a in row["assets"])])
    for check in task["rubric"]:  # no answer reaches a student-facing column (the gate's own test)
        for name in primitives[check["primitive"]].secret:
            if name in check["args"]:
                assert not leaks(student_text, check["args"][name]), (row["id"], name)
    for solution in hidden["solutions"]:
        assert solution["script"] not in student_text
    for asset, declared in zip(row["assets"], task["setup"]["assets"], strict=True):
        assert set(asset) == {"dest", "sha256", "content_base64"}  # one layout, whatever the format
        data = base64.b64decode(asset["content_base64"])
        assert hashlib.sha256(data).hexdigest() == asset["sha256"] == declared["sha256"]
    # provenance: where the task came from
    assert (row["round"], row["seed"], row["workflow_signature"], row["register"]) == (
        stored.round, task["seed"], stored.workflow_signature, stored.register)


@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
def test_loads_with_datasets_and_hides_answers(catalog: Catalog, tmp_path: Path, fmt: str) -> None:
    out = tmp_path / f"tasks.{fmt}"
    assert export_dataset(catalog, out, fmt) == TASKS
    if fmt == "jsonl":  # the file holds `hidden` as a JSON object on every line
        assert all(isinstance(json.loads(line)[HIDDEN_COLUMN], dict) for line in out.read_text().splitlines())
    table = datasets.load_dataset("json" if fmt == "jsonl" else "parquet", data_files=str(out), split="train",
                                  **({"features": features()} if fmt == "jsonl" else {}))
    assert table.column_names == [*STUDENT_COLUMNS, HIDDEN_COLUMN]
    assert sorted(table["id"]) == _accepted_ids(catalog)
    primitives = registry()
    for row in table:
        _check_row(catalog, row, primitives)
    declined = {row["skill_id"] for row in table if not row[HIDDEN_COLUMN]["feasible"]}
    assert "calc.infeasible.missing" in declined
    assert declined == {row["skill_id"] for row in table if row["family"].endswith(".infeasible")}


def test_jsonl_and_parquet_rows_are_the_same(catalog: Catalog, tmp_path: Path) -> None:
    """One layout: the rows `datasets` reads from either file are equal, field for field (assets and hidden too)."""
    loaded = {}
    for fmt, builder in (("jsonl", "json"), ("parquet", "parquet")):
        export_dataset(catalog, tmp_path / f"t.{fmt}", fmt)
        options = {"features": features()} if fmt == "jsonl" else {}
        loaded[fmt] = sorted(datasets.load_dataset(builder, data_files=str(tmp_path / f"t.{fmt}"), split="train",
                                                   **options), key=lambda r: r["id"])
    assert loaded["jsonl"] == loaded["parquet"]


@pytest.mark.parametrize("fmt", ["parquet", "jsonl"])
def test_dataset_folder_loads_with_splits_by_skill_and_a_card(catalog: Catalog, tmp_path: Path, fmt: str) -> None:
    import yaml

    out = tmp_path / "hub"
    counts = export_hub(catalog, out, fmt)
    loaded = datasets.load_dataset(str(out))  # what the Hub (and a user with the folder) does
    assert set(loaded) == {"train", "validation", "test"}
    skills: dict[str, set[str]] = {}
    primitives = registry()
    for split, table in loaded.items():
        assert table.column_names == [*STUDENT_COLUMNS, HIDDEN_COLUMN]
        assert len(table) == sum(counts[split].values()) >= 1
        for row in table:
            assert split_of(row["skill_id"]) == split
            skills.setdefault(row["skill_id"], set()).add(split)
            _check_row(catalog, row, primitives)
    assert all(len(splits) == 1 for splits in skills.values())  # no skill in two splits
    assert sorted(i for t in loaded.values() for i in t["id"]) == _accepted_ids(catalog)
    card = (out / "README.md").read_text()
    front = yaml.safe_load(card.split("---\n")[1])
    assert front["license"] == "apache-2.0"
    assert front["configs"] == [{"config_name": "default", "data_files": [
        {"split": s, "path": f"data/{s}.{fmt}"} for s in ("train", "validation", "test")]}]
    assert front["dataset_info"]["features"] == features()._to_yaml_list()  # the card and the loader agree
    assert [f["name"] for f in yaml.safe_load("\n".join(FEATURES_YAML))] == [*STUDENT_COLUMNS, HIDDEN_COLUMN]
    assert {s["name"]: s["num_examples"] for s in front["dataset_info"]["splits"]} == {
        s: len(t) for s, t in loaded.items()}
    for app in {row["domain"] for t in loaded.values() for row in t}:  # counts per app
        total = sum(counts[s][app] for s in counts)
        assert re.search(rf"^\| {app} \|.*\| {total} \|$", card, re.M), app
    for heading in ("## Splits", "## Fields", "## How it was made", "## Licence", "`hidden`"):
        assert heading in card
    # deterministic: the same catalog exports the same files, and an earlier export is replaced
    before = {p.name: p.read_bytes() for p in (out / "data").iterdir()}
    export_hub(catalog, out, fmt)
    assert {p.name: p.read_bytes() for p in (out / "data").iterdir()} == before


def test_dataset_folder_refuses_a_folder_it_did_not_write(catalog: Catalog, tmp_path: Path) -> None:
    (tmp_path / "mine.txt").write_text("keep")
    with pytest.raises(ForgeError, match="holds files other than an earlier dataset export"):
        export_hub(catalog, tmp_path, "parquet")
    with pytest.raises(ForgeError, match="--license 'Apache 2': give a Hub licence id"):
        export_hub(catalog, tmp_path / "new", "parquet", license="Apache 2")
    assert (tmp_path / "mine.txt").read_text() == "keep" and not (tmp_path / "new").exists()


def test_parquet_is_written_in_row_groups(catalog: Catalog, tmp_path: Path, monkeypatch) -> None:
    import pyarrow.parquet as pq

    from forge.export import dataset

    monkeypatch.setattr(dataset, "ROW_GROUP", 5)  # 13 rows -> groups of 5, 5, 3: never the whole table at once
    out = tmp_path / "groups.parquet"
    assert export_dataset(catalog, out, "parquet") == TASKS
    meta = pq.ParquetFile(out).metadata
    assert [meta.row_group(i).num_rows for i in range(meta.num_row_groups)] == [5, 5, 3]
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
    assert f"{out}: {TASKS} tasks" in result.output
    result = CliRunner().invoke(app, ["export", "jsonl", str(tmp_path / "x.jsonl"), "--db", catalog.url,
                                      "--round", "9"])
    assert result.exit_code == 1
    assert "Error: no accepted task matches round=9" in result.output


def test_cli_export_dataset(catalog: Catalog, tmp_path: Path) -> None:
    from forge.cli import app

    result = CliRunner().invoke(app, ["export", "dataset", str(tmp_path / "hub"), "--db", catalog.url])
    assert result.exit_code == 0, result.output
    assert re.search(r"^train +\d+ tasks$", result.output, re.M) and "card: " in result.output
    assert sum(len(t) for t in datasets.load_dataset(str(tmp_path / "hub")).values()) == TASKS
