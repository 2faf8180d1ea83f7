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

from forge.agent.chat import TOOLS_PROBE
from forge.llm.endpoint import SPEED_PROMPT


@dataclass(frozen=True)
class Act:
    """One assistant turn: `commands` become shell tool calls; `raw_calls` are sent as they are."""

    content: str | None = None
    commands: tuple[str, ...] = ()
    raw_calls: tuple[dict[str, Any], ...] = ()
    status: int = 200
    raw_body: bytes | None = None  # sent instead of a chat completion (garbage from a broken server)
    delay: float = 0.0  # seconds to wait before answering (a slow model)
    drip: float = 0.0  # seconds between streamed pieces (~one token each): a stuck server dripping bytes
    huge: int = 0  # characters of filler content streamed after `content`, never built whole (a 200 MB reply)
    usage: bool = True  # a streamed reply ends with the usage chunk (some servers never send one)


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
    #: Accept `tools` but never return a tool call (the tool list is dropped before the model sees it): the
    #: script's commands come back as text, as such a model writes them.
    ignore_tools: bool = False
    #: Answer `stream: true` with one plain JSON body (a server that does not stream).
    ignore_stream: bool = False
    #: Tool-calling probes answered (not passed to the script, not in `bodies`).
    probes: int = 0
    #: Streamed pieces (~one token each) come at this rate (0: at once); the speed probe is answered at it too.
    tokens_per_second: float = 0.0
    speed_probes: int = 0
    #: Characters streamed to clients that hung up before the end: generated, never delivered.
    abandoned_chars: int = 0

    def __post_init__(self) -> None:
        server = self
        lock = threading.Lock()

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802
                body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
                probe = any(m.get("content") == TOOLS_PROBE for m in body.get("messages", [])[1:2])
                speed = any(m.get("content") == SPEED_PROMPT for m in body.get("messages", [])[1:2])
                with lock:
                    if speed:
                        server.speed_probes += 1
                    elif probe:
                        server.probes += 1
                    else:
                        server.bodies.append(body)
                    number = len(server.bodies)
                if server.reject_tools and body.get("tools"):
                    error = {"code": server.reject_tools, "message": "tools param requires --jinja flag",
                             "type": "server_error"}
                    return self._send(server.reject_tools, json.dumps({"error": error}).encode())
                if speed:  # a model writes until its limit
                    return self._reply(body, Act("word" * int(body.get("max_tokens") or 16), usage=False), 0)
                if probe:
                    act = Act("DONE") if server.ignore_tools else Act(commands=("echo ready",))
                    return self._reply(body, act, 0)
                act = server.script(body)
                if server.ignore_tools and body.get("tools") and act.commands:  # the model writes them as text
                    text = "".join(f"```bash\n{c}\n```\n" for c in act.commands[:1])
                    act = Act((act.content or "") + text, delay=act.delay, drip=act.drip)
                time.sleep(act.delay)
                if act.raw_body is not None:
                    return self._send(act.status, act.raw_body)
                self._reply(body, act, number)

            def _reply(self, body: dict[str, Any], act: Act, number: int) -> None:
                calls = [{"id": f"call_{number}_{i}", "type": "function",
                          "function": {"name": "shell", "arguments": json.dumps({"command": c})}}
                         for i, c in enumerate(act.commands)] + list(act.raw_calls)
                message: dict[str, Any] = {"role": "assistant", "content": act.content}
                if calls:
                    message["tool_calls"] = calls
                sent = sum(len(str(m.get("content") or "")) for m in body.get("messages", []))
                usage = {"prompt_tokens": sent // 4 + 1, "completion_tokens": 7, "total_tokens": sent // 4 + 8}
                finish = "tool_calls" if calls else "stop"
                if body.get("stream") and not server.ignore_stream and act.status == 200:
                    return self._stream(body, act, message, finish, usage, number)
                payload = {"id": f"chatcmpl-{number}", "object": "chat.completion", "created": 0,
                           "model": body.get("model", ""),
                           "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                           "usage": usage}
                self._send(act.status, json.dumps(payload).encode())

            def _stream(self, body: dict[str, Any], act: Act, message: dict[str, Any], finish: str,
                        usage: dict[str, int], number: int) -> None:
                """Server-sent events: content in ~4-character pieces (then `huge` filler), each tool call as a
                name delta and argument pieces, the finish reason, usage when asked for, [DONE]."""
                sent = 0

                def event(delta: dict[str, Any], finish_reason: str | None = None) -> None:
                    chunk = {"id": f"chatcmpl-{number}", "object": "chat.completion.chunk",
                             "model": body.get("model", ""),
                             "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}]}
                    self.wfile.write(b"data: " + json.dumps(chunk).encode() + b"\n\n")
                    self.wfile.flush()

                drip = act.drip or (1 / server.tokens_per_second if server.tokens_per_second else 0.0)

                def pieces(text: str) -> Any:
                    for start in range(0, len(text), 4):
                        if drip:
                            time.sleep(drip)
                        yield text[start:start + 4]

                try:
                    self.send_response(200)
                    self.send_header("content-type", "text/event-stream")
                    self.send_header("connection", "close")
                    self.end_headers()
                    self.close_connection = True
                    event({"role": "assistant", "content": ""})
                    for piece in pieces(message.get("content") or ""):
                        event({"content": piece})
                        sent += len(piece)
                    block = "a" * 65536
                    for start in range(0, act.huge, len(block)):
                        piece = block[:min(len(block), act.huge - start)]
                        event({"content": piece})
                        sent += len(piece)
                    for index, call in enumerate(message.get("tool_calls", [])):
                        event({"tool_calls": [{"index": index, "id": call.get("id"), "type": "function",
                                               "function": {"name": call["function"].get("name"),
                                                            "arguments": ""}}]})
                        arguments = call["function"].get("arguments")
                        if not isinstance(arguments, str):  # a quirk kept as it is: an object, not a string
                            event({"tool_calls": [{"index": index, "function": {"arguments": arguments}}]})
                            continue
                        for piece in pieces(arguments):
                            event({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
                            sent += len(piece)
                    event({}, finish)
                    if (body.get("stream_options") or {}).get("include_usage") and act.usage:
                        chunk = {"id": f"chatcmpl-{number}", "object": "chat.completion.chunk", "choices": [],
                                 "usage": usage}
                        self.wfile.write(b"data: " + json.dumps(chunk).encode() + b"\n\n")
                    self.wfile.write(b"data: [DONE]\n\n")
                    self.wfile.flush()
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (deadline, size cap)
                    with lock:
                        server.abandoned_chars += sent

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
