"""What is sent to a chat-completions endpoint for one request: messages and `response_format`.

Three structured-output modes, strongest first: `json_schema` (the server constrains the answer to the
node's schema), `json_object` (JSON mode; the schema goes into the system message) and `text` (plain
completion; the schema goes into the system message). Every backend that talks to a model, and the dry-run
estimate, builds its messages here, so the cache key and the token estimate see exactly what is sent.
"""

from __future__ import annotations

import json
from typing import Any

from forge.llm.base import LLMRequest

MODES = ("json_schema", "json_object", "text")

SYSTEM = "You produce data for software-training tasks. Answer with one JSON object and nothing else."
SCHEMA_HINT = "\nThe object must validate against this JSON Schema:\n{schema}"
REPAIR = ("That answer was rejected: {problem}\n"
          "Answer again with the complete, corrected JSON object only.")
#: A rejected answer is quoted back at most this long (a truncated answer's tail adds nothing).
MAX_QUOTED_ANSWER = 6000


def compact(data: Any) -> str:
    """Canonical compact JSON: also what the cache key hashes."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def build_messages(request: LLMRequest, mode: str) -> list[dict[str, str]]:
    """System + user prompt, plus the rejected answer and the problem for a repair request."""
    system = SYSTEM if mode == "json_schema" else SYSTEM + SCHEMA_HINT.format(schema=compact(request.schema))
    messages = [{"role": "system", "content": system}, {"role": "user", "content": request.prompt}]
    if request.repair is not None:
        messages += [{"role": "assistant", "content": request.repair.answer[:MAX_QUOTED_ANSWER]},
                     {"role": "user", "content": REPAIR.format(problem=request.repair.problem)}]
    return messages


def response_format(request: LLMRequest, mode: str) -> dict[str, Any] | None:
    if mode == "json_schema":
        # strict=False: node schemas use keywords (minLength, patterns ...) that strict mode rejects;
        # the answer is validated with jsonschema anyway.
        return {"type": "json_schema", "json_schema": {"name": request.node, "schema": request.schema,
                                                       "strict": False}}
    if mode == "json_object":
        return {"type": "json_object"}
    return None
