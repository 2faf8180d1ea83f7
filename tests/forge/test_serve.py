"""Schedules: a deployment with a cron registered and read back through the Prefect client; `forge serve`
against a real `prefect server start` running a scheduled run; `prefect deploy` from the repo's prefect.yaml."""

import asyncio
import contextlib
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from forge.cli import app
from forge.flows import deployment

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_cron_deployment_is_registered_and_read_back(prefect_harness, tmp_path):
    from prefect.client.orchestration import get_client
    from prefect.server.schemas.schedules import CronSchedule

    params = {"n": 50, "skills": ["calc.sort.text_asc"], "out": str(tmp_path / "out"), "db": str(tmp_path / "c.db")}
    deployment("generate", "nightly-test", params, cron="0 3 * * *").apply()
    with get_client(sync_client=True) as client:
        found = client.read_deployment_by_name("generate/nightly-test")
    (schedule,) = found.schedules
    assert schedule.active and schedule.schedule.cron == "0 3 * * *"
    dates = asyncio.run(CronSchedule(cron=schedule.schedule.cron, timezone=schedule.schedule.timezone).get_dates(3))
    assert [(d.hour, d.minute) for d in dates] == [(3, 0)] * 3
    assert found.parameters["n"] == 50 and found.parameters["skills"] == ["calc.sort.text_asc"]
    assert found.parameters["db"] == f"sqlite:///{tmp_path / 'c.db'}"  # absolute: runs start elsewhere


@pytest.mark.parametrize(("args", "message"), [
    (["--cron", "61 * * * *"], "Error: --cron '61 * * * *': not a cron expression"),
    ([], "Error: give a schedule"),
    (["--cron", "0 3 * * *", "--now"], "Error: give a schedule"),
    (["--cron", "0 3 * * *", "--interval", "60"], "Error: give --cron or --interval, not both"),
    (["--interval", "60", "--skill", "calc.sort.text_asx"], "Error: unknown skill 'calc.sort.text_asx'. Did you mean"),
    (["--interval", "60", "-n", "0"], "Error: flow 'generate' parameter n=0: Input should be greater than or equal to 1"
                                      " (number of tasks)"),
    (["--interval", "60", "--dask-address", "localhost:8786"], "Error: flow 'generate' parameter dask_address="),
    (["--interval", "60", "--flow", "round", "--app", "os"], "Error: --app/--family/--skill are for --flow generate"),
])
def test_serve_refuses_bad_input_before_contacting_prefect(args, message, tmp_path):
    result = CliRunner().invoke(app, ["serve", "--out", str(tmp_path / "out"), "--db", str(tmp_path / "c.db"), *args])
    assert result.exit_code == 1
    assert result.output.startswith(message), result.output
    assert not (tmp_path / "out").exists()


@pytest.mark.slow
def test_serve_now_runs_the_flow_once_in_this_process(prefect_harness, tmp_path):
    result = CliRunner().invoke(app, ["serve", "--now", "-n", "3", "--skill", "calc.sort.text_asc", "--seed", "2",
                                      "--register", "explicit", "--batch-size", "2", "--real-apps", "off",
                                      "--out", str(tmp_path / "out"), "--db", str(tmp_path / "c.db")])
    assert result.exit_code == 0, result.output
    assert "{'accepted': 3}" in result.output
    assert sorted(p.name for p in (tmp_path / "out" / "libreoffice_calc").iterdir()) == [
        f"calc.sort.text_asc--s2--0000{i}" for i in range(3)]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """Ctrl-C first (serve pauses its schedule), then the whole process group."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(30)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


@pytest.fixture
def prefect_server(tmp_path: Path) -> Iterator[dict[str, str]]:
    """A real `prefect server start` on a free loopback port with its own PREFECT_HOME; yields the environment
    a client process needs."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_")}
    env.update(PREFECT_HOME=str(tmp_path / "prefect-home"), PREFECT_SERVER_ANALYTICS_ENABLED="false",
               PREFECT_UI_ENABLED="false", PYTHONPATH=str(REPO))
    port = _free_port()
    log = (tmp_path / "server.log").open("wb")
    server = subprocess.Popen(["prefect", "server", "start", "--host", "127.0.0.1", "--port", str(port)], env=env,
                              stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}/api"
    try:
        deadline = time.monotonic() + 240
        while True:
            try:
                with urllib.request.urlopen(f"{url}/health", timeout=5):
                    break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, (tmp_path / "server.log").read_text()
                time.sleep(1)
        yield {**env, "PREFECT_API_URL": url}
    finally:
        _stop(server)


