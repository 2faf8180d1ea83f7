"""The office mutators (xlsx, docx, pptx), the mutation stage of the gate, and the lax checks it caught.

Per mutator: on a real family's oracle state, every damaging mutant changes the state and the family's rubric
rejects it, every neutral one passes, the in-memory fast path judges exactly like the file on disk, and the
mutator never offers a damaging mutant the task asks for. The stage: a deliberately lax package is `lax` naming
the mutant, a neutral mutant that fails makes the task `strict`, a crashing mutator is `infra_fail`. Regression
tests for the lax checks the review found (`=0*D2+3577.8`, "TBD 95.5", re-aligned or re-spaced paragraphs).
"""

from __future__ import annotations

import datetime as dt
import json
import pickle
import random
import shutil
from functools import cache, partial
from pathlib import Path
from typing import Any

import docx
import openpyxl
import pytest
from docx.enum.text import WD_ALIGN_PARAGRAPH

from forge.solve import LocalEnv
from kit import parsecache
from kit.package import load_package
from kit.sandbox import Sandbox
from kit.taxonomy import Skill, load_taxonomy
from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package
from verifiers import mutants as mutants_pkg
from verifiers.gate.controls import InProcess
from verifiers.gate.mutation import InMemory, judge, run_mutants, sample, table
from verifiers.gate.rubric import evaluate_rubric
from verifiers.gate.stages import Gate
from verifiers.mutants import Mutant, MutationContext
from verifiers.mutants import docx as docx_mutants
from verifiers.mutants import pptx as pptx_mutants
from verifiers.mutants import xlsx as xlsx_mutants
from verifiers.readers.xlsx import cell_text
from workflows import get_family

HOME = "/home/user"


@cache
def _skills() -> dict[str, Skill]:
    return load_taxonomy()


def _package(skill_id: str, tmp: Path, seed: int = 3) -> Path:
    skill = _skills()[skill_id]
    return make_package(get_family(skill.family), dict(skill.params), tmp / "out", seed=seed, skill_id=skill.id)


def _states(folder: Path, tmp: Path) -> tuple[dict[str, Any], Path, Path]:
    """(task.json, initial state, oracle state): the assets placed as setup.sh places them, then the oracle."""
    task = load_package(folder).task
    initial = tmp / "initial"
    for asset in task["setup"]["assets"]:
        dest = initial / asset["dest"].removeprefix(HOME + "/")
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(folder / asset["file"], dest)
    oracle = tmp / "oracle"
    shutil.copytree(initial, oracle)
    apply_ops(oracle, json.loads((folder / task["solutions"]["oracle"]).read_text())["ops"])
    return task, initial, oracle


def _passes(task: dict[str, Any], root: Path) -> bool:
    return all(o.passed for o in evaluate_rubric(task, root))


def _on_disk(oracle: Path, mutant: Mutant, tmp: Path) -> Path:
    work = tmp / f"m-{len(list(tmp.glob('m-*')))}"
    shutil.copytree(oracle, work)
    mutant.apply(work)
    return work


def _judge_all(skill_id: str, module: Any, tmp: Path) -> tuple[list[Mutant], dict[str, Any], Path, Path]:
    task, initial, oracle = _states(_package(skill_id, tmp), tmp)
    assert _passes(task, oracle)
    with parsecache.hot_folder(oracle):
        offered = module.mutants(MutationContext(task, initial, oracle, random.Random(7)))
        for mutant in offered:
            work = _on_disk(oracle, mutant, tmp)
            assert _digests(work) != _digests(oracle) or mutant.kind == "neutral", f"{mutant.name} changed nothing"
            on_disk = _passes(task, work)
            assert on_disk == (mutant.kind == "neutral"), (mutant.name, evaluate_rubric(task, work))
            if mutant.documents is not None:  # the fast path judges exactly like the file on disk
                state = InMemory(oracle, mutant.documents(), partial(Path, work))
                in_memory = all(o.passed for o in evaluate_rubric(task, oracle, state=state))
                assert in_memory == on_disk, mutant.name
    return offered, task, initial, oracle


