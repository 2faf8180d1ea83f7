"""A real OpenAI-compatible chat-completions server on loopback, with scripted answers.

`LLMServer` is a `ThreadingHTTPServer` in a thread that speaks `POST /v1/chat/completions` (with `usage`)
and `GET /v1/models`. Each request is answered by `responder(body) -> Reply`; a `Reply` can be a normal
answer, an HTTP error with headers (429 + Retry-After, 500 ...), a slow answer, a truncated one
(finish_reason=length) or a refusal. The server counts what it served (requests, statuses, tokens), so
tests can check Forge's ledger against it. `recorded_answers` gives the answers a well-behaved model would
give (each node's offline generator, looked up by prompt), with realistic lengths.

Real servers differ in what they take (`Server` describes one): llama.cpp's Python server answers HTTP 500
to `response_format: json_schema` and constrains decoding with `{"type": "json_object", "schema": ...}`, but its
grammar builder fails (500) on keywords such as `maxLength`; it also serves one request at a time
(`serial=True`: requests queue inside the server, abandoned ones keep it busy). The server answers Forge's
endpoint probe (forge.llm.endpoint) itself, as such a server would; probes are counted apart (`Served.probes`)
so the other counters still match the ledger, which has no row for a probe.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from forge.llm.endpoint import PROBE_PROMPT, SPEED_PROMPT
from forge.llm.messages import GRAMMAR_UNSAFE
from kit.dag import NodeContext
from kit.ids import TaskId
from kit.llm import LLMRequest, LLMResponse, OfflineBackend, estimate_tokens
from kit.taxonomy import Skill
from workflows import get_family


@dataclass(frozen=True)
class Reply:
    content: str | None = None
    status: int = 200
    finish_reason: str = "stop"
    refusal: str | None = None
    delay: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)
    error: str = "scripted error"
    drip: float = 0.0  # seconds between streamed pieces (~one token each): a slow or stuck server
    huge: int = 0  # characters of filler content sent instead of `content`, never built whole (a 200 MB reply)
    usage: bool = True  # a streamed reply ends with the usage chunk (some servers never send one)
    hang_up_after: int = 0  # a streamed reply stops after this many pieces, without its finish (a server that died)


Responder = Callable[[dict[str, Any]], Reply]

#: What llama.cpp's Python server (pydantic) says to a json_schema response_format.
LLAMA_CPP_REFUSAL = ("1 validation error for CreateChatCompletionRequest\nresponse_format.type\n  Input should be "
                     "'text' or 'json_object' [type=literal_error, input_value='json_schema', input_type=str]")


@dataclass(frozen=True)
class Server:
    """Which response formats the server takes, and whether it enforces a schema it is sent."""

    json_schema: bool = True  # OpenAI's {"type": "json_schema", ...}
    json_object_schema: bool = True  # {"type": "json_object", "schema": ...} constrains decoding
    grammar_limited: bool = False  # a schema with keywords in GRAMMAR_UNSAFE makes the grammar builder fail (500)
    serial: bool = False  # one request at a time (the others wait inside the server)
    ignores_format: bool = False  # takes any response_format and enforces none of them
    ignores_stream: bool = False  # answers `stream: true` with one JSON body
    tokens_per_second: float = 0.0  # streamed pieces come at this rate (0: at once), the speed probe included

    def refuse(self, body: dict[str, Any]) -> Reply | None:
        """The server's own error for a response format it cannot take, else None."""
        fmt = body.get("response_format") or {}
        if fmt.get("type") == "json_schema" and not self.json_schema:
            return Reply(status=500, error=LLAMA_CPP_REFUSAL)
        schema = fmt.get("schema") if fmt.get("type") == "json_object" else fmt.get("json_schema", {}).get("schema")
        if schema is not None and self.grammar_limited and _has_keyword(schema, GRAMMAR_UNSAFE):
            return Reply(status=500, error="Exception in ASGI application: json_schema_to_gbnf: unsupported "
                         "keyword (maxLength) while building the grammar")
        return None

    def enforces(self, body: dict[str, Any]) -> bool:
        fmt = body.get("response_format") or {}
        if self.ignores_format:
            return False
        return fmt.get("type") == "json_schema" or (fmt.get("type") == "json_object" and "schema" in fmt
                                                    and self.json_object_schema)


