"""Two small feedback rounds end to end through the CLI: real gate, real SQLite catalog, the simulated student's
OSWorld-layout results ingested back, lineage readable."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from forge.cli import app
from forge.expand import seed_taxonomy
from forge.rounds import RoundError, finish_round, prepare_round
from kit.taxonomy import Skill
from tests.pgkit import postgres_server  # noqa: F401  (session fixture, for db_url's PostgreSQL case)

runner = CliRunner()


def invoke(*args: str):
    result = runner.invoke(app, list(args))
    return result


def sql(db: str, query: str) -> list[tuple]:
    return sqlite3.connect(db.removeprefix("sqlite:///")).execute(query).fetchall()


@pytest.fixture(scope="module")
def two_rounds(tmp_path_factory) -> tuple[Path, str]:
    root = tmp_path_factory.mktemp("rounds")
    db = f"sqlite:///{root / 'forge.db'}"
    for number in (1, 2):
        out = root / f"round{number}"
        result = invoke("round", "run", "--round", str(number), "--budget", "5", "--grow", "3", "--k", "1",
                        "--seed", "3", "--out", str(out), "--db", db, "--json")
        assert result.exit_code == 0, result.output
        sim = invoke("student", "simulate", "--round", str(number), "--out", str(root / f"results{number}"),
                     "--seed", "1", "--db", db)
        assert sim.exit_code == 0, sim.output
        ingest = invoke("feedback", "ingest", str(root / f"results{number}"), "--db", db, "--json")
        assert ingest.exit_code == 0, ingest.output
        assert json.loads(ingest.output)["unknown"] == [], "exported ids map back to catalog tasks"
        if number == 1:  # the simulated student may pass all 5 tasks: a second one fails the explored skill's twice
            first = sql(db, "SELECT t.id FROM tasks t JOIN skills s ON s.id = t.skill_id WHERE t.round = 1 AND "
                            "t.status = 'accepted' ORDER BY s.origin = 'round-1' DESC, t.id")[0][0]
            (root / "tester.jsonl").write_text("".join(json.dumps({"task_id": first, "success": False,
                                                                   "model": "tester"}) + "\n" for _ in range(2)))
            assert invoke("feedback", "ingest", str(root / "tester.jsonl"), "--db", db).exit_code == 0
    return root, db


def test_rounds_add_probed_skills_with_lineage(two_rounds):
    root, db = two_rounds
    added = sql(db, "SELECT round, operator, count(*) FROM skills WHERE origin != 'seed' GROUP BY 1, 2 ORDER BY 1, 2")
    assert sum(n for _, _, n in added) >= 2, added  # round 1 explores 3 candidates, nearly all pass their probe
    # round 1's 7 attempts hold no failure pattern beyond chance: round 2 adds nothing and says so (issue 39)
    assert {r for r, _, _ in added} == {1}
    expansion = json.loads(sql(db, "SELECT counts FROM rounds WHERE id = 2")[0][0])["expansion"]
    assert expansion["added"] == {} and "no failure pattern beyond chance in round 1" in expansion["no_growth"]
    adds = sql(db, "SELECT s.id, c.reason FROM skills s JOIN taxonomy_changes c ON c.skill_id = s.id "
                   "AND c.action = 'add' WHERE s.round = 1")
    assert adds and all("1/1 probe tasks passed the gate" in reason for _, reason in adds)
    skill_id = adds[0][0]
    lineage = invoke("skills", "history", "--skill", skill_id, "--db", db)
    assert lineage.exit_code == 0, lineage.output
    assert skill_id in lineage.output and "origin=round-1" in lineage.output and "round 1 " in lineage.output
    history = invoke("skills", "history", "--db", db, "--json")
    per_round = {r["round"]: r for r in json.loads(history.output)}
    assert per_round[0]["skills"] == len(seed_taxonomy())
    assert per_round[2]["skills"] == per_round[1]["skills"] + per_round[2]["added"]


def test_round_tasks_exported_and_marked(two_rounds):
    root, db = two_rounds
    for number in (1, 2):
        accepted = sql(db, f"SELECT id, app FROM tasks WHERE round = {number} AND status = 'accepted'")
        assert len(accepted) == 5, "every planned task passed the gate"
        exported = {p.stem for p in (root / f"round{number}" / "osworld").rglob("examples/*/*.json")}
        assert exported == {task_id for task_id, _ in accepted}
        multi = sum(app == "multi_apps" for _, app in accepted)
        assert multi == 2, "40 % of a round's tasks are multi-app"
    assert sql(db, "SELECT id, status FROM rounds ORDER BY id") == [(1, "closed"), (2, "closed")]


def test_round_two_reweights_from_round_one_results(two_rounds):
    _, db = two_rounds
    failed = sql(db, "SELECT skill_id, success_rate FROM skill_round_stats WHERE round = 1 AND attempts > 0 "
                     "AND success_rate < 0.5")
    assert failed, "the students failed something in round 1"
    for skill_id, rate in failed:
        new = round(1.0 + 3.0 * (1.0 - rate), 4)
        rows = sql(db, f"SELECT operator, action, reason FROM taxonomy_changes WHERE round = 2 AND "
                       f"skill_id = '{skill_id}' AND action = 'reweight'")
        assert rows and rows[0][0] == "reallocate" and f"weight 1.00 -> {new:.2f}" in rows[0][2], (skill_id, rows)
        assert sql(db, f"SELECT weight FROM skills WHERE id = '{skill_id}'") == [(new,)]


def test_prepare_is_idempotent_and_finish_needs_a_prepared_round(two_rounds, tmp_path):
    _, db = two_rounds
    plan = json.loads(sql(db, "SELECT counts FROM rounds WHERE id = 2")[0][0])["plan"]
    assert prepare_round(db, 2, 5, 3, str(tmp_path)) == plan
    with pytest.raises(RoundError, match="round 5 was not prepared; run `forge round run --round 5` first"):
        finish_round(db, 5, str(tmp_path), None)
    bad = invoke("round", "run", "--round", "0", "--out", str(tmp_path), "--db", db)
    assert bad.exit_code == 1 and "rounds are numbered from 1" in bad.output


def test_simulated_student_is_seeded_and_writes_the_osworld_layout(two_rounds, tmp_path):
    root, db = two_rounds
    for name in ("a", "b"):
        assert invoke("student", "simulate", "--round", "1", "--out", str(tmp_path / name), "--seed", "1",
                      "--db", db).exit_code == 0
    files = {p.relative_to(tmp_path / "a"): p.read_bytes() for p in (tmp_path / "a").rglob("*") if p.is_file()}
    assert files == {p.relative_to(tmp_path / "b"): p.read_bytes() for p in (tmp_path / "b").rglob("*") if p.is_file()}
    folders = {p.parent for p in (tmp_path / "a").rglob("traj.jsonl")}
    assert len(folders) == 5
    for folder in folders:
        assert folder.relative_to(tmp_path / "a").parts[:3] == ("pyautogui", "screenshot", "simulated-student")
        crashed = '"Error"' in (folder / "traj.jsonl").read_text()
        assert crashed != (folder / "result.txt").is_file()


def test_counts_separate_atomic_skills_from_chains_and_failures_are_listed(two_rounds):
    root, db = two_rounds
    history = {r["round"]: r for r in json.loads(invoke("skills", "history", "--db", db, "--json").output)}
    for r in history.values():
        assert r["atomic"] + r["chains"] == r["skills"] and r["added_atomic"] + r["added_chains"] == r["added"]
    table = invoke("skills", "history", "--db", db)
    assert "atomic" in table.output and "chains" in table.output
    listed = invoke("skills", "list", "--space")
    assert listed.exit_code == 0 and "atomic (single-app)" in listed.output and "atomic skill space" in listed.output
    failures = invoke("skills", "failures", "--round", "1", "--db", db, "--json")
    assert failures.exit_code == 0, failures.output
    rows = json.loads(failures.output)
    assert rows and {"family", "axis", "level", "attempts", "success_rate", "failed_checks"} <= set(rows[0])
    unknown = invoke("student", "simulate", "--round", "1", "--out", str(root / "x"), "--student", "planed",
                     "--db", db)
    assert unknown.exit_code == 1 and "Did you mean 'planted'?" in unknown.output


def test_the_simulated_student_learns_family_by_family():
    """Practice closes half the gap per `learn` attempts, in the family practised only: a round that practises
    large tables in one family leaves the weakness standing in the others (so later rounds still have failures
    to expand around)."""
    from forge.student import PLANTED

    big = {"rows": "40-60"}
    weakness = PLANTED.hits("calc.sort_rows", big)[0]
    assert PLANTED.chance("calc.sort_rows", big, {}) == weakness.chance
    practised = {(weakness.name, "calc.sort_rows"): weakness.learn}
    assert PLANTED.chance("calc.sort_rows", big, practised) == pytest.approx((weakness.chance + PLANTED.base) / 2)
    assert PLANTED.chance("calc.chart", big, practised) == weakness.chance
    assert PLANTED.chance("calc.sort_rows", {"rows": "8-16"}, {}) == PLANTED.base
    assert not PLANTED.hits("calc.sort_rows", {"rows": "32-40"})  # "over 40 rows": a 32-40 table is fine


def test_the_loops_catalog_questions_on_sqlite_and_postgresql(db_url):
    """The queries the loop asks the catalog (forge.rounds, forge.expand, forge.feedback, forge.student), each one
    `Catalog` method, on both databases: a round's lifecycle, weights, lineage, attempts."""
    from forge.catalog import Catalog, TaskRow
    from forge.expand import change
    from forge.feedback import Attempt

    catalog = Catalog(db_url)
    seeds = [seed_taxonomy()[sid] for sid in ("calc.sort.numeric_asc", "calc.sort.date_desc")]
    catalog.sync_skills(seeds)
    catalog.start_round(1, budget=2, seed=4, out="out")
    assert catalog.round_row(1).status == "preparing" and catalog.round_row(2) is None
    new = Skill(id="calc.sort.numeric_asc.rows_32_40", family="calc.sort_rows", apps=("libreoffice_calc",),
                params={**seeds[0].params, "rows": "32-40"}, description="d", difficulty="hard", parent=seeds[0].id)
    catalog.add_round_skills(1, [(new, "variant")])
    assert catalog.record_changes(1, [change("variant", "add", new.id, "r"), change("variant", "refuse", "x", "r"),
                                      change("reallocate", "reweight", seeds[1].id, "r")]) == 3
    assert catalog.refused_skill_ids() == {"x"} and catalog.skills_of_round(1) == {new.id}
    assert catalog.reweighted_in_round(1, ["reallocate"]) and not catalog.reweighted_in_round(1, ["retire"])
    catalog.set_weights([(seeds[1].id, 2.5, False), (seeds[0].id, 0.5, True), ("no.such.skill", 9.0, True)])
    assert catalog.skill_weights() == {seeds[0].id: 0.5, seeds[1].id: 2.5, new.id: 1.0}
    assert {r.id: r.status for r in catalog.skill_rows()}[seeds[0].id] == "retired"
    catalog.open_round(1, {"out": "out", "plan": ["t1", "t2"]})
    tasks = [TaskRow(id=t, skill_id=s, family="calc.sort_rows", app="libreoffice_calc", status=st, seed=4, idx=0,
                     workflow_signature="sig", path=f"/p/{t}", round=0)
             for t, s, st in (("t1", new.id, "accepted"), ("t2", seeds[1].id, "rejected"), ("t3", new.id, "accepted"))]
    catalog.record_all((t, [], []) for t in tasks)
    statuses, apps = catalog.file_round_tasks(1, ["t1", "t2"])
    assert statuses == {"accepted": 1, "rejected": 1} and apps == {"libreoffice_calc": 1}
    assert catalog.accepted_skills_in_round(1) == [("t1", new.id, "libreoffice_calc")]
    assert catalog.task_paths(["t1", "t3", "t9"]) == {"t1": "/p/t1", "t3": "/p/t3"}
    attempts = [Attempt(t, "m", s, s == 1.0, 3, None, None, infra, "src", "run1", f"h{t}{i}", failed_checks=checks)
                for i, (t, s, infra, checks) in enumerate((("t1", 0.0, False, ["c1"]), ("t3", 1.0, False, None),
                                                          ("t9", 1.0, False, None), ("t1", None, True, None)))]
    assert catalog.add_attempts(attempts, None) == [("added", 1), ("added", 0), ("unknown", None), ("added", 1)]
    assert catalog.add_attempts(attempts[:1], 2) == [("already", 2)], "the round is not part of the identity"
    assert catalog.round_attempts(1) == [(new.id, False, ["c1"])], "infra failures left out"
    assert catalog.attempts_per_skill("m", 2) == {new.id: 2} and catalog.attempts_per_skill("m", 1) == {new.id: 1}
    catalog.close_round(1, {"tasks": dict(statuses)})
    row = catalog.round_row(1)
    assert row.status == "closed" and row.counts == {"out": "out", "plan": ["t1", "t2"], "tasks": dict(statuses)}
    catalog.close()


