"""The student's answer cache is keyed on endpoint, model and checkpoint: a new checkpoint served under the same
model name is asked again, never answered from the old one's cache; the same checkpoint is replayed; --checkpoint
names it; --no-cache neither replays nor stores. End to end through `forge student run` against a real HTTP
server on loopback (the real `openai` client), which serves one model name from a checkpoint the test swaps."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from forge.cli import app
from forge.student_cache import PROBE
from tests.gatekit import make_package
from workflows.os.copy import WORKFLOW

runner = CliRunner()


class Server:
    """`/v1/models` and `/v1/chat/completions` (plain or streamed) for model `tiny`, answered by `checkpoint`.
    Like llama.cpp: `created` is the time of the request, and a fine-tune's metadata equals its base's."""

    def __init__(self) -> None:
        self.checkpoint = "base"
        self.instruction = "?"  # the task's: a request that carries it is an agent turn (not a probe)
        self.episode_requests: list[str] = []  # the checkpoint that answered each agent turn
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:  # noqa: N802
                self._send({"object": "list", "data": [{"id": "tiny", "object": "model", "created": int(time.time()),
                                                        "owned_by": "llamacpp", "meta": {"n_params": 135_000_000}}]})

            def do_POST(self) -> None:  # noqa: N802
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                messages = body.get("messages", [])
                if messages == PROBE:
                    content = f"{server.checkpoint}: pear\nlake\nhill"
                else:
                    content = f"I am done ({server.checkpoint})."
                    if server.instruction in json.dumps(messages, ensure_ascii=False):
                        server.episode_requests.append(server.checkpoint)
                reply = {"id": "x", "object": "chat.completion", "created": 0, "model": "tiny",
                         "system_fingerprint": "b4000-abc",
                         "choices": [{"index": 0, "finish_reason": "stop",
                                      "message": {"role": "assistant", "content": content}}],
                         "usage": {"prompt_tokens": 50, "completion_tokens": 5, "total_tokens": 55}}
                if not body.get("stream"):
                    self._send(reply)
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()
                chunk = {"id": "x", "object": "chat.completion.chunk", "created": 0, "model": "tiny"}
                for delta, finish in (({"role": "assistant", "content": content}, None), ({}, "stop")):
                    event = {**chunk, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
                    self.wfile.write(b"data: " + json.dumps(event).encode() + b"\n\n")
                self.wfile.write(b"data: " + json.dumps({**chunk, "choices": [], "usage": reply["usage"]}).encode()
                                 + b"\n\ndata: [DONE]\n\n")

            def _send(self, data: dict[str, Any]) -> None:
                raw = json.dumps(data).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()


@pytest.fixture
def server() -> Iterator[Server]:
    s = Server()
    yield s
    s.httpd.shutdown()


def run(server: Server, package: Path, out: Path, db: str, *extra: str) -> str:
    result = runner.invoke(app, ["student", "run", str(package), "--out", str(out), "--model", "tiny", "--base-url",
                                 server.url, "--db", db, "--protocol", "text", "--max-steps", "2", *extra])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.slow
def test_a_new_checkpoint_under_the_same_name_is_asked_again(server, tmp_path):
    package = make_package(WORKFLOW, {"what": "file_bak"}, tmp_path / "pkg", seed=3)
    server.instruction = json.loads((package / "task.json").read_text())["instruction"]
    db = f"sqlite:///{tmp_path / 'forge.db'}"
    said = run(server, package, tmp_path / "r1", db)
    assert "answer cache keyed on" in said and "server fingerprint" in said
    assert server.episode_requests == ["base"]
    run(server, package, tmp_path / "r2", db)  # same checkpoint: replayed from the cache
    assert server.episode_requests == ["base"]
    server.checkpoint = "finetuned"  # the training loop deployed a new checkpoint under the old name
    run(server, package, tmp_path / "r3", db)
    assert server.episode_requests == ["base", "finetuned"], "the new checkpoint answered, not the old cache"
    messages = json.loads(next((tmp_path / "r3").rglob("messages.json")).read_text())["messages"]
    assert "(finetuned)" in messages[-1]["content"]
    run(server, package, tmp_path / "r4", db, "--no-cache")
    assert server.episode_requests[-1] == "finetuned" and len(server.episode_requests) == 3
    said = run(server, package, tmp_path / "r5", db, "--checkpoint", "step-2000")  # named: not probed
    assert "checkpoint 'step-2000' (--checkpoint)" in said and len(server.episode_requests) == 4
    run(server, package, tmp_path / "r6", db, "--checkpoint", "step-2000")
    assert len(server.episode_requests) == 4, "the named checkpoint's answers are replayed"
