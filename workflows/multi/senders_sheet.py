"""multi.senders_sheet: list the messages of a stated folder, or the Inbox messages whose subject has a stated
word, in a new Calc workbook (sender address, date, subject), oldest or newest first (Thunderbird -> Calc).

A look-alike message sits where a careless search would pick it up (the same word in another folder, or in
the Inbox next to the stated folder). Message times are mid-day, so the local and UTC dates agree.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.axes import pick, span
from kit.family import Attempt, Attempts, Goal, family
from kit.grammar import count
from kit.model import HOME, Check
from preparers import thunderbird as tb
from workflows.multi import kit as mc
from workflows.tb import kit as tc

NAME = "multi.senders_sheet"
CODENAMES = ("Falcon", "Juniper", "Bluebird", "Northstar", "Cedarline", "Harborview", "Lighthouse", "Marigold",
             "Quicksilver", "Sandpiper")
SUBJECTS = ("{p}: kickoff notes", "{p} budget draft", "Questions about the {p} timeline", "{p} vendor shortlist",
            "Risks to review for {p}", "Updated {p} schedule", "{p} status for this week", "Sign-off needed on {p}")
#: Drawn from too only when a long thread (the `records` axis) needs more subjects than SUBJECTS holds.
MORE_SUBJECTS = ("{p} meeting moved to Thursday", "Notes from the {p} review", "{p}: open questions",
                 "Feedback on the {p} draft", "{p} resourcing", "Next steps for {p}", "{p} test results",
                 "Minutes: {p} steering group", "{p} contract questions", "Who owns the {p} handover?")
#: Difficulty axes (issue 15): how many messages the list holds, more look-alike messages (the word elsewhere),
#: and the size of the rest of the mailbox (the Thunderbird kit's).
AXES = {"records": ("3-5", "6-9", "10-14"), "noise": mc.NOISE, "messages": mc.MESSAGES}
BODIES = ("Hi {owner},\n\nSharing where we are on {p}. Comments welcome before Friday.\n\nBest,\n{name}\n",
          "Hello {owner},\n\nQuick update on {p}; details are in the shared folder.\n\nThanks,\n{name}\n")
FIELDS = {"sender_subject": ("Sender", "Subject"), "date_subject": ("Date", "Subject"),
          "sender_date_subject": ("Sender", "Date", "Subject")}
WHAT = {"sender_subject": "the sender's email address and the subject", "date_subject":
        "the date it was received (YYYY-MM-DD) and the subject", "sender_date_subject":
        "the sender's email address, the date received (YYYY-MM-DD) and the subject"}
PHRASINGS = (
    "In Thunderbird, look at {selection}. Create the workbook {workbook} with a sheet named '{sheet}' that has the "
    "header {header} in row 1 and one row per message below it with {what}, {order}. Save it as xlsx.",
    "Please make a spreadsheet of {selection}: a new Calc workbook {workbook}, sheet '{sheet}', header {header}, "
    "then one row per message giving {what}, {order}. Save it in xlsx format.",
    "Using Thunderbird and LibreOffice Calc, record {selection} in {workbook} (sheet '{sheet}'). Row 1 is the "
    "header {header}; each following row is one message with {what}, {order}. Keep the xlsx format.",
    "I want a list of {selection} in Calc. Save it as {workbook}, with the sheet '{sheet}', the header {header} "
    "and one line per message showing {what}, {order}.",
    "Go through {selection} in Thunderbird and write them into a new workbook {workbook}: sheet '{sheet}', first "
    "row {header}, then {what} for each message, {order}. Save the workbook as xlsx.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Make me a spreadsheet of {selection}: {workbook}, sheet '{sheet}', header {header}, then one row per message "
    "with {what}, {order}.",
    "Could you list {selection} in {workbook} (sheet '{sheet}')? Header {header}, then one row per message with "
    "{what}, {order}.",
    "I need a log of {selection} as {workbook}: sheet '{sheet}', header {header}, one row per message with {what}, "
    "{order}.",
    "Please put {selection} into a new workbook {workbook}: sheet '{sheet}', header {header}, then {what} for each "
    "message, {order}.",
    "Record {selection} in {workbook}, sheet '{sheet}': header {header} first, then {what} per message, {order}.",
)


class Params(TypedDict):
    select: Literal["folder", "subject"]
    fields: Literal["sender_subject", "date_subject", "sender_date_subject"]
    order: Literal["oldest", "newest"]


@dataclass(frozen=True)
class Target:
    workbook: str
    sheet: str
    header: list[str]
    thread: list[tb.Message]  # the messages to list
    decoy: tb.Message  # the look-alike message elsewhere


def _thread(rng: Any, plan: Mapping[str, Any], background: list[tb.Message], word: str, n: int
            ) -> list[tb.Message]:
    owner = plan["owner"]
    people = [mc.person(rng, avoid=(owner["first"], owner["last"])) for _ in range(3)]
    days = sorted(rng.sample(range(3, plan["days"] - 2), n + 1))
    tz = dt.timezone(dt.timedelta(minutes=plan["utc_offset"]))
    start = dt.date.fromisoformat(plan["start"])
    subjects = rng.sample(SUBJECTS if n < len(SUBJECTS) else SUBJECTS + MORE_SUBJECTS, n + 1)
    out = []
    for day, subject in zip(days, subjects, strict=True):
        first, last = rng.choice(people)
        when = dt.datetime.combine(start + dt.timedelta(days=day), dt.time(rng.randint(10, 15), rng.randint(0, 59)), tz)
        body = rng.choice(BODIES).format(owner=owner["first"], p=word, name=first)
        out.append(mc.message(plan, (f"{first} {last}", f"{mc.local_part(first, last)}@{plan['domain']}"),
                              subject.format(p=word), body, when, read=rng.random() < 0.5))
    return out


def goal(rng: random.Random, params: Params, content: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[mc.Setup, Target]:
    plan = plan["mailbox"]
    background = tc.messages(content["mailbox"], plan)
    words = [w for w in CODENAMES if not any(w.casefold() in m.subject.casefold() for m in background)]
    word = rng.choice(words)
    extra = mc.EXTRA[pick(params, "noise", AXES)]
    thread = _thread(rng, plan, background, word, rng.randint(*span(pick(params, "records", AXES))) + extra)
    decoy = thread.pop(rng.randrange(len(thread)))
    decoys = [thread.pop(rng.randrange(len(thread))) for _ in range(extra)]  # the `noise` axis: more look-alikes
    if params["select"] == "folder":
        folder = rng.choice(("Project " + word, word + " Team", word))
        spec = mc.mail_profile(rng, plan, background, [decoy, *decoys], others={folder: thread}, avoid=(folder,))
        selection = f"the messages in the folder '{folder}' (directly under Local Folders)"
    else:
        spec = mc.mail_profile(rng, plan, background, thread, others={"Archives": [decoy, *decoys]})
        selection = f"the messages in the Inbox whose subject contains '{word}'"
    project = word.lower()
    workbook = f"{HOME}/{rng.choice(('Documents', 'Desktop', 'Documents/mail'))}/{project}_messages.xlsx"
    sheet = rng.choice(("Messages", "Mail", "Log"))
    header = list(FIELDS[params["fields"]])
    order = "oldest first" if params["order"] == "oldest" else "newest first"
    facts = {"selection": selection, "workbook": workbook, "sheet": sheet, "header": mc.quoted(header),
             "what": WHAT[params["fields"]], "order": order}
    return Goal(mc.Setup((("tb", spec),)), facts, Target(workbook, sheet, header, thread, decoy))


def _rows(messages: list[tb.Message], fields: str, newest: bool, *, swap: bool = False) -> list[list[str]]:
    def cells(m: tb.Message) -> dict[str, str]:
        return {"Sender": tc.address(m), "Date": f"{m.date:%Y-%m-%d}", "Subject": m.subject}

    ordered = sorted(messages, key=lambda m: m.date, reverse=newest)
    names = list(FIELDS[fields])[::-1] if swap else list(FIELDS[fields])
    return [[cells(m)[n] for n in names] for m in ordered]


def rubric(params: Params, target: Target) -> list[Check]:
    t, p = target, params
    rows = _rows(t.thread, p["fields"], p["order"] == "newest")
    return [Check("list", f"Sheet '{t.sheet}' of {t.workbook} lists the {count(len(rows), 'message')} under "
                          f"the header {t.header}, {p['order']} first.", "multi.sheet_table",
                  {"path": t.workbook, "sheet": t.sheet, "header": t.header, "rows": rows})]


def solve(params: Params, target: Target) -> Attempts:
    t, p = target, params
    fields, newest = p["fields"], p["order"] == "newest"

    def write(rows: list[list[str]], header: list[str] = t.header) -> list[dict[str, Any]]:
        return [mc.op("multi.write_xlsx", t.workbook, sheet=t.sheet, rows=[header, *rows])]

    thread = t.thread
    return Attempts(
        Attempt("one row per selected message, in the asked order", write(_rows(thread, fields, newest))),
        [Attempt("also lists the look-alike message from the other folder",
                 write(_rows([*thread, t.decoy], fields, newest))),
         Attempt("lists the messages in the opposite order", write(_rows(thread, fields, not newest))),
         Attempt("misses the last message of the list", write(_rows(thread, fields, newest)[:-1])),
         Attempt("puts the columns in the opposite order", write(_rows(thread, fields, newest, swap=True),
                                                                 t.header[::-1]))],
    )


WORKFLOW = family(
    NAME, mc.app_kit((mc.TB, mc.CALC), mailbox=mc.passing("messages", kind="txt")),
    description="List the messages of a folder, or of the Inbox with a subject word, in a new Calc workbook "
                "(sender, date, subject), oldest or newest first.",
    knobs={"select": ("folder", "subject"), "fields": tuple(FIELDS), "order": ("oldest", "newest")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve, axes=AXES,
)
