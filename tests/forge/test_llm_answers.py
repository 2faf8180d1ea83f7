"""Model answers that fit the schema but not what the family needs, through the real `openai` client, the real
families, the gate and the catalog: a date column holding "last week", duplicate keys. The content check sends
them back for repair, and a bad last answer is `llm_fail` with the reason — never a family crash, never
`infra_fail`. A node that still fails on a model's answer is `llm_fail` too, so a rerun that takes the answer
from the cache records the same verdict instead of retrying it forever. Composite tasks keep every call of every
part in the ledger, also when a part fails."""

from __future__ import annotations

import json
import random
import sqlite3
from collections import deque
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forge.catalog import Catalog
from forge.generate import Generator, Selection, plan, select_skills
from forge.llm.config import LLMConfig
from forge.llm.openai_backend import OpenAIBackend
from kit.dag import LLMOutputError, NodeContext, Workflow, llm_node, node
from kit.llm import OfflineBackend
from kit.sandbox import Sandbox
from kit.taxonomy import load_taxonomy
from tests.llmserver import LLMServer, Reply, answering, recorded_answers
from workflows.calc.content import check_table
from workflows.chrome.content import check_profile
from workflows.impress.content import check_deck
from workflows.os.content import check_pool
from workflows.tb.content import check_mailbox
from workflows.writer.content import check_document

Edit = Callable[[dict], None] | None


def openai_backend(server: LLMServer, catalog: Catalog | None) -> OpenAIBackend:
    config = LLMConfig(backend="openai", model="test-model", base_url=server.base_url, backoff=0.01, timeout=5,
                       max_attempts=2, structured="json_schema")
    return OpenAIBackend(config, catalog)


class Edited:
    """Answers well, except that the content answers are edited in order by `edits` (None: left as they are)."""

    def __init__(self, answers: dict[str, str], edits: list[Edit]) -> None:
        self.good = answering(answers)
        self.edits = deque(edits)

    def __call__(self, body: dict) -> Reply:
        reply = self.good(body)
        if body["response_format"]["json_schema"]["name"] != "content" or not self.edits:
            return reply
        edit = self.edits.popleft()
        if edit is None:
            return reply
        answer = json.loads(reply.content or "")
        edit(answer)
        return Reply(json.dumps(answer))


def vague_date(table: dict) -> None:
    table["rows"][0][2] = "last week"


def duplicate_key(table: dict) -> None:
    table["rows"][1][0] = table["rows"][0][0]


@pytest.fixture(scope="module")
def taxonomy():
    return load_taxonomy()


def run(taxonomy, skill: str, n: int, edits: list[Edit], tmp_path, name: str = "out"):
    ids = plan(select_skills(taxonomy, Selection(skills=(skill,))), n, 3)
    db = tmp_path / "c.db"
    catalog = Catalog(f"sqlite:///{db}")
    with LLMServer(Edited(recorded_answers(taxonomy, ids), edits)) as server:
        counts = Generator(tmp_path / name, catalog, sandbox=Sandbox(), taxonomy=taxonomy,
                           backend=openai_backend(server, catalog)).run(ids)
    return ids, counts, db, server


def test_schema_valid_but_wrong_tables_are_repaired_or_llm_fail_with_the_reason(taxonomy, tmp_path):
    ids, counts, db, server = run(taxonomy, "calc.sort.numeric_desc", 3, [
        vague_date, vague_date,  # task 0: "last week" twice -> llm_fail
        duplicate_key, None,  # task 1: duplicate keys, repaired
    ], tmp_path)
    assert counts == {"llm_fail": 1, "accepted": 2}
    evidence = dict(sqlite3.connect(db).execute("SELECT id, evidence FROM tasks").fetchall())
    assert "answer content is not usable: column" in evidence[str(ids[0])]
    assert "'last week' is not a date written YYYY-MM-DD" in evidence[str(ids[0])]
    repair = next(b for b in server.served.bodies if len(b["messages"]) == 4)
    assert "must hold unique values" not in repair["messages"][3]["content"]
    assert "'last week' is not a date" in repair["messages"][3]["content"]  # the model is told what to fix
    assert any("must hold unique values" in b["messages"][3]["content"]
               for b in server.served.bodies if len(b["messages"]) == 4)


def test_a_composite_task_whose_second_part_fails_keeps_every_call_of_both_parts(taxonomy, tmp_path):
    # Part 1 (os) asks content + instruction, part 2 (calc) content twice: both bad, so the task is llm_fail.
    ids, counts, db, server = run(taxonomy, "compose.os_copy_then_calc_sort", 1, [None, vague_date, vague_date],
                                  tmp_path)
    assert counts == {"llm_fail": 1}
    nodes = [r[0] for r in sqlite3.connect(db).execute("SELECT node FROM llm_calls ORDER BY id")]
    assert nodes == ["content", "instruction", "content", "content/repair"]
    assert len(nodes) == server.served.requests  # every request the server answered is in the ledger


