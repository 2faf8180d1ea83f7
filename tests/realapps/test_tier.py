"""The real-app tier inside `forge generate`: Thunderbird tasks get a real-open and an alternative stage."""

from __future__ import annotations

import shutil
import sqlite3

import pytest
from typer.testing import CliRunner

from forge.cli import app
from forge.realapps import Policy

pytestmark = pytest.mark.slow


def test_sampling_is_stable_and_skips_tasks_without_real_apps():
    office = {"id": "calc.x--s1--00000", "setup": {"assets": [{"app": "calc"}]}}
    tree = {"id": "os.x--s1--00000", "setup": {"assets": [{"app": ""}]}}
    assert Policy("all").wants(office) and not Policy("all").wants(tree)
    assert not Policy("off").wants(office)
    picks = [Policy("sample", 0.3).wants({**office, "id": f"calc.x--s1--{i:05d}"}) for i in range(400)]
    assert 0.2 < sum(picks) / 400 < 0.4
    assert picks == [Policy("sample", 0.3).wants({**office, "id": f"calc.x--s1--{i:05d}"}) for i in range(400)]


@pytest.mark.skipif(not shutil.which("thunderbird") or not shutil.which("soffice"),
                    reason="needs Thunderbird and LibreOffice installed (.ci/run installs both)")
def test_thunderbird_task_goes_through_real_thunderbird(tmp_path):
    db = tmp_path / "f.db"
    result = CliRunner().invoke(app, ["generate", "--family", "tb.create_folder", "-n", "1", "--seed", "4",
                                      "--out", str(tmp_path / "out"), "--db", str(db), "--real-apps", "all"])
    assert result.exit_code == 0, result.output
    rows = sqlite3.connect(db).execute(
        "SELECT t.status, v.verifier, v.passed, v.evidence FROM tasks t JOIN verifications v ON v.task_id = t.id "
        "WHERE v.verifier IN ('real-open', 'alternative', 'real-infra') ORDER BY v.id").fetchall()
    assert [r[:3] for r in rows] == [("accepted", "real-open", 1), ("accepted", "alternative", 1)], rows
    assert all(r[3].startswith("Thunderbird: ") for r in rows)
