"""Hand-made wrong end states (the reviewer's red-team of issue 14): each must fail its task's rubric.

Every case takes an accepted task (a registry skill at seed 31, as `forge generate --seed 31` makes it), builds
the oracle's end state through the real setup.sh and oracle ops, damages it the way a sloppy or gaming agent
would (in ways the gate's own mutators in `verifiers/mutants` do not: the right thing on part of the target,
the right thing plus an unrelated edit, the right value as text, a hard-coded constant inside a formula, a
copy instead of a move, a mirrored picture...) and asserts that `verifiers.gate.rubric.evaluate_rubric` rejects it.
The oracle state itself must pass first, so a case can only fail because of its damage.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import sqlite3
import tarfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

import docx
import openpyxl
import pytest
from docx.enum.text import WD_LINE_SPACING
from PIL import Image
from pptx import Presentation
from pptx.util import Pt

from forge.solve import LocalEnv
from kit.package import load_package
from kit.sandbox import Sandbox
from kit.taxonomy import load_taxonomy
from preparers.ops import apply_ops
from tests.gatekit import make_package
from verifiers.gate.rubric import evaluate_rubric
from workflows import get_family

SEED = 31
Damage = Callable[[Path], None]


# ---- helpers: open one document of the state, change it, save it in place -------------------------------------

def one(root: Path, pattern: str) -> Path:
    """The single file under `root` whose home-relative path matches the glob `pattern`."""
    found = sorted(root.glob(pattern))
    assert len(found) == 1, (pattern, found)
    return found[0]


@contextmanager
def workbook(path: Path) -> Iterator[Any]:
    wb = openpyxl.load_workbook(path)
    yield wb.worksheets[0]
    wb.save(path)


@contextmanager
def document(path: Path) -> Iterator[Any]:
    doc = docx.Document(str(path))
    yield doc
    doc.save(str(path))


@contextmanager
def deck(path: Path) -> Iterator[Any]:
    prs = Presentation(str(path))
    yield prs
    prs.save(str(path))


def paragraph(doc: Any, start: str) -> Any:
    return next(p for p in doc.paragraphs if p.text.startswith(start))


def slide(prs: Any, title: str) -> Any:
    return next(s for s in prs.slides if s.shapes.title is not None and s.shapes.title.text == title)


def edit_json(path: Path, change: Callable[[Any], None]) -> None:
    data = json.loads(path.read_text("utf-8"))
    change(data)
    path.write_text(json.dumps(data, indent=3), "utf-8")


def mbox_entries(path: Path) -> list[bytes]:
    """The messages of an mbox file, each starting with its "From " line."""
    data = path.read_bytes()
    return [e if e.startswith(b"From ") else b"From " + e for e in re.split(rb"(?m)^From ", data) if e]


def profile(root: Path) -> Path:
    return one(root, ".thunderbird/*.default-release")


def local(root: Path, folder: str) -> Path:
    return profile(root) / "Mail" / "Local Folders" / folder


# ---- calc ---------------------------------------------------------------------------------------------------

def formula_partial_constant(root: Path) -> None:
    """'Reorder Point' times the row's 'Unit Cost' typed in as a constant: right values, but F is never
    referenced."""
    with workbook(one(root, "Documents/stock_count_2021_q1.xlsx")) as ws:
        for r in range(2, 11):
            ws[f"G{r}"] = f"=E{r}*{ws[f'F{r}'].value}"


def totals_skip_first_row(root: Path) -> None:
    """The AVERAGE formulas leave out the first data row."""
    with workbook(one(root, "projects/data/support_tickets_mar_2023.xlsx")) as ws:
        ws["D12"] = "=AVERAGE(D3:D11)"
        ws["E12"] = "=AVERAGE(E3:E11)"


def formula_off_by_one_row(root: Path) -> None:
    """Each formula multiplies its row's 'Reorder Point' by the 'Unit Cost' of the row below."""
    with workbook(one(root, "Documents/stock_count_2021_q1.xlsx")) as ws:
        for r in range(2, 11):
            ws[f"G{r}"] = f"=E{r}*F{r + 1}"


def totals_as_text(root: Path) -> None:
    """The averages typed in as text instead of AVERAGE formulas."""
    with workbook(one(root, "projects/data/support_tickets_mar_2023.xlsx")) as ws:
        ws["D12"] = "183.3"
        ws["E12"] = "44.8"


def dates_as_text(root: Path) -> None:
    """The dates retyped as text that reads like the long format, instead of formatting the date values."""
    with workbook(one(root, "projects/data/homes_for_sale.xlsx")) as ws:
        for r in range(2, 14):
            value = ws[f"C{r}"].value
            ws[f"C{r}"] = f"{value:%B} {value.day}, {value.year}"
            ws[f"C{r}"].number_format = "General"


