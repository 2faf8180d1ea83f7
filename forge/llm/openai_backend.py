"""A backend on the `openai` SDK for any OpenAI-compatible chat-completions server.

One `complete` is one logical call: the cache first (zero tokens on a hit), then up to `max_attempts`
HTTP attempts. 429 (waiting what `Retry-After` says), 408/409, 5xx, timeouts and connection errors are
retried with exponential backoff and jitter (tenacity); the SDK's own retries are off so the ledger knows
the attempt count. Nothing a server does crashes the run: an answer that is not usable (refusal, cut off
at max tokens, empty) comes back with `problem` set, and a call whose every attempt failed comes back
with `ok=False`; the node then repairs or classifies the task `llm_fail`. Only a configuration the
server rejects for every call (bad key, unknown model, wrong URL) raises `LLMConfigError`.

The structured-output form (`--structured`, default `auto`) is probed once per base URL and model
(forge.llm.endpoint) and kept in the catalog; a request the server refuses because of its format (a 400, or
llama.cpp's 500 "Input should be 'text' or 'json_object'") is not an outage: it is sent again in the next
weaker form at once, and the catalog row is updated with the whole error text. Requests wait for a slot
before they are sent (forge.llm.slots), so `timeout` is the time one generation may take; `cancel()` (Ctrl-C)
abandons the requests in flight within a fraction of a second.

Every request is streamed and read through forge.llm.stream: `timeout` is a total deadline (not a read timeout that
each byte restarts), replies are capped at `reply_cap(max_tokens_per_call)` characters (a reply cut there is never
cached), and what a timed-out attempt generated is counted in the call's tokens (estimated when the server never
said; `LLMResponse.estimated_tokens`). Before the first call the server's speed is measured once and the per-call
limits fitted to it (forge.llm.endpoint.fit, `speed_note`); `progress` gets a line now and then while requests are
in flight.
"""

from __future__ import annotations

import email.utils
import random
import threading
import time
from collections.abc import Callable
from typing import Any

import openai
from tenacity import RetryCallState, Retrying, retry_if_exception, stop_after_attempt, wait_exponential_jitter

from forge.llm.cache import AnswerCache, NoCache, cache_key
from forge.llm.config import LLMConfig
from forge.llm.endpoint import (
    DEFAULT_BASE_URL,
    EndpointStore,
    Verdict,
    error_text,
    fit,
    format_rejected,
    measure,
    probe,
)
from forge.llm.messages import MODES, build_messages, response_format
from forge.llm.prices import Price, find_price
from forge.llm.slots import Slots
from forge.llm.stream import Meter, Received, ReplyBroken, ReplyTimeout, Ticker, fetch, reply_cap
from kit.llm import CacheEntry, LLMCancelled, LLMConfigError, LLMRequest, LLMResponse, estimate_tokens

#: HTTP statuses worth another attempt (besides every 5xx).
RETRY_STATUSES = frozenset({408, 409, 429})


def transient(exc: BaseException) -> bool:
    """True for failures another attempt may not have: rate limits, server errors, timeouts, lost connections
    (not a refusal of the response format, whatever its status: the same request would be refused again)."""
    if isinstance(exc, openai.APIConnectionError):  # includes APITimeoutError
        return True
    return (isinstance(exc, openai.APIStatusError) and (exc.status_code in RETRY_STATUSES or exc.status_code >= 500)
            and not format_rejected(exc))


