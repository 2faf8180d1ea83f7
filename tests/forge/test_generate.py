"""Batch generation survives bad LLM output and family bugs: the task is classified, the batch goes on."""

from __future__ import annotations

import sqlite3

from forge.catalog import Catalog
from forge.generate import Generator, Selection, plan, select_skills
from forge.ids import TaskId
from forge.llm import LLMRequest, LLMResponse, OfflineBackend
from forge.sandbox import Sandbox
from forge.taxonomy import Skill, load_taxonomy


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


def test_mixed_plan_gives_multi_app_skills_their_share_in_every_prefix():
    single = [Skill(f"a.s{i}", "f", ("os",), {}, "a single-app skill", "easy") for i in range(5)]
    multi = [Skill(f"b.m{i}", "f", ("os", "chrome"), {}, "a multi-app skill", "easy") for i in range(3)]
    ids = plan(single + multi, 100, seed=3)
    is_multi = [t.skill_id.startswith("b.") for t in ids]
    assert sum(is_multi) == 40
    assert all(sum(is_multi[:k]) == int(k * 0.4) for k in range(1, 101))
    assert len(set(ids)) == 100  # no task id repeats
    assert plan(single + multi, 100, seed=3) == ids
    assert plan(single, 7, seed=3) == [TaskId(single[i % 5].id, 3, i // 5) for i in range(7)]


def test_the_gate_follows_the_cores_the_process_may_use_and_packages_do_not(tmp_path):
    """A process pinned to one core (a Dask worker standing for one machine) gates one task at a time with one
    check worker; the packages are the same bytes as with two."""
    import os
    import subprocess
    import sys

    script = ("import os, sys; from pathlib import Path\n"
              "from forge.catalog import Catalog\n"
              "from forge.generate import Generator, Selection, plan, select_skills\n"
              "from forge.sandbox import Sandbox\nfrom forge.taxonomy import load_taxonomy\n"
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
