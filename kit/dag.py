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

from kit.errors import WorkflowError
from kit.ids import digest, task_rng
from kit.llm import Backend, CacheEntry, LLMRequest, LLMResponse, LLMUnavailableError, Repair

#: Names every run starts with.
RUN_INPUTS = ("params",)
#: Names every workflow must produce: what the package is built from.
TERMINAL_OUTPUTS = ("instruction", "assets", "rubric", "solutions", "launch")

PROMPTS_DIR = Path(__file__).resolve().parent.parent / "workflows" / "prompts"
#: Backends whose answers come from the nodes' own generators: a failure after them is a family bug.
OFFLINE_BACKENDS = frozenset({"offline", "estimate"})

NodeFn = Callable[["NodeContext", Mapping[str, Any]], Mapping[str, Any]]


class LLMOutputError(WorkflowError):
    """An LLM answer did not parse, did not fit the node's schema or its content check, or made a later node
    fail; `raw` keeps the text. The task is `llm_fail`: the answer, not the infrastructure, is at fault, so a
    rerun that gets the same answer from the cache records the same verdict instead of retrying forever."""

    def __init__(self, message: str, raw: str) -> None:
        super().__init__(message)
        self.raw = raw


#: `check(answer, values) -> problem`: what a family needs of an answer beyond its schema (dates parse, keys
#: unique, numbers numeric, sizes in range); '' when the answer is usable. Never raises on any JSON value.
ContentCheck = Callable[[Any, Mapping[str, Any]], str]


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
    estimated_tokens: int = 0  # of the tokens above, those counted by estimate (kit.llm.LLMResponse)

    @classmethod
    def of(cls, node: str, backend: str, response: LLMResponse) -> LLMCall:
        return cls(node, backend, response.prompt_tokens, response.completion_tokens, response.cost_usd,
                   response.cached, response.model, response.latency_s, response.attempts, response.ok,
                   response.cache_entry, response.estimated_tokens)


@dataclass
class NodeContext:
    """What a node may use: knob values, its own RNG, and the LLM backend (for llm nodes)."""

    params: Mapping[str, Any]
    run_seed: int
    skill_id: str
    index: int
    backend: Backend
    calls: list[LLMCall] = field(default_factory=list)
    #: node -> the raw text of the model answer it used (backends other than the offline one only), so a node
    #: that fails on that answer is reported as `llm_fail` with the answer as evidence.
    answers: dict[str, str] = field(default_factory=dict)
    #: The task's instruction register, `explicit` or `natural` (`workflows.common.instruction` reads it; the plan
    #: chooses it, see `forge.generate.assign_registers`).
    register: str = "explicit"

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
    prompt_fields: tuple[tuple[str, str], ...] = ()  # llm nodes: fixed template fields (the family's own text)

    def signature_parts(self) -> list[str]:
        parts = [self.name, self.kind, ",".join(self.inputs), ",".join(self.outputs)]
        if self.prompt:
            parts.append((PROMPTS_DIR / self.prompt).read_text(encoding="utf-8"))
        parts += [f"{key}={value}" for key, value in self.prompt_fields]
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


def json_in(text: str) -> Any:
    """The JSON value of an answer: the whole text, else the one object it wraps in prose or a code fence
    ("Sure! Here is the JSON: {...}"), as small models often answer; raises JSONDecodeError when there is none.
    Taking the object out saves a repair turn; it is still checked against the schema like any answer.
    Raw control characters inside strings (a newline or tab a small model writes as itself) are read as they are
    (`strict=False`): a third of a small model's answers were lost to them."""
    try:
        return json.loads(text, strict=False)
    except json.JSONDecodeError:
        start, end = text.find("{"), text.rfind("}")
        if start < 0 or end <= start:
            raise
        return json.loads(text[start:end + 1], strict=False)


@dataclass(frozen=True)
class Sketch:
    """What a model is asked to write instead of a node's whole answer, and how the whole answer is made from it.

    Templates and programmatic generators do the heavy lifting; the model adds variety. The model answers
    `schema`; `expand(sketch, whole)` puts the model's sketch into the whole answer the node's seeded generator
    wrote (`whole`, JSON as a model's answer arrives); `project(whole)` is the sketch the generator itself would
    write (the offline answer, and what a test's loopback model answers). Contract, so that offline output does not
    depend on the sketch: `expand(project(whole), whole) == whole`."""

    schema: dict[str, Any]
    project: Callable[[Any], Any]
    expand: Callable[[Any, Any], Any]


