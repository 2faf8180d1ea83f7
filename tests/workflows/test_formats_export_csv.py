"""calc.export_csv: the family through the gate with every mutant, its check on hand-made CSV files (LibreOffice's
formatted numbers, a semicolon file read as commas, an xlsx under a .csv name), its op."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from preparers import xlsx
from preparers.ops import apply_ops
from tests.gatekit import gate_package, make_package
from verifiers import extract
from verifiers.checks import State, run_check
from workflows.calc.export_csv import HOW, NATURAL, PHRASINGS, WORKFLOW

BOOK = "/home/user/Documents/q3.xlsx"
DEST = "/home/user/Documents/q3_sales.csv"
ROWS = [["Region", "Amount", "Closed On", "Deals"], ["North, East", 1234.5, dt.date(2024, 3, 5), 12],
        ["South", 80.25, dt.date(2024, 3, 9), 3]]


@pytest.mark.slow
@pytest.mark.parametrize("delimiter", ["comma", "semicolon", "tab"])
def test_tasks_pass_the_gate_with_every_mutant(tmp_path, delimiter):
    for seed in (1, 2):
        folder = make_package(WORKFLOW, {"delimiter": delimiter}, tmp_path / str(seed), seed=seed)
        verdict = gate_package(folder, mutants=None)
        assert (verdict.status, verdict.evidence) == ("accepted", "all stages passed"), [
            (s.name, s.evidence) for s in verdict.stages if not s.passed]
        task = json.loads((folder / "task.json").read_text())
        assert [c["primitive"] for c in task["rubric"]] == ["csv.sheet_export", "xlsx.frame", "tree.frame"]


@pytest.mark.parametrize("delimiter", ["comma", "semicolon", "tab"])
def test_every_phrasing_says_the_delimiter_and_no_other(delimiter):
    for phrasing in PHRASINGS + NATURAL:
        text = phrasing.replace("{path.file}", "q3.xlsx").format(path=BOOK, sheet="Sales", dest=DEST,
                                                                  how=HOW[delimiter])
        assert set(extract.expressed(text, "delimiter")) == {delimiter}, text


def _state(tmp_path: Path) -> State:
    (tmp_path / "Documents").mkdir()
    spec = {"sheets": [{"name": "Archive", "rows": [["Region", "Amount"], ["West", 5]]},
                       {"name": "Sales", "rows": ROWS, "number_formats": {"B": "#,##0.00"}}]}
    (tmp_path / "Documents/q3.xlsx").write_bytes(xlsx.build(spec))
    return State(tmp_path)


def _check(tmp_path: Path, delimiter: str = "comma") -> tuple[bool, str]:
    result = run_check(State(tmp_path), "csv.sheet_export",
                       {"path": DEST, "workbook": BOOK, "sheet": "Sales", "delimiter": delimiter})
    return result.passed, result.evidence


def _write(tmp_path: Path, text: str) -> None:
    (tmp_path / "Documents/q3_sales.csv").write_bytes(text.encode("utf-8"))


def test_the_check_reads_shown_values_and_refuses_slips(tmp_path):
    _state(tmp_path)
    assert _check(tmp_path)[0] is False  # no file yet
    # as LibreOffice writes it: formatted numbers quoted, dates as shown, a BOM, CRLF line ends
    _write(tmp_path, '\ufeffRegion,Amount,Closed On,Deals\r\n"North, East","1,234.50",2024-03-05,12\r\n'
                     'South,80.25,2024-03-09,3\r\n')
    assert _check(tmp_path) == (True, f"{DEST} (read as comma-separated) holds the 3 rows of sheet 'Sales' "
                                      "(header first), every field as its cell")
    _write(tmp_path, "Region;Amount;Closed On;Deals\nNorth, East;1234.5;05.03.2024;12\nSouth;80.25;09.03.2024;3\n")
    assert _check(tmp_path, "semicolon")[0] is True
    assert _check(tmp_path, "comma")[0] is False  # the same file is no comma-separated export
    _write(tmp_path, '"North, East",1234.5,2024-03-05,12\nSouth,80.25,2024-03-09,3\n')
    assert "it has 2 lines" in _check(tmp_path)[1]  # the header dropped
    _write(tmp_path, 'Region,Amount,Closed On,Deals\n"North, East",1234.5,2024-03-05,12\nSouth,80.2,2024-03-09,3\n')
    assert "line 3, field 2 is '80.2'" in _check(tmp_path)[1]
    (tmp_path / "Documents/q3_sales.csv").write_bytes((tmp_path / "Documents/q3.xlsx").read_bytes())
    assert "zip archive" in _check(tmp_path)[1]


@pytest.mark.parametrize("delimiter", ["comma", "semicolon", "tab"])
def test_the_op_writes_the_asked_sheet(tmp_path, delimiter):
    _state(tmp_path)
    apply_ops(tmp_path, [{"op": "fmt.export_csv", "path": BOOK, "sheet": "Sales", "dest": DEST,
                          "delimiter": delimiter}])
    assert _check(tmp_path, delimiter)[0] is True
    apply_ops(tmp_path, [{"op": "fmt.export_csv", "path": BOOK, "sheet": "Archive", "dest": DEST,
                          "delimiter": delimiter}])
    assert _check(tmp_path, delimiter)[0] is False
