"""The OpenAI backend against a real chat-completions server on loopback, through the real `openai` client:
retries (429 + Retry-After, 500, timeouts), structured-output modes, refusals, truncation, config errors."""

from __future__ import annotations

import json
import random
import time

import pytest

from forge.catalog import Catalog
from forge.llm.config import LLMConfig
from forge.llm.openai_backend import OpenAIBackend
from forge.llm.prices import Price
from kit.llm import LLMConfigError, LLMRequest
from tests.llmserver import LLMServer, Reply, Script

SCHEMA = {"type": "object", "required": ["instruction"], "properties": {"instruction": {"type": "string"}}}
GOOD = json.dumps({"instruction": "Sort the rows by Amount, largest first."})


def request(node: str = "instruction") -> LLMRequest:
    return LLMRequest(node, "Phrase the task.", SCHEMA, lambda rng: {}, random.Random(7))


def backend(server: LLMServer, cache: Catalog | None = None, **settings) -> OpenAIBackend:
    values = {"backend": "openai", "model": "test-model", "base_url": server.base_url, "backoff": 0.01,
              "max_wait": 5.0, "timeout": 5.0, "prices": {"test-model": Price(1.0, 2.0)}} | settings
    return OpenAIBackend(LLMConfig.model_validate(values), cache)


def test_normal_answer_carries_usage_and_cost_and_is_cached_at_once(tmp_path):
    catalog = Catalog(f"sqlite:///{tmp_path / 'c.db'}")
    with LLMServer(Script([Reply(GOOD)])) as server:
        response = backend(server, catalog).complete(request())
        again = backend(server, catalog).complete(request())
    assert (response.text, response.ok, response.problem, response.attempts) == (GOOD, True, "", 1)
    assert (response.prompt_tokens, response.completion_tokens) == (server.served.prompt_tokens,
                                                                    server.served.completion_tokens)
    assert response.cost_usd == pytest.approx((response.prompt_tokens * 1.0 + response.completion_tokens * 2.0) / 1e6)
    assert response.cache_entry is None  # already stored: a killed run keeps it
    assert (again.text, again.cached, again.attempts, again.prompt_tokens) == (GOOD, True, 0, response.prompt_tokens)
    assert server.served.requests == 1
    body = server.served.bodies[0]
    assert body["response_format"]["type"] == "json_schema"
    assert body["response_format"]["json_schema"]["schema"] == SCHEMA
    assert (body["model"], body["temperature"], body["max_tokens"]) == ("test-model", 0.7, 4096)
    assert isinstance(body["seed"], int)


def test_429_waits_what_retry_after_says_then_succeeds():
    script = Script([Reply(status=429, headers={"Retry-After": "1"}, error="rate limited"), Reply(GOOD)])
    with LLMServer(script) as server:
        start = time.perf_counter()
        response = backend(server).complete(request())
        waited = time.perf_counter() - start
    assert (response.text, response.attempts) == (GOOD, 2)
    assert waited >= 0.95  # backoff alone would be ~0.02 s: the server's Retry-After was honoured
    assert server.served.statuses == {429: 1, 200: 1}


def test_500s_are_retried_with_backoff_until_the_attempts_run_out():
    with LLMServer(Script([Reply(status=500)] * 2 + [Reply(GOOD)])) as server:
        assert backend(server).complete(request()).attempts == 3
    with LLMServer(Script([], then=lambda body: Reply(status=503))) as server:
        response = backend(server, max_attempts=3).complete(request())
    assert (response.ok, response.attempts, response.text) == (False, 3, "")
    assert "no answer after 3 attempt(s): HTTP 503" in response.problem
    assert server.served.requests == 3  # bounded: exactly max_attempts requests


def test_an_answer_slower_than_the_timeout_is_abandoned_and_retried():
    with LLMServer(Script([Reply(GOOD, delay=3.0), Reply(GOOD)])) as server:
        response = backend(server, timeout=1.0).complete(request())
    assert (response.text, response.attempts, response.ok) == (GOOD, 2, True)
    assert server.served.requests == 2


def test_refusal_truncation_and_empty_answers_come_back_as_problems():
    replies = [Reply(None, refusal="I can't help with that."),
               Reply('{"instruction": "Sort the', finish_reason="length"), Reply("   ")]
    with LLMServer(Script(replies)) as server:
        llm = backend(server, max_tokens_per_call=64)
        refused, truncated, empty = (llm.complete(request()) for _ in range(3))
    assert refused.ok and refused.problem == "the model refused: I can't help with that."
    assert truncated.text == '{"instruction": "Sort the'
    assert truncated.problem.startswith("the answer was cut off at the 64-token limit (finish_reason=length)")
    assert empty.problem == "the answer was empty"


def test_a_server_without_json_schema_output_is_asked_in_json_mode_with_the_schema_in_the_prompt():
    def responder(body):
        if body.get("response_format", {}).get("type") == "json_schema":
            return Reply(status=400, error="response_format json_schema is not supported by this server")
        return Reply(GOOD)

    with LLMServer(responder) as server:
        llm = backend(server)
        assert llm.complete(request()).text == GOOD
        assert llm.complete(request()).text == GOOD
    assert [b.get("response_format", {}).get("type") for b in server.served.bodies] == [
        "json_schema", "json_object", "json_object"]  # learnt once, remembered
    system = server.served.bodies[1]["messages"][0]["content"]
    assert json.dumps(SCHEMA, sort_keys=True, separators=(",", ":")) in system


def test_a_rejected_key_or_model_stops_the_run_with_a_fix():
    with (LLMServer(Script([Reply(status=401, error="invalid api key")])) as server,
          pytest.raises(LLMConfigError, match=r"refused model 'test-model': HTTP 401.*OPENAI_API_KEY")):
        backend(server).complete(request())
    assert server.served.requests == 1  # not retried
