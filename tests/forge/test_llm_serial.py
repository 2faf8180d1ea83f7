"""Timeouts and cancellation against loopback servers through the real `openai` client: a server that serves one
request at a time (llama.cpp's Python server) makes requests queue inside it; the client notices, lowers its
concurrency and does not count the queueing against a request's attempts; `cancel()` (Ctrl-C) abandons the
requests in flight and those waiting for a slot at once."""

from __future__ import annotations

import json
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from forge.llm.config import LLMConfig
from forge.llm.openai_backend import OpenAIBackend
from kit.llm import LLMCancelled, LLMRequest
from tests.llmserver import LLMServer, Reply, Server

SCHEMA = {"type": "object", "required": ["instruction"], "properties": {"instruction": {"type": "string"}}}
GOOD = json.dumps({"instruction": "Sort the rows by Amount, largest first."})


def request(i: int) -> LLMRequest:
    return LLMRequest("instruction", f"Phrase task {i}.", SCHEMA, lambda rng: {}, random.Random(i))


def backend(server: LLMServer, **settings) -> OpenAIBackend:
    values = {"backend": "openai", "model": "small-model", "base_url": server.base_url, "backoff": 0.05,
              "max_wait": 1.0, "structured": "json_schema"} | settings
    return OpenAIBackend(LLMConfig.model_validate(values))


def test_against_a_serializing_server_concurrency_drops_and_queueing_costs_no_attempt():
    # Each generation takes 0.4 s; 6 requests at concurrency 4 would wait up to 1.6 s inside the server, longer
    # than the 1 s a generation may take. Counted as attempts, the queueing would use up both attempts of some.
    with LLMServer(lambda body: Reply(GOOD, delay=0.4), Server(serial=True)) as server:
        llm = backend(server, concurrency=4, timeout=1.0, max_attempts=2)
        with ThreadPoolExecutor(6) as pool:
            responses = list(pool.map(lambda i: llm.complete(request(i)), range(6)))
    assert all(r.ok and r.text == GOOD for r in responses), [r.problem for r in responses]
    assert llm._slots.limit < 4
    assert llm.concurrency_notes and "seems to serve one request at a time" in llm.concurrency_notes[0]
    assert server.served.max_in_flight == 1


def test_a_parallel_server_keeps_the_configured_concurrency():
    with LLMServer(lambda body: Reply(GOOD, delay=0.4)) as server:
        llm = backend(server, concurrency=4, timeout=1.0, max_attempts=2)
        with ThreadPoolExecutor(6) as pool:
            responses = list(pool.map(lambda i: llm.complete(request(i)), range(6)))
    assert all(r.ok and r.attempts == 1 for r in responses)
    assert llm._slots.limit == 4 and not llm.concurrency_notes and server.served.max_in_flight == 4


def test_cancel_abandons_requests_in_flight_and_waiting_for_a_slot_within_a_second():
    with LLMServer(lambda body: Reply(GOOD, delay=30.0)) as server:
        llm = backend(server, concurrency=1, timeout=60.0)
        errors: list[BaseException] = []

        def call(i: int) -> None:
            try:
                llm.complete(request(i))
            except BaseException as exc:  # noqa: BLE001 - collected for the assertion
                errors.append(exc)

        threads = [threading.Thread(target=call, args=(i,)) for i in range(3)]  # 1 in flight, 2 waiting
        for thread in threads:
            thread.start()
        time.sleep(0.5)
        start = time.perf_counter()
        llm.cancel()
        for thread in threads:
            thread.join(5)
        stopped = time.perf_counter() - start
    assert stopped < 1.0 and not any(t.is_alive() for t in threads)
    assert len(errors) == 3 and all(isinstance(e, LLMCancelled) for e in errors)
    assert server.served.requests == 1  # the waiting ones were never sent
    with pytest.raises(LLMCancelled):
        llm.complete(request(9))
