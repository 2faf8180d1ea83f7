"""calc.save_ods: the family through the gate with every mutant, the check on hand-made .ods end states (an xlsx
renamed, a sheet missing, sheets swapped, a value changed, a stray value, a broken zip, a million repeated rows),
the op's .ods read back, and real LibreOffice's .ods of a workbook passing the check when LibreOffice is
installed."""

from __future__ import annotations

import datetime as dt
import io
import json
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from preparers import xlsx
from preparers.ops import apply_ops
from preparers.ops.formats_ods import ODS_MIMETYPE, ods_bytes
from tests.gatekit import gate_package, make_package
from verifiers.checks import State, run_check
from verifiers.checks.ods import encode
from verifiers.readers.ods import load_ods
from workflows.calc.save_ods import NATURAL, PHRASINGS, WORKFLOW

PATH, DEST = "/home/user/fleet.xlsx", "/home/user/fleet.ods"
DATA = [["Vehicle", "Serviced", "Km", "Cost"], ["Van 12", dt.date(2024, 3, 4), 48210, 312.5],
        ["Truck 3", dt.date(2024, 5, 19), 120044, 1290.75]]
NOTES = [["About this workbook", None], ["Prepared by", "Fleet desk"], ["Rows of data", 2]]
SPEC = {"sheets": [{"name": "Fleet", "rows": DATA}, {"name": "Notes", "rows": NOTES}]}


def _cells(rows):
    return {f"{'ABCD'[c]}{r + 1}": encode(v) for r, row in enumerate(rows) for c, v in enumerate(row)
            if v is not None}


SHEETS = [{"name": "Fleet", "cells": _cells(DATA)}, {"name": "Notes", "cells": _cells(NOTES)}]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["same", "renamed"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, name):
    for seed in (2, 5):
        folder = make_package(WORKFLOW, {"name": name}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]] == ["ods.workbook_values", "xlsx.frame", "tree.frame"]
        assert [s["name"] for s in task["rubric"][0]["args"]["sheets"]][1:] != []


def _check(root: Path) -> tuple[bool, str]:
    result = run_check(State(root), "ods.workbook_values", {"path": DEST, "source": PATH, "sheets": SHEETS})
    return result.passed, result.evidence


def test_op_writes_an_ods_the_reader_reads(tmp_path):
    (tmp_path / "fleet.xlsx").write_bytes(xlsx.build(SPEC))
    apply_ops(tmp_path, [{"op": "fmt.save_ods", "path": PATH, "dest": DEST}])
    book = load_ods(tmp_path / "fleet.ods")
    assert book.mimetype == ODS_MIMETYPE and book.names() == ["Fleet", "Notes"]
    assert book.sheets[0][1][(1, 1)] == dt.date(2024, 3, 4) and book.sheets[0][1][(2, 3)] == 1290.75
    assert _check(tmp_path) == (True, _check(tmp_path)[1])
    assert (tmp_path / "fleet.xlsx").read_bytes() == xlsx.build(SPEC)


def _repeated_rows() -> bytes:
    """An .ods whose one row of a value is repeated a million times (a bomb the reader must refuse, bounded)."""
    content = ('<?xml version="1.0"?><office:document-content '
               'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
               'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"><office:body><office:spreadsheet>'
               '<table:table table:name="Fleet"><table:table-row table:number-rows-repeated="1000000">'
               '<table:table-cell table:number-columns-repeated="1024" office:value-type="float" office:value="1"/>'
               '</table:table-row></table:table></office:spreadsheet></office:body></office:document-content>')
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("mimetype", ODS_MIMETYPE)
        archive.writestr("content.xml", content)
    return buffer.getvalue()


def test_wrong_ods_files_fail(tmp_path):
    (tmp_path / "fleet.xlsx").write_bytes(xlsx.build(SPEC))
    shutil.copy(tmp_path / "fleet.xlsx", tmp_path / "fleet.ods")
    assert not _check(tmp_path)[0]
    (tmp_path / "fleet.ods").write_bytes(ods_bytes([("Fleet", DATA)]))
    passed, evidence = _check(tmp_path)
    assert not passed and "Notes" in evidence
    (tmp_path / "fleet.ods").write_bytes(ods_bytes([("Notes", NOTES), ("Fleet", DATA)]))
    assert not _check(tmp_path)[0]
    changed = [row[:] for row in DATA]
    changed[2][3] = 1290.7
    (tmp_path / "fleet.ods").write_bytes(ods_bytes([("Fleet", changed), ("Notes", NOTES)]))
    passed, evidence = _check(tmp_path)
    assert not passed and "D3" in evidence
    as_text = [row[:] for row in DATA]
    as_text[1][1] = "2024-03-04"  # a date typed as text
    (tmp_path / "fleet.ods").write_bytes(ods_bytes([("Fleet", as_text), ("Notes", NOTES)]))
    assert not _check(tmp_path)[0]
    (tmp_path / "fleet.ods").write_bytes(ods_bytes([("Fleet", [*DATA, ["Total", None, None, 1603.25]]),
                                                    ("Notes", NOTES)]))
    passed, evidence = _check(tmp_path)
    assert not passed and "A4" in evidence
    (tmp_path / "fleet.ods").write_bytes(b"PK\x03\x04 not a zip")
    assert not _check(tmp_path)[0]
    (tmp_path / "fleet.ods").write_bytes(_repeated_rows())
    passed, evidence = _check(tmp_path)
    assert not passed


def test_phrasings_name_both_files():
    for phrasing in (*PHRASINGS, *NATURAL):
        assert "{dest}" in phrasing and ("{path}" in phrasing or "{path.file}" in phrasing)


@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice is not installed")
def test_libreoffice_ods_passes(tmp_path):
    (tmp_path / "fleet.xlsx").write_bytes(xlsx.build(SPEC))
    out = tmp_path / "out"
    subprocess.run(["soffice", "--headless", "--convert-to", "ods", "--outdir", str(out), str(tmp_path / "fleet.xlsx")],
                   check=True, capture_output=True, timeout=180)
    shutil.move(out / "fleet.ods", tmp_path / "fleet.ods")
    assert _check(tmp_path)[0], _check(tmp_path)[1]
