"""Optional LLM judge (`forge generate --llm-judge`, off by default): is the instruction fair to the checks?

Two questions to the model, on tasks the gate accepted; each is a gate:
1. the judge: the model reads the instruction and the rubric's human criteria and answers whether the instruction
   fully specifies what is checked. A NO makes the task `grounding_fail` with the judge's words as the evidence
   (stage `llm_judge`, stored as a verification row; its calls in the ledger, node `judge`): an instruction a reader
   finds underspecified is not one to train on, whatever the lexical pass found. An answer that is not a usable
   verdict is reported and judges nothing (a model's health is no evidence about the task). Prompt:
   workflows/prompts/judge.txt.
2. the read-back (verifiers/gate/readback.py), a gate: the model reads the instruction ALONE and says which value of
   each goal argument it asks for; a value other than the rubric's makes the task `grounding_fail` (stage
   `readback`, node `readback` in the ledger).
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from typing import Any

from kit.dag import LLMCall, LLMOutputError, NodeContext, llm_node
from kit.ids import TaskId
from kit.llm import Backend, LLMUnavailableError
from verifiers.gate.readback import read_back
from verifiers.gate.stages import Stage
from verifiers.roundtrip import Ungrounded

SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["fully_specified", "unstated", "reason"],
    "properties": {
        "fully_specified": {"type": "boolean"},
        "unstated": {"type": "array", "items": {"type": "string"}},
        "reason": {"type": "string", "maxLength": 600},
    },
}


def _offline(rng: random.Random, values: Mapping[str, Any]) -> dict[str, Any]:
    return {"fully_specified": True, "unstated": [], "reason": "offline: not judged"}


NODE = llm_node("judge", kind="llm", inputs=("instruction", "criteria"), output="verdict", prompt="judge.txt",
                schema=SCHEMA, offline=_offline)


class Judge:
    def __init__(self, backend: Backend) -> None:
        self.backend = backend

    def review(self, task: Mapping[str, Any]) -> tuple[Stage, list[LLMCall]]:
        """The judge's verdict on a task.json as a stage (failed: the judge said the instruction does not specify
        what is checked; the task is then `grounding_fail`), and the calls it made (for the ledger)."""
        task_id = TaskId.parse(str(task["id"]))
        ctx = NodeContext(task.get("params", {}), task_id.seed, task_id.skill_id, task_id.index, self.backend)
        criteria = [check["criterion"] for check in task.get("rubric", [])]
        start = time.perf_counter()
        try:
            verdict = NODE.fn(ctx, {"instruction": task["instruction"], "criteria": criteria})["verdict"]
        except (LLMOutputError, LLMUnavailableError) as exc:
            seconds = time.perf_counter() - start
            return Stage("llm_judge", True, f"judge: no usable verdict ({exc}); not judged", seconds), ctx.calls
        unstated = "; ".join(verdict["unstated"])
        evidence = f"judge: {verdict['reason']}" + (f" Unstated: {unstated}" if unstated else "")
        return Stage("llm_judge", bool(verdict["fully_specified"]), evidence, time.perf_counter() - start), ctx.calls

    def read_back(self, task: Mapping[str, Any]) -> tuple[Stage, list[LLMCall]]:
        """The model's read-back of the instruction alone, as a stage that fails on a disagreement with the rubric."""
        start = time.perf_counter()
        try:
            evidence, calls = read_back(str(task.get("instruction", "")), list(task.get("rubric", [])), self.backend)
        except Ungrounded as exc:
            return Stage("readback", False, str(exc), time.perf_counter() - start), []
        return Stage("readback", True, evidence, time.perf_counter() - start), calls