def cond_format_wrong_operator(root: Path) -> None:
    """The right range, fill and value, but 'greater than' instead of 'equal to'."""
    with workbook(one(root, "projects/data/support_log.xlsx")) as ws:
        for rng in ws.conditional_formatting:
            for rule in rng.rules:
                rule.operator = "greaterThan"


def validation_short_range(root: Path) -> None:
    """The validity rule covers D2:D12 only, missing the last row."""
    with workbook(one(root, "work/outbound.xlsx")) as ws:
        for dv in ws.data_validations.dataValidation:
            dv.sqref = openpyxl.worksheet.cell_range.MultiCellRange("D2:D12")


def merge_plus_extra_merge(root: Path) -> None:
    """The title merged right, plus A2:B2 merged too (B2's value is lost)."""
    with workbook(one(root, "Documents/event_registrations.xlsx")) as ws:
        ws.merge_cells("A2:B2")


def dedup_keep_last(root: Path) -> None:
    """Deduplicated by keeping the LAST row of each learner instead of the first."""
    path = one(root, "Desktop/student_scores.xlsx")
    initial = openpyxl.load_workbook(str(path).replace("/wrong/", "/initial/")).worksheets[0]
    rows = [[c.value for c in row] for row in initial.iter_rows(min_row=2, max_row=15, max_col=6)]
    last: dict[Any, list[Any]] = {}
    for row in rows:
        last[row[0]] = row
    kept = [row for row in rows if last[row[0]] is row]
    with workbook(path) as ws:
        for r in range(2, 16):
            for c in range(1, 7):
                ws.cell(r, c).value = None
        for r, row in enumerate(kept, start=2):
            for c, value in enumerate(row, start=1):
                ws.cell(r, c).value = value


def dedup_also_the_copy(root: Path) -> None:
    """The right file deduplicated, and the older copy (which must stay unchanged) deduplicated the same way."""
    folder = root / "Documents/finance"
    shutil.copyfile(folder / "grades_2024.xlsx", folder / "grades_2024 (old).xlsx")


def sort_part_of_range(root: Path) -> None:
    """Sorted descending over A2:F12 only; the last five rows left as they were before sorting."""
    path = one(root, "Documents/finance/budget_vs_actual_2023.xlsx")
    initial = openpyxl.load_workbook(str(path).replace("/wrong/", "/initial/")).worksheets[0]
    rows = [[c.value for c in row] for row in initial.iter_rows(min_row=2, max_row=17, max_col=6)]
    head = sorted(rows[:11], key=lambda row: row[3], reverse=True) + rows[11:]
    with workbook(path) as ws:
        for r, row in enumerate(head, start=2):
            for c, value in enumerate(row, start=1):
                ws.cell(r, c).value = value


# ---- writer -------------------------------------------------------------------------------------------------

def align_one_more(root: Path) -> None:
    """The title centered, and one section heading right-aligned as well."""
    with document(one(root, "Desktop/remote_work.docx")) as doc:
        paragraph(doc, "Eligibility").alignment = 2


def break_one_more(root: Path) -> None:
    """A page break before every heading, and one more before the first body paragraph."""
    with document(one(root, "Documents/letters/remote_work.docx")) as doc:
        doc.paragraphs[1].paragraph_format.page_break_before = True


def header_plus_deleted_line(root: Path) -> None:
    """The header is right, but the date line under the title was deleted."""
    with document(one(root, "Documents/reports/report_staff_training_program.docx")) as doc:
        p = paragraph(doc, "April 2025")._element
        p.getparent().remove(p)


def heading_on_title_too(root: Path) -> None:
    """Heading 1 on every section line, and on the memo's title line as well."""
    with document(one(root, "Documents/office/memo_new_website_launch.docx")) as doc:
        paragraph(doc, "Memorandum").style = doc.styles["Heading 1"]


def heading_retyped(root: Path) -> None:
    """Heading 1 applied, and one heading retyped in capitals on the way."""
    with document(one(root, "Documents/office/memo_new_website_launch.docx")) as doc:
        for run in paragraph(doc, "Goals").runs:
            run.text = run.text.upper()


def list_flat(root: Path) -> None:
    """Bulleted, but the sub-points left at the top level (style 'List Bullet' instead of 'List Bullet 2')."""
    with document(one(root, "work/letter_annual_fundraising_dinner.docx")) as doc:
        for p in doc.paragraphs:
            if p.style.name == "List Bullet 2":
                p.style = doc.styles["List Bullet"]


def margins_top_too(root: Path) -> None:
    """The left margin right, and the top margin changed as well."""
    with document(one(root, "Documents/letters/remote_work.docx")) as doc:
        doc.sections[0].top_margin = docx.shared.Inches(0.5)


