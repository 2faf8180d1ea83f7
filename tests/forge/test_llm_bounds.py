"""Bounded model I/O of the generation backend, against a real loopback server through the real `openai` client:
a total deadline per request (a server dripping bytes is not waited on forever), a size cap on replies (a 200 MB
reply is cut, read in bounded memory and never cached), the tokens of timed-out requests counted (budgets see
them), lenient JSON, the speed probe that fits per-call limits to a slow server, and the progress line."""

from __future__ import annotations

import json
import random
import sqlite3
import time
import tracemalloc

import pytest
from typer.testing import CliRunner

from forge.catalog import Catalog
from forge.cli import app
from forge.llm.budget import Budget
from forge.llm.config import LLMConfig
from forge.llm.endpoint import Speed, fit
from forge.llm.openai_backend import OpenAIBackend
from forge.llm.prices import Price
from forge.llm.stream import CUT_KEEP, reply_cap
from kit.dag import LLMCall, json_in
from kit.llm import LLMRequest
from tests.llmserver import LLMServer, Reply, Script, Server

SCHEMA = {"type": "object", "required": ["instruction"], "properties": {"instruction": {"type": "string"}}}
GOOD = json.dumps({"instruction": "Sort the rows by Amount, largest first, and keep the header row on top."})


def request(prompt: str = "Phrase the task.") -> LLMRequest:
    return LLMRequest("instruction", prompt, SCHEMA, lambda rng: {}, random.Random(7))


def backend(server: LLMServer, cache: Catalog | None = None, **settings) -> OpenAIBackend:
    values = {"backend": "openai", "model": "test-model", "base_url": server.base_url, "backoff": 0.01,
              "max_wait": 1.0, "timeout": 5.0, "structured": "json_schema",
              "prices": {"test-model": Price(1.0, 2.0)}} | settings
    return OpenAIBackend(LLMConfig.model_validate(values), cache)


def settle(server: LLMServer) -> None:
    """Wait until the server's handlers noticed the hang-ups (they count what they sent by then)."""
    time.sleep(1.0)


@pytest.mark.parametrize("kind", [Server(), Server(ignores_stream=True)], ids=["streamed", "plain-json"])
def test_a_reply_dripping_bytes_is_abandoned_at_the_total_deadline(kind):
    """One piece (or, for a server that ignores `stream`, one byte) every 0.3 s: each arrival restarted the
    client's read timeout, so the request was waited on forever. Now the whole request has `timeout` seconds."""
    with LLMServer(Script([], then=lambda body: Reply(GOOD * 20, drip=0.3)), kind) as server:
        start = time.perf_counter()
        response = backend(server, timeout=2.0, max_attempts=2).complete(request())
        took = time.perf_counter() - start
    assert (response.ok, response.attempts) == (False, 2)
    assert "2 s deadline" in response.problem, response.problem
    assert took < 2 * 2.0 + 1.5, f"two attempts of a 2 s deadline took {took:.1f} s"


def test_tokens_of_timed_out_requests_are_counted_by_estimate_and_budgets_see_them(tmp_path):
    """The server generates for 2 s and never reports usage (the client hangs up first): what arrived is counted,
    marked as an estimate, so --max-tokens / --max-cost stop a run that only ever timed out (41,203 tokens were
    generated and 0 counted)."""
    catalog = Catalog(f"sqlite:///{tmp_path / 'c.db'}")
    with LLMServer(Script([], then=lambda body: Reply(GOOD * 50, drip=0.01)), Server()) as server:
        response = backend(server, catalog, timeout=1.5, max_attempts=2).complete(request())
        settle(server)
    assert not response.ok and response.completion_tokens > 50
    generated = server.served.completion_tokens
    assert server.served.abandoned_tokens == generated, "the server's every token was abandoned mid-stream"
    assert abs(response.completion_tokens - generated) <= 2 * 2, (response.completion_tokens, generated)
    assert response.estimated_tokens == response.prompt_tokens + response.completion_tokens > 0
    assert response.cost_usd > 0
    budget = Budget(max_tokens=response.prompt_tokens + response.completion_tokens)
    budget.add([LLMCall.of("instruction", "openai", response)])
    assert budget.exhausted() is not None, "the budget sees tokens of requests that timed out"
    assert catalog.cached_answer("x") is None and not _cache_rows(catalog), "a timed-out answer is never cached"


