"""Endpoint compatibility through the real `openai` client against loopback servers that behave like real ones:
the structured-output form is probed once per base URL and model and kept in the catalog; llama.cpp's HTTP 500
to json_schema is a format refusal, not an outage; a grammar-limited server gets the schema without the keywords
it cannot compile; the whole error text is the evidence."""

from __future__ import annotations

import json
import random
import sqlite3

import pytest

from forge.catalog import Catalog
from forge.llm.config import LLMConfig
from forge.llm.endpoint import CatalogEndpoints
from forge.llm.flags import LLMFlags
from forge.llm.messages import GRAMMAR_UNSAFE, grammar_schema
from forge.llm.openai_backend import OpenAIBackend
from kit.llm import LLMConfigError, LLMRequest
from tests.llmserver import LLAMA_CPP_REFUSAL, LLMServer, Reply, Server
from workflows.common import INSTRUCTION_SCHEMA
from workflows.tb.content import MAILBOX_SCHEMA

GOOD = json.dumps({"instruction": "Sort the rows by Amount, largest first."})
LLAMA_CPP = Server(json_schema=False, grammar_limited=True)


def request(prompt: str = "Phrase the task.") -> LLMRequest:
    return LLMRequest("instruction", prompt, INSTRUCTION_SCHEMA, lambda rng: {}, random.Random(7))


def backend(server: LLMServer, catalog: Catalog | None = None, **settings) -> OpenAIBackend:
    values = {"backend": "openai", "model": "small-model", "base_url": server.base_url, "backoff": 0.01,
              "max_wait": 1.0, "timeout": 5.0} | settings
    return OpenAIBackend(LLMConfig.model_validate(values), catalog,
                         endpoints=CatalogEndpoints(catalog) if catalog is not None else None)


def endpoint_rows(catalog: Catalog) -> list[tuple]:
    path = catalog.url.removeprefix("sqlite:///")
    return sqlite3.connect(path).execute("SELECT base_url, model, structured, evidence FROM llm_endpoints").fetchall()


def test_a_llama_cpp_server_is_probed_once_and_sent_the_schema_it_enforces_without_grammar_breakers(tmp_path):
    catalog = Catalog(f"sqlite:///{tmp_path / 'c.db'}")
    with LLMServer(lambda body: Reply(GOOD), LLAMA_CPP) as server:
        first = backend(server, catalog)
        assert first.complete(request()).text == GOOD
        probes = server.served.probes
        second = backend(server, catalog)  # another run: the catalog knows the endpoint (and the answer)
        assert second.complete(request()).cached
    assert probes == 2 and server.served.probes == 2  # json_schema refused, json_object_schema enforced; once
    assert server.served.statuses == {200: 1}  # no request was refused, none retried as "endpoint down"
    sent = server.served.bodies[0]["response_format"]
    assert sent == {"type": "json_object", "schema": grammar_schema(INSTRUCTION_SCHEMA)}
    assert "maxLength" not in json.dumps(sent) and "maxLength" in json.dumps(INSTRUCTION_SCHEMA)
    # The full schema, keywords and all, is still what the model reads (and what the answer is validated with).
    assert '"maxLength":1200' in server.served.bodies[0]["messages"][0]["content"]
    [(url, model, structured, evidence)] = endpoint_rows(catalog)
    assert (url, model, structured) == (server.base_url, "small-model", "json_object_schema")
    assert "Input should be 'text' or 'json_object'" in evidence  # the whole error, not its first line
    assert evidence.startswith("json_schema: rejected, HTTP 500: 1 validation error")
    assert "json_object_schema: enforced" in evidence
    assert "json_object_schema" in second.endpoint_note


def test_a_500_to_json_schema_during_a_run_steps_down_at_once_and_records_the_whole_error(tmp_path):
    catalog = Catalog(f"sqlite:///{tmp_path / 'c.db'}")
    with LLMServer(lambda body: Reply(GOOD), Server(json_schema=False)) as server:
        llm = backend(server, catalog, structured="json_schema", max_attempts=4)
        assert llm.complete(request()).text == GOOD
        assert llm.complete(request("Phrase another task.")).text == GOOD
    assert server.served.statuses == {500: 1, 200: 2}  # refused once, not retried 4 times
    assert [b["response_format"]["type"] for b in server.served.bodies] == ["json_schema", "json_object",
                                                                             "json_object"]
    [(_, _, structured, evidence)] = endpoint_rows(catalog)
    assert structured == "json_object_schema"
    assert " ".join(LLAMA_CPP_REFUSAL.split()) in evidence