def page_a5_swapped(root: Path) -> None:
    """Paper A5 but width and height swapped (landscape sheet) while the orientation says portrait."""
    with document(one(root, "Desktop/letter_departmental_budget_requests.docx")) as doc:
        s = doc.sections[0]
        s.page_width, s.page_height = s.page_height, s.page_width


def replace_ignoring_case(root: Path) -> None:
    """Also replaced the other capitalizations ('quality control') although the task asked match case."""
    with document(one(root, "Documents/office/client_feedback_review.docx")) as doc:
        for p in doc.paragraphs:
            for run in p.runs:
                run.text = re.sub("quality control", "Product Assurance", run.text, flags=re.I)


def spacing_on_title_too(root: Path) -> None:
    """Exactly 18 pt on the body paragraphs, and on the title as well."""
    with document(one(root, "Desktop/budget_2025.docx")) as doc:
        title = doc.paragraphs[0].paragraph_format
        title.line_spacing_rule = WD_LINE_SPACING.EXACTLY
        title.line_spacing = docx.shared.Pt(18)


def table_value_in_wrong_column(root: Path) -> None:
    """'Annually' typed into the 'Owner' cell of the right row instead of 'Review Cycle'."""
    with document(one(root, "Documents/reports/information_security.docx")) as doc:
        row = next(r for r in doc.tables[0].rows if r.cells[0].text == "Password rules")
        owner = row.cells[1].text
        row.cells[2].paragraphs[0].runs[0].text = ""
        row.cells[1].paragraphs[0].runs[0].text = f"{owner} Annually"


def table_at_end(root: Path) -> None:
    """The right table, but at the end of the document instead of below the named paragraph."""
    with document(one(root, "work/client_feedback_review.docx")) as doc:
        tbl = doc.tables[0]._element
        body = tbl.getparent()
        body.remove(tbl)
        body.insert(len(body) - 1, tbl)  # before the final sectPr


def count_with_other_numbers(root: Path) -> None:
    """The answer file holds a sentence with more than one number."""
    (root / "Desktop/answer.txt").write_text("Characters: 233 (41 words, 2 paragraphs)\n", "utf-8")


# ---- impress ------------------------------------------------------------------------------------------------

def add_slide_at_end(root: Path) -> None:
    """The new 'Measurement' slide is the last one instead of slide 7."""
    with deck(one(root, "Desktop/harborview_marketing.pptx")) as prs:
        ids = prs.slides._sldIdLst
        node = ids[6]
        ids.remove(node)
        ids.append(node)


def bullets_reversed(root: Path) -> None:
    """The two new bullets added in the wrong order."""
    with deck(one(root, "Desktop/finance_budget_proposal.pptx")) as prs:
        body = [sh for sh in slide(prs, "Capital Spending").placeholders if sh.placeholder_format.idx != 0][0]
        paras = body.text_frame.paragraphs
        a, b = paras[-2].runs[0], paras[-1].runs[0]
        a.text, b.text = b.text, a.text


def delete_by_hiding(root: Path) -> None:
    """The two slides hidden (Slide > Hide Slide) instead of deleted."""
    path = one(root, "Desktop/gtm_ledgerly.pptx")
    shutil.copyfile(str(path).replace("/wrong/", "/initial/"), path)
    with deck(path) as prs:
        for title in ("How We Measure Success", "Launch Overview"):
            slide(prs, title)._element.set("show", "0")


def duplicate_at_end(root: Path) -> None:
    """The copy of 'Talking About Price' moved to the end of the deck."""
    with deck(one(root, "Documents/meetings/sales_academy_2023.pptx")) as prs:
        ids = prs.slides._sldIdLst
        node = ids[4]
        ids.remove(node)
        ids.append(node)


def picture_mirrored(root: Path) -> None:
    """The picture placed right, but mirrored (a different image at the same size)."""
    with deck(one(root, "Desktop/sales_academy_2024.pptx")) as prs:
        pic = next(sh for sh in slide(prs, "Practice Session").shapes if sh.shape_type == 13)
        image_part = pic.part.related_part(pic._element.blipFill.blip.rEmbed)
        img = Image.open(io.BytesIO(image_part.blob))
        out = io.BytesIO()
        img.transpose(Image.Transpose.FLIP_LEFT_RIGHT).save(out, format=img.format or "PNG")
        image_part._blob = out.getvalue()


def notes_replaced(root: Path) -> None:
    """The new sentence written over the existing notes of 'Office Security' instead of after them."""
    with deck(one(root, "Documents/meetings/security_basics_february.pptx")) as prs:
        slide(prs, "Office Security").notes_slide.notes_text_frame.text = "Spend about two minutes on this slide."


