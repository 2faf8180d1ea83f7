"""variant.distractors: a seed skill with look-alike copies of its working file next to it.

Knobs: `base` (a seed skill id, checked like the composite's parts) and `copies` (1 or 2 look-alikes). The
base skill's workflow runs with its own RNG stream; the file its oracle works on (the first asset whose
path the oracle's ops name) gets older copies in the same folder ("<stem> (old).<ext>", "<stem>_backup.<ext>").
What is checked grows: the base rubric plus "each copy is unchanged". Near-misses: the base's first two,
"works on a copy instead of the file" (the oracle's ops aimed at the copy) and "also changes a copy".
A base whose folder listing is checked, or whose oracle names no asset, fails its probe and never joins.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

from kit.dag import NodeContext, node
from kit.errors import WorkflowError
from kit.family import Attempt, Attempts, rubric_node, solve_node
from kit.ids import digest
from kit.model import Asset, Check, Solution
from workflows.common import register_natural, wants_natural
from workflows.composite import CompositeWorkflow, SkillIds, part_outputs, seed_parts
from workflows.frame_tb import tb_frame_node
from workflows.teacher import teacher_node

NAME = "variant.distractors"
NAMES = ("{stem} (old){ext}", "{stem}_backup{ext}")
#: The natural register: the base's own natural instruction (`{base}`), then the warning in a user's words.
NATURAL = (
    "{base}\nJust so you know: {copies} {older} of {original}. Please leave {those} untouched.",
    "{base}\nCareful, {copies} {older} of {original}; I only want {original} changed, not {those}.",
    "{base}\nNote that {copies} {older} of {original}; don't touch {those}.",
    "{base}\nPlease work on {original} itself, since {copies} {older} that must stay unchanged.",
    "{base}\nHeads up: {copies} {older} of {original}. Change only {original} and keep {those} as they are.",
)
register_natural(NAME, NATURAL)


@dataclass(frozen=True)
class Copies:
    """The base's working file and its look-alike copies (same bytes, `sha256`), which must stay unchanged."""

    original: str
    copies: list[str]
    sha256: str


def _mentions(value: Any, path: str) -> bool:
    if isinstance(value, str):
        return value == path
    if isinstance(value, list):
        return any(_mentions(v, path) for v in value)
    if isinstance(value, dict):
        return any(_mentions(v, path) for v in value.values())
    return False


def _retarget(value: Any, path: str, copy: str) -> Any:
    """`value` (ops JSON) with every string equal to `path` replaced by `copy`."""
    if isinstance(value, str):
        return copy if value == path else value
    if isinstance(value, list):
        return [_retarget(v, path, copy) for v in value]
    if isinstance(value, dict):
        return {k: _retarget(v, path, copy) for k, v in value.items()}
    return value


def look_alikes(path: str, count: int) -> list[str]:
    folder, name = path.rsplit("/", 1)
    stem, dot, ext = name.rpartition(".")
    stem, ext = (stem, dot + ext) if dot and stem else (name, "")
    return [f"{folder}/{pattern.format(stem=stem, ext=ext)}" for pattern in NAMES[:count]]


@node("base", "sample", ("params",), ("base", "target"))
def base(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    params = values["params"]
    out = part_outputs(ctx, 1, seed_parts()[params["base"]])
    oracle = out["solutions"][0]
    original = next((a for a in out["assets"] if _mentions(oracle.ops, a.dest)), None)
    if original is None:
        raise WorkflowError(f"family {NAME!r}: the oracle of {params['base']!r} names no asset to imitate; "
                            "this skill cannot take distractors")
    copies = look_alikes(original.dest, params["copies"])
    taken = {a.dest for a in out["assets"]}
    if taken & set(copies):
        raise WorkflowError(f"family {NAME!r}: {sorted(taken & set(copies))} already exists in {params['base']!r}")
    return {"base": out, "target": Copies(original.dest, copies, digest(original.data))}


@node("prepare", "prepare", ("base", "target"), ("assets", "launch"))
def prepare(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    out, t = values["base"], values["target"]
    original = next(a for a in out["assets"] if a.dest == t.original)
    extra = [Asset(copy, original.data, original.app, original.mode) for copy in t.copies]
    return {"assets": [*out["assets"], *extra], "launch": list(out["launch"])}


@node("instruction", "instruction", ("base", "target"), ("instruction",))
def instruction(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    t: Copies = values["target"]
    copies = " and ".join(t.copies)
    if wants_natural(ctx, NAME):
        one = len(t.copies) == 1
        words = {"base": values["base"]["instruction"].strip(), "copies": copies, "original": t.original,
                 "older": "is an older copy" if one else "are older copies",
                 "those": "that copy" if one else "those copies"}
        return {"instruction": ctx.rng("instruction").choice(NATURAL).format(**words)}
    return {"instruction": f"{values['base']['instruction'].strip()}\nCareful: {copies} "
                           f"{'is an older copy' if len(t.copies) == 1 else 'are older copies'} of "
                           f"{t.original}; work on {t.original} only and leave the copies unchanged."}


def rubric(base: dict[str, Any], target: Copies) -> list[Check]:
    """The base rubric, and each copy keeps its bytes."""
    checks = [Check(f"copy{i}", f"{copy}, an older copy, is unchanged.", "fs.same_content",
                    {"path": copy, "sha256": target.sha256}) for i, copy in enumerate(target.copies, start=1)]
    return [*base["rubric"], *checks]


def solve(base: dict[str, Any], target: Copies) -> Attempts:
    """The base oracle; its first two near-misses; the oracle aimed at the first copy; the oracle plus that."""
    solutions: list[Solution] = base["solutions"]
    oracle, copy = solutions[0], target.copies[0]
    wrong = cast(list[dict[str, Any]], _retarget(oracle.ops, target.original, copy))
    return Attempts(
        Attempt(oracle.description, list(oracle.ops)),
        [*(Attempt(miss.description, list(miss.ops)) for miss in solutions[1:3]),
         Attempt(f"does it on the copy {copy} instead", wrong),
         Attempt(f"does it right but also on the copy {copy}", [*oracle.ops, *wrong])],
    )


WORKFLOW = CompositeWorkflow(
    name=NAME,
    version=1,
    apps=("multi_apps",),
    description="A seed skill with look-alike older copies of its working file beside it (left unchanged).",
    knobs=cast(Mapping[str, tuple[Any, ...]], {"base": SkillIds(), "copies": (1, 2)}),
    nodes=(base, prepare, instruction, rubric_node(rubric), solve_node(solve), tb_frame_node(),
           teacher_node()),
)
