"""The first look at the spreadsheets a task names (forge.agent.preview), shown in every first turn."""

from __future__ import annotations

from pathlib import Path

from openpyxl import Workbook

from forge.agent.episode import task_message
from forge.agent.preview import preview_documents


def _book(path: Path, rows: int = 9) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    wb = Workbook()
    ws = wb.active
    ws.title = "Orders"
    ws.append(["Region", "Units", "Price"])
    for n in range(rows):
        ws.append([f"R{n}", n, n * 2.5])
    ws["D2"] = "=B2*C2"
    wb.save(path)


def test_the_named_sheet_is_shown_with_its_headers_size_and_first_rows(tmp_path):
    _book(tmp_path / "Documents/orders.xlsx")
    _book(tmp_path / "Documents/other.xlsx")
    _book(tmp_path / "Documents/third.xlsx")
    text = preview_documents("Sort orders.xlsx by Units, descending.", tmp_path)
    assert text.startswith("A first look at /home/user/Documents/orders.xlsx:\nsheet 'Orders' (10 rows x 4 columns")
    assert "A1=Region | B1=Units | C1=Price" in text and "D2==B2*C2" in text  # formulas as typed
    assert "[... rows 7-10]" in text and "other.xlsx" not in text


def test_an_instruction_naming_no_file_sees_a_lone_sheet_and_nothing_among_many(tmp_path):
    _book(tmp_path / "a/orders.xlsx")
    (tmp_path / "a/list.csv").write_text("name,qty\npens,4\n")
    assert "orders.xlsx" in preview_documents("Sort my orders sheet by units.", tmp_path)
    assert "  name,qty\n  pens,4" in preview_documents("Sort my orders sheet by units.", tmp_path)
    _book(tmp_path / "b/more.xlsx")
    assert preview_documents("Sort my orders sheet by units.", tmp_path) == ""


def test_a_damaged_file_gets_no_preview_and_the_first_turn_still_comes(tmp_path):
    (tmp_path / "Documents").mkdir()
    (tmp_path / "Documents/orders.xlsx").write_bytes(b"PK\x03\x04 not really a workbook")
    assert preview_documents("Sort orders.xlsx by Units.", tmp_path) == ""
    message = task_message("Sort orders.xlsx by Units.", tmp_path)
    assert message.startswith("Sort orders.xlsx by Units.\n\nThe files in your home folder")
    assert "first look" not in message
