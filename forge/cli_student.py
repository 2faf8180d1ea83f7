"""`forge student run`: a real model on Forge tasks through a terminal (forge.student_run).

Added to the `student` command group that forge.cli_feedback creates (beside `student simulate`)."""

# No `from __future__ import annotations` here: Typer evaluates the commands' annotations, which name DbOption,
# imported inside register() (forge.cli imports this module while it is being set up).
from pathlib import Path
from typing import Annotated, Any

import typer

from forge import cli_llm


def register(app: typer.Typer) -> None:
    from forge.cli import DbOption, _Group, console

    groups = [g.typer_instance for g in app.registered_groups if g.name == "student" and g.typer_instance]
    if groups:
        student_app = groups[0]
    else:
        student_app = typer.Typer(cls=_Group, no_args_is_help=True, pretty_exceptions_enable=False,
                                  help="Students: run a real model on tasks.")
        app.add_typer(student_app, name="student")

    @student_app.command("run")
    def run(
        paths: Annotated[list[Path] | None, typer.Argument(help="Package folders, or folders holding them (a "
                                                           "`forge generate --out` folder).")] = None,
        out: Annotated[Path, typer.Option("--out", help="Results root: <out>/shell/terminal/<model>/<domain>/"
                                          "<task_id>/.")] = Path("results"),
        round_n: Annotated[int | None, typer.Option("--round", help="The accepted tasks of this round.")] = None,
        query: Annotated[str | None, typer.Option("--query", help="A read-only SQL query whose first column is "
                                                  "task ids, e.g. \"SELECT id FROM tasks WHERE app = "
                                                  "'libreoffice_calc' AND status = 'accepted' LIMIT 20\".")] = None,
        max_steps: Annotated[int, typer.Option("--max-steps", min=1, max=500, help="Commands the model may run per "
                                               "task.")] = 30,
        step_timeout: Annotated[float, typer.Option("--step-timeout", min=1, max=3600, help="Seconds one command "
                                                    "may run before it is killed.")] = 60.0,
        protocol: Annotated[str, typer.Option("--protocol", help="auto (tool calls; plain ```bash blocks if the "
                                              "server refuses tools), tools, or text.")] = "auto",
        context_chars: Annotated[int, typer.Option("--context-chars", min=2000, help="Characters of conversation "
                                                   "sent per turn; older command outputs are left out beyond it "
                                                   "(~4 characters a token: lower it for small-context models).")]
        = 60_000,
        seed: Annotated[int, typer.Option("--seed", help="Sampling seed sent to the server; another seed gives "
                                          "another attempt (and another cache key).")] = 0,
        llm: Annotated[str, typer.Option("--llm", help="LLM backend: openai, any OpenAI-compatible server (a student "
                                         "needs a real model; offline has none).")] = "openai",
        model: cli_llm.ModelOption = None,
        base_url: cli_llm.BaseUrl = None,
        api_key_env: cli_llm.ApiKeyEnv = None,
        config: cli_llm.ConfigFile = None,
        temperature: cli_llm.Temperature = None,
        max_tokens_per_call: cli_llm.MaxTokensPerCall = None,
        llm_timeout: cli_llm.LLMTimeout = None,
        concurrency: Annotated[int, typer.Option("--concurrency", min=1, max=64, help="Tasks worked on at once "
                                                 "(each has its own sandbox and conversation).")] = 1,
        max_cost: cli_llm.MaxCost = None,
        max_tokens: cli_llm.MaxTokens = None,
        db: DbOption = None,
    ) -> None:
        """Run a real model on tasks: it gets each task's instruction and a shell in the task's desktop home.

        Every command runs in bubblewrap (no network, no access to the package's solution or rubric, limits,
        --step-timeout). When the model stops asking for commands, or after --max-steps, the rubric scores the
        home check by check. Results: OSWorld's layout (result.txt, traj.jsonl) plus checks.json (with
        failed_checks) and messages.json; `forge feedback ingest OUT` reads them, `forge export trajectories`
        turns the passed ones into SFT rows. Run the same command again to resume: finished tasks are skipped.

        Example: forge student run --round 1 --model qwen2.5-7b --base-url http://127.0.0.1:8080/v1 --out results
        """
        from forge.catalog import Catalog
        from forge.llm.budget import Budget
        from forge.sandbox import Limits, Sandbox
        from forge.student_run import StudentOptions, StudentRun, StudentRunError, catalog_packages, find_packages

        chosen = sum(x is not None and x != [] for x in (paths, round_n, query))
        if chosen != 1:
            raise StudentRunError("give exactly one of: package folders, --round N, or --query SQL")
        flags = cli_llm.LLMFlags(config=config, backend=llm, model=model, base_url=base_url, api_key_env=api_key_env,
                                 temperature=temperature, max_tokens_per_call=max_tokens_per_call,
                                 timeout=llm_timeout, concurrency=concurrency, max_cost=max_cost,
                                 max_tokens=max_tokens)
        settings = flags.settings()
        catalog = Catalog(db)
        selection: dict[str, Any]
        if paths:
            packages, selection = find_packages(paths), {"paths": [str(p) for p in paths]}
        elif round_n is not None:
            packages, selection = catalog_packages(catalog, round_n=round_n), {"round": round_n}
        else:
            packages, selection = catalog_packages(catalog, query=query), {"query": query}
        if not packages:
            raise StudentRunError("no tasks selected; check --round / --query")
        limits = Limits(wall_seconds=step_timeout, cpu_seconds=max(1, int(step_timeout)))
        options = StudentOptions(max_steps=max_steps, concurrency=concurrency,
                                 protocol=protocol, seed=seed, context_chars=context_chars)

        def progress(task_id: str, outcome: str) -> None:
            console.print(f"{outcome:<7} {task_id}", highlight=False, markup=False)

        budget = Budget(max_cost, max_tokens)
        student = StudentRun(catalog, settings, out, Sandbox(limits), options, budget, progress=progress)
        counts = student.run(packages, selection)
        scored = counts["passed"] + counts["failed"]
        console.print(f"{len(packages)} tasks: {counts['passed']} passed, {counts['failed']} failed, {counts['infra']} "
                      f"infrastructure failures, {counts['already']} already done -> {out}"
                      + (f" (passed {counts['passed'] / scored:.1%} of scored)" if scored else ""),
                      highlight=False, markup=False)
        console.print(f"model turns: {budget.calls} ({budget.cached} from the cache, free), {budget.tokens:,} tokens, "
                      f"${budget.cost_usd:.4f}", highlight=False, markup=False)
        if student.stopped:
            console.print(f"stopped: {student.stopped}; run the same command again to continue", highlight=False,
                          markup=False)
