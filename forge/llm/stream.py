"""One chat completion read with bounds: a total deadline, a size cap, and what was received when either ends it.

The request goes out with `stream: true` (and `stream_options.include_usage`), so the answer arrives token by
token and three things hold that a plain request cannot give:
- **a total deadline**: `timeout` counts from sending to the last byte; the HTTP client's own timeout restarts
  with every byte, so a server dripping one byte a second was waited on forever. The read runs in a daemon
  thread and the caller stops waiting at the deadline (or at `cancel`), closing the connection: a server that
  streams notices the closed socket and stops generating (llama.cpp, vLLM), where a dropped plain request keeps
  the server busy to the end;
- **a size cap**: at most `max_chars` characters of content and tool-call arguments are kept; past that the
  connection is closed and the reply comes back `cut` (a 200 MB reply took 1.25 GB when read whole). A line of
  the event stream may not outgrow the cap either, and a server that ignores `stream` and answers one JSON body
  is read under the same cap;
- **what was generated is known when it fails**: a timed-out or broken read raises with the partial `Received`
  attached (`exc.received`), so its tokens are counted (`spent`): the server's own usage when it sent it,
  else an estimate (kit.llm.estimate_tokens of the prompt and of what arrived), marked as such.
Both the generation backend (forge.llm.openai_backend) and the student's chat (forge.agent.chat) read through
here. `Meter` sums what is in flight for the progress line a slow server needs.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

try:  # the HTTP client the openai SDK is built on: its errors surface while a stream is read
    import httpx2 as httpx
except ImportError:  # openai before 3 is built on httpx
    import httpx  # type: ignore[no-redef]
import openai

from kit.llm import LLMCancelled, estimate_tokens

#: Bytes of one event-stream line beyond the content cap (the JSON around a token).
LINE_SLACK = 64 * 1024
#: Characters of a reply kept as evidence when it was cut at the cap (the rest is never stored).
CUT_KEEP = 2000


def reply_cap(max_tokens: int) -> int:
    """Characters a reply may have: 32 per token of its limit (a token is rarely over 16 characters), at least
    64 KiB. A reply longer than that is not what the model generated within `max_tokens`: the server misbehaves."""
    return max(64 * 1024, 32 * max_tokens)


@dataclass
class Received:
    """What came back of one request (all of it, or what arrived before the deadline or the cap)."""

    parts: list[str] = field(default_factory=list)
    refusal: str | None = None
    tool_calls: dict[int, dict[str, Any]] = field(default_factory=dict)
    finish_reason: str | None = None
    usage: tuple[int, int] | None = None  # (prompt, completion) as the server reported them
    chars: int = 0
    cut: bool = False
    streamed: bool = True
    first_at: float | None = None  # time.monotonic() when the first token arrived

    @property
    def content(self) -> str:
        return "".join(self.parts)

    def calls(self) -> list[dict[str, Any]]:
        """The tool calls, assembled from their deltas, in the form of a chat message's `tool_calls`."""
        return [{"id": c.get("id") or f"call_{i + 1}", "type": "function",
                 "function": {"name": c.get("name", ""), "arguments": c.get("arguments", "")}}
                for i, c in enumerate(self.tool_calls[k] for k in sorted(self.tool_calls))]

    def spent(self, messages: list[dict[str, Any]]) -> tuple[int, int, int]:
        """(prompt, completion, estimated) tokens: the server's usage, else estimates (then `estimated` is their
        sum), for a reply read whole or cut short by a deadline."""
        if self.usage is not None:
            return self.usage[0], self.usage[1], 0
        prompt = estimate_tokens(json.dumps(messages, ensure_ascii=False))
        completion = estimate_tokens(self.content) + sum(
            estimate_tokens(c.get("arguments", "")) for c in self.tool_calls.values())
        return prompt, completion, prompt + completion


class ReplyTimeout(openai.APITimeoutError):
    """The request's total deadline passed (retried like any timeout); `received` holds what arrived."""

    def __init__(self, request: httpx.Request, received: Received, seconds: float) -> None:
        super().__init__(request)
        self.message = f"no complete answer within the {seconds:g} s deadline ({received.chars} characters arrived)"
        self.received = received


class ReplyBroken(openai.APIConnectionError):
    """The connection failed while the answer streamed (retried); `received` holds what arrived."""

    def __init__(self, request: httpx.Request, received: Received, why: str) -> None:
        super().__init__(message=f"the answer stream broke after {received.chars} characters: {why}",
                         request=request)
        self.received = received


