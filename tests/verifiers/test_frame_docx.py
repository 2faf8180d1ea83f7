"""The docx frame (closed world, issue 37): every change of a Writer end state must be one the task asked for.

Real Writer tasks are made offline and pass the real gate; then hand-made end states of kinds no goal check reads
are judged by their rubric: an untouched list put in reverse order, a stray paragraph appended, a paragraph's text
changed outside the target, a restyled paragraph, other margins, a footer added, a document property set. Each
must fail the frame, with evidence that names the change. Valid alternatives (a LibreOffice re-save, bold on the
style instead of the run, runs split differently) must pass it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import docx
import pytest
from docx.shared import Cm

from kit.model import Asset, Freedom, Solution
from kit.taxonomy import load_taxonomy
from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package, package_states
from verifiers.checks import State, run_check
from verifiers.frame.docx import derive, judge, read
from verifiers.gate.rubric import evaluate_rubric
from workflows import get_family
from workflows.frame import frame_checks

SKILLS = ("writer.font.bold_paragraph", "writer.font.bold_title", "writer.list.bullet_flat",
          "writer.footer.page_number_center", "writer.replace.name_ignore_case", "writer.table.add_column",
          "writer.break.after_paragraph")


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("frame_docx")
    taxonomy = load_taxonomy()
    made = {}
    for skill_id in SKILLS:
        skill = taxonomy[skill_id]
        folder = make_package(get_family(skill.family), dict(skill.params), out, seed=3, skill_id=skill_id)
        verdict = gate_package(folder)
        assert verdict.status == "accepted", (skill_id, verdict)
        made[skill_id] = folder
    return made


def _end(package: Path, tmp_path: Path) -> tuple[dict[str, Any], Path, Path, dict[str, Any]]:
    """(task, the oracle's end state, its document, the docx frame's args)"""
    _, after = package_states(package, tmp_path, "solution/oracle.json")
    task = json.loads((package / "task.json").read_text())
    frame = next(c for c in task["rubric"] if c["primitive"] == "docx.frame")
    return task, after, after / frame["args"]["path"].removeprefix("/home/user/"), frame["args"]


def _verdict(task: dict[str, Any], root: Path) -> tuple[bool, list[str]]:
    """(the whole rubric passes, the evidence of each failed frame check)"""
    outcomes = evaluate_rubric(task, root)
    return all(o.passed for o in outcomes), [o.evidence for o in outcomes if o.id.startswith("frame") and not o.passed]


def _untouched(args: dict[str, Any]) -> list[int]:
    """0-based numbers of the oracle's paragraphs the task leaves exactly as they were."""
    return [n for n, line in enumerate(args["body"]) if line.startswith("p|") and "*" not in line]


def _paragraphs(document: Any) -> list[Any]:
    return [p for p in document.paragraphs if p.text.strip()]


def _reverse_list(document: Any, args: dict[str, Any]) -> None:
    """An untouched run of list items (or, without one, of paragraphs) put in reverse order."""
    paras = _paragraphs(document)
    free = set(_untouched(args))
    runs: list[list[int]] = []
    for n in sorted(free):
        if runs and runs[-1][-1] == n - 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    listed = [r for r in runs if len(r) >= 2 and all("List" in paras[n].style.name for n in r)]
    span = (listed or [r for r in runs if len(r) >= 2])[0][:4]
    anchor = paras[span[-1]]._p
    for n in span[:-1]:
        anchor.addnext(paras[n]._p)
        anchor = paras[n]._p


def _append_stray(document: Any, args: dict[str, Any]) -> None:
    document.add_paragraph("Reviewed by the team.")


def _text_changed(document: Any, args: dict[str, Any]) -> None:
    p = _paragraphs(document)[_untouched(args)[-1]]
    p.runs[-1].text += " (updated)"


def _restyled(document: Any, args: dict[str, Any]) -> None:
    _paragraphs(document)[_untouched(args)[-1]].style = document.styles["Heading 2"]


def _margins(document: Any, args: dict[str, Any]) -> None:
    document.sections[0].left_margin = Cm(4)


def _footer(document: Any, args: dict[str, Any]) -> None:
    footer = document.sections[0].footer
    footer.is_linked_to_previous = False
    footer.paragraphs[0].text = "Confidential"


def _title(document: Any, args: dict[str, Any]) -> None:
    document.core_properties.title = "Old draft"