def _flow_runs(env: dict[str, str], deployment_name: str) -> list[tuple[str, bool]]:
    """(state type, auto_scheduled) of every run of a deployment, read from the real server by a client."""
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import DeploymentFilter, DeploymentFilterId
    from prefect.exceptions import ObjectNotFound
    from prefect.settings import PREFECT_API_URL, temporary_settings

    with temporary_settings({PREFECT_API_URL: env["PREFECT_API_URL"]}), get_client(sync_client=True) as client:
        try:
            found = client.read_deployment_by_name(deployment_name)
        except ObjectNotFound:  # `forge serve` is still importing the families; it registers the deployment after
            return []
        runs = client.read_flow_runs(deployment_filter=DeploymentFilter(id=DeploymentFilterId(any_=[found.id])))
        return [(str(r.state_type.value if r.state_type else None), r.auto_scheduled) for r in runs]


@pytest.mark.slow
def test_real_server_runs_a_scheduled_run_and_deploys_prefect_yaml(prefect_server, tmp_path):
    env, db = prefect_server, tmp_path / "cat.db"
    serve = subprocess.Popen(
        [sys.executable, "-c", "from forge.cli import main; main()", "serve", "--interval", "10", "-n", "2",
         "--skill", "calc.sort.text_asc", "--out", str(tmp_path / "out"), "--db", str(db),
         "--name", "every-10s", "--real-apps", "off"], cwd=REPO, env=env, stdout=(tmp_path / "serve.log").open("wb"),
        stderr=subprocess.STDOUT, start_new_session=True)
    try:
        # The same server takes the work-pool deployments of prefect.yaml, as a user would register them.
        subprocess.run(["prefect", "work-pool", "create", "forge", "--type", "process"], cwd=REPO, env=env,
                       check=True, capture_output=True)
        deploy = subprocess.run(["prefect", "--no-prompt", "deploy", "--all"], cwd=REPO, env=env,
                                capture_output=True, text=True)
        assert deploy.returncode == 0, deploy.stdout + deploy.stderr
        deadline = time.monotonic() + 300
        while _flow_runs(env, "generate/every-10s").count(("COMPLETED", True)) < 2:
            assert serve.poll() is None and time.monotonic() < deadline, (tmp_path / "serve.log").read_text()
            time.sleep(2)
    finally:
        _stop(serve)
    # Without --seed each scheduled run takes its scheduled start as the seed: new tasks every run, none resumed.
    con = sqlite3.connect(db)
    runs = con.execute("SELECT seed, counts FROM runs WHERE status = 'finished' ORDER BY id").fetchall()
    assert len(runs) >= 2 and len({seed for seed, _ in runs}) == len(runs), runs
    assert all(counts == '{"accepted": 2}' for _, counts in runs), runs
    per_seed = con.execute("SELECT seed, count(*) FROM tasks WHERE status = 'accepted' GROUP BY seed").fetchall()
    assert len(per_seed) >= 2 and all(count == 2 for _, count in per_seed), per_seed
    from prefect.client.orchestration import get_client
    from prefect.settings import PREFECT_API_URL, temporary_settings

    with temporary_settings({PREFECT_API_URL: env["PREFECT_API_URL"]}), get_client(sync_client=True) as client:
        nightly = client.read_deployment_by_name("generate/nightly")
        weekly = client.read_deployment_by_name("round/weekly-round")
        every = client.read_deployment_by_name("generate/every-10s")
        artifacts = [a for a in client.read_artifacts() if a.key == "forge-generate"]
    assert len(artifacts) >= 2  # each run published its table (gate classes and spend)
    limits = [d.global_concurrency_limit.limit if d.global_concurrency_limit else None
              for d in (every, nightly, weekly)]
    assert limits == [1, 1, 1]  # runs of one deployment never overlap
    assert nightly.work_pool_name == weekly.work_pool_name == "forge"
    assert [s.schedule.cron for s in nightly.schedules] == ["0 3 * * *"]
    assert [s.schedule.cron for s in weekly.schedules] == ["0 4 * * 0"]


def _flow_run_of(env: dict[str, str], deployment_name: str, not_ids: set[str]) -> tuple[Any, Any] | None:
    """(the newest flow run of a deployment not in `not_ids`, the deployment) read from the real server."""
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import DeploymentFilter, DeploymentFilterId
    from prefect.settings import PREFECT_API_URL, temporary_settings

    with temporary_settings({PREFECT_API_URL: env["PREFECT_API_URL"]}), get_client(sync_client=True) as client:
        found = client.read_deployment_by_name(deployment_name)
        runs = [r for r in client.read_flow_runs(deployment_filter=DeploymentFilter(id=DeploymentFilterId(
            any_=[found.id]))) if str(r.id) not in not_ids]
        return (runs[0] if runs else None), found


