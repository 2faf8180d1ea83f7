"""LLM backends behind one small interface.

An `llm` node renders its prompt template, asks a `Backend` for JSON that fits the node's schema, and
parses the answer. The offline backend (the default) calls the node's deterministic generator, so it
returns the same shape a real model would, through the same parse path; an OpenAI-compatible backend
plugs in by implementing `complete` without touching any workflow.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True)
class LLMRequest:
    node: str
    prompt: str
    schema: dict[str, Any]
    offline: Callable[[random.Random], dict[str, Any]]  # the node's deterministic generator
    rng: random.Random


@dataclass(frozen=True)
class LLMResponse:
    text: str
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float = 0.0
    cached: bool = False


class Backend(Protocol):
    name: str

    def complete(self, request: LLMRequest) -> LLMResponse: ...


def estimate_tokens(text: str) -> int:
    """~4 characters per token: good enough for offline accounting and budget estimates."""
    return (len(text) + 3) // 4


class OfflineBackend:
    """Deterministic, free, no network: answers with the node's own generator."""

    name = "offline"

    def complete(self, request: LLMRequest) -> LLMResponse:
        text = json.dumps(request.offline(request.rng), sort_keys=True, ensure_ascii=False)
        return LLMResponse(text, estimate_tokens(request.prompt), estimate_tokens(text))
