"""The interface every LLM backend implements, and the offline backend (the default).

An `llm` node renders its prompt template, asks a `Backend` for JSON that fits the node's schema, and
parses the answer (kit.dag.llm_node). The offline backend calls the node's deterministic generator, so
it returns the same shape a real model would, through the same parse path; the OpenAI-compatible backend
(forge.llm.openai_backend) plugs in without touching any workflow.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from kit.errors import ForgeError


class LLMConfigError(ForgeError, ValueError):
    """The LLM endpoint cannot be used as configured (bad config file, key, model or URL): stops the run."""


class LLMUnavailableError(ForgeError, RuntimeError):
    """Every attempt of a call failed (rate limits, 5xx, timeouts, connection): infrastructure, so the task
    is `infra_fail` and a rerun tries it again."""


class LLMCancelled(ForgeError, RuntimeError):
    """The run was interrupted (Ctrl-C): calls in flight are abandoned and no new request is sent. Nothing about
    the task is recorded; a rerun does it again (answers already paid for come from the cache)."""


@dataclass(frozen=True)
class Repair:
    """A repair turn: the rejected answer and why it was rejected (quoted back to the model)."""

    answer: str
    problem: str


@dataclass(frozen=True)
class LLMRequest:
    node: str
    prompt: str
    schema: dict[str, Any]
    offline: Callable[[random.Random], dict[str, Any]]  # the node's deterministic generator
    rng: random.Random
    repair: Repair | None = None


@dataclass(frozen=True)
class CacheEntry:
    """A fresh answer to store in the `llm_cache` table when its task is recorded (same transaction)."""

    key: str
    model: str
    text: str
    problem: str
    prompt_tokens: int
    completion_tokens: int


@dataclass(frozen=True)
class LLMResponse:
    """One call's answer and usage.

    `problem` is set when the endpoint answered but not usably (refusal, truncated, empty) or not at all
    (`ok` False: every attempt failed); the node then repairs or classifies the task `llm_fail`. Tokens and
    cost are the answer's own, also when it came from the cache (`cached`), so they are the same on a re-run,
    plus what attempts of this call that timed out or broke off generated (a call that got no answer at all
    still carries those); what was spent in this run is the sum over calls that are not cached."""

    text: str
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float = 0.0
    cached: bool = False
    model: str = ""
    latency_s: float = 0.0
    attempts: int = 1
    ok: bool = True
    problem: str = ""
    cache_entry: CacheEntry | None = None
    #: Of the tokens above, how many are estimates (`estimate_tokens`): a request that timed out or broke off
    #: before the server reported its usage is still counted, by what was sent and what arrived.
    estimated_tokens: int = 0


class Backend(Protocol):
    name: str
    #: Repair requests a node may make after a bad answer (0 when asking again gives the same answer).
    repairs: int

    def complete(self, request: LLMRequest) -> LLMResponse: ...


def estimate_tokens(text: str) -> int:
    """~4 characters per token: good enough for offline accounting and budget estimates."""
    return (len(text) + 3) // 4


def ledger_tokens(backend: str, prompt_tokens: int, completion_tokens: int, estimated: int = 0
                  ) -> tuple[int, int, int]:
    """(prompt, completion, estimated) tokens as the catalog records a call. An offline call spends nothing: its
    tokens are an estimate of what a model would have used (`estimate_tokens`), kept apart in
    `llm_calls.estimated_tokens`, so `sum(prompt_tokens + completion_tokens)` is always spend. A model's call
    whose server never reported usage (a request that timed out) is spent all the same: its tokens are counted
    by estimate, and `estimated` (also in `llm_calls.estimated_tokens`) says how many of them are estimates."""
    if backend == OfflineBackend.name:
        return 0, 0, prompt_tokens + completion_tokens
    return prompt_tokens, completion_tokens, estimated


class OfflineBackend:
    """Deterministic, free, no network: answers with the node's own generator."""

    name = "offline"
    repairs = 0  # the generator is deterministic: a repair would get the same answer

    def complete(self, request: LLMRequest) -> LLMResponse:
        text = json.dumps(request.offline(request.rng), sort_keys=True, ensure_ascii=False)
        return LLMResponse(text, estimate_tokens(request.prompt), estimate_tokens(text))
