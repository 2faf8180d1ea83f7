"""Expansion: the composite family through the real gate (still loadable), the duplicate rule (axis levels
included), probing into a real catalog, the operators (explore, variant around failures and one step harder,
decompose and chain), the proposer's validation and retirement."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import select

from forge.catalog import Catalog, SkillRow, TaxonomyChangeRow
from forge.expand import Candidate, catalog_taxonomy, knob_key, reallocate, retire, seed_taxonomy
from forge.expand import chain as chain_op
from forge.expand import propose as propose_op
from forge.expand import variant as variant_op
from forge.expand.analysis import analyse
from forge.expand.probe import _by_sample, admit, duplicates, groups_of, sample_probes
from forge.stats import SkillStats
from kit.dag import NodeContext
from kit.errors import WorkflowError
from kit.llm import LLMRequest, LLMResponse, OfflineBackend
from kit.model import Asset
from kit.sandbox import Sandbox
from kit.taxonomy import Skill
from tests.gatekit import gate_package, make_package
from workflows import get_family
from workflows.composite import prepare, seed_parts

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
    assert {c["id"].split(".")[0] for c in task["rubric"] if not c["id"].startswith("frame")} == {"p1", "p2"}
    assert task["rubric"][-1]["primitive"] == "tree.frame"  # the whole task's frame, over both parts' changes
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
    folder = make_package(family, {"base": "writer.align.paragraph_justify", "copies": 2}, tmp_path, seed=3,
                          skill_id="vd.test")
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
    """A composite skill (catalogs of earlier versions hold them; no operator makes them any more)."""
    pool = seed_parts()
    apps = tuple(dict.fromkeys([*pool[first].apps, *pool[second].apps]))
    skill = Skill(id=f"cx.{first}__{second}", family="compose.pair", apps=apps,
                  params={"first": first, "second": second}, description=f"First {first}, then {second}.",
                  difficulty="hard", parent=first, origin="round-1")
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


def level_candidates(family: str, levels: dict[str, str]) -> list[Candidate]:
    """Every knob combination of `family` at `levels`, as variant candidates."""
    return [Candidate(variant_op.atomic_skill(base, levels, round_n=2, operator="variant"), "variant", "test")
            for base in variant_op.seeds_by_family()[family]]


def test_sampled_admission_probes_one_per_group_and_records_the_sample(tmp_path):
    catalog = Catalog(f"sqlite:///{tmp_path / 'forge.db'}")
    cands = level_candidates("calc.sort_rows", {"rows": "20-28"})[:3]
    assert {g for c in cands for g in groups_of(c.skill)} == {"calc.sort_rows rows=20-28"}
    result = admit(catalog, cands, seed_taxonomy(), round_n=2, k=1, seed=5, sandbox=Sandbox(), sample=1)
    assert result.probe_tasks == 1, "one probe for the group, not one per candidate"
    assert sorted(c.skill.id for c in result.added) == sorted(c.skill.id for c in cands)
    assert result.sampled == 2
    with catalog.session() as session:
        rows = {c.skill_id: c for c in session.scalars(select(TaxonomyChangeRow))}
    probed = [sid for sid, row in rows.items() if row.stats["probes"] == 1]
    assert len(probed) == 1 and "1/1 probe tasks passed the gate" in rows[probed[0]].reason
    for sid, row in rows.items():
        if sid not in probed:
            assert row.action == "add" and row.stats["probes"] == 0 and "not probed itself" in row.reason
            assert row.stats["sampled"] == {"calc.sort_rows rows=20-28": probed}


def test_a_failed_group_sample_refuses_the_rest_of_its_group():
    seed = seed_taxonomy()["calc.sort.numeric_asc"]
    both = Candidate(variant_op.atomic_skill(seed, {"rows": "20-28", "location": "deep"}, round_n=2,
                                             operator="variant"), "variant", "test")
    assert groups_of(both.skill) == ["calc.sort_rows location=deep", "calc.sort_rows rows=20-28"]
    assert groups_of(seed) == ["calc.sort_rows plain"]
    groups = {"calc.sort_rows location=deep": ["p1"], "calc.sort_rows rows=20-28": ["p2"]}
    joins, why, sampled = _by_sample(both, groups, {"p1", "p2"}, {}, 1)
    assert joins and sampled == groups and "not probed itself" in why
    joins, why, _ = _by_sample(both, groups, {"p1"}, {"p2": "probe p2: unrealistic: too few rows"}, 1)
    assert not joins and "p2, failed: probe p2: unrealistic: too few rows" in why
    assert not _by_sample(both, {"calc.sort_rows rows=20-28": ["p2"]}, {"p2"}, {}, 1)[0], "a group nobody probed"
    many = level_candidates("calc.sort_rows", {"rows": "20-28"}) + level_candidates("calc.sort_rows",
                                                                                    {"location": "deep"})
    picked = sample_probes(many, 2, seed=3)
    assert [c.skill.id for c in picked] == [c.skill.id for c in sample_probes(many, 2, seed=3)]
    assert len(picked) == 4 and {g for c in picked for g in groups_of(c.skill)} == {
        "calc.sort_rows rows=20-28", "calc.sort_rows location=deep"}


def stats(skill_id: str, attempts: int, successes: int) -> SkillStats:
    return SkillStats(skill_id, attempts, successes, 0, successes / attempts, successes / attempts, 5.0)


def test_an_axis_at_its_default_level_is_the_same_skill():
    seed = seed_taxonomy()["calc.sort.numeric_asc"]
    named = Skill(id="x", family=seed.family, apps=seed.apps, params={**seed.params, "rows": "8-16"},
                  description="", difficulty="easy")
    moved = variant_op.atomic_skill(seed, {"rows": "32-40", "location": "near"}, round_n=2, operator="variant")
    assert knob_key(named) == knob_key(seed) != knob_key(moved)
    assert moved.id == "calc.sort.numeric_asc.rows_32_40" and moved.parent == seed.id
    assert moved.params == {**seed.params, "rows": "32-40"}
    assert moved.description.endswith(", with 32-40 rows.")


def test_explore_samples_every_axis_level_once_per_family():
    first = variant_op.explore(round_n=1, seed=3, taken=set())
    assert [c.skill.id for c in first] == [c.skill.id for c in variant_op.explore(round_n=1, seed=3, taken=set())]
    calc = [c for c in first if c.skill.family == "calc.sort_rows"]
    levels = sorted((a, lv) for c in calc for a, lv in c.skill.params.items() if a not in ("key_kind", "order"))
    axes = get_family("calc.sort_rows").axes
    assert levels == sorted((a, lv) for a, lvs in axes.items() for lv in lvs[1:])


def test_variants_go_around_failures_and_one_step_beyond_passes():
    taxonomy = seed_taxonomy()
    moved = variant_op.atomic_skill(taxonomy["calc.sort.date_desc"], {"rows": "20-28"}, round_n=1,
                                    operator="explore")
    taxonomy = {**taxonomy, moved.id: moved}
    attempts = [(moved.id, False, ["sorted"])] * 3 + [("calc.sort.date_desc", True, None)] * 2 + \
               [("writer.align.paragraph_justify", True, None)] * 2
    analysis = analyse(attempts, taxonomy)
    assert analysis.levels["calc.sort_rows", "rows", "20-28"].checks == {"sorted": 3}
    assert variant_op.failing_levels(analysis, "calc.sort_rows") == {"rows": ["20-28"]}
    around = variant_op.around_failures(analysis, round_n=2, taken={knob_key(s) for s in taxonomy.values()})
    assert {c.skill.family for c in around} == {"calc.sort_rows"}
    assert {c.skill.params["rows"] for c in around} == {"20-28", "32-40"}, "the failing level and one beyond"
    axes = get_family("calc.sort_rows").axes
    moved = [{a for a in axes if c.skill.params.get(a, axes[a][0]) != axes[a][0]} for c in around]
    assert sum(m == {"rows"} for m in moved) == 2 * 6 - 1, "every knob combination; the explored skill exists"
    practised = [c for c, m in zip(around, moved, strict=True) if m != {"rows"}]
    assert practised and all(c.skill.params["rows"] == "20-28" for c in practised), "the failure, elsewhere"
    assert {len(m) for m, c in zip(moved, around, strict=True) if c in practised} == {2}, "one other axis moved"
    assert {a for m in moved for a in m} == set(axes), "every other axis"
    assert all("calc.sort_rows fails at rows=20-28" in c.reason for c in around)
    harder = variant_op.harder(analysis, taxonomy, round_n=2, taken=set())
    assert sorted(c.stats["from"] for c in harder) == ["calc.sort.date_desc", "writer.align.paragraph_justify"]
    assert all(c.skill.id != c.stats["from"] for c in harder)


def test_one_failed_attempt_is_chance_until_the_level_fails_across_families():
    """A student that passes 19 tasks in 20 fails one explored level by chance as often as a weak one fails it:
    one failed attempt in one family is practised at that level alone; the same level failing in another family
    confirms both, and the failure is then practised with other axes moved too."""
    taxonomy = seed_taxonomy()
    calc = variant_op.atomic_skill(taxonomy["calc.sort.date_desc"], {"location": "deeper"}, round_n=1,
                                   operator="explore")
    os_seed = next(s for s in sorted(taxonomy.values(), key=lambda s: s.id) if s.family == "os.copy")
    other = variant_op.atomic_skill(os_seed, {"location": "deeper"}, round_n=1, operator="explore")
    passed = variant_op.atomic_skill(os_seed, {"location": "deep"}, round_n=1, operator="explore")
    taxonomy = {**taxonomy, calc.id: calc, other.id: other, passed.id: passed}
    alone = analyse([(calc.id, False, None), (passed.id, True, None)] * 1, taxonomy)
    assert variant_op.failing_levels(alone, "calc.sort_rows") == {"location": ["deeper"]}
    assert variant_op.failing_levels(alone, "calc.sort_rows", sure=True) == {}
    axes = get_family("calc.sort_rows").axes
    narrow = variant_op.around_failures(alone, round_n=2, taken=set())
    assert narrow and {a for c in narrow for a in axes if c.skill.params.get(a, axes[a][0]) != axes[a][0]} \
        == {"location"}, "an unconfirmed failure: that level alone"
    both = analyse([(calc.id, False, None), (other.id, False, None), (passed.id, True, None)], taxonomy)
    assert variant_op.failing_levels(both, "calc.sort_rows", sure=True) == {"location": ["deeper"]}
    assert variant_op.failing_levels(both, "os.copy", sure=True) == {"location": ["deeper"]}
    around = variant_op.around_failures(both, round_n=2, taken=set())
    assert len([c for c in around if c.skill.family == "calc.sort_rows"]) > len(narrow), "practised elsewhere too"
    assert not any(c.skill.family == "os.copy" and c.skill.params.get("location") == "deep" for c in around), \
        "a level the student passed is no practice of a failure"


def test_a_failure_at_two_moved_levels_blames_neither():
    """After a round that practised a failing level with other axes moved, the levels it was paired with must not
    look failing: a moved level is judged on the skills where it is the only moved axis."""
    taxonomy = seed_taxonomy()
    base = taxonomy["calc.sort.date_desc"]
    pair = variant_op.atomic_skill(base, {"location": "deeper", "rows": "20-28"}, round_n=2, operator="variant")
    rows = variant_op.atomic_skill(base, {"rows": "20-28"}, round_n=1, operator="explore")
    taxonomy = {**taxonomy, pair.id: pair, rows.id: rows}
    analysis = analyse([(pair.id, False, None)] * 3 + [(rows.id, True, None)], taxonomy)
    assert analysis.levels["calc.sort_rows", "rows", "20-28"].attempts == 4, "reported on every attempt"
    assert variant_op.failing_levels(analysis, "calc.sort_rows") == {}
    assert variant_op.passes(analysis, "calc.sort_rows", "rows", "20-28")


def test_a_failing_chain_is_decomposed_into_its_steps():
    taxonomy = seed_taxonomy()
    chain = next(s for s in taxonomy.values() if s.family == "multi.sheet_doc_table")
    analysis = analyse([(chain.id, False, None)] * 2, taxonomy)
    assert list(chain_op.failing_chains(analysis)) == ["multi.sheet_doc_table"]
    steps = chain_op.step_skills(analysis)
    assert steps and {taxonomy[sid].family for sid in steps} == set(chain_op.STEPS["multi.sheet_doc_table"])
    assert all("chain multi.sheet_doc_table, which the student fails (0/2)" in why for why in steps.values())
    assert chain_op.decompose(analysis, taxonomy, round_n=2, taken=set()) == [], "no axis level to carry over"
    # a chain family without axes is judged on its overall rate: one attempt is no evidence (with axes, one
    # failed attempt at the default levels is: `variant.judged`)
    plain = [s for s in taxonomy.values() if s.family in chain_op.STEPS and not get_family(s.family).axes]
    assert all(chain_op.failing_chains(analyse([(s.id, False, None)], taxonomy)) == {} for s in plain[:3])
    assert all(set(chain_op.steps_of(f)) == set(steps) for f, steps in chain_op.STEPS.items()), "steps exist"


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
    plan = reallocate.allocate(list(taxonomy.values()), weights, 4000, 1, 102)  # ~4 tasks a skill of weight 1
    per_skill = {sid: sum(t.skill_id == sid for t in plan)
                 for sid in ("calc.sort.numeric_desc", "calc.sort.numeric_asc")}
    assert per_skill["calc.sort.numeric_desc"] >= 3 * per_skill["calc.sort.numeric_asc"] >= 3
    multi = sum(len(taxonomy[t.skill_id].apps) > 1 for t in plan)
    assert multi == 1600, "40 % of the budget goes to multi-app skills"
    assert plan == reallocate.allocate(list(taxonomy.values()), weights, 4000, 1, 102)
    fresh = {"calc.sort.numeric_asc", "os.copy.file_bak"}
    small = reallocate.allocate(list(taxonomy.values()), weights, 10, 1, 102, fresh=fresh)
    assert fresh <= {t.skill_id for t in small} and len(small) == 10, "skills added this round are tried first"
    assert sum(len(taxonomy[t.skill_id].apps) > 1 for t in small) == 4
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
    moved = variant_op.atomic_skill(taxonomy["calc.sort.date_desc"], {"location": "deeper"}, round_n=1,
                                    operator="explore")
    bigger = variant_op.atomic_skill(taxonomy["os.copy.file_bak"], {}, round_n=1, operator="explore")
    taxonomy = {**taxonomy, moved.id: moved}
    analysis = analyse([(moved.id, False, ["sorted"])] * 2 + [(bigger.id, True, None)], taxonomy)
    clusters = propose_op.clusters(analysis)
    assert [(c["family"], c["axis"], c["level"]) for c in clusters] == [("calc.sort_rows", "location", "deeper")]
    assert clusters[0]["failed_checks"] == {"sorted": 2}
    analysis = analyse([(moved.id, False, ["sorted"])] * 2 + [(moved.id.replace("location_deeper", "rows_32_40"),
                                                               False, None)] * 2, {**taxonomy, **{
        s.id: s for s in [variant_op.atomic_skill(taxonomy["calc.sort.date_desc"], {"rows": "32-40"}, round_n=1,
                                                  operator="explore")]}})
    assert len(propose_op.clusters(analysis)) == 2, "two clusters: up to 2 x PER proposals"
    good = {"family": "calc.sort_rows", "params": {"key_kind": "text", "order": "asc", "location": "deeper"},
            "description": "Sort a table deep in the folders"}
    model = ScriptedModel([good, {"family": "os.copy", "params": {"what": "teleport"}, "description": "x" * 12},
                           {"family": "os.cpy", "params": {}, "description": "unknown family"},
                           {"family": "compose.pair", "params": CROSS, "description": "composites come from compose"}])
    candidates, refusals = propose_op.propose(analysis=analysis, round_n=2, seed=1, taxonomy=taxonomy,
                                              backend=model)
    assert [c.skill.params for c in candidates] == [good["params"]]
    assert candidates[0].skill.id == "calc.sort.text_asc.location_deeper"
    assert candidates[0].reason.startswith("scripted: ")
    problems = dict(refusals)
    assert problems["proposal 1 (os.copy)"].startswith("what='teleport', but family 'os.copy' allows")
    assert "not a proposable family" in problems["proposal 2"] and "not a proposable family" in problems["proposal 3"]
    assert '"axis": "location"' in model.prompts[0] and '"level": "deeper"' in model.prompts[0]
    offline, _ = propose_op.propose(analysis=analysis, round_n=2, seed=1, taxonomy=taxonomy)
    again, _ = propose_op.propose(analysis=analysis, round_n=2, seed=1, taxonomy=taxonomy)
    assert [c.skill.id for c in offline] == [c.skill.id for c in again] and len(offline) == 2 * propose_op.PER
    assert {(c.skill.params.get("location"), c.skill.params.get("rows")) for c in offline} == {
        ("deeper", None), (None, "32-40")}


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
