"""Batch generation survives bad LLM output and family bugs: the task is classified, the batch goes on."""

from __future__ import annotations

import sqlite3
from collections import Counter

from forge.catalog import Catalog
from forge.generate import Generator, Selection, plan, plan_for, select_skills
from kit.llm import LLMRequest, LLMResponse, OfflineBackend
from kit.sandbox import Sandbox
from kit.taxonomy import Skill, load_taxonomy


class GarbageForContent:
    """A backend whose content answers are broken in the ways real models break; others are fine."""

    name = "garbage"

    def __init__(self) -> None:
        self.answers = iter(['{"scenario": "sales", "title": ', "Sure! Here is your table:", "null",
                             '{"scenario": "sales"}'])
        self.offline = OfflineBackend()

    def complete(self, request: LLMRequest) -> LLMResponse:
        if request.node == "content":
            text = next(self.answers, None)
            if text is not None:
                return LLMResponse(text, 10, 10)
        return self.offline.complete(request)


def test_bad_llm_output_is_llm_fail_and_batch_goes_on(tmp_path):
    taxonomy = load_taxonomy()
    catalog = Catalog(f"sqlite:///{tmp_path / 'c.db'}")
    generator = Generator(tmp_path / "out", catalog, sandbox=Sandbox(), backend=GarbageForContent(), taxonomy=taxonomy)
    ids = plan(select_skills(taxonomy, Selection(skills=("calc.sort.numeric_asc",))), 6, 1)
    counts = generator.run(ids)
    assert counts == {"llm_fail": 4, "accepted": 2}
    rows = sqlite3.connect(tmp_path / "c.db").execute(
        "SELECT status, evidence FROM tasks WHERE status = 'llm_fail' ORDER BY id").fetchall()
    assert len(rows) == 4
    assert any("not JSON" in e and "raw:" in e for _, e in rows)
    assert any("does not fit the schema" in e for _, e in rows)


def test_regenerating_a_task_replaces_its_row_not_duplicates_it(tmp_path):
    taxonomy = load_taxonomy()
    catalog = Catalog(f"sqlite:///{tmp_path / 'c.db'}")
    ids = plan(select_skills(taxonomy, Selection(skills=("calc.sort.date_asc",))), 2, 4)
    for out in ("a", "b"):
        counts = Generator(tmp_path / out, catalog, sandbox=Sandbox(), taxonomy=taxonomy).run(ids)
        assert counts == {"accepted": 2}
    db = sqlite3.connect(tmp_path / "c.db")
    assert db.execute("SELECT count(*), count(DISTINCT id) FROM tasks").fetchone() == (2, 2)
    # the family version the tasks name is recorded once
    assert db.execute("SELECT w.name, count(*) FROM tasks t JOIN workflows w ON w.signature = t.workflow_signature "
                      "GROUP BY w.name").fetchall() == [("calc.sort_rows", 2)]


def test_mixed_plan_gives_multi_app_skills_their_share():
    single = [Skill(f"a.s{i}", f"f{i % 3}", ("os",), {}, "a single-app skill", "easy") for i in range(5)]
    multi = [Skill(f"b.m{i}", "g", ("os", "chrome"), {}, "a multi-app skill", "easy") for i in range(3)]
    ids = plan(single + multi, 100, seed=3, multi_share=0.4)
    is_multi = [t.skill_id.startswith("b.") for t in ids]
    assert sum(is_multi) == 40
    assert len(set(ids)) == 100  # no task id repeats
    assert plan(single + multi, 100, seed=3, multi_share=0.4) == ids
    assert {t.skill_id for t in plan(single, 5, seed=3)} == {s.id for s in single}  # no split: every skill once
    assert sum(t.skill_id.startswith("b.") for t in plan(single + multi, 100, seed=3)) == 100 * 3 // 8  # no share


def test_the_default_plan_covers_every_family_then_every_skill_and_depends_on_the_seed():
    taxonomy = load_taxonomy()
    families = {s.family for s in taxonomy.values()}
    for seed in (1, 4242):
        ids = plan_for(taxonomy, Selection(), len(families), seed)
        assert {taxonomy[t.skill_id].family for t in ids} == families
        # once every skill has had its turn, the running shares hold exactly: 40 % multi-app, 1 in 15 infeasible
        mixed = [taxonomy[t.skill_id] for t in plan_for(taxonomy, Selection(), 3000, seed)]
        assert sum(len(s.apps) > 1 for s in mixed) == 1200
        assert sum(s.family.endswith(".infeasible") for s in mixed) == 200
        assert {t.skill_id for t in plan_for(taxonomy, Selection(), len(taxonomy), seed)} == set(taxonomy)
    one, two = ({t.skill_id for t in plan_for(taxonomy, Selection(), 200, seed)} for seed in (1, 2))
    assert len(one & two) < 100, "two seeds pick mostly different skills"


