"""The model writes only a sketch (`llm_node(sketch=...)`); the seeded generator writes the rest.

Offline output must not depend on the sketch (same values as the generator's whole answer), the request sent to a real
OpenAI-compatible server must carry only the asked fields' schema, and a model's asked fields must win over the
generator's in the merged answer. A repair request quotes at most the head of a rejected answer.
"""

from __future__ import annotations

import json
import random

import pytest
from jsonschema import Draft202012Validator

from forge.llm.config import LLMConfig
from forge.llm.messages import MAX_QUOTED_ANSWER, build_messages
from forge.llm.openai_backend import OpenAIBackend
from kit.dag import NodeContext, fields_sketch, llm_node, sketch_schema
from kit.errors import WorkflowError
from kit.llm import LLMRequest, OfflineBackend, Repair
from tests.llmserver import LLMServer, Reply

SCHEMA = {"type": "object", "additionalProperties": False, "required": ["name", "rows"],
          "properties": {"name": {"type": "string"}, "rows": {"type": "array", "items": {"type": "integer"}}}}


def generator(rng: random.Random, values: dict) -> dict:
    return {"rows": [rng.randint(0, 99) for _ in range(5)], "name": f"gen-{rng.randint(0, 9)}"}


def node(ask: tuple[str, ...] = ()):
    return llm_node("content", kind="llm", inputs=("plan",), output="table", prompt="vscode_content.txt",
                    schema=SCHEMA, offline=generator, sketch=fields_sketch(SCHEMA, ask) if ask else None)


def run(ask: tuple[str, ...], backend) -> dict:
    ctx = NodeContext({}, 7, "skill.x", 0, backend)
    return node(ask).fn(ctx, {"plan": {"language": "python"}})["table"]


def test_offline_output_does_not_depend_on_the_sketch():
    assert run(("name",), OfflineBackend()) == run((), OfflineBackend())


def test_the_model_writes_only_the_asked_fields_and_the_generator_the_rest():
    bodies: list[dict] = []

    def model(body: dict) -> Reply:
        bodies.append(body)
        return Reply(json.dumps({"name": "from-the-model"}))

    with LLMServer(model) as server:
        config = LLMConfig(backend="openai", model="m", base_url=server.base_url, backoff=0.01, timeout=5,
                           max_attempts=1, structured="json_schema")
        table = run(("name",), OpenAIBackend(config, None))
    offline = run((), OfflineBackend())
    assert table == {"name": "from-the-model", "rows": offline["rows"]}
    sent = bodies[0]["response_format"]["json_schema"]["schema"]
    assert sent == sketch_schema(SCHEMA, ("name",)) and list(sent["properties"]) == ["name"]
    assert sent["required"] == ["name"]


def test_an_unknown_asked_field_is_a_workflow_error():
    with pytest.raises(WorkflowError, match="'nope'.* not properties"):
        node(("nope",))


def test_a_repair_quotes_only_the_head_of_the_rejected_answer():
    answer = json.dumps({"rows": list(range(2000))})
    request = LLMRequest("content", "Write a table.", SCHEMA, lambda rng: {}, random.Random(0),
                         Repair(answer, "answer does not fit the schema at <root>: 'name' is a required property"))
    messages = build_messages(request, "json_schema")
    assert len(messages[2]["content"]) <= MAX_QUOTED_ANSWER + 10 < len(answer)
    assert "'name' is a required property" in messages[3]["content"]


SEEDS = range(12)


def _whole(generate, seed: int) -> dict:
    """A generator's answer as a model's would arrive (JSON round trip), for one seed."""
    return json.loads(json.dumps(generate(random.Random(seed)), sort_keys=True))


@pytest.mark.parametrize("name", ["pool", "deck", "document", "mailbox"])
def test_family_sketches_keep_offline_output_and_fit_their_schema(name):
    """expand(project(whole), whole) == whole: offline packages are the same as before the sketch; and what the
    loopback model answers (the projection) fits the schema the model is sent."""
    from workflows.multi import kit as mc

    planner, _, generate = mc.PARTS[name]
    sketch = mc.SKETCHES[name]
    validator = Draft202012Validator(sketch.schema)
    for seed in SEEDS:
        ctx = NodeContext({}, seed, f"skill.{name}", 0, OfflineBackend())
        plan = planner(ctx, {})
        whole = _whole(lambda rng, plan=plan: generate(rng, plan), seed)
        part = sketch.project(whole)
        assert sketch.expand(part, whole) == whole
        assert list(validator.iter_errors(part)) == []
        assert len(json.dumps(part)) < len(json.dumps(whole))


def test_a_model_mailbox_replaces_only_the_human_mail():
    from workflows.multi.kit import PARTS
    from workflows.tb.content import HUMAN_KINDS, MAILBOX_SKETCH

    planner, _, generate = PARTS["mailbox"]
    plan = planner(NodeContext({}, 3, "skill.mailbox", 0, OfflineBackend()), {})
    whole = _whole(lambda rng: generate(rng, plan), 3)
    written = {"messages": [{"sender_name": "Ana Pereira", "sender_email": "ana.pereira@example.org",
                             "subject": "Lunch on Friday", "body": "Hi, lunch on Friday? Best, Ana"}]}
    mailbox = MAILBOX_SKETCH.expand(written, whole)
    human = [i for i, m in enumerate(whole["messages"]) if m["kind"] in HUMAN_KINDS]
    assert human, "the template mailbox has human mail"
    first = mailbox["messages"][human[0]]
    assert first["subject"] == "Lunch on Friday" and first["date"] == whole["messages"][human[0]]["date"]
    others = [m for i, m in enumerate(mailbox["messages"]) if i != human[0]]
    assert others == [m for i, m in enumerate(whole["messages"]) if i != human[0]]
