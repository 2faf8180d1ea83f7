"""A real OpenAI-compatible chat-completions server on loopback, with scripted answers.

`LLMServer` is a `ThreadingHTTPServer` in a thread that speaks `POST /v1/chat/completions` (with `usage`)
and `GET /v1/models`. Each request is answered by `responder(body) -> Reply`; a `Reply` can be a normal
answer, an HTTP error with headers (429 + Retry-After, 500 ...), a slow answer, a truncated one
(finish_reason=length) or a refusal. The server counts what it served (requests, statuses, tokens), so
tests can check Forge's ledger against it. `recorded_answers` gives the answers a well-behaved model would
give (each node's offline generator, looked up by prompt), with realistic lengths.
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from forge.dag import NodeContext
from forge.ids import TaskId
from forge.llm import LLMRequest, LLMResponse, OfflineBackend, estimate_tokens
from forge.taxonomy import Skill
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


Responder = Callable[[dict[str, Any]], Reply]


@dataclass
class Served:
    """What the server did, for comparison with the ledger."""

    requests: int = 0
    in_flight: int = 0
    max_in_flight: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    bodies: list[dict[str, Any]] = field(default_factory=list)


def usage_of(body: dict[str, Any], content: str) -> tuple[int, int]:
    """Token counts the server reports: ~4 characters per token of what it read and wrote."""
    sent = "".join(m.get("content") or "" for m in body.get("messages", []))
    sent += json.dumps(body.get("response_format", ""))
    return estimate_tokens(sent), max(1, estimate_tokens(content))


class LLMServer:
    def __init__(self, responder: Responder) -> None:
        self.responder = responder
        self.served = Served()
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def do_GET(self) -> None:  # noqa: N802
                self._send(200, {"object": "list", "data": [{"id": "test-model", "object": "model"}]})

            def do_POST(self) -> None:  # noqa: N802
                body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
                reply = server.responder(body)
                with server._lock:
                    served = server.served
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
                with server._lock:
                    server.served.prompt_tokens += prompt_tokens
                    server.served.completion_tokens += completion_tokens
                message = {"role": "assistant", "content": reply.content, "refusal": reply.refusal}
                self._send(200, {
                    "id": f"chatcmpl-{server.served.requests}", "object": "chat.completion", "created": 0,
                    "model": body.get("model", ""),
                    "choices": [{"index": 0, "message": message, "finish_reason": reply.finish_reason}],
                    "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                              "total_tokens": prompt_tokens + completion_tokens},
                }, reply.headers)

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
        get_family(skill.family).run(NodeContext(skill.params, task_id.seed, skill.id, task_id.index, backend))
    return answers


def answering(answers: dict[str, str], delay: float = 0.0) -> Responder:
    """A responder that answers each prompt as the offline generator would (repairs included)."""
    return lambda body: Reply(answers[prompt_of(body)], delay=delay)
