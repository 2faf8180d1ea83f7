"""Issue 39 items 1 and 2: mined patterns confirmed on fresh probes, and the next round steered toward a confirmed
pattern that no axis expresses (bounded rejection sampling over seeds, skills and registers).

The harness of test_mining (a real round-1 plan, a real SQLite catalog, the students of tests/forge/students/ loaded
as `--student` would, their results ingested from the OSWorld layout), with one stand-in to keep each test within
a minute on two cores: the rounds' planned tasks are built by the workflows without the gate and recorded as
accepted (`materialise`; the gate's verdicts are not what is under test). Round 2 is prepared by `prepare_round`
itself: mining, confirmation probes answered by the student, growth, steering, allocation. The measure is the one
issue 39 sets: the share of round 2's tasks that carry the student's weakness (its own `weak(task)`, which the loop
never calls) against the blind loop's (the loop fed an all-pass student's results, same budget).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from forge.catalog import Catalog, TaskRow
from forge.expand import catalog_taxonomy
from forge.expand.steer import MAX_TRIES, Builder, Sampler, steer
from forge.features import TaskView
from forge.feedback import ingest
from forge.mining import mine, primary, round_records
from forge.rounds import prepare_round
from forge.student import load_student, simulate
from kit.ids import TaskId
from kit.sandbox import Sandbox
from workflows import get_family

STUDENTS = Path(__file__).parent / "students"
ROUND1, BUDGET, SEED = 100, 40, 7
#: students whose weakness lies along no axis -> a feature their confirmed pattern names. (deep_layout is left out:
#: its files four folders down touch 25-35 % of the blind loop's round 2, the location axis's deepest level, so no
#: loop can reach 3x; the steering still puts over 80 % of round 2 on it.)
NO_AXIS = {"spaces_in_names": "file.name=spaces", "dated_values": "value=date", "only_wording": "instruction.says=only"}


def materialise(db: str, round_n: int, ids: list[str], out: Path) -> dict[str, TaskView]:
    """Build the planned tasks (no gate), record them as round N's accepted tasks; returns their views."""
    catalog = Catalog(db)
    build = Builder(catalog_taxonomy(catalog), out)
    rows: list[tuple[TaskRow, list, list]] = []
    views: dict[str, TaskView] = {}
    for text in ids:
        task_id = TaskId.parse(text)
        built = build.build(task_id)
        if built is None:
            continue
        skill = build.taxonomy[task_id.skill_id]
        rows.append((TaskRow(id=text, skill_id=skill.id, family=skill.family, app=skill.app, status="accepted",
                             seed=task_id.seed, idx=task_id.index, path=str(out / text), evidence="",
                             instruction=built.view.instruction, register=task_id.register, round=round_n,
                             workflow_signature=get_family(skill.family).signature), [], []))
        views[text] = built.view
    catalog.record_all(rows)
    catalog.file_round_tasks(round_n, ids)
    catalog.close_round(round_n, {})
    catalog.engine.dispose()
    return views


def counts(db: str, round_n: int) -> dict[str, Any]:
    row = Catalog(db).round_row(round_n)
    assert row is not None, f"round {round_n} is not recorded"
    return row.counts


def views_of(db: str, ids: list[str], out: Path) -> list[TaskView]:
    build = Builder(catalog_taxonomy(Catalog(db)), out)
    return [b.view for b in (build.build(TaskId.parse(t)) for t in ids) if b is not None]


@pytest.fixture(scope="module")
def round_one(tmp_path_factory) -> tuple[Path, str]:
    root = tmp_path_factory.mktemp("steering")
    db = f"sqlite:///{root / 'forge.db'}"
    plan = prepare_round(db, 1, ROUND1, SEED, str(root / "round1"), k=1, limit=2, sandbox=Sandbox())
    materialise(db, 1, plan, root / "round1")
    return root, db


