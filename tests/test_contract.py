"""The contract every family and every skill in the registry meets, checked over the whole registry.

Per skill (up to PER_FAMILY of each family, spread over its knobs): its params fit the family's knobs, the
instruction renders, and a task of it passes the real gate (no-op fails, oracle passes, every near-miss fails, the
mutants are judged right, the teacher's terminal solution passes). Per family: the preparer is deterministic
(same seed, same bytes) and varied (other seeds, other content). And the seed taxonomy is big enough.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import cache

import pytest

from kit.dag import NodeContext
from kit.ids import TaskId
from kit.llm import OfflineBackend
from kit.package import build_package
from kit.taxonomy import Skill, load_taxonomy
from tests.gatekit import gate_package, make_package
from workflows import families, get_family


@cache
def taxonomy() -> dict[str, Skill]:
    return load_taxonomy()


def _files(skill: Skill, seed: int, index: int = 0) -> dict[str, bytes]:
    workflow = get_family(skill.family)
    ctx = NodeContext(skill.params, seed, skill.id, index, OfflineBackend())
    return build_package(TaskId(skill.id, seed, index), skill, workflow, workflow.run(ctx), ctx.calls).files


def _first_skill_of_each_family() -> list[Skill]:
    seen: dict[str, Skill] = {}
    for skill in taxonomy().values():
        seen.setdefault(skill.family, skill)
    return list(seen.values())


def test_seed_taxonomy_spans_the_desktop():
    skills = taxonomy().values()
    apps = {a for s in skills for a in s.apps}
    assert len(skills) >= 500, len(skills)
    assert len(families()) >= 60, len(families())
    assert len(apps) >= 8, sorted(apps)
    assert {s.family for s in skills} == set(families()), "every family has at least one skill"


#: Skills of one family gated per run: a family's skills differ by knobs its own tests and the golden packages cover,
#: so the contract samples them (spread over the family's sorted ids) and CI stays inside its limit as families grow.
PER_FAMILY = 4


def _sampled_skills() -> list[str]:
    by_family: dict[str, list[str]] = {}
    for skill_id in sorted(taxonomy()):
        by_family.setdefault(taxonomy()[skill_id].family, []).append(skill_id)
    picked = []
    for ids in by_family.values():
        step = max(1, len(ids) // PER_FAMILY)
        picked += ids[::step][:PER_FAMILY]
    return sorted(picked)


#: Families whose tasks only the GUI can do, each saying why: a web form sent in Chrome leaves Chrome's own History
#: record, which a terminal could only forge.
GUI_ONLY = {"chrome.web_form"}


@pytest.mark.parametrize("skill_id", _sampled_skills())
def test_every_skill_passes_the_gate(tmp_path, skill_id):
    skill = taxonomy()[skill_id]
    assert get_family(skill.family).check_params(skill.params) is None
    folder = make_package(get_family(skill.family), dict(skill.params), tmp_path, seed=9, skill_id=skill.id)
    verdict = gate_package(folder)
    assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
        (s.name, s.evidence) for s in verdict.stages if not s.passed]
    stages = [s.name for s in verdict.stages]
    assert stages[:7] == ["safety", "schema", "grounding", "content", "setup", "noop", "oracle"]
    assert any(s.startswith("near-miss:") for s in stages)
    assert stages[-3:] == ["mutation", "teacher", "dedup"], ("the mutation control runs on every task, after the "
                                                            "near-misses; then the teacher's terminal solution")
    teacher = next(s.evidence for s in verdict.stages if s.name == "teacher")
    if skill.family in GUI_ONLY:  # the family says why its tasks need the GUI (family(..., gui="why"))
        assert teacher.startswith("no terminal solution: ") and "needs the GUI" not in teacher, teacher
        return
    assert "checks pass on the terminal solution" in teacher, teacher  # every other family is solvable from a terminal


@pytest.mark.parametrize("skill", _first_skill_of_each_family(), ids=lambda s: s.family)
def test_every_family_is_deterministic_and_varied(skill):
    first = _files(skill, seed=21)
    assert _files(skill, seed=21) == first, "same seed, same bytes"
    others = [_files(skill, seed=s) for s in (22, 23, 24, 25)]
    instructions = Counter(f["task.json"] for f in [first, *others])
    assert len(instructions) == 5
    assets = {tuple(sorted((k, v) for k, v in f.items() if k.startswith("assets/"))) for f in [first, *others]}
    assert len(assets) >= 3, "the content generator varies the initial state across seeds"
    text = first["task.json"].decode()
    assert not re.search(r"\{[a-z_]+\}", text), "an instruction placeholder was left unfilled"
