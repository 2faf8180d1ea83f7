"""One chat-completions turn of the agent, with the shell tool, over the `openai` client.

The same machinery as `forge generate`'s backend (forge.llm): the LLM config (flags, environment, TOML file),
the answer cache in the catalog (`llm_cache`, keyed by the full request body, so a resumed or repeated run
replays paid-for turns at zero cost), retries with backoff on 429 / 5xx / timeouts / lost connections
(honouring Retry-After), prices, and a concurrency limit on calls in flight. A server that rejects the
`tools` parameter raises `ToolsUnsupported` so the episode can fall back to the plain-text protocol.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass
from typing import Any

import openai
from tenacity import RetryCallState, Retrying, retry_if_exception, stop_after_attempt, wait_exponential_jitter

from forge.llm.cache import AnswerCache, NoCache, cache_key
from forge.llm.config import LLMConfig
from forge.llm.openai_backend import retry_after, transient
from forge.llm.prices import find_price
from kit.llm import CacheEntry, LLMConfigError, estimate_tokens


class ToolsUnsupported(Exception):
    """The server refused a request because of its `tools` parameter."""


@dataclass(frozen=True)
class Turn:
    """The assistant's message (as a chat message dict) and what the call cost.

    `ok` is False when no answer came back after every attempt (infrastructure); `problem` says why an
    answer is missing or unusable. Fields mirror `kit.dag.LLMCall`, so `Budget.add` counts turns."""

    message: dict[str, Any]
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float
    cached: bool
    latency_s: float
    attempts: int
    ok: bool = True
    problem: str = ""
    model: str = ""
    node: str = "student"
    backend: str = "openai"


class ChatClient:
    def __init__(self, config: LLMConfig, cache: AnswerCache | None = None, client: Any = None) -> None:
        if config.backend != "openai":
            raise LLMConfigError("a student run needs a model: pass --llm openai --model NAME --base-url URL "
                                 "(any OpenAI-compatible server, e.g. llama.cpp's llama-server)")
        self.config = config
        self.cache: AnswerCache = cache or NoCache()
        self.client = client or openai.OpenAI(base_url=config.base_url, api_key=config.api_key(),
                                              timeout=config.timeout, max_retries=0)
        self.price = find_price(config.model, config.prices)
        self._slots = threading.BoundedSemaphore(config.concurrency)
        self._backoff = wait_exponential_jitter(multiplier=config.backoff, max=config.max_wait, jitter=config.backoff)

    def body(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None, seed: int) -> dict[str, Any]:
        """The request body; also what the cache key hashes."""
        body: dict[str, Any] = {"model": self.config.model, "messages": messages,
                                "temperature": self.config.temperature,
                                "max_tokens": self.config.max_tokens_per_call, "seed": seed}
        if tools:
            body["tools"] = tools
        return body

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float:
        return self.price.cost(prompt_tokens, completion_tokens) if self.price else 0.0

    def turn(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None, seed: int) -> Turn:
        """One assistant turn. Raises `LLMConfigError` (bad key / model / URL: stop the run) or
        `ToolsUnsupported`; every other failure comes back as a Turn with `ok` False or `problem` set."""
        body = self.body(messages, tools, seed)
        key = cache_key(body)
        hit = self.cache.cached_answer(key)
        if hit is not None:
            message = _loads(hit.text)
            return Turn(message, hit.prompt_tokens, hit.completion_tokens,
                        self.cost(hit.prompt_tokens, hit.completion_tokens), True, 0.0, 0, problem=hit.problem,
                        model=self.config.model)
        attempts, start = 0, time.perf_counter()
        refused = (lambda exc: _refuses_tools(exc)) if tools else (lambda exc: False)
        retrying = Retrying(stop=stop_after_attempt(self.config.max_attempts), wait=self._wait,
                            retry=retry_if_exception(lambda exc: transient(exc) and not refused(exc)), reraise=True)
        try:
            for attempt in retrying:
                with attempt:
                    attempts = attempt.retry_state.attempt_number
                    with self._slots:
                        completion = self.client.chat.completions.create(**body)
        except (openai.AuthenticationError, openai.PermissionDeniedError, openai.NotFoundError) as exc:
            raise LLMConfigError(f"{self.config.base_url or 'api.openai.com'} refused model "
                                 f"{self.config.model!r}: {_say(exc)}; check --base-url, --model and the key in "
                                 f"${self.config.api_key_env}") from None
        except openai.APIStatusError as exc:
            if refused(exc):
                raise ToolsUnsupported(_say(exc)) from None
            if isinstance(exc, openai.BadRequestError):  # e.g. the context is full: the episode ends, it is scored
                return self._failed(f"the server rejected the request: {_say(exc)}", attempts, start, ok=True)
            return self._failed(f"no answer after {attempts} attempt(s): {_say(exc)}", attempts, start, ok=False)
        except openai.APIError as exc:
            return self._failed(f"no answer after {attempts} attempt(s): {_say(exc)}", attempts, start, ok=False)
        except (ValueError, TypeError, AttributeError) as exc:  # a body the client cannot read
            return self._failed(f"unreadable answer: {type(exc).__name__}: {exc}"[:300], attempts, start, ok=False)
        latency = time.perf_counter() - start
        try:
            message, problem = _message(completion)
        except (TypeError, AttributeError, IndexError, KeyError, ValueError) as exc:
            return self._failed(f"unreadable answer: {exc}"[:300], attempts, start, ok=False)
        usage = getattr(completion, "usage", None)
        sent = json.dumps(messages)
        prompt_tokens = int(getattr(usage, "prompt_tokens", 0) or 0) or estimate_tokens(sent)
        completion_tokens = int(getattr(usage, "completion_tokens", 0) or 0) or estimate_tokens(json.dumps(message))
        self.cache.store_answer(CacheEntry(key, self.config.model, json.dumps(message, sort_keys=True), problem,
                                           prompt_tokens, completion_tokens))
        return Turn(message, prompt_tokens, completion_tokens, self.cost(prompt_tokens, completion_tokens), False,
                    latency, attempts, problem=problem, model=self.config.model)

    def _wait(self, state: RetryCallState) -> float:
        asked = retry_after(state.outcome.exception() if state.outcome else None)
        return min(asked, self.config.max_wait) if asked is not None else float(self._backoff(state))

    def _failed(self, problem: str, attempts: int, start: float, *, ok: bool) -> Turn:
        return Turn({"role": "assistant", "content": ""}, 0, 0, 0.0, False, time.perf_counter() - start, attempts,
                    ok=ok, problem=problem, model=self.config.model)


def _message(completion: Any) -> tuple[dict[str, Any], str]:
    """The first choice as a plain chat message dict (content + tool calls), and a problem if unusable."""
    choices = getattr(completion, "choices", None)
    if not isinstance(choices, list) or not choices:
        raise ValueError("the server returned no choices")
    choice = choices[0]
    raw = getattr(choice, "message", None)
    content = getattr(raw, "content", None)
    message: dict[str, Any] = {"role": "assistant", "content": content if isinstance(content, str) else ""}
    calls: list[dict[str, Any]] = []
    raw_calls = getattr(raw, "tool_calls", None)
    for call in raw_calls if isinstance(raw_calls, list) else []:
        function = getattr(call, "function", None)
        arguments = getattr(function, "arguments", "") or ""
        if isinstance(arguments, dict):  # some servers send an object, not the JSON string the API specifies
            arguments = json.dumps(arguments)
        calls.append({"id": str(getattr(call, "id", "") or f"call_{len(calls) + 1}"), "type": "function",
                      "function": {"name": str(getattr(function, "name", "") or ""), "arguments": str(arguments)}})
    if calls:
        message["tool_calls"] = calls
    problem = ""
    if getattr(choice, "finish_reason", None) == "length":
        problem = "the answer was cut off at the token limit (finish_reason=length)"
    return message, problem


def _refuses_tools(exc: BaseException) -> bool:
    """An HTTP error about the `tools` parameter: 400/422 from most servers, 500 from llama.cpp's llama-server
    ("tools param requires --jinja flag", "Unsupported param: tools"). Another attempt would get the same."""
    return (isinstance(exc, openai.APIStatusError) and exc.status_code in (400, 422, 500, 501)
            and "tool" in str(getattr(exc, "message", exc)).lower())


def _loads(text: str) -> dict[str, Any]:
    try:
        message = json.loads(text)
    except json.JSONDecodeError:
        return {"role": "assistant", "content": text}
    return message if isinstance(message, dict) else {"role": "assistant", "content": text}


def _say(exc: openai.APIError) -> str:
    status = getattr(exc, "status_code", None)
    first = (str(getattr(exc, "message", exc)).splitlines() or [""])[0][:300]
    return f"HTTP {status}: {first}" if status else f"{type(exc).__name__}: {first}"