def _has_keyword(schema: Any, keywords: Iterable[str]) -> bool:
    """True when a keyword of `keywords` is used anywhere in `schema` (a property merely *named* so is not)."""
    names = set(keywords)
    if isinstance(schema, list):
        return any(_has_keyword(item, names) for item in schema)
    if not isinstance(schema, dict):
        return False
    for key, value in schema.items():
        if key in ("properties", "$defs") and isinstance(value, dict):
            if any(_has_keyword(sub, names) for sub in value.values()):
                return True
        elif key in names or _has_keyword(value, names):
            return True
    return False


def is_speed_probe(body: dict[str, Any]) -> bool:
    return any(m.get("content") == SPEED_PROMPT for m in body.get("messages", [])[1:2])


def probe_reply(server: Server, body: dict[str, Any]) -> Reply:
    """How a server answers Forge's endpoint probe: the enforced value, or what a model says unconstrained; the
    speed probe gets `max_tokens` pieces of text, as a model would write until its limit."""
    if is_speed_probe(body):
        return Reply("word" * int(body.get("max_tokens") or 16), finish_reason="length")
    if server.enforces(body):
        return Reply(json.dumps({"forge_probe": "ready"}))
    if (body.get("response_format") or {}).get("type") == "json_object":
        return Reply(json.dumps({"status": "ok"}))
    return Reply("Sure, here is a JSON object: {}")


@dataclass
class Served:
    """What the server did, for comparison with the ledger."""

    requests: int = 0
    probes: int = 0
    speed_probes: int = 0
    in_flight: int = 0
    max_in_flight: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    bodies: list[dict[str, Any]] = field(default_factory=list)
    #: Tokens streamed to clients that hung up before the end (~4 characters each): generated, never delivered.
    abandoned_tokens: int = 0


def usage_of(body: dict[str, Any], content: str) -> tuple[int, int]:
    """Token counts the server reports: ~4 characters per token of what it read and wrote. A json_schema
    response_format counts as read (OpenAI puts the schema into the prompt); the json_object form's schema does
    not (llama.cpp turns it into a grammar, which is not part of the prompt)."""
    sent = "".join(m.get("content") or "" for m in body.get("messages", []))
    fmt = body.get("response_format") or {}
    sent += json.dumps(fmt) if fmt.get("type") == "json_schema" else ""
    return estimate_tokens(sent), max(1, estimate_tokens(content))


