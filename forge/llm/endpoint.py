"""Which structured-output form a server enforces, found by asking it once (`--structured auto`).

The probe sends one tiny request per form, strongest first (forge.llm.messages.MODES), with a schema the answer
can only fit if the server enforces it (a single allowed value the prompt never mentions) and, for
`json_schema`, the keywords weaker grammar builders fail on (`maxLength`, `pattern`):
- the server rejects the form (any status, with an error about the response format): the next form;
- it accepts the form and the answer fits: that form is used;
- it accepts a schema form but the answer does not fit: the form is not enforced (the server ignores it); the
  next form is tried. `json_object` is kept once accepted (the schema is in the prompt then), else `text`.
A failure that says nothing about the format (connection refused, 429, a 5xx about something else) stops the
probe undecided: the run starts with `json_schema`, and the backend still steps down at the first rejection.
The verdict and the whole text of every error go to the catalog table `llm_endpoints` (one row per base URL
and model), so later runs reuse it and a user can read why: `forge sql "SELECT * FROM llm_endpoints"`.

The speed probe (`measure`, once per run, not stored: a server's speed changes with its load) times one short
generation and `fit` chooses per-call limits that fit it: against a small local model a 4,096-token answer took
~165 s, over the 120 s default timeout, so every call timed out, was retried and timed out again.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import jsonschema
import openai

from forge.llm.config import LLMConfig
from forge.llm.messages import MODES, SYSTEM, grammar_schema

#: OpenAI's endpoint, the key of `llm_endpoints` rows when no --base-url is given.
DEFAULT_BASE_URL = "https://api.openai.com/v1"

PROBE_PROMPT = "Reply with a JSON object."
#: The speed probe: a request that makes any model write until its (small) limit.
SPEED_PROMPT = "Count upwards from 1, one number per line, and do not stop."
SPEED_TOKENS = 48
#: A call's limit must fit its timeout with this margin (speeds vary with load and answer length).
MARGIN = 1.25
#: The longest timeout the speed probe picks by itself (seconds).
MAX_AUTO_TIMEOUT = 1800.0
#: Below this, a per-call limit cannot hold a useful answer: the line names the flags instead.
MIN_FIT_TOKENS = 256
PROBE_SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "required": ["forge_probe"],
    "properties": {"forge_probe": {"type": "string", "enum": ["ready"], "maxLength": 16, "pattern": "^ready$"}},
}

#: An error text that blames the response format (words llama.cpp, vLLM, Ollama and LiteLLM use).
_FORMAT_WORDS = re.compile(r"response_format|json_schema|json_object|schema|grammar|structured output|guided|"
                           r"Input should be 'text'", re.IGNORECASE)


def error_text(exc: BaseException) -> str:
    """The whole error a server sent (status, message and body), on one line: evidence, never cut short."""
    status = getattr(exc, "status_code", None)
    body = getattr(exc, "body", None)
    message = re.sub(r"^Error code: \d+ - ", "", str(getattr(exc, "message", "") or exc))
    if isinstance(body, dict):  # the SDK's message already holds body["message"]; keep the rest (type, param ...)
        extra = {k: v for k, v in body.items() if str(v) not in message}
        if extra:
            message += " " + json.dumps(extra, ensure_ascii=False, default=str)
    elif body is not None and str(body) not in message:
        message += f" {body}"
    text = " ".join(message.split())
    return f"HTTP {status}: {text}" if status else f"{type(exc).__name__}: {text}"


def format_rejected(exc: BaseException) -> bool:
    """True when the server refused the request because of its response format (400, 422, 500, 501 ...):
    asking again the same way cannot help, a weaker form may. llama.cpp's Python server answers 500
    ("Input should be 'text' or 'json_object'") where others answer 400."""
    if not isinstance(exc, openai.APIStatusError) or exc.status_code in (401, 403, 404, 408, 409, 429):
        return False
    return bool(_FORMAT_WORDS.search(error_text(exc)))


@dataclass(frozen=True)
class Verdict:
    structured: str
    evidence: str


class EndpointStore(Protocol):
    def load(self, base_url: str, model: str) -> Verdict | None: ...

    def save(self, base_url: str, model: str, verdict: Verdict) -> None: ...


def probe_format(mode: str) -> dict[str, Any] | None:
    if mode == "json_schema":
        return {"type": "json_schema", "json_schema": {"name": "forge_probe", "schema": PROBE_SCHEMA, "strict": False}}
    if mode == "json_object_schema":
        return {"type": "json_object", "schema": grammar_schema(PROBE_SCHEMA)}
    if mode == "json_object":
        return {"type": "json_object"}
    return None


def probe(send: Callable[[dict[str, Any]], str], model: str) -> Verdict | None:
    """Ask the server once per form (strongest first); None when it failed for a reason other than the format.

    `send(body)` posts a chat completion and returns its text (or raises the SDK's errors)."""
    lines: list[str] = []
    schema_hint = f"\nThe object must validate against this JSON Schema:\n{json.dumps(PROBE_SCHEMA)}"
    for mode in MODES:
        system = SYSTEM if mode == "json_schema" else SYSTEM + schema_hint
        body: dict[str, Any] = {"model": model, "temperature": 0, "max_tokens": 64,
                                "messages": [{"role": "system", "content": system},
                                             {"role": "user", "content": PROBE_PROMPT}]}
        fmt = probe_format(mode)
        if fmt is not None:
            body["response_format"] = fmt
        try:
            text = send(body)
        except openai.APIError as exc:
            if not format_rejected(exc):
                lines.append(f"{mode}: undecided, {error_text(exc)}")
                return None
            lines.append(f"{mode}: rejected, {error_text(exc)}")
            continue
        try:
            answer = json.loads(text, strict=False)
        except json.JSONDecodeError:
            answer = None
        if mode in ("json_schema", "json_object_schema"):
            if jsonschema.Draft202012Validator(PROBE_SCHEMA).is_valid(answer):
                lines.append(f"{mode}: enforced, answer {text[:200]!r}")
                return Verdict(mode, "; ".join(lines))
            lines.append(f"{mode}: accepted but not enforced, answer {text[:200]!r}")
            continue
        # json_object (the schema is in the prompt; harmless even if the server ignores the format) or text
        lines.append(f"{mode}: {'accepted' if fmt else 'plain text'}, answer {text[:200]!r}")
        return Verdict(mode, "; ".join(lines))
    return Verdict("text", "; ".join(lines))


@dataclass(frozen=True)
class Speed:
    """How fast the server generates: tokens per second once it writes, and seconds to its first token."""

    tokens_per_second: float
    first_token_s: float

    def seconds(self, tokens: int) -> float:
        return self.first_token_s + tokens / self.tokens_per_second


def fit(config: LLMConfig, speed: Speed) -> tuple[LLMConfig, str]:
    """Per-call limits that fit the server's speed, and a line that says what was measured and chosen.

    A call may generate `max_tokens_per_call` tokens; at `speed` (with a 25 % margin) that must fit in `timeout`,
    else every long answer times out, is retried, times out again, and the server keeps generating for the
    abandoned requests. What the user set (flag, config file, environment) is never changed: a timeout that was not
    set is raised (up to MAX_AUTO_TIMEOUT), else a per-call limit that was not set is lowered (to a power of two, so
    the cache keys of a rerun at a slightly different speed stay the same), else the line names the flags to set."""
    need = speed.seconds(config.max_tokens_per_call) * MARGIN
    said = (f"server speed ~{speed.tokens_per_second:.1f} tokens/s (first token after {speed.first_token_s:.1f} s): "
            f"a {config.max_tokens_per_call}-token answer takes up to ~{need:.0f} s")
    if need <= config.timeout:
        return config, f"{said}, within the {config.timeout:g} s --llm-timeout"
    given = config.model_fields_set
    if "timeout" not in given and need <= MAX_AUTO_TIMEOUT:
        timeout = float(math.ceil(need / 10) * 10)
        return (config.model_copy(update={"timeout": timeout}),
                f"{said}: --llm-timeout raised from {config.timeout:g} to {timeout:g} s (set --llm-timeout to choose)")
    timeout = config.timeout if "timeout" in given else max(config.timeout, MAX_AUTO_TIMEOUT)
    fits = int((timeout / MARGIN - speed.first_token_s) * speed.tokens_per_second)
    tokens = 2 ** int(math.log2(fits)) if fits >= MIN_FIT_TOKENS else 0
    if "max_tokens_per_call" not in given and tokens:
        update: dict[str, Any] = {"max_tokens_per_call": tokens, "timeout": timeout}
        return (config.model_copy(update=update),
                f"{said}: --max-tokens-per-call lowered from {config.max_tokens_per_call} to {tokens} to fit the "
                f"{timeout:g} s --llm-timeout (set --max-tokens-per-call to choose)")
    advice = f"set --llm-timeout {math.ceil(need / 10) * 10:g}" + (
        f" or --max-tokens-per-call {tokens}" if tokens else "")
    return config, f"{said}, over the {config.timeout:g} s --llm-timeout: answers will time out; {advice}"


def measure(send: Callable[[dict[str, Any]], tuple[int, float, float]], model: str, mode: str) -> Speed | None:
    """One short generation (`SPEED_TOKENS` tokens) in the structured-output form the run uses; None when the
    server failed or wrote too little to tell. `send(body)` returns (tokens, seconds to the first token, seconds
    in all)."""
    body: dict[str, Any] = {"model": model, "temperature": 0, "max_tokens": SPEED_TOKENS,
                            "messages": [{"role": "system", "content": "Follow the instruction."},
                                         {"role": "user", "content": SPEED_PROMPT}]}
    if mode in ("json_object", "json_object_schema"):  # the speed under the grammar the run's answers use
        body["response_format"] = {"type": "json_object"}
    try:
        tokens, first, total = send(body)
    except (openai.APIError, ValueError):
        return None
    if tokens < 4 or total <= 0:
        return None
    if total - first < 0.1 * total:  # it came in one piece (a server that does not stream): time it whole
        return Speed(tokens / total, 0.0)
    return Speed(tokens / (total - first), first)


class CatalogEndpoints:
    """`llm_endpoints` rows of a catalog (forge.catalog.Catalog)."""

    def __init__(self, catalog: Any) -> None:
        self.catalog = catalog

    def load(self, base_url: str, model: str) -> Verdict | None:
        row = self.catalog.endpoint(base_url, model)
        return None if row is None else Verdict(row.structured, row.evidence)

    def save(self, base_url: str, model: str, verdict: Verdict) -> None:
        """Keep the verdict; a catalog busy with another writer only costs a probe in the next run."""
        self.catalog.save_endpoint(base_url, model, verdict.structured, verdict.evidence)
