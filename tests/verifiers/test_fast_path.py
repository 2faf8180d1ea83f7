"""The gate's fast paths judge exactly like its slow ones (issue 21: faster, never weaker).

Fast paths: mutants evaluated on documents held in memory (`Mutant.documents`) instead of written to a copy and
parsed again, reading the oracle's parsed documents for the files they leave as they are (`rewrites`, `touches`),
near-misses likewise (`verifiers.gate.controls._in_memory`), and parses served from `kit.parsecache`
instead of made afresh. For one real task of each kind of file, the mutation control's whole table (every mutant's
verdict and evidence) is the same both ways; every near-miss of every workbook, document, deck and picture family
gets the same outcomes both ways; and a run of the generator through warm sandboxed workers with several gates in
flight writes the same packages and verdicts as a plain in-process run, one gate at a time.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import pickle
import re
import sqlite3
import zipfile
from pathlib import Path

import openpyxl
import pytest

from forge.catalog import Catalog
from forge.generate import Generator, Selection, plan_for
from kit import parsecache
from kit.package import load_package
from kit.sandbox import Sandbox
from kit.taxonomy import load_taxonomy
from tests.gatekit import make_package, package_states
from tests.verifiers.mutkit import states
from verifiers import checks
from verifiers.gate import controls
from verifiers.gate.mutation import run_mutants
from verifiers.gate.rubric import evaluate_rubric
from workflows import get_family

pytestmark = pytest.mark.slow

#: one family per kind of file the mutators read (workbooks, documents, decks, pictures, mailboxes, settings,
#: trees) and multi-app tasks that hold several of them
FAMILIES = ["calc.formula_column", "calc.sort_rows", "calc.totals_row", "calc.number_format", "calc.conditional_format",
            "writer.find_replace", "impress.slide_title", "gimp.brightness",
            "gimp.rotate", "tb.move_messages", "tb.create_filter", "multi.attachment_sheet", "multi.sheet_doc_table",
            "os.organize", "chrome.add_bookmark", "vscode.editor_setting", "vlc.preferences"]


def _skill(family: str):
    return next(s for s in sorted(load_taxonomy().values(), key=lambda s: s.id) if s.family == family)


@pytest.mark.parametrize("family", FAMILIES)
def test_the_mutation_table_is_the_same_in_memory_and_on_disk(family, tmp_path, monkeypatch):
    skill = _skill(family)
    ctx = states(get_family(family), skill.params, tmp_path)
    parsed = checks.State(ctx.oracle)  # as the worker does: mutants reuse what the oracle's checks parsed
    assert all(o.passed for o in evaluate_rubric(ctx.task, ctx.oracle, state=parsed))
    fast = run_mutants(ctx.task, ctx.initial, ctx.oracle, tmp_path / "fast", parsed=parsed)
    monkeypatch.setattr(parsecache, "hot_folder", lambda root: contextlib.nullcontext())  # every parse made afresh
    slow = run_mutants(ctx.task, ctx.initial, ctx.oracle, tmp_path / "slow", in_memory=False)
    assert "error" not in fast and "error" not in slow, (fast.get("error"), slow.get("error"))
    assert fast["mutants"], f"{family}: no mutants offered"
    assert fast["mutants"] == slow["mutants"]


@pytest.mark.parametrize("family", ["calc.formula_column", "calc.sort_rows", "multi.attachment_sheet"])
def test_a_shared_workbook_is_taken_back_to_a_fresh_parse(family, tmp_path):
    """Mutants read the oracle's parsed workbooks (openpyxl adds cells on every lookup), each first taken back to
    how it was parsed (`readers.xlsx.lookups_undone`): after the oracle's rubric and every mutant's, it must pickle as a
    fresh parse of its file does."""
    skill = _skill(family)
    ctx = states(get_family(family), skill.params, tmp_path)
    parsed = checks.State(ctx.oracle)
    evaluate_rubric(ctx.task, ctx.oracle, state=parsed)
    run_mutants(ctx.task, ctx.initial, ctx.oracle, tmp_path / "mutants", parsed=parsed, budget=None)
    books = [(key, document) for key, document in parsed.parsed().items() if parsed.as_parsed(key) is not None]
    assert books, f"{family}: no workbook read"
    changed = 0
    for key, document in books:
        fresh = pickle.dumps(openpyxl.load_workbook(parsed.path(key[0])))
        changed += pickle.dumps(document) != fresh
        assert pickle.dumps(parsed.as_parsed(key)()) == fresh, key  # type: ignore[misc]
    if family == "multi.attachment_sheet":  # its table check looks past the table: the undo had work to do
        assert changed


#: skills per family and seeds per skill whose near-misses are judged both ways
SKILLS, SEEDS = 2, (1, 2)
#: skills judged too, with a look at their first check's file put before the rubric, so that every near-miss needs
#: its state written out: a CSV saved by tree ops, converted to a workbook, sorted in memory
WRITTEN_OUT = {"multi_apps": ["multi.attachment_sheet.csv_sort_asc_desktop"]}


@pytest.mark.parametrize("app", ["libreoffice_calc", "libreoffice_writer", "libreoffice_impress", "gimp", "multi_apps"])
def test_near_misses_get_the_same_outcomes_in_memory_and_on_disk(app, tmp_path, monkeypatch):
    fast_ones = []
    real = controls._in_memory

    def spy(request, initial, state):
        answer = real(request, initial, state)
        fast_ones.append(answer is not None)
        return answer

    monkeypatch.setattr(controls, "_in_memory", spy)
    written = []  # the states a check needed written out: each must be the very state the slow path writes

    class Watched(controls.InMemory):
        def path(self, path):
            before = self._materialize
            host = super().path(path)
            if before is not None and self._materialize is None:
                written.append(self.root)
            return host

    monkeypatch.setattr(controls, "InMemory", Watched)
    by_family: dict[str, list] = {}
    for skill in sorted(load_taxonomy().values(), key=lambda s: s.id):
        if skill.app == app and len(by_family.setdefault(skill.family, [])) < SKILLS:
            by_family[skill.family].append(skill)
    for skill_id in WRITTEN_OUT.get(app, []):
        skill = load_taxonomy()[skill_id]
        by_family[skill.family] = [*by_family[skill.family], skill]
    compared = materialized = 0
    for family, skills in sorted(by_family.items()):
        for skill in skills:
            for seed in SEEDS:
                work = tmp_path / f"{skill.id}-{seed}"
                folder = make_package(get_family(family), skill.params, work / "out", seed=seed, skill_id=skill.id)
                task = load_package(folder).task
                initial, _ = package_states(folder, work, task["solutions"]["oracle"])
                rubric = task["rubric"]
                if skill.id in WRITTEN_OUT.get(app, []):
                    rubric = [{"id": "look", "primitive": "fs.exists", "criterion": "the file is there",
                               "args": {"path": rubric[0]["args"]["path"]}}, *rubric]
                for i, near in enumerate([None, *task["solutions"]["near_misses"]]):  # the no-op control too
                    ops = json.loads((folder / near).read_text("utf-8"))["ops"] if near else None
                    request = {"initial": str(initial), "ops": ops, "rubric": rubric, "stop_on_fail": True}
                    fast = controls.run_control({**request, "state": str(work / f"fast-{i}")})
                    slow = controls.run_control({**request, "state": str(work / f"slow-{i}")}, in_memory=False)
                    where = f"{skill.id} seed {seed} {near} {fast.get('error')} {slow.get('error')}"
                    assert (fast["applied"], fast["error"]) == (slow["applied"], slow["error"]), where
                    assert fast["outcomes"] == slow["outcomes"], where
                    if written and written[-1] == work / f"fast-{i}":
                        assert _contents(written.pop()) == _contents(work / f"slow-{i}"), where
                        materialized += 1
                    compared += 1
    # the fast path must really have judged many of them (a plain-text answer file or a `multi.` op takes the slow one)
    print(f"{app}: {compared} no-op and near-miss controls compared, {sum(fast_ones)} of them judged in memory, "
          f"{materialized} written out for a check")
    assert compared >= 2 * len(by_family) and sum(fast_ones) >= len(fast_ones) // 4, (compared, sum(fast_ones))
    assert materialized >= len(WRITTEN_OUT.get(app, [])), "the written-out states were not compared"


def _contents(root: Path) -> dict[str, object]:
    """Every file under `root` by its contents; an office file by its members, but the time openpyxl stamps on a
    workbook each time it saves one (docProps/core.xml's dcterms:modified)."""
    seen: dict[str, object] = {}
    for path in sorted(root.rglob("*")):
        if path.is_file():
            data = path.read_bytes()
            if zipfile.is_zipfile(path):
                with zipfile.ZipFile(path) as archive:
                    data = {n: re.sub(rb"<dcterms:modified[^<]*</dcterms:modified>", b"", archive.read(n))
                            for n in archive.namelist()}
            seen[str(path.relative_to(root))] = data
    return seen


def _tree(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def _verdicts(db: Path) -> list[tuple]:
    """(task, class, stage, passed, evidence) rows; a digest quoted in evidence is masked: a workbook a near-miss
    saves carries the time it was saved (openpyxl stamps the zip entries), so its digest differs from run to run.
    The teacher stage's evidence is masked too: the teacher's commands run only in the student's sandbox, so the
    plain run says it did not run them (its pass and the task's class must still agree)."""
    rows = sqlite3.connect(db).execute(
        "SELECT t.id, t.status, v.verifier, v.passed, v.evidence FROM tasks t JOIN verifications v "
        "ON v.task_id = t.id ORDER BY t.id, v.id").fetchall()
    return [(*row[:4], "<teacher>" if row[2] == "teacher" else re.sub(r"sha256 [0-9a-f]{12}", "sha256 <digest>",
                                                                       row[4])) for row in rows]


def test_the_pipelined_sandboxed_run_writes_what_a_plain_one_does(tmp_path):
    """Same plan (the default mix: every app and multi-app tasks), two ways: warm sandboxed workers with several gates
    in flight, and in-process with one gate at a time. Same package bytes, same classes, same evidence."""
    taxonomy = load_taxonomy()
    task_ids = plan_for(taxonomy, Selection(), 18, 5)
    runs = {}
    for name, sandbox, workers in (("pipelined", Sandbox(), None), ("plain", Sandbox(enabled=False), 1)):
        db = tmp_path / f"{name}.db"
        generator = Generator(tmp_path / name, Catalog(f"sqlite:///{db}"), sandbox=sandbox, taxonomy=taxonomy,
                              workers=workers)
        counts = generator.run(task_ids)
        assert sum(counts.values()) == len(task_ids)
        runs[name] = (_tree(tmp_path / name), _verdicts(db))
    assert runs["pipelined"][0] == runs["plain"][0]
    assert runs["pipelined"][1] == runs["plain"][1]
