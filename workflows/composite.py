"""compose.pair: two existing skills done in one task ("First ..., then ...").

The family's knobs are skill ids: `first` and `second` name seed skills (any non-composite skill of the
shipped taxonomy), checked when a skill is loaded (`CompositeWorkflow.check_params`). Each part runs its own
family's workflow with its own RNG stream (seeded from the composite skill id, the task index and the part
number), so parts never share random draws. The task is the parts merged:
- assets: both parts' files; parts whose files land on the same path are refused (a `WorkflowError`);
- instruction: "First, <part 1> Then, <part 2>";
- rubric: the union (check ids prefixed `p1.` / `p2.`);
- oracle: the parts' oracle ops, in order;
- near-misses: each part's first two near-misses combined with the other part's oracle, and each part's
  oracle alone — doing only one part fails.
Parts from different apps make a multi-app skill; two parts of the same app make a harder single-app one.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, cast, overload

from kit.dag import NodeContext, Workflow, node
from kit.errors import WorkflowError, did_you_mean
from kit.family import Attempt, Attempts, rubric_node, solve_node
from kit.ids import derive_seed
from kit.model import Asset, Check, Solution
from workflows.common import natural_phrasings, register_natural, wants_natural
from workflows.frame_tb import tb_frame_node
from workflows.teacher import teacher_node

NAME = "compose.pair"
#: Families whose skills are built from seed skills (their knobs name skill ids); never parts themselves.
BUILT = (NAME, "variant.distractors")
#: Near-misses taken from each part (the rest add gate time without new evidence).
NEAR_MISSES_PER_PART = 2
#: The natural register: a user's two requests around the parts' own natural instructions (`{first}`, `{second}`).
NATURAL = (
    "I need two things done. First: {first}\nThen: {second}",
    "Please do both of these. First: {first}\nThen: {second}",
    "Two jobs for you, in this order. First: {first}\nThen: {second}",
    "Could you help me with two things? First: {first}\nThen: {second}",
    "There are two tasks today, and I need both. First: {first}\nThen: {second}",
)
register_natural(NAME, NATURAL)


@dataclass(frozen=True)
class Part:
    """A seed skill as a composite uses it."""

    id: str
    family: str
    apps: tuple[str, ...]
    params: Mapping[str, Any]


@cache
def seed_parts() -> dict[str, Part]:
    """Every feasible skill of the shipped taxonomy not built from others, read from the YAML without the family check
    (the check itself may be validating a composite skill, so it must not call back into the registry)."""
    from kit.taxonomy import load_file
    from skills_taxonomy import TAXONOMY_DIR

    parts = {}
    for path in sorted(TAXONOMY_DIR.glob("*.yaml")):
        for skill in load_file(path):
            # an infeasible request is declined whole: as one part of two it would make the other part moot
            if skill.family not in BUILT and not skill.family.endswith(".infeasible"):
                parts[skill.id] = Part(skill.id, skill.family, skill.apps, dict(skill.params))
    return dict(sorted(parts.items()))


class SkillIds(Sequence[str]):
    """The knob values of `first` / `second`: seed skill ids, read on first use (not at import)."""

    def _ids(self) -> list[str]:
        return list(seed_parts())

    def __contains__(self, value: object) -> bool:
        return isinstance(value, str) and value in seed_parts()

    def __iter__(self) -> Iterator[str]:
        return iter(self._ids())

    def __len__(self) -> int:
        return len(seed_parts())

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[str]: ...

    def __getitem__(self, index: int | slice) -> str | Sequence[str]:
        return self._ids()[index]

    def __repr__(self) -> str:
        return "<seed skill ids>"


@dataclass(frozen=True)
class CompositeWorkflow(Workflow):
    """A Workflow some of whose knobs take seed skill ids (`SkillIds`); a wrong id gets the closest one."""

    def check_params(self, params: Mapping[str, Any]) -> str | None:
        unknown = sorted(set(params) - set(self.knobs))
        if unknown:
            return f"{unknown[0]!r} is not a knob of family {self.name!r} (knobs: {sorted(self.knobs)})"
        for key, allowed in self.knobs.items():
            if key not in params:
                return f"missing knob {key!r} for family {self.name!r}"
            value = params[key]
            if isinstance(allowed, SkillIds) and value not in seed_parts():
                hint = did_you_mean(str(value), list(seed_parts()))
                return f"{key}={value!r} is not a seed skill id.{hint} See `forge skills list`."
            if not isinstance(allowed, SkillIds) and value not in allowed:
                return f"{key}={value!r}, but family {self.name!r} allows {list(allowed)}"
        ids = [params[k] for k, allowed in self.knobs.items() if isinstance(allowed, SkillIds)]
        if len(set(ids)) < len(ids):
            return f"the parts are all {ids[0]!r}; a composite needs different skills"
        return None


def part_outputs(ctx: NodeContext, number: int, part: Part) -> dict[str, Any]:
    """Run one part's workflow with its own RNG stream; its LLM calls are added to the task's, also when the part
    fails (a bad answer in part 2 still leaves every call of both parts in the ledger)."""
    from workflows import get_family

    seed = derive_seed(ctx.run_seed, ctx.skill_id, number) % (2**31)
    # a natural task asks each part in the natural register when the part's family has one (else explicitly)
    register = ctx.register if natural_phrasings(part.family) else "explicit"
    sub = NodeContext(part.params, seed, part.id, ctx.index, ctx.backend, register=register)
    try:
        return get_family(part.family).run(sub)
    finally:
        ctx.calls.extend(sub.calls)
        ctx.answers.update({f"p{number}.{node}": text for node, text in sub.answers.items()})


@node("parts", "sample", ("params",), ("parts",))
def parts(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    params = values["params"]
    chosen = [seed_parts()[params["first"]], seed_parts()[params["second"]]]
    return {"parts": [part_outputs(ctx, i, part) for i, part in enumerate(chosen, start=1)]}


@node("prepare", "prepare", ("parts",), ("assets", "launch"))
def prepare(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    owner: dict[str, int] = {}
    assets: list[Asset] = []
    for number, out in enumerate(values["parts"], start=1):
        for asset in out["assets"]:
            if asset.dest in owner:
                raise WorkflowError(f"family {NAME!r}: parts {owner[asset.dest]} and {number} both write "
                                    f"{asset.dest}; these two skills cannot be composed")
            owner[asset.dest] = number
            assets.append(asset)
    launch = next((list(out["launch"]) for out in values["parts"] if out["launch"]), [])
    return {"assets": assets, "launch": launch}


@node("instruction", "instruction", ("parts",), ("instruction",))
def instruction(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    first, second = (out["instruction"].strip() for out in values["parts"])
    if wants_natural(ctx, NAME):
        return {"instruction": ctx.rng("instruction").choice(NATURAL).format(first=first, second=second)}
    return {"instruction": f"This task has two parts; do both.\nFirst: {first}\nThen: {second}"}


def rubric(parts: list[dict[str, Any]]) -> list[Check]:
    """The union of the parts' rubrics, check ids prefixed with the part (`p1.`, `p2.`)."""
    return [Check(f"p{number}.{check.id}", check.criterion, check.primitive, check.args)
            for number, out in enumerate(parts, start=1) for check in out["rubric"]]


