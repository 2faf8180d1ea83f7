"""Nodes every family can use, whatever the app.

`instruction(family, phrasings)` is the instruction LLM node: offline it fills one of the family's
phrasings (`str.format` over the `facts` output of the family's goal node); with a model it asks for
a natural instruction stating the same facts (prompt: workflows/prompts/instruction.txt).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from forge.dag import Node, llm_node

#: At least this many offline phrasings per family.
MIN_PHRASINGS = 5

INSTRUCTION_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["instruction"],
    "properties": {"instruction": {"type": "string", "minLength": 20, "maxLength": 1200}},
}


def instruction(family: str, phrasings: Sequence[str]) -> Node:
    """The instruction LLM node; offline it fills one of `phrasings` (str.format over the facts)."""
    if len(phrasings) < MIN_PHRASINGS:
        raise ValueError(f"family {family!r} has {len(phrasings)} phrasings, but needs at least {MIN_PHRASINGS}")

    def offline(rng: random.Random, values: Mapping[str, Any]) -> dict[str, Any]:
        return {"instruction": rng.choice(list(phrasings)).format(**values["facts"])}

    return llm_node("instruction", kind="instruction", inputs=("facts",), output="instruction",
                    prompt="instruction.txt", schema=INSTRUCTION_SCHEMA, offline=offline,
                    pick="instruction")
