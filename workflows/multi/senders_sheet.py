"""multi.senders_sheet: list the messages of a stated folder, or the Inbox messages whose subject has a stated
word, in a new Calc workbook (sender address, date, subject), oldest or newest first (Thunderbird -> Calc).

A look-alike message sits where a careless search would pick it up (the same word in another folder, or in
the Inbox next to the stated folder). Message times are mid-day, so the local and UTC dates agree.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from forge.dag import NodeContext, Workflow, node
from forge.model import HOME, Check, Solution
from preparers import thunderbird as tb
from workflows.multi import kit as mc
from workflows.tb import kit as tc

NAME = "multi.senders_sheet"
CODENAMES = ("Falcon", "Juniper", "Bluebird", "Northstar", "Cedarline", "Harborview", "Lighthouse", "Marigold",
             "Quicksilver", "Sandpiper")
SUBJECTS = ("{p}: kickoff notes", "{p} budget draft", "Questions about the {p} timeline", "{p} vendor shortlist",
            "Risks to review for {p}", "Updated {p} schedule", "{p} status for this week", "Sign-off needed on {p}")
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


def _thread(rng: Any, plan: Mapping[str, Any], background: list[tb.Message], word: str, n: int
            ) -> list[tb.Message]:
    owner = plan["owner"]
    people = [mc.person(rng, avoid=(owner["first"], owner["last"])) for _ in range(3)]
    days = sorted(rng.sample(range(3, plan["days"] - 2), n + 1))
    tz = dt.timezone(dt.timedelta(minutes=plan["utc_offset"]))
    start = dt.date.fromisoformat(plan["start"])
    subjects = rng.sample(SUBJECTS, n + 1)
    out = []
    for day, subject in zip(days, subjects, strict=True):
        first, last = rng.choice(people)
        when = dt.datetime.combine(start + dt.timedelta(days=day), dt.time(rng.randint(10, 15), rng.randint(0, 59)), tz)
        body = rng.choice(BODIES).format(owner=owner["first"], p=word, name=first)
        out.append(mc.message(plan, (f"{first} {last}", f"{mc.local_part(first, last)}@{plan['domain']}"),
                              subject.format(p=word), body, when, read=rng.random() < 0.5))
    return out


@node("goal", "goal", ("params", "content", "plan"), ("setup", "facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("goal")
    params, content, plan = values["params"], values["content"], values["plan"]["mailbox"]
    background = tc.messages(content["mailbox"], plan)
    words = [w for w in CODENAMES if not any(w.casefold() in m.subject.casefold() for m in background)]
    word = rng.choice(words)
    thread = _thread(rng, plan, background, word, rng.randint(3, 5))
    decoy = thread.pop(rng.randrange(len(thread)))
    if params["select"] == "folder":
        folder = rng.choice(("Project " + word, word + " Team", word))
        spec = mc.mail_profile(rng, plan, background, [decoy], others={folder: thread}, avoid=(folder,))
        selection = f"the messages in the folder '{folder}' (directly under Local Folders)"
    else:
        spec = mc.mail_profile(rng, plan, background, thread, others={"Archives": [decoy]})
        selection = f"the messages in the Inbox whose subject contains '{word}'"
    project = word.lower()
    workbook = f"{HOME}/{rng.choice(('Documents', 'Desktop', 'Documents/mail'))}/{project}_messages.xlsx"
    sheet = rng.choice(("Messages", "Mail", "Log"))
    header = list(FIELDS[params["fields"]])
    order = "oldest first" if params["order"] == "oldest" else "newest first"
    facts = {"selection": selection, "workbook": workbook, "sheet": sheet, "header": mc.quoted(header),
             "what": WHAT[params["fields"]], "order": order}
    target = {"workbook": workbook, "sheet": sheet, "header": header, "thread": thread, "decoy": decoy}
    return {"setup": mc.Setup((("tb", spec),)), "facts": facts, "target": target}


def _rows(messages: list[tb.Message], fields: str, newest: bool, *, swap: bool = False) -> list[list[str]]:
    def cells(m: tb.Message) -> dict[str, str]:
        return {"Sender": tc.address(m), "Date": f"{m.date:%Y-%m-%d}", "Subject": m.subject}

    ordered = sorted(messages, key=lambda m: m.date, reverse=newest)
    names = list(FIELDS[fields])[::-1] if swap else list(FIELDS[fields])
    return [[cells(m)[n] for n in names] for m in ordered]


@node("rubric", "rubric", ("params", "target", "setup"), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    t, p = values["target"], values["params"]
    rows = _rows(t["thread"], p["fields"], p["order"] == "newest")
    return {"rubric": [Check("list", f"Sheet '{t['sheet']}' of {t['workbook']} lists the {len(rows)} messages under "
                                     f"the header {t['header']}, {p['order']} first.", "multi.sheet_table",
                             {"path": t["workbook"], "sheet": t["sheet"], "header": t["header"], "rows": rows}),
                       *mc.mail_kept(values["setup"])]}


@node("solve", "solve", ("params", "target"), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    t, p = values["target"], values["params"]
    fields, newest = p["fields"], p["order"] == "newest"

    def write(rows: list[list[str]], header: list[str] = t["header"]) -> list[dict[str, Any]]:
        return [mc.op("multi.write_xlsx", t["workbook"], sheet=t["sheet"], rows=[header, *rows])]

    thread = t["thread"]
    return {"solutions": [
        Solution("oracle", "one row per selected message, in the asked order", write(_rows(thread, fields, newest))),
        Solution("near-miss-1", "also lists the look-alike message from the other folder",
                 write(_rows([*thread, t["decoy"]], fields, newest))),
        Solution("near-miss-2", "lists the messages in the opposite order", write(_rows(thread, fields, not newest))),
        Solution("near-miss-3", "misses the last message of the list", write(_rows(thread, fields, newest)[:-1])),
        Solution("near-miss-4", "puts the columns in the opposite order",
                 write(_rows(thread, fields, newest, swap=True), t["header"][::-1])),
    ]}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(mc.TB, mc.CALC),
    description="List the messages of a folder, or of the Inbox with a subject word, in a new Calc workbook "
                "(sender, date, subject), oldest or newest first.",
    knobs={"select": ("folder", "subject"), "fields": tuple(FIELDS), "order": ("oldest", "newest")},
    nodes=(*mc.source_nodes(mailbox={"kind": "txt"}), goal, mc.prepare, mc.instruction(NAME, PHRASINGS), rubric,
           solve),
)