def test_round_one_expands_from_the_results_on_generated_tasks(tmp_path):
    """`forge generate` tasks are round 0; a student's results on them (ingested without --round) are what round 1
    expands from, as `forge round run --help` says (they were ignored: round 1 always explored)."""
    db = f"sqlite:///{tmp_path / 'forge.db'}"
    made = invoke("generate", "--skill", "calc.sort.numeric_desc", "-n", "2", "--seed", "1", "--out",
                  str(tmp_path / "out"), "--db", db, "--real-apps", "off")
    assert made.exit_code == 0, made.output
    ids = [row[0] for row in sql(db, "SELECT id FROM tasks WHERE status = 'accepted' AND round = 0 ORDER BY id")]
    assert ids, "generated tasks are round 0"
    results = tmp_path / "results.jsonl"
    results.write_text("".join(json.dumps({"task_id": t, "success": False, "model": "m", "run": str(i)}) + "\n"
                               for t in ids for i in range(3)))
    assert invoke("feedback", "ingest", str(results), "--db", db).exit_code == 0
    result = invoke("round", "run", "--round", "1", "--budget", "2", "--grow", "1", "--k", "1", "--seed", "3",
                    "--out", str(tmp_path / "round1"), "--db", db, "--json")
    assert result.exit_code == 0, result.output
    expansion = json.loads(result.output)["expansion"]
    assert expansion["attempts_analysed"] == 3 * len(ids)
    assert "explore" not in expansion["wanted"] and expansion["reweighted"] >= 1, expansion
    reasons = sql(db, "SELECT operator, reason FROM taxonomy_changes WHERE round = 1 AND action = 'reweight'")
    assert any("calc.sort.numeric_desc" in r or "round 0" in r for _, r in reasons), reasons