def test_a_grammar_limited_server_never_sees_the_keywords_its_builder_cannot_take(tmp_path):
    catalog = Catalog(f"sqlite:///{tmp_path / 'c.db'}")
    mailbox = LLMRequest("content", "Write a mailbox.", MAILBOX_SCHEMA, lambda rng: {}, random.Random(1))
    with LLMServer(lambda body: Reply('{"messages": []}'), Server(grammar_limited=True)) as server:
        llm = backend(server, catalog)
        llm.complete(mailbox)
    assert llm.mode == "json_object_schema"  # json_schema with maxLength/pattern failed in the probe
    assert server.served.statuses == {200: 1}
    sent = server.served.bodies[0]["response_format"]["schema"]
    text = json.dumps(sent)
    assert not any(f'"{k}"' in text for k in ("maxLength", "minLength", "pattern"))
    # ... but a property that is merely *called* like a keyword survives
    attachment = sent["properties"]["messages"]["items"]["properties"]["attachments"]["items"]
    assert attachment["properties"]["format"] == {"enum": ["pdf", "csv", "txt"]}


def test_a_server_that_ignores_the_format_gets_json_mode_with_the_schema_in_the_prompt(tmp_path):
    catalog = Catalog(f"sqlite:///{tmp_path / 'c.db'}")
    with LLMServer(lambda body: Reply(GOOD), Server(ignores_format=True)) as server:
        llm = backend(server, catalog)
        llm.complete(request())
    assert llm.mode == "json_object" and server.served.probes == 3
    assert server.served.bodies[0]["response_format"] == {"type": "json_object"}
    [(_, _, _, evidence)] = endpoint_rows(catalog)
    assert "json_schema: accepted but not enforced" in evidence


def test_an_explicit_structured_flag_skips_the_probe(tmp_path):
    with LLMServer(lambda body: Reply(GOOD), LLAMA_CPP) as server:
        backend(server, structured="json_object_schema").complete(request())
    assert server.served.probes == 0 and server.served.statuses == {200: 1}
    flags = {"backend": "openai", "model": "m", "base_url": "http://127.0.0.1:9/v1"}
    assert LLMFlags(**flags, structured="json_object").settings().structured == "json_object"
    with pytest.raises(LLMConfigError, match="field structured='grammar'"):
        LLMFlags(**flags, structured="grammar").settings()


def test_grammar_schema_drops_only_keywords():
    schema = {"type": "object", "properties": {"pattern": {"type": "string", "pattern": "^a$", "maxLength": 3}},
              "$schema": "x", "required": ["pattern"]}
    assert grammar_schema(schema) == {"type": "object", "properties": {"pattern": {"type": "string"}},
                                      "required": ["pattern"]}
    assert "maxLength" in GRAMMAR_UNSAFE and schema["properties"]["pattern"]["maxLength"] == 3  # a copy


def test_structured_probe_probes_again_and_replaces_the_catalog_verdict(tmp_path):
    catalog = Catalog(f"sqlite:///{tmp_path / 'c.db'}")
    with LLMServer(lambda body: Reply(GOOD), LLAMA_CPP) as server:
        backend(server, catalog).complete(request())
    with LLMServer(lambda body: Reply(GOOD)) as upgraded:  # the same address and model, a newer server
        CatalogEndpoints(catalog).save(upgraded.base_url, "small-model", endpoint_verdict(catalog))
        assert backend(upgraded, catalog).structured() == "json_object_schema"  # auto trusts the catalog
        assert backend(upgraded, catalog, structured="probe").structured() == "json_schema"
    assert [row[2] for row in endpoint_rows(catalog) if row[0] == upgraded.base_url] == ["json_schema"]


def endpoint_verdict(catalog: Catalog):
    [(url, model, _, _)] = endpoint_rows(catalog)
    return CatalogEndpoints(catalog).load(url, model)
