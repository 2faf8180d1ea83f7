"""A backend on the `openai` SDK for any OpenAI-compatible chat-completions server.

One `complete` is one logical call: the cache first (zero tokens on a hit), then up to `max_attempts`
HTTP attempts. 429 (waiting what `Retry-After` says), 408/409, 5xx, timeouts and connection errors are
retried with exponential backoff and jitter (tenacity); the SDK's own retries are off so the ledger knows
the attempt count. Nothing a server does crashes the run: an answer that is not usable (refusal, cut off
at max tokens, empty) comes back with `problem` set, and a call whose every attempt failed comes back
with `ok=False`; the node then repairs or classifies the task `llm_fail`. Only a configuration the
server rejects for every call (bad key, unknown model, wrong URL) raises `LLMConfigError`.
"""

from __future__ import annotations

import email.utils
import random
import threading
import time
from typing import Any

import openai
from tenacity import RetryCallState, Retrying, retry_if_exception, stop_after_attempt, wait_exponential_jitter

from forge.llm.base import CacheEntry, LLMConfigError, LLMRequest, LLMResponse, estimate_tokens
from forge.llm.cache import AnswerCache, NoCache, cache_key
from forge.llm.config import LLMConfig
from forge.llm.messages import MODES, build_messages, response_format
from forge.llm.prices import Price, find_price

#: HTTP statuses worth another attempt (besides every 5xx).
RETRY_STATUSES = frozenset({408, 409, 429})


def transient(exc: BaseException) -> bool:
    """True for failures another attempt may not have: rate limits, server errors, timeouts, lost connections."""
    if isinstance(exc, openai.APIConnectionError):  # includes APITimeoutError
        return True
    return isinstance(exc, openai.APIStatusError) and (exc.status_code in RETRY_STATUSES or exc.status_code >= 500)