class Meter:
    """Requests in flight and characters received, over all threads: what the progress line prints."""

    def __init__(self) -> None:
        self.in_flight = 0
        self.chars = 0
        self.done = 0
        self.since: float | None = None
        self._lock = threading.Lock()

    def start(self) -> None:
        with self._lock:
            self.in_flight += 1
            if self.since is None:
                self.since = time.monotonic()

    def add(self, chars: int) -> None:
        with self._lock:
            self.chars += chars

    def stop(self) -> None:
        with self._lock:
            self.in_flight -= 1
            self.done += 1

    def line(self) -> str | None:
        """'LLM: 2 request(s) in flight, ~1,234 tokens received in 42 s (~29 tokens/s), 7 done', or None while
        nothing was sent."""
        with self._lock:
            if self.since is None:
                return None
            seconds = max(1e-3, time.monotonic() - self.since)
            tokens = (self.chars + 3) // 4
            return (f"LLM: {self.in_flight} request(s) in flight, ~{tokens:,} tokens received in {seconds:.0f} s "
                    f"(~{tokens / seconds:.1f} tokens/s), {self.done} done")


class Ticker:
    """Prints `meter.line()` every `every` seconds while requests are in flight (a daemon thread, started lazily)."""

    def __init__(self, meter: Meter, say: Callable[[str], None], every: float = 15.0) -> None:
        self.meter, self.say, self.every = meter, say, every
        self._started = False
        self._lock = threading.Lock()

    def ensure(self) -> None:
        with self._lock:
            if self._started:
                return
            self._started = True
        threading.Thread(target=self._loop, name="llm-progress", daemon=True).start()

    def _loop(self) -> None:
        while True:
            time.sleep(self.every)
            line = self.meter.line()
            if line is not None and self.meter.in_flight:
                self.say(line)


def fetch(client: openai.OpenAI, body: dict[str, Any], *, timeout: float, max_chars: int,
          cancel: threading.Event | None = None, meter: Meter | None = None) -> Received:
    """Send `body` as a streamed chat completion and read the answer within `timeout` seconds in all.

    Raises the SDK's errors for an HTTP error status or a failed connection, `ReplyTimeout` at the deadline,
    `ReplyBroken` when the stream breaks, `LLMCancelled` when `cancel` is set. A reply over `max_chars` comes
    back with `cut` set and its first CUT_KEEP characters."""
    state: dict[str, Any] = {"received": Received(), "abort": False}
    lock = threading.Lock()
    done = threading.Event()
    request = httpx.Request("POST", f"{client.base_url}chat/completions")

    def work() -> None:
        try:
            with client.chat.completions.with_streaming_response.create(
                    **body, stream=True, stream_options={"include_usage": True}, timeout=timeout) as response:
                with lock:
                    state["response"] = response
                _read(response, state, lock, max_chars, meter)
        except BaseException as exc:  # handed to the caller's thread
            state["error"] = exc
        finally:
            done.set()

    if meter is not None:
        meter.start()
    deadline = time.monotonic() + timeout
    try:
        threading.Thread(target=work, name="llm-request", daemon=True).start()
        while not done.wait(max(0.0, min(0.1, deadline - time.monotonic()))):
            if cancel is not None and cancel.is_set():
                _abort(state, lock)
                raise LLMCancelled("interrupted: the request in flight was abandoned")
            if time.monotonic() >= deadline:
                received = _abort(state, lock)
                raise ReplyTimeout(request, received, timeout)
    finally:
        if meter is not None:
            meter.stop()
    error = state.get("error")
    if isinstance(error, httpx.TimeoutException):
        raise ReplyTimeout(request, _abort(state, lock), timeout)
    if isinstance(error, openai.APITimeoutError):  # nothing arrived within the timeout
        raise ReplyTimeout(request, Received(), timeout)
    if isinstance(error, httpx.HTTPError | OSError):
        raise ReplyBroken(request, _abort(state, lock), f"{type(error).__name__}: {error}")
    if error is not None:
        raise error
    whole: Received = state["received"]
    return whole


def _abort(state: dict[str, Any], lock: threading.Lock) -> Received:
    """Stop the reader and close the connection; a copy of what was received so far."""
    with lock:
        state["abort"] = True
        received: Received = state["received"]
        copy = Received(list(received.parts), received.refusal, {k: dict(v) for k, v in received.tool_calls.items()},
                        received.finish_reason, received.usage, received.chars, received.cut, received.streamed,
                        received.first_at)
        response = state.get("response")
    if response is not None:
        with contextlib.suppress(Exception):  # closing a connection another thread reads from is best effort
            response.close()
    return copy


