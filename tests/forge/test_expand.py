"""Expansion: the composite family through the real gate, the duplicate rule, probing into a real catalog,
operators drawn toward weak skills, the proposer's validation and retirement."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import select

from forge.catalog import Catalog, SkillRow, TaxonomyChangeRow
from forge.dag import NodeContext
from forge.errors import WorkflowError
from forge.expand import Candidate, catalog_taxonomy, knob_key, reallocate, retire, seed_taxonomy
from forge.expand import compose as compose_op
from forge.expand import harder as harder_op
from forge.expand import propose as propose_op
from forge.expand.compose import Pressure, composite_skill
from forge.expand.probe import admit, duplicates
from forge.llm import LLMRequest, LLMResponse, OfflineBackend
from forge.model import Asset
from forge.sandbox import Sandbox
from forge.stats import SkillStats
from tests.gatekit import gate_package, make_package
from workflows import get_family
from workflows.composite import part_ids, prepare, seed_parts

COMPOSE = get_family("compose.pair")
CROSS = {"first": "os.copy.file_bak", "second": "writer.align.paragraph_justify"}
CLASH = {"first": "chrome.bookmark.add_bar_one", "second": "chrome.bookmark.add_other_one"}


def test_composite_knobs_are_seed_skill_ids():
    assert COMPOSE.check_params(CROSS) is None
    assert COMPOSE.check_params({**CROSS, "first": "os.copy.file_bk"}) == (
        "first='os.copy.file_bk' is not a seed skill id. Did you mean 'os.copy.file_bak'? See `forge skills list`.")
    assert "a composite needs different skills" in COMPOSE.check_params({"first": CROSS["first"],
                                                                          "second": CROSS["first"]})
    assert COMPOSE.check_params({"first": CROSS["first"]}) == "missing knob 'second' for family 'compose.pair'"
    assert "not a knob" in COMPOSE.check_params({**CROSS, "distractors": 2})


def test_composite_task_passes_the_gate_and_one_part_alone_fails(tmp_path):
    folder = make_package(COMPOSE, CROSS, tmp_path, seed=4, skill_id="cx.test")
    again = make_package(COMPOSE, CROSS, tmp_path / "again", seed=4, skill_id="cx.test")
    assert (folder / "task.json").read_bytes() == (again / "task.json").read_bytes(), "same seed, same package"
    verdict = gate_package(folder)
    assert verdict.status == "accepted", verdict.evidence
    task = json.loads((folder / "task.json").read_text())
    assert task["apps"] == ["multi_apps"] or task["app"] == "multi_apps"
    assert task["instruction"].startswith("This task has two parts; do both.\nFirst: ")
    assert {c["id"].split(".")[0] for c in task["rubric"]} == {"p1", "p2"}
    misses = [json.loads((folder / p).read_text())["description"] for p in task["solutions"]["near_misses"]]
    assert "does only part 1" in misses and "does only part 2" in misses
    stages = [s.name for s in verdict.stages if s.name.startswith("near-miss:")]
    assert len(stages) == len(misses), "every near-miss ran and failed the rubric"


def test_parts_writing_the_same_file_are_refused():
    with pytest.raises(WorkflowError, match="both write /home/user/.config/google-chrome/Default/Bookmarks"):
        COMPOSE.run(NodeContext(CLASH, 1, "cx.clash", 0, OfflineBackend()))
    parts = [{"assets": [Asset("/home/user/a.txt", b"1")], "launch": []},
             {"assets": [Asset("/home/user/a.txt", b"2")], "launch": ["gedit"]}]
    with pytest.raises(WorkflowError, match="parts 1 and 2 both write /home/user/a.txt"):
        prepare.fn(NodeContext({}, 1, "x", 0, OfflineBackend()), {"parts": parts})


def test_look_alike_copies_variant_passes_the_gate_and_the_copy_is_checked(tmp_path):
    family = get_family("variant.distractors")
    folder = make_package(family, {"base": "calc.dedup.key", "copies": 2}, tmp_path, seed=3, skill_id="vd.test")
    verdict = gate_package(folder)
    assert verdict.status == "accepted", verdict.evidence
    task = json.loads((folder / "task.json").read_text())
    copies = [c["args"]["path"] for c in task["rubric"] if c["id"].startswith("copy")]
    assert len(copies) == 2 and all(path in task["instruction"] for path in copies)
    assert {Path(c).name.rsplit(".", 1)[0][-5:] for c in copies} == {"(old)", "ackup"}
    misses = [json.loads((folder / p).read_text())["description"] for p in task["solutions"]["near_misses"]]
    assert f"does it on the copy {copies[0]} instead" in misses
    with pytest.raises(WorkflowError, match="names no asset to imitate"):
        family.run(NodeContext({"base": "tb.pref.no_auto_quote", "copies": 1}, 1, "vd.x", 0, OfflineBackend()))


def candidate(first: str, second: str, operator: str = "compose") -> Candidate:
    pool = seed_parts()
    skill = composite_skill(pool[first], pool[second], operator=operator, round_n=1, category="test")
    return Candidate(skill, operator, f"test: {first} + {second}", {"families": [pool[first].family,
                                                                                 pool[second].family]})


def test_duplicate_rule_same_family_same_knobs():
    taxonomy = seed_taxonomy()
    ab, ba = candidate(CROSS["first"], CROSS["second"]), candidate(CROSS["second"], CROSS["first"])
    assert knob_key(ab.skill) == knob_key(ba.skill), "a composite's parts are a set"
    seed = taxonomy["os.copy.file_bak"]
    same_knobs = Candidate(seed.__class__(id="os.copy.file_bak_again", family=seed.family, apps=seed.apps,
                                          params=dict(seed.params), description="same knobs, new name",
                                          difficulty="easy"), "propose", "test")
    fresh, refused = duplicates([ab, ba, same_knobs], taxonomy, refused=set())
    assert [c.skill.id for c in fresh] == [ab.skill.id]
    reasons = {c.skill.id: why for c, why in refused}
    assert reasons[ba.skill.id].startswith(f"duplicate of {ab.skill.id}: same family compose.pair")
    assert reasons["os.copy.file_bak_again"].startswith("duplicate of os.copy.file_bak")


def test_admit_probes_through_the_gate_and_records_lineage(tmp_path):
    catalog = Catalog(f"sqlite:///{tmp_path / 'forge.db'}")
    taxonomy = seed_taxonomy()
    good, clash = candidate(**CROSS), candidate(**CLASH, operator="harder")
    dupe = candidate(CROSS["second"], CROSS["first"])
    result = admit(catalog, [good, clash, dupe], taxonomy, round_n=1, k=2, seed=5, sandbox=Sandbox())
    assert [c.skill.id for c in result.added] == [good.skill.id]
    assert result.probe_tasks == 4, "k probes for each non-duplicate candidate"
    with catalog.session() as session:
        row = session.get(SkillRow, good.skill.id)
        changes = {c.skill_id: c for c in session.scalars(select(TaxonomyChangeRow))}
    assert (row.origin, row.round, row.operator, row.parent, row.app) == ("round-1", 1, "compose", CROSS["first"],
                                                                          "multi_apps")
    assert changes[good.skill.id].action == "add" and "2/2 probe tasks passed the gate" in changes[good.skill.id].reason
    assert changes[clash.skill.id].action == "refuse" and "cannot be composed" in changes[clash.skill.id].reason
    assert changes[dupe.skill.id].reason.endswith(f"refused: duplicate of {good.skill.id}: same family compose.pair "
                                                  f"and knob values {dict(dupe.skill.params)} (a new skill must differ "
                                                  "in what is checked or in knobs)")
    assert good.skill.id in catalog_taxonomy(catalog)
    from forge.expand.probe import blocked_family_pairs
    assert blocked_family_pairs(catalog) == {frozenset({"chrome.add_bookmark"})}


def stats(skill_id: str, attempts: int, successes: int) -> SkillStats:
    return SkillStats(skill_id, attempts, successes, 0, successes / attempts, successes / attempts, 5.0)


def test_operators_are_deterministic_and_lean_on_weak_skills():
    pressures = {sid: Pressure(0, 0.0) for sid in seed_parts()}
    weak, learnt = "calc.sort.numeric_desc", "os.copy.file_bak"
    pressures[weak], pressures[learnt] = Pressure(10, 0.0), Pressure(10, 10.0)
    assert pressures[weak].weight() == 5.0 and pressures[learnt].weight() == 1.0

    def draw(seed: int) -> list[Candidate]:
        return compose_op.propose(n=40, round_n=2, seed=seed, taken=set(), pressures=pressures)

    first = draw(1)
    assert [c.skill.id for c in first] == [c.skill.id for c in draw(1)]
    assert [c.skill.id for c in first] != [c.skill.id for c in draw(2)]
    assert all(len(c.skill.apps) > 1 and not set(seed_parts()[c.skill.params["first"]].apps)
               & set(seed_parts()[c.skill.params["second"]].apps) for c in first), "compose crosses apps"
    # harder: once statistics exist, only weak or saturated skills get an extra same-app step.
    hard = harder_op.propose(n=9, round_n=2, seed=1, taken=set(), pressures=pressures)
    assert {part_ids(c.skill.family, c.skill.params)[0] for c in hard} <= {weak, learnt}
    copies = [c for c in hard if c.skill.family == "variant.distractors"]
    steps = [c for c in hard if c.skill.family == "compose.pair"]
    assert (len(copies), len(steps)) == (3, 6), "a third of the harder variants are look-alike copies"
    assert all(set(seed_parts()[c.skill.params["second"]].apps) & set(seed_parts()[c.skill.params["first"]].apps)
               for c in steps), "the extra step is in the same app"
    assert any("weak (success 0.00 over 10 attempts <= 0.5)" in c.reason for c in hard)


def test_reallocation_favours_failed_skills():
    taxonomy = seed_taxonomy()
    stats_by = {"calc.sort.numeric_desc": stats("calc.sort.numeric_desc", 4, 0),
                "calc.sort.numeric_asc": stats("calc.sort.numeric_asc", 4, 4)}
    current = {sid: 1.0 for sid in taxonomy}
    decisions = {d.skill_id: d for d in reallocate.decide(stats_by, current, 2)}
    assert decisions["calc.sort.numeric_desc"].weight == 4.0
    assert "success 0.00 over 4 attempts in round 1: weight 1.00 -> 4.00" in decisions["calc.sort.numeric_desc"].reason
    assert "calc.sort.numeric_asc" not in decisions, "a fully solved skill keeps weight 1"
    weights = {**current, "calc.sort.numeric_desc": 4.0}
    plan = reallocate.allocate(list(taxonomy.values()), weights, 2000, 1, 102)
    per_skill = {sid: sum(t.skill_id == sid for t in plan)
                 for sid in ("calc.sort.numeric_desc", "calc.sort.numeric_asc")}
    assert per_skill["calc.sort.numeric_desc"] >= 3 * per_skill["calc.sort.numeric_asc"] >= 3
    multi = sum(len(taxonomy[t.skill_id].apps) > 1 for t in plan)
    assert multi == 800, "40 % of the budget goes to multi-app skills"
    assert plan == reallocate.allocate(list(taxonomy.values()), weights, 2000, 1, 102)
    assert len({str(t) for t in plan}) == len(plan)


def test_retire_halves_then_retires_saturated_skills():
    s = {"a": stats("a", 5, 5), "b": stats("b", 5, 2), "c": stats("c", 1, 1)}
    first = {d.skill_id: d for d in retire.decide(s, {"a": 1.0, "b": 1.0, "c": 1.0}, 2)}
    assert set(first) == {"a"} and (first["a"].action, first["a"].weight) == ("reweight", 0.5)
    second = retire.decide(s, {"a": 0.5}, 3)
    assert [(d.skill_id, d.action, d.weight) for d in second] == [("a", "retire", 0.0)]
    assert "still saturated after being down-weighted" in second[0].reason


class ScriptedModel:
    """An OpenAI-compatible model stands here: answers with fixed proposals (some invalid) through the real
    parse-and-validate path."""

    name = "scripted"
    repairs = 0

    def __init__(self, proposals: list[dict]) -> None:
        self.text = json.dumps({"proposals": proposals})
        self.prompts: list[str] = []

    def complete(self, request: LLMRequest) -> LLMResponse:
        self.prompts.append(request.prompt)
        return LLMResponse(self.text, 100, 50)


def test_proposer_validates_against_the_family_schema():
    taxonomy = seed_taxonomy()
    unused = propose_op.unused_combinations(taxonomy)
    assert unused, "the seed leaves a few knob combinations free"
    model = ScriptedModel([unused[0], {"family": "os.copy", "params": {"what": "teleport"}, "description": "x" * 12},
                           {"family": "os.cpy", "params": {}, "description": "unknown family"},
                           {"family": "compose.pair", "params": CROSS, "description": "composites come from compose"}])
    candidates, refusals = propose_op.propose(n=4, round_n=1, seed=1, taxonomy=taxonomy, backend=model)
    assert [c.skill.params for c in candidates] == [unused[0]["params"]]
    assert candidates[0].skill.family == unused[0]["family"] and candidates[0].reason.startswith("scripted: ")
    problems = dict(refusals)
    assert problems["proposal 1 (os.copy)"].startswith("what='teleport', but family 'os.copy' allows")
    assert "not a proposable family" in problems["proposal 2"] and "not a proposable family" in problems["proposal 3"]
    assert "os.copy" in model.prompts[0], "the prompt lists the families and their knobs"
    offline, _ = propose_op.propose(n=2, round_n=1, seed=1, taxonomy=taxonomy)
    again, _ = propose_op.propose(n=2, round_n=1, seed=1, taxonomy=taxonomy)
    assert [c.skill.id for c in offline] == [c.skill.id for c in again] and len(offline) == min(2, len(unused))


def test_catalog_taxonomy_keeps_a_retired_seed_skill_retired(tmp_path: Path):
    catalog = Catalog(f"sqlite:///{tmp_path / 'forge.db'}")
    catalog.sync_skills(seed_taxonomy().values())
    with catalog.session() as session, session.begin():
        row = session.get(SkillRow, "os.copy.file_bak")
        assert row is not None
        row.status = "retired"
    skills = catalog_taxonomy(catalog)
    assert skills["os.copy.file_bak"].status == "retired"
    assert len(skills) == len(seed_taxonomy())
