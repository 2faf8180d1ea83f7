"""The model's read-back: a model reads the instruction alone and says what it asks for; that must agree with the
rubric (issue 22: "the model as an optional extra gate stage").

For every goal argument the lexicon binds (sort direction, comparison operator, aggregate, chart type, alignment,
filter action ...), the model is asked which of the argument's values the instruction asks for, with "unknown"
allowed. An answer naming another value than the one the rubric checks fails grounding and names the argument:
that is a contradiction a reader sees even where the lexicon has no phrase for it. "unknown" is counted, not failed
(a weak model often cannot tell; the lexical pass already requires each value to be expressed). An answer that is
not usable JSON is reported in the evidence and fails nothing: the stage is an extra check, not a gate on the
model's health. Offline, the answers come from the deterministic extractor (`verifiers.extract`), so the stage
costs nothing and agrees with the lexical pass.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import jsonschema

from kit.dag import LLMCall, json_in
from kit.llm import Backend, LLMRequest
from verifiers import checks, extract
from verifiers.lexicon import DOMAINS, NEUTRAL
from verifiers.roundtrip import Ungrounded

UNKNOWN = "unknown"
PROMPT = """You check instructions for desktop tasks. Read ONLY the instruction below and say, for each question,
which option it asks for. Answer "unknown" when the instruction does not say. Answer with JSON only:
{{"answers": {{"q1": "<option>", ...}}}}

Instruction:
{instruction}

Questions:
{questions}
"""


@dataclass(frozen=True)
class Question:
    key: str  # q1, q2 ...
    check: str  # rubric check id
    arg: str
    domain: str
    want: str  # the domain value the rubric's argument stands for
    options: tuple[str, ...]

    def line(self) -> str:
        return f'{self.key}: which {self.domain.replace("_", " ")}? options: {", ".join(self.options)}, {UNKNOWN}'


def questions(rubric: list[Mapping[str, Any]]) -> list[Question]:
    """One question per goal argument a check's meaning says in words (`Said`: each domain asked once)."""
    registry = checks.registry()
    asked: list[Question] = []
    for item in rubric:
        prim = registry.get(str(item.get("primitive")))
        for name, value in (item.get("args") or {}).items():
            binding = prim.meaning.said(name) if prim is not None else None
            want = binding.value(value) if binding else None
            if binding is None or want is None or any(q.domain == binding.domain for q in asked):
                continue
            options = tuple(v for v in DOMAINS[binding.domain].phrases if v != NEUTRAL)
            if want in options:
                asked.append(Question(f"q{len(asked) + 1}", str(item.get("id")), name, binding.domain, want, options))
    return asked


def schema(asked: list[Question]) -> dict[str, Any]:
    answers = {q.key: {"type": "string", "enum": [*q.options, UNKNOWN]} for q in asked}
    return {"type": "object", "required": ["answers"], "additionalProperties": False,
            "properties": {"answers": {"type": "object", "properties": answers, "required": [q.key for q in asked]}}}


def offline_answers(text: str, asked: list[Question]) -> dict[str, Any]:
    """The extractor's reading: the one value of the domain the instruction expresses, else unknown."""
    answers = {}
    for q in asked:
        said = [v for v in extract.expressed(text, q.domain) if v in q.options]
        answers[q.key] = said[0] if len(said) == 1 else UNKNOWN
    return {"answers": answers}


def read_back(instruction: str, rubric: list[Mapping[str, Any]], backend: Backend) -> tuple[str, list[LLMCall]]:
    """Ask `backend` what `instruction` asks for; raises `Ungrounded` naming the argument on a disagreement,
    returns the evidence otherwise, with the call for the ledger (node `readback`)."""
    asked = questions(rubric)
    if not asked:
        return "model read-back: no goal argument to ask about", []
    shape = schema(asked)
    prompt = PROMPT.format(instruction=instruction, questions="\n".join(q.line() for q in asked))
    response = backend.complete(LLMRequest("readback", prompt, shape, lambda rng: offline_answers(instruction, asked),
                                           random.Random(0)))
    calls = [LLMCall.of("readback", backend.name, response)]
    if not response.ok or response.problem:
        return f"model read-back: no usable answer ({response.problem or 'endpoint unavailable'}); not judged", calls
    try:
        answer = json_in(response.text)
        jsonschema.validate(answer, shape)
    except (json.JSONDecodeError, TypeError, jsonschema.ValidationError) as exc:
        return f"model read-back: the answer does not fit ({str(exc).splitlines()[0][:120]}); not judged", calls
    unknown = 0
    for q in asked:
        said = answer["answers"][q.key]
        if said == UNKNOWN:
            unknown += 1
        elif said != q.want:
            raise Ungrounded(f"rubric {q.check}: {q.arg} stands for {q.want!r}, but a model reading the instruction "
                             f"alone understood {said!r}")
    read = len(asked) - unknown
    return f"model read-back: {read} of {len(asked)} goal arguments read as the rubric checks them", calls