def with_results(round_one, name: str) -> tuple[str, Any]:
    """A copy of round 1's catalog with this student's results ingested."""
    root, _ = round_one
    path = root / f"{name}.db"
    with sqlite3.connect(root / "forge.db") as source, sqlite3.connect(path) as copy:
        source.backup(copy)
    db = f"sqlite:///{path}"
    student = load_student(f"{STUDENTS / name}.py:Student")
    simulate(Catalog(db), 1, root / f"results-{name}", seed=1, student=student)
    ingest(Catalog(db), root / f"results-{name}", 1)
    return db, student


def round_two(round_one, name: str, *, inline: bool = True) -> tuple[str, Any, list[TaskView], dict]:
    root, _ = round_one
    db, student = with_results(round_one, name)
    plan = prepare_round(db, 2, BUDGET, SEED, str(root / f"{name}-round2"), k=1, limit=2, sandbox=Sandbox(),
                         student=student if inline else None)
    expansion = counts(db, 2)["expansion"]
    return db, student, views_of(db, plan, root / f"{name}-views"), expansion


@pytest.fixture(scope="module")
def blind(round_one) -> list[TaskView]:
    """Round 2 of the loop fed an all-pass student's results: nothing is mined, nothing steered."""
    _, _, views, expansion = round_two(round_one, "all_pass")
    assert expansion["confirmation"] == [] and expansion["steering"] == [] and len(views) >= BUDGET - 2
    return views


def verdicts(expansion: dict) -> list[tuple]:
    return [(c["pattern"], c["mined"]["aliases"], c["status"], f"{c['probes_failed_carrying']}/{c['probes_carrying']}",
             f"{c['probes_failed_other']}/{c['probes_other']}", c["p"]) for c in expansion["confirmation"]]


def share(student, views: list[TaskView]) -> float:
    return sum(bool(student.weak(v)) for v in views) / len(views)


@pytest.mark.parametrize("name", sorted(NO_AXIS))
def test_the_next_round_carries_a_weakness_no_axis_expresses(round_one, blind, name):
    db, student, views, expansion = round_two(round_one, name)
    confirmed = [c for c in expansion["confirmation"] if c["status"] == "confirmed"]
    assert any(NO_AXIS[name] in (c["pattern"], *c["mined"]["aliases"]) or NO_AXIS[name] in c["pattern"]
               for c in confirmed), verdicts(expansion)
    for c in confirmed:
        assert c["p"] <= 0.05 and c["probes_carrying"] >= 3 and c["probes_other"] >= 3
    steered = expansion["steering"]
    assert steered and sum(s["tasks"] for s in steered) >= 0.2 * BUDGET, steered
    assert all(s["tries"] <= s["wanted"] * MAX_TRIES for s in steered)
    got, base = share(student, views), share(student, blind)
    print(f"{name}: round 2 share {got:.1%} vs blind {base:.1%}; steering {steered}")
    # 3x the blind loop's share, or 80 % where the blind share leaves no room for 3x (with 203 families a quarter
    # of the blind round's files have spaces in their names: 3x would be 83 %)
    assert got >= min(3 * base, 0.8) and got >= 0.3, (got, base)
    rows = sqlite3.connect(db.removeprefix("sqlite:///")).execute(
        "SELECT operator, action, reason FROM taxonomy_changes WHERE round = 2 AND operator IN ('confirm', 'steer')"
    ).fetchall()
    assert ("confirm", "confirm") in {(o, a) for o, a, _ in rows} and ("steer", "steer") in {(o, a) for o, a, _ in rows}
    assert any("one-sided Fisher" in r for _, _, r in rows) and any("tries" in r for _, _, r in rows)


