"""A real chat-completions server on loopback that plays a scripted agent (tool calls, text, garbage).

`AgentServer(script)` is a `ThreadingHTTPServer` in a thread answering `POST /v1/chat/completions` with what
`script(body)` returns: an `Act` (a message with tool calls and/or content), or raw bytes with a status (a
broken server). It keeps every request body, so tests can see exactly what the model was shown. The Forge
side talks to it through the real `openai` client, as it would to llama.cpp's llama-server or vLLM.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Act:
    """One assistant turn: `commands` become shell tool calls; `raw_calls` are sent as they are."""

    content: str | None = None
    commands: tuple[str, ...] = ()
    raw_calls: tuple[dict[str, Any], ...] = ()
    status: int = 200
    raw_body: bytes | None = None  # sent instead of a chat completion (garbage from a broken server)
    delay: float = 0.0  # seconds to wait before answering (a slow model)


Script = Callable[[dict[str, Any]], Act]


def tool_results(body: dict[str, Any]) -> list[str]:
    """The outputs the agent has been shown so far (tool messages, or the text protocol's 'Output:' turns)."""
    return [str(m.get("content")) for m in body.get("messages", [])[2:]
            if m.get("role") == "tool" or (m.get("role") == "user" and str(m.get("content")).startswith("Output:"))]


@dataclass
class AgentServer:
    script: Script
    bodies: list[dict[str, Any]] = field(default_factory=list)
    #: Answer requests with `tools` with this HTTP status, like a server without tool calling (llama.cpp's
    #: llama-server without --jinja answers 500 "tools param requires --jinja flag"); 0: accept them.
    reject_tools: int = 0

    def __post_init__(self) -> None:
        server = self
        lock = threading.Lock()

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802
                body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
                with lock:
                    server.bodies.append(body)
                    number = len(server.bodies)
                if server.reject_tools and body.get("tools"):
                    error = {"code": server.reject_tools, "message": "tools param requires --jinja flag",
                             "type": "server_error"}
                    return self._send(server.reject_tools, json.dumps({"error": error}).encode())
                act = server.script(body)
                time.sleep(act.delay)
                if act.raw_body is not None:
                    return self._send(act.status, act.raw_body)
                calls = [{"id": f"call_{number}_{i}", "type": "function",
                          "function": {"name": "shell", "arguments": json.dumps({"command": c})}}
                         for i, c in enumerate(act.commands)] + list(act.raw_calls)
                message: dict[str, Any] = {"role": "assistant", "content": act.content}
                if calls:
                    message["tool_calls"] = calls
                sent = sum(len(str(m.get("content") or "")) for m in body.get("messages", []))
                payload = {"id": f"chatcmpl-{number}", "object": "chat.completion", "created": 0,
                           "model": body.get("model", ""),
                           "choices": [{"index": 0, "message": message,
                                        "finish_reason": "tool_calls" if calls else "stop"}],
                           "usage": {"prompt_tokens": sent // 4 + 1, "completion_tokens": 7,
                                     "total_tokens": sent // 4 + 8}}
                self._send(act.status, json.dumps(payload).encode())

            def _send(self, status: int, data: bytes) -> None:
                try:
                    self.send_response(status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __enter__(self) -> AgentServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
