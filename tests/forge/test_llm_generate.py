"""Generation with the OpenAI backend against a real loopback server: repairs, llm_fail with the raw text,
the ledger matching what the server counted, the cache (a rerun spends nothing and writes the same bytes)
and budget caps. Every accepted task went through the real gate."""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
from collections import deque
from pathlib import Path

import pytest

from forge.catalog import Catalog
from forge.generate import Generator, Selection, plan, select_skills
from forge.llm.budget import Budget
from forge.llm.config import LLMConfig
from forge.llm.openai_backend import OpenAIBackend
from forge.llm.prices import Price
from kit.sandbox import Sandbox
from kit.taxonomy import load_taxonomy
from tests.llmserver import LLMServer, Reply, answering, recorded_answers

SKILL = "calc.sort.numeric_desc"


@pytest.fixture(scope="module")
def world():
    taxonomy = load_taxonomy()
    ids = plan(select_skills(taxonomy, Selection(skills=(SKILL,))), 4, 5)
    return taxonomy, ids, recorded_answers(taxonomy, ids)


def openai_backend(server: LLMServer, catalog: Catalog) -> OpenAIBackend:
    config = LLMConfig(backend="openai", model="test-model", base_url=server.base_url, backoff=0.01, timeout=5,
                       max_attempts=3, prices={"test-model": Price(1.0, 2.0)})
    return OpenAIBackend(config, catalog)


def node_of(body) -> str:
    return body["response_format"]["json_schema"]["name"]


class ContentScript:
    """Scripted replies for the `content` node's requests (in order; None = answer well); others answer well."""

    def __init__(self, answers, content):
        self.good = answering(answers)
        self.content = deque(content)

    def __call__(self, body):
        if node_of(body) == "content" and self.content:
            reply = self.content.popleft()
            if reply is not None:
                return reply
        return self.good(body)


def ledger(db: Path, run_id: int | None = None) -> list[tuple]:
    where = "" if run_id is None else f"WHERE run_id = {run_id}"
    return sqlite3.connect(db).execute(
        f"SELECT task_id, node, cached, ok, attempts, prompt_tokens, completion_tokens, cost_usd, model "
        f"FROM llm_calls {where} ORDER BY id").fetchall()