WRONG = {  # name: (edit of the oracle's document, words the frame's evidence must hold)
    "reversed list": (_reverse_list, "reordered"),
    "stray paragraph": (_append_stray, "a new paragraph after paragraph"),
    "text out of scope": (_text_changed, "text changed"),
    "restyled paragraph": (_restyled, "style changed (now 'heading2')"),
    "margins": (_margins, "#section 1 changed"),
    "footer added": (_footer, "#footer 1"),
    "title property": (_title, "#props"),
}


@pytest.mark.parametrize("wrong", sorted(WRONG))
@pytest.mark.parametrize("skill", ["writer.font.bold_paragraph", "writer.list.bullet_flat"])
def test_a_change_out_of_scope_fails_the_frame(packages, tmp_path, skill, wrong):
    task, root, path, args = _end(packages[skill], tmp_path)
    change, words = WRONG[wrong]
    if wrong == "footer added" and any(k.startswith("#footer") for k in args["kept"]):
        pytest.skip("this document has a footer already")
    document = docx.Document(str(path))
    change(document, args)
    document.save(str(path))
    passed, evidence = _verdict(task, root)
    assert not passed and evidence, f"{wrong} passed the frame"
    assert words in evidence[0], evidence


def test_the_evidence_names_each_change_precisely():
    def facts(texts: list[str], **more: str) -> dict[str, str]:
        out = {f"body:{n:03d}#text": f"p:{t}" for n, t in enumerate(texts, 1)}
        out |= {f"body:{n:03d}#style": "normal" for n in range(1, len(texts) + 1)}
        return out | more

    texts = [f"Paragraph number {n}." for n in range(1, 13)]
    initial = facts(texts, **{"#section 1": "A4"})
    oracle = facts([*texts[:1], "Changed by the task.", *texts[2:]], **{"#section 1": "A4"})
    frame = derive(initial, oracle)
    assert frame["allowed"] == {"body:002#text": "*"} and frame["kept"] == {"#section 1": frame["kept"]["#section 1"]}
    assert judge(frame, oracle) == []
    assert judge(frame, facts([*texts[:1], "Anything the goal checks judge.", *texts[2:]],
                              **{"#section 1": "A4"})) == []
    wrong = [*texts[:1], "Changed by the task.", texts[2], *texts[6:2:-1], *texts[7:]]  # 4-7 reversed
    assert judge(frame, facts(wrong, **{"#section 1": "A4"})) == ["paragraphs 4-7 reordered"]
    wrong = [*texts[:1], "Changed by the task.", *texts[2:6], "Paragraph number 7, edited.", *texts[7:], "Stray."]
    assert judge(frame, facts(wrong, **{"#section 1": "Letter"})) == [
        "paragraph 7 text changed (now 'Paragraph number 7, edited.')",
        "a new paragraph after paragraph 12 ('Stray.')", "#section 1 changed (now Letter)"]
    assert judge(frame, facts([*texts[:1], "Changed by the task.", *texts[3:]], **{"#section 1": "A4"})) == [
        "paragraph 3 removed"]


def test_a_freedom_allows_its_region():
    initial = {"body:001#text": "p:Title", "body:001#runs": '[["", "Title"]]'}
    oracle = {"body:001#text": "p:Title", "body:001#runs": '[["bold", "Title"]]'}
    end = {"body:001#text": "p:Title", "body:001#runs": '[["bold,italic", "Title"]]'}
    assert judge(derive(initial, initial), end) == ["paragraph 1 character formatting changed"]
    assert judge(derive(initial, oracle), end) == []  # the goal check judges the formatting the task asks for
    assert judge(derive(initial, initial, {"*#runs": "the instruction leaves the emphasis to the user"}), end) == []


def test_bold_on_the_style_instead_of_the_run_passes(packages, tmp_path):
    """'Make the title bold' done on the Title style instead of the title's runs: what a person sees is the same,
    and the frame reads formatting as Writer resolves it (run, character style, paragraph style chain)."""
    task, root, path, args = _end(packages["writer.font.bold_title"], tmp_path)
    document = docx.Document(str(path))
    title = next(p for p in document.paragraphs if p.style.name == "Title")
    for run in title.runs:
        run.bold = None
    document.styles["Title"].font.bold = True
    document.save(str(path))
    assert _verdict(task, root) == (True, [])


