"""tb.save_draft: write a message to one or two people, attach a file from the home folder and save it as a draft
(not send it): File > Save > Save as Draft. Checked by parsing the Drafts mbox (`tb.draft_saved`): one draft with
the subject, to exactly those addresses, saying the sentence, with the file's very bytes attached.

An older copy of the file with the same name sits in ~/Downloads, so attaching the wrong one is a real mistake."""

from __future__ import annotations

import datetime as dt
import hashlib
import random
from collections.abc import Mapping
from dataclasses import dataclass
from email.utils import formataddr
from typing import Any, Literal, TypedDict

from kit.dag import NodeContext, node
from kit.family import Attempt, Attempts, Goal, family
from kit.model import HOME, Asset, Check, Freedom
from preparers import thunderbird as tb
from workflows.tb import kit as tc
from workflows.tb.content import FIRST, LAST

NAME = "tb.save_draft"
PHRASINGS = (
    "In Thunderbird, write a new message to {to} with the subject '{subject}' and the text \"{body}\", attach "
    "the file {file}, and save it as a draft without sending it.",
    "Compose an email in Thunderbird to {to}. Subject: '{subject}'. Text: \"{body}\" Attach {file}. Don't send it "
    "yet; save it to Drafts.",
    "Please prepare a draft in Thunderbird for {to}: subject '{subject}', the text \"{body}\" and the file {file} "
    "as an attachment. Leave it in Drafts.",
    "Draft a message to {to} in Thunderbird with subject '{subject}', saying \"{body}\", with {file} attached, and "
    "save the draft (do not send).",
    "I need a draft ready in Thunderbird: to {to}, subject '{subject}', text \"{body}\", attachment {file}. Save "
    "it as a draft only.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Can you draft a mail to {to} with the subject '{subject}' saying \"{body}\" and attach {file}? Save the "
    "draft, I'll send it later.",
    "Please put together a draft for {to}: subject '{subject}', \"{body}\", with {file} attached. Don't send it.",
    "I want to send {file} to {to} later. Save a draft with the subject '{subject}' and the text \"{body}\".",
    "Save a draft in Thunderbird to {to}, subject '{subject}', text \"{body}\", attaching {file}.",
    "Could you prepare the draft '{subject}' to {to} with {file} attached and the line \"{body}\"? Not sent yet.",
)
#: topic -> (subject, file stem, the sentence, CSV header)
TOPICS = (
    ("Venue shortlist for the offsite", "venue-shortlist", "Here is the venue shortlist we talked about.",
     "venue,city,capacity,price_per_day"),
    ("Updated supplier price list", "supplier-prices", "Attached is the updated supplier price list.",
     "item,supplier,unit_price,currency"),
    ("Q{q} budget summary", "budget-summary-q{q}", "Please review the budget summary before our call.",
     "cost_centre,planned,actual,variance"),
    ("Rota for next month", "support-rota", "The rota for next month is attached for your review.",
     "date,first_shift,second_shift,on_call"),
    ("Survey results", "survey-results", "The survey results are in the attached file.",
     "question,agree,neutral,disagree"),
)
DOCS = ("Documents", "Documents/Reports", "Documents/Shared")


class Params(TypedDict):
    recipients: Literal["one", "two"]


@dataclass(frozen=True)
class Target:
    profile: str
    sender: str
    to: tuple[str, ...]  # the addresses
    named: tuple[str, ...]  # the recipients as "Name <address>"
    subject: str
    body: str
    file: str  # the file to attach
    old_file: str  # an older copy with the same name
    date: str  # the draft's Date (ISO 8601)
    message_id: str


@dataclass(frozen=True)
class Setup:
    spec: tb.ProfileSpec
    files: tuple[tuple[str, bytes], ...]


def _rows(rng: random.Random, header: str, n: int) -> str:
    cols = header.split(",")
    places = ("Lisbon", "Leeds", "Utrecht", "Porto", "Ghent", "Bristol", "Malmo", "Bergen")
    rows = [header]
    for i in range(n):
        cells = [f"{rng.choice(places)} {i + 1}" if j == 0 else str(rng.randint(10, 990)) for j in range(len(cols))]
        rows.append(",".join(cells))
    return "\n".join(rows) + "\n"


