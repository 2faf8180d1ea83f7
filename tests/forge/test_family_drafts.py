"""Issue 39 item 4, the --llm half: a model drafts one new family per capability gap (name, app, goal, an
instruction, checks, knobs, near-misses), validated and recorded for review; its answers come through the real
OpenAI client from a real server on loopback, and a garbage answer is refused without a crash."""

from __future__ import annotations

import json
import sqlite3

from forge.catalog import Catalog
from forge.expand.draft import draft_families, record
from forge.llm.config import LLMConfig
from forge.llm.openai_backend import OpenAIBackend
from forge.mining import gaps, mine
from tests.forge.test_mining_gaps import records
from tests.llmserver import LLMServer, Reply


def found() -> list:
    rs = records()
    return gaps(rs, mine(rs))[:2]


def backend(server: LLMServer) -> OpenAIBackend:
    return OpenAIBackend(LLMConfig(backend="openai", model="test-model", base_url=server.base_url, backoff=0.01,
                                   timeout=5, max_attempts=2, structured="json_schema"))


def test_the_offline_stand_in_drafts_from_the_gap_alone():
    top = found()
    drafts, refusals = draft_families(top, round_n=1)
    assert refusals == [] and len(drafts) == len(top)
    pivot = drafts[0]
    assert pivot.gap == "check=calc.pivot" and pivot.name.startswith(pivot.app + ".")
    assert {"pivot", "table"} & set(pivot.name.split(".")[1].split("_")), pivot.name
    # calc.pivot is no registered primitive: the draft says a new one must be written, and that it lacks near-misses
    assert not any(registered for _, _, registered in pivot.checks)
    assert any("new primitive" in n for n in pivot.notes) and any("near-misses" in n for n in pivot.notes)
    assert draft_families(top, round_n=1)[0] == drafts  # deterministic


def test_a_model_drafts_through_the_real_client_and_the_drafts_are_kept(tmp_path):
    good = {"gap": "check=calc.pivot", "name": "calc.pivot_summary", "app": "calc",
            "goal": "Summarise a sheet in a pivot table grouped by one column.",
            "instruction": "Build a pivot table of Sales.xlsx that sums the amounts per region on a new sheet.",
            "checks": [{"primitive": "xlsx.cell_value", "what": "each region's total"},
                       {"primitive": "xlsx.pivot_grouped", "what": "a pivot table grouped by region"}],
            "knobs": {"aggregate": ["sum", "average", "count"]},
            "near_misses": ["grouped by the wrong column", "counts instead of sums", "on the data sheet"]}
    clash = {**good, "name": "calc.sort_rows", "gap": "family=fam3"}
    bad = {**good, "name": "Pivot Table!", "gap": "family=fam4"}
    seen: list[dict] = []

    def respond(body: dict) -> Reply:
        seen.append(body)
        return Reply(json.dumps({"drafts": [good, clash, bad]}))

    with LLMServer(respond) as server:
        drafts, refusals = draft_families((found() * 3)[:3], round_n=2, backend=backend(server))
    prompt = seen[-1]["messages"][-1]["content"]
    assert "calc.pivot" in prompt and "xlsx.cell_value" in prompt  # the gaps and the primitives were sent
    assert [d.name for d in drafts] == ["calc.pivot_summary", "calc.sort_rows"]
    assert refusals == ["draft 2: name 'Pivot Table!' is not '<app prefix>.<snake_case>'"]
    first = drafts[0]
    assert first.source == "openai" and first.knobs == {"aggregate": ["sum", "average", "count"]}
    assert [(p, r) for p, _, r in first.checks] == [("xlsx.cell_value", True), ("xlsx.pivot_grouped", False)]
    assert first.notes == ("new primitive xlsx.pivot_grouped to write",)
    assert "exists already" in drafts[1].notes[0]
    db = tmp_path / "c.db"
    assert record(Catalog(f"sqlite:///{db}"), 2, drafts) == 2
    rows = sqlite3.connect(db).execute(
        "SELECT round, operator, action, skill_id, stats FROM taxonomy_changes ORDER BY id").fetchall()
    assert [r[:4] for r in rows] == [(2, "draft", "draft", "calc.pivot_summary"),
                                     (2, "draft", "draft", "calc.sort_rows")]
    assert json.loads(rows[0][4])["near_misses"] == good["near_misses"]


def test_a_garbage_answer_is_refused_in_one_line():
    with LLMServer(lambda body: Reply('{"drafts": "none today"}')) as server:
        drafts, refusals = draft_families(found(), round_n=1, backend=backend(server))
    assert drafts == [] and len(refusals) == 1 and "not the drafts JSON" in refusals[0]