def test_explicit_selections_are_honoured_exactly():
    taxonomy = load_taxonomy()
    calc = plan_for(taxonomy, Selection(apps=("libreoffice_calc",)), 500, 1)
    assert {taxonomy[t.skill_id].app for t in calc} == {"libreoffice_calc"}  # no multi-app tasks unless asked
    with_multi = plan_for(taxonomy, Selection(apps=("libreoffice_calc",), with_multi_app=True), 500, 1)
    assert any(len(taxonomy[t.skill_id].apps) > 1 for t in with_multi)
    named = sorted(taxonomy)[::70][:11]
    assert sorted(t.skill_id for t in plan_for(taxonomy, Selection(skills=tuple(named)), 11, 5)) == named
    assert Counter(t.skill_id for t in plan_for(taxonomy, Selection(skills=tuple(named)), 33, 5)) == {
        s: 3 for s in named}


def test_the_gate_follows_the_cores_the_process_may_use_and_packages_do_not(tmp_path):
    """A process pinned to one core (a Dask worker standing for one machine) gates one task at a time with one
    check worker; the packages are the same bytes as with two."""
    import os
    import subprocess
    import sys

    script = ("import os, sys; from pathlib import Path\n"
              "from forge.catalog import Catalog\n"
              "from forge.generate import Generator, Selection, plan, select_skills\n"
              "from kit.sandbox import Sandbox\nfrom kit.taxonomy import load_taxonomy\n"
              "if sys.argv[2] == 'pin': os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})\n"
              "t = load_taxonomy(); out = Path(sys.argv[1])\n"
              "g = Generator(out / 'pkg', Catalog(f'sqlite:///{out}/c.db'), sandbox=Sandbox(), taxonomy=t)\n"
              "ids = plan(select_skills(t, Selection(skills=('calc.sort.numeric_desc',))), 3, 2)\n"
              "print(g.workers, dict(g.run(ids)))\n")
    results = {}
    for mode in ("pin", "all"):
        done = subprocess.run([sys.executable, "-c", script, str(tmp_path / mode), mode], capture_output=True,
                              text=True, check=True)
        results[mode] = done.stdout.split(maxsplit=1)
    assert results["pin"] == ["1", "{'accepted': 3}\n"]
    assert results["all"][0] == str(min(2, len(os.sched_getaffinity(0))))

    def files(root):
        return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}

    assert files(tmp_path / "pin" / "pkg") == files(tmp_path / "all" / "pkg")


def test_the_real_app_tier_runs_beside_the_pipeline(tmp_path, monkeypatch):
    """A batch of the real-app tier (real LibreOffice and Thunderbird: seconds of starting and loading) does not stall
    the run: tasks the tier does not sample are gated and recorded while the batch is out, and the batch's tasks are
    recorded, with its stages, when it comes back. The tier here blocks until three other tasks were recorded."""
    import contextlib
    import threading

    import forge.generate as generate
    from forge.realapps import Policy
    from verifiers.gate.stages import Stage

    out, release, during, waits = threading.Event(), threading.Event(), [], []

    class SlowTier:
        def check(self, packages):
            out.set()
            waits.append(release.wait(20))  # False: nothing was recorded while this batch was out
            return [[Stage("real-open", True, f"held until {len(during)} others were recorded", 0.0)]
                    for _ in packages]

    monkeypatch.setattr(generate, "real_apps", lambda *args: contextlib.nullcontext(SlowTier()))

    def progress(outcome):
        if out.is_set() and not release.is_set() and outcome.app == "os":
            during.append(outcome.task_id)
            if len(during) >= 3:
                release.set()

    taxonomy = load_taxonomy()
    ids = plan_for(taxonomy, Selection(apps=("libreoffice_calc", "os")), 24, 1)
    db = tmp_path / "c.db"
    generator = Generator(tmp_path / "out", Catalog(f"sqlite:///{db}"), sandbox=Sandbox(), taxonomy=taxonomy,
                          real_apps=Policy("all"), real_apps_batch=2)
    counts = generator.run(ids, progress)
    assert waits and waits[0], "the pipeline stood still while the real-app batch was out"
    assert sum(counts.values()) == len(ids)
    held = sqlite3.connect(db).execute("SELECT evidence FROM verifications WHERE verifier = 'real-open'").fetchall()
    assert held and all(e.startswith("held until") for (e,) in held)
