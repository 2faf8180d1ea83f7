"""`forge feedback ingest` on real generated tasks: OSWorld result folders (the reviewer's hand-made case) and
JSONL, compared with hand arithmetic through `forge stats`; malformed input names file, line and field."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from forge.cli import app

runner = CliRunner()
SKILLS = ["--skill", "calc.sort.numeric_desc", "--skill", "os.copy.file_bak", "--register", "explicit"]
A, B = "calc.sort.numeric_desc--s1--00000", "calc.sort.numeric_desc--s1--00001"
C, D = "os.copy.file_bak--s1--00000", "os.copy.file_bak--s1--00001"
ODD = "tâche d'essai (copie) #1 ✓ $HOME;\"x\""


def invoke(*args: str):
    return runner.invoke(app, list(args))


@pytest.fixture(scope="module")
def catalog_db(tmp_path_factory) -> str:
    """Four real tasks (two skills) through the real gate."""
    root = tmp_path_factory.mktemp("feedback")
    db = f"sqlite:///{root / 'forge.db'}"
    result = invoke("generate", *SKILLS, "-n", "4", "--seed", "1", "--out", str(root / "out"), "--db", db,
                    "--real-apps", "off")
    assert result.exit_code == 0, result.output
    return db


def copy_db(db: str, tmp_path: Path) -> str:
    target = tmp_path / "copy.db"
    source = sqlite3.connect(db.removeprefix("sqlite:///"))
    with sqlite3.connect(target) as dest:
        source.backup(dest)
    return f"sqlite:///{target}"


def task_folder(root: Path, domain: str, task_id: str, *, result: str | None, steps: int, error: str | None = None
                ) -> None:
    folder = root / "pyautogui" / "screenshot" / "gpt-test" / domain / task_id
    folder.mkdir(parents=True)
    lines = [json.dumps({"step_num": i, "action": "pyautogui.click(1, 2)", "reward": 0, "done": False, "info": {},
                         "screenshot_file": f"step_{i}.png"}) for i in range(1, steps + 1)]
    if error:
        lines.append(json.dumps({"Error": error}))
    (folder / "traj.jsonl").write_text("\n".join(lines) + "\n")
    if result is not None:
        (folder / "result.txt").write_text(result)


@pytest.fixture
def results(tmp_path) -> Path:
    """The reviewer's folder: a success, a fractional score, a failure, a crash, an unknown id, an odd id."""
    root = tmp_path / "results"
    task_folder(root, "libreoffice_calc", A, result="1.0\n", steps=4)
    task_folder(root, "libreoffice_calc", B, result="0.5", steps=6)
    task_folder(root, "os", C, result="0", steps=10)
    task_folder(root, "os", D, result=None, steps=2, error="VM crashed: connection refused")
    task_folder(root, "os", "no.such.skill--s1--00000", result="1", steps=1)
    task_folder(root, "os", ODD, result="1", steps=1)
    return root


def stats_json(db: str, *extra: str) -> dict[str, dict]:
    result = invoke("stats", "--json", "--db", db, *extra)
    assert result.exit_code == 0, result.output
    return {row["skill_id"]: row for row in json.loads(result.output)}


def test_osworld_folder_matches_hand_arithmetic(catalog_db, results, tmp_path):
    db = copy_db(catalog_db, tmp_path)
    result = invoke("feedback", "ingest", str(results), "--db", db)
    assert result.exit_code == 0, result.output
    assert ("added 4 attempts (1 infrastructure failures), 0 already ingested, 2 unknown task ids skipped"
            in result.output)
    assert "no.such.skill--s1--00000" in result.output and "tâche d'essai" in result.output
    stats = stats_json(db)
    calc, os_ = stats["calc.sort.numeric_desc"], stats["os.copy.file_bak"]
    # calc: scores 1.0 and 0.5 -> 2 attempts, 1 success (only a full score counts), mean score 0.75, steps (4+6)/2.
    assert (calc["attempts"], calc["successes"], calc["success_rate"], calc["mean_score"], calc["mean_steps"],
            calc["infra_failures"]) == (2, 1, 0.5, 0.75, 5.0, 0)
    # os: one failure (score 0, 10 steps) and one crash, which is left out of everything but infra_failures.
    assert (os_["attempts"], os_["successes"], os_["success_rate"], os_["mean_score"], os_["mean_steps"],
            os_["infra_failures"]) == (1, 0, 0.0, 0.0, 10.0, 1)
    assert os_["failure_reasons"] == {"crash: VM crashed: connection refused": 1}
    rows = sqlite3.connect(db.removeprefix("sqlite:///")).execute(
        "SELECT task_id, model, score, success, steps, infra FROM student_results ORDER BY task_id").fetchall()
    assert rows == [(A, "gpt-test", 1.0, 1, 4, 0), (B, "gpt-test", 0.5, 0, 6, 0), (C, "gpt-test", 0.0, 0, 10, 0),
                    (D, "gpt-test", None, None, 2, 1)]
    table = invoke("stats", "--db", db)
    assert "2 skills, 3 attempts, 1 successes, 1 infrastructure failures" in table.output


def test_reingest_adds_nothing_and_views_answer_sql(catalog_db, results, tmp_path):
    db = copy_db(catalog_db, tmp_path)
    assert invoke("feedback", "ingest", str(results), "--db", db).exit_code == 0
    again = invoke("feedback", "ingest", str(results / "pyautogui"), "--db", db, "--json")
    assert again.exit_code == 0, again.output
    report = json.loads(again.output)
    assert (report["added"], report["already_ingested"]) == (0, 4), "same folders, even from a deeper root"
    sql = invoke("sql", "--db", db, "--format", "json",
                 "SELECT skill_id, attempts, successes, infra_failures FROM skill_stats ORDER BY skill_id")
    assert sql.exit_code == 0, sql.output
    assert json.loads(sql.output) == [
        {"skill_id": "calc.sort.numeric_desc", "attempts": 2, "successes": 1, "infra_failures": 0},
        {"skill_id": "os.copy.file_bak", "attempts": 1, "successes": 0, "infra_failures": 1}]