def _digests(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _kinds(offered: list[Mutant]) -> set[str]:
    return {m.name.split(":", 1)[0] for m in offered}


# --- per mutator --------------------------------------------------------------------------------------------

def test_xlsx_mutants_damage_a_formula_column_and_its_rubric_rejects_each(tmp_path):
    offered, task, initial, oracle = _judge_all("calc.formula_column.sum", xlsx_mutants, tmp_path)
    assert {"xlsx.value_out_of_scope", "xlsx.row_deleted", "xlsx.formula_to_value", "xlsx.constant_formula",
            "xlsx.dressed_constant", "xlsx.wrong_column", "xlsx.sheet_renamed", "xlsx.resaved", "xlsx.touched",
            "xlsx.equivalent_formula", "xlsx.number_as_text", "xlsx.formula_as_text", "xlsx.stray_label",
            "xlsx.empty_sheet"} <= _kinds(offered)
    dressed = next(m for m in offered if m.name.startswith("xlsx.dressed_constant"))
    ws = openpyxl.load_workbook(_on_disk(oracle, dressed, tmp_path) / _xlsx(task)).active
    assert any(str(c.value).startswith("=0*") for row in ws.iter_rows() for c in row)


def test_a_validation_that_refuses_nothing_is_a_damaging_mutant(tmp_path):
    offered, *_ = _judge_all("calc.validation.whole_between", xlsx_mutants, tmp_path)
    assert "xlsx.validation_alert_off" in _kinds(offered)


def _xlsx(task: dict[str, Any]) -> str:
    return next(a["dest"] for a in task["setup"]["assets"] if a["dest"].endswith(".xlsx")).removeprefix(HOME + "/")


def test_xlsx_mutants_never_touch_what_the_task_asks_for(tmp_path):
    task, initial, oracle = _states(_package("calc.formula_column.sum", tmp_path), tmp_path)
    rel = _xlsx(task)
    before, after = openpyxl.load_workbook(initial / rel).active, openpyxl.load_workbook(oracle / rel).active
    targets = {c.coordinate for row in after.iter_rows() for c in row if c.value != before[c.coordinate].value}
    for seed in range(8):  # whichever cell the seed picks, it is one the oracle left alone
        offered = xlsx_mutants.mutants(MutationContext(task, initial, oracle, random.Random(seed)))
        for mutant in offered:
            if mutant.name.startswith("xlsx.value_out_of_scope"):
                assert mutant.name.rsplit("!", 1)[1] not in targets
    # a workbook the task creates may name its sheet freely, unless the rubric names it
    (initial / rel).unlink()
    offered = xlsx_mutants.mutants(MutationContext(task, initial, oracle, random.Random(1)))
    assert any(m.name.startswith("xlsx.sheet_renamed") for m in offered), "the rubric names the sheet"
    unnamed = {**task, "rubric": [{**c, "args": {k: v for k, v in c["args"].items() if k != "sheet"}}
                                  for c in task["rubric"]]}
    offered = xlsx_mutants.mutants(MutationContext(unnamed, initial, oracle, random.Random(1)))
    assert not any(m.name.startswith("xlsx.sheet_renamed") for m in offered)
    assert not any(m.name.startswith("xlsx.value_out_of_scope") for m in offered), "every cell is new: all in scope"


def _book(path: Path, cells: dict[str, Any]) -> None:
    wb = openpyxl.Workbook()
    for coord, value in cells.items():
        wb.active[coord] = value
    path.parent.mkdir(parents=True, exist_ok=True)
    wb.save(path)


def test_a_number_is_retyped_as_text_only_where_the_oracle_wrote_one(tmp_path):
    """Damaged: the typed number 42 becomes the string "42" (same digits, a text cell). Not offered: the oracle
    wrote only text, so there is no number to retype."""
    rel = "Documents/book.xlsx"
    task: dict[str, Any] = {"id": "t", "rubric": []}
    for name, after in (("numbers", {"A1": "Item", "B1": "Qty", "A2": "bolts", "B2": 42}),
                        ("text", {"A1": "Item", "B1": "Qty", "A2": "bolts", "B2": "many"})):
        initial, oracle = tmp_path / name / "initial", tmp_path / name / "oracle"
        _book(initial / rel, {"A1": "Item", "B1": "Qty", "A2": "bolts"})
        _book(oracle / rel, after)
        offered = [m for m in xlsx_mutants.mutants(MutationContext(task, initial, oracle, random.Random(0)))
                   if m.name.startswith("xlsx.number_as_text")]
        if name == "text":
            assert offered == []
            continue
        assert [m.name for m in offered] == ["xlsx.number_as_text:Sheet!B2"]
        work = _on_disk(oracle, offered[0], tmp_path)
        cell = openpyxl.load_workbook(work / rel).active["B2"]
        assert (cell.value, cell.data_type) == ("42", "s")


def test_equivalent_formulas_are_rewritten_but_compute_the_same():
    assert xlsx_mutants.absolute("=D2-F2") == "=$D$2-$F$2"
    assert xlsx_mutants.commuted("=D2-F2") == "=-F2+D2"
    assert xlsx_mutants.commuted("=B2*C2") == "=C2*B2"
    assert xlsx_mutants.commuted("=SUM(B2,C2)") == "=SUM(B2,C2)"
    assert xlsx_mutants.shifted("='Q1 2024'!B2+LOG10(C3)", 1) == "='Q1 2024'!C2+LOG10(D3)"
    assert xlsx_mutants.shifted("=Q1!A1*$B$2", 1) == "=Q1!B1*$C$2"


def test_docx_mutants_damage_a_reformatted_document_and_its_rubric_rejects_each(tmp_path):
    offered, *_ = _judge_all("writer.align.body_center", docx_mutants, tmp_path)
    assert {"docx.text_out_of_scope", "docx.paragraph_deleted", "docx.format_everywhere", "docx.others_reformatted",
            "docx.resaved", "docx.touched", "docx.runs_split"} <= _kinds(offered)


def test_an_italicised_paragraph_out_of_scope_is_offered_where_formatting_is_checked(tmp_path):
    """Damaged: an untouched paragraph made italic fails the document's frame. Not offered: a rubric with no check
    of character formatting out of scope (neither `docx.frame` nor the older `docx.chars_kept`)."""
    offered, task, *_ = _judge_all("writer.align.body_center", docx_mutants, tmp_path)
    assert "docx.chars_out_of_scope" in _kinds(offered)
    task, initial, oracle = _states(_package("writer.align.body_center", tmp_path / "b"), tmp_path / "b")
    bare = {**task, "rubric": [c for c in task["rubric"] if c["primitive"] not in ("docx.chars_kept", "docx.frame")]}
    offered = docx_mutants.mutants(MutationContext(bare, initial, oracle, random.Random(1)))
    assert "docx.chars_out_of_scope" not in _kinds(offered)


def test_docx_mutants_keep_the_placeholder_beside_the_answer(tmp_path):
    offered, task, initial, oracle = _judge_all("multi.totals_report.docx_average_all", docx_mutants, tmp_path)
    kept = next(m for m in offered if m.name.startswith("docx.placeholder_kept"))
    text = "\n".join(p.text for p in docx.Document(str(_on_disk(oracle, kept, tmp_path) / _docx(task))).paragraphs)
    assert "TBD" in text


def _docx(task: dict[str, Any]) -> str:
    return next(a["dest"] for a in task["setup"]["assets"] if a["dest"].endswith(".docx")).removeprefix(HOME + "/")


def test_docx_mutants_leave_the_targets_alone(tmp_path):
    task, initial, oracle = _states(_package("writer.align.body_center", tmp_path), tmp_path)
    ctx = MutationContext(task, initial, oracle, random.Random(2))
    book = docx_mutants._Docx(ctx, _docx(task))
    assert book.formatted and not book.rewritten, "aligning changes formatting, no text"
    for seed in range(6):
        for mutant in docx_mutants.mutants(MutationContext(task, initial, oracle, random.Random(seed))):
            if mutant.name.startswith(("docx.text_out_of_scope", "docx.paragraph_deleted")):
                number = int(mutant.name.rsplit(" ", 1)[1])
                assert number - 1 in book.kept
    assert not any(m.name.startswith("docx.placeholder_kept") for m in docx_mutants.mutants(ctx))


def test_pptx_mutants_damage_a_deck_and_its_rubric_rejects_each(tmp_path):
    offered, *_ = _judge_all("impress.text_format.bold_bullet", pptx_mutants, tmp_path)
    assert {"pptx.text_out_of_scope", "pptx.slide_deleted", "pptx.slides_reordered", "pptx.format_everywhere",
            "pptx.resaved", "pptx.touched"} <= _kinds(offered)


def test_pptx_mutants_leave_the_edited_slide_alone(tmp_path):
    task, initial, oracle = _states(_package("impress.bullets.append_1", tmp_path), tmp_path)
    rel = next(a["dest"] for a in task["setup"]["assets"] if a["dest"].endswith(".pptx")).removeprefix(HOME + "/")
    deck = pptx_mutants._Deck(MutationContext(task, initial, oracle, random.Random(1)), rel)
    edited = {n for _, n in deck.edited}
    assert edited and not edited & set(deck.kept)
    for seed in range(6):
        for mutant in pptx_mutants.mutants(MutationContext(task, initial, oracle, random.Random(seed))):
            if mutant.name.startswith(("pptx.text_out_of_scope", "pptx.slide_deleted")):
                assert int(mutant.name.rsplit(" ", 1)[1]) - 1 not in edited


# --- the stage ------------------------------------------------------------------------------------------------

def test_the_stage_samples_deterministically_and_covers_the_kinds(tmp_path):
    task, initial, oracle = _states(_package("calc.formula_column.sum", tmp_path), tmp_path)
    first = run_mutants(task, initial, oracle, tmp_path / "s1", budget=(2, 1))
    again = run_mutants(task, initial, oracle, tmp_path / "s2", budget=(2, 1))
    assert [m["name"] for m in first["mutants"]] == [m["name"] for m in again["mutants"]]
    kinds = [m["kind"] for m in first["mutants"]]
    assert kinds.count("damaging") == 2 and kinds.count("neutral") == 1
    every = run_mutants(task, initial, oracle, tmp_path / "s3")  # the default: every mutant offered
    assert len(every["mutants"]) == every["offered"] > 3
    fake = [Mutant(f"k{i % 3}:{i}", "damaging", lambda root: None) for i in range(9)]
    picked = sample(fake, random.Random(0), (3, 0))
    assert len({m.name.split(":")[0] for m in picked}) == 3, "round-robin over kinds"


def test_a_lax_package_is_rejected_naming_the_mutant(tmp_path):
    folder = _package("calc.formula_column.sum", tmp_path)
    task = json.loads((folder / "task.json").read_text())
    task["rubric"] = [c for c in task["rubric"] if c["primitive"] != "xlsx.frame"]  # the goal check alone
    task["rubric"][0]["args"].pop("formulas")
    (folder / "task.json").write_text(json.dumps(task, indent=2))
    verdict = gate_package(folder, mutants=None)
    assert verdict.status == "lax", verdict.stages
    assert [s.name for s in verdict.stages][-1] == "mutation"
    assert "xlsx.dressed_constant" in verdict.evidence and "xlsx.value_out_of_scope" in verdict.evidence
    rows = table(verdict.stages[-1].evidence)
    assert any(r[0].startswith("xlsx.dressed_constant") and r[2] == "accepted" for r in rows)
    assert all(r[2] == "accepted" for r in rows if r[1] == "accept"), "the neutral mutants still pass"


def test_the_fixed_package_is_accepted_with_every_mutant(tmp_path):
    verdict = gate_package(_package("calc.formula_column.sum", tmp_path), mutants=None)
    assert verdict.status == "accepted", verdict.stages
    rows = table(next(s for s in verdict.stages if s.name == "mutation").evidence)
    assert len(rows) >= 10 and all((e == "reject") == (v == "rejected") for _, e, v in rows)


def _header_broken(ctx: MutationContext) -> list[Mutant]:
    rel = next(r for r in ctx.changed() if r.endswith(".xlsx"))

    def apply(root: Path) -> None:
        wb = openpyxl.load_workbook(root / rel)
        for ws in wb.worksheets:
            ws["A1"] = f"{cell_text(ws['A1'].value)} x"
        wb.save(root / rel)

    return [Mutant("test.header_rewritten", "neutral", apply)]


def _crash(ctx: MutationContext) -> list[Mutant]:
    raise RuntimeError("a bug in a mutator")


@pytest.mark.parametrize("mutator,status,named", [(_header_broken, "strict", "test.header_rewritten"),
                                                   (_crash, "infra_fail", "mutator test crashed")])
def test_a_failing_neutral_mutant_is_strict_and_a_crashing_mutator_is_infra(tmp_path, monkeypatch, mutator,
                                                                            status, named):
    folder = _package("calc.formula_column.sum", tmp_path)
    monkeypatch.setattr(mutants_pkg, "registry", lambda: {"test": mutator})
    verdict = Gate(LocalEnv(Sandbox()), runner=InProcess(), workdir=tmp_path, mutants=None).verify(folder)
    assert verdict.status == status, verdict.stages
    assert named in verdict.evidence
    assert "\n" not in verdict.evidence, "the verdict's evidence is the human line, not the table"


def test_the_judge_reads_back_its_table():
    answer = {"mutants": [{"name": "a:[b]", "kind": "damaging", "passed": False, "evidence": "x"},
                          {"name": "n", "kind": "neutral", "passed": True, "evidence": "y"}], "offered": 5}
    status, evidence = judge(answer)
    assert status is None and "a sample of the 5 offered" in evidence
    assert table(evidence) == [("a:[b]", "reject", "rejected"), ("n", "accept", "accepted")]
    assert judge({"mutants": [{**answer["mutants"][0], "passed": True}]})[0] == "lax"


# --- regressions: the lax checks the review found -------------------------------------------------------------

def test_formula_column_rejects_a_constant_dressed_as_a_formula(tmp_path):
    task, _, oracle = _states(_package("calc.formula_column.sum", tmp_path), tmp_path)
    rel = _xlsx(task)
    wb = openpyxl.load_workbook(oracle / rel)
    ws = wb.active
    letter = task["rubric"][0]["args"]["ref"][0]
    for row, want in enumerate(task["rubric"][0]["args"]["expected"], start=2):
        ws[f"{letter}{row}"] = f"=0*D{row}+{want}"  # the review's =0*D2+3577.8: right value, no computation
    wb.save(oracle / rel)
    outcome = evaluate_rubric(task, oracle)[0]
    assert not outcome.passed and "not the asked computation" in outcome.evidence


def test_totals_report_rejects_the_placeholder_left_beside_the_figure(tmp_path):
    folder = _package("multi.totals_report.docx_average_all", tmp_path)
    task, initial, oracle = _states(folder, tmp_path)
    answer = task["rubric"][0]["args"]["value"]
    bad = tmp_path / "bad"
    shutil.copytree(initial, bad)
    apply_ops(bad, [{"op": "docx.replace_text", "path": f"{HOME}/{_docx(task)}", "old": "TBD",
                     "new": f"TBD {answer}"}])
    outcome = evaluate_rubric(task, bad)[0]
    assert not outcome.passed and "not one number alone" in outcome.evidence
    assert _passes(task, oracle)


def _restyle_others(task: dict[str, Any], root: Path, change: Any) -> None:
    args = task["rubric"][0]["args"]
    targets = [args["paragraph"]] if args.get("paragraph") else args["paragraphs"]
    path = root / _docx(task)
    document = docx.Document(str(path))
    for p in document.paragraphs:
        if p.text.strip() and not any(" ".join(p.text.split()).startswith(t) for t in targets):
            change(p)
    document.save(str(path))


def test_writer_align_rejects_realigning_the_other_paragraphs(tmp_path):
    task, _, oracle = _states(_package("writer.align.body_center", tmp_path), tmp_path)
    _restyle_others(task, oracle, lambda p: setattr(p, "alignment", WD_ALIGN_PARAGRAPH.RIGHT))
    outcome = evaluate_rubric(task, oracle)[0]
    assert not outcome.passed and "must stay so" in outcome.evidence


def test_writer_spacing_rejects_respacing_the_other_paragraphs(tmp_path):
    task, _, oracle = _states(_package("writer.spacing.at_least_body", tmp_path), tmp_path)
    _restyle_others(task, oracle, lambda p: setattr(p.paragraph_format, "line_spacing", 2.0))
    outcome = evaluate_rubric(task, oracle)[0]
    assert not outcome.passed and "must keep it" in outcome.evidence


def test_summary_cell_rejects_the_right_function_times_zero_plus_the_value(tmp_path):
    task, _, oracle = _states(_package("calc.summary.average", tmp_path), tmp_path)
    check = next(c for c in task["rubric"] if c["primitive"] == "xlsx.formula_value")["args"]
    wb = openpyxl.load_workbook(oracle / _xlsx(task))
    wb[check["sheet"]][check["cell"]] = f"={check['formula'][1:]}*0+{check['expected']}"  # calls AVERAGE over ref
    wb.save(oracle / _xlsx(task))
    outcome = next(o for o in evaluate_rubric(task, oracle) if o.id == "formula")
    assert not outcome.passed and "not the asked computation" in outcome.evidence


@pytest.mark.parametrize("skill_id", ["calc.formula_column.round", "calc.totals.sum", "calc.fill_blanks.zero"])
def test_the_shared_copy_is_exactly_a_fresh_copy_before_every_edit(skill_id, tmp_path):
    """Cell-value mutants take turns on one copy of the oracle's workbook: whatever an edit and the checks reading
    it did (cells and dimension entries a lookup creates, values set), the next edit starts from the copy exactly
    as a fresh one is (the same pickle), and ends where the same edit made on a fresh copy ends."""
    task, _, oracle = _states(_package(skill_id, tmp_path), tmp_path)
    rel = next(p.relative_to(oracle).as_posix() for p in oracle.rglob("*.xlsx"))
    fresh = xlsx_mutants._load(oracle / rel)
    ws = fresh[fresh.sheetnames[0]]
    filled = [c for c in ws._cells.values() if c.value is not None]
    number = next(c for c in filled if isinstance(c.value, int | float))
    text = next(c for c in filled if isinstance(c.value, str) and not c.value.startswith("="))
    sheet = ws.title
    changes = [xlsx_mutants._Values({(sheet, number.coordinate): number.value + 7}),
               xlsx_mutants._Values({(sheet, text.coordinate): f"={number.coordinate}*2", (sheet, "Q40"): "new"}),
               xlsx_mutants._Values({}),
               xlsx_mutants._Values({(sheet, number.coordinate): str(number.value), (sheet, "B2"): None})]
    shared = xlsx_mutants._Shared(oracle, rel)
    list(shared.wb[sheet].iter_rows(min_row=2, max_row=90, max_col=15))  # the mutators read it first
    for change in changes:
        assert shared.takes(change)
        edited = shared.edited(change)
        expected = xlsx_mutants._load(oracle / rel)
        change(expected)
        assert pickle.dumps(edited) == pickle.dumps(expected)
        for book in edited.worksheets:  # what checks reading the copy may leave behind
            list(book.iter_rows(min_row=1, max_row=80, max_col=14))
            _ = book["AC500"].value, book.column_dimensions["ZZ"], book.row_dimensions[700]
    assert not shared.takes(xlsx_mutants._Values({(sheet, "A1"): dt.date(2024, 1, 1)}))  # would set a format