def table_cells_swapped(root: Path) -> None:
    """Two values of the table swapped between rows."""
    with deck(one(root, "work/slides/marketing_budget_proposal.pptx")) as prs:
        table = next(sh for sh in slide(prs, "Budget by Department").shapes if sh.has_table).table
        a, b = table.cell(1, 1), table.cell(2, 1)
        a.text, b.text = b.text, a.text


def size_on_body_too(root: Path) -> None:
    """The title at 48 pt, and the first bullet of the slide at 48 pt too."""
    with deck(one(root, "work/slides/security_basics_november.pptx")) as prs:
        body = slide(prs, "Handling Data").shapes[1]
        for run in body.text_frame.paragraphs[0].runs:
            run.font.size = Pt(48)


# ---- images -------------------------------------------------------------------------------------------------

def _image(path: Path, change: Callable[[Image.Image], Image.Image]) -> None:
    with Image.open(path) as img:
        fmt, info = img.format, dict(img.info)
        out = change(img.copy())
    params = {"dpi": info["dpi"]} if "dpi" in info else {}
    out.save(path, format=fmt, **params)


def convert_mirrored(root: Path) -> None:
    _image(one(root, "Pictures/IMG_20201207_154742.jpg"), lambda i: i.transpose(Image.Transpose.FLIP_LEFT_RIGHT))


def icon_rotated(root: Path) -> None:
    _image(one(root, "Pictures/logos/bakery_logo_icon_64.png"), lambda i: i.transpose(Image.Transpose.ROTATE_90))


def ppi_flipped(root: Path) -> None:
    _image(one(root, "Pictures/DSCF7981.tif"), lambda i: i.transpose(Image.Transpose.FLIP_TOP_BOTTOM))


def dpi_one_axis(root: Path) -> None:
    """150 ppi set horizontally only; the vertical resolution left at 72."""
    path = one(root, "Pictures/DSCF7981.tif")
    with Image.open(path) as img:
        copy = img.copy()
    copy.save(path, format="TIFF", dpi=(150, 72))


def rotate_transposed(root: Path) -> None:
    """Flipped over the diagonal (transpose) instead of rotated 90 degrees clockwise."""
    _image(one(root, "Pictures/products/travel_mug_studio.png"), lambda i: i.transpose(Image.Transpose.TRANSPOSE))


def rotate_half_turn(root: Path) -> None:
    """Rotated 180 degrees (the 90-degree result rotated once more)."""
    _image(one(root, "Pictures/products/travel_mug_studio.png"), lambda i: i.transpose(Image.Transpose.ROTATE_180))


# ---- os -----------------------------------------------------------------------------------------------------

def chmod_wrong_file_too(root: Path) -> None:
    """The script made executable, and another script of the folder as well."""
    (root / "scripts/send_reminders.sh").chmod(0o755)


def symlink_is_copy(root: Path) -> None:
    """A copy of the file on the Desktop instead of a symbolic link to it."""
    link = root / "Desktop/candidates_v3.xlsx"
    link.unlink()
    shutil.copyfile(root / "projects/spring-hiring/reports/candidates_v3.xlsx", link)


def organize_copies_not_moves(root: Path) -> None:
    """The files copied into the extension folders, the originals left loose in Downloads."""
    downloads = root / "Downloads"
    for sub in ("pdf", "png", "docx", "mp3"):
        for f in (downloads / sub).iterdir():
            shutil.copyfile(f, downloads / f.name)


def archive_moved_originals(root: Path) -> None:
    """The archive is right, but the originals were moved into the archive folder instead of staying."""
    src = root / "projects/menu-refresh"
    shutil.move(str(src), str(root / "Documents/archives/menu-refresh"))


def cleanup_plus_small_file(root: Path) -> None:
    """Every empty file deleted, and the smallest non-empty one as well."""
    files = [p for p in (root / "work/staff-schedule").rglob("*") if p.is_file()]
    min(files, key=lambda p: p.stat().st_size).unlink()


def ini_also_other_section(root: Path) -> None:
    """log_level set in [notifications] and another key of [account] changed too."""
    path = root / ".config/ats/ats.ini"
    path.write_text(path.read_text("utf-8").replace("region = eu", "region = us"), "utf-8")


def extract_without_folder(root: Path) -> None:
    """Extracted into /home/user/Documents/onboarding directly, without the asked subfolder."""
    target = root / "Documents/onboarding/onboarding_handoff"
    for child in list(target.iterdir()):
        shutil.move(str(child), str(target.parent / child.name))
    target.rmdir()


def rename_other_ext_too(root: Path) -> None:
    """The .mp3 files renamed, and the PDF as well."""
    folder = root / "Documents/family-reunion"
    (folder / "Packing list.pdf").rename(folder / "Packing_list.pdf")


