"""The `content` stage (verifiers/gate/content.py): hand-made packages with one defect each are `unrealistic`, and the
evidence names the file, the message and the words; believable ones pass; damaged or hostile files never crash it.

The mail folders are real mbox files written by the Thunderbird preparer, the documents real docx/pptx/xlsx files;
one test runs the whole real gate on a generated package with a defect written into it.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import json
import os
import time
import zipfile
from pathlib import Path
from typing import Any

import docx
import openpyxl
import pptx
import pytest

from preparers.office_zip import normalize
from preparers.thunderbird import Attachment, Message, mbox_bytes
from tests.gatekit import gate_package, make_package
from verifiers.gate.content import MAX_MESSAGES, Unrealistic, findings, review
from workflows.calc.sort_rows import WORKFLOW

UTC = dt.UTC
GOOD_INSTRUCTION = "Save report.csv from the newest message to /home/user/Documents and add an area chart."


def mail(subject: str, day: dt.date, body: str = "Hi Ana,\n\nThe figures are attached.\n\nBest, Li",
         attachments: tuple[Attachment, ...] = ()) -> Message:
    return Message(message_id=f"{abs(hash((subject, day)))}@example.com", sender="Li Wei <li@example.com>",
                   to="Ana <ana@example.com>", subject=subject, date=dt.datetime(day.year, day.month, day.day, 9,
                                                                                 tzinfo=UTC),
                   body=body, attachments=attachments)


def csv_attachment(*dates: str, name: str = "report.csv") -> Attachment:
    rows = "\n".join(f"{d},Widget,{i * 10}" for i, d in enumerate(dates, start=1))
    return Attachment(name, "text/csv", f"Date,Item,Units\n{rows}\n".encode())


def package(tmp_path: Path, files: dict[str, bytes], instruction: str = GOOD_INSTRUCTION,
            criteria: tuple[str, ...] = ("The file exists.",)) -> tuple[dict[str, Any], Path]:
    """A package folder with `files` as assets (dest under /home/user) and its task.json (only what the stage reads)."""
    root = tmp_path / "pkg"
    (root / "assets").mkdir(parents=True, exist_ok=True)
    assets = []
    for dest, data in files.items():
        name = dest.replace("/", "_")
        (root / "assets" / name).write_bytes(data)
        assets.append({"file": f"assets/{name}", "dest": f"/home/user/{dest}",
                       "sha256": hashlib.sha256(data).hexdigest()})
    task = {"instruction": instruction, "setup": {"assets": assets},
            "rubric": [{"id": f"c{i}", "criterion": c} for i, c in enumerate(criteria)]}
    return task, root


def kinds(task: dict[str, Any], root: Path) -> list[str]:
    found, unread = findings(task, root)
    assert not unread, unread
    return sorted({f.kind for f in found})


def docx_bytes(*paragraphs: str) -> bytes:
    document = docx.Document()
    for text in paragraphs:
        document.add_paragraph(text)
    out = io.BytesIO()
    document.save(out)
    return normalize(out.getvalue())  # as Forge's preparers write them: a person's docProps


def pptx_bytes(*texts: str) -> bytes:
    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[1])
    slide.shapes.title.text = texts[0]
    slide.placeholders[1].text = "\n".join(texts[1:])
    out = io.BytesIO()
    deck.save(out)
    return normalize(out.getvalue())  # as Forge's preparers write them: a person's docProps


def xlsx_bytes(*cells: Any) -> bytes:
    book = openpyxl.Workbook()
    book.active.append(["Item", "Note"])
    for cell in cells:
        book.active.append(["Widget", cell])
    out = io.BytesIO()
    book.save(out)
    return normalize(out.getvalue())  # as Forge's preparers write them: a person's docProps


# --- believable packages pass ------------------------------------------------------------------------------

def test_a_believable_package_passes(tmp_path):
    inbox = mbox_bytes([
        mail("Weekly sales export, week 11", dt.date(2025, 3, 17), attachments=(csv_attachment("2025-03-10",
                                                                                               "2025-03-16"),)),
        mail("Invoice INV-204 (due 2025-04-15)", dt.date(2025, 3, 18), body="Payment is due by 15 April 2025."),
        mail("Week 52 wrap-up", dt.date(2026, 1, 2)),  # the last week of 2025, sent in the first days of 2026
        mail("Plan", dt.date(2025, 3, 20), body="Next review is due by 2025-04-30.", attachments=(  # plans look ahead
            Attachment("plan.csv", "text/csv", b"Task,Logged,Due Date\nDraft,2025-03-18,2025-04-30\n"),
            Attachment("notes.txt", "text/plain", b"Met on 2025-03-19. Next meeting on 2025-04-02."))),
        mail("Notes", dt.date(2025, 3, 19), body="None of the rows changed. We have 1 class and 1 bus.\nRSVP by "
                                                 "March 25."),
    ])
    task, root = package(tmp_path, {
        ".thunderbird/p/Mail/Local Folders/Inbox": inbox,
        "Documents/report.docx": docx_bytes("An hour of work per unit.", "Slide 1 shows a user's view."),
        "Documents/deck.pptx": pptx_bytes("Goals for an uncertain year", "A European launch", "An SQL export"),
        "Documents/sheet.xlsx": xlsx_bytes("None needed", "n/a", 3.5),
        "Documents/data.csv": b"Date,Item\n2025-01-02,Nanaimo bar\n",
    }, criteria=("D15 holds an AVERAGE formula.", "The sheet holds exactly one chart, an area chart."))
    assert kinds(task, root) == []
    assert review(task, root).startswith("no unbelievable dates, grammar or placeholder leaks")


# --- each defect kind is found, and named --------------------------------------------------------------------

def test_a_week_subject_that_contradicts_its_date(tmp_path):
    task, root = package(tmp_path, {"Inbox": mbox_bytes([mail("Weekly sales export, week 38", dt.date(2025, 3, 24))])})
    with pytest.raises(Unrealistic, match=r"Inbox, message 'Weekly sales export, week 38': subject .* names week 38, "
                                          r"but the message is dated 2025-03-24 \(week 13\)"):
        review(task, root)


def test_an_attachment_dated_after_its_mail(tmp_path):
    attachment = csv_attachment("2025-03-01", "2025-04-02")
    task, root = package(tmp_path, {"Inbox": mbox_bytes([mail("Sales data", dt.date(2025, 3, 24),
                                                              attachments=(attachment,))])})
    with pytest.raises(Unrealistic, match=r"attachment 'report.csv' holds data dated 2025-04-02, after the message "
                                          r"was sent \(2025-03-24\)"):
        review(task, root)


def test_an_attachment_named_for_a_later_month(tmp_path):
    attachment = csv_attachment("2025-03-01", name="sales_2025_05.csv")
    task, root = package(tmp_path, {"Inbox": mbox_bytes([mail("Sales", dt.date(2025, 3, 24),
                                                              attachments=(attachment,))])})
    assert kinds(task, root) == ["date"]


@pytest.mark.parametrize("body", ["Please pay by 2025-03-01.", "The invoice is due on March 3.",
                                  "Deadline: 1 March 2025.", "RSVP by March 20, 2025."])
def test_a_due_date_before_the_mail_was_sent(tmp_path, body):
    task, root = package(tmp_path, {"Inbox": mbox_bytes([mail("Invoice", dt.date(2025, 3, 24), body=body)])})
    with pytest.raises(Unrealistic, match=r"date: assets/Inbox, message 'Invoice': .* before the message was sent"):
        review(task, root)


@pytest.mark.parametrize(("instruction", "words"), [
    ("Please add a area chart to the sheet.", "'an area', not 'a area'"),
    ("Put a AVERAGE formula in D14.", "'an AVERAGE', not 'a AVERAGE'"),
    ("Give it an bold font.", "'a bold', not 'an bold'"),
    ("Delete the 1 rows that repeat.", "'1' with the plural 'rows'"),
    ("A orange fill marks the cells.", "'an orange', not 'A orange'"),
])
def test_grammar_in_the_instruction(tmp_path, instruction, words):
    task, root = package(tmp_path, {}, instruction=instruction)
    with pytest.raises(Unrealistic) as caught:
        review(task, root)
    assert str(caught.value).startswith("grammar: instruction: ") and words in str(caught.value)


def test_grammar_in_a_rubric_criterion(tmp_path):
    task, root = package(tmp_path, {}, criteria=("Sheet 'S' holds exactly one chart, a area chart.",))
    with pytest.raises(Unrealistic, match=r"grammar: rubric 'c0' criterion"):
        review(task, root)


@pytest.mark.parametrize(("text", "why"), [
    ("Send the report to {name} today.", "an unfilled template slot"),
    ("Move the mail from None into Archive.", "'None' where a value belongs"),
    ("The average is nan for this column.", "a missing-value marker"),
    ("TODO: write the real instruction.", "a to-do marker"),
    ("Lorem ipsum dolor sit amet.", "filler text"),
    ("Attached is traffic_report.csv for 9. Reply to this message.", "a bare number where a name"),
    ("Attached is the report for . Thanks", "a slot filled with nothing"),
])
def test_placeholder_leaks_in_the_instruction(tmp_path, text, why):
    task, root = package(tmp_path, {}, instruction=text)
    with pytest.raises(Unrealistic, match="placeholder: instruction: ") as caught:
        review(task, root)
    assert why in str(caught.value)


def test_placeholder_leaks_in_mail_documents_and_tables(tmp_path):
    body = "Hi,\n\nAttached is traffic_report.csv for 9. Reply to this message."
    cases = {
        "Inbox": mbox_bytes([mail("Traffic report", dt.date(2025, 3, 24), body=body)]),
        "Documents/report.docx": docx_bytes("Dear {customer},", "Thanks."),
        "Documents/deck.pptx": pptx_bytes("Agenda", "Lorem ipsum dolor sit amet"),
        "Documents/sheet.xlsx": xlsx_bytes("fine", "nan"),
        "Documents/data.csv": b"Date,Item\n2025-01-02,None\n",
    }
    for dest, data in cases.items():
        task, root = package(tmp_path / dest.replace("/", "_"), {dest: data})
        found, _ = findings(task, root)
        assert [f.kind for f in found] == ["placeholder"], (dest, found)
        assert dest.replace("/", "_") in found[0].where


# --- untrusted input: never a crash, bounded ------------------------------------------------------------------

@pytest.mark.parametrize(("dest", "data"), [
    ("Documents/broken.docx", b"PK\x03\x04 this is not a zip"),
    ("Documents/broken.xlsx", b"\x00\x01\x02"),
    ("Inbox", b"From nobody\nDate: not a date\nSubject: =?utf-8?q?broken=ZZ?=\n\n\xff\xfe body"),
    ("Documents/notes.txt", b"\xff\xfe\x00binary"),
])
def test_damaged_files_never_crash(tmp_path, dest, data):
    task, root = package(tmp_path, {dest: data})
    review(task, root)  # judged or named as unread, never an exception


def test_a_zip_bomb_is_not_inflated(tmp_path):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("word/document.xml", b"<w:p><w:t>a</w:t></w:p>" + b" " * (80 << 20))
    task, root = package(tmp_path, {"Documents/bomb.docx": out.getvalue()})
    found, unread = findings(task, root)
    assert found == [] and len(unread) == 1 and "bomb.docx" in unread[0]


def test_unclosed_paragraphs_and_deep_multiparts_stay_cheap(tmp_path):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:  # 400k paragraphs that never close
        archive.writestr("word/document.xml", "<w:p ><w:t>an bold</w:t>" * 400_000)
    nested = b"From x\nDate: Mon, 24 Mar 2025 09:00:00 +0000\nSubject: deep\n" + b"".join(
        b"Content-Type: multipart/mixed; boundary=b%d\n\n--b%d\n" % (i, i) for i in range(3000))
    task, root = package(tmp_path, {"Documents/open.docx": out.getvalue(), "Inbox": nested})
    start = time.perf_counter()
    findings(task, root)
    assert time.perf_counter() - start < 20


def test_hostile_task_json_values_and_missing_files(tmp_path):
    task, root = package(tmp_path, {})
    task["instruction"] = {"not": "text"}
    task["rubric"] = ["x", {"criterion": 5}, {"id": None, "criterion": "an bold line"}]
    task["setup"]["assets"] = ["x", {"file": "assets/missing"}, {"file": 3}]
    found, unread = findings(task, root)
    assert [f.kind for f in found] == ["grammar"] and len(unread) == 2


def test_a_fifo_asset_does_not_block(tmp_path):
    task, root = package(tmp_path, {})
    os.mkfifo(root / "assets" / "pipe")
    task["setup"]["assets"] = [{"file": "assets/pipe", "dest": "/home/user/pipe.txt"}]
    found, unread = findings(task, root)
    assert found == [] and unread


def test_mail_folders_are_cut_at_max_messages(tmp_path):
    bad = [mail(f"Weekly sales export, week {1 + i % 2}", dt.date(2025, 9, 1)) for i in range(MAX_MESSAGES + 50)]
    task, root = package(tmp_path, {"Inbox": mbox_bytes(bad)})
    found, _ = findings(task, root)
    assert len(found) == MAX_MESSAGES


# --- through the real gate -----------------------------------------------------------------------------------

def test_the_gate_classes_a_defect_as_unrealistic(tmp_path):
    folder = make_package(WORKFLOW, {"key_kind": "numeric", "order": "desc"}, tmp_path / "out", seed=7)
    task = json.loads((folder / "task.json").read_text())
    task["instruction"] += " Ask {owner} if a hour is not enough."
    (folder / "task.json").write_text(json.dumps(task, indent=2))
    verdict = gate_package(folder)
    assert verdict.status == "unrealistic", verdict.stages
    assert [s.name for s in verdict.stages][-1] == "content"
    assert "{owner}" in verdict.evidence and "'an hour', not 'a hour'" in verdict.evidence