def retry_after(exc: BaseException | None) -> float | None:
    """Seconds the server asked us to wait (`retry-after-ms`, or `Retry-After` as seconds or an HTTP date)."""
    response = getattr(exc, "response", None)
    if response is None:
        return None
    headers = response.headers
    if headers.get("retry-after-ms"):
        try:
            return max(0.0, float(headers["retry-after-ms"]) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        parsed = email.utils.parsedate_to_datetime(value) if value else None
        return None if parsed is None else max(0.0, parsed.timestamp() - time.time())


def request_body(config: LLMConfig, request: LLMRequest, mode: str) -> dict[str, Any]:
    """The chat-completions body (without transport options): also what the cache key hashes."""
    body: dict[str, Any] = {
        "model": config.model,
        "messages": build_messages(request, mode),
        "temperature": config.temperature,
        "max_tokens": config.max_tokens_per_call,
        "seed": _seed(request),
    }
    fmt = response_format(request, mode)
    if fmt is not None:
        body["response_format"] = fmt
    return body


def _seed(request: LLMRequest) -> int:
    """The task's own seed for the server (servers that honour it answer the same prompt the same way),
    drawn from a copy of the node's RNG so building a request never changes what the node draws next."""
    rng = random.Random()
    rng.setstate(request.rng.getstate())
    return rng.randrange(2**31)


class OpenAIBackend:
    """Chat completions with structured output, retries, a response cache and a concurrency limit."""

    name = "openai"
    repairs = 1

    def __init__(self, config: LLMConfig, cache: AnswerCache | None = None,
                 client: openai.OpenAI | None = None) -> None:
        self.config = config
        self.cache = cache or NoCache()
        self.client = client or openai.OpenAI(base_url=config.base_url, api_key=config.api_key(),
                                              timeout=config.timeout, max_retries=0)
        self.mode: str = config.structured
        self.price: Price | None = find_price(config.model, config.prices)
        self._slots = threading.BoundedSemaphore(config.concurrency)
        self._backoff = wait_exponential_jitter(multiplier=config.backoff, max=config.max_wait, jitter=config.backoff)

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float:
        return self.price.cost(prompt_tokens, completion_tokens) if self.price else 0.0

    def complete(self, request: LLMRequest) -> LLMResponse:
        while True:
            mode = self.mode
            try:
                return self._complete(request, mode)
            except openai.BadRequestError as exc:
                weaker = MODES[MODES.index(mode) + 1:] if "response_format" in str(exc) else ()
                if not weaker:  # e.g. the prompt is too long: a problem with this request, not the endpoint
                    return LLMResponse("", 0, 0, model=self.config.model,
                                       problem=f"the server rejected the request: {_say(exc)}")
                self.mode = weaker[0] if self.mode == mode else self.mode  # the server lacks this mode

    def _complete(self, request: LLMRequest, mode: str) -> LLMResponse:
        params = request_body(self.config, request, mode)
        key = cache_key(params)
        hit = self.cache.cached_answer(key)
        if hit is not None:
            return LLMResponse(hit.text, hit.prompt_tokens, hit.completion_tokens,
                               self.cost(hit.prompt_tokens, hit.completion_tokens), cached=True,
                               model=self.config.model, attempts=0, problem=hit.problem)
        attempts, start = 0, time.perf_counter()
        retrying = Retrying(stop=stop_after_attempt(self.config.max_attempts), wait=self._wait,
                            retry=retry_if_exception(transient), reraise=True)
        try:
            for attempt in retrying:
                with attempt:
                    attempts = attempt.retry_state.attempt_number
                    with self._slots:
                        completion = self.client.chat.completions.create(**params)
        except (openai.AuthenticationError, openai.PermissionDeniedError, openai.NotFoundError) as exc:
            raise LLMConfigError(f"{self.config.base_url or 'api.openai.com'} refused model "
                                 f"{self.config.model!r}: {_say(exc)}; check --base-url, --model and the key in "
                                 f"${self.config.api_key_env}") from None
        except openai.BadRequestError:
            raise
        except openai.APIError as exc:
            return self._failed(f"no answer after {attempts} attempt(s): {_say(exc)}", attempts,
                                time.perf_counter() - start)
        latency = time.perf_counter() - start
        text, problem = _answer(completion, self.config.max_tokens_per_call)
        usage = completion.usage
        prompt_tokens = usage.prompt_tokens if usage else sum(estimate_tokens(m["content"]) for m in params["messages"])
        completion_tokens = usage.completion_tokens if usage else estimate_tokens(text)
        entry = CacheEntry(key, self.config.model, text, problem, prompt_tokens, completion_tokens)
        stored = self.cache.store_answer(entry)
        return LLMResponse(text, prompt_tokens, completion_tokens, self.cost(prompt_tokens, completion_tokens),
                           model=self.config.model, latency_s=latency, attempts=attempts, problem=problem,
                           cache_entry=None if stored else entry)

    def _wait(self, state: RetryCallState) -> float:
        """What the server asked for (capped), else exponential backoff with jitter."""
        asked = retry_after(state.outcome.exception() if state.outcome else None)
        return min(asked, self.config.max_wait) if asked is not None else float(self._backoff(state))

    def _failed(self, problem: str, attempts: int, latency: float) -> LLMResponse:
        return LLMResponse("", 0, 0, model=self.config.model, latency_s=latency, attempts=attempts, ok=False,
                           problem=problem)


def _answer(completion: Any, max_tokens: int) -> tuple[str, str]:
    """(text, problem): the answer's text and why it is unusable, or '' when it may be parsed."""
    if not completion.choices:
        return "", "the server returned no choices"
    choice = completion.choices[0]
    message = choice.message
    text = message.content or ""
    if getattr(message, "refusal", None):
        return message.refusal, f"the model refused: {message.refusal}"
    if choice.finish_reason == "length":
        return text, (f"the answer was cut off at the {max_tokens}-token limit (finish_reason=length); "
                      "give a shorter answer that is complete JSON")
    if choice.finish_reason == "content_filter":
        return text, "the answer was blocked by the server's content filter"
    if not text.strip():
        return text, "the answer was empty"
    return text, ""


def _say(exc: openai.APIError) -> str:
    status = getattr(exc, "status_code", None)
    first = str(getattr(exc, "message", exc)).splitlines()[0][:300]
    return f"HTTP {status}: {first}" if status else f"{type(exc).__name__}: {first}"
