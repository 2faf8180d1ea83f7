"""multi.attachment_sheet: a table mailed as a CSV or xlsx attachment becomes a Calc workbook at a stated path,
optionally sorted by a stated column or given a SUM totals row (Thunderbird -> Calc).

The Inbox also holds an earlier draft of the same table from the same sender (same attachment file name,
other rows), so converting the wrong message shows; the rows themselves are never stated, only where they
come from, and the check compares them by meaning (a CSV import may type "12.50" as 12.5).
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.axes import pick
from kit.family import Attempt, Attempts, Goal, family
from kit.model import HOME, Check
from preparers import thunderbird as tb
from preparers import xlsx
from workflows.calc import kit as cc
from workflows.multi import kit as mc
from workflows.tb import kit as tc

NAME = "multi.attachment_sheet"
DIRS = {"documents": "Documents", "desktop": "Desktop", "new_folder": "Documents/{sub}"}
SUBFOLDERS = ("Shared Tables", "From Email", "Team Data", "Imports", "Reports {y}", "Figures {y}")
MKDIR = " Create that folder if it does not exist yet."
TYPES = {"csv": "text/csv", "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"}
#: Difficulty axes (issue 15): the rows of the mailed table (the Calc kit's), the messages of the mailbox (the
#: Thunderbird kit's), the folder the mail is filed in, and more look-alike drafts of the table from the sender.
AXES = {"rows": mc.ROWS, "messages": mc.MESSAGES, **tc.LOCATION, "noise": mc.NOISE}
PHRASINGS = (
    "In Thunderbird, open the message '{subject}' from {sender} (received {date}). {convert}{mkdir}{post}",
    "The email '{subject}' that {sender} sent on {date} carries the table {filename}. {convert}{mkdir}{post}",
    "Please get the table attached to '{subject}' ({sender}, {date}) into a spreadsheet: {convert_lower}{mkdir}"
    "{post}",
    "Find the mail from {sender} with the subject '{subject}', dated {date}, in Thunderbird. {convert}{mkdir}{post}",
    "Using Thunderbird and LibreOffice Calc, take the attachment {filename} of the message '{subject}' from "
    "{sender} ({date}). {convert}{mkdir}{post}",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Save the table attached to '{subject}' as an xlsx workbook at {dest}.{mkdir} {post.first}",
    "I need {filename} from the email '{subject}' as a spreadsheet at {dest}.{mkdir} {post.first}",
    "Could you get the attachment of '{subject}' into {dest} as an xlsx file?{mkdir} {post.first}",
    "Please turn {filename}, attached to '{subject}', into the xlsx workbook {dest}.{mkdir} {post.first}",
    "{sender} sent a table in '{subject}'. Save it as the workbook {dest}.{mkdir} {post.first}",
)


def _decoy_rows(rng: Any, layout: cc.Layout) -> list[list[Any]]:
    """An earlier draft: two rows fewer and the numeric columns shuffled, so no row is the same."""
    rows = [list(r) for r in layout.rows[:-2]]
    for col in layout.columns_of(*cc.NUMERIC_KINDS):
        values = [r[col] for r in rows]
        rng.shuffle(values)
        values = values[1:] + values[:1] if any(v == r[col] for v, r in zip(values, rows, strict=True)) else values
        for row, value in zip(rows, values, strict=True):
            row[col] = value
    return rows


def _attachment(source: str, filename: str, layout: cc.Layout) -> tb.Attachment:
    data = (mc.csv_bytes(layout.header, layout.rows) if source == "csv"
            else xlsx.build(cc.workbook_spec(layout)))
    return tb.Attachment(filename, TYPES[source], data)


class Params(TypedDict):
    source: Literal["csv", "xlsx"]
    post: Literal["none", "sort_asc", "sort_desc", "total_row"]
    dest: Literal["documents", "desktop", "new_folder"]


@dataclass(frozen=True)
class Post:
    """What the post-processing step works on: the sort column and direction, or the totals row."""

    column: int = 0
    descending: bool = False
    row: int = 0  # the totals row
    cell: str = ""  # the SUM cell of the totals row
    total: float = 0.0


@dataclass(frozen=True)
class Target:
    profile: str
    dest: str  # where the xlsx workbook must be
    filename: str  # the attachment's file name (the same on the draft)
    sheet: str  # the workbook's sheet once converted
    message: str  # Message-ID of the wanted message
    draft: str  # Message-ID of the earlier draft with the same attachment name
    header: list[str]
    rows: list[list[Any]]
    ref: str  # the data rows, e.g. A2:F13
    letters: list[str]  # the column letters of the table
    last_row: int
    post: Post
    folder: str = "Inbox"  # the Local Folders folder that holds both messages


def _post(rng: Any, post: str, layout: cc.Layout, sheet: str, facts: dict[str, Any]) -> Post:
    """What the post-processing step asks for: the column, the sort or the totals cell; states it in `facts`."""
    numeric = layout.columns_of(*cc.NUMERIC_KINDS)
    if post.startswith("sort"):
        col = rng.choice(numeric)
        order = "smallest first" if post == "sort_asc" else "largest first"
        facts["post"] = (f" Sort the data rows by the '{layout.header[col]}' column, {order}, keeping the header "
                         "in the first row, and save the workbook again.")
        return Post(column=col, descending=post == "sort_desc")
    if post == "total_row":
        row = layout.last_row + 1
        clean = [c for c in numeric if mc.clean_of(facts, round(sum(layout.column(c)), 2))]
        col = rng.choice(clean or numeric)
        cell = f"{layout.letter(col)}{row}"
        facts["post"] = (f" On its sheet '{sheet}', type Total in A{row} and enter a SUM formula adding up "
                         f"the '{layout.header[col]}' column in {cell}. Save the workbook again.")
        return Post(column=col, row=row, cell=cell, total=round(sum(layout.column(col)), 2))
    facts["post"] = ""
    return Post()


def goal(rng: random.Random, params: Params, content: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[mc.Setup, Target]:
    mail_plan = plan["mailbox"]
    source = params["source"]
    background = tc.messages(content["mailbox"], mail_plan)
    first, last = mc.person(rng, avoid=(mail_plan["owner"]["first"], mail_plan["owner"]["last"]))
    sender = (f"{first} {last}", f"{mc.local_part(first, last)}@{mail_plan['domain']}")
    early, late = mc.dates_between(background, rng, 2)
    # the `noise` axis: more, older drafts, a few days apart (no random draw for their dates)
    older = [early - dt.timedelta(days=3 * i) for i in range(1, mc.EXTRA[pick(params, "noise", AXES)] + 1)]
    # the table's data predates every mail that carries a version of it
    table = mc.dated_before(content["table"], min([early, *older]).date())
    layout = cc.layout_from(table, plan["table"])
    filename = f"{table['file_stem']}.{source}"
    decoy_layout = layout.with_rows(_decoy_rows(rng, layout))
    owner = mail_plan["owner"]["first"]
    body = (f"Hi {owner},\n\nHere is the final version of the {layout.title}, as {filename}. Let me know "
            f"if anything looks off.\n\nThanks,\n{first}\n")
    draft_body = (f"Hi {owner},\n\nThis is a first draft of the {layout.title}; some figures are still being "
                  f"checked, so please don't use it yet.\n\nThanks,\n{first}\n")
    wanted = mc.message(mail_plan, sender, layout.title, body, late, [_attachment(source, filename, layout)])
    draft = mc.message(mail_plan, sender, f"Draft: {layout.title}", draft_body,
                       early, [_attachment(source, filename, decoy_layout)], read=True)
    drafts = [mc.message(mail_plan, sender, f"Early draft {i}: {layout.title}", draft_body, when,
                         [_attachment(source, filename, layout.with_rows(_decoy_rows(rng, layout)))], read=True)
              for i, when in enumerate(reversed(older), 1)]
    folder = tc.source_folder(rng, params, "Inbox")
    spec = mc.mail_profile(rng, mail_plan, background, [*drafts, draft, wanted], source=folder)
    sub = rng.choice(SUBFOLDERS).format(y=late.year)
    dest = f"{HOME}/{DIRS[params['dest']].format(sub=sub)}/{table['file_stem']}.xlsx"
    convert = (f"Open {filename} in LibreOffice Calc and save it as an xlsx workbook at {dest}." if source == "csv"
               else f"Save {filename} as {dest} and open it in LibreOffice Calc.")
    facts: dict[str, Any] = {"subject": layout.title, "sender": sender[1], "date": mc.mail_date(late),
                             "filename": filename, "dest": dest, "convert": convert,
                             "convert_lower": convert[0].lower() + convert[1:],
                             "mkdir": MKDIR if params["dest"] == "new_folder" else ""}
    sheet = layout.sheet if source == "xlsx" else table["file_stem"][:31]
    post = _post(rng, params["post"], layout, sheet, facts)
    if folder != "Inbox":  # said with `mkdir`, which every phrasing of both registers has, before the post-step
        facts["mkdir"] += f" The message is filed in the folder {folder.replace('/', ' > ')}."
    target = Target(tc.profile_path(mail_plan), dest, filename, sheet, wanted.message_id, draft.message_id,
                    layout.header, [list(r) for r in layout.rows], layout.data_ref,
                    [layout.letter(i) for i in range(layout.width)], layout.last_row, post, folder)
    return Goal(mc.Setup((("tb", spec),)), facts, target)


def rubric(params: Params, target: Target) -> list[Check]:
    t, post = target, params["post"]
    rows = t.rows
    if post.startswith("sort"):
        rows = mc.sort_rows(rows, t.post.column, t.post.descending)
    checks = [Check("table", f"{t.dest} holds the table of {t.filename} from the stated message (header and "
                             "all rows" + (", sorted as asked" if post.startswith("sort") else "") + ").",
                    "multi.sheet_table", {"path": t.dest, "header": t.header, "rows": mc.table_values(rows),
                                          "below_ok": post == "total_row"})]
    if post == "total_row":
        row, letter = t.post.row, t.letters[t.post.column]
        checks += [
            Check("label", f"A{row} of sheet '{t.sheet}' reads Total.", "xlsx.cell_value",
                  {"path": t.dest, "sheet": t.sheet, "cell": f"A{row}", "expected": "Total"}),
            Check("total", f"{t.post.cell} holds a SUM formula over the whole column.", "xlsx.formula_value",
                  {"path": t.dest, "sheet": t.sheet, "cell": t.post.cell, "function": "SUM",
                   "ref": f"{letter}2:{letter}{t.last_row}", "expected": t.post.total}),
        ]
    return checks


def _steps(t: Target, source: str, message: str, dest: str, *, post: str, skip: str = "",
           flip: bool = False, short_sum: bool = False, typed_total: bool = False) -> list[dict[str, Any]]:
    """Save the attachment, convert it (CSV), then sort or add the totals row, with optional slips."""
    save = {"path": t.profile, "folder": t.folder, "message_id": message, "filename": t.filename}
    if source == "csv":
        csv_path = f"{HOME}/Downloads/{t.filename}"
        steps = [mc.op("tb.save_attachment", **save, dest=csv_path)]
        if skip != "convert":
            steps.append(mc.op("multi.csv_to_xlsx", csv_path, dest=dest))
    else:
        steps = [mc.op("tb.save_attachment", **save, dest=dest)]
    if skip in ("convert", "post"):
        return steps
    if post.startswith("sort"):
        steps.append(mc.op("xlsx.sort_rows", dest, sheet=t.sheet, ref=t.ref, key_column=t.letters[t.post.column],
                           descending=t.post.descending != flip))
    elif post == "total_row":
        letter, last = t.letters[t.post.column], t.last_row - (1 if short_sum else 0)
        value: Any = t.post.total if typed_total else f"=SUM({letter}2:{letter}{last})"
        steps.append(mc.op("xlsx.set_cells", dest, sheet=t.sheet, cells={f"A{t.post.row}": "Total",
                                                                         t.post.cell: value}))
    return steps


def solve(params: Params, target: Target) -> Attempts:
    t = target
    source, post = params["source"], params["post"]
    right = (t.message, t.dest)
    oracle = Attempt("save the attachment, make it an xlsx workbook at the stated path"
                     + ("" if post == "none" else f", then {post.replace('_', ' ')}"),
                     _steps(t, source, *right, post=post))
    misses = [Attempt("takes the same-named attachment of the earlier draft message",
                      _steps(t, source, t.draft, t.dest, post=post))]
    if post == "none":
        downloads = f"{HOME}/Downloads/{t.dest.rsplit('/', 1)[1]}"
        misses.append(Attempt("saves the workbook in Downloads instead of the stated folder",
                              _steps(t, source, t.message, downloads, post=post)))
        if source == "csv":
            misses.append(Attempt("saves the CSV but never turns it into an xlsx workbook",
                                  _steps(t, source, *right, post=post, skip="convert")))
    else:
        misses.append(Attempt("stops after saving the workbook, skipping the asked step",
                              _steps(t, source, *right, post=post, skip="post")))
        if post.startswith("sort"):
            misses.append(Attempt("sorts in the opposite order", _steps(t, source, *right, post=post, flip=True)))
        else:
            misses.append(Attempt("the SUM range stops one row short of the data",
                                  _steps(t, source, *right, post=post, short_sum=True)))
            misses.append(Attempt("types the total as a number instead of a formula",
                                  _steps(t, source, *right, post=post, typed_total=True)))
    return Attempts(oracle, misses)


WORKFLOW = family(
    NAME, mc.app_kit((mc.TB, mc.CALC), table=mc.passing("rows"), mailbox=mc.passing("messages", kind="pdf")),
    description="Turn a table mailed as a CSV or xlsx attachment into a Calc workbook at a stated path, "
                "optionally sorted or with a totals row.",
    knobs={"source": ("csv", "xlsx"), "post": ("none", "sort_asc", "sort_desc", "total_row"),
           "dest": ("documents", "desktop", "new_folder")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve, axes=AXES,
)
