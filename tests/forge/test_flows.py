import sqlite3

import pytest
from prefect.exceptions import ParameterTypeError

from forge.flows import Target, absolute, generate_batch, generate_flow, task_runner

CALC = ["calc.sort.text_asc", "calc.sort.date_desc"]


@pytest.mark.slow
def test_generate_flow_runs_batches_in_worker_processes_and_catalogs_every_task(prefect_harness, tmp_path):
    db = tmp_path / "flow.db"
    totals = generate_flow(n=9, seed=3, out=str(tmp_path / "out"), db=f"sqlite:///{db}", skills=CALC, batch_size=4,
                           workers=2, real_apps="off")
    assert totals == {"accepted": 9}
    rows = sqlite3.connect(db).execute("SELECT status, count(*) FROM tasks GROUP BY status").fetchall()
    assert rows == [("accepted", 9)]
    run = sqlite3.connect(db).execute("SELECT status, requested, seed FROM runs").fetchall()
    assert run == [("finished", 9, 3)]


@pytest.mark.slow
def test_flow_parameters_are_validated_before_any_work(prefect_harness, tmp_path):
    for bad in ({"n": 0}, {"n": 5, "batch_size": 0}, {"n": 5, "workers": 0}, {"n": 5, "dask_address": "localhost"},
                {"n": 5, "real_apps": "some"}, {"n": 5, "real_apps_rate": 2.0}):
        with pytest.raises(ParameterTypeError):
            generate_flow(out=str(tmp_path / "out"), db=f"sqlite:///{tmp_path / 'v.db'}", **bad)
    assert not (tmp_path / "out").exists()


def test_batch_task_logic_is_plain_python(tmp_path):
    out, db = absolute(str(tmp_path / "out"), str(tmp_path / "b.db"))
    selection = {"apps": [], "families": [], "skills": ["calc.sort.numeric_asc"]}
    counts = generate_batch.fn(Target(out, db, run_id=1), selection, n=4, seed=5, start=1, stop=3)
    assert counts == {"accepted": 2}
    names = sorted(p.name for p in (tmp_path / "out" / "libreoffice_calc").iterdir())
    assert names == ["calc.sort.numeric_asc--s5--00001", "calc.sort.numeric_asc--s5--00002"]


def test_relative_paths_become_absolute_for_workers_elsewhere(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("FORGE_DATABASE_URL", raising=False)
    assert absolute("out", "cat.db") == (str(tmp_path / "out"), f"sqlite:///{tmp_path / 'cat.db'}")
    assert absolute("out", None)[1] == f"sqlite:///{tmp_path / 'forge.db'}"
    assert absolute("/x", "postgresql+psycopg://u@h/db")[1] == "postgresql+psycopg://u@h/db"


def test_local_runners_are_bounded():
    assert task_runner(1, None)._max_workers == 1
    assert task_runner(3, None)._max_workers == 3
    assert type(task_runner(3, "tcp://127.0.0.1:8786")).__name__ == "DaskTaskRunner"


@pytest.mark.slow
def test_round_flow_plans_generates_in_batches_and_closes_the_round(prefect_harness, tmp_path):
    from forge.catalog import Catalog
    from forge.flows import next_round, round_flow

    db = f"sqlite:///{tmp_path / 'round.db'}"
    assert next_round(Catalog(db)) == 1
    summary = round_flow(budget=4, out=str(tmp_path / "out"), db=db, batch_size=2, real_apps="off")
    assert sum(summary["tasks"].values()) == 4
    con = sqlite3.connect(tmp_path / "round.db")
    assert con.execute("SELECT id, status FROM rounds").fetchall() == [(1, "closed")]
    assert con.execute("SELECT round, requested, status FROM runs").fetchall() == [(1, 4, "finished")]
    assert con.execute("SELECT count(*) FROM tasks WHERE round = 1").fetchone() == (4,)
    assert next_round(Catalog(db)) == 2