def test_a_paragraph_given_a_style_of_its_own_is_a_change_a_freedom_may_allow(packages, tmp_path):
    """Bold through a new paragraph style: the paragraph's style is a change a person sees (the style list, the
    navigator); a family that accepts it declares the freedom."""
    task, root, path, args = _end(packages["writer.font.bold_paragraph"], tmp_path)
    oracle = read(path)
    document = docx.Document(str(path))
    target = next(p for p in document.paragraphs if any(r.bold for r in p.runs))
    for run in target.runs:
        run.bold = None
    style = document.styles.add_style("Body Bold", 1)
    style.base_style = target.style
    style.font.bold = True
    target.style = style
    document.save(str(path))
    _, evidence = _verdict(task, root)
    assert evidence and "style changed (now 'bodybold')" in evidence[0], evidence
    initial = read(root.parent / "initial" / args["path"].removeprefix("/home/user/"))
    loose = derive(initial, oracle, {"*#style": "a paragraph style of the user's own"})
    assert judge(loose, read(path)) == []


def test_runs_split_differently_read_the_same(packages, tmp_path):
    task, root, path, args = _end(packages["writer.list.bullet_flat"], tmp_path)
    before = read(path)
    document = docx.Document(str(path))
    for p in _paragraphs(document):
        run = p.runs[0]
        text = run.text
        run.text = text[: len(text) // 2]
        twin = p.add_run(text[len(text) // 2:])
        twin.bold, twin.italic, twin.font.size = run.bold, run.italic, run.font.size
        run._r.addnext(twin._r)
    document.save(str(path))
    assert read(path) == before
    assert _verdict(task, root) == (True, [])


@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice is not installed")
def test_a_libreoffice_resave_of_the_oracle_passes_the_frame(packages, tmp_path):
    ends = {skill: _end(packages[skill], tmp_path / skill.replace(".", "_")) for skill in SKILLS}
    stage, out = tmp_path / "stage", tmp_path / "lo"
    stage.mkdir()
    for n, (_, _, path, _) in enumerate(ends.values()):  # one name each: two tasks may name their files alike
        shutil.copyfile(path, stage / f"d{n}.docx")
    subprocess.run(["soffice", "--headless", f"-env:UserInstallation=file://{tmp_path / 'profile'}",
                    "--convert-to", "docx:MS Word 2007 XML", "--outdir", str(out),
                    *sorted(str(f) for f in stage.iterdir())], check=True, capture_output=True, timeout=300)
    for n, (skill, (task, root, path, _)) in enumerate(ends.items()):
        before = read(path)
        shutil.copyfile(out / f"d{n}.docx", path)
        assert read(path) == before, skill  # save noise reads equal
        assert _verdict(task, root) == (True, []), skill


def test_a_damaged_document_fails_the_check_without_a_crash(tmp_path):
    (tmp_path / "a.docx").write_bytes(b"PK\x03\x04 not really a zip")
    result = run_check(State(tmp_path), "docx.frame", {"path": "/home/user/a.docx", "allowed": {}, "kept": {},
                                                       "body": []})
    assert not result.passed


def test_a_document_the_oracle_makes_is_framed_against_nothing(tmp_path):
    from preparers import docx as docx_prep

    data = docx_prep.build({"blocks": [{"text": "Minutes", "style": "Title"}, {"text": "We met at noon."}]})
    ops = [{"op": "fs.copy", "path": "/home/user/a.docx", "dest": "/home/user/copy/a.docx"},
           {"op": "docx.set_alignment", "path": "/home/user/copy/a.docx", "paragraphs": ["We met"],
            "align": "center"}]
    checks = {c.args["path"]: c for c in frame_checks([Asset("/home/user/a.docx", data)], Solution("oracle", "", ops),
                                                      (Freedom("*#runs", "any emphasis"),))}
    made, kept = checks["/home/user/copy/a.docx"], checks["/home/user/a.docx"]
    assert made.args["kept"] == {} and all("*" in line for line in made.args["body"])
    assert kept.args["allowed"] == {} and "Also free: *#runs (any emphasis)." in kept.criterion
    (tmp_path / "a.docx").write_bytes(data)
    apply_ops(tmp_path, ops)
    assert run_check(State(tmp_path), "docx.frame", made.args).passed
    document = docx.Document(str(tmp_path / "copy" / "a.docx"))
    document.add_paragraph("Scratch")
    document.save(str(tmp_path / "copy" / "a.docx"))
    result = run_check(State(tmp_path), "docx.frame", made.args)
    assert not result.passed and "a new paragraph after paragraph 2 ('Scratch')" in result.evidence, result.evidence
