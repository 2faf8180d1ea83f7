"""A --db that does not parse (a port that is not a number) is one line naming --db, the password masked, on every
command that opens a catalog; nothing is created."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from forge.cli import app

URL = "postgresql+psycopg://forge:s3cret@db-host:abc/forge"


@pytest.mark.parametrize("command", [["sql", "SELECT 1"], ["stats"], ["db", "current"], ["db", "upgrade"],
                                     ["db", "history"], ["feedback", "ingest", "."], ["report", "--out", "r.html"],
                                     ["export", "trajectories", "t.jsonl"]])
def test_a_port_that_is_not_a_number_is_one_line(command, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, [*command, "--db", URL])
    assert result.exit_code == 1 and result.output.count("\n") == 1, result.output[-800:]
    assert "--db postgresql+psycopg://forge:***@db-host:abc/forge: the port 'abc' is not a number" in result.output
    assert "s3cret" not in result.output and list(tmp_path.iterdir()) == []


def test_db_history_marks_the_catalogs_revision_and_trajectories_keep_its_tasks(tmp_path):
    from forge import database
    from forge.catalog import Catalog, TaskRow

    db = f"sqlite:///{tmp_path / 'forge.db'}"
    catalog = Catalog(db)
    with catalog.session() as session, session.begin():
        session.add_all([TaskRow(id=t, skill_id="os.copy.file_bak", family="os.copy", app="os", status=s, seed=1,
                                 idx=i, workflow_signature="sig") for i, (t, s) in
                         enumerate((("t-accepted", "accepted"), ("t-rejected", "lax")))])
    result = CliRunner().invoke(app, ["db", "history", "--db", db])
    assert result.exit_code == 0 and f"{database.head()}  " in result.output
    assert [line for line in result.output.splitlines() if line.endswith("<- catalog")][0].startswith(database.head())
    results = tmp_path / "results"
    for task_id in ("t-accepted", "t-rejected", "t-elsewhere"):
        folder = results / "shell" / "terminal" / "m" / "os" / task_id
        folder.mkdir(parents=True)
        (folder / "result.txt").write_text("1.0\n")
        (folder / "messages.json").write_text(json.dumps({"task_id": task_id, "messages": []}))
    out = tmp_path / "sft.jsonl"
    for extra, expected in (([], 3), (["--db", db], 1)):
        result = CliRunner().invoke(app, ["export", "trajectories", str(out), "--results", str(results), *extra])
        assert result.exit_code == 0, result.output
        assert len(out.read_text().splitlines()) == expected
    assert "t-accepted" in out.read_text()
