"""`forge demo`: every workflow family in the plan, a real run of its first tasks, and its portable query."""

from __future__ import annotations

import sqlite3

from typer.testing import CliRunner

from forge.cli import app
from forge.demo import demo_plan, representatives
from kit.taxonomy import load_taxonomy
from workflows import families


def test_the_default_demo_covers_every_family_once():
    taxonomy = load_taxonomy()
    ids = demo_plan(taxonomy, None, seed=0)
    shown = [taxonomy[t.skill_id].family for t in ids]
    assert sorted(shown) == sorted(families())  # every family, each exactly once
    assert demo_plan(taxonomy, None, seed=0) == ids  # deterministic
    assert demo_plan(taxonomy, len(ids) + 2, seed=0)[: len(ids)] == ids  # a longer demo starts the same
    assert demo_plan(taxonomy, None, seed=1) != ids  # another seed, other skills


def test_representatives_are_the_first_active_skill_of_each_family():
    taxonomy = load_taxonomy()
    for skill in representatives(taxonomy):
        same = sorted(s.id for s in taxonomy.values() if s.family == skill.family and s.status == "active")
        assert skill.id == same[0]


def test_demo_runs_and_prints_a_query_that_works(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["demo", "-n", "3", "--real-apps", "off", "--out", "demo"])
    assert result.exit_code == 0, result.output
    assert "sum(CASE WHEN status = 'accepted' THEN 1 ELSE 0 END)" in " ".join(result.stdout.split())
    rows = sqlite3.connect(tmp_path / "demo" / "forge.db").execute("SELECT path FROM tasks").fetchall()
    assert len(rows) == 3 and all(path.startswith(str(tmp_path)) for (path,) in rows)  # absolute: usable from anywhere
    calls = sqlite3.connect(tmp_path / "demo" / "forge.db").execute(
        "SELECT sum(prompt_tokens + completion_tokens), sum(estimated_tokens) FROM llm_calls").fetchone()
    assert calls[0] == 0 and calls[1] > 0  # offline: nothing spent, the estimate kept apart
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # the packages were written as ./demo/...: the export finds them from here too
    exported = CliRunner().invoke(app, ["export", "jsonl", "t.jsonl", "--db", str(tmp_path / "demo" / "forge.db")])
    assert exported.exit_code == 0, exported.output
    assert len((elsewhere / "t.jsonl").read_text().splitlines()) == len([r for r in rows if "/rejected/" not in r[0]])
