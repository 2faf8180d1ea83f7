"""The family kit: a standard family is data (knobs, phrasings, description) plus three typed functions.

Every standard family has the same chain: the app's source nodes (sample -> content), the family's `goal`,
the app's `prepare`, the `instruction` node over the goal's facts, the family's `rubric` and `solve`. A family
module writes only what is its own:

    @dataclass(frozen=True)
    class Target:                       # what the goal picked, frozen and typed
        column: int

    def goal(rng: Random, params: Params, table: Table, plan: Plan) -> Goal[Layout, Target]: ...
    def rubric(params: Params, layout: Layout, target: Target) -> list[Check]: ...
    def solve(params: Params, layout: Layout, target: Target) -> Attempts: ...

    WORKFLOW = family(NAME, kit.CALC, description=..., knobs=..., phrasings=PHRASINGS, natural=NATURAL,
                      goal=goal, rubric=rubric, solve=solve)

`phrasings` are the *explicit* register (a specification: paths, ranges, exact values); `natural` the *natural*
register (a user's goal in their own voice, see `workflows.common.instruction`); both are `str.format` templates
over the same `facts`, and a task's register picks which one its instruction comes from.

A function's parameters name the node values it reads, in order (`rng` is the node's own seeded RNG, not a
value); `family()` turns them into today's `Node`s with exactly those inputs, so a converted family keeps its
workflow signature and its packages keep their bytes (tests/workflows/test_golden_packages.py), and refuses at
import a name that no node before the function produces (`check_wiring` lists the names there are). Near-misses are
numbered by the kit (`near-miss-1`, ...). A family whose chain differs (its own prepare node, extra outputs)
passes `prepare=prepare_node(fn)` or `outputs=`; anything stranger stays a hand-built `Workflow`.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar, get_type_hints, is_typeddict

from kit.dag import RUN_INPUTS, Node, NodeContext, Workflow
from kit.errors import WorkflowError, did_you_mean
from kit.model import Check, Freedom, Solution

S = TypeVar("S")
T = TypeVar("T")


@dataclass(frozen=True)
class Goal(Generic[S, T]):
    """What a goal function returns: the initial state the app kit prepares (`state`, e.g. a Calc `Layout`;
    None for kits without one), the `facts` an instruction states, the family's `target`, and any `extra`
    outputs the family declared with `outputs=`."""

    state: S
    facts: Mapping[str, Any]
    target: T
    extra: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Attempt:
    """One solution before it is named: what it does, and its edit ops (see `preparers.ops`)."""

    description: str
    ops: list[dict[str, Any]]


@dataclass(frozen=True)
class Attempts:
    """What a solve function returns: the oracle and the near-misses, which the kit numbers from 1."""

    oracle: Attempt
    near_misses: Sequence[Attempt]

    def solutions(self) -> list[Solution]:
        named = [Solution("oracle", self.oracle.description, self.oracle.ops)]
        named += [Solution(f"near-miss-{i}", a.description, a.ops) for i, a in enumerate(self.near_misses, 1)]
        return named


class InstructionNode(Protocol):
    """Builds a family's instruction node: `workflows.common.instruction` (family, phrasings, natural=())."""

    def __call__(self, family: str, phrasings: Sequence[str], natural: Sequence[str] = ()) -> Node: ...


@dataclass(frozen=True)
class AppKit:
    """What every standard family of one app shares.

    `apps`: the apps a task opens; `source`: the nodes before the goal (sample -> content); `state`: the name of
    the goal's state output that `prepare` reads ('' when the goal has none); `prepare`: the node that turns the
    state into assets and a launch command (None when the source nodes already made them); `instruction`:
    builds the instruction node from (family name, phrasings, natural phrasings)."""

    apps: tuple[str, ...]
    source: Callable[[], tuple[Node, ...]]
    state: str
    prepare: Node | None
    instruction: InstructionNode
    #: Difficulty axes every family of the app has (honoured by the source nodes): axis -> levels, default first.
    axes: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    #: Makes the node that ends every family's chain with the frame checks (`workflows.frame.frame_node`: the
    #: closed world, derived from the initial and the oracle's end state, widened by the family's freedoms); its
    #: 'frame' output joins the rubric in the package.
    frame: Callable[[tuple[Freedom, ...]], Node] | None = None
    #: Makes the node that writes the oracle as terminal commands (`workflows.teacher.teacher_node`: from why the
    #: family needs the GUI, '' when it does not, and the family's own `teach` function or None); its 'teacher'
    #: output is the package's solution/teacher.json, which the gate's teacher stage runs through the student's
    #: shell.
    teacher: Callable[[str, Callable[..., str] | None], Node] | None = None


def _inputs(fn: Callable[..., Any]) -> tuple[str, ...]:
    """The node values a kit function reads: its parameter names in order, without `rng`."""
    return tuple(name for name in inspect.signature(fn).parameters if name != "rng")


def _call(fn: Callable[..., Any], name: str, ctx: NodeContext, values: Mapping[str, Any]) -> Any:
    args = {key: values[key] for key in _inputs(fn)}
    if "rng" in inspect.signature(fn).parameters:
        args["rng"] = ctx.rng(name)
    return fn(**args)