def test_a_chance_pattern_fails_confirmation(round_one):
    """The fluke student's round-1 failures line up with spaces in file names (mined as significant); on fresh
    probes it fails at random: the pattern is rejected, nothing is steered or added."""
    db, student, views, expansion = round_two(round_one, "fluke")
    records = round_records(Catalog(db), 1)
    patterns, _ = primary(records, mine(records))
    assert patterns and "file.name=spaces" in patterns[0].features, [p.name for p in patterns]
    assert expansion["confirmation"] and {c["status"] for c in expansion["confirmation"]} == {"rejected"}, \
        expansion["confirmation"]
    assert expansion["steering"] == [] and expansion["added"] == {}
    assert "confirmed on fresh probes" in expansion["no_growth"]
    # its round-1 failures the (chance) pattern does not explain are what `forge skills failures --gaps` ranks (by
    # family: the student names no failed check; a family needs two of them)
    from typer.testing import CliRunner

    from forge.cli import app

    done = CliRunner().invoke(app, ["skills", "failures", "--round", "1", "--gaps", "--json", "--db", db])
    assert done.exit_code == 0, done.output
    report = json.loads(done.output)
    unexplained = sum(r.failed for r in records) - report["explained"]
    assert report["explained"] >= 5 and all(g["gap"].startswith("family=") for g in report["gaps"])
    assert sum(g["unexplained_failures"] for g in report["gaps"]) <= unexplained
    assert report["gaps"] == sorted(report["gaps"], key=lambda g: (-g["unexplained_failures"], g["p"], g["gap"]))
    # with --llm, one family draft per gap shown, kept in the catalog for review
    done = CliRunner().invoke(app, ["skills", "failures", "--round", "1", "--gaps", "--top", "3", "--llm", "offline",
                                    "--json", "--db", db])
    assert done.exit_code == 0, done.output
    drafted = json.loads(done.output)
    assert len(drafted["drafts"]) == len(drafted["gaps"]) == min(3, len(report["gaps"]))
    kept = sqlite3.connect(db.removeprefix("sqlite:///")).execute(
        "SELECT skill_id FROM taxonomy_changes WHERE operator = 'draft' AND round = 1").fetchall()
    assert sorted(k for (k,) in kept) == sorted(d["name"] for d in drafted["drafts"])
    if not drafted["gaps"]:
        shown = CliRunner().invoke(app, ["skills", "failures", "--round", "1", "--gaps", "--llm", "offline",
                                         "--db", db])
        assert shown.exit_code == 0 and "no capability gap: nothing to draft" in shown.output, shown.output


def test_the_sampler_gives_up_within_its_bound(round_one):
    """A pattern the mined round showed but no fresh task of its families carries: each task gets MAX_TRIES tries,
    the pattern stops after two tasks ran out in a row, and the unfilled share goes back to the allocation."""
    from dataclasses import replace

    from forge.expand.steer import Confirmation
    from forge.mining import Pattern

    db, _ = with_results(round_one, "all_pass")
    records = round_records(Catalog(db), 1)
    first, family = next((i, f) for i, r in enumerate(records) for f in sorted(r.features)
                         if f.startswith("family=calc."))
    records[first] = replace(records[first], features=records[first].features | {"file.name=no-such-shape"})
    impossible = Pattern((family, "file.name=no-such-shape"), 10, 9, 90, 4, 1e-6, 1e-5)
    build = Builder(catalog_taxonomy(Catalog(db)), Path(db.removeprefix("sqlite:///")).parent / "impossible")
    pool = Sampler(impossible, records, build.taxonomy, build, seed=1, run_seed=1, index=iter(range(10))).pool
    assert pool and {f"family={s.family}" for s in pool} == {family}
    [got] = steer([Confirmation(impossible, "confirmed", 1)], records, build.taxonomy, build, budget=40, seed=1,
                  run_seed=702)
    assert got.wanted > 2 and got.task_ids == [] and got.exhausted == 2 and build.builds == 2 * MAX_TRIES
    assert got.stopped and "ran out twice in a row" in got.stopped