@pytest.mark.parametrize(("check", "answer", "problem"), [
    (check_table, {"columns": [{"name": "A", "kind": "key"}], "rows": [[1]]}, "columns must be key, category, date"),
    (check_table, {"columns": "x", "rows": None}, "the table cannot be read"),
    (check_table, None, "the table cannot be read"),
    (check_mailbox, {"messages": [{"date": "yesterday"}]}, "is not an ISO date-time"),
    (check_mailbox, {"messages": "x"}, "the mailbox cannot be read"),
    (check_document, {"sections": [{"heading": "Scope"}, {"heading": " scope"}], "items": [], "title": "T",
                      "table": {"header": [], "rows": []}}, "section headings must be unique, but ' scope'"),
    (check_deck, {"title": "Plan", "slides": [{"title": "Plan", "bullets": []}], "spare": [], "images": [],
                  "table": {"header": [], "rows": []}}, "slide titles (cover included) must be unique"),
    (check_profile, {"folders": [], "bar": [{"name": "A", "url": "https://a.org"}], "other": [],
                     "extra": [{"name": "B", "url": "https://a.org", "folder": None}]}, "bookmark URLs must be unique"),
    (check_pool, {"tables": [{"stem": "t", "header": ["a", "b"], "rows": [["1"]]}]}, "row 1 has 1 cells"),
    (check_pool, [], "the pool cannot be read"),
])
def test_content_checks_name_the_problem_and_never_raise(check, answer, problem):
    assert problem in check(answer, {})


def test_every_offline_content_passes_its_check():
    """The content checks hold the offline generators' own contract: they never reject what the families were
    built for (else offline runs would turn into llm_fail)."""
    from workflows.calc.content import generate_table
    from workflows.chrome import kit as chrome_common
    from workflows.chrome.content import check_profile, generate_profile
    from workflows.impress import kit as impress_common
    from workflows.impress.content import check_deck, generate_deck
    from workflows.os import kit as os_common
    from workflows.os.content import check_pool, generate_pool
    from workflows.tb import kit as tb_common
    from workflows.tb.content import generate_mailbox
    from workflows.writer import kit as writer_common
    from workflows.writer.content import check_document, generate_document

    apps = [(tb_common, generate_mailbox, check_mailbox),
            (writer_common, lambda r, p: generate_document(r, theme=p["theme"], kind=p["kind"]), check_document),
            (impress_common, lambda r, p: generate_deck(r, scenario=p["scenario"], n_slides=p["n_slides"]),
             check_deck),
            (chrome_common, lambda r, p: generate_profile(r, persona=p["persona"], n_folders=p["n_folders"]),
             check_profile),
            (os_common, lambda r, p: generate_pool(r, p["scenario"]), check_pool)]
    for seed in range(150):
        rng = random.Random(seed)
        assert check_table(generate_table(rng, n_rows=rng.randint(6, 40)), {}) == ""
        ctx = NodeContext({}, seed, "app.probe", 0, OfflineBackend())
        for module, generate, check in apps:
            plan = module.sample.fn(ctx, {"params": {}})["plan"]
            assert check(generate(random.Random(seed), plan), {}) == "", (module.__name__, seed)


SCHEMA = {"type": "object", "required": ["when"], "properties": {"when": {"type": "string"}}}


@node("goal", "goal", ("answer",), ("instruction", "assets", "rubric", "solutions", "launch"))
def _goal(ctx, values):
    import datetime as dt

    day = dt.date.fromisoformat(values["answer"]["when"])  # crashes on a date the model wrote badly
    return {"instruction": str(day), "assets": [], "rubric": [], "solutions": [], "launch": []}


@node("sample", "sample", ("params",), ("facts",))
def _sample(ctx, values):
    return {"facts": {"what": "a date"}}


TOY = Workflow("toy", 1, ("os",), "a toy", {}, (
    _sample,
    llm_node("content", kind="llm", inputs=("facts",), output="answer", prompt="instruction.txt", schema=SCHEMA,
             offline=lambda rng, values: {"when": "2024-05-01"}),
    _goal))


def test_a_node_failing_on_a_model_answer_is_llm_fail_also_when_the_answer_comes_from_the_cache(tmp_path):
    catalog = Catalog(f"sqlite:///{tmp_path / 'c.db'}")
    with LLMServer(lambda body: Reply(json.dumps({"when": "next Tuesday"}))) as server:
        for _ in range(2):  # the second time from the cache: the same verdict, not a crash
            with pytest.raises(LLMOutputError, match=r"node 'goal' of workflow 'toy' failed on the model's answer "
                               r"of \['content'\]: ValueError: Invalid isoformat string: 'next Tuesday'") as caught:
                TOY.run(NodeContext({}, 1, "toy.x", 0, openai_backend(server, catalog)))
            assert "next Tuesday" in caught.value.raw
    assert server.served.requests == 1
    # With the offline generator a failure is the family's bug and is not disguised as a model's fault.
    assert TOY.run(NodeContext({}, 1, "toy.x", 0, OfflineBackend()))["instruction"] == "2024-05-01"


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=12),
                    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
                    max_leaves=30)
CHECKS = (check_table, check_mailbox, check_document, check_deck, check_profile, check_pool)


@settings(max_examples=150, deadline=None)
@given(JSON, st.sampled_from(CHECKS))
def test_a_content_check_answers_any_json_with_a_sentence_never_an_exception(answer, check):
    assert isinstance(check(answer, {}), str)


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_a_content_check_survives_any_one_value_of_a_real_answer_replaced(data):
    """Answers shaped like the offline ones with one leaf swapped for any JSON value (what gets past a schema)."""
    from workflows.calc.content import generate_table

    table = generate_table(random.Random(data.draw(st.integers(0, 50))), n_rows=8)
    row = data.draw(st.integers(0, 7))
    col = data.draw(st.integers(0, len(table["columns"]) - 1))
    table["rows"][row][col] = data.draw(JSON)
    assert isinstance(check_table(table, {}), str)
