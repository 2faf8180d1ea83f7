import json
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
    selection = {"apps": [], "families": [], "skills": ["calc.sort.numeric_asc"], "register": "explicit"}
    counts = generate_batch.fn(Target(out, db, run_id=1), selection, n=4, seed=5, start=1, stop=3)
    assert counts == {"new": {"accepted": 2}, "resumed": {}}
    again = generate_batch.fn(Target(out, db, run_id=2), selection, n=4, seed=5, start=1, stop=3)
    assert again == {"new": {}, "resumed": {"accepted": 2}}  # a rerun claims nothing it did not make
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


def test_scheduled_seeds_differ_per_run_and_fit_the_catalog():
    from datetime import UTC, datetime

    from forge.flowkit import seed_of

    first = seed_of(datetime(2026, 12, 1, 3, 0, 0, tzinfo=UTC))
    assert seed_of(datetime(2026, 12, 1, 3, 0, 1, tzinfo=UTC)) == first + 1  # a run a second later: new tasks
    assert seed_of(datetime(2026, 12, 1, 3, 0, 0, 900_000, tzinfo=UTC)) == first  # the same run again: resumes
    assert 0 < seed_of(datetime(2088, 1, 1, tzinfo=UTC)) < 2**31  # the catalog's seed column is 32-bit


def test_only_infrastructure_failures_are_retried():
    from sqlalchemy.exc import OperationalError

    from forge.flowkit import BatchInfraError, is_infra
    from kit.errors import CatalogError, CatalogUnreachable, ForgeError

    assert is_infra(OSError(11, "Resource temporarily unavailable"))
    assert is_infra(OperationalError("SELECT 1", {}, Exception("server closed the connection")))
    assert is_infra(BatchInfraError("2 tasks failed for infrastructure reasons"))
    assert is_infra(CatalogUnreachable("cannot open catalog postgresql+psycopg://u@h/db: Connection refused"))
    assert not is_infra(CatalogError("catalog /x.db does not exist"))  # a wrong path: the same on every retry
    assert not is_infra(ForgeError("unknown skill 'x'"))  # the input is wrong: a retry would repeat it
    assert not is_infra(ValueError("a bug"))
    assert not is_infra(PermissionError(13, "Permission denied", "/srv/forge/tasks"))  # fix the path, not retry


@pytest.mark.slow
def test_a_rerun_makes_nothing_new_says_so_and_publishes_its_table(prefect_harness, tmp_path, caplog):
    from prefect.client.orchestration import get_client

    db = tmp_path / "again.db"
    args = {"n": 3, "seed": 4, "out": str(tmp_path / "out"), "db": f"sqlite:///{db}", "skills": CALC,
            "batch_size": 2, "real_apps": "off"}
    assert generate_flow(**args) == {"accepted": 3}
    assert generate_flow(**args) == {"resumed": 3}  # not {"accepted": 3}: this run made nothing
    assert "made nothing new: all 3 tasks of seed 4 were already in the catalog" in caplog.text
    assert "generate-batch[0:2]: 2/2 done" in caplog.text  # batches log progress as they go
    counts = sqlite3.connect(db).execute("SELECT counts FROM runs ORDER BY id").fetchall()
    assert counts == [('{"accepted": 3}',), ('{"resumed": 3}',)]
    with get_client(sync_client=True) as client:
        artifacts = client.read_latest_artifacts()
    table = next(a for a in artifacts if a.key == "forge-generate")
    assert "tasks made by this run" in str(table.data) and "LLM tokens spent" in str(table.data)
    assert "made nothing new" in (table.description or "")


@pytest.mark.slow
def test_generate_flow_asks_the_model_its_llm_options_name(prefect_harness, tmp_path):
    """The flow's `llm` parameter (here a config file) reaches every batch: answers come from a real loopback
    OpenAI-compatible server, the ledger records what it served, and the run is recorded as an `openai` run."""
    from forge.generate import Selection, plan_for
    from kit.taxonomy import load_taxonomy
    from tests.llmserver import LLMServer, answering, recorded_answers

    skill = "calc.sort.numeric_desc"
    taxonomy = load_taxonomy()
    answers = recorded_answers(taxonomy, plan_for(taxonomy, Selection(skills=(skill,)), 2, 6))
    db = tmp_path / "llm.db"
    with LLMServer(answering(answers)) as server:
        config = tmp_path / "forge.toml"
        config.write_text(f'[llm]\nbackend = "openai"\nmodel = "test-model"\nbase_url = "{server.base_url}"\n'
                          'timeout = 5\n\n[prices."test-model"]\ninput_per_mtok = 1.0\noutput_per_mtok = 2.0\n')
        totals = generate_flow(n=2, seed=6, skills=[skill], out=str(tmp_path / "out"), db=f"sqlite:///{db}",
                               real_apps="off", llm={"config": str(config), "max_cost": 1.0})
    assert totals == {"accepted": 2}
    con = sqlite3.connect(db)
    assert con.execute("SELECT backend FROM runs").fetchall() == [("openai",)]
    spent = con.execute("SELECT sum(prompt_tokens), min(backend) FROM llm_calls WHERE NOT cached").fetchone()
    assert spent == (server.served.prompt_tokens, "openai") and spent[0] > 0


def test_every_flow_parameter_has_a_description_for_the_ui():
    from forge.flows import FLOWS

    for flow_obj in FLOWS.values():
        props = flow_obj.parameters.properties
        assert props and all(p.get("description") for p in props.values()), (flow_obj.name, props)
    assert "scheduled start" in FLOWS["generate"].parameters.properties["seed"]["description"]


