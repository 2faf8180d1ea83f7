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
from forge.llm.endpoint import SPEED_TOKENS, fit, measure
from forge.llm.openai_backend import retry_after, transient
from forge.llm.prices import find_price
from forge.llm.stream import Meter, Received, ReplyBroken, ReplyTimeout, fetch, reply_cap
from kit.llm import CacheEntry, LLMConfigError, estimate_tokens


class ToolsUnsupported(Exception):
    """The server refused a request because of its `tools` parameter."""


#: The tool-calling probe's request: any model that gets the tool list calls the tool for it.
TOOLS_PROBE = "Use the shell tool to run this command: echo ready"


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
    #: Of the tokens above, those counted by estimate (a request that timed out before the server said).
    estimated_tokens: int = 0
    #: The fresh answer, cached by `ChatClient.keep` once its commands ran (None: cached already, or not to be).
    cache_entry: CacheEntry | None = None


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
        #: Turns in flight and what they received (forge.llm.stream.Ticker prints it while a slow server writes).
        self.meter = Meter()

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
        spent = [0, 0, 0]  # what attempts that broke off generated (prompt, completion, estimated)
        refused = (lambda exc: _refuses_tools(exc)) if tools else (lambda exc: False)
        retrying = Retrying(stop=stop_after_attempt(self.config.max_attempts), wait=self._wait,
                            retry=retry_if_exception(lambda exc: transient(exc) and not refused(exc)), reraise=True)
        try:
            for attempt in retrying:
                with attempt:
                    attempts = attempt.retry_state.attempt_number
                    received = self._fetch(body, spent)
        except (openai.AuthenticationError, openai.PermissionDeniedError, openai.NotFoundError) as exc:
            raise LLMConfigError(f"{self.config.base_url or 'api.openai.com'} refused model "
                                 f"{self.config.model!r}: {_say(exc)}; check --base-url, --model and the key in "
                                 f"${self.config.api_key_env}") from None
        except openai.APIStatusError as exc:
            if refused(exc):
                raise ToolsUnsupported(_say(exc)) from None
            if isinstance(exc, openai.BadRequestError):  # e.g. the context is full: the episode ends, it is scored
                return self._failed(f"the server rejected the request: {_say(exc)}", attempts, start, spent, ok=True)
            return self._failed(f"no answer after {attempts} attempt(s): {_say(exc)}", attempts, start, spent,
                                ok=False)
        except openai.APIError as exc:
            return self._failed(f"no answer after {attempts} attempt(s): {_say(exc)}", attempts, start, spent,
                                ok=False)
        except (ValueError, TypeError, AttributeError) as exc:  # a body that is not a chat completion
            return self._failed(f"unreadable answer: {type(exc).__name__}: {exc}"[:300], attempts, start, spent,
                                ok=False)
        latency = time.perf_counter() - start
        message, problem = _message(received, self.config.max_tokens_per_call)
        prompt_tokens, completion_tokens, estimated = received.spent(messages)
        entry = None if received.cut else CacheEntry(key, self.config.model, json.dumps(message, sort_keys=True),
                                                      problem, prompt_tokens, completion_tokens)
        prompt_tokens, completion_tokens = prompt_tokens + spent[0], completion_tokens + spent[1]
        return Turn(message, prompt_tokens, completion_tokens, self.cost(prompt_tokens, completion_tokens), False,
                    latency, attempts, problem=problem, model=self.config.model,
                    estimated_tokens=estimated + spent[2], cache_entry=entry)

    def probe_tools(self, tool: dict[str, Any]) -> tuple[bool | None, str]:
        """Does the server return tool calls? (True / False / None: no answer, undecided) and the evidence.

        One small request that asks for a tool call with the tool list attached: a server that refuses `tools`
        answers with an error, and one that accepts the list but drops it (a chat template without tools, a proxy
        that strips them) answers with text only; then the model never sees the tool and must use the text
        protocol. Not cached: the server, not the model, is being asked."""
        body = self.body([{"role": "system", "content": "You are an agent with one tool, `shell`."},
                          {"role": "user", "content": TOOLS_PROBE}], [tool], 0)
        body.update(temperature=0.0, max_tokens=64)
        try:
            with self._slots:
                received = fetch(self.client, body, timeout=self.config.timeout, max_chars=reply_cap(64))
        except openai.APIStatusError as exc:
            if _refuses_tools(exc):
                return False, f"the server refuses tools: {_say(exc)}"
            return None, f"no answer to the tool probe: {_say(exc)}"
        except (openai.APIError, ValueError) as exc:
            return None, f"no answer to the tool probe: {type(exc).__name__}: {exc}"[:300]
        if received.tool_calls:
            return True, "the server returned a tool call"
        return False, ("the server took the tool list but answered without a tool call "
                       f"({received.content[:120]!r}): it ignores tools")

    def fit_speed(self) -> str:
        """Measure the server's speed with one short generation and fit `max_tokens_per_call` / `timeout` to it
        (forge.llm.endpoint.fit: what the user set is kept); the line says what was measured and chosen."""

        def send(body: dict[str, Any]) -> tuple[int, float, float]:
            with self._slots:
                start = time.monotonic()
                received = fetch(self.client, body, timeout=self.config.timeout, max_chars=reply_cap(SPEED_TOKENS))
            first = (received.first_at or time.monotonic()) - start
            tokens = received.usage[1] if received.usage and received.usage[1] else estimate_tokens(received.content)
            return tokens, first, time.monotonic() - start

        speed = measure(send, self.config.model, "text")
        if speed is None:
            return "could not measure the server's speed; per-call limits as configured"
        self.config, note = fit(self.config, speed)
        return note

    def keep(self, turn: Turn) -> None:
        """Cache a fresh turn's answer, once what it asked for was carried out: an answer whose command failed for
        the machine (the sandbox could not start it) is not cached, or a rerun would replay the same failure."""
        if turn.cache_entry is not None:
            self.cache.store_answer(turn.cache_entry)

    def _fetch(self, body: dict[str, Any], spent: list[int]) -> Received:
        """One attempt, streamed within the total deadline and the size cap (forge.llm.stream); what a timed-out
        or broken attempt received is added to `spent`."""
        with self._slots:
            try:
                return fetch(self.client, body, timeout=self.config.timeout,
                             max_chars=reply_cap(self.config.max_tokens_per_call), meter=self.meter)
            except (ReplyTimeout, ReplyBroken) as exc:
                for i, tokens in enumerate(exc.received.spent(body["messages"])):
                    spent[i] += tokens
                raise

    def _wait(self, state: RetryCallState) -> float:
        asked = retry_after(state.outcome.exception() if state.outcome else None)
        return min(asked, self.config.max_wait) if asked is not None else float(self._backoff(state))

    def _failed(self, problem: str, attempts: int, start: float, spent: list[int], *, ok: bool) -> Turn:
        """No usable answer; what the failed attempts generated is still counted (budgets see it)."""
        return Turn({"role": "assistant", "content": ""}, spent[0], spent[1], self.cost(spent[0], spent[1]), False,
                    time.perf_counter() - start, attempts, ok=ok, problem=problem, model=self.config.model,
                    estimated_tokens=spent[2])