def test_jsonl_rows_and_round_option(catalog_db, tmp_path):
    db = copy_db(catalog_db, tmp_path)
    path = tmp_path / "attempts.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in [
        {"task_id": A, "success": True, "steps": 7, "tokens": 1200, "model": "m1"},
        {"task_id": B, "score": 0.25, "failure_reason": "saved to the wrong file"},
        {"task_id": C, "success": False, "failure_reason": "saved to the wrong file"},
        {"task_id": "calc.sort.numeric_desc--s9--00000", "success": True},
    ]) + "\n\n")
    result = invoke("feedback", "ingest", str(path), "--round", "2", "--db", db, "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert (report["added"], report["rounds"]) == (3, [2])
    assert report["unknown"] == [{"source": f"{path}:4", "task_id": "calc.sort.numeric_desc--s9--00000"}]
    assert stats_json(db, "--round", "1") == {}
    calc = stats_json(db, "--round", "2")["calc.sort.numeric_desc"]
    assert (calc["attempts"], calc["successes"], calc["mean_score"], calc["mean_steps"]) == (2, 1, 0.625, 7.0)
    assert calc["failure_reasons"] == {"saved to the wrong file": 1}


@pytest.mark.parametrize(("line", "message"), [
    (f'{{"task_id": "{A}", "score": 1.5}}', "attempts.jsonl:2: score: 1.5 is outside 0..1"),
    (f'{{"task_id": "{A}"}}', "attempts.jsonl:2: success: give `success` (true/false) or `score` (0..1)"),
    (f'{{"task_id": "{A}", "success": "yes"}}', "attempts.jsonl:2: success: give `success`"),
    (f'{{"task_id": "{A}", "success": true, "steps": -1}}', "attempts.jsonl:2: steps: -1 is not a whole number"),
    (f'{{"task": "{A}", "success": true}}', "attempts.jsonl:2: task: unknown field"),
    (f'{{"task_id": "{A}", "success": tru', "attempts.jsonl:2: <line>: not JSON"),
])
def test_malformed_jsonl_names_line_and_field_and_adds_nothing(catalog_db, tmp_path, line, message):
    db = copy_db(catalog_db, tmp_path)
    path = tmp_path / "attempts.jsonl"
    path.write_text(json.dumps({"task_id": C, "success": True}) + "\n" + line + "\n")
    result = invoke("feedback", "ingest", str(path), "--db", db)
    assert result.exit_code == 1
    assert message in result.output
    assert result.output.startswith("Error: ") and result.output.count("\n") == 1
    count = sqlite3.connect(db.removeprefix("sqlite:///")).execute("SELECT count(*) FROM student_results")
    assert count.fetchone() == (0,), "all or nothing: the good first line is not half-ingested"


def test_result_txt_that_is_not_a_score(catalog_db, tmp_path):
    db = copy_db(catalog_db, tmp_path)
    root = tmp_path / "results"
    task_folder(root, "os", C, result="done!", steps=1)
    result = invoke("feedback", "ingest", str(root), "--db", db)
    assert result.exit_code == 1
    assert f"{C}/result.txt:1: result: 'done!' is not a number" in result.output


def test_missing_path_says_what_to_give(catalog_db, tmp_path):
    result = invoke("feedback", "ingest", str(tmp_path / "nowhere"), "--db", copy_db(catalog_db, tmp_path))
    assert result.exit_code == 1
    assert "no such file or folder; give a results folder or a JSONL file" in result.output


def test_ingest_with_states_reruns_the_rubric_for_failed_checks(catalog_db, tmp_path):
    """`--states DIR`: the rubric is re-run (sandboxed) on each attempt's final state to record what failed."""
    db = copy_db(catalog_db, tmp_path)
    paths = dict(sqlite3.connect(db.removeprefix("sqlite:///")).execute(
        f"SELECT id, path FROM tasks WHERE id IN ('{C}', '{D}')").fetchall())
    states = tmp_path / "states"
    for task_id, solution in ((C, "oracle"), (D, "none")):
        done = invoke("solve", paths[task_id], "--state", str(states / task_id), "--solution", solution)
        assert done.exit_code == 0, done.output
    results = tmp_path / "r.jsonl"
    results.write_text(json.dumps({"task_id": C, "success": True}) + "\n"
                       + json.dumps({"task_id": D, "success": False}) + "\n"
                       + json.dumps({"task_id": A, "success": False, "failed_checks": ["sorted"]}) + "\n")
    report = invoke("feedback", "ingest", str(results), "--states", str(states), "--db", db, "--json")
    assert report.exit_code == 0, report.output
    assert json.loads(report.output)["rechecked"] == 2
    failed = dict(sqlite3.connect(db.removeprefix("sqlite:///")).execute(
        "SELECT task_id, failed_checks FROM student_results").fetchall())
    assert json.loads(failed[C]) == [], "the oracle's end state passes every check"
    assert json.loads(failed[D]), "the untouched state fails the rubric"
    assert json.loads(failed[A]) == ["sorted"], "failed checks the results give are kept"
    bad = invoke("feedback", "ingest", str(results), "--states", str(tmp_path / "nope"), "--db", db)
    assert bad.exit_code == 1 and "--states must be a folder" in bad.output
