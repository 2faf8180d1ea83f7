"""Issue 39 items 1, 3 and 6: failures mined below the skill, and no growth from noise.

The statistics first (Fisher's exact tail against exact values, Benjamini-Hochberg), then a real round of 120
tasks (real gate, SQLite catalog) answered by the students in tests/forge/students/ (plain files, loaded as
`--student` would): three fail along a skill or an axis, four along none (file names, values in the files, the
instruction's wording, the layout of the files). The mined top pattern names each one's feature; a student that
fails at random and one that fails nothing get no significant pattern.
"""

from __future__ import annotations

import json
import math
import random
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from forge.catalog import Catalog
from forge.cli import app
from forge.expand import catalog_taxonomy
from forge.features import features, rubric_primitives
from forge.feedback import ingest
from forge.generate import Generator
from forge.mining import Record, benjamini_hochberg, fisher_greater, mine
from forge.rounds import candidates, finish_round, prepare_round
from forge.student import answer, load_student, round_views, simulate
from kit.ids import TaskId
from kit.sandbox import Sandbox

runner = CliRunner()
STUDENTS = Path(__file__).parent / "students"

#: student file -> the features its top mined pattern may name, one of them at least (three along a skill or axis,
#: four along none). Round 1's tasks with a `paragraphs` axis are all Writer tasks but for a chain or two: the app
#: and the axis split the tasks almost alike, and either names that weakness.
FOUND = {
    "thunderbird": ("app=thunderbird",),
    "long_documents": ("axis.paragraphs=", "app=libreoffice_writer"),
    "mailboxes": ("axis.messages=",),
    "spaces_in_names": ("file.name=spaces",),
    "dated_values": ("value=date",),
    "only_wording": ("instruction.says=only",),
    "deep_layout": ("file.deepest=4+",),
}
CONTROLS = ("coin", "all_pass")


def test_fisher_tail_is_exact():
    assert fisher_greater(5, 5, 5, 20) == pytest.approx(1 / math.comb(20, 5), rel=1e-12)
    # P(X >= 7), X ~ Hypergeometric(200 attempts, 30 failed, 20 drawn), summed with math.comb
    exact = sum(math.comb(30, x) * math.comb(170, 20 - x) for x in range(7, 21)) / math.comb(200, 20)
    assert fisher_greater(7, 20, 30, 200) == pytest.approx(exact, rel=1e-9)
    assert fisher_greater(0, 20, 30, 200) == pytest.approx(1.0)
    assert benjamini_hochberg([0.01, 0.04, 0.03, 0.5]) == pytest.approx([0.04, 0.04 * 4 / 3, 0.04 * 4 / 3, 0.5])


def test_a_planted_feature_is_found_and_noise_is_not():
    rng = random.Random(3)
    records = []
    for i in range(300):
        feats = {f"f{j}={rng.randint(0, 2)}" for j in range(12)}
        failed = rng.random() < (0.8 if "f4=1" in feats else 0.1)
        records.append(Record(str(i), frozenset(feats), failed))
    patterns = mine(records)
    assert patterns[0].name == "f4=1" and patterns[0].significant
    assert patterns[0].rate_with > 0.6 > 0.2 > patterns[0].rate_without and patterns[0].odds_ratio > 10
    noise = [Record(r.task_id, r.features, rng.random() < 0.3) for r in records]
    assert not [p for p in mine(noise) if p.significant]
    assert mine([Record(r.task_id, r.features, False) for r in records]) == []


@pytest.fixture(scope="module")
def round_one(tmp_path_factory) -> tuple[Path, str, list, dict]:
    root = tmp_path_factory.mktemp("mining")
    db = f"sqlite:///{root / 'forge.db'}"
    sandbox = Sandbox()
    plan = prepare_round(db, 1, 120, 7, str(root / "round1"), k=1, limit=4, sandbox=sandbox)
    catalog = Catalog(db)
    Generator(root / "round1", catalog, sandbox=sandbox, taxonomy=catalog_taxonomy(catalog)).run(
        [TaskId.parse(t) for t in plan])
    finish_round(db, 1, str(root / "round1"), None)
    views = round_views(catalog, 1)
    paths = catalog.task_paths([v.id for v in views])
    feats = {v.id: features(v, rubric_primitives(Path(str(paths[v.id])))) for v in views}
    catalog.engine.dispose()
    return root, db, views, feats


def mined(round_one, name: str):
    _, _, views, feats = round_one
    student = load_student(f"{STUDENTS / name}.py:Student")
    return mine([Record(v.id, feats[v.id], not answer(student, v)[0]) for v in views]), student


@pytest.mark.parametrize("name", sorted(FOUND))
def test_the_top_mined_pattern_names_each_students_weakness(round_one, name):
    _, _, views, _ = round_one
    assert len(views) >= 100
    patterns, student = mined(round_one, name)
    weak = sum(student.weak(v) for v in views)
    assert 8 <= weak <= len(views) // 2, f"{name}: its rule touches {weak} of round 1's {len(views)} tasks"
    top = patterns[0]
    assert top.significant and top.odds_ratio > 10, top.as_dict()
    assert any(want in f for want in FOUND[name] for f in (*top.features, *top.aliases)), (name, top.as_dict())


