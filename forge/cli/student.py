"""Students: `forge student run` (a real model on Forge tasks through a terminal, forge.student_run), the offline
batch path `forge student prompts` / `forge student answers` (forge.student_batch), and `forge student simulate`
(simulated results, to exercise rounds offline)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Annotated, Any

import typer

from forge.cli import llm as cli_llm
from forge.cli.base import DbOption, console, group
from forge.llm.flags import LLMFlags

student_app = group("student", "Students: `run` a real model on tasks through a terminal; `prompts` and `answers` "
                               "for offline batch inference; `simulate` one offline (not a real agent).")


@student_app.command("simulate")
def simulate(
    round_n: Annotated[int, typer.Option("--round", help="Simulate attempts at this round's accepted tasks.")],
    out: Annotated[Path, typer.Option("--out", help="Results root: <out>/pyautogui/screenshot/<model>/...")],
    seed: Annotated[int, typer.Option("--seed", help="Seed of the simulated outcomes.")] = 0,
    model: Annotated[str, typer.Option("--model", help="Model folder name in the results.")] = "simulated-student",
    db: DbOption = None,
    # issue 15: which simulated student (hidden weaknesses, learning with practice)
    student: Annotated[str, typer.Option("--student", help="The simulated student: 'planted' (hidden weaknesses: "
                                         "big tables, date columns, deep folders, look-alike files, ...; they "
                                         "fade with practice), 'all-pass', or PATH.py:Class: any class whose "
                                         "no-argument instances have attempt(task) -> bool or (bool, [failed "
                                         "check ids]) (README: Plug in a simulated student).")] = "planted",
) -> None:
    """SIMULATION: write OSWorld-layout results (result.txt, traj.jsonl) from a simulated student's hidden
    weaknesses (rules over each task's family, knob values and difficulty-axis levels, fading with practice in
    earlier rounds), including crashes and fractional scores. No agent runs; use it to exercise rounds offline."""
    from forge.catalog import Catalog
    from forge.student import resolve_student
    from forge.student import simulate as run

    counts = run(Catalog(db), round_n, out, seed=seed, model=model, student=resolve_student(student))
    console.print(f"simulated {sum(counts.values())} attempts: {dict(sorted(counts.items()))} -> {out}",
                  highlight=False, markup=False)


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
                                          "server refuses or ignores tools: asked once per run), tools, "
                                          "or text.")] = "auto",
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
    checkpoint: Annotated[str | None, typer.Option("--checkpoint", help="Name of the checkpoint the server "
                                                   "serves: answers are cached per (endpoint, model, checkpoint). "
                                                   "Default: a fingerprint the server reports, asked once.")] = None,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="Neither replay nor store answers.")] = False,
) -> None:
    """Run a real model on tasks: it gets each task's instruction and a shell in the task's desktop home.

    Every command runs in bubblewrap (no network, no access to the package's solution or rubric, limits,
    --step-timeout). When the model stops asking for commands, or after --max-steps, the rubric scores the
    home check by check. Results: OSWorld's layout (result.txt, traj.jsonl) plus checks.json (with
    failed_checks) and messages.json; `forge feedback ingest OUT` reads them, `forge export trajectories`
    turns the passed ones into SFT rows. Run the same command again to resume: finished tasks are skipped.

    Example: forge student run --round 1 --model qwen2.5-7b --base-url http://127.0.0.1:8080/v1 --out results
    """
    from forge.agent.chat import ChatClient
    from forge.catalog import Catalog
    from forge.llm.budget import Budget
    from forge.student_cache import student_cache
    from forge.student_run import StudentOptions, StudentRun, StudentRunError
    from kit.sandbox import Limits, Sandbox

    if sum(x is not None and x != [] for x in (paths, round_n, query)) != 1:
        raise StudentRunError("give exactly one of: package folders, --round N, or --query SQL")
    flags = LLMFlags(config=config, backend=llm, model=model, base_url=base_url, api_key_env=api_key_env,
                     temperature=temperature, max_tokens_per_call=max_tokens_per_call, timeout=llm_timeout,
                     concurrency=concurrency, max_cost=max_cost, max_tokens=max_tokens)
    settings = flags.settings()
    catalog = Catalog(db)
    packages, selection = _select(catalog, paths, round_n, query)
    limits = Limits(wall_seconds=step_timeout, cpu_seconds=max(1, int(step_timeout)))
    options = StudentOptions(max_steps=max_steps, concurrency=concurrency,
                             protocol=protocol, seed=seed, context_chars=context_chars)

    def progress(task_id: str, outcome: str) -> None:
        console.print(f"{outcome:<7} {task_id}", highlight=False, markup=False)

    budget = Budget(max_cost, max_tokens)
    # answers are replayed only for the same endpoint, model and checkpoint (forge.student_cache)
    cache = student_cache(catalog, settings, checkpoint=checkpoint, no_cache=no_cache)
    student = StudentRun(catalog, settings, out, Sandbox(limits), options, budget, progress=progress,
                         chat=ChatClient(settings, cache),
                         say=lambda line: console.print(line, highlight=False, markup=False))
    counts = student.run(packages, selection)
    console.print(cache.note, highlight=False, markup=False)
    for note in (student.speed_note, student.protocol_note):
        if note:
            console.print(f"LLM endpoint: {note}", highlight=False, markup=False)
    _print_outcome(counts, len(packages), out, budget, student.stopped)


@student_app.command("prompts")
def prompts(
    paths: Annotated[list[Path] | None, typer.Argument(help="Package folders, or folders holding them (a "
                                                       "`forge generate --out` folder).")] = None,
    out: Annotated[Path, typer.Option("--out", help="The prompts file (JSON Lines, one task a line).")]
    = Path("prompts.jsonl"),
    round_n: Annotated[int | None, typer.Option("--round", help="The accepted tasks of this round.")] = None,
    query: Annotated[str | None, typer.Option("--query", help="A read-only SQL query whose first column is "
                                              "task ids.")] = None,
    max_steps: Annotated[int, typer.Option("--max-steps", min=1, max=500, help="Commands the prompt allows (give "
                                           "`answers` the same).")] = 30,
    step_timeout: Annotated[float, typer.Option("--step-timeout", min=1, max=3600, help="Seconds a command may "
                                                "run, as the prompt says (give `answers` the same).")] = 60.0,
    protocol: Annotated[str, typer.Option("--protocol", help="tools (the shell tool; `tools` in each line) or "
                                          "text (the model answers with ```bash blocks).")] = "tools",
    concurrency: Annotated[int, typer.Option("--concurrency", min=1, max=64, help="Homes built at once.")] = 1,
    batch_model: Annotated[str | None, typer.Option("--batch-model", help="Write OpenAI batch requests for this "
                                                    "model instead ({custom_id, method, url, body}: the input of "
                                                    "`vllm run-batch`).")] = None,
    db: DbOption = None,
) -> None:
    """Write what the agent is shown at its first turn, one JSON line per task, for offline batch inference.

    Each line: {"task_id", "custom_id", "domain", "messages": [system, user], "tools"}; the messages are exactly
    `forge student run`'s first turn (the system prompt; the instruction and a listing of the home that setup.sh
    builds, in the sandbox). Sorted by task id: the same packages give the same file. Answer them with your own
    batch inference (e.g. vLLM offline; --batch-model writes `vllm run-batch` requests), then run the answers
    with `forge student answers`.

    Example: forge student prompts --round 1 --batch-model Qwen/Qwen2.5-7B-Instruct --out requests.jsonl
    """
    from forge.catalog import Catalog
    from forge.student_batch import write_prompts
    from forge.student_run import StudentRunError
    from kit.sandbox import Limits, Sandbox

    if sum(x is not None and x != [] for x in (paths, round_n, query)) != 1:
        raise StudentRunError("give exactly one of: package folders, --round N, or --query SQL")
    packages, _ = _select(Catalog(db), paths, round_n, query)
    sandbox = Sandbox(Limits(wall_seconds=step_timeout, cpu_seconds=max(1, int(step_timeout))))
    count, problems = write_prompts(packages, out, sandbox, max_steps=max_steps, protocol=protocol,
                                    concurrency=concurrency, request_model=batch_model)
    for problem in problems:
        console.print(f"skipped: {problem}", highlight=False, markup=False, soft_wrap=True)
    console.print(f"{count} prompts -> {out}", highlight=False, markup=False)
    if problems:
        raise StudentRunError(f"{len(problems)} task(s) could not be set up and have no prompt (above); "
                              "fix or leave them out and run again")


@student_app.command("answers")
def answers(
    file: Annotated[Path, typer.Argument(help="Answers, JSON Lines: {\"task_id\", \"script\"}, {\"task_id\", "
                                         "\"commands\": [...]}, {\"task_id\", \"content\"} or OpenAI batch output "
                                         "({\"custom_id\", \"response\"}).")],
    paths: Annotated[list[Path] | None, typer.Argument(help="Package folders, or folders holding them; default: "
                                                       "the catalog's packages of the answered task ids.")] = None,
    out: Annotated[Path, typer.Option("--out", help="Results root: <out>/shell/terminal/<model>/<domain>/"
                                      "<task_id>/.")] = Path("results"),
    model: Annotated[str, typer.Option("--model", help="The model's name in the results (its folder, and what "
                                       "ingest and stats show).")] = "batch-student",
    round_n: Annotated[int | None, typer.Option("--round", help="Answers are for this round's accepted "
                                                "tasks.")] = None,
    query: Annotated[str | None, typer.Option("--query", help="Answers are for the task ids this read-only SQL "
                                              "query's first column gives.")] = None,
    max_steps: Annotated[int, typer.Option("--max-steps", min=1, max=500, help="Commands run per task at most "
                                           "(as the prompts said).")] = 30,
    step_timeout: Annotated[float, typer.Option("--step-timeout", min=1, max=3600, help="Seconds one command "
                                                "may run before it is killed (as the prompts said).")] = 60.0,
    concurrency: Annotated[int, typer.Option("--concurrency", min=1, max=64, help="Tasks run at once.")] = 1,
    db: DbOption = None,
) -> None:
    """Run answers written offline (one per task) through the student's shell, score them, write the results.

    Each answer's commands run as `forge student run` runs a model's: a fresh home from setup.sh, every command in
    bubblewrap (no network, no access to the package, limits, --step-timeout), then the rubric. Results: the same
    layout (result.txt, traj.jsonl, checks.json, messages.json) and a `runs` row of kind 'student', so `forge
    feedback ingest OUT` reads them. A line that cannot be run is reported with its number (exit status 1); the
    others still run. Run it again to resume: finished tasks are skipped.

    Example: forge student answers vllm-output.jsonl --model qwen2.5-7b --out results
    """
    from forge.catalog import Catalog
    from forge.student_batch import Problem, read_answers, run_answers
    from forge.student_run import StudentRunError
    from kit.package import load_package
    from kit.sandbox import Limits, Sandbox

    if sum(x is not None and x != [] for x in (paths, round_n, query)) > 1:
        raise StudentRunError("give at most one of: package folders, --round N, or --query SQL")
    catalog = Catalog(db)
    found, problems = read_answers(file)
    selection: dict[str, Any] = {"answers": str(file)}
    if paths or round_n is not None or query is not None:
        chosen, where = _select(catalog, paths, round_n, query)
        selection.update(where)
        what = "the selected tasks"
    else:  # the catalog's packages of the answered ids
        recorded = catalog.recorded(sorted(found)) if found else {}
        chosen = [Path(row[1]) for row in recorded.values() if row[1] and (Path(row[1]) / "task.json").is_file()]
        what = "the catalog's tasks with a package on disk (give package folders for others)"
    known = {package.id: package for package in map(load_package, chosen)}
    problems += [Problem(answer.line, f"task {task_id} is not one of {what}; check the id")
                 for task_id, answer in found.items() if task_id not in known]
    runnable = {task_id: answer for task_id, answer in found.items() if task_id in known}

    def progress(task_id: str, outcome: str) -> None:
        console.print(f"{outcome:<7} {task_id}", highlight=False, markup=False)

    sandbox = Sandbox(Limits(wall_seconds=step_timeout, cpu_seconds=max(1, int(step_timeout))))
    counts: Counter[str] = Counter()
    if runnable:
        counts = run_answers([known[i] for i in runnable], runnable, model=model, out=out, sandbox=sandbox,
                             catalog=catalog, max_steps=max_steps, concurrency=concurrency, selection=selection,
                             progress=progress)
    scored = counts["passed"] + counts["failed"]
    console.print(f"{len(runnable)} answers: {counts['passed']} passed, {counts['failed']} failed, "
                  f"{counts['infra']} infrastructure failures, {counts['already']} already done -> {out}"
                  + (f" (passed {counts['passed'] / scored:.1%} of scored)" if scored else ""),
                  highlight=False, markup=False)
    if problems:
        for problem in sorted(problems, key=lambda p: p.line):
            console.print(f"{file} {problem}", highlight=False, markup=False, soft_wrap=True)
        raise StudentRunError(f"{len(problems)} line(s) of {file} were not run (above); fix them and run the same "
                              "command again (finished tasks are skipped)")


def _select(catalog: Any, paths: list[Path] | None, round_n: int | None, query: str | None
            ) -> tuple[list[Any], dict[str, Any]]:
    """The packages to run (from folders, a round or a query) and the selection as recorded in the run's row."""
    from forge.student_run import StudentRunError, catalog_packages, find_packages

    selection: dict[str, Any]
    if paths:
        packages, selection = find_packages(paths), {"paths": [str(p) for p in paths]}
    elif round_n is not None:
        packages, selection = catalog_packages(catalog, round_n=round_n), {"round": round_n}
    else:
        packages, selection = catalog_packages(catalog, query=query), {"query": query}
    if not packages:
        raise StudentRunError("no tasks selected; check --round / --query")
    return packages, selection


def _print_outcome(counts: Any, tasks: int, out: Path, budget: Any, stopped: str | None) -> None:
    scored = counts["passed"] + counts["failed"]
    console.print(f"{tasks} tasks: {counts['passed']} passed, {counts['failed']} failed, {counts['infra']} "
                  f"infrastructure failures, {counts['already']} already done -> {out}"
                  + (f" (passed {counts['passed'] / scored:.1%} of scored)" if scored else ""),
                  highlight=False, markup=False)
    console.print(f"model turns: {budget.calls} ({budget.cached} from the cache, free), {budget.tokens:,} tokens, "
                  f"${budget.cost_usd:.4f}", highlight=False, markup=False)
    if stopped:
        console.print(f"stopped: {stopped}; run the same command again to continue", highlight=False,
                      markup=False)
