"""Ingest identity by content: the same attempt read from another file name, folder, copy or formatting adds
nothing; different attempts in same-named files all count; a growing file adds only its new rows."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from typer.testing import CliRunner

from forge.catalog import Catalog, StudentResultRow, TaskRow
from forge.cli import app
from forge.feedback import MAX_LINE_BYTES, ingest
from tests import pgkit
from tests.pgkit import postgres_server  # noqa: F401  (session fixture)

A, B, C = (f"calc.sort.numeric_desc--s1--{i:05d}" for i in range(3))
runner = CliRunner()


@pytest.fixture(params=["sqlite", "postgresql"])
def catalog(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Catalog]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'forge.db'}"
    else:
        url = pgkit.fresh_database(request.getfixturevalue("postgres_server"))
    catalog = Catalog(url)
    with catalog.session() as session, session.begin():
        for i, task_id in enumerate((A, B, C)):
            session.add(TaskRow(id=task_id, skill_id="calc.sort.numeric_desc", family="calc.sort",
                                app="libreoffice_calc", status="accepted", seed=1, idx=i, workflow_signature="sig"))
    yield catalog
    catalog.engine.dispose()
    if request.param == "postgresql":
        pgkit.drop_database(url)


def write_jsonl(path: Path, rows: list[dict[str, Any]], *, pretty: bool = False, newline: str = "\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    dump = (lambda r: json.dumps(dict(reversed(list(r.items()))), indent=None, separators=(" , ", " : "))) if pretty \
        else json.dumps
    path.write_text("".join(dump(r) + newline for r in rows), newline="")
    return path


def rows(catalog: Catalog) -> list[tuple[Any, ...]]:
    with catalog.session() as session:
        return [tuple(r) for r in session.execute(select(
            StudentResultRow.task_id, StudentResultRow.model, StudentResultRow.success, StudentResultRow.source_run,
            StudentResultRow.record_hash, StudentResultRow.failed_checks).order_by(StudentResultRow.id))]


RUN1 = [{"task_id": A, "success": True, "model": "m"}, {"task_id": B, "success": False, "model": "m"}]
RUN2 = [{"task_id": A, "success": False, "model": "m"}, {"task_id": B, "success": False, "model": "m",
                                                          "failure_reason": "wrong column"}]


def test_same_named_files_of_different_runs_all_count(catalog, tmp_path):
    write_jsonl(tmp_path / "results" / "run1" / "results.jsonl", RUN1)
    write_jsonl(tmp_path / "results" / "run2" / "results.jsonl", RUN2)
    report = ingest(catalog, tmp_path / "results")
    assert (report.added, report.already) == (4, 0)
    found = rows(catalog)
    assert len({r[3] for r in found}) == 2, "two source runs"
    assert all(r[3] and r[4] for r in found), "source_run and record_hash are stored"


def test_the_same_records_under_another_name_folder_or_formatting_add_nothing(catalog, tmp_path):
    original = write_jsonl(tmp_path / "a" / "results.jsonl", RUN1)
    assert ingest(catalog, original).added == 2
    renamed = tmp_path / "elsewhere" / "deep" / "renamed.jsonl"
    renamed.parent.mkdir(parents=True)
    shutil.copy(original, renamed)
    reformatted = write_jsonl(tmp_path / "b" / "x.jsonl", RUN1, pretty=True, newline="\r\n\n")
    for path in (renamed, reformatted, tmp_path):
        report = ingest(catalog, path)
        assert report.added == 0, path
    assert ingest(catalog, tmp_path).already == 6  # the three copies found under the root
    assert len(rows(catalog)) == 2


def test_identical_rows_in_one_file_are_separate_attempts(catalog, tmp_path):
    twice = write_jsonl(tmp_path / "r.jsonl", [RUN1[1], RUN1[1], RUN1[0]])
    assert ingest(catalog, twice).added == 3
    assert ingest(catalog, twice).added == 0
    assert [r[0] for r in rows(catalog)] == [B, B, A]


def test_a_growing_file_adds_only_its_new_rows(catalog, tmp_path):
    path = write_jsonl(tmp_path / "results.jsonl", RUN1)
    assert ingest(catalog, path).added == 2
    snapshot = tmp_path / "old" / "results-copy.jsonl"
    snapshot.parent.mkdir()
    shutil.copy(path, snapshot)
    write_jsonl(path, RUN1 + RUN2)  # the harness appended two more attempts
    report = ingest(catalog, tmp_path)  # the grown file and the old snapshot together
    assert (report.added, report.already) == (2, 4)
    assert len({r[3] for r in rows(catalog)}) == 1, "the grown file kept the identity of its first ingest"


def test_a_grown_file_and_its_older_copy_in_one_first_ingest_count_once(catalog, tmp_path):
    write_jsonl(tmp_path / "z-old" / "results.jsonl", RUN1)
    write_jsonl(tmp_path / "a-new" / "results.jsonl", RUN1 + RUN2)  # sorted first: read before its older copy
    report = ingest(catalog, tmp_path)
    assert (report.added, report.already) == (4, 2)


def test_another_round_does_not_make_it_another_attempt(catalog, tmp_path):
    path = write_jsonl(tmp_path / "results.jsonl", RUN1)
    assert ingest(catalog, path, round_n=1).added == 2
    assert ingest(catalog, path, round_n=2).added == 0


def osworld(root: Path, model: str, task_id: str, score: str, steps: list[dict[str, Any]],
            failed: list[str] | None = None) -> Path:
    folder = root / "pyautogui" / "screenshot" / model / "libreoffice_calc" / task_id
    folder.mkdir(parents=True)
    (folder / "traj.jsonl").write_text("".join(json.dumps(s) + "\n" for s in steps))
    (folder / "result.txt").write_text(score)
    if failed is not None:
        (folder / "checks.json").write_text(json.dumps({"task_id": task_id, "failed_checks": failed}))
    return folder


def test_osworld_results_copied_or_moved_add_nothing_reruns_count(catalog, tmp_path):
    first = tmp_path / "results-2026-11-30"
    osworld(first, "gpt-x", A, "1.0", [{"step_num": 1, "action_timestamp": "20261130@101500"}])
    osworld(first, "gpt-x", B, "0.0", [{"step_num": 1, "action_timestamp": "20261130@102000"}], failed=["c2"])
    assert ingest(catalog, first).added == 2
    shutil.copytree(first, tmp_path / "backup" / "copy-of-results")
    assert ingest(catalog, tmp_path / "backup").added == 0
    moved = tmp_path / "moved"
    first.rename(moved)
    assert ingest(catalog, moved).added == 0
    rerun = tmp_path / "results-2026-12-01"  # the same task again, same score: a new trajectory, a new attempt
    osworld(rerun, "gpt-x", A, "1.0", [{"step_num": 1, "action_timestamp": "20261201@090000"}])
    osworld(rerun, "other-model", B, "0.0", [{"step_num": 1, "action_timestamp": "20261130@102000"}], failed=["c2"])
    assert ingest(catalog, rerun).added == 2
    assert ingest(catalog, tmp_path).added == 0
    failed = {(r[0], r[1]): r[5] for r in rows(catalog)}
    assert failed[(B, "gpt-x")] == ["c2"] and failed[(A, "gpt-x")] is None


def test_failed_checks_from_jsonl_are_stored_and_validated(catalog, tmp_path):
    path = write_jsonl(tmp_path / "r.jsonl", [{"task_id": A, "success": False, "failed_checks": ["c1", "c3"]}])
    assert ingest(catalog, path).added == 1
    assert rows(catalog)[0][5] == ["c1", "c3"]
    bad = write_jsonl(tmp_path / "bad" / "r.jsonl", [{"task_id": A, "success": False, "failed_checks": "c1"}])
    result = runner.invoke(app, ["feedback", "ingest", str(bad), "--db", catalog.url])
    assert result.exit_code == 1 and result.output.count("\n") == 1
    assert f"{bad}:1: failed_checks: expected a list of check ids" in result.output


def test_hostile_results_are_one_line_errors_or_skipped(catalog, tmp_path):
    huge = tmp_path / "huge" / "r.jsonl"
    huge.parent.mkdir()
    huge.write_bytes(b'{"task_id": "' + b"x" * (MAX_LINE_BYTES + 10) + b'"}\n')
    result = runner.invoke(app, ["feedback", "ingest", str(huge), "--db", catalog.url])
    assert result.exit_code == 1 and result.output.count("\n") == 1, result.output[:300]
    assert f"{huge}:1: <line>: longer than" in result.output
    outside = write_jsonl(tmp_path / "outside" / "r.jsonl", RUN1)
    results = tmp_path / "results"
    results.mkdir()
    (results / "link.jsonl").symlink_to(outside)
    (results / "loop").symlink_to(results)
    markup = write_jsonl(results / "m.jsonl", [{"task_id": "[/x]\x1b[2J", "success": True}])
    result = runner.invoke(app, ["feedback", "ingest", str(results), "--db", catalog.url])
    assert result.exit_code == 0, result.output
    assert "added 0 attempts" in result.output and "1 unknown task ids skipped" in result.output
    assert "[/x]" in result.output and "\x1b" not in result.output and str(markup) in result.output


# --- random input never crashes the readers: a FeedbackError naming the file, or attempts ----------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from forge.feedback import FeedbackError, collect  # noqa: E402

_json = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
                     lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                  max_size=4), max_leaves=12)
_row = st.fixed_dictionaries({}, optional={"task_id": st.text(max_size=30) | _json, "success": _json,
                                           "score": _json, "steps": _json, "tokens": _json, "model": _json,
                                           "failure_reason": _json, "failed_checks": _json})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=400) | st.lists(_row | _json, max_size=5).map(
    lambda rows: "\n".join(json.dumps(r) for r in rows).encode()), where=st.sampled_from(
    ["r.jsonl", "x/result.txt", "x/traj.jsonl", "x/checks.json"]))
def test_random_results_are_read_or_refused_with_the_file_named(tmp_path_factory, data, where):
    root = tmp_path_factory.mktemp("fuzz")
    path = root / where
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    if where != "r.jsonl":
        (path.parent / "result.txt").exists() or (path.parent / "result.txt").write_text("1.0")
    try:
        attempts = collect(root)
    except FeedbackError as exc:
        assert str(path) in str(exc) and "\n" not in str(exc)
        return
    assert all(a.source_run and a.record_hash for a in attempts)
