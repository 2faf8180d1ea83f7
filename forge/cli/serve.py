"""`forge serve`: run the generate or round flow on a Prefect schedule (or once, now), optionally on Dask."""

from __future__ import annotations

import enum
import os
from pathlib import Path
from typing import Annotated, Any

import typer

from forge.cli import llm as cli_llm
from forge.cli.base import app, console, err_console, writable_folder
from kit.errors import ForgeError


class FlowName(enum.StrEnum):
    generate = "generate"
    round = "round"


@app.command()
def serve(
    out: Annotated[Path, typer.Option("--out", help="Folder for the packages (shared storage when batches run on "
                                      "several machines).")] = Path("tasks"),
    flow_name: Annotated[FlowName, typer.Option("--flow", help="generate: N new tasks per run; round: one feedback "
                                                "round per run (plan from the catalog's statistics, generate, "
                                                "close the round).")] = FlowName.generate,
    cron: Annotated[str | None, typer.Option("--cron", help="Schedule as a cron expression in UTC, e.g. "
                                             "'0 3 * * *' (03:00 every day).")] = None,
    interval: Annotated[float | None, typer.Option("--interval", help="Schedule: a run every this many "
                                                   "seconds.")] = None,
    now: Annotated[bool, typer.Option("--now", help="Run the flow once now in this process instead of serving "
                                      "a schedule.")] = False,
    name: Annotated[str | None, typer.Option("--name", help="Deployment name (default: forge-<flow>).")] = None,
    n: Annotated[int, typer.Option("-n", "--n", help="Tasks per run (the round's budget with --flow round).")] = 100,
    seed: Annotated[int | None, typer.Option("--seed", help="Run seed. Default for generate: the run's scheduled "
                                             "start in seconds since 2020-01-01 UTC, so every scheduled run makes "
                                             "new tasks and a rerun of it resumes; 0 for rounds (round N's ids use "
                                             "seed*100+N).")] = None,
    round_n: Annotated[int | None, typer.Option("--round", help="Round number (--flow round). Default: the "
                                                "oldest round not yet closed, else the next.")] = None,
    app_name: Annotated[list[str] | None, typer.Option("--app", help="Only skills of this app (repeatable).")] = None,
    family: Annotated[list[str] | None, typer.Option("--family", help="Only this family (repeatable).")] = None,
    skill: Annotated[list[str] | None, typer.Option("--skill", help="Only this skill id (repeatable).")] = None,
    register: Annotated[str | None, typer.Option("--register", help="The instructions' register (--flow generate): "
                                                 "mixed (the default: half natural), explicit or natural; see "
                                                 "`forge generate --help`.")] = None,
    db: Annotated[str | None, typer.Option("--db", help="Catalog URL or SQLite path; PostgreSQL "
                                           "(postgresql+psycopg://...) when batches run on several machines. "
                                           "Default: $FORGE_DATABASE_URL, else ./forge.db.")] = None,
    batch_size: Annotated[int, typer.Option("--batch-size", help="Tasks per Prefect batch task.")] = 200,
    workers: Annotated[int, typer.Option("--workers", help="Batches at once on this machine (processes).")] = 1,
    dask_address: Annotated[str | None, typer.Option("--dask-address", help="Run batches on this existing Dask "
                                                     "cluster, e.g. tcp://10.0.0.5:8786; its workers need this "
                                                     "checkout, the catalog and --out.")] = None,
    no_sandbox: Annotated[bool, typer.Option("--no-sandbox", help="Run package scripts WITHOUT bubblewrap.")] = False,
    real_apps: Annotated[str, typer.Option("--real-apps", help="Real-app tier: off, sample (a share, see "
                                           "--real-apps-rate; skipped without LibreOffice) or all.")] = "sample",
    real_apps_rate: Annotated[float, typer.Option("--real-apps-rate", help="Share checked with --real-apps "
                                                  "sample.")] = 0.1,
    timeout: Annotated[float, typer.Option("--timeout", min=1, help="Seconds of wall-clock time a package script "
                                           "may run.")] = 60.0,
    llm: cli_llm.LLMChoice = None,
    model: cli_llm.ModelOption = None,
    base_url: cli_llm.BaseUrl = None,
    api_key_env: cli_llm.ApiKeyEnv = None,
    config: cli_llm.ConfigFile = None,
    concurrency: cli_llm.Concurrency = None,
    max_cost: cli_llm.MaxCost = None,
    max_tokens: cli_llm.MaxTokens = None,
) -> None:
    """Serve a Prefect deployment of the generate or round flow on a schedule; Ctrl-C stops it.

    Needs a Prefect server: start one with `prefect server start` and set PREFECT_API_URL (e.g.
    http://127.0.0.1:4200/api). Runs do not overlap (concurrency limit 1); stopping pauses the schedule until
    `forge serve` runs again. A run whose worker dies is marked Crashed (its catalog run `interrupted`), and its
    slot freed within ~75 s; a database outage is retried. Each run is named by its parameters
    (generate-seed-123-n-500), logs its batches' progress and publishes a table artifact (tasks per gate class, LLM
    spend). With a model: --llm openai --model NAME (key in $OPENAI_API_KEY on every machine) or
    --config FILE. Example: forge serve --cron "0 3 * * *" -n 500 --app libreoffice_calc --out /srv/forge/tasks
    """
    from prefect import serve as prefect_serve

    from forge.flowkit import HEARTBEAT_S, crash_silent_runs
    from forge.flows import FLOWS, deployment

    if now == (cron is not None or interval is not None):
        raise ForgeError("give a schedule (--cron '0 3 * * *' or --interval SECONDS), or --now to run once")
    options = {"backend": llm, "model": model, "base_url": base_url, "api_key_env": api_key_env,
               "config": str(config) if config else None, "concurrency": concurrency, "max_cost": max_cost,
               "max_tokens": max_tokens}
    given = {k: v for k, v in options.items() if v is not None}
    common: dict[str, Any] = {"out": str(out), "db": db, "seed": seed, "batch_size": batch_size, "workers": workers,
                              "dask_address": dask_address, "sandbox": not no_sandbox, "real_apps": real_apps,
                              "real_apps_rate": real_apps_rate, "timeout": timeout, "llm": given or None}
    params = _flow_parameters(flow_name, common, n=n, round_n=round_n, apps=app_name, families=family, skills=skill,
                              register=register)
    deploy = deployment(flow_name.value, name or f"forge-{flow_name.value}", params, cron=cron, interval=interval)
    writable_folder("--out", out)  # now, not in the first scheduled run
    if now:
        console.print(FLOWS[flow_name.value](**deploy.parameters))
        return
    if not os.environ.get("PREFECT_API_URL"):
        err_console.print("note: PREFECT_API_URL is not set, so Prefect uses a temporary local server that stops "
                          "with this command; start `prefect server start` and set PREFECT_API_URL to keep the "
                          "schedule and its run history")
    # Served runs beat, and a run that stops beating (this process killed with it) is marked Crashed, which frees
    # the deployment's slot at once instead of after its lease (~5 min); the runner marks a run whose own process
    # died Crashed itself and runs its on_crashed hook (the catalog run becomes `interrupted`).
    os.environ.setdefault("PREFECT_FLOWS_HEARTBEAT_FREQUENCY", str(HEARTBEAT_S))
    crash_silent_runs(deploy.apply(), f"{flow_name.value}/{deploy.name}")
    # limit=1: a run still busy when the next is due delays it instead of competing for the same machine.
    prefect_serve(deploy, limit=1)


def _flow_parameters(flow_name: FlowName, common: dict[str, Any], *, n: int, round_n: int | None,
                     apps: list[str] | None, families: list[str] | None, skills: list[str] | None,
                     register: str | None = None) -> dict[str, Any]:
    """The flow's parameters: the selection for `generate`, the budget and round for `round` (each flow refuses
    the other's options)."""
    if flow_name is FlowName.generate:
        if round_n is not None:
            raise ForgeError("--round is for --flow round")
        return {**common, "n": n, "apps": apps, "families": families, "skills": skills,
                **({"instruction_register": register} if register else {})}
    if apps or families or skills:
        raise ForgeError("--app/--family/--skill are for --flow generate; a round plans from the catalog")
    if register:
        raise ForgeError("--register is for --flow generate; a round's tasks keep the explicit register")
    return {**common, "budget": n, "round_n": round_n, "seed": common["seed"] or 0}