class _FormatRefused(Exception):
    """The server refused this request's response format (internal: `complete` steps down to a weaker form)."""

    def __init__(self, evidence: str) -> None:
        super().__init__(evidence)
        self.evidence = evidence


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
                 client: openai.OpenAI | None = None, endpoints: EndpointStore | None = None,
                 progress: Callable[[str], None] | None = None, progress_every: float = 15.0) -> None:
        self.config = config
        self.cache = cache or NoCache()
        self.endpoints = endpoints
        self.client = client or openai.OpenAI(base_url=config.base_url, api_key=config.api_key(),
                                              timeout=config.timeout, max_retries=0)
        self.mode: str = config.structured  # "auto" until the first call resolves it
        #: What the probe or a refusal found out about the endpoint (for the run's summary).
        self.endpoint_note = ""
        self.price: Price | None = find_price(config.model, config.prices)
        self._cancel = threading.Event()
        self._slots = Slots(config.concurrency, self._cancel)
        self._mode_lock = threading.Lock()
        self._backoff = wait_exponential_jitter(multiplier=config.backoff, max=config.max_wait, jitter=config.backoff)
        #: Requests in flight and what they received; printed every `progress_every` s while any is in flight.
        self.meter = Meter()
        self._ticker = Ticker(self.meter, progress, progress_every) if progress is not None else None
        #: What the speed probe measured and chose (for the run's summary); None until it ran.
        self.speed_note: str | None = None
        self._speed_lock = threading.Lock()

    @property
    def endpoint(self) -> str:
        return self.config.base_url or DEFAULT_BASE_URL

    @property
    def concurrency_notes(self) -> list[str]:
        return list(self._slots.notes)

    def cancel(self) -> None:
        """Stop: requests in flight are abandoned, nothing new is sent (every later call raises LLMCancelled)."""
        self._cancel.set()

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float:
        return self.price.cost(prompt_tokens, completion_tokens) if self.price else 0.0

    def structured(self) -> str:
        """The structured-output form to use: the configured one, or (auto) the catalog's verdict for this
        endpoint and model, else a probe's (stored), else json_schema when the probe could not decide.
        `probe` probes even when the catalog has a verdict (after the server changed) and stores the new one."""
        with self._mode_lock:
            if self.mode not in ("auto", "probe"):
                return self.mode
            known = self.endpoints is not None and self.mode == "auto"
            stored = self.endpoints.load(self.endpoint, self.config.model) if known and self.endpoints else None
            verdict = stored or probe(self._probe_send, self.config.model)
            if verdict is None:
                self.endpoint_note = f"could not probe {self.endpoint}'s structured output; starting with json_schema"
                self.mode = "json_schema"
                return self.mode
            if stored is None and self.endpoints is not None:
                self.endpoints.save(self.endpoint, self.config.model, verdict)
            self.endpoint_note = f"structured output: {verdict.structured} ({verdict.evidence})"
            self.mode = verdict.structured
            return self.mode

    def _probe_send(self, body: dict[str, Any]) -> str:
        self._slots.acquire()
        try:
            return self._fetch(body).content
        finally:
            self._slots.release()

    def fit_speed(self, mode: str) -> None:
        """Once per backend: measure the server's speed and fit `max_tokens_per_call` / `timeout` to it
        (forge.llm.endpoint.fit); the line saying what was chosen is `speed_note`."""
        with self._speed_lock:
            if self.speed_note is not None:
                return

            def send(body: dict[str, Any]) -> tuple[int, float, float]:
                self._slots.acquire()
                try:
                    start = time.monotonic()
                    received = self._fetch(body)
                finally:
                    self._slots.release()
                first = (received.first_at or time.monotonic()) - start
                tokens = received.usage[1] if received.usage and received.usage[1] else estimate_tokens(
                    received.content)
                return tokens, first, time.monotonic() - start

            speed = measure(send, self.config.model, mode)
            if speed is None:
                self.speed_note = "could not measure the server's speed; per-call limits as configured"
                return
            self.config, self.speed_note = fit(self.config, speed)

    def complete(self, request: LLMRequest) -> LLMResponse:
        mode = self.structured()
        self.fit_speed(mode)
        if self._ticker is not None:
            self._ticker.ensure()
        while True:
            try:
                return self._complete(request, mode)
            except _FormatRefused as refused:
                weaker = MODES[MODES.index(mode) + 1:]
                if not weaker:
                    return LLMResponse("", 0, 0, model=self.config.model,
                                       problem=f"the server rejected the request: {refused.evidence}")
                mode = self._step_down(mode, weaker[0], refused.evidence)

    def _step_down(self, refused: str, weaker: str, evidence: str) -> str:
        """The server lacks `refused`: use `weaker` from now on and keep the reason in the catalog."""
        with self._mode_lock:
            if MODES.index(self.mode) <= MODES.index(refused):  # no other call has stepped further down yet
                self.mode = weaker
                verdict = Verdict(weaker, f"{refused}: rejected during the run, {evidence}")
                self.endpoint_note = f"structured output: {weaker} ({verdict.evidence})"
                if self.endpoints is not None:
                    self.endpoints.save(self.endpoint, self.config.model, verdict)
            return self.mode

    def _complete(self, request: LLMRequest, mode: str) -> LLMResponse:
        params = request_body(self.config, request, mode)
        key = cache_key(params)
        hit = self.cache.cached_answer(key)
        if hit is not None:
            return LLMResponse(hit.text, hit.prompt_tokens, hit.completion_tokens,
                               self.cost(hit.prompt_tokens, hit.completion_tokens), cached=True,
                               model=self.config.model, attempts=0, problem=hit.problem)
        attempts, start = 0, time.perf_counter()
        spent = _Spent()
        retrying = Retrying(stop=stop_after_attempt(self.config.max_attempts), wait=self._wait, sleep=self._sleep,
                            retry=retry_if_exception(transient), reraise=True)
        try:
            for attempt in retrying:
                with attempt:
                    attempts = attempt.retry_state.attempt_number
                    received = self._send(params, spent)
        except (openai.AuthenticationError, openai.PermissionDeniedError, openai.NotFoundError) as exc:
            raise LLMConfigError(f"{self.config.base_url or 'api.openai.com'} refused model "
                                 f"{self.config.model!r}: {error_text(exc)}; check --base-url, --model and the key in "
                                 f"${self.config.api_key_env}") from None
        except openai.APIStatusError as exc:
            if format_rejected(exc):
                raise _FormatRefused(error_text(exc)) from None
            if not transient(exc):  # e.g. the prompt is too long: a problem with this request, not the endpoint
                return self._failed(f"the server rejected the request: {error_text(exc)}", attempts,
                                    time.perf_counter() - start, spent, ok=True)
            return self._failed(f"no answer after {attempts} attempt(s): {error_text(exc)}", attempts,
                                time.perf_counter() - start, spent)
        except openai.APIError as exc:
            return self._failed(f"no answer after {attempts} attempt(s): {error_text(exc)}", attempts,
                                time.perf_counter() - start, spent)
        except ValueError as exc:  # a body that is not a chat completion
            return self._failed(f"unreadable answer: {type(exc).__name__}: {exc}"[:300], attempts,
                                time.perf_counter() - start, spent)
        latency = time.perf_counter() - start
        text, problem = _answer(received, self.config.max_tokens_per_call)
        prompt_tokens, completion_tokens, estimated = received.spent(params["messages"])
        entry = CacheEntry(key, self.config.model, text, problem, prompt_tokens, completion_tokens)
        # A reply cut at the size cap is not the model's whole answer: never cached (a rerun asks again).
        stored = received.cut or self.cache.store_answer(entry)
        prompt_tokens, completion_tokens = prompt_tokens + spent.prompt, completion_tokens + spent.completion
        return LLMResponse(text, prompt_tokens, completion_tokens, self.cost(prompt_tokens, completion_tokens),
                           model=self.config.model, latency_s=latency, attempts=attempts, problem=problem,
                           cache_entry=None if stored else entry, estimated_tokens=estimated + spent.estimated)

    def _send(self, params: dict[str, Any], spent: _Spent) -> Received:
        """One attempt: wait for a slot (not timed), then send (timed). A timeout of a request sent while others
        were in flight is the server's queue, not this generation: the limit goes down and it is sent again.
        What a failed read received is added to `spent` (the server generated it: it is paid for)."""
        while True:
            others = self._slots.acquire()
            try:
                return self._fetch(params)
            except (ReplyTimeout, ReplyBroken) as exc:
                spent.add(exc.received, params["messages"])
                if not others or not isinstance(exc, ReplyTimeout):
                    raise
                self._slots.shrink(f"a request sent beside {others} other(s) timed out after {self.config.timeout:g} s "
                                   "(the server seems to serve one request at a time)")
            finally:
                self._slots.release()

    def _fetch(self, body: dict[str, Any]) -> Received:
        """The request, streamed, within the total deadline and the size cap (forge.llm.stream); `cancel()`
        abandons it at once."""
        return fetch(self.client, body, timeout=self.config.timeout,
                     max_chars=reply_cap(self.config.max_tokens_per_call), cancel=self._cancel, meter=self.meter)

    def _sleep(self, seconds: float) -> None:
        """The wait between attempts, cut short by `cancel()`."""
        if self._cancel.wait(seconds):
            raise LLMCancelled("interrupted while waiting to retry")

    def _wait(self, state: RetryCallState) -> float:
        """What the server asked for (capped), else exponential backoff with jitter."""
        asked = retry_after(state.outcome.exception() if state.outcome else None)
        return min(asked, self.config.max_wait) if asked is not None else float(self._backoff(state))

    def _failed(self, problem: str, attempts: int, latency: float, spent: _Spent, *, ok: bool = False) -> LLMResponse:
        """No usable answer; the tokens the failed attempts generated are still counted (budgets see them)."""
        return LLMResponse("", spent.prompt, spent.completion, self.cost(spent.prompt, spent.completion),
                           model=self.config.model, latency_s=latency, attempts=attempts, ok=ok, problem=problem,
                           estimated_tokens=spent.estimated)


class _Spent:
    """Tokens generated by attempts that failed (timed out, broke off): the server's usage, else estimates."""

    def __init__(self) -> None:
        self.prompt = self.completion = self.estimated = 0

    def add(self, received: Received, messages: list[dict[str, Any]]) -> None:
        prompt, completion, estimated = received.spent(messages)
        self.prompt += prompt
        self.completion += completion
        self.estimated += estimated


def _answer(received: Received, max_tokens: int) -> tuple[str, str]:
    """(text, problem): the answer's text and why it is unusable, or '' when it may be parsed."""
    text = received.content
    if received.cut:
        return text, (f"the reply was longer than {reply_cap(max_tokens):,} characters (the cap for a "
                      f"{max_tokens}-token answer) and was cut off; only its start is kept")
    if received.refusal:
        return received.refusal, f"the model refused: {received.refusal}"
    if received.finish_reason == "length":
        return text, (f"the answer was cut off at the {max_tokens}-token limit (finish_reason=length); "
                      "give a shorter answer that is complete JSON")
    if received.finish_reason == "content_filter":
        return text, "the answer was blocked by the server's content filter"
    if not text.strip():
        return text, "the answer was empty"
    return text, ""