def _message(received: Received, max_tokens: int) -> tuple[dict[str, Any], str]:
    """The answer as a plain chat message dict (content + tool calls), and a problem if unusable."""
    message: dict[str, Any] = {"role": "assistant", "content": received.content}
    calls = received.calls()
    if received.cut:  # only the start was kept: no command of it may run
        return message, (f"the reply was longer than {reply_cap(max_tokens):,} characters (the cap for a "
                         f"{max_tokens}-token answer) and was cut off")
    if calls:
        message["tool_calls"] = calls
    problem = ""
    if received.finish_reason == "length":
        problem = "the answer was cut off at the token limit (finish_reason=length)"
    return message, problem


def _refuses_tools(exc: BaseException) -> bool:
    """An HTTP error about the `tools` parameter: 400/422 from most servers, 500 from llama.cpp's llama-server
    ("tools param requires --jinja flag", "Unsupported param: tools"). Another attempt would get the same."""
    return (isinstance(exc, openai.APIStatusError) and exc.status_code in (400, 422, 500, 501)
            and "tool" in str(getattr(exc, "message", exc)).lower())


def _loads(text: str) -> dict[str, Any]:
    try:
        message = json.loads(text, strict=False)
    except json.JSONDecodeError:
        return {"role": "assistant", "content": text}
    return message if isinstance(message, dict) else {"role": "assistant", "content": text}


def _say(exc: openai.APIError) -> str:
    status = getattr(exc, "status_code", None)
    first = (str(getattr(exc, "message", exc)).splitlines() or [""])[0][:300]
    return f"HTTP {status}: {first}" if status else f"{type(exc).__name__}: {first}"