def solve(parts: list[dict[str, Any]]) -> Attempts:
    """Both oracles in order; each part's first near-misses with the other part done right; each part alone."""
    solutions: list[list[Solution]] = [out["solutions"] for out in parts]
    oracles = [sols[0] for sols in solutions]
    misses = []
    for number, sols in enumerate(solutions, start=1):
        for miss in sols[1:1 + NEAR_MISSES_PER_PART]:
            ops = [op for i, o in enumerate(oracles, start=1) for op in (miss.ops if i == number else o.ops)]
            misses.append(Attempt(f"part {number}: {miss.description}; the other part done right", ops))
    misses += [Attempt(f"does only part {number}", list(oracle.ops)) for number, oracle in enumerate(oracles, start=1)]
    return Attempts(Attempt("does both parts: " + "; then ".join(o.description for o in oracles),
                            [op for o in oracles for op in o.ops]), misses)


WORKFLOW = CompositeWorkflow(
    name=NAME,
    version=1,
    apps=("multi_apps",),
    description="Two existing skills in one task (first one, then the other); multi-app when their apps differ.",
    knobs=cast(Mapping[str, tuple[Any, ...]], {"first": SkillIds(), "second": SkillIds()}),
    nodes=(parts, prepare, instruction, rubric_node(rubric), solve_node(solve), tb_frame_node(),
           teacher_node()),
)