def _read(response: Any, state: dict[str, Any], lock: threading.Lock, max_chars: int, meter: Meter | None) -> None:
    received: Received = state["received"]
    limit = max_chars + LINE_SLACK
    if "text/event-stream" not in response.headers.get("content-type", ""):
        # a server that ignores `stream` answers one JSON body: read it under the same cap
        received.streamed = False
        data = bytearray()
        for chunk in response.iter_bytes():
            data += chunk
            if len(data) > limit or state["abort"]:
                break
        if len(data) > limit:
            with lock:
                _cut(received, bytes(data[:CUT_KEEP * 4]).decode("utf-8", "replace"), max_chars)
            return
        completion = json.loads(bytes(data), strict=False)
        with lock:
            _whole(received, completion)
        if meter is not None:
            meter.add(received.chars)
        return
    buffer = b""
    ended = False
    for chunk in response.iter_bytes():
        buffer += chunk
        if state["abort"]:
            return
        *lines, buffer = buffer.split(b"\n")
        if len(buffer) > limit:
            with lock:
                _cut(received, buffer[:CUT_KEEP * 4].decode("utf-8", "replace"), max_chars)
            return
        for line in lines:
            line = line.strip()
            if not line.startswith(b"data:"):
                continue
            payload = line[5:].strip()
            if payload == b"[DONE]":
                ended = True
                break
            try:
                event = json.loads(payload, strict=False)
            except json.JSONDecodeError:
                continue  # a keep-alive or a server's own comment
            if isinstance(event, dict) and event.get("error"):
                raise OSError(f"the server sent an error mid-stream: {json.dumps(event['error'])[:300]}")
            with lock:
                added = _delta(received, event)
                over = received.chars > max_chars
                if over:
                    _cut(received, "", max_chars)
            if meter is not None:
                meter.add(added)
            if over:
                return
        if ended:
            return
    if received.finish_reason is None and not state["abort"]:  # the connection closed mid-answer
        raise OSError("the stream ended before the answer was complete")


def _delta(received: Received, event: Any) -> int:
    """Apply one chunk of the stream; the characters it added."""
    if not isinstance(event, dict):
        return 0
    usage = event.get("usage")
    if isinstance(usage, dict):
        received.usage = (int(usage.get("prompt_tokens") or 0), int(usage.get("completion_tokens") or 0))
    choices = event.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        return 0
    choice = choices[0]
    found = choice.get("delta")
    delta: dict[str, Any] = found if isinstance(found, dict) else {}
    added = 0
    content = delta.get("content")
    if isinstance(content, str) and content:
        received.parts.append(content)
        added += len(content)
    refusal = delta.get("refusal")
    if isinstance(refusal, str) and refusal:
        received.refusal = (received.refusal or "") + refusal
        added += len(refusal)
    calls = delta.get("tool_calls")
    for position, call in enumerate(calls if isinstance(calls, list) else []):
        if not isinstance(call, dict):
            continue
        index = call.get("index", position)
        slot = received.tool_calls.setdefault(int(index) if isinstance(index, int) else position, {})
        if call.get("id"):
            slot["id"] = str(call["id"])
        named = call.get("function")
        function: dict[str, Any] = named if isinstance(named, dict) else {}
        if function.get("name"):
            slot["name"] = slot.get("name", "") + str(function["name"])
        arguments = function.get("arguments")
        if isinstance(arguments, dict):  # some servers send an object, not the JSON string the API specifies
            arguments = json.dumps(arguments)
        if isinstance(arguments, str) and arguments:
            slot["arguments"] = slot.get("arguments", "") + arguments
            added += len(arguments)
    if choice.get("finish_reason"):
        received.finish_reason = str(choice["finish_reason"])
    if added and received.first_at is None:
        received.first_at = time.monotonic()
    received.chars += added
    return added


def _whole(received: Received, completion: Any) -> None:
    """A plain (not streamed) completion body, read as if it were one chunk."""
    if not isinstance(completion, dict):
        raise ValueError("the server's answer is not a JSON object")
    choices = completion.get("choices")
    if isinstance(choices, list) and choices and isinstance(choices[0], dict):
        found = choices[0].get("message")
        message: dict[str, Any] = found if isinstance(found, dict) else {}
        calls = message.get("tool_calls")
        as_delta = {**message, "tool_calls": [{**c, "index": i} for i, c in enumerate(calls)]
                    if isinstance(calls, list) else None}
        _delta(received, {"choices": [{"delta": as_delta, "finish_reason": choices[0].get("finish_reason")}]})
    elif not isinstance(choices, list):
        raise ValueError("the server's answer has no choices")
    usage = completion.get("usage")
    if isinstance(usage, dict):
        received.usage = (int(usage.get("prompt_tokens") or 0), int(usage.get("completion_tokens") or 0))


def _cut(received: Received, head: str, max_chars: int) -> None:
    """Keep only the first CUT_KEEP characters of a reply over the cap (evidence; the rest is dropped)."""
    kept = (received.content or head)[:CUT_KEEP]
    received.parts = [kept]
    for call in received.tool_calls.values():
        call["arguments"] = call.get("arguments", "")[:CUT_KEEP]
    received.cut = True
    received.chars = max(received.chars, max_chars + 1)
