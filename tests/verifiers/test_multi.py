"""The multi.* primitives and ops: each passes on a right state and fails, with evidence, on a wrong one, a missing
file and a corrupt file; the hand-off ops write their output at once so the next app's op can read it."""

from __future__ import annotations

import datetime as dt
import io
import json
import re
import zipfile
from pathlib import Path

import openpyxl
import pytest
from PIL import Image

from preparers import chrome, docx, pptx, xlsx
from preparers import thunderbird as tb
from preparers.ops import apply_ops
from verifiers.checks import State, run_check
from verifiers.checks.image_measure import thumbnail
from verifiers.checks.multi import as_number, same_cell
from verifiers.readers.xlsx import cached_formula_values, saved_value

HOME = "/home/user"
BOOK = f"{HOME}/sheet.xlsx"
DOC = f"{HOME}/report.docx"
DECK = f"{HOME}/deck.pptx"
PROFILE = f"{HOME}/.thunderbird/abcd1234.default-release"
BOOKMARKS = f"{HOME}/.config/google-chrome/Default/Bookmarks"
HEADER = ["Item", "When", "Amount"]
ROWS = [["Venue", dt.date(2024, 3, 1), 1234.5], ["Catering", dt.date(2024, 3, 4), 89.0]]
WANT = [["Venue", "2024-03-01", 1234.5], ["Catering", "2024-03-04", 89.0]]


def _put(root: Path, path: str, data: bytes) -> None:
    host = root / path.removeprefix(HOME + "/")
    host.parent.mkdir(parents=True, exist_ok=True)
    host.write_bytes(data)


def _check(root: Path, primitive: str, **args):
    return run_check(State(root), primitive, args)


