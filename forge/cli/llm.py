"""The LLM flags of `forge generate` / `forge demo` and what those commands print about LLM use.

Kept apart from forge/cli.py so the command module stays small; the commands themselves live there.
Functions take the Rich console to print on (forge.cli's), so this module does not import forge.cli.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

LLMChoice = Annotated[str | None, typer.Option("--llm", help="LLM backend: offline (the default: no network, "
                                               "deterministic) or openai (any OpenAI-compatible server).")]
ModelOption = Annotated[str | None, typer.Option("--model", help="Model name, as the server knows it.")]
BaseUrl = Annotated[str | None, typer.Option("--base-url", help="OpenAI-compatible endpoint, e.g. "
                                             "http://127.0.0.1:8000/v1 (vLLM, SGLang, Ollama, LiteLLM). "
                                             "Default: OpenAI's.")]
ApiKeyEnv = Annotated[str | None, typer.Option("--api-key-env", help="Name of the environment variable that "
                                               "holds the API key (default OPENAI_API_KEY).")]
ConfigFile = Annotated[Path | None, typer.Option("--config", help="TOML file with [llm] settings and "
                                                 "[prices.<model>] entries (see README); also $FORGE_CONFIG.")]
Temperature = Annotated[float | None, typer.Option("--temperature", min=0.0, max=2.0, help="Sampling temperature.")]
MaxTokensPerCall = Annotated[int | None, typer.Option("--max-tokens-per-call", min=16,
                                                      help="Completion tokens one call may use.")]
LLMTimeout = Annotated[float | None, typer.Option("--llm-timeout", min=1, help="Seconds one LLM request may "
                                                  "take in all before it is abandoned and retried (time waiting for "
                                                  "a free slot is not counted). Default 120, raised to fit a slow "
                                                  "server's measured speed when not given.")]
Structured = Annotated[str | None, typer.Option(
    "--structured", help="How the answer's JSON Schema is sent: auto (the default: probe the server once per base "
    "URL and model, kept in the catalog's llm_endpoints), probe (probe again, e.g. after a server upgrade), "
    "json_schema (OpenAI, vLLM, SGLang), json_object_schema (llama.cpp's Python server: "
    "{\"type\": \"json_object\", \"schema\": ...}), json_object (JSON mode, schema in the prompt) or text.")]
Concurrency = Annotated[int | None, typer.Option("--concurrency", min=1, help="LLM calls in flight at once (lowered "
                                                "by itself when the server serves one request at a time).")]
MaxCost = Annotated[float | None, typer.Option("--max-cost", min=0.0, help="Stop after the tasks in flight once "
                                               "the run has spent this many USD (cached answers are free).")]
MaxTokens = Annotated[int | None, typer.Option("--max-tokens", min=0, help="Stop after the tasks in flight once "
                                               "the run has spent this many tokens.")]
LLMJudge = Annotated[bool, typer.Option("--llm-judge", help="Two extra model reviews of each accepted task: a "
                                        "read-back (the model reads the instruction alone and names each goal value; "
                                        "one other than the rubric's makes the task grounding_fail) and a judge "
                                        "(is every checked value stated? stored as evidence `llm_judge`, not a "
                                        "gate). Needs --llm openai.")]
DryRun = Annotated[bool, typer.Option("--dry-run", help="Estimate the run's tokens and cost per node; spends "
                                      "nothing and writes no package.")]


@dataclass(frozen=True)
class RunInfo:
    run_id: int | None
    backend: str
    stopped: str | None = None
    dry_run: bool = False


def print_estimate(console: Console, config: Any, catalog: Any, taxonomy: Any, task_ids: list[Any]) -> None:
    """--dry-run: the run's workflows with the estimating backend; per-node tokens and cost, nothing written."""
    from forge.llm.estimate import EstimatingBackend
    from forge.llm.prices import find_price
    from kit.dag import NodeContext
    from workflows import get_family

    estimator = EstimatingBackend(config, catalog)
    for task_id in task_ids:
        skill = taxonomy[task_id.skill_id]
        get_family(skill.family).run(NodeContext(skill.params, task_id.seed, skill.id, task_id.index, estimator))
    table = Table("node", "calls", "cached", "prompt tokens", "completion tokens", "cost (USD)",
                  title=f"dry run: {len(task_ids)} tasks with {config.model or config.backend} (nothing spent)")
    for node, e in sorted(estimator.nodes.items()):
        table.add_row(node, str(e.calls), str(e.cached), f"{e.prompt_tokens:,}", f"{e.completion_tokens:,}",
                      f"{e.cost_usd:.4f}")
    tokens = sum(e.prompt_tokens + e.completion_tokens for e in estimator.nodes.values())
    cost = sum(e.cost_usd for e in estimator.nodes.values())
    table.add_row("total", str(sum(e.calls for e in estimator.nodes.values())),
                  str(sum(e.cached for e in estimator.nodes.values())), "", f"{tokens:,} tokens", f"{cost:.4f}",
                  style="bold")
    console.print(table)
    console.print(f"~{tokens / max(1, len(task_ids)):,.0f} tokens per task (~4 characters per token; repairs of "
                  "bad answers come on top; cached answers cost nothing).")
    if config.backend == "openai" and find_price(config.model, config.prices) is None:
        console.print(f"No price for model {config.model!r}: add [prices.\"{config.model}\"] to the config file "
                      "to see costs.", markup=False, highlight=False)  # [prices."M"] is text, not Rich markup