# ---- thunderbird --------------------------------------------------------------------------------------------

def attachment_saved_encoded(root: Path) -> None:
    """The attachment saved as its base64 text instead of the decoded PDF."""
    import base64
    path = one(root, "Desktop/*_*.pdf")  # the renamed attachment: named for the month of its message
    path.write_bytes(base64.encodebytes(path.read_bytes()))


def contact_plus_deleted_one(root: Path) -> None:
    """The contact added, and an existing contact deleted."""
    db = sqlite3.connect(one(root, ".thunderbird/*/abook.sqlite"))
    card = db.execute("SELECT card FROM properties WHERE name='PrimaryEmail' AND value='freya.mensah@granitepeak.net'")
    db.execute("DELETE FROM properties WHERE card=?", (card.fetchone()[0],))
    db.commit()
    db.close()


def filter_wrong_condition(root: Path) -> None:
    """The filter with the right name, action and folder, but 'subject is' instead of 'subject contains'."""
    path = local(root, "msgFilterRules.dat")
    path.write_text(path.read_text("utf-8").replace("(subject,contains,review)", "(subject,is,review)"), "utf-8")


def filter_disabled(root: Path) -> None:
    """The filter created right, but left disabled."""
    path = local(root, "msgFilterRules.dat")
    text = path.read_text("utf-8")
    i = text.index('name="Review messages"')
    path.write_text(text[:i] + text[i:].replace('enabled="yes"', 'enabled="no"', 1), "utf-8")


def move_as_copy(root: Path) -> None:
    """The messages copied into 'Statements' but left in Inbox too."""
    inbox, moved = local(root, "Inbox"), local(root, "Inbox.sbd/Statements")
    initial = Path(str(inbox).replace("/wrong/", "/initial/"))
    shutil.copyfile(initial, inbox)
    assert moved.read_bytes()


def move_and_flag(root: Path) -> None:
    """The messages moved into 'Statements', and flagged on the way."""
    moved = local(root, "Inbox.sbd/Statements")
    initial = Path(str(moved).replace("/wrong/", "/initial/"))
    before = set(_live_ids(initial)) if initial.exists() else set()
    arrived = set(_live_ids(moved)) - before
    assert arrived
    _flag_in(moved, arrived)


def _live_ids(mbox: Path) -> list[str]:
    from preparers import thunderbird as tb
    return [tb.message_id(tb.parse_entry(e)) for e in tb.split_mbox(mbox.read_bytes())
            if not tb.status_flags(e) & tb.EXPUNGED]


def _flag_in(mbox: Path, mids: set[str]) -> None:
    from preparers import thunderbird as tb
    entries = tb.split_mbox(mbox.read_bytes())
    mbox.write_bytes(b"".join(tb.with_flags(e, tb.status_flags(e) | tb.FLAGGED)
                              if tb.message_id(tb.parse_entry(e)) in mids else e for e in entries))


def _copies(root: Path) -> tuple[Path, Path, set[str]]:
    """(Inbox, the folder the filter copied into, the copied ids) of a copy-and-run filter's end state."""
    inbox = local(root, "Inbox")
    kept = set(_live_ids(inbox))
    for mbox in sorted(local(root, "").rglob("*")):
        if mbox.is_file() and mbox != inbox and "." not in mbox.name and kept & set(_live_ids(mbox)):
            return inbox, mbox, kept & set(_live_ids(mbox))
    raise AssertionError("no copied messages")


def copy_flags_original(root: Path) -> None:
    """The filter copies the matched messages, and one original in Inbox got flagged too."""
    inbox, _, copied = _copies(root)
    _flag_in(inbox, {min(copied)})


def copy_flags_copy(root: Path) -> None:
    """The filter copies the matched messages, and the copies got flagged."""
    _, dest, copied = _copies(root)
    _flag_in(dest, copied)


def mark_read_also_flags(root: Path) -> None:
    """The filter marks the matched messages read, and flags them as well."""
    from preparers import thunderbird as tb
    inbox = local(root, "Inbox")
    before = Path(str(inbox).replace("/wrong/", "/initial/"))
    old = {tb.message_id(tb.parse_entry(e)): tb.status_flags(e) for e in tb.split_mbox(before.read_bytes())}
    now = {tb.message_id(tb.parse_entry(e)): tb.status_flags(e) for e in tb.split_mbox(inbox.read_bytes())}
    _flag_in(inbox, {mid for mid, flags in now.items() if flags & tb.READ and not old.get(mid, 0) & tb.READ})


