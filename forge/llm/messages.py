"""What is sent to a chat-completions endpoint for one request: messages and `response_format`.

Four structured-output modes, strongest first:
- `json_schema`: OpenAI's form (`{"type": "json_schema", "json_schema": {...}}`); the server constrains the
  answer to the node's schema (OpenAI, vLLM, SGLang, llama.cpp's C++ server);
- `json_object_schema`: `{"type": "json_object", "schema": {...}}`, the form llama.cpp's Python server
  (`python -m llama_cpp.server`) constrains decoding with; the schema also goes into the system message;
- `json_object`: JSON mode, only "some JSON" is enforced; the schema goes into the system message;
- `text`: plain completion; the schema goes into the system message.
In `json_object_schema` mode the copy of the schema sent is `grammar_schema(schema)`: the keywords grammar
builders cannot compile (string lengths, patterns, formats ...) are removed — llama.cpp's Python builder fails
on `maxLength` and takes the server down with it. The answer is still validated against the full schema
(kit.dag.llm_node), and the full schema is what the system message shows, so nothing the node needs is lost.
Every backend that talks to a model, and the dry-run estimate, builds its messages here, so the cache key
and the token estimate see exactly what is sent.
"""

from __future__ import annotations

import json
from typing import Any

from kit.llm import LLMRequest

MODES = ("json_schema", "json_object_schema", "json_object", "text")
#: Modes in which the server enforces a schema (so the schema need not be in the prompt for `json_schema`).
SCHEMA_MODES = ("json_schema", "json_object_schema")
#: Keywords removed from the copy of a schema a server compiles into a grammar (validation keeps them).
GRAMMAR_UNSAFE = frozenset({"minLength", "maxLength", "pattern", "format", "patternProperties", "uniqueItems",
                            "minProperties", "maxProperties", "multipleOf", "contentEncoding", "contentMediaType",
                            "dependentRequired", "dependentSchemas", "if", "then", "else", "not", "$schema", "$id",
                            "$comment"})
#: Keywords whose value is a map of names to schemas (a property may be called "pattern").
_NAMED = frozenset({"properties", "$defs", "definitions"})

SYSTEM = "You produce data for software-training tasks. Answer with one JSON object and nothing else."
SCHEMA_HINT = "\nThe object must validate against this JSON Schema:\n{schema}"
REPAIR = ("That answer was rejected: {problem}\n"
          "Answer again with the complete, corrected JSON object only.")
#: A rejected answer is quoted back at most this long: the problem names where the answer went wrong, and the
#: model writes the whole answer again anyway, so quoting all of it would double a repair's prompt for nothing
#: (the turn stays, cut short, because some chat templates require user and assistant turns to alternate).
MAX_QUOTED_ANSWER = 200


def compact(data: Any) -> str:
    """Canonical compact JSON: also what the cache key hashes."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def grammar_schema(schema: Any) -> Any:
    """A copy of `schema` without the keywords in GRAMMAR_UNSAFE, at any depth: what a server is asked to enforce."""
    if isinstance(schema, list):
        return [grammar_schema(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    return {key: ({name: grammar_schema(sub) for name, sub in value.items()} if key in _NAMED and isinstance(
        value, dict) else grammar_schema(value)) for key, value in schema.items() if key not in GRAMMAR_UNSAFE}


def build_messages(request: LLMRequest, mode: str) -> list[dict[str, str]]:
    """System + user prompt, plus the rejected answer and the problem for a repair request."""
    system = SYSTEM if mode == "json_schema" else SYSTEM + SCHEMA_HINT.format(schema=compact(request.schema))
    messages = [{"role": "system", "content": system}, {"role": "user", "content": request.prompt}]
    if request.repair is not None:
        answer = request.repair.answer
        quoted = answer if len(answer) <= MAX_QUOTED_ANSWER else answer[:MAX_QUOTED_ANSWER] + " ...(cut)"
        messages += [{"role": "assistant", "content": quoted},
                     {"role": "user", "content": REPAIR.format(problem=request.repair.problem)}]
    return messages


def response_format(request: LLMRequest, mode: str) -> dict[str, Any] | None:
    if mode == "json_schema":
        # The full schema: servers of this form take (or ignore) every keyword, and the endpoint probe proves it
        # with one that has maxLength and pattern; one that fails on them is downgraded to json_object_schema.
        # strict=False: strict mode demands every property be required; the answer is validated anyway.
        return {"type": "json_schema", "json_schema": {"name": request.node, "schema": request.schema,
                                                       "strict": False}}
    if mode == "json_object_schema":
        return {"type": "json_object", "schema": grammar_schema(request.schema)}
    if mode == "json_object":
        return {"type": "json_object"}
    return None