def print_llm_usage(console: Console, catalog: Any, run_id: int, accepted: int) -> None:
    from forge.llm.ledger import run_usage

    usage = run_usage(catalog, run_id)
    if not usage:
        return
    table = Table("node", "calls", "cached", "failed", "attempts", "prompt tokens", "completion tokens",
                  "cost (USD)", title=f"LLM spend of run {run_id} (cached calls are free)")
    for u in usage:
        table.add_row(u.node, str(u.calls), str(u.cached), str(u.failed), str(u.attempts), f"{u.prompt_tokens:,}",
                      f"{u.completion_tokens:,}", f"{u.cost_usd:.4f}")
    tokens = sum(u.prompt_tokens + u.completion_tokens for u in usage)
    cost = sum(u.cost_usd for u in usage)
    table.add_row("total", str(sum(u.calls for u in usage)), str(sum(u.cached for u in usage)),
                  str(sum(u.failed for u in usage)), str(sum(u.attempts for u in usage)), "", f"{tokens:,} tokens",
                  f"{cost:.4f}", style="bold")
    console.print(table)
    if accepted:
        console.print(f"spent per accepted task: {tokens / accepted:,.0f} tokens, ${cost / accepted:.5f}")
    console.print(f"per task: forge sql \"SELECT task_id, sum(prompt_tokens + completion_tokens) AS tokens, "
                  f"sum(cost_usd) AS usd FROM llm_calls WHERE run_id = {run_id} AND NOT cached GROUP BY task_id\"",
                  highlight=False, markup=False)


def print_interrupted(console: Console, run_id: int, recorded: int) -> None:
    """Ctrl-C: what was kept and how to go on."""
    console.print(f"Interrupted: run {run_id} is marked 'interrupted'; the {recorded} task(s) finished before it are "
                  "recorded. Rerun the same command to continue: recorded tasks are skipped and answers already paid "
                  "for come from the cache.", markup=False, highlight=False)


def print_endpoint(console: Console, backend: Any) -> None:
    """What the run learnt about the endpoint: the structured-output form and any lowered concurrency."""
    for note in (getattr(backend, "endpoint_note", ""), getattr(backend, "speed_note", "")):
        if note:
            console.print(f"LLM endpoint: {note}", markup=False, highlight=False)
    for line in getattr(backend, "concurrency_notes", []):
        console.print(f"LLM endpoint: {line}", markup=False, highlight=False)