def _pg_ctl(server, action: str) -> None:
    """Stop or start a throwaway PostgreSQL server in place (its data kept), as an outage would."""
    if action == "stop":
        server._run("pg_ctl", "-D", str(server.data), "-m", "fast", "-w", "stop")
    else:
        options = (f"-c listen_addresses=127.0.0.1 -p {server.port} -k {server.folder} -c fsync=off "
                   "-c synchronous_commit=off")
        server._run("pg_ctl", "-D", str(server.data), "-l", str(server.folder / "server.log"), "-o", options, "-w",
                    "start")


@pytest.mark.slow
def test_a_catalog_outage_is_retried_as_infrastructure(prefect_harness, tmp_path):
    """A real PostgreSQL catalog is down when a batch starts and comes back ~6 s later: the batch's connection
    errors are infrastructure (CatalogUnreachable), so Prefect retries it and the batch makes its tasks, instead of
    failing the run as bad input."""
    import threading

    from prefect import flow
    from prefect.client.orchestration import get_client

    from forge.catalog import Catalog
    from kit.taxonomy import load_taxonomy
    from tests.pgkit import Server, drop_database, fresh_database, why_not

    if why_not():
        pytest.skip(why_not())
    server = Server()
    back = threading.Timer(6, _pg_ctl, (server, "start"))
    try:
        url = fresh_database(server.url)
        catalog = Catalog(url)
        catalog.sync_skills(load_taxonomy().values())
        run_id = catalog.start_run(seed=1, requested=2, selection={}, out_dir=str(tmp_path / "out"), backend="offline")
        catalog.engine.dispose()
        selection = {"apps": [], "families": [], "skills": [CALC[0]], "register": "explicit"}
        quick = generate_batch.with_options(retry_delay_seconds=[3, 6])  # the outage ends between the 2nd and 3rd try

        @flow
        def batch_during_an_outage():  # type: ignore[no-untyped-def]
            back.start()  # the server comes back 6 s after the batch first tries it
            return quick(Target(str(tmp_path / "out"), url, run_id), selection, n=2, seed=1, start=0, stop=2,
                         return_state=True)

        _pg_ctl(server, "stop")
        state = batch_during_an_outage()
        back.join()
        assert state.is_completed(), state.message
        assert state.result() == {"new": {"accepted": 2}, "resumed": {}}
        with get_client(sync_client=True) as client:
            task_run = client.read_task_run(state.state_details.task_run_id)
        assert task_run.run_count >= 2  # failed while the server was down, then retried
        drop_database(url)
    finally:
        if back.is_alive():
            back.join()  # the server is back before it is stopped for good
        server.stop()


@pytest.mark.slow
def test_flow_runs_are_named_by_their_parameters_and_counts_land_with_batches(prefect_harness, tmp_path, monkeypatch):
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import FlowRunFilter, FlowRunFilterName

    from forge import flows
    from forge.catalog import Catalog

    db = f"sqlite:///{tmp_path / 'named.db'}"
    written: list[dict[str, int]] = []
    real = Catalog.set_run_counts

    def spy(self, run_id, counts):  # the counts the catalog held after each batch landed
        written.append(dict(counts))
        real(self, run_id, counts)

    monkeypatch.setattr(Catalog, "set_run_counts", spy)
    assert flows.generate_flow(n=5, seed=123, out=str(tmp_path / "out"), db=db, skills=CALC, batch_size=2,
                               real_apps="off") == {"accepted": 5}
    assert sorted(sum(c.values()) for c in written) == [2, 4, 5]  # not only at the end
    with get_client(sync_client=True) as client:
        named = client.read_flow_runs(
            flow_run_filter=FlowRunFilter(name=FlowRunFilterName(any_=["generate-seed-123-n-5"])))
    assert len(named) == 1
    (selection, status), = Catalog(db).query("SELECT selection, status FROM runs")[1]
    selection = selection if isinstance(selection, dict) else json.loads(selection)
    assert selection["flow_run"] == str(named[0].id) and status == "finished"  # the catalog run knows its flow run



def test_a_killed_run_found_dead_later_shows_what_it_recorded(tmp_path):
    """A run killed outright (no hook ran) is marked `interrupted` by the next run on this host, with the counts of
    the tasks it did record, not the `{}` it started with."""
    import socket

    from forge.catalog import Catalog, RunRow, TaskRow
    from tests.forge.test_crash_leftovers import dead_pid, iso

    catalog = Catalog(f"sqlite:///{tmp_path / 'dead.db'}")
    with catalog.session() as session, session.begin():
        session.add(RunRow(id=1, seed=0, requested=9, selection={}, out_dir="out", backend="offline",
                           started_at=iso(60), counts={}, status="running", host=socket.gethostname(), pid=dead_pid()))
        session.flush()
        for i, status in enumerate(["accepted", "accepted", "lax"]):
            session.add(TaskRow(id=f"s--s0--{i:05d}", skill_id="s", family="f", app="os", status=status, seed=0,
                                idx=i, run_id=1, workflow_signature="sig"))
    catalog.start_run(seed=1, requested=1, selection={}, out_dir="out", backend="offline")
    (status, counts), = catalog.query("SELECT status, counts FROM runs WHERE id = 1")[1]
    assert (status, counts if isinstance(counts, dict) else json.loads(counts)) == (
        "interrupted", {"accepted": 2, "lax": 1})
