"""The LibreOffice tier with real soffice: artifacts open in their module; oracle results survive a re-save."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import zipfile
from pathlib import Path

import openpyxl
import pytest
from typer.testing import CliRunner

from forge.cli import app
from forge.realapps import Policy, RealApps, libreoffice
from forge.solve import LocalEnv
from kit.package import load_package
from kit.sandbox import Sandbox
from tests.gatekit import make_package
from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.gate.controls import InProcess
from verifiers.gate.stages import Gate
from verifiers.meaning import Meaning
from workflows.calc import freeze_panes as calc_freeze_panes
from workflows.calc import sort_rows as calc_sort_rows

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not libreoffice.available(), reason="LibreOffice (soffice) is not installed")]


@primitive("test.written_by_openpyxl", meaning=Meaning(action=None, why="a test's check: too strict on purpose"))
def written_by_openpyxl(state: State, path: str) -> Result:
    """Too strict on purpose: the file must still say openpyxl wrote it (a LibreOffice save changes that)."""
    app_xml = zipfile.ZipFile(state.path(path)).read("docProps/app.xml").decode()
    return ok("written by openpyxl") if "Microsoft Excel" in app_xml else fail(f"app.xml says: {app_xml[-120:]}")


def _tier(tmp_path: Path) -> RealApps:
    work = tmp_path / "work"
    work.mkdir()
    return RealApps(Policy("all"), LocalEnv(Sandbox()), InProcess(), work, Sandbox())


def _add_check(folder: Path, check: dict) -> None:
    task = json.loads((folder / "task.json").read_text())
    task["rubric"].append(check)
    (folder / "task.json").write_text(json.dumps(task))


def test_check_too_strict_for_a_libreoffice_save_is_caught(tmp_path):
    folder = make_package(calc_sort_rows.WORKFLOW, {"key_kind": "numeric", "order": "asc"}, tmp_path / "out", seed=2)
    path = json.loads((folder / "task.json").read_text())["rubric"][0]["args"]["path"]
    _add_check(folder, {"id": "strict", "criterion": "The workbook is still the one openpyxl wrote.",
                        "primitive": "test.written_by_openpyxl", "args": {"path": path}})
    tier1 = Gate(LocalEnv(Sandbox()), runner=InProcess()).verify(folder)
    assert tier1.status == "accepted", tier1.evidence  # tier 1 cannot see the problem

    stages = _tier(tmp_path).check([load_package(folder)])[0]

    assert [(s.name, s.passed) for s in stages] == [("real-open", True), ("alternative", False)]
    assert "strict:" in stages[1].evidence and "re-saved by LibreOffice" in stages[1].evidence


def test_view_state_checks_are_named_not_judged(tmp_path):
    folder = make_package(calc_freeze_panes.WORKFLOW, {"target": "both"}, tmp_path / "out", seed=2)
    stages = _tier(tmp_path).check([load_package(folder)])[0]
    assert [(s.name, s.passed) for s in stages] == [("real-open", True), ("alternative", True)]
    assert "not judged headlessly: ['frozen']" in stages[1].evidence


def test_a_headless_resave_really_drops_frozen_panes(tmp_path):
    """Keeps the exclusion above honest (measured on LibreOffice 7.4/24.x): `soffice --headless --convert-to xlsx`
    writes no <pane> for a frozen sheet, so `frozen` cannot be judged on its output. When LibreOffice starts keeping
    them, this fails, and the check should be judged headlessly again."""
    book = tmp_path / "frozen.xlsx"
    wb = openpyxl.Workbook()
    for row in range(1, 12):
        wb.active.append([row, row * 2, row * 3])
    wb.active.freeze_panes = "B2"
    wb.save(book)
    office = libreoffice.Office(tmp_path / "office", Sandbox())
    out, _ = libreoffice.resave(office, [book])[book]
    assert out is not None
    assert openpyxl.load_workbook(book).active.freeze_panes == "B2"
    assert openpyxl.load_workbook(out).active.freeze_panes is None


def test_asset_that_does_not_open_fails_real_open(tmp_path):
    folder = make_package(calc_sort_rows.WORKFLOW, {"key_kind": "text", "order": "asc"}, tmp_path / "out", seed=3)
    task = json.loads((folder / "task.json").read_text())
    asset = task["setup"]["assets"][0]
    garbage = bytes(range(256)) * 40
    (folder / asset["file"]).write_bytes(garbage)
    asset["sha256"] = hashlib.sha256(garbage).hexdigest()
    (folder / "task.json").write_text(json.dumps(task))

    stages = _tier(tmp_path).check([load_package(folder)])[0]

    assert [(s.name, s.passed) for s in stages] == [("real-open", False)]
    assert Path(asset["file"]).name in stages[0].evidence


def test_probes_come_from_the_file():
    assert libreoffice.probes(Path("/nonexistent.xlsx")) == []


def test_generate_with_real_apps_all_records_the_tier(tmp_path):
    db = tmp_path / "f.db"
    result = CliRunner().invoke(app, ["generate", "--family", "calc.sort_rows", "-n", "3", "--seed", "5",
                                      "--out", str(tmp_path / "out"), "--db", str(db), "--real-apps", "all"])
    assert result.exit_code == 0, result.output
    rows = sqlite3.connect(db).execute(
        "SELECT t.status, v.verifier, v.passed FROM tasks t JOIN verifications v ON v.task_id = t.id "
        "WHERE v.verifier IN ('real-open', 'alternative') ORDER BY t.id, v.id").fetchall()
    assert rows == [("accepted", "real-open", 1), ("accepted", "alternative", 1)] * 3


def test_csv_asset_for_calc_is_not_an_office_document(tmp_path):
    from workflows.multi import sheet_contacts as multi_sheet_contacts

    folder = make_package(multi_sheet_contacts.WORKFLOW, {"source": "csv", "subset": "all"}, tmp_path / "out", seed=2)
    stages = _tier(tmp_path).check([load_package(folder)])[0]
    assert all(s.name != "real-infra" for s in stages), stages
    assert all(s.passed for s in stages), stages


def test_a_hidden_slides_text_is_no_probe(tmp_path):
    """LibreOffice's export leaves hidden slides out, so their text cannot prove the deck opened: a deck whose first
    slide is hidden failed the real-app open check (impress.hide_slide's 'unhide' variant)."""
    import pptx

    deck = pptx.Presentation()
    for title in ("Hidden agenda draft", "Quarterly results overview"):
        slide = deck.slides.add_slide(deck.slide_layouts[5])
        slide.shapes.title.text = title
    deck.slides[0].element.set("show", "0")
    path = tmp_path / "deck.pptx"
    deck.save(str(path))
    assert libreoffice.probes(path) == ["Quarterly results overview"]
