"""Batches on a real local Dask cluster (2 worker processes) make the same packages as a plain local run."""

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from forge.flows import Target, absolute, generate_batch, generate_flow

pytestmark = pytest.mark.slow

SELECTION = {"apps": [], "families": [], "skills": ["calc.sort.text_asc", "calc.sort.numeric_desc",
                                                     "os.organize.one_ext_new_exact"]}


@pytest.fixture(scope="module")
def dask_address() -> Iterator[str]:
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        yield cluster.scheduler_address


def files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_batches_on_dask_make_the_same_packages_as_a_local_run(prefect_harness, dask_address, tmp_path):
    n, seed = 10, 4
    totals = generate_flow(n=n, seed=seed, out=str(tmp_path / "dask"), db=f"sqlite:///{tmp_path / 'dask.db'}",
                           skills=SELECTION["skills"], batch_size=3, dask_address=dask_address, real_apps="off")
    out, db = absolute(str(tmp_path / "local"), str(tmp_path / "local.db"))
    local = generate_batch.fn(Target(out, db, run_id=1), SELECTION, n=n, seed=seed, start=0, stop=n)
    assert totals == local["new"] == {"accepted": n} and not local["resumed"]
    assert files(tmp_path / "dask") == files(tmp_path / "local")
    query = "SELECT id, status, dedup_key FROM tasks ORDER BY id"
    rows = sqlite3.connect(tmp_path / "dask.db").execute(query).fetchall()
    assert rows == sqlite3.connect(tmp_path / "local.db").execute(query).fetchall()
    assert len(rows) == n
    from distributed import Client

    with Client(dask_address) as client:  # the 4 batches really ran on the cluster, spread over both workers
        executed = client.run(lambda dask_worker: dask_worker.state.executed_count)
    assert len(executed) == 2 and all(count >= 1 for count in executed.values()), executed


def test_forge_generate_with_dask_address_runs_batches_on_the_cluster(prefect_harness, dask_address, tmp_path):
    from typer.testing import CliRunner

    from forge.cli import app

    args = ["generate", "-n", "4", "--seed", "4", "--batch-size", "2", "--real-apps", "off",
            "--skill", "calc.sort.text_asc", "--skill", "os.organize.one_ext_new_exact", "--infeasible-share", "0.25"]
    dask = CliRunner().invoke(app, [*args, "--dask-address", dask_address, "--out", str(tmp_path / "dask"),
                                    "--db", str(tmp_path / "dask.db")])
    assert dask.exit_code == 0, dask.output
    assert "accepted" in dask.output and "4 tasks in 2 batches" in dask.output
    local = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "local"), "--db", str(tmp_path / "local.db")])
    assert local.exit_code == 0, local.output
    assert files(tmp_path / "dask") == files(tmp_path / "local")
    query = "SELECT id, status FROM tasks ORDER BY id"
    rows = sqlite3.connect(tmp_path / "dask.db").execute(query).fetchall()
    assert rows == sqlite3.connect(tmp_path / "local.db").execute(query).fetchall()
    assert [status for _, status in rows] == ["accepted"] * 4
    # the flow takes the whole selection, not only the filters (the shares decide the plan of a mix)
    selection = json.loads(sqlite3.connect(tmp_path / "dask.db").execute("SELECT selection FROM runs").fetchone()[0])
    assert selection["infeasible_share"] == 0.25 and selection["with_multi_app"] is False


def test_forge_generate_with_dask_address_refuses_what_the_flow_cannot_do(tmp_path):
    from typer.testing import CliRunner

    from forge.cli import app

    base = ["generate", "-n", "2", "--out", str(tmp_path / "o"), "--db", str(tmp_path / "c.db")]
    refused = CliRunner().invoke(app, [*base, "--dask-address", "tcp://127.0.0.1:1", "--dry-run"])
    assert refused.exit_code == 1
    assert "--dask-address takes --llm, --model" in refused.output and "drop --dry-run" in refused.output
    bad = CliRunner().invoke(app, [*base, "--dask-address", "127.0.0.1:8786"])
    assert bad.exit_code == 1
    assert "dask_address='127.0.0.1:8786'" in bad.output
    assert not (tmp_path / "c.db").exists()  # refused before any catalog or package is made