def test_an_answer_after_a_timed_out_attempt_counts_both_and_caches_only_the_answer(tmp_path):
    catalog = Catalog(f"sqlite:///{tmp_path / 'c.db'}")
    script = Script([Reply(GOOD * 50, drip=0.01)], then=lambda body: Reply(GOOD))
    with LLMServer(script) as server:
        response = backend(server, catalog, timeout=1.0).complete(request())
        settle(server)
    assert (response.ok, response.text, response.attempts) == (True, GOOD, 2)
    assert response.completion_tokens > 20 and 0 < response.estimated_tokens < response.prompt_tokens + \
        response.completion_tokens, "the answer's own usage is the server's; the timed-out attempt's an estimate"
    rows = _cache_rows(catalog)
    assert len(rows) == 1 and rows[0][0] == GOOD and rows[0][1] < response.completion_tokens


def test_a_stream_that_stops_without_its_finish_is_a_broken_connection_not_an_answer():
    """Half an answer followed by a closed connection (a server that crashed) parsed as a complete, wrong answer."""
    with LLMServer(Script([Reply(GOOD, hang_up_after=5)], then=lambda body: Reply(GOOD))) as server:
        response = backend(server).complete(request())
    assert (response.ok, response.text, response.attempts) == (True, GOOD, 2)
    assert response.estimated_tokens > 0, "the broken attempt's tokens are counted by estimate"


@pytest.mark.parametrize("kind", [Server(), Server(ignores_stream=True)], ids=["streamed", "plain-json"])
def test_a_200_mb_reply_is_cut_at_the_cap_in_bounded_memory_and_not_cached(tmp_path, kind):
    catalog = Catalog(f"sqlite:///{tmp_path / 'c.db'}")
    with LLMServer(Script([], then=lambda body: Reply(huge=200_000_000)), kind) as server:
        tracemalloc.start()
        start = time.perf_counter()
        response = backend(server, catalog, timeout=60.0).complete(request())
        took = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert response.ok and "was cut off" in response.problem and f"{reply_cap(4096):,}" in response.problem
    assert len(response.text) <= CUT_KEEP, "only the start is kept as evidence"
    assert peak < 8 * reply_cap(4096) + 4_000_000, f"peak {peak / 1e6:.1f} MB for a 200 MB reply"
    assert took < 20, took
    assert not _cache_rows(catalog), "a reply cut at the cap is not the model's whole answer: never cached"


def test_json_with_raw_control_characters_is_read_leniently():
    raw = '{"instruction": "Sort the rows\nby Amount,\tlargest first."}'
    with pytest.raises(json.JSONDecodeError):
        json.loads(raw)
    assert json_in(raw) == {"instruction": "Sort the rows\nby Amount,\tlargest first."}
    assert json_in(f"Here it is:\n```json\n{raw}\n```") == json_in(raw)


