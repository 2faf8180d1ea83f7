"""Workflow DAGs: nodes with declared inputs/outputs, validated before any token is spent.

A workflow family is a tuple of `Node`s. `Workflow.validate()` checks names are unique, every input is
produced upstream (or is a run input), the graph is acyclic, and the terminal outputs exist; errors
name the node, the missing inputs and what is available. `Workflow.run()` executes nodes in
topological order with a per-node `random.Random` derived from the task seed.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from graphlib import CycleError, TopologicalSorter
from pathlib import Path
from typing import Any

import jsonschema

from forge.errors import WorkflowError
from forge.ids import digest, task_rng
from forge.llm import Backend, CacheEntry, LLMRequest, LLMResponse, LLMUnavailableError, Repair

#: Names every run starts with.
RUN_INPUTS = ("params",)
#: Names every workflow must produce: what the package is built from.
TERMINAL_OUTPUTS = ("instruction", "assets", "rubric", "solutions", "launch")

PROMPTS_DIR = Path(__file__).resolve().parent.parent / "workflows" / "prompts"

NodeFn = Callable[["NodeContext", Mapping[str, Any]], Mapping[str, Any]]


class LLMOutputError(WorkflowError):
    """An LLM answer did not parse or did not fit the node's schema; `raw` keeps the text."""

    def __init__(self, message: str, raw: str) -> None:
        super().__init__(message)
        self.raw = raw


@dataclass(frozen=True)
class LLMCall:
    """One ledger row: a call of an llm node (a repair request is a call of node `<name>/repair`).

    Tokens and cost are the answer's own (the same when it came from the cache); `cached`, `latency_s`
    and `attempts` depend on the run, so they go to the catalog only, never into a package."""

    node: str
    backend: str
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float
    cached: bool
    model: str = ""
    latency_s: float = 0.0
    attempts: int = 1
    ok: bool = True
    cache_entry: CacheEntry | None = None

    @classmethod
    def of(cls, node: str, backend: str, response: LLMResponse) -> LLMCall:
        return cls(node, backend, response.prompt_tokens, response.completion_tokens, response.cost_usd,
                   response.cached, response.model, response.latency_s, response.attempts, response.ok,
                   response.cache_entry)


@dataclass
class NodeContext:
    """What a node may use: knob values, its own RNG, and the LLM backend (for llm nodes)."""

    params: Mapping[str, Any]
    run_seed: int
    skill_id: str
    index: int
    backend: Backend
    calls: list[LLMCall] = field(default_factory=list)

    def rng(self, node: str) -> random.Random:
        return task_rng(self.run_seed, self.skill_id, self.index, node)


@dataclass(frozen=True)
class Node:
    name: str
    kind: str  # sample | llm | prepare | goal | instruction | rubric | solve
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    fn: NodeFn
    prompt: str = ""  # llm nodes: template file name under workflows/prompts

    def signature_parts(self) -> list[str]:
        parts = [self.name, self.kind, ",".join(self.inputs), ",".join(self.outputs)]
        if self.prompt:
            parts.append((PROMPTS_DIR / self.prompt).read_text(encoding="utf-8"))
        return parts


def render_prompt(template_name: str, values: Mapping[str, Any]) -> str:
    """Fill `{name}` fields of a template file; dicts and lists are rendered as JSON."""
    template = (PROMPTS_DIR / template_name).read_text(encoding="utf-8")
    rendered = {k: v if isinstance(v, str) else json.dumps(v, sort_keys=True, default=str) for k, v in values.items()}
    try:
        return template.format_map(rendered)
    except KeyError as exc:
        raise WorkflowError(f"prompt {template_name}: field {exc} is not an input of the node; "
                            f"available: {sorted(values)}") from None