def _check_params_type(family_name: str, fn: Callable[..., Any], knobs: Mapping[str, Any]) -> None:
    """A function's `params: SomeTypedDict` must name exactly the family's knobs (a typo fails at import)."""
    if "params" not in inspect.signature(fn).parameters:
        return
    try:
        hint = get_type_hints(fn).get("params")
    except NameError:  # an annotation only a type checker resolves (TYPE_CHECKING imports)
        return
    if hint is not None and is_typeddict(hint) and set(hint.__annotations__) != set(knobs):
        raise WorkflowError(f"family {family_name!r}: {fn.__name__}'s params type {hint.__name__} has keys "
                            f"{sorted(hint.__annotations__)}, but the knobs are {sorted(knobs)}")


def check_wiring(family_name: str, nodes: Sequence[Node], functions: Mapping[str, Callable[..., Any]]) -> None:
    """Each node reads only values that a node before it in the chain produces (or a run input, `params`).

    A family function's parameter names ARE the values it reads (`table` in Calc, `document` in Writer, `assets`
    after `prepare`), so a misspelt parameter would otherwise surface only when the first task runs, as a missing
    DAG input. `functions` maps a node name to the family function behind it (goal, rubric, solve), so the error
    can name the parameter rather than the node."""
    available: list[str] = list(RUN_INPUTS)
    for node in nodes:
        fn = functions.get(node.name)
        for name in node.inputs:
            if name in available:
                continue
            who = (f"{fn.__name__}() (the {node.name} function) has the parameter {name!r}" if fn is not None
                   else f"node {node.name!r} reads {name!r}")
            raise WorkflowError(f"family {family_name!r}: {who}, but no node before {node.name!r} produces it; "
                                f"available: {sorted(available)}.{did_you_mean(name, available)} A parameter name "
                                "is the node value it reads: rename it to one of these.")
        available += [out for out in node.outputs if out not in available]


def goal_node(fn: Callable[..., Goal[Any, Any]], state: str, extra: tuple[str, ...] = ()) -> Node:
    """The `goal` node: outputs (state, 'facts', 'target', *extra), state left out when the kit has none."""
    outputs = ((state,) if state else ()) + ("facts", "target") + extra

    def run(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
        picked: Goal[Any, Any] = _call(fn, "goal", ctx, values)
        produced = {"facts": picked.facts, "target": picked.target, **picked.extra}
        if state:
            produced[state] = picked.state
        return produced

    return Node("goal", "goal", _inputs(fn), outputs, run)


def rubric_node(fn: Callable[..., Sequence[Check]]) -> Node:
    def run(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"rubric": list(_call(fn, "rubric", ctx, values))}

    return Node("rubric", "rubric", _inputs(fn), ("rubric",), run)


def solve_node(fn: Callable[..., Attempts]) -> Node:
    def run(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
        attempts: Attempts = _call(fn, "solve", ctx, values)
        return {"solutions": attempts.solutions()}

    return Node("solve", "solve", _inputs(fn), ("solutions",), run)


def prepare_node(fn: Callable[..., Mapping[str, Any]]) -> Node:
    """A family's own `prepare` node (for `family(prepare=...)`): `fn` reads the node values its parameters name
    and returns the 'assets' and the 'launch' command, like the app kit's prepare node."""
    def run(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
        return _call(fn, "prepare", ctx, values)

    return Node("prepare", "prepare", _inputs(fn), ("assets", "launch"), run)


def family(
    name: str,
    kit: AppKit,
    *,
    description: str,
    knobs: Mapping[str, tuple[Any, ...]],
    phrasings: Sequence[str],
    natural: Sequence[str] = (),
    goal: Callable[..., Goal[Any, Any]],
    rubric: Callable[..., Sequence[Check]],
    solve: Callable[..., Attempts],
    version: int = 1,
    source: tuple[Node, ...] | None = None,
    prepare: Node | None = None,
    outputs: tuple[str, ...] = (),
    axes: Mapping[str, tuple[Any, ...]] | None = None,
    freedoms: Sequence[Freedom] = (),
    gui: str = "",
    teach: Callable[..., str] | None = None,
) -> Workflow:
    """A standard family as a `Workflow`: kit.source + goal + prepare + instruction + rubric + solve.

    `source` replaces the kit's source nodes (a kit whose sampling takes arguments, e.g. GIMP's picture kinds);
    `prepare` replaces the kit's prepare node; `outputs` are extra goal outputs (from `Goal.extra`); `axes` are the
    family's own difficulty axes, added to the kit's (default level first); `natural` are the natural-register
    phrasings (see `workflows.common.instruction`); `freedoms` widen the frame where a correct solution may change
    more than the oracle does (each with its reason); `gui` says why the family's tasks cannot be done from a
    terminal (they get no teacher commands, and are counted as GUI-only); `teach` writes the edit as commands
    itself, where the oracle's ops hold what an agent must work out (a count, a word total) rather than type."""
    for fn in (goal, rubric, solve):
        _check_params_type(name, fn, knobs)
    if freedoms and kit.frame is None:
        raise WorkflowError(f"family {name!r} declares freedoms, but its app kit has no frame to widen; drop them")
    preparing = prepare or kit.prepare
    nodes = (*(source if source is not None else kit.source()), goal_node(goal, kit.state, outputs),
             *((preparing,) if preparing else ()), kit.instruction(name, phrasings, natural), rubric_node(rubric),
             solve_node(solve), *((kit.frame(tuple(freedoms)),) if kit.frame else ()),
             *((kit.teacher(gui, teach),) if kit.teacher else ()))
    functions = {"goal": goal, "rubric": rubric, "solve": solve, **({"teacher": teach} if teach else {})}
    check_wiring(name, nodes, functions)
    return Workflow(name=name, version=version, apps=kit.apps, description=description, knobs=knobs, nodes=nodes,
                    axes={**kit.axes, **(axes or {})})