class LLMServer:
    def __init__(self, responder: Responder, kind: Server | None = None) -> None:
        self.responder = responder
        self.kind = kind or Server()
        self.served = Served()
        self._lock = threading.Lock()
        self._serial = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def do_GET(self) -> None:  # noqa: N802
                self._send(200, {"object": "list", "data": [{"id": "test-model", "object": "model"}]})

            def do_POST(self) -> None:  # noqa: N802
                body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
                if server.kind.serial:
                    with server._serial:  # like a single-slot server: the others wait, abandoned or not
                        return self._answer(body)
                return self._answer(body)

            def _answer(self, body: dict[str, Any]) -> None:
                probe = any(m.get("content") in (PROBE_PROMPT, SPEED_PROMPT)
                            for m in body.get("messages", [])[1:2])
                reply = server.kind.refuse(body) or (probe_reply(server.kind, body) if probe
                                                     else server.responder(body))
                with server._lock:
                    served = server.served
                    if probe and is_speed_probe(body):
                        served.speed_probes += 1
                    elif probe:
                        served.probes += 1
                    else:
                        served.requests += 1
                        served.statuses[reply.status] += 1
                        served.bodies.append(body)
                    served.in_flight += 1
                    served.max_in_flight = max(served.max_in_flight, served.in_flight)
                time.sleep(reply.delay)
                with server._lock:
                    served.in_flight -= 1
                if reply.status != 200:
                    error = {"error": {"message": reply.error, "type": "scripted", "code": reply.status}}
                    return self._send(reply.status, error, reply.headers)
                content = reply.content or ""
                prompt_tokens, completion_tokens = usage_of(body, reply.refusal or content)
                if reply.huge:
                    completion_tokens = (reply.huge + 3) // 4
                if probe:
                    prompt_tokens = completion_tokens = 0
                streamed = bool(body.get("stream")) and not server.kind.ignores_stream
                if streamed:  # counted as it goes: a stream may be abandoned
                    return self._stream(body, reply, prompt_tokens, completion_tokens, counted=probe)
                if not probe:
                    with server._lock:
                        server.served.prompt_tokens += prompt_tokens
                        server.served.completion_tokens += completion_tokens
                if reply.huge:
                    return self._send_huge(body, reply, prompt_tokens, completion_tokens)
                if reply.drip:
                    return self._send_dripping(_completion(body, reply, prompt_tokens, completion_tokens), reply.drip)
                self._send(200, _completion(body, reply, prompt_tokens, completion_tokens), reply.headers)

            def _send_dripping(self, payload: dict[str, Any], drip: float) -> None:
                """A plain JSON body sent one byte every `drip` seconds (each byte restarts a read timeout)."""
                data = json.dumps(payload).encode()
                try:
                    self.send_response(200)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(data)))
                    self.end_headers()
                    for index in range(len(data)):
                        self.wfile.write(data[index:index + 1])
                        self.wfile.flush()
                        time.sleep(drip)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def _stream(self, body: dict[str, Any], reply: Reply, prompt_tokens: int, completion_tokens: int,
                        counted: bool) -> None:
                """Server-sent events as OpenAI streams them: role, content pieces (~4 characters, one token), the
                finish reason, the usage chunk when asked for, [DONE]. A client that hangs up ends it; what was
                sent to it by then is counted as generated (`abandoned_tokens`, and the totals when the reply
                reports no usage)."""
                drip = reply.drip or (1 / server.kind.tokens_per_second if server.kind.tokens_per_second else 0.0)
                sent = 0
                try:
                    self.send_response(200)
                    self.send_header("content-type", "text/event-stream")
                    self.send_header("connection", "close")
                    for key, value in reply.headers.items():
                        self.send_header(key, value)
                    self.end_headers()
                    self.close_connection = True
                    self._event(body, {"role": "assistant", "content": ""})
                    if reply.refusal:
                        self._event(body, {"refusal": reply.refusal})
                    for number, piece in enumerate(_pieces(reply)):
                        if reply.hang_up_after and number == reply.hang_up_after:
                            raise ConnectionResetError  # the connection closes mid-answer
                        if drip:
                            time.sleep(drip)
                        self._event(body, {"content": piece})
                        sent += len(piece)
                    self._event(body, {}, reply.finish_reason)
                    if (body.get("stream_options") or {}).get("include_usage") and reply.usage:
                        usage = {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                                 "total_tokens": prompt_tokens + completion_tokens}
                        self._write({"id": "chatcmpl-0", "object": "chat.completion.chunk", "choices": [],
                                     "usage": usage})
                    self.wfile.write(b"data: [DONE]\n\n")
                    self.wfile.flush()
                    finished = True
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (deadline, cap, Ctrl-C)
                    finished = False
                if counted:  # a probe: no ledger row to compare with
                    return
                with server._lock:
                    server.served.prompt_tokens += prompt_tokens
                    server.served.completion_tokens += completion_tokens if finished else (sent + 3) // 4
                    if not finished:
                        server.served.abandoned_tokens += (sent + 3) // 4

            def _event(self, body: dict[str, Any], delta: dict[str, Any], finish: str | None = None) -> None:
                self._write({"id": "chatcmpl-0", "object": "chat.completion.chunk", "model": body.get("model", ""),
                             "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})

            def _write(self, event: dict[str, Any]) -> None:
                self.wfile.write(b"data: " + json.dumps(event).encode() + b"\n\n")
                self.wfile.flush()

            def _send_huge(self, body: dict[str, Any], reply: Reply, prompt_tokens: int,
                           completion_tokens: int) -> None:
                """A plain JSON body with `reply.huge` characters of content, written in pieces."""
                payload = _completion(body, Reply("@@"), prompt_tokens, completion_tokens)
                head, tail = json.dumps(payload).encode().split(b"@@")
                try:
                    self.send_response(200)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(head) + reply.huge + len(tail)))
                    self.end_headers()
                    self.wfile.write(head)
                    for piece in _pieces(reply):
                        self.wfile.write(piece.encode())
                    self.wfile.write(tail)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def _send(self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None) -> None:
                data = json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(data)))
                    for key, value in (headers or {}).items():
                        self.send_header(key, value)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout test)
                    pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        httpd = self.httpd

        def handle_error(request: Any, client_address: Any) -> None:
            if not isinstance(sys.exc_info()[1], ConnectionError):  # a client that gave up is no error
                ThreadingHTTPServer.handle_error(httpd, request, client_address)

        self.httpd.handle_error = handle_error  # type: ignore[method-assign]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __enter__(self) -> LLMServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def _pieces(reply: Reply) -> Iterable[str]:
    """The reply's content as streamed pieces: ~one token (4 characters) each, or 64 KiB of filler for `huge`."""
    if reply.huge:
        block = "a" * 65536
        for start in range(0, reply.huge, len(block)):
            yield block[:min(len(block), reply.huge - start)]
        return
    content = reply.content or ""
    for start in range(0, len(content), 4):
        yield content[start:start + 4]


