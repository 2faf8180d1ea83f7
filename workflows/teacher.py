"""The teacher node: every family's oracle also comes as commands an agent at a terminal could type.

After `solve`, the node writes the oracle's ops as a shell script (`preparers.teach.teach`: coreutils lines for the
file tree, one python3 heredoc per run of document edits with openpyxl, python-docx, python-pptx, Pillow), after a
look at what the task touches (`preparers.teach.look`). The package keeps it as solution/teacher.json; the gate's
`teacher` stage runs it through the student's own sandboxed shell and the rubric must pass, and `forge export
trajectories --teacher` turns its runs into SFT rows. A family that truly needs the GUI says so
(`terminal=False` with its reason): its tasks carry the reason instead of commands, and are counted.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any

from kit.dag import Node, NodeContext
from kit.model import Asset, Solution, Teacher
from preparers.teach import NotTeachable, look, teach


def teacher_for(assets: list[Asset], oracle: Solution) -> Teacher:
    """The oracle's teacher; an op no snippet teaches leaves it without commands, saying which."""
    try:
        script = teach(oracle.ops)
    except NotTeachable as exc:
        return Teacher(why=str(exc))
    return Teacher(look=[look(oracle.ops, [a.dest for a in assets])], commands=[script])


def teacher_node(gui: str = "", teach: Callable[..., str] | None = None) -> Node:
    """The node that ends every standard family's chain (kit.family appends it when the app kit names this factory).
    `gui`: why the family's tasks need the GUI (no terminal solution is written); `teach`: the family's own edit
    as commands, for oracles whose ops hold a worked-out answer (its parameters name the node values it reads, as a
    family's other functions do; the look stays the kit's)."""
    own = tuple(inspect.signature(teach).parameters) if teach else ()

    def run(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
        if gui:
            return {"teacher": Teacher(why=gui)}
        solutions: list[Solution] = values["solutions"]
        teacher = teacher_for(list(values["assets"]), solutions[0])
        if teach is not None and teacher.commands:
            teacher = Teacher(look=teacher.look, commands=[teach(**{name: values[name] for name in own})])
        return {"teacher": teacher}

    inputs = ("assets", "solutions", *(name for name in own if name not in ("assets", "solutions")))
    return Node("teacher", "teacher", inputs, ("teacher",), run,
                prompt_fields=(("gui", gui),) if gui else (("teach", teach.__qualname__),) if teach else ())