def _colleague(rng: random.Random, plan: Mapping[str, Any], taken: set[str]) -> tuple[str, str]:
    while True:
        first, last = rng.choice([f for f in FIRST if f.isascii()]), rng.choice([x for x in LAST if x.isascii()])
        addr = f"{first.lower()}.{last.lower()}@{plan['domain']}"
        if addr not in taken and addr != plan["owner"]["email"]:
            return f"{first} {last}", addr


def goal(rng: random.Random, params: Params, mailbox: Mapping[str, Any], plan: Mapping[str, Any]
         ) -> Goal[Setup, Target]:
    msgs = tc.messages(mailbox, plan)
    contacts = tc.contacts_from(rng, msgs)
    people: list[tuple[str, str]] = [(c.display_name, c.email) for c in contacts[:1]]
    while len(people) < (1 if params["recipients"] == "one" else 2):
        people.append(_colleague(rng, plan, {a for _, a in people}))
    subject, stem, body, header = rng.choice(TOPICS)
    quarter = str(rng.randint(1, 4))
    subject, stem = subject.format(q=quarter), stem.format(q=quarter)
    file = f"{HOME}/{rng.choice(DOCS)}/{stem}.csv"
    old_file = f"{HOME}/Downloads/{stem}.csv"
    current, older = _rows(rng, header, rng.randint(5, 9)), _rows(rng, header, rng.randint(3, 5))
    last = max(m.date for m in msgs)
    date = (last + dt.timedelta(hours=rng.randint(2, 20))).isoformat()
    owner = plan["owner"]
    sender = formataddr((f"{owner['first']} {owner['last']}", owner["email"]))
    mid = hashlib.sha256(f"{plan['profile']}|{subject}|{date}".encode()).hexdigest()[:24] + "@" + plan["domain"]
    spec = tc.profile_spec(plan, tc.layout(rng, msgs), contacts=contacts)
    named = tuple(formataddr(p) for p in people)
    to_text = " and ".join(f"{n} ({a})" for n, a in people)
    facts = {"to": to_text, "subject": subject, "body": body, "file": file}
    return Goal(Setup(spec, ((file, current.encode()), (old_file, older.encode()))), facts,
                Target(tc.profile_path(plan), sender, tuple(a for _, a in people), named, subject, body, file,
                       old_file, date, mid))


@node("prepare", "prepare", ("spec",), ("assets", "launch"))
def prepare(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    setup: Setup = values["spec"]
    out = tc.prepare.fn(ctx, {"spec": setup.spec})
    return {"assets": [*out["assets"], *(Asset(p, data) for p, data in setup.files)], "launch": out["launch"]}


def rubric(target: Target) -> list[Check]:
    t = target
    return [Check("draft", f"Drafts holds one draft '{t.subject}' to {', '.join(t.to)}, saying \"{t.body}\", with "
                           f"{t.file} attached (its very bytes).", "tb.draft_saved",
                  {"path": t.profile, "to": list(t.to), "subject": t.subject, "attachment": t.file,
                   "body": t.body})]


def _draft(t: Target, **change: Any) -> list[dict[str, Any]]:
    args: dict[str, Any] = {"op": "tb.save_draft", "path": t.profile, "sender": t.sender, "to": list(t.named),
                            "subject": t.subject, "body": t.body, "message_id": t.message_id, "date": t.date,
                            "attachments": [t.file]}
    return [{**args, **change}]


def solve(target: Target) -> Attempts:
    t = target
    misses = [
        Attempt(f"attaches the older copy {t.old_file}", _draft(t, attachments=[t.old_file])),
        Attempt("forgets to attach the file", _draft(t, attachments=[])),
        Attempt("saves it as a template instead of a draft", _draft(t, folder="Templates")),
        Attempt("puts the recipients in Cc instead of To", _draft(t, to=[], cc=list(t.named))),
        Attempt("shortens the subject", _draft(t, subject=t.subject.rsplit(" ", 1)[0])),
    ]
    if len(t.named) > 1:
        misses.append(Attempt("leaves out the second recipient", _draft(t, to=list(t.named[:1]))))
    return Attempts(Attempt("saves the draft with the file attached", _draft(t)), misses)


WORKFLOW = family(
    NAME, tc.TB,
    description="Compose a Thunderbird message to one or two people with a file from the home folder attached, "
                "and save it as a draft.",
    knobs={"recipients": ("one", "two")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve, prepare=prepare,
    freedoms=[Freedom("msg:Drafts|*", "a draft Thunderbird saves gets a Message-ID and Date of its own, not the "
                                      "oracle's")],
)