def _completion(body: dict[str, Any], reply: Reply, prompt_tokens: int, completion_tokens: int) -> dict[str, Any]:
    message = {"role": "assistant", "content": reply.content, "refusal": reply.refusal}
    return {"id": "chatcmpl-0", "object": "chat.completion", "created": 0, "model": body.get("model", ""),
            "choices": [{"index": 0, "message": message, "finish_reason": reply.finish_reason}],
            "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                      "total_tokens": prompt_tokens + completion_tokens}}


class Script:
    """A responder that serves scripted replies in order, then `then(body)` for every later request."""

    def __init__(self, replies: Iterable[Reply], then: Responder | None = None) -> None:
        self.replies = deque(replies)
        self.then = then or (lambda body: Reply(json.dumps({"instruction": "Sort the rows of the table."})))
        self._lock = threading.Lock()

    def __call__(self, body: dict[str, Any]) -> Reply:
        with self._lock:
            if self.replies:
                return self.replies.popleft()
        return self.then(body)


def prompt_of(body: dict[str, Any]) -> str:
    """The user prompt of a request (the second message; repairs append two more)."""
    return str(body["messages"][1]["content"])


class _Recorder(OfflineBackend):
    def __init__(self, answers: dict[str, str]) -> None:
        self.answers = answers

    def complete(self, request: LLMRequest) -> LLMResponse:
        response = super().complete(request)
        self.answers[request.prompt] = response.text
        return response


def recorded_answers(taxonomy: dict[str, Skill], task_ids: Iterable[TaskId]) -> dict[str, str]:
    """prompt -> the answer a well-behaved model would give: each node's offline generator's answer."""
    answers: dict[str, str] = {}
    backend = _Recorder(answers)
    for task_id in task_ids:
        skill = taxonomy[task_id.skill_id]
        get_family(skill.family).run(NodeContext(skill.params, task_id.seed, skill.id, task_id.index, backend,
                                                 register=task_id.register))
    return answers


def answering(answers: dict[str, str], delay: float = 0.0) -> Responder:
    """A responder that answers each prompt as the offline generator would (repairs included)."""
    return lambda body: Reply(answers[prompt_of(body)], delay=delay)