def llm_node(
    name: str,
    *,
    kind: str,
    inputs: tuple[str, ...],
    output: str,
    prompt: str,
    schema: dict[str, Any],
    offline: Callable[[random.Random, Mapping[str, Any]], dict[str, Any]],
    pick: str | None = None,
) -> Node:
    """A node that asks the backend for JSON fitting `schema`; bad answers raise `LLMOutputError`.

    An answer that is not JSON, does not fit the schema, was refused, cut off or empty gets up to
    `backend.repairs` repair requests that quote the problem; if the last answer is still bad the node
    raises `LLMOutputError` with the raw text (the task becomes `llm_fail`). A call whose every attempt
    failed raises `LLMUnavailableError` (infrastructure: `infra_fail`, retried by a rerun).
    The node outputs the whole answer, or `answer[pick]` when `pick` names one field."""
    validator = jsonschema.Draft202012Validator(schema)

    def parse(response: LLMResponse) -> tuple[Any, str]:
        """(answer, '') or (None, what is wrong with it)."""
        if response.problem:
            return None, response.problem
        try:
            answer = json.loads(response.text)
        except (json.JSONDecodeError, TypeError) as exc:
            return None, f"answer is not JSON ({exc})"
        error = jsonschema.exceptions.best_match(validator.iter_errors(answer))
        if error is not None:
            where = "/".join(map(str, error.absolute_path)) or "<root>"
            return None, f"answer does not fit the schema at {where}: {error.message}"
        return answer, ""

    def run(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
        text = render_prompt(prompt, values)
        request = LLMRequest(name, text, schema, lambda rng: offline(rng, values), ctx.rng(name))
        response = ctx.backend.complete(request)
        ctx.calls.append(LLMCall.of(name, ctx.backend.name, response))
        answer, problem = parse(response)
        # Backends written before repairs existed (test doubles) have no `repairs`: they are not repaired.
        repairs = getattr(ctx.backend, "repairs", 0)
        while problem and response.ok and repairs > 0:
            repairs -= 1
            repair = LLMRequest(name, text, schema, lambda rng: offline(rng, values), ctx.rng(name),
                                Repair(response.text, problem))
            response = ctx.backend.complete(repair)
            ctx.calls.append(LLMCall.of(f"{name}/repair", ctx.backend.name, response))
            answer, problem = parse(response)
        if not response.ok:
            raise LLMUnavailableError(f"node {name!r}: {problem}")
        if problem:
            raise LLMOutputError(f"node {name!r}: {problem}", response.text)
        return {output: answer[pick] if pick else answer}

    return Node(name, kind, inputs, (output,), run, prompt)


@dataclass(frozen=True)
class Workflow:
    """A family: the reusable DAG shared by many skills, plus its contract as data."""

    name: str
    version: int
    apps: tuple[str, ...]
    description: str
    knobs: Mapping[str, tuple[Any, ...]]  # param -> allowed values
    nodes: tuple[Node, ...]

    def check_params(self, params: Mapping[str, Any]) -> str | None:
        """None when `params` fit the knobs, else the problem in one sentence."""
        for key, value in params.items():
            if key not in self.knobs:
                return f"{key!r} is not a knob of family {self.name!r} (knobs: {sorted(self.knobs)})"
            if value not in self.knobs[key]:
                return f"{key}={value!r}, but family {self.name!r} allows {list(self.knobs[key])}"
        missing = sorted(set(self.knobs) - set(params))
        if missing:
            return f"missing knobs {missing} for family {self.name!r}"
        return None

    @cached_property
    def order(self) -> tuple[Node, ...]:
        """Nodes in a valid execution order; raises `WorkflowError` if the DAG is invalid."""
        producers: dict[str, str] = {name: "<run>" for name in RUN_INPUTS}
        by_name: dict[str, Node] = {}
        for node in self.nodes:
            if node.name in by_name:
                raise WorkflowError(f"workflow {self.name!r}: node name {node.name!r} is used twice")
            by_name[node.name] = node
            for out in node.outputs:
                if out in producers:
                    raise WorkflowError(f"workflow {self.name!r}: output {out!r} of node {node.name!r} "
                                        f"is also produced by {producers[out]!r}")
                producers[out] = node.name
        for node in self.nodes:
            missing = [i for i in node.inputs if i not in producers]
            if missing:
                raise WorkflowError(f"workflow {self.name!r}: node {node.name!r} needs {missing}, which no node "
                                    f"produces; available: {sorted(producers)}. Add a node that outputs them.")
        absent = [o for o in TERMINAL_OUTPUTS if o not in producers]
        if absent:
            raise WorkflowError(f"workflow {self.name!r}: no node produces {absent}; every workflow must "
                                f"produce {list(TERMINAL_OUTPUTS)}")
        graph = {n.name: {producers[i] for i in n.inputs if producers[i] != "<run>"} for n in self.nodes}
        try:
            names = tuple(TopologicalSorter(graph).static_order())
        except CycleError as exc:
            raise WorkflowError(f"workflow {self.name!r}: nodes form a cycle: {' -> '.join(exc.args[1])}") from None
        return tuple(by_name[n] for n in names)

    def validate(self) -> None:
        _ = self.order

    @cached_property
    def signature(self) -> str:
        """Hash of the family's definition (name, version, node I/O, prompt texts): cache key and lineage."""
        parts = [self.name, str(self.version)] + [p for n in self.nodes for p in n.signature_parts()]
        return digest("\x1e".join(parts))[:16]

    def run(self, ctx: NodeContext) -> dict[str, Any]:
        """Execute every node; returns all produced values (terminal outputs included)."""
        values: dict[str, Any] = {"params": dict(ctx.params)}
        for node in self.order:
            produced = node.fn(ctx, {name: values[name] for name in node.inputs})
            unexpected = set(produced) ^ set(node.outputs)
            if unexpected:
                raise WorkflowError(f"workflow {self.name!r}: node {node.name!r} returned {sorted(produced)}, "
                                    f"declared {list(node.outputs)}")
            values.update(produced)
        return values


def node(name: str, kind: str, inputs: tuple[str, ...], outputs: tuple[str, ...]) -> Callable[[NodeFn], Node]:
    """Decorator: turn a plain function `(ctx, values) -> {output: value}` into a `Node`."""

    def wrap(fn: NodeFn) -> Node:
        return Node(name, kind, inputs, outputs, fn)

    return wrap
