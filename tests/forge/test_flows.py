import sqlite3

import pytest

from forge.flows import generate_batch, generate_flow

pytestmark = pytest.mark.slow


def test_generate_flow_runs_batches_and_catalogs_every_task(prefect_harness, tmp_path):
    db = tmp_path / "flow.db"
    totals = generate_flow(n=9, seed=3, out=str(tmp_path / "out"), db=f"sqlite:///{db}",
                           skills=["calc.sort.text_asc", "calc.sort.date_desc"], batch_size=4)
    assert totals == {"accepted": 9}
    rows = sqlite3.connect(db).execute("SELECT status, count(*) FROM tasks GROUP BY status").fetchall()
    assert rows == [("accepted", 9)]
    run = sqlite3.connect(db).execute("SELECT status, requested FROM runs").fetchall()
    assert run == [("finished", 9)]


def test_batch_task_logic_is_plain_python(tmp_path):
    counts = generate_batch.fn(0, 2, 2, 5, str(tmp_path / "out"), f"sqlite:///{tmp_path / 'b.db'}",
                               {"apps": [], "families": [], "skills": ["calc.sort.numeric_asc"]}, run_id=1)
    assert counts == {"accepted": 2}
    assert len(list((tmp_path / "out" / "libreoffice_calc").iterdir())) == 2