def tree(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def test_bad_answers_are_retried_repaired_or_llm_fail_and_the_ledger_matches_the_server(world, tmp_path):
    taxonomy, ids, answers = world
    script = ContentScript(answers, [
        Reply(status=429, headers={"Retry-After": "0"}), None,            # task 0: rate limited, then fine
        Reply('{"title": "Sales', finish_reason="length"), None,          # task 1: truncated -> repaired
        Reply("Sure! Here is your table:"), Reply('{"scenario": 1}'),    # task 2: not JSON, repair off-schema
        Reply(status=500), Reply(status=500), Reply(status=500),          # task 3: the endpoint is down
    ])
    db = tmp_path / "c.db"
    catalog = Catalog(f"sqlite:///{db}")
    with LLMServer(script) as server:
        counts = Generator(tmp_path / "out", catalog, sandbox=Sandbox(), taxonomy=taxonomy, run_id=None,
                           backend=openai_backend(server, catalog)).run(ids)
    assert counts == {"accepted": 2, "llm_fail": 1, "infra_fail": 1}
    statuses = dict(sqlite3.connect(db).execute("SELECT id, status FROM tasks").fetchall())
    assert [statuses[str(t)] for t in ids] == ["accepted", "accepted", "llm_fail", "infra_fail"]

    rows = ledger(db)
    assert [(r[0].rsplit("--", 1)[1], r[1], r[3], r[4]) for r in rows] == [
        ("00000", "content", True, 2), ("00000", "instruction", True, 1),
        ("00001", "content", True, 1), ("00001", "content/repair", True, 1), ("00001", "instruction", True, 1),
        ("00002", "content", True, 1), ("00002", "content/repair", True, 1),
        ("00003", "content", False, 3)]
    assert sum(r[4] for r in rows) == server.served.requests == 11  # every HTTP request is an attempt of a call
    assert sum(r[5] for r in rows) == server.served.prompt_tokens
    assert sum(r[6] for r in rows) == server.served.completion_tokens
    assert sum(r[7] for r in rows) == pytest.approx((server.served.prompt_tokens + 2 * server.served.completion_tokens)
                                                    / 1e6)
    assert {r[8] for r in rows} == {"test-model"} and not any(r[2] for r in rows)

    # The repair requests quote the answer and the problem back to the model.
    truncated_repair = server.served.bodies[4]["messages"]
    assert truncated_repair[2] == {"role": "assistant", "content": '{"title": "Sales'}
    assert "cut off at the 4096-token limit (finish_reason=length)" in truncated_repair[3]["content"]
    assert "answer is not JSON" in server.served.bodies[7]["messages"][3]["content"]
    evidence = dict(sqlite3.connect(db).execute("SELECT status, evidence FROM tasks").fetchall())
    assert "does not fit the schema" in evidence["llm_fail"] and """raw: '{"scenario": 1}'""" in evidence["llm_fail"]
    assert "no answer after 3 attempt(s): HTTP 500" in evidence["infra_fail"]


def test_a_rerun_answers_from_the_cache_spends_nothing_and_writes_the_same_bytes(world, tmp_path):
    taxonomy, ids, answers = world
    catalog = Catalog(f"sqlite:///{tmp_path / 'c.db'}")
    with LLMServer(answering(answers)) as server:
        first = Generator(tmp_path / "a", catalog, sandbox=Sandbox(), taxonomy=taxonomy, run_id=1,
                          backend=openai_backend(server, catalog)).run(ids)
        served = server.served.requests
        # A killed run's packages are gone (another folder), but its answers are in the catalog's cache.
        second = Generator(tmp_path / "b", catalog, sandbox=Sandbox(), taxonomy=taxonomy, run_id=2,
                           backend=openai_backend(server, catalog)).run(ids)
    assert first == second == {"accepted": 4}
    assert served == 8 and server.served.requests == 8  # 2 calls per task, none repeated
    assert all(cached for _, _, cached, *_ in ledger(tmp_path / "c.db", run_id=2))
    assert tree(tmp_path / "a") == tree(tmp_path / "b")
    task = json.loads(next((tmp_path / "b").rglob("task.json")).read_text())
    assert task["metadata"]["llm"]["backend"] == "openai" and task["metadata"]["llm"]["calls"] == 2


def test_a_budget_cap_stops_after_the_task_in_flight_and_a_rerun_continues(world, tmp_path):
    taxonomy, ids, answers = world
    catalog = Catalog(f"sqlite:///{tmp_path / 'c.db'}")
    with LLMServer(answering(answers)) as server:
        capped = Generator(tmp_path / "out", catalog, sandbox=Sandbox(), taxonomy=taxonomy, run_id=1,
                           backend=openai_backend(server, catalog), budget=Budget(max_tokens=1))
        assert capped.run(ids) == {"accepted": 1}
        assert capped.stopped is not None and capped.stopped.startswith("--max-tokens 1 reached (spent ")
        assert server.served.requests == 2
        rest = Generator(tmp_path / "out", catalog, sandbox=Sandbox(), taxonomy=taxonomy, run_id=2,
                         backend=openai_backend(server, catalog), budget=Budget(max_tokens=10**9))
        assert rest.run(ids) == {"accepted": 4} and rest.stopped is None
    assert server.served.requests == 8  # the recorded task was not asked again
    assert {row[0] for row in ledger(tmp_path / "c.db", run_id=2)} == {str(t) for t in ids[1:]}



def test_concurrent_calls_overlap_up_to_the_limit_and_give_the_same_packages(world, tmp_path):
    taxonomy, ids, answers = world
    trees = []
    for width in (1, 3):
        catalog = Catalog(f"sqlite:///{tmp_path / f'c{width}.db'}")
        with LLMServer(answering(answers, delay=0.3)) as server:
            counts = Generator(tmp_path / f"out{width}", catalog, sandbox=Sandbox(), taxonomy=taxonomy,
                               backend=openai_backend(server, catalog), concurrency=width).run(ids)
        assert counts == {"accepted": 4}
        assert server.served.max_in_flight == width
        trees.append(tree(tmp_path / f"out{width}"))
    assert trees[0] == trees[1]


def test_a_judge_that_says_no_rejects_the_task_with_its_words_as_evidence(world, tmp_path):
    taxonomy, ids, answers = world
    verdicts = iter([{"fully_specified": True, "unstated": [], "reason": "Every checked value is stated."},
                     {"fully_specified": False, "unstated": ["the sort column"], "reason": "The column is implicit."}])

    def responder(body):
        if node_of(body) == "judge":
            assert "Criteria the checker tests:" in body["messages"][1]["content"]
            return Reply(json.dumps(next(verdicts)))
        if node_of(body) == "readback":
            return Reply(json.dumps(reader(body, contradict=False)))
        return answering(answers)(body)

    db = tmp_path / "c.db"
    counts = judged_run(responder, taxonomy, ids[:2], tmp_path)
    assert counts == {"accepted": 1, "grounding_fail": 1}  # the judge's NO is a gate, not only a record
    rows = sqlite3.connect(db).execute(
        "SELECT passed, evidence FROM verifications WHERE verifier = 'llm_judge'").fetchall()
    assert sorted(rows) == [(0, "judge: The column is implicit. Unstated: the sort column"),  # judged in gate threads
                            (1, "judge: Every checked value is stated.")]
    tasks = sqlite3.connect(db).execute("SELECT status, evidence FROM tasks ORDER BY status").fetchall()
    assert tasks[1] == ("grounding_fail", "judge: The column is implicit. Unstated: the sort column"), tasks
    assert [p.parent.name for p in (tmp_path / "out" / "rejected").glob("*/*")] == ["grounding_fail"]
    assert [r[1] for r in ledger(db)].count("judge") == 2
    assert [r[1] for r in ledger(db)].count("readback") == 2


def judged_run(responder, taxonomy, ids, tmp_path: Path):
    """Generate `ids` with the judge on, against a loopback server answering with `responder`; catalog c.db."""
    from verifiers.gate.judge import Judge

    catalog = Catalog(f"sqlite:///{tmp_path / 'c.db'}")
    with LLMServer(responder) as server:
        backend = openai_backend(server, catalog)
        return Generator(tmp_path / "out", catalog, sandbox=Sandbox(), taxonomy=taxonomy, backend=backend,
                         judge=Judge(backend)).run(ids)


def reader(body, *, contradict: bool) -> dict:
    """A model that reads the instruction in the prompt the way the extractor does, or (`contradict`) answers
    another option of every question: a model that understood the opposite goal."""
    from verifiers import extract

    prompt = body["messages"][1]["content"]
    instruction = prompt.split("Instruction:\n", 1)[1].split("\n\nQuestions:", 1)[0]
    answers = {}
    for key, domain, options in re.findall(r"^(q\d+): which (.+)\? options: (.+)$", prompt, re.MULTILINE):
        choices = [o for o in options.split(", ") if o != "unknown"]
        said = [v for v in extract.expressed(instruction, domain.replace(" ", "_")) if v in choices]
        answers[key] = next(o for o in choices if o not in said) if contradict else (said or ["unknown"])[0]
    return {"answers": answers}


def test_a_model_that_reads_another_goal_makes_the_task_grounding_fail(world, tmp_path):
    taxonomy, ids, answers = world

    def responder(body):
        if node_of(body) == "judge":
            return Reply(json.dumps({"fully_specified": True, "unstated": [], "reason": "fine"}))
        if node_of(body) == "readback":
            return Reply(json.dumps(reader(body, contradict=True)))
        return answering(answers)(body)

    db = tmp_path / "c.db"
    counts = judged_run(responder, taxonomy, ids[:2], tmp_path)
    assert counts == {"grounding_fail": 2}
    rows = sqlite3.connect(db).execute(
        "SELECT evidence FROM verifications WHERE verifier = 'readback' AND passed = 0").fetchall()
    assert len(rows) == 2 and all("a model reading the instruction alone understood" in r[0] for r in rows), rows
    assert sorted(p.parent.name for p in (tmp_path / "out" / "rejected").glob("*/*")) == ["grounding_fail"] * 2