def _png(size: tuple[int, int], color: tuple[int, int, int] = (200, 40, 40)) -> bytes:
    image = Image.new("RGB", size, color)
    image.paste((20, 20, 180), (0, 0, size[0] // 2, size[1]))
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def test_numbers_compare_by_meaning():
    assert as_number("$ 1,234.50") == 1234.5 and as_number("12") == 12.0 and as_number("12 apples") is None
    assert same_cell("1,234.50", 1234.5) and same_cell(1234.5, 1234.5) and not same_cell("1,234.60", 1234.5)
    assert same_cell(dt.datetime(2024, 3, 1), "2024-03-01") and same_cell(" Venue ", "Venue")


# --- multi.sheet_table -------------------------------------------------------------------------------------

def test_sheet_table_passes_on_the_table_and_fails_on_wrong_rows(tmp_path):
    _put(tmp_path, BOOK, xlsx.build({"sheets": [{"name": "Data", "rows": [HEADER, *ROWS]}]}))
    assert _check(tmp_path, "multi.sheet_table", path=BOOK, header=HEADER, rows=WANT).passed
    assert _check(tmp_path, "multi.sheet_table", path=BOOK, sheet="Data", header=HEADER, rows=WANT[::-1],
                  ordered=False).passed
    wrong = _check(tmp_path, "multi.sheet_table", path=BOOK, header=HEADER, rows=WANT[::-1])
    assert not wrong.passed and "row 1" in wrong.evidence
    short = _check(tmp_path, "multi.sheet_table", path=BOOK, header=HEADER, rows=WANT[:1])
    assert not short.passed and "2 data rows, expected 1" in short.evidence
    assert "header" in _check(tmp_path, "multi.sheet_table", path=BOOK, header=["Item"], rows=[]).evidence


def test_sheet_table_accepts_a_totals_row_only_when_asked_and_never_numbers_as_text(tmp_path):
    """Calc turns a CSV's numbers into numbers when it imports it: digits left as text are a wrong cell, imported
    or typed (the mutation control's xlsx.number_as_text found tables that accepted them)."""
    rows = [HEADER, ["Venue", "2024-03-01", 1234.5], ["Catering", "2024-03-04", 89], ["Total", None, 1323.5]]
    _put(tmp_path, BOOK, xlsx.build({"sheets": [{"name": "Data", "rows": rows}]}))
    assert _check(tmp_path, "multi.sheet_table", path=BOOK, header=HEADER, rows=WANT, below_ok=True).passed
    assert not _check(tmp_path, "multi.sheet_table", path=BOOK, header=HEADER, rows=WANT).passed
    rows[1][2], rows[2][2] = "1234.50", "89"
    _put(tmp_path, BOOK, xlsx.build({"sheets": [{"name": "Data", "rows": rows}]}))
    as_text = _check(tmp_path, "multi.sheet_table", path=BOOK, header=HEADER, rows=WANT, below_ok=True)
    assert not as_text.passed and "C2, C3 hold numbers typed as text" in as_text.evidence


def test_sheet_table_fails_on_missing_corrupt_and_unknown_sheet(tmp_path):
    assert "does not exist" in _check(tmp_path, "multi.sheet_table", path=BOOK, header=HEADER, rows=WANT).evidence
    _put(tmp_path, BOOK, b"not a zip")
    assert "not a readable" in _check(tmp_path, "multi.sheet_table", path=BOOK, header=HEADER, rows=WANT).evidence
    _put(tmp_path, BOOK, xlsx.build({"sheets": [{"name": "Data", "rows": [HEADER, *ROWS]}]}))
    assert "no sheet" in _check(tmp_path, "multi.sheet_table", path=BOOK, sheet="Other", header=HEADER,
                                rows=WANT).evidence


def _saved_by_an_app() -> bytes:
    """A workbook as an app saves it: formulas with the values they showed (a number, a date, a duration, text,
    a truth value, an error, a serial past the last date, none at all) next to plain cells."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Data"
    formats = {"A2": "yyyy-mm-dd", "A3": "[h]:mm:ss", "A8": "yyyy-mm-dd", "B2": "yyyy-mm-dd"}
    for ref in ("A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8", "A9"):
        ws[ref] = "=1"
        ws[ref].number_format = formats.get(ref, "General")
    ws["B1"], ws["B2"], ws["B3"] = "Venue", dt.datetime(2024, 3, 1), 12.5
    ws["B2"].number_format = formats["B2"]
    out = io.BytesIO()
    wb.save(out)
    cached = {"A1": ("n", "2.5"), "A2": ("n", "45352"), "A3": ("n", "1.5"), "A4": ("str", "total"),
              "A5": ("b", "1"), "A6": ("e", "#DIV/0!"), "A7": ("n", "4.0"), "A8": ("n", "9999999")}  # A9: no value
    with zipfile.ZipFile(io.BytesIO(out.getvalue())) as zin:
        parts = {name: zin.read(name) for name in zin.namelist()}
    xml = parts["xl/worksheets/sheet1.xml"].decode()
    for ref, (kind, value) in cached.items():
        xml = xml.replace(f'<c r="{ref}" t="str"', f'<c r="{ref}"')
        cell = rf'<c r="{ref}"\1 t="{kind}"><f>1</f><v>{value}</v>'
        xml = re.sub(rf'<c r="{ref}"([^>]*)><f>1</f><v\s*/?>(</v>)?', cell, xml)
    parts["xl/worksheets/sheet1.xml"] = xml.encode()
    book = io.BytesIO()
    with zipfile.ZipFile(book, "w") as zout:
        for name, data in parts.items():
            zout.writestr(name, data)
    return book.getvalue()


@pytest.mark.filterwarnings("ignore:Cell A8 is marked as a date")
def test_saved_values_read_as_openpyxl_reads_an_apps_cached_values(tmp_path):
    """sheet_table reads a formula's value from the formulas workbook and the cached values (no second, data_only
    parse, and an edited workbook in memory is read as it is): every cell must read as openpyxl's data_only load."""
    _put(tmp_path, BOOK, _saved_by_an_app())
    host = tmp_path / "sheet.xlsx"
    want = openpyxl.load_workbook(host, data_only=True)["Data"]
    wb = openpyxl.load_workbook(host)
    cached = cached_formula_values(host)["Data"]
    got = {c.coordinate: saved_value(c, cached, wb.epoch) for row in wb["Data"].iter_rows() for c in row}
    assert got == {c.coordinate: c.value for row in want.iter_rows() for c in row}
    assert got["A2"] == dt.datetime(2024, 3, 1) and got["A3"] == dt.timedelta(hours=36) and got["A9"] is None
    assert got["A8"] == "#VALUE!" and got["A4"] == "total" and got["A5"] is True
    rows = [["2024-03-01", "2024-03-01"], ["1 day, 12:00:00", 12.5], ["total", ""], ["TRUE", ""], ["#DIV/0!", ""],
            ["4", ""], ["#VALUE!", ""]]
    assert _check(tmp_path, "multi.sheet_table", path=BOOK, header=["2.5", "Venue"], rows=rows).passed
    rows[1][0] = 1.5  # the serial: A3 reads as the duration its format shows
    wrong = _check(tmp_path, "multi.sheet_table", path=BOOK, header=["2.5", "Venue"], rows=rows)
    assert not wrong.passed and "row 2" in wrong.evidence


# --- multi.docx_table and multi.number_in_text ---------------------------------------------------------------

def _report(table: list[list[str]] | None, at_end: bool = False) -> bytes:
    blocks: list[dict] = [{"text": "Report", "style": "Title"}, {"text": "The figures are below."}]
    grid = [{"table": table}] if table else []
    blocks += ([] if at_end else grid) + [{"text": "Total spend: 1,323.50"}] + (grid if at_end else [])
    return docx.build({"blocks": blocks})


def test_docx_table_reads_pasted_numbers_and_its_place(tmp_path):
    pasted = [HEADER, ["Venue", "2024-03-01", "1,234.50"], ["Catering", "2024-03-04", "89.00"]]
    _put(tmp_path, DOC, _report(pasted))
    args = {"path": DOC, "header": HEADER, "rows": WANT}
    assert _check(tmp_path, "multi.docx_table", after="The figures are below.", **args).passed
    _put(tmp_path, DOC, _report(pasted, at_end=True))
    misplaced = _check(tmp_path, "multi.docx_table", after="The figures are below.", **args)
    assert not misplaced.passed and "no table directly after" in misplaced.evidence
    assert _check(tmp_path, "multi.docx_table", **args).passed  # anywhere
    _put(tmp_path, DOC, _report([HEADER, ["Venue", "2024-03-01", "1,234.50"]]))
    assert "1 data rows, expected 2" in _check(tmp_path, "multi.docx_table", **args).evidence
    _put(tmp_path, DOC, _report(None))
    assert "no table" in _check(tmp_path, "multi.docx_table", **args).evidence


def test_number_in_text_reads_docx_and_text_files(tmp_path):
    _put(tmp_path, DOC, _report(None))
    assert _check(tmp_path, "multi.number_in_text", path=DOC, label="Total spend:", value=1323.5).passed
    wrong = _check(tmp_path, "multi.number_in_text", path=DOC, label="Total spend:", value=1323.4)
    assert not wrong.passed and "not the right figure" in wrong.evidence
    note = f"{HOME}/summary.txt"
    _put(tmp_path, note, b"Summary\nTotal spend: TBD\n")
    assert "not one number" in _check(tmp_path, "multi.number_in_text", path=note, label="Total spend:",
                                      value=1323.5).evidence
    assert "does not exist" in _check(tmp_path, "multi.number_in_text", path=f"{HOME}/none.txt", label="x",
                                      value=1).evidence
    _put(tmp_path, note, b"\xff\xfe\x00broken")
    assert not _check(tmp_path, "multi.number_in_text", path=note, label="Total spend:", value=1).passed


# --- Thunderbird, Chrome, VS Code ---------------------------------------------------------------------------

def _profile(root: Path, contacts: tuple[tb.Contact, ...]) -> None:
    spec = tb.ProfileSpec("abcd1234", tb.Identity("Ana Lopez", "ana@x.com"), contacts=contacts)
    for rel, data in tb.build_profile(spec).items():
        _put(root, f"{HOME}/{rel}", data)


def test_contacts_needs_every_named_card_and_none_of_the_others(tmp_path):
    _profile(tmp_path, (tb.Contact("Maya Fischer", "maya@a.com", "Maya", "Fischer"),
                        tb.Contact("Owen Novak", "owen@b.com", "Owen", "Novak")))
    assert _check(tmp_path, "multi.contacts", path=PROFILE, present=[["Maya Fischer", "maya@a.com"]],
                  absent=["zoe@c.com"]).passed
    extra = _check(tmp_path, "multi.contacts", path=PROFILE, present=[["Maya Fischer", "maya@a.com"]],
                   absent=["owen@b.com"])
    assert not extra.passed and "owen@b.com" in extra.evidence
    misnamed = _check(tmp_path, "multi.contacts", path=PROFILE, present=[["Maya F.", "maya@a.com"]])
    assert not misnamed.passed and "missing Maya F." in misnamed.evidence
    _put(tmp_path, f"{PROFILE}/abook.sqlite", b"garbage")
    assert not _check(tmp_path, "multi.contacts", path=PROFILE, present=[["Maya Fischer", "maya@a.com"]]).passed
    assert "does not exist" in _check(tmp_path, "multi.contacts", path=f"{HOME}/.thunderbird/none",
                                      present=[["A B", "a@b.c"]]).evidence


def _bookmarks(root: Path, bar: list[dict]) -> None:
    import random

    _put(root, BOOKMARKS, chrome.build_bookmarks({"bookmark_bar": bar}, random.Random(1)))


def test_bookmark_matches_name_place_and_fixed_up_url(tmp_path):
    _bookmarks(tmp_path, [{"name": "Docs", "children": [{"name": "MDN", "url": "http://developer.mozilla.org"}]}])
    args = {"path": BOOKMARKS, "name": "MDN", "url": "https://developer.mozilla.org/"}
    assert _check(tmp_path, "multi.bookmark", folder=["Bookmarks bar", "Docs"], **args).passed
    assert "no bookmark named" in _check(tmp_path, "multi.bookmark", folder=["Bookmarks bar"], **args).evidence
    other = _check(tmp_path, "multi.bookmark", folder=["Bookmarks bar", "Docs"], path=BOOKMARKS, name="MDN",
                   url="https://example.org")
    assert not other.passed and "not the address" in other.evidence
    assert "no bookmark folder" in _check(tmp_path, "multi.bookmark", folder=["Bookmarks bar", "X"], **args).evidence
    _put(tmp_path, BOOKMARKS, b"{broken")
    assert "not a readable" in _check(tmp_path, "multi.bookmark", folder=["Bookmarks bar"], **args).evidence


def test_setting_value_and_saved_file(tmp_path):
    settings = f"{HOME}/.config/Code/User/settings.json"
    _put(tmp_path, settings, b'{\n    // mine\n    "editor.tabSize": 2,\n}\n')
    assert _check(tmp_path, "multi.setting_value", path=settings, key="editor.tabSize", value=2).passed
    assert not _check(tmp_path, "multi.setting_value", path=settings, key="editor.tabSize", value=4).passed
    assert not _check(tmp_path, "multi.setting_value", path=f"{HOME}/none.json", key="a", value=1).passed
    import hashlib

    _put(tmp_path, f"{HOME}/a.pdf", b"%PDF-1.4 data")
    sha = hashlib.sha256(b"%PDF-1.4 data").hexdigest()
    assert _check(tmp_path, "multi.saved_file", path=f"{HOME}/a.pdf", sha256=sha).passed
    assert not _check(tmp_path, "multi.saved_file", path=f"{HOME}/a.pdf", sha256="0" * 64).passed
    assert "does not exist" in _check(tmp_path, "multi.saved_file", path=f"{HOME}/b.pdf", sha256=sha).evidence


# --- Impress ---------------------------------------------------------------------------------------------------

def _deck(root: Path) -> None:
    spec = {"slides": [{"layout": "title_slide", "title": "Plan", "subtitle": "Team"},
                       {"layout": "title_only", "title": "Budget"},
                       {"layout": "title_content", "title": "Risks", "bullets": ["Late"], "notes": "Say it."}]}
    _put(root, DECK, pptx.build(spec))


def test_slide_layouts_and_notes(tmp_path):
    _deck(tmp_path)
    assert _check(tmp_path, "multi.slide_layouts", path=DECK, titles=["Budget"], layout="title_only").passed
    wrong = _check(tmp_path, "multi.slide_layouts", path=DECK, titles=["Budget", "Risks"], layout="title_only")
    assert not wrong.passed and "'Risks' has layout title_content" in wrong.evidence
    assert _check(tmp_path, "multi.slide_notes", path=DECK, notes={"Risks": " Say  it."}).passed
    assert "notes of slide 'Budget'" in _check(tmp_path, "multi.slide_notes", path=DECK,
                                               notes={"Budget": "x"}).evidence
    assert "no slide titled" in _check(tmp_path, "multi.slide_notes", path=DECK, notes={"Gone": "x"}).evidence
    _put(tmp_path, DECK, b"PK broken")
    assert "not a readable" in _check(tmp_path, "multi.slide_layouts", path=DECK, titles=["Budget"],
                                      layout="title_only").evidence


def test_slide_picture_wants_the_scaled_copy(tmp_path):
    _deck(tmp_path)
    _put(tmp_path, f"{HOME}/big.png", _png((400, 200)))
    apply_ops(tmp_path, [{"op": "multi.export_image", "path": f"{HOME}/big.png", "dest": f"{HOME}/small.png",
                          "width": 200, "height": 100},
                         {"op": "pptx.add_image", "path": DECK, "title": "Budget", "image": f"{HOME}/small.png",
                          "left_cm": 2, "top_cm": 4, "width_cm": 10}])
    with Image.open(io.BytesIO(_png((200, 100)))) as expected:
        reference = thumbnail(expected)
    args = {"path": DECK, "width": 200, "height": 100, "reference": reference}
    assert _check(tmp_path, "multi.slide_picture", slide="Budget", **args).passed
    assert "shows no 200x100 picture" in _check(tmp_path, "multi.slide_picture", slide="Risks", **args).evidence
    red = {**args, "reference": thumbnail(Image.new("RGB", (200, 100), (10, 200, 10)))}
    assert not _check(tmp_path, "multi.slide_picture", slide="Budget", **red).passed


# --- ops --------------------------------------------------------------------------------------------------------

def test_csv_to_xlsx_types_cells_like_calc_and_writes_before_the_next_op(tmp_path):
    _put(tmp_path, f"{HOME}/Downloads/q.csv", b"Item,When,Amount\nVenue,2024-03-01,1234.50\nCatering,2024-03-04,89\n")
    apply_ops(tmp_path, [{"op": "multi.csv_to_xlsx", "path": f"{HOME}/Downloads/q.csv", "dest": BOOK},
                         {"op": "xlsx.sort_rows", "path": BOOK, "sheet": "q", "ref": "A2:C3", "key_column": "C"}])
    assert _check(tmp_path, "multi.sheet_table", path=BOOK, sheet="q", header=HEADER, rows=WANT[::-1]).passed


def test_write_xlsx_and_export_image_refuse_bad_input(tmp_path):
    apply_ops(tmp_path, [{"op": "multi.write_xlsx", "path": BOOK, "sheet": "S", "rows": [HEADER, *WANT]}])
    assert _check(tmp_path, "multi.sheet_table", path=BOOK, sheet="S", header=HEADER, rows=WANT).passed
    _put(tmp_path, f"{HOME}/big.png", _png((40, 20)))
    from preparers.ops import OpError

    with pytest.raises(OpError):
        apply_ops(tmp_path, [{"op": "multi.export_image", "path": f"{HOME}/big.png", "dest": f"{HOME}/x.xyz",
                              "width": 10, "height": 5}])
    json.dumps(WANT)  # the args of these checks are plain JSON