def _state(env: dict[str, str], flow_run_id: Any) -> str:
    from prefect.client.orchestration import get_client
    from prefect.settings import PREFECT_API_URL, temporary_settings

    with temporary_settings({PREFECT_API_URL: env["PREFECT_API_URL"]}), get_client(sync_client=True) as client:
        run = client.read_flow_run(flow_run_id)
        return str(run.state_type.value if run.state_type else None)


def _catalog_run(db: Path, flow_run_id: str) -> tuple[int, str, str, int] | None:
    """(id, status, counts, pid) of the catalog run that Prefect flow run started."""
    with contextlib.suppress(sqlite3.OperationalError), sqlite3.connect(db) as con:
        for run in con.execute("SELECT id, status, counts, pid, selection FROM runs"):
            if flow_run_id in run[4]:
                return run[:4]
    return None


def _wait(what: str, probe: Any, seconds: float, log: Path) -> Any:
    deadline = time.monotonic() + seconds
    while not (got := probe()):
        assert time.monotonic() < deadline, f"waited {seconds} s for {what}\n{log.read_text()[-3000:]}"
        time.sleep(1)
    return got


@pytest.mark.slow
def test_killed_runs_are_crashed_marked_in_the_catalog_and_free_their_slot(prefect_server, tmp_path):
    """Kill -9 a served flow run's process: the runner marks it Crashed, its on_crashed hook marks the catalog run
    `interrupted` with counts of what it recorded, and the slot is free (a new run starts). Then kill -9 the
    whole `forge serve` with a run in flight: no hook can run, but the run stops beating and Prefect's
    automation marks it Crashed, which frees the deployment's slot well before its ~5 min lease ends."""
    from prefect.deployments import run_deployment
    from prefect.settings import PREFECT_API_URL, temporary_settings

    env, db, log = prefect_server, tmp_path / "cat.db", tmp_path / "serve.log"
    serve = subprocess.Popen(
        [sys.executable, "-c", "from forge.cli import main; main()", "serve", "--interval", "3600", "-n", "400",
         "--seed", "5", "--batch-size", "4", "--skill", "calc.sort.text_asc", "--register", "explicit",
         "--out", str(tmp_path / "out"), "--db", str(db), "--name", "killed", "--real-apps", "off"],
        cwd=REPO, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT, start_new_session=True)
    def deployed() -> bool:
        try:
            _flow_run_of(env, "generate/killed", set())
        except Exception:  # noqa: BLE001 - not registered yet
            return False
        return True

    try:
        _wait("the deployment", deployed, 240, log)
        with temporary_settings({PREFECT_API_URL: env["PREFECT_API_URL"]}):
            first = run_deployment("generate/killed", timeout=0)
        catalog_run = _wait("8 recorded tasks", lambda: (r := _catalog_run(db, str(first.id))) and
                            sqlite3.connect(db).execute("SELECT count(*) FROM tasks WHERE run_id = ?",
                                                        (r[0],)).fetchone()[0] >= 8 and r, 240, log)
        assert _flow_run_of(env, "generate/killed", set())[0].name == "generate-seed-5-n-400"  # from its parameters
        os.kill(catalog_run[3], signal.SIGKILL)  # the flow run's own process (the catalog knows its pid)
        _wait("Crashed", lambda: _state(env, first.id) == "CRASHED", 120, log)
        run_id, status, counts, _ = _wait("the hook", lambda: (r := _catalog_run(db, str(first.id))) and
                                          r[1] != "running" and r, 60, log)
        made = dict(sqlite3.connect(db).execute("SELECT status, count(*) FROM tasks WHERE run_id = ? "
                                                "GROUP BY status", (run_id,)).fetchall())
        assert status == "interrupted" and json.loads(counts) == made and sum(made.values()) >= 8
        # The slot is free: a run asked for now starts at once.
        with temporary_settings({PREFECT_API_URL: env["PREFECT_API_URL"]}):
            second = run_deployment("generate/killed", timeout=0)
        _wait("the second run to record tasks", lambda: (r := _catalog_run(db, str(second.id))) and
              sqlite3.connect(db).execute("SELECT count(*) FROM tasks WHERE run_id = ?", (r[0],)).fetchone()[0]
              >= 1, 240, log)
        os.killpg(serve.pid, signal.SIGKILL)  # the worker and its run, as a lost machine: nothing runs a hook
        serve.wait()
        started = time.monotonic()
        assert _state(env, second.id) == "RUNNING"
        _wait("the automation to crash the silent run", lambda: _state(env, second.id) == "CRASHED", 240, log)
        _, found = _flow_run_of(env, "generate/killed", set())
        assert found.global_concurrency_limit.active_slots == 0  # free for the next run
        assert time.monotonic() - started < 200
    finally:
        _stop(serve)