def pref_as_string(root: Path) -> None:
    """The interval written as the string "3" (Thunderbird ignores a string for an integer pref)."""
    path = profile(root) / "prefs.js"
    path.write_text(path.read_text("utf-8").replace('"mail.compose.autosaveinterval", 3)',
                                                    '"mail.compose.autosaveinterval", "3")'), "utf-8")


# ---- chrome / vs code ---------------------------------------------------------------------------------------

BOOKMARKS = ".config/google-chrome/Default/Bookmarks"
PREFS = ".config/google-chrome/Default/Preferences"


def _walk(node: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield node
    for child in node.get("children", []):
        yield from _walk(child)


def bookmark_in_other_folder(root: Path) -> None:
    """'The Guardian' bookmarked in a new 'Headlines' folder under Other bookmarks, not the bar's folder."""
    def change(data: Any) -> None:
        roots = data["roots"]
        folder = next(n for n in _walk(roots["bookmark_bar"]) if n.get("name") == "Headlines")
        node = next(n for n in folder["children"] if n.get("name") == "The Guardian")
        folder["children"].remove(node)
        roots["other"].setdefault("children", []).append(
            {"type": "folder", "name": "Headlines", "id": "900", "children": [node]})
    edit_json(root / BOOKMARKS, change)


def bookmark_plus_loose_copy(root: Path) -> None:
    """The bookmark in 'Headlines', plus a second copy of it loose on the Bookmarks bar."""
    def change(data: Any) -> None:
        folder = next(n for n in _walk(data["roots"]["bookmark_bar"]) if n.get("name") == "Headlines")
        node = dict(next(n for n in folder["children"] if n.get("name") == "The Guardian"), id="901")
        data["roots"]["bookmark_bar"]["children"].append(node)
    edit_json(root / BOOKMARKS, change)


def homepage_but_still_ntp(root: Path) -> None:
    """The home page URL set, but 'homepage_is_newtabpage' left true: the Home button still opens a new tab."""
    edit_json(root / PREFS, lambda d: d.update(homepage_is_newtabpage=True))


def home_button_hidden(root: Path) -> None:
    """The home page set, and the Home button hidden on the way."""
    edit_json(root / PREFS, lambda d: d["browser"].update(show_home_button=False))


def minimap_as_string(root: Path) -> None:
    edit_json(root / ".config/Code/User/settings.json", lambda d: d.update({"editor.minimap.enabled": "false"}))


def workspace_settings_in_folder(root: Path) -> None:
    """The two settings written to .vscode/settings.json of the folder, the workspace file left as it was."""
    ws = root / "dev/ticket-router/ticket-router.code-workspace"
    data = json.loads(ws.read_text("utf-8"))
    extra = {k: v for k, v in data["settings"].items() if k != "editor.wordWrap"}
    (ws.parent / ".vscode").mkdir(exist_ok=True)
    (ws.parent / ".vscode/settings.json").write_text(json.dumps(extra), "utf-8")
    shutil.copyfile(Path(str(ws).replace("/wrong/", "/initial/")), ws)


def workspace_folders_changed(root: Path) -> None:
    """The settings added to the workspace file, and its folder list changed as well."""
    edit_json(root / "dev/ticket-router/ticket-router.code-workspace", lambda d: d.update(folders=[{"path": "src"}]))


# ---- multi --------------------------------------------------------------------------------------------------

def report_tbd_kept_on_line(root: Path) -> None:
    """'TBD' left after the label and the figure written on a new line below it."""
    path = root / "Desktop/gradebook_jan_2021_summary.txt"
    initial = Path(str(path).replace("/wrong/", "/initial/")).read_text("utf-8")
    path.write_text(initial.replace("Highest Midterm: TBD", "Highest Midterm: TBD\n100"), "utf-8")


def link_bookmark_other_site(root: Path) -> None:
    """The bookmark named 'Vercel' but pointing at another site from the document."""
    def change(data: Any) -> None:
        node = next(n for n in _walk(data["roots"]["bookmark_bar"]) if n.get("name") == "Vercel")
        node["url"] = "https://vercel.com/"
    edit_json(root / BOOKMARKS, change)


def contacts_plus_one_excluded(root: Path) -> None:
    """The right volunteers added, plus one who was added before the date."""
    db = sqlite3.connect(one(root, ".thunderbird/*/abook.sqlite"))
    for name, value in [("DisplayName", "Jonas Novak"), ("PrimaryEmail", "jonas.novak@novaline.io"),
                        ("FirstName", "Jonas"), ("LastName", "Novak")]:
        db.execute("INSERT INTO properties VALUES (?, ?, ?)", ("red-team-card", name, value))
    db.commit()
    db.close()


def attachments_no_date_prefix(root: Path) -> None:
    """Filed in the right month folders but without the date prefix in the file names."""
    for path in (root / "Documents/Filed Mail").rglob("*"):
        if path.is_file():
            path.rename(path.with_name(path.name[11:]))


def doc_slides_without_notes(root: Path) -> None:
    """The slides added, but their notes (the sub-points) left out."""
    with deck(one(root, "work/slides/fire_safety_procedures_slides.pptx")) as prs:
        for s in prs.slides:
            if s.has_notes_slide:
                s.notes_slide.notes_text_frame.text = ""


def image_slide_original_picture(root: Path) -> None:
    """The scaled JPEG exported, but the ORIGINAL 800x800 picture put on the slide."""
    with deck(one(root, "Documents/presentations/sales_training_module2.pptx")) as prs:
        pic = next(sh for sh in slide(prs, "Gallery").shapes if sh.shape_type == 13)
        part = pic.part.related_part(pic._element.blipFill.blip.rEmbed)
        with Image.open(root / "Pictures/shop/cold_brew_bottle.jpg") as img:
            out = io.BytesIO()
            img.save(out, format="JPEG")
        part._blob = out.getvalue()


def archive_plain_tar(root: Path) -> None:
    """The archive written uncompressed under the .tar.gz name."""
    path = root / "Documents/archives/menu-refresh_bundle.tar.gz"
    with tarfile.open(path) as src:
        members = [(m, src.extractfile(m).read() if m.isfile() else None) for m in src.getmembers()]  # type: ignore[union-attr]
    with tarfile.open(path, "w") as dst:
        for m, data in members:
            dst.addfile(m, io.BytesIO(data) if data is not None else None)


CASES: list[tuple[str, Damage]] = [
    ("calc.formula_column.product", formula_partial_constant),
    ("calc.totals.average", totals_skip_first_row),
    ("calc.number_format.date_long", dates_as_text),
    ("calc.cond_format.equal_to", cond_format_wrong_operator),
    ("calc.validation.decimal_greater", validation_short_range),
    ("calc.merge.center_title", merge_plus_extra_merge),
    ("calc.dedup.key", dedup_keep_last),
    ("vd.calc.dedup.key.c1", dedup_also_the_copy),
    ("compose.os_copy_then_calc_sort", sort_part_of_range),
    ("writer.align.title_center", align_one_more),
    ("writer.break.every_heading", break_one_more),
    ("writer.header.text_left", header_plus_deleted_line),
    ("writer.heading.all_sections_h1", heading_on_title_too),
    ("writer.list.bullet_nested", list_flat),
    ("writer.margins.left_only_in", margins_top_too),
    ("writer.page.a5_portrait", page_a5_swapped),
    ("writer.replace.phrase_match_case", replace_ignoring_case),
    ("writer.spacing.exact_body", spacing_on_title_too),
    ("writer.table.fill_cell", table_value_in_wrong_column),
    ("writer.table.insert_below_bold_header", table_at_end),
    ("writer.count.characters_section", count_with_other_numbers),
    ("impress.add_slide.title_only_middle", add_slide_at_end),
    ("impress.bullets.append_2", bullets_reversed),
    ("impress.delete_slide.last_two", delete_by_hiding),
    ("impress.duplicate_slide.after_keep", duplicate_at_end),
    ("impress.image.top_right_free", picture_mirrored),
    ("impress.notes.append_two_slides", notes_replaced),
    ("impress.table.full_medium", table_cells_swapped),
    ("impress.text_format.size_title", size_on_body_too),
    ("gimp.convert.bmp_to_jpg", convert_mirrored),
    ("gimp.export.icon", icon_rotated),
    ("gimp.resolution.set_ppi_tiff", ppi_flipped),
    ("os.archive.targz_folder", archive_moved_originals),
    ("os.cleanup.empty_recursive", cleanup_plus_small_file),
    ("os.edit.ini_set", ini_also_other_section),
    ("os.extract.targz_new_folder", extract_without_folder),
    ("os.rename.spaces_ext", rename_other_ext_too),
    ("tb.attachment.pdf_to_desktop_rename", attachment_saved_encoded),
    ("tb.contact.one_plain", contact_plus_deleted_one),
    ("tb.filter.subject_copy_save_only", filter_wrong_condition),
    ("tb.move.subject_to_existing_sub_from_inbox", move_as_copy),
    ("tb.move.subject_to_existing_sub_from_inbox", move_and_flag),
    ("tb.pref.autosave", pref_as_string),
    ("chrome.bookmark.add_bar_folder_one", bookmark_in_other_folder),
    ("chrome.settings.homepage_url_from_ntp", homepage_but_still_ntp),
    ("vscode.settings.minimap_absent", minimap_as_string),
    ("vscode.workspace.code_workspace_existing_two", workspace_settings_in_folder),
    ("multi.totals_report.txt_max_all", report_tbd_kept_on_line),
    ("multi.link_bookmark.docx_bar_folder", link_bookmark_other_site),
    ("multi.sheet_contacts.csv_date", contacts_plus_one_excluded),
    ("multi.attachment_folder.month_all_dated", attachments_no_date_prefix),
    ("multi.doc_slides.items_title_only_before_closing_text_below", doc_slides_without_notes),
    ("multi.image_slide.exact_jpg_new_slide", image_slide_original_picture),
    ("os.archive.targz_folder", archive_plain_tar),
    ("calc.formula_column.product", formula_off_by_one_row),
    ("calc.totals.average", totals_as_text),
    ("gimp.rotate.rotate_cw_png", rotate_transposed),
    ("gimp.rotate.rotate_cw_png", rotate_half_turn),
    ("os.permissions.exec_one", chmod_wrong_file_too),
    ("os.symlink.file_desktop", symlink_is_copy),
    ("os.organize.by_ext_existing_exact", organize_copies_not_moves),
    ("chrome.bookmark.add_bar_folder_one", bookmark_plus_loose_copy),
    ("writer.heading.all_sections_h1", heading_retyped),
    ("gimp.resolution.set_ppi_tiff", dpi_one_axis),
    ("tb.filter.subject_copy_save_only", filter_disabled),
    ("tb.filter.subject_copy_run_now", copy_flags_original),
    ("tb.filter.from_copy_run_now", copy_flags_copy),
    ("tb.filter.subject_mark_read_run_now", mark_read_also_flags),
    ("chrome.settings.homepage_url_from_ntp", home_button_hidden),
    ("vscode.workspace.code_workspace_existing_two", workspace_folders_changed),
]


# ---- the harness ---------------------------------------------------------------------------------------------

@cache
def _skills() -> dict[str, Any]:
    return load_taxonomy()


def oracle_state(skill_id: str, base: Path) -> tuple[dict[str, Any], Path]:
    """Build the task of `skill_id` at SEED (the package `forge generate --seed 31` writes for it), then its
    initial state under base/initial and the oracle's end state under base/oracle; returns (task, base)."""
    skill = _skills()[skill_id]
    folder = make_package(get_family(skill.family), dict(skill.params), base / "out", seed=SEED, skill_id=skill.id)
    package = load_package(folder)
    env = LocalEnv(Sandbox())
    initial, oracle = base / "initial", base / "oracle"
    initial.mkdir(parents=True)
    ran = env.run_setup(package, initial)
    assert ran.ok, ran.evidence()
    shutil.copytree(initial, oracle, symlinks=True)
    solution = package.task["solutions"]["oracle"]
    if solution.endswith(".json"):
        apply_ops(oracle, json.loads((folder / solution).read_text("utf-8"))["ops"])
    else:
        assert env.apply_solution(package, solution, oracle).ok
    return package.task, base


def judge(skill_id: str, damage: Damage, base: Path, built: dict[str, tuple[dict[str, Any], Path]] | None = None
          ) -> tuple[bool, str]:
    """(does the rubric pass on the damaged oracle state?, the failing checks' evidence). `built` caches the
    (task, folder) of each skill's oracle state, so cases of one skill build it once."""
    built = {} if built is None else built
    if skill_id not in built:
        task, folder = oracle_state(skill_id, base / "built")
        outcomes = evaluate_rubric(task, folder / "oracle")
        assert all(o.passed for o in outcomes), [(o.id, o.evidence) for o in outcomes if not o.passed]
        built[skill_id] = task, folder
    task, folder = built[skill_id]
    wrong = base / "wrong"
    shutil.copytree(folder / "oracle", wrong, symlinks=True)
    shutil.rmtree(base / "initial", ignore_errors=True)
    shutil.copytree(folder / "initial", base / "initial", symlinks=True)  # damages read the initial state beside
    damage(wrong)
    outcomes = evaluate_rubric(task, wrong)
    failed = [o for o in outcomes if not o.passed]
    return not failed, "; ".join(f"{o.id}: {o.evidence}" for o in failed)


@pytest.fixture(scope="module")
def built() -> dict[str, tuple[dict[str, Any], Path]]:
    return {}


@pytest.mark.parametrize(("skill_id", "damage"), CASES, ids=[f"{s}-{d.__name__}" for s, d in CASES])
def test_hand_made_wrong_state_fails(tmp_path_factory: pytest.TempPathFactory, built: dict[str, Any],
                                     skill_id: str, damage: Damage) -> None:
    passed, evidence = judge(skill_id, damage, tmp_path_factory.mktemp("case"), built)
    assert not passed, f"{skill_id}: {damage.__doc__ or damage.__name__} PASSES the rubric"
    assert evidence
