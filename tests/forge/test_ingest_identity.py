"""Ingest identity by content, per record: the same attempt read from another file name, folder, copy, formatting
or position adds nothing; different attempts in same-named files all count; a file that grows or gets a line
prepended adds only the new rows; two ingests at once add each attempt once; links and fifos are refused."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import String, cast, select, update
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
    assert len(rows(catalog)) == 4


def test_a_line_prepended_or_inserted_adds_one_attempt(catalog, tmp_path):
    path = write_jsonl(tmp_path / "results.jsonl", RUN1 + RUN2)
    assert ingest(catalog, path).added == 4
    extra = {"task_id": C, "success": True, "model": "m"}
    write_jsonl(path, [extra, *RUN1, *RUN2])  # the reviewer's case: 3 attempts were added here before
    assert (ingest(catalog, path).added, ingest(catalog, path).already) == (1, 5)
    write_jsonl(path, [RUN2[1], extra, RUN1[1], {**extra, "steps": 7}, RUN1[0], RUN2[0]])  # reordered, one new
    assert ingest(catalog, path).added == 1
    write_jsonl(path, [*RUN1, RUN1[0]])  # a second identical row is a second attempt, wherever it is
    assert ingest(catalog, path).added == 1
    assert len(rows(catalog)) == 7


def test_the_same_row_in_two_files_is_one_attempt_unless_run_tells_them_apart(catalog, tmp_path):
    write_jsonl(tmp_path / "a" / "results.jsonl", RUN1)
    write_jsonl(tmp_path / "b" / "results.jsonl", RUN1)
    assert ingest(catalog, tmp_path).added == 2
    again = [{**r, "run": "2026-12-07T10:00"} for r in RUN1]
    assert ingest(catalog, write_jsonl(tmp_path / "c" / "results.jsonl", again)).added == 2


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
    results = tmp_path / "results"
    results.mkdir()
    (results / "loop").symlink_to(results)
    markup = write_jsonl(results / "m.jsonl", [{"task_id": "[/x]\x1b[2J", "success": True}])
    result = runner.invoke(app, ["feedback", "ingest", str(results), "--db", catalog.url])
    assert result.exit_code == 0, result.output
    assert "added 0 attempts" in result.output and "1 unknown task ids skipped" in result.output
    assert "[/x]" in result.output and "\x1b" not in result.output and str(markup) in result.output


def test_upgrade_recomputes_stored_keys_so_old_ingests_are_recognized(catalog, tmp_path):
    """A catalog ingested under the old identity (keys by file prefix) upgrades to per-record keys (0006)."""
    from forge import database

    path = write_jsonl(tmp_path / "results.jsonl", [*RUN1, RUN1[0]])
    osworld(tmp_path / "osw", "gpt-x", C, "1.0", [{"step_num": 1, "action_timestamp": "20261130@101500"}])
    assert ingest(catalog, path).added == 3 and ingest(catalog, tmp_path / "osw").added == 1
    with catalog.engine.begin() as conn:  # what 0005 stored: other keys; the identity columns are the same
        conn.execute(update(StudentResultRow).values(attempt_key="old-" + StudentResultRow.task_id
                                                     + cast(StudentResultRow.id, String)))
    database.stamp(catalog.engine, "0005")
    database.upgrade(catalog.engine)
    assert (ingest(catalog, path).added, ingest(catalog, tmp_path / "osw").added) == (0, 0)
    write_jsonl(path, [RUN2[0], *RUN1, RUN1[0]])
    assert ingest(catalog, path).added == 1


SECRET = "root:$6$not-for-anyone$"


@pytest.mark.parametrize("hostile", ["result-link", "result-fifo", "traj-fifo", "checks-link", "jsonl-link",
                                     "jsonl-fifo"])
def test_links_and_fifos_are_refused_as_results_never_read(catalog, tmp_path, hostile):
    secret = tmp_path / "shadow"
    secret.write_text(SECRET + "\n")
    results = tmp_path / "results"
    folder = osworld(results, "gpt-x", A, "1.0", [{"step_num": 1}])
    write_jsonl(results / "good.jsonl", RUN1)
    what, kind = hostile.split("-")
    target = {"result": folder / "result.txt", "traj": folder / "traj.jsonl", "checks": folder / "checks.json",
              "jsonl": results / "more.jsonl"}[what]
    target.unlink(missing_ok=True)
    if kind == "link":
        target.symlink_to(secret)
    else:
        os.mkfifo(target)  # a reader that opened it would wait for a writer forever
    result = runner.invoke(app, ["feedback", "ingest", str(results), "--db", catalog.url])
    assert result.exit_code == 1 and result.output.count("\n") == 1, result.output
    assert f"{target}:1: <file>: a {'symbolic link' if kind == 'link' else 'fifo'}, not a regular file" \
        in result.output
    assert "root:" not in result.output and rows(catalog) == [], "nothing read from it, nothing written"


def test_counts_too_large_and_json_too_deep_are_one_line_errors(catalog, tmp_path):
    for row, expected in (({"task_id": A, "success": True, "steps": 1 << 63}, "steps: 9223372036854775808 is too"),
                          ({"task_id": A, "success": True, "tokens": 1 << 31}, "tokens: 2147483648 is too large"),
                          ({"task_id": A, "score": 10 ** 400}, "score: 10000000000000000000... is outside 0..1")):
        path = write_jsonl(tmp_path / "r.jsonl", [row])
        result = runner.invoke(app, ["feedback", "ingest", str(path), "--db", catalog.url])
        assert result.exit_code == 1 and result.output.count("\n") == 1, result.output
        assert f"{path}:1: {expected}" in result.output
    long = tmp_path / "long.jsonl"
    long.write_text('{"task_id": "x", "success": true, "steps": 1' + "0" * 5000 + "}\n")
    result = runner.invoke(app, ["feedback", "ingest", str(long), "--db", catalog.url])
    assert result.exit_code == 1 and f"{long}:1: <line>: a number too long to read" in result.output
    deep = tmp_path / "deep.jsonl"
    deep.write_text('{"task_id": "x", "success": ' + "[" * 100_000 + "]" * 100_000 + "}\n")
    folder = osworld(tmp_path / "results", "gpt-x", A, "1.0", [])
    (folder / "checks.json").write_text("[" * 100_000 + "]" * 100_000)
    for path, shown in ((deep, f"{deep}:1: <line>"), (folder.parent, f"{folder / 'checks.json'}:1: <file>")):
        result = runner.invoke(app, ["feedback", "ingest", str(path), "--db", catalog.url])
        assert result.exit_code == 1 and result.output.count("\n") == 1, result.output[-500:]
        assert f"{shown}: JSON nested too deeply to read" in result.output
    assert rows(catalog) == []


def test_runner_trajectories_give_tokens_steps_without_done_and_timeouts(catalog, tmp_path):
    """The lines `forge student run` writes: tokens per step, a final DONE line; OSWorld's timeout Error line."""
    step = {"response": "", "output": "", "exit_code": 0, "timed_out": False, "seconds": 0.1, "cached": False}
    lines = [{**step, "step_num": 1, "action": "ls", "prompt_tokens": 120, "completion_tokens": 8, "done": False},
             {**step, "step_num": 2, "action": "sort -n a.csv", "prompt_tokens": 200, "completion_tokens": 11,
              "done": False},
             {**step, "step_num": 3, "action": "DONE", "prompt_tokens": 260, "completion_tokens": 3, "done": True,
              "exit_code": None}]
    root = tmp_path / "results"
    osworld(root, "m", A, "1.0", lines, failed=[])
    osworld(root, "m", B, "0.0", [lines[0], {"Error": "Time limit exceeded in libreoffice_calc/" + B}])
    (root / "pyautogui" / "screenshot" / "m" / "libreoffice_calc" / B / "result.txt").unlink()
    osworld(root, "m", C, "0.0", [lines[0], {"Error": "VM crashed: connection refused"}])
    assert ingest(catalog, root).added == 3
    with catalog.session() as session:
        found = {r.task_id: r for r in session.scalars(select(StudentResultRow))}
    assert (found[A].steps, found[A].tokens, found[A].success) == (2, 602, True)
    assert found[B].infra and found[B].failure_reason.startswith("timeout: Time limit exceeded")
    assert found[C].infra and found[C].failure_reason.startswith("crash: VM crashed")
    assert (found[B].steps, found[B].tokens) == (1, 128)