def test_a_real_students_pattern_waits_for_its_probes(round_one):
    """Without a student that answers now, the mined pattern is pending: its probes join round 2's plan, nothing is
    steered or added; round 3 judges it on the student's round-2 results on them, then steers toward it."""
    root, _ = round_one
    db, student, _, expansion = round_two(round_one, "spaces_in_names", inline=False)
    [pending] = [c for c in expansion["confirmation"] if "file.name=spaces" in c["pattern"]]
    assert pending["status"] == "pending" and pending["probes_carrying"] >= 3 and pending["probes_other"] >= 3
    assert expansion["steering"] == [] and expansion["added"] == {} and "pending" in expansion["no_growth"]
    plan = counts(db, 2)["plan"]
    assert set(pending["carrying_ids"]) | set(pending["other_ids"]) <= set(plan) and len(plan) == BUDGET
    materialise(db, 2, plan, root / "pending-round2")
    simulate(Catalog(db), 2, root / "pending-results2", seed=1, student=student)
    ingest(Catalog(db), root / "pending-results2", 2)
    plan3 = prepare_round(db, 3, BUDGET, SEED, str(root / "pending-round3"), k=1, limit=2, sandbox=Sandbox())
    third = counts(db, 3)["expansion"]
    [judged] = [c for c in third["confirmation"] if c["pattern"] == pending["pattern"]]
    assert judged["status"] == "confirmed" and judged["mined_round"] == 1 and judged["p"] <= 0.05, verdicts(third)
    assert third["steering"] and third["steering"][0]["pattern"] == pending["pattern"] and third["steering"][0]["tasks"]
    assert share(student, views_of(db, plan3, root / "pending-views3")) >= 0.3
    # forge skills failures shows the verdict (the last word: round 3's) and the steering it led to
    from typer.testing import CliRunner

    from forge.cli import app

    runner = CliRunner()
    done = runner.invoke(app, ["skills", "failures", "--round", "1", "--mine", "--json", "--db", db])
    assert done.exit_code == 0, done.output
    report = json.loads(done.output)
    [shown] = [c for c in report["confirmation"] if c["pattern"] == pending["pattern"]]
    assert shown["status"] == "confirmed" and shown["judged_in_round"] == 3 and report["steering"][0]["round"] == 3
    table = runner.invoke(app, ["skills", "failures", "--round", "1", "--mine", "--db", db])
    assert table.exit_code == 0 and "confirmation of round 1's patterns" in table.output
    assert "round 3 steered" in table.output and "confirmed" in table.output


def test_patterns_from_the_issue_get_tasks_that_carry_them(round_one):
    """'Values are dates written day first' and 'the instruction names a file four or more folders down': a confirmed
    pattern of either steers tasks that carry it, each kept only when its feature record does. Each was seen on a
    task of round 1 (a Calc skill at date_format=day_first, one at location=deep, added to its records); the sampler
    may also draw seed skills at axis levels the taxonomy lacks (`new_skills`, admitted on their probes)."""
    from forge.expand import seed_taxonomy
    from forge.expand.steer import Confirmation
    from forge.expand.variant import atomic_skill
    from forge.mining import Pattern, Record

    db, _ = with_results(round_one, "all_pass")
    records = round_records(Catalog(db), 1)
    base = seed_taxonomy()["calc.sort.date_desc"]
    seen = {"value.date=dmy": atomic_skill(base, {"date_format": "day_first"}, round_n=1, operator="explore"),
            "instruction.path.depth=4+": atomic_skill(base, {"location": "deep"}, round_n=1, operator="explore")}
    build = Builder({**catalog_taxonomy(Catalog(db)), **{s.id: s for s in seen.values()}},
                    Path(db.removeprefix("sqlite:///")).parent / "issue")
    for feature, skill in seen.items():
        carrier = build.build(TaskId(skill.id, 701, 3))
        assert carrier is not None and feature in carrier.features, sorted(carrier.features if carrier else ())
        records.append(Record(str(carrier.task_id), carrier.features, True))
    for feature in seen:
        pattern = Pattern((feature,), 5, 5, 95, 5, 1e-6, 1e-5)
        [got] = steer([Confirmation(pattern, "confirmed", 1)], records, build.taxonomy, build, budget=12, seed=1,
                      run_seed=702, round_n=2)
        print(feature, got.as_dict())
        # (with 159 families the sampler drew skills of many that rarely carry a deep path: 4 of 9 ran out of tries
        # on depth 4+, where 98 families left at most a quarter; the family prior of Sampler._rates keeps it there)
        assert len(got.task_ids) >= got.wanted / 2 and got.exhausted <= got.wanted / 2, got.as_dict()
        for task_id in got.task_ids:
            built = build.build(TaskId.parse(task_id))
            assert built is not None and feature in built.features