@pytest.mark.parametrize("name", CONTROLS)
def test_a_random_or_all_pass_student_has_no_significant_pattern(round_one, name):
    patterns, _ = mined(round_one, name)
    assert not [p.as_dict() for p in patterns if p.significant]


def catalog_for(round_one, name: str, spec: str | None = None) -> str:
    """A copy of round 1's catalog with this student's results ingested (OSWorld layout, as simulate writes)."""
    root, _, _, _ = round_one
    path = root / f"{name}.db"
    with sqlite3.connect(root / "forge.db") as source, sqlite3.connect(path) as copy:
        source.backup(copy)
    db = f"sqlite:///{path}"
    catalog = Catalog(db)
    student = load_student(spec or f"{STUDENTS / name}.py:Student")
    simulate(catalog, 1, root / f"results-{name}", seed=1, student=student)
    ingest(catalog, root / f"results-{name}", 1)
    catalog.engine.dispose()
    return db


def test_skills_failures_mine_prints_the_patterns_from_the_catalog(round_one):
    db = catalog_for(round_one, "spaces_in_names")
    done = runner.invoke(app, ["skills", "failures", "--round", "1", "--mine", "--json", "--db", db])
    assert done.exit_code == 0, done.output
    report = json.loads(done.output)
    top = report["patterns"][0]
    assert report["attempts"] >= 100 and top["pattern"] == "file.name=spaces" and top["significant"]
    assert top["fail_rate_with"] > 0.8 > 0.1 > top["fail_rate_without"] and top["q"] < 1e-6
    table = runner.invoke(app, ["skills", "failures", "--round", "1", "--mine", "--top", "3", "--db", db])
    assert table.exit_code == 0 and "file.name=spaces" in table.output and "significant" in table.output
    quiet = runner.invoke(app, ["skills", "failures", "--round", "1", "--mine", "--db", catalog_for(round_one, "coin")])
    assert quiet.exit_code == 0 and "no pattern explains the failures beyond chance" in quiet.output, quiet.output


def test_no_growth_from_noise(round_one, tmp_path):
    """Item 3: round 2's additions for a student that fails at random (at the weak student's own failure rate)
    and for one that fails nothing are at most 5 % of those of a student with a real weakness; without the gate
    (the loop before issue 39) the random student got as many as the weak one."""
    _, _, views, feats = round_one
    weak = load_student(f"{STUDENTS / 'spaces_in_names'}.py:Student")
    rate = sum(not answer(weak, v)[0] for v in views) / len(views)
    (tmp_path / "same_rate.py").write_text(
        "import hashlib\n\n\nclass Student:\n    def attempt(self, task):\n"
        "        h = int(hashlib.sha256(f'noise:{task.id}'.encode()).hexdigest()[:8], 16) / 0xFFFFFFFF\n"
        f"        return h >= {rate!r}\n")
    noisy = load_student(f"{tmp_path / 'same_rate.py'}:Student")
    assert abs(sum(not answer(noisy, v)[0] for v in views) / len(views) - rate) < 0.08

    def wanted(name: str, spec: str, gate: bool = True) -> tuple[int, str | None]:
        nonlocal share
        db = catalog_for(round_one, name, spec)
        catalog = Catalog(db)
        found, _, analysis = candidates(catalog, 2, seed=7, taxonomy=catalog_taxonomy(catalog), gate=gate)
        catalog.engine.dispose()
        share = sum(c.skill.family in weak_families for c in found) / max(len(found), 1)
        return len(found), analysis.no_growth

    share = 0.0
    weak_families = {v.family for v in views if weak.weak(v)}
    real, why = wanted("weak", f"{STUDENTS / 'spaces_in_names'}.py:Student")
    assert real >= 20 and why is None, (real, why)
    # failures no pattern explains (the student's 5 % background) grow nothing: the additions go to the families
    # of the failed tasks the pattern explains
    targeted = share
    ungated_real, _ = wanted("weak-ungated", f"{STUDENTS / 'spaces_in_names'}.py:Student", gate=False)
    print(f"weak student: {real} candidates, {targeted:.0%} in its weak families; ungated {ungated_real}, "
          f"{share:.0%}")
    assert targeted >= 0.85 and targeted >= share and real < ungated_real
    for name, spec in (("noise", f"{tmp_path / 'same_rate.py'}:Student"),
                       ("all-pass", f"{STUDENTS / 'all_pass'}.py:Student")):
        got, why = wanted(name, spec)
        print(f"round 2 candidates: {name} {got}, weak student {real}")
        assert got <= 0.05 * real, (name, got, real)
        assert why and "no failure pattern beyond chance in round 1" in why and "nothing is added" in why
    ungated, _ = wanted("noise-ungated", f"{tmp_path / 'same_rate.py'}:Student", gate=False)
    assert ungated > 0.05 * real, "without the gate, noise grew the taxonomy (what the test guards against)"
