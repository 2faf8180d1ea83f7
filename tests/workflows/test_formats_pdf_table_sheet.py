"""multi.pdf_table_sheet: the family through the gate with every mutant, the invoice PDF it prepares (the item
lines as pdftotext -layout reads them), and the teacher's parse of that text."""

from __future__ import annotations

import json
import re
import subprocess

import pytest

from tests.gatekit import gate_package, make_package
from workflows.multi.pdf_table_sheet import WORKFLOW, Target, _invoice, teach

ITEMS = (("Business cards, 500", 10, 41.8, 418.0), ("Design proof, per hour", 5, 43.23, 216.15),
         ("Roll-up banner with stand", 2, 1099.5, 2199.0))


@pytest.mark.slow
@pytest.mark.parametrize("total", ["none", "total_row"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, total):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"total": total}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        assert task["rubric"][0]["primitive"] == "multi.sheet_table"


def test_the_invoice_prints_items_then_the_summary():
    text = _invoice("Summit Print & Copy", "INV-1234", __import__("datetime").date(2024, 5, 2), "Orbit Logistics Ltd",
                    ITEMS, 2833.15)
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Description"))
    assert lines[start + 1].startswith("Business cards, 500") and lines[start + 1].endswith("418.00")
    assert lines[start + 3].endswith("1,099.50    2,199.00")
    assert [line.split()[0] for line in lines if re.match(r"(Subtotal|VAT|Total due)", line)] == [
        "Subtotal", "VAT", "Total"]
    assert "3,399.78" in text  # the total due, VAT included


def test_the_teacher_reads_the_table_off_the_text():
    script = teach({"total": "total_row"}, Target("/home/user/a.pdf", "/home/user/Documents/x.xlsx", "Items", ITEMS))
    code = script.split("<<'PY'\n", 1)[1].rsplit("PY", 1)[0]
    assert "pdftotext" in code and "'Total', None, None" in code
    compile(code, "teacher", "exec")


@pytest.mark.skipif(subprocess.run(["which", "pdftotext"], capture_output=True).returncode != 0,
                    reason="poppler's pdftotext is not installed")
def test_pdftotext_keeps_each_item_on_one_line(tmp_path):
    from preparers.tree import FileSpec, render

    text = _invoice("Summit Print & Copy", "INV-1234", __import__("datetime").date(2024, 5, 2), "Orbit Logistics Ltd",
                    ITEMS, 2833.15)
    pdf = tmp_path / "inv.pdf"
    pdf.write_bytes(render(FileSpec("/home/user/inv.pdf", "pdf", text)))
    out = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    item = re.compile(r"\s*(.+?)\s+(\d+)\s+([\d,]+\.\d\d)\s+([\d,]+\.\d\d)\s*$")
    rows = [m.groups() for line in out.splitlines() if (m := item.match(line)) and "Subtotal" not in line]
    assert rows[:3] == [("Business cards, 500", "10", "41.80", "418.00"),
                        ("Design proof, per hour", "5", "43.23", "216.15"),
                        ("Roll-up banner with stand", "2", "1,099.50", "2,199.00")]