@pytest.mark.parametrize(("speed", "given", "timeouts", "expect_tokens", "says"), [
    # no timeout given, 25 tokens/s: a 4096-token answer takes ~164 s, over the 120 s default: the timeout is raised
    (25, {}, (200, 250), 4096, "--llm-timeout raised from 120 to"),
    # the user's timeout is kept, the per-call limit that was not given is lowered to what fits (a power of two)
    (100, {"timeout": 10.0}, (10, 10), 512, "--max-tokens-per-call lowered from 4096 to 512"),
    # both given: nothing changes, the line names the flags to set
    (100, {"timeout": 10.0, "max_tokens_per_call": 4096}, (10, 10), 4096, "--max-tokens-per-call 512"),
])
def test_the_speed_probe_fits_per_call_limits_to_a_slow_server(speed, given, timeouts, expect_tokens, says):
    values = {"backend": "openai", "model": "test-model", "backoff": 0.01, "structured": "json_schema"} | given
    with LLMServer(lambda body: Reply(GOOD), Server(tokens_per_second=speed)) as server:
        config = LLMConfig.model_validate(values | {"base_url": server.base_url})
        chosen = OpenAIBackend(config)
        response = chosen.complete(request())
    assert response.ok and server.served.speed_probes == 1
    assert says in (chosen.speed_note or ""), chosen.speed_note
    assert timeouts[0] <= chosen.config.timeout <= timeouts[1], chosen.speed_note
    assert chosen.config.max_tokens_per_call == expect_tokens
    assert server.served.bodies[-1]["max_tokens"] == expect_tokens, "the request is sent with the fitted limit"
    if "timeout" in given and "max_tokens_per_call" in given:
        assert "over the 10 s --llm-timeout: answers will time out; set --llm-timeout" in chosen.speed_note


def test_fit_keeps_what_fits_and_names_flags_when_nothing_can():
    config = LLMConfig.model_validate({"backend": "openai", "model": "m", "timeout": 60.0, "max_tokens_per_call": 64})
    same, note = fit(config, Speed(100.0, 0.5))
    assert same is config and "within the 60 s --llm-timeout" in note
    crawling = LLMConfig.model_validate({"backend": "openai", "model": "m", "timeout": 30.0})
    kept, note = fit(crawling, Speed(2.0, 1.0))  # 2 tokens/s: not even 256 tokens fit in 30 s
    assert kept is crawling and "set --llm-timeout 2570" in note and "--max-tokens-per-call" not in note


def test_progress_is_printed_while_requests_are_in_flight():
    lines: list[str] = []
    with LLMServer(lambda body: Reply(GOOD * 4, drip=0.01)) as server:
        config = LLMConfig.model_validate({"backend": "openai", "model": "test-model", "base_url": server.base_url,
                                           "structured": "json_schema", "timeout": 10.0})
        response = OpenAIBackend(config, progress=lines.append, progress_every=0.3).complete(request())
    assert response.ok
    assert lines and "request(s) in flight" in lines[-1] and "tokens/s" in lines[-1], lines


def _cache_rows(catalog: Catalog) -> list[tuple]:
    with catalog.engine.connect() as conn:
        return [tuple(r) for r in conn.exec_driver_sql("SELECT response, completion_tokens FROM llm_cache")]


def test_forge_generate_against_a_server_that_only_times_out_stops_at_the_token_cap(tmp_path):
    """The server streams slowly and never finishes within --llm-timeout: every call fails, yet its tokens are in
    llm_calls (marked as estimates) and --max-tokens stops the run after the task in flight."""
    config = tmp_path / "forge.toml"
    with LLMServer(lambda body: Reply(GOOD * 40, drip=0.02)) as server:
        config.write_text(f'[llm]\nbackend = "openai"\nmodel = "local-model"\nbase_url = "{server.base_url}"\n'
                          'backoff = 0.01\nmax_attempts = 2\nstructured = "json_schema"\n')
        result = CliRunner().invoke(app, [
            "generate", "--skill", "calc.sort.text_asc", "-n", "3", "--seed", "2", "--real-apps", "off",
            "--out", str(tmp_path / "out"), "--db", str(tmp_path / "c.db"), "--config", str(config),
            "--llm-timeout", "1", "--max-tokens", "100", "--concurrency", "1"])
    assert result.exit_code == 0, result.output
    assert "--max-tokens 100 reached" in result.output, result.output
    with sqlite3.connect(tmp_path / "c.db") as conn:
        calls = conn.execute("SELECT ok, prompt_tokens + completion_tokens, estimated_tokens FROM llm_calls").fetchall()
        statuses = conn.execute("SELECT status FROM tasks").fetchall()
    assert calls and all(ok == 0 and spent > 0 and estimated == spent for ok, spent, estimated in calls), calls
    assert statuses == [("infra_fail",)], "one task ran; the cap stopped the others"