_INGEST = "from forge.cli import main; main()"


def test_two_ingests_of_one_file_at_once_add_each_attempt_once(catalog, tmp_path):
    """Two processes (real ones) ingest the same file at the same moment: both succeed, each attempt once."""
    with catalog.session() as session, session.begin():
        session.add_all([TaskRow(id=f"calc.sort.numeric_desc--s2--{i:05d}", skill_id="calc.sort.numeric_desc",
                                 family="calc.sort", app="libreoffice_calc", status="accepted", seed=2, idx=i,
                                 workflow_signature="sig") for i in range(300)])
    rows_in = [{"task_id": f"calc.sort.numeric_desc--s2--{i % 300:05d}", "success": i % 3 == 0, "steps": i}
               for i in range(3000)]
    path = write_jsonl(tmp_path / "results.jsonl", rows_in)
    start = tmp_path / "go"
    script = (f"import os, time\nwhile not os.path.exists({str(start)!r}): time.sleep(0.002)\n{_INGEST}")
    procs = [subprocess.Popen([sys.executable, "-c", script, "feedback", "ingest", str(path), "--json", "--db",
                               catalog.url], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
             for _ in range(2)]
    time.sleep(3)  # both imported and waiting
    start.touch()
    outputs = [p.communicate(timeout=300)[0] for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outputs
    reports = [json.loads(o) for o in outputs]
    assert sum(r["added"] for r in reports) == 3000 and all(r["added"] + r["already_ingested"] == 3000
                                                            for r in reports)
    assert len(rows(catalog)) == 3000


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