def sketch_schema(schema: dict[str, Any], ask: tuple[str, ...]) -> dict[str, Any]:
    """The part of an object `schema` a model is asked for: only the top-level properties named in `ask`."""
    properties = schema["properties"]
    unknown = [key for key in ask if key not in properties]
    if unknown:
        raise WorkflowError(f"ask={list(ask)}: {unknown} are not properties of the schema ({sorted(properties)})")
    return {**{k: v for k, v in schema.items() if k not in ("properties", "required", "title", "$schema")},
            "properties": {key: properties[key] for key in ask},
            "required": [key for key in schema.get("required", ()) if key in ask]}


def fields_sketch(schema: dict[str, Any], ask: tuple[str, ...]) -> Sketch:
    """The model writes the top-level fields in `ask`; the generator writes the others."""
    return Sketch(sketch_schema(schema, ask), lambda whole: {key: whole[key] for key in ask},
                  lambda part, whole: {**whole, **part})


def parts_sketch(schema: dict[str, Any], sketches: Mapping[str, Sketch]) -> Sketch:
    """For an object whose top-level properties are parts (a multi-app task's table, mailbox ...): each part named
    in `sketches` is written as that part's sketch, every other part whole."""
    properties = {name: sketches[name].schema if name in sketches else sub
                  for name, sub in schema["properties"].items()}

    def project(whole: dict[str, Any]) -> dict[str, Any]:
        return {name: sketches[name].project(value) if name in sketches else value for name, value in whole.items()}

    def expand(part: dict[str, Any], whole: dict[str, Any]) -> dict[str, Any]:
        return {name: sketches[name].expand(part[name], value) if name in sketches else part[name]
                for name, value in whole.items()}

    return Sketch({**schema, "properties": properties}, project, expand)


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
    check: ContentCheck | None = None,
    sketch: Sketch | None = None,
    fields: Mapping[str, str] | None = None,
) -> Node:
    """A node that asks the backend for JSON fitting `schema`; bad answers raise `LLMOutputError`.

    `check` is the family's content check (what a schema cannot say: dates that parse, unique keys ...); an
    answer it rejects is treated like one that does not fit the schema, so the model gets to repair it.
    An answer that is not JSON, does not fit the schema, was refused, cut off or empty gets up to
    `backend.repairs` repair requests that quote the problem; if the last answer is still bad the node
    raises `LLMOutputError` with the raw text (the task becomes `llm_fail`). A call whose every attempt
    failed raises `LLMUnavailableError` (infrastructure: `infra_fail`, retried by a rerun).
    The node outputs the whole answer, or `answer[pick]` when `pick` names one field.

    With a `sketch` the model writes only the sketch (its schema is what is sent and validated); the node's seeded
    generator (`offline`, run again on the node's own fresh RNG) writes the whole answer, the sketch is expanded
    into it, and the content check sees the result. Offline output is the same with or without a sketch.

    `fields` are fixed template fields besides the inputs: text a family composes once (e.g. the descriptions of
    only the parts a multi-app task has), so the prompt carries nothing the task does not need."""
    static = dict(fields or {})
    asked = sketch.schema if sketch else schema
    validator = jsonschema.Draft202012Validator(asked)

    def generated(rng: random.Random, values: Mapping[str, Any]) -> Any:
        """The generator's whole answer as a model's would arrive (a JSON round trip: sorted keys, lists)."""
        return json.loads(json.dumps(offline(rng, values), sort_keys=True, ensure_ascii=False))

    def asked_answer(rng: random.Random, values: Mapping[str, Any]) -> Any:
        """What the model is asked to write, as the generator writes it."""
        return sketch.project(generated(rng, values)) if sketch else offline(rng, values)

    def parse(response: LLMResponse) -> tuple[Any, str]:
        """(answer, '') or (None, what is wrong with it)."""
        if response.problem:
            return None, response.problem
        try:
            answer = json_in(response.text)
        except (json.JSONDecodeError, TypeError) as exc:
            return None, f"answer is not JSON ({exc})"
        error = jsonschema.exceptions.best_match(validator.iter_errors(answer))
        if error is not None:
            where = "/".join(map(str, error.absolute_path)) or "<root>"
            return None, f"answer does not fit the schema at {where}: {error.message}"
        return answer, ""

    def run(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
        text = render_prompt(prompt, {**static, **values})

        def parse_and_check(response: LLMResponse) -> tuple[Any, str]:
            answer, problem = parse(response)
            if sketch is not None and not problem:  # what the model did not write comes from the generator
                answer = sketch.expand(answer, generated(ctx.rng(name), values))
            if problem or check is None:
                return answer, problem
            problem = check(answer, values)
            return (None, f"answer content is not usable: {problem}") if problem else (answer, "")

        request = LLMRequest(name, text, asked, lambda rng: asked_answer(rng, values), ctx.rng(name))
        response = ctx.backend.complete(request)
        ctx.calls.append(LLMCall.of(name, ctx.backend.name, response))
        answer, problem = parse_and_check(response)
        # Backends written before repairs existed (test doubles) have no `repairs`: they are not repaired.
        repairs = getattr(ctx.backend, "repairs", 0)
        while problem and response.ok and repairs > 0:
            repairs -= 1
            repair = LLMRequest(name, text, asked, lambda rng: asked_answer(rng, values), ctx.rng(name),
                                Repair(response.text, problem))
            response = ctx.backend.complete(repair)
            ctx.calls.append(LLMCall.of(f"{name}/repair", ctx.backend.name, response))
            answer, problem = parse_and_check(response)
        if not response.ok:
            raise LLMUnavailableError(f"node {name!r}: {problem}")
        if problem:
            raise LLMOutputError(f"node {name!r}: {problem}", response.text)
        if ctx.backend.name not in OFFLINE_BACKENDS:
            ctx.answers[name] = response.text
        return {output: answer[pick] if pick else answer}

    return Node(name, kind, inputs, (output,), run, prompt, tuple(sorted(static.items())))


@dataclass(frozen=True)
class Workflow:
    """A family: the reusable DAG shared by many skills, plus its contract as data."""

    name: str
    version: int
    apps: tuple[str, ...]
    description: str
    knobs: Mapping[str, tuple[Any, ...]]  # param -> allowed values
    nodes: tuple[Node, ...]
    #: Difficulty axes: param -> levels, the first level being the default (what a skill that does not name the
    #: axis gets, so adding an axis changes no existing package). Unlike knobs, axes are optional in `params`.
    axes: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        clash = sorted(set(self.axes) & set(self.knobs))
        if clash:  # one params key cannot be both: the knob would silently win and the axis never move
            raise WorkflowError(f"family {self.name!r}: {clash} named both a knob and a difficulty axis; rename the "
                                "axis")

    def check_params(self, params: Mapping[str, Any]) -> str | None:
        """None when `params` fit the knobs (all required) and the axes (optional), else the problem in one
        sentence."""
        allowed = {**self.axes, **self.knobs}
        for key, value in params.items():
            if key not in allowed:
                axes = f"; axes: {sorted(self.axes)}" if self.axes else ""
                return f"{key!r} is not a knob of family {self.name!r} (knobs: {sorted(self.knobs)}{axes})"
            if value not in allowed[key]:
                return f"{key}={value!r}, but family {self.name!r} allows {list(allowed[key])}"
        missing = sorted(set(self.knobs) - set(params))
        if missing:
            return f"missing knobs {missing} for family {self.name!r}"
        return None

    def level(self, params: Mapping[str, Any], axis: str) -> Any:
        """The level of difficulty axis `axis` that `params` ask for (the axis's first level when absent)."""
        return params.get(axis, self.axes[axis][0])

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
        """Execute every node; returns all produced values (terminal outputs included).

        A node that fails after a model's answer was used is reported as `LLMOutputError` (the task is
        `llm_fail`, with the error and the answers as evidence): a content check missed something, and the
        answer, which a rerun would take from the cache, is what made the family fail. With the offline
        generators the same failure is a bug in the family and propagates unchanged."""
        values: dict[str, Any] = {"params": dict(ctx.params)}
        for node in self.order:
            try:
                produced = node.fn(ctx, {name: values[name] for name in node.inputs})
            except (LLMOutputError, LLMUnavailableError):
                raise
            except Exception as exc:
                if not ctx.answers or type(exc).__module__.startswith("forge.llm"):
                    raise
                raise LLMOutputError(f"node {node.name!r} of workflow {self.name!r} failed on the model's answer "
                                     f"of {sorted(ctx.answers)}: {type(exc).__name__}: {exc}",
                                     "\n".join(ctx.answers.values())) from exc
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
