"""Offline generator for the Thunderbird "content" LLM node: a realistic mailbox for one person.

`generate_mailbox(rng, plan)` returns plain JSON (the shape `MAILBOX_SCHEMA` describes) so a model can be
asked for the same thing. A mailbox is built from *streams*: a sender and the kind of mail they send
(newsletters, invoices, team updates, travel, support tickets, shipping, HR notices, events, security
alerts, friends, reports). Several streams repeat (two or more messages from one address, subjects sharing
a word), one stream is a recurring document (same attachment file name each time, in the plan's format;
the latest issue carries a second attachment), and the oldest messages come before a gap of several
days — so every family finds a sender, a subject word and a date that split the mailbox cleanly.

What a reader checks holds (issue 16): a "week N" subject names the week its Date header reports on, a monthly
issue the month; an attachment's dates are on or before its mail's; bodies are sentences a sender writes. The
`content` verifier stage (verifiers/gate/content.py) rejects a mailbox where they do not.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kit.dag import Sketch

MAILBOX_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["messages"],
    "properties": {"messages": {"type": "array", "minItems": 12, "maxItems": 40, "items": {
        "type": "object",
        "additionalProperties": False,
        "required": ["sender_name", "sender_email", "subject", "body", "date", "kind", "attachments"],
        "properties": {
            "sender_name": {"type": "string", "minLength": 2, "maxLength": 60},
            "sender_email": {"type": "string", "pattern": r"^[a-z0-9._+-]+@[a-z0-9.-]+\.[a-z]{2,}$"},
            "subject": {"type": "string", "minLength": 4, "maxLength": 120},
            "body": {"type": "string", "minLength": 20, "maxLength": 3000},
            "date": {"type": "string", "format": "date-time"},
            "kind": {"type": "string"},
            "attachments": {"type": "array", "maxItems": 2, "items": {
                "type": "object", "additionalProperties": False, "required": ["filename", "format", "text"],
                "properties": {"filename": {"type": "string", "pattern": r"^[A-Za-z0-9_.-]+\.(pdf|csv|txt)$"},
                               "format": {"enum": ["pdf", "csv", "txt"]},
                               "text": {"type": "string", "minLength": 10, "maxLength": 4000}}}},
        }}}},
}

#: Kinds of mail people write themselves; the rest (newsletters, invoices, bookings, tickets, notices, the recurring
#: document) is machine mail, templated in real life too, so it comes from the stream templates below.
HUMAN_KINDS = ("team", "personal")
_HUMAN_FIELDS = ("sender_name", "sender_email", "subject", "body")
_MESSAGE = MAILBOX_SCHEMA["properties"]["messages"]["items"]
#: What a model is asked to write: the human mail only (sender, subject, body), in order.
HUMAN_MAIL_SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "required": ["messages"],
    "properties": {"messages": {"type": "array", "minItems": 1, "maxItems": 30, "items": {
        "type": "object", "additionalProperties": False, "required": list(_HUMAN_FIELDS),
        "properties": {key: _MESSAGE["properties"][key] for key in _HUMAN_FIELDS}}}},
}


def _human_mail(mailbox: dict[str, Any]) -> dict[str, Any]:
    """The sketch of a whole mailbox: its human messages' senders, subjects and bodies, in order."""
    return {"messages": [{key: m[key] for key in _HUMAN_FIELDS} for m in mailbox["messages"]
                         if m["kind"] in HUMAN_KINDS]}


def _with_human_mail(sketch: dict[str, Any], mailbox: dict[str, Any]) -> dict[str, Any]:
    """The templated mailbox with its human messages replaced, in order, by the model's: dates, kinds and the
    mailbox's shape (the gap, the recurring document, the repeating senders of machine mail) stay the template's.
    Extra model messages are dropped; a slot the model left unfilled keeps the template's message."""
    written = iter(sketch["messages"])
    messages = [{**m, **next(written, {})} if m["kind"] in HUMAN_KINDS else m for m in mailbox["messages"]]
    return {**mailbox, "messages": messages}


MAILBOX_SKETCH = Sketch(HUMAN_MAIL_SCHEMA, _human_mail, _with_human_mail)

FIRST = ("Maya", "Jonas", "Priya", "Tomás", "Aiko", "Samuel", "Leila", "Marco", "Nadia", "Owen", "Freya", "Kofi",
         "Isabel", "Rahul", "Elena", "Victor", "Hannah", "Diego", "Grace", "Luca", "Amara", "Felix", "Sofia", "Ivan")
LAST = ("Fischer", "Okafor", "Lindqvist", "Moreau", "Tanaka", "Brennan", "Haddad", "Rossi", "Kowalski", "Nguyen",
        "Alvarez", "Mensah", "Novak", "Sharma", "Duarte", "Keller", "O'Neill", "Petrov", "Larsen", "Castillo")
FRIEND_DOMAINS = ("gmail.com", "outlook.com", "proton.me", "fastmail.com", "yahoo.com")
CITIES = ("Lisbon", "Copenhagen", "Montreal", "Kyoto", "Edinburgh", "Valencia", "Vienna", "Oslo", "Porto", "Seattle",
          "Krakow", "Dublin", "Milan", "Singapore", "Austin")
#: The `noise` axis level -> how many look-alike senders and extra earlier document issues the mailbox gets.
NOISE = {"none": 0, "some": 1, "many": 2}
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")

Ctx = dict[str, Any]
Mail = dict[str, Any]


def _person(rng: random.Random, used: set[str]) -> tuple[str, str]:
    while True:
        first, last = rng.choice(FIRST), rng.choice(LAST)
        if first not in used and last not in used:
            used.update((first, last))
            return first, last


def _slug(text: str) -> str:
    return "".join(c for c in text.lower().replace(" ", ".") if c.isalnum() or c == ".").strip(".")


def _ascii(text: str) -> str:
    table = str.maketrans("áàâäãåçéèêëíìîïñóòôöõúùûüý", "aaaaaaceeeeiiiinooooouuuuy")
    return text.lower().translate(table)


def _pdf_lines(title: str, rows: list[str]) -> str:
    return "\n".join([title, "", *rows])


# --- stream kinds: each returns (sender_name, sender_email, [mail factories]) -------------------------------
# A factory gets (rng, ctx, index) and returns subject/body/attachments for one message of the stream.

def _newsletter(rng: random.Random, ctx: Ctx) -> tuple[str, str, str]:
    name, addr, topic = rng.choice((
        ("The Product Brief", "newsletter@productbrief.io", "product"),
        ("Data Weekly", "digest@dataweekly.co", "data"),
        ("Morning Markets", "briefing@morningmarkets.com", "markets"),
        ("City Cycling Club", "news@citycyclingclub.org", "cycling"),
        ("Frontend Focus", "hello@frontendfocus.dev", "frontend"),
    ))
    return name, addr, topic


HEADLINES = {
    "product": ("Pricing pages that convert", "Running better discovery interviews", "Roadmaps without dates",
                "When to sunset a feature", "Onboarding checklists that work"),
    "data": ("Streaming joins explained", "A practical guide to dbt tests", "Parquet vs. Avro in 2024",
             "Cost controls for your warehouse", "Backfills without tears"),
    "markets": ("Rates hold steady", "Earnings season preview", "Oil slips on supply news",
                "What the jobs report means", "Tech stocks rebound"),
    "cycling": ("Spring ride calendar", "Volunteers needed for the charity ride", "Bike maintenance night",
                "New route along the river", "Club jerseys are back in stock"),
    "frontend": ("CSS container queries in practice", "Faster builds with esbuild", "Accessible modals",
                 "State management in 2024", "The View Transitions API"),
}


def _mail_newsletter(rng: random.Random, ctx: Ctx, stream: Ctx, i: int) -> Mail:
    issue = stream.setdefault("issue", rng.randint(40, 210)) + i
    pool = HEADLINES[stream["topic"]]
    lead = rng.choice([h for h in pool if h not in stream.setdefault("used", [])])
    stream["used"].append(lead)
    heads = [lead, *rng.sample([h for h in pool if h != lead], 2)]
    body = (f"Hi {ctx['first']},\n\nIn this issue of {stream['name']}:\n\n"
            + "".join(f"- {h}\n" for h in heads)
            + f"\nRead the full stories on our website.\n\nYou are receiving this because you subscribed "
              f"with {ctx['email']}. Unsubscribe at any time.\n")
    return {"subject": f"{stream['name']} #{issue}: {heads[0]}", "body": body, "attachments": []}


VENDORS = (
    ("Northwind Cloud Billing", "billing@northwindcloud.com", "cloud hosting", "NWC"),
    ("Lumen Office Supplies", "invoices@lumensupply.com", "office supplies", "LOS"),
    ("Brightline Internet", "billing@brightline.net", "business fibre", "BRL"),
    ("Harbor Coworking", "accounts@harborcowork.com", "desk membership", "HCW"),
    ("Sparrow Design Studio", "studio@sparrowdesign.co", "illustration work", "SDS"),
)


def _mail_invoice(rng: random.Random, ctx: Ctx, stream: Ctx, i: int) -> Mail:
    num = stream.setdefault("num", rng.randint(1200, 9800)) + i * 17
    month = MONTHS[(stream["month0"] + i) % 12]
    amount = round(rng.uniform(40, 2400), 2)
    code = f"{stream['prefix']}-{num}"
    subject = rng.choice(("Invoice {c} for {m}", "Your {v} invoice {c} ({m})", "{m} invoice {c} is ready"))
    body = (f"Hello {ctx['first']},\n\nYour invoice {code} for {stream['service']} in {month} is ready in your "
            "account.\n"
            f"Amount due: EUR {amount:,.2f}\nDue date: 30 days from the invoice date.\n\n"
            f"Thank you for your business,\n{stream['name']}\n")
    return {"subject": subject.format(c=code, m=month, v=stream["name"].split()[0]), "body": body, "attachments": []}


#: A colleague's subject -> the sentence their mail opens with (same slots).
COLLEAGUE_OPENINGS = {
    "Sprint {n} review notes": "Here are my notes from the sprint {n} review.",
    "Draft agenda for Thursday's planning": "I put together a draft agenda for Thursday's planning session.",
    "Q{q} roadmap: comments by Friday": "Could you add your comments to the Q{q} roadmap by Friday?",
    "Standup moved to 10:30 tomorrow": "Heads-up: tomorrow's standup moves to 10:30.",
    "Release {v} checklist": "The checklist for release {v} is ready for a second pair of eyes.",
    "Customer interview summary": "I wrote up a summary of this week's customer interview.",
    "Budget numbers for the offsite": "I have the first budget numbers for the offsite.",
    "Hiring loop feedback": "Thanks for joining the hiring loop; here is where the feedback stands.",
    "Design review: new settings page": "Thanks for reviewing the designs for the new settings page.",
    "Retro action items": "Here are the action items we agreed on in the retro.",
    "Vendor shortlist for the analytics tool": "I narrowed the vendor shortlist for the analytics tool down to three.",
    "Coverage while I'm out next week": "I'm out next week, so here is who covers what while I'm away.",
}
COLLEAGUE_SUBJECTS = tuple(COLLEAGUE_OPENINGS)


def _mail_colleague(rng: random.Random, ctx: Ctx, stream: Ctx, i: int) -> Mail:
    template = rng.choice([s for s in COLLEAGUE_SUBJECTS if s not in stream.setdefault("used", [])])
    stream["used"].append(template)
    slots = {"n": rng.randint(8, 40), "q": rng.randint(1, 4), "v": f"{rng.randint(2, 6)}.{rng.randint(0, 9)}"}
    subject = template.format(**slots)
    points = rng.sample(("the API rate limits", "the onboarding flow", "our Q3 targets", "the migration plan",
                         "the support backlog", "the pricing experiment", "test coverage", "the launch email"), 2)
    body = (f"Hi {ctx['first']},\n\n{COLLEAGUE_OPENINGS[template].format(**slots)} We agreed to revisit "
            f"{points[0]}, and I will follow up on {points[1]} before the end of the week.\n\n"
            f"Let me know if I missed anything.\n\nThanks,\n{stream['name'].split()[0]}\n")
    return {"subject": subject, "body": body, "attachments": []}


def _mail_travel(rng: random.Random, ctx: Ctx, stream: Ctx, i: int) -> Mail:
    city = stream.setdefault("city", rng.choice(CITIES))
    code = stream.setdefault("code", "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(6)))
    departs = f"{rng.randint(6, 21):02d}:{rng.choice(('05', '20', '35', '50'))}"
    if stream["name"].startswith("SkyBridge"):
        subject = (f"Booking confirmation {code}: flight to {city}", f"Check-in is open for your flight to {city}",
                   f"Gate change for your flight to {city}")[i % 3]
        body = (f"Dear {ctx['first']} {ctx['last']},\n\nYour booking reference is {code}. "
                f"Flight SB{rng.randint(100, 989)} to {city} departs at {departs}.\n"
                "Please arrive at the airport two hours before departure.\n\nSkyBridge Airlines\n")
    else:
        subject = (f"Your reservation at {stream['name'].split()[0]} {city}", f"Getting ready for your stay in {city}",
                   f"Receipt for your stay in {city}")[i % 3]
        body = (f"Hello {ctx['first']},\n\nReservation {code}: {rng.randint(1, 4)} nights, "
                f"{rng.choice(('king room', 'double room', 'studio'))}, breakfast included.\n"
                "Check-in from 15:00, check-out until 11:00.\n\nWe look forward to welcoming you.\n")
    return {"subject": subject, "body": body, "attachments": []}


ISSUES = ("Unable to export contacts to CSV", "Invoices show the wrong VAT rate", "Sync stops after the latest update",
          "Two-factor codes not arriving", "Dashboard loads very slowly")


def _mail_support(rng: random.Random, ctx: Ctx, stream: Ctx, i: int) -> Mail:
    ticket = stream.setdefault("ticket", rng.randint(31000, 99000))
    issue = stream.setdefault("issue", rng.choice(ISSUES))
    state = ("received", "update", "resolved")[min(i, 2)]
    subject = f"[Ticket #{ticket}] {issue}" if state != "resolved" else f"[Ticket #{ticket}] Resolved: {issue}"
    text = {"received": "We have received your request and an agent will reply within one business day.",
            "update": "Our engineers reproduced the problem and are preparing a fix. We will keep you posted.",
            "resolved": "The fix is now live. Please reply to this message if the problem comes back."}[state]
    return {"subject": subject, "body": f"Hi {ctx['first']},\n\n{text}\n\nKind regards,\n{stream['name']}\n",
            "attachments": []}


def _mail_shipping(rng: random.Random, ctx: Ctx, stream: Ctx, i: int) -> Mail:
    order = stream.setdefault("order", f"{rng.randint(100, 999)}-{rng.randint(1000000, 9999999)}")
    subject = (f"Your order {order} has shipped", f"Out for delivery: order {order}",
               f"Delivered: order {order}")[i % 3]
    opening = (f"Your order {order} has shipped.", f"Your order {order} is out for delivery today.",
               f"Your order {order} was delivered.")[i % 3]
    body = (f"Hi {ctx['first']},\n\n{opening} Tracking number PP{rng.randint(10 ** 9, 10 ** 10 - 1)}.\n"
            "You can follow the parcel in the ParcelPoint app.\n")
    return {"subject": subject, "body": body, "attachments": []}


def _mail_people(rng: random.Random, ctx: Ctx, stream: Ctx, i: int) -> Mail:
    subject = rng.choice(("Open enrollment closes on Friday", "Updated travel expense policy",
                          "Office closed on Monday for the public holiday", "Reminder: submit your timesheets",
                          "New parental leave guidelines", "Annual security training is due"))
    body = (f"Hi all,\n\n{subject}. Details are on the intranet; contact the People team at "
            f"{stream['email']} with any questions.\n\nBest,\nPeople Team\n")
    return {"subject": subject, "body": body, "attachments": []}


def _mail_event(rng: random.Random, ctx: Ctx, stream: Ctx, i: int) -> Mail:
    subject = (f"Your ticket for {stream['name']}", f"{stream['name']}: speaker lineup announced",
               f"{stream['name']} starts tomorrow")[i % 3]
    opening = (f"Here is your ticket for {stream['name']}.", f"The speaker lineup for {stream['name']} is out.",
               f"{stream['name']} starts tomorrow.")[i % 3]
    body = (f"Hello {ctx['first']},\n\n{opening} Doors open at 09:00 at the {rng.choice(CITIES)} Congress Centre.\n"
            "Bring the QR code from your ticket.\n\nSee you there!\n")
    return {"subject": subject, "body": body, "attachments": []}


def _mail_security(rng: random.Random, ctx: Ctx, stream: Ctx, i: int) -> Mail:
    subject = rng.choice(("New sign-in from Firefox on Linux", "Your password was changed",
                          "A new device was added to your account"))
    service = stream["service"]
    opening = {"New sign-in from Firefox on Linux": f"Someone signed in to your {service} account from Firefox on "
                                                    "Linux.",
               "Your password was changed": f"The password of your {service} account was changed.",
               "A new device was added to your account": f"A new device was added to your {service} account.",
               }[subject]
    body = (f"Hi {ctx['first']},\n\n{opening} If this was you, no action is needed.\n"
            "If not, reset your password right away.\n")
    return {"subject": subject, "body": body, "attachments": []}


#: A friend's subject -> the sentence their mail opens with.
FRIEND_OPENINGS = {
    "Dinner on Saturday?": "Are you free for dinner on Saturday? I found a new place near the river.",
    "Photos from the hike": "I finally sorted the photos from the hike, and the ones from the ridge came out great.",
    "Book club: next pick": "It's your turn to choose the next book for the book club.",
    "Are you around this weekend?": "Are you around this weekend? It would be great to catch up.",
    "Concert tickets": "I managed to get two tickets for the concert next month. Do you want to come?",
    "Recipe you asked for": "Here is the recipe you asked for; it takes about an hour.",
}


def _mail_friend(rng: random.Random, ctx: Ctx, stream: Ctx, i: int) -> Mail:
    subject = rng.choice([s for s in FRIEND_OPENINGS if s not in stream.setdefault("used", [])])
    stream["used"].append(subject)
    body = (f"Hey {ctx['first']},\n\n{FRIEND_OPENINGS[subject]} Let me know what you think - "
            f"{rng.choice(('no rush', 'talk soon', 'miss you', 'say hi to everyone'))}!\n\n"
            f"{stream['name'].split()[0]}\n")
    return {"subject": subject, "body": body, "attachments": []}


# --- the recurring document stream (attachment in the plan's format) -----------------------------------------

@dataclass(frozen=True)
class Doc:
    """A recurring document: who sends it, its attachment, and how an issue is labelled and worded.

    `period` is "week" (a week-N subject names the ISO week the issue reports on, `lag` days before it is sent, so
    it always matches the Date header) or "month" (issues go out a calendar month apart; the label is the month
    `lag` months before the send date: a statement for the month just ended, the notes of this month's meeting).
    `body` is what the sender writes: `{first}`, `{label}`, `{file}`."""

    name: str
    address: str
    filename: str
    subject: str
    kind: str
    period: str
    lag: int
    body: str
    second: tuple[str, str]  # the file name and format of the latest issue's second attachment


DOCS = {
    "pdf": (Doc("Accounts Payable", "ap@{vendor}", "statement.pdf", "Monthly statement {label}", "statement",
                "month", 1, "Your statement for {label} is attached ({file}). Please check it against your records "
                "and reply to this message if anything looks off.", ("terms.txt", "txt")),
            Doc("Greenfield Insurance", "policies@greenfieldins.com", "policy_summary.pdf",
                "Your policy documents ({label})", "policy", "month", 0,
                "Attached you will find the summary of your policy for {label} ({file}). Keep it with your records; "
                "no action is needed on your side.", ("terms.txt", "txt"))),
    "csv": (Doc("Sales Reports", "reports@{domain}", "sales_export.csv", "Weekly sales export, week {label}", "sales",
                "week", 3, "Here is the sales export for week {label}, attached as {file}. Reply to this message if "
                "any of the numbers look off.", ("summary.pdf", "pdf")),
            Doc("Analytics Bot", "analytics@{domain}", "traffic_report.csv", "Website traffic report, week {label}",
                "traffic", "week", 3, "The website traffic report for week {label} is attached ({file}). It covers "
                "orders and revenue by channel.", ("summary.pdf", "pdf"))),
    "txt": (Doc("Meeting Notes", "notes@{domain}", "meeting_notes.txt", "Notes from the {label} planning meeting",
                "notes", "month", 0, "I have attached the notes from the {label} planning meeting ({file}). Please "
                "check your action items before the next meeting.", ("action_items.csv", "csv")),
            Doc("Build Server", "ci@{domain}", "build_log.txt", "Nightly build report, week {label}", "build", "week",
                0, "The nightly builds of week {label} are summarised in the attached {file}. Failed builds are "
                "listed first.", ("failed_tests.csv", "csv"))),
}


def _doc_text(rng: random.Random, kind: str, fmt: str, period: str, issued: dt.date) -> str:
    """An attachment's text about `period` ("week 14", "March"); every date in it (`issued`) is on or before the
    day the mail carrying it is sent."""
    if kind == "action_items":
        items = rng.sample(("Confirm the venue", "Send the agenda", "Review the budget", "Update the roadmap",
                            "Book the travel", "Draft the announcement", "Collect feedback"), 4)
        return "item,owner,status\n" + "".join(f"{it},{rng.choice(FIRST)},{rng.choice(('open', 'done'))}\n"
                                                for it in items)
    if kind == "failed_tests":
        tests = rng.sample(("test_login", "test_export_csv", "test_sync_retry", "test_invoice_total",
                            "test_search_index", "test_upload_limit"), 3)
        return "test,suite,seconds\n" + "".join(f"{t},{rng.choice(('unit', 'integration'))},{rng.randint(1, 90)}\n"
                                                for t in tests)
    if fmt == "csv":
        rows = [f"{r},{rng.randint(5, 900)},{rng.randint(100, 99999) / 100:.2f}" for r in
                rng.sample(("North", "South", "East", "West", "Online", "Retail", "Partners"), 5)]
        return "segment,orders,revenue\n" + "\n".join(rows) + "\n"
    if fmt == "txt" and kind == "build":
        lines = [f"#{rng.randint(1000, 9999)} {rng.choice(('main', 'release', 'nightly'))}: "
                 f"{rng.choice(('passed', 'passed', 'passed', 'failed'))} in {rng.randint(4, 40)} min"
                 for _ in range(5)]
        return f"Nightly builds, {period}\n\n" + "\n".join(sorted(lines, key=lambda x: "failed" not in x)) + "\n"
    if fmt == "txt" and kind == "terms":
        return (f"Terms for {period}\n\nPayment is due within 30 days of the date of issue.\n"
                "Questions: reply to the message this document came with.\n")
    if fmt == "txt":
        items = rng.sample(("Confirm the venue", "Send the agenda", "Review the budget", "Update the roadmap",
                            "Book the travel", "Draft the announcement", "Collect feedback"), 4)
        return f"Planning meeting, {period}\n\n" + "\n".join(f"- {it} ({rng.choice(FIRST)})" for it in items) + "\n"
    if kind == "summary":  # the one-page summary beside the latest export
        return _pdf_lines(f"Summary - {period}", [f"Prepared: {issued.isoformat()}",
                                                   f"Orders: {rng.randint(400, 4000):,}",
                                                   f"Revenue: EUR {rng.randint(10000, 900000) / 100:,.2f}",
                                                   "Figures by segment are in the attached CSV export."])
    lines = [f"Reference {rng.randint(10000, 99999)}", f"Period: {period}", f"Issued: {issued.isoformat()}",
             f"{'Premium' if kind == 'policy' else 'Balance'}: EUR {rng.randint(100, 90000) / 100:,.2f}",
             "Thank you for your business."]
    return _pdf_lines(f"{kind.title()} - {period}", lines)


def _months_before(when: dt.datetime, months: int) -> dt.datetime:
    index = when.year * 12 + when.month - 1 - months
    return when.replace(year=index // 12, month=index % 12 + 1)


def doc_dates(last: dt.datetime, earliest: dt.datetime, period: str, n: int) -> list[dt.datetime]:
    """The send dates of `n` issues of a recurring document, the last one at `last` (moved later, to keep the
    earliest issue on or after `earliest`): a week apart, or a calendar month apart on the same day (at most the
    28th)."""
    def issues(end: dt.datetime) -> list[dt.datetime]:
        if period == "week":
            return [end - dt.timedelta(days=7 * (n - 1 - i)) for i in range(n)]
        end = end.replace(day=min(end.day, 28))
        return [_months_before(end, n - 1 - i) for i in range(n)]

    out = issues(last)
    while out[0] < earliest:
        last += dt.timedelta(days=1)
        out = issues(last)
    return out


def doc_label(doc: Doc, sent: dt.datetime) -> str:
    """What an issue sent at `sent` reports on: its ISO week number, or its month's name."""
    if doc.period == "week":
        return str((sent.date() - dt.timedelta(days=doc.lag)).isocalendar().week)
    return MONTHS[_months_before(sent, doc.lag).month - 1]


def _doc_stream(rng: random.Random, ctx: Ctx, doc: Doc, fmt: str, sent: list[dt.datetime]) -> list[Mail]:
    """The issues of one recurring document, sent at `sent` (ascending); the latest carries a second attachment."""
    addr = doc.address.format(domain=ctx["domain"], vendor=rng.choice(("fernbank.com", "ledgerline.com")))
    mails = []
    for i, when in enumerate(sent):
        label = doc_label(doc, when)
        period = f"week {label}" if doc.period == "week" else label
        issued = when.date() - dt.timedelta(days=rng.randint(0, 2))
        att = [{"filename": doc.filename, "format": fmt, "text": _doc_text(rng, doc.kind, fmt, period, issued)}]
        if i == len(sent) - 1:
            second, sfmt = doc.second
            att.append({"filename": second, "format": sfmt,
                        "text": _doc_text(rng, second.partition(".")[0], sfmt, period, issued)})
        body = (f"Hello {ctx['first']},\n\n" + doc.body.format(label=label, file=doc.filename)
                + f"\n\nRegards,\n{doc.name}\n")
        mails.append({"sender_name": doc.name, "sender_email": addr, "subject": doc.subject.format(label=label),
                      "body": body, "kind": "document", "attachments": att, "date": when.isoformat()})
    return mails


# --- assembly -----------------------------------------------------------------------------------------------

Factory = Callable[[random.Random, Ctx, Ctx, int], Mail]


def _streams(rng: random.Random, ctx: Ctx, extra: int = 0) -> list[tuple[Ctx, Factory, int]]:
    """(stream, factory, message count): repeating streams first, then one-off senders; with `extra`, more
    senders until the streams hold at least that many messages (drawn after the others: the default mailbox
    stays as it was)."""
    used: set[str] = {ctx["first"], ctx["last"]}
    out: list[tuple[Ctx, Factory, int]] = []
    name, addr, topic = _newsletter(rng, ctx)
    out.append(({"name": name, "email": addr, "topic": topic, "kind": "newsletter"}, _mail_newsletter,
                rng.randint(2, 3)))
    for vendor in rng.sample(VENDORS, 2):
        out.append(({"name": vendor[0], "email": vendor[1], "service": vendor[2], "prefix": vendor[3],
                     "month0": ctx["month0"] - 1, "kind": "invoice"}, _mail_invoice, rng.randint(2, 3)))
    for _ in range(2):
        first, last = _person(rng, used)
        out.append(({"name": f"{first} {last}", "email": f"{_ascii(_slug(first + ' ' + last))}@{ctx['domain']}",
                     "kind": "team"}, _mail_colleague, rng.randint(1, 3)))
    hotel = rng.choice(("Staywell Hotels", "Harbour Inn Group"))
    travel = rng.choice((("SkyBridge Airlines", "bookings@skybridge-air.com"),
                         (hotel, f"reservations@{_slug(hotel).split('.')[0]}hotels.com")))
    out.append(({"name": travel[0], "email": travel[1], "kind": "travel"}, _mail_travel, rng.randint(1, 3)))
    support = rng.choice((("Orbit CRM Support", "support@orbitcrm.com"), ("Pixelry Help Center", "help@pixelry.app"),
                          ("Ledgerly Support", "support@ledgerly.io")))
    out.append(({"name": support[0], "email": support[1], "kind": "support"}, _mail_support, rng.randint(1, 3)))
    extras: list[tuple[Ctx, Factory, int]] = [
        ({"name": "ParcelPoint", "email": "notifications@parcelpoint.com", "kind": "shipping"}, _mail_shipping, 2),
        ({"name": "People Team", "email": f"people@{ctx['domain']}", "kind": "hr"}, _mail_people, 1),
        ({"name": rng.choice(("DevConf Europe", "Data Summit", "UX Days")), "email": "hello@eventmail.eu",
          "kind": "event"}, _mail_event, rng.randint(1, 2)),
        ({"name": "Account Security", "email": "no-reply@accounts.ledgerly.io", "service": "Ledgerly",
          "kind": "security"}, _mail_security, 1),
    ]
    chosen = rng.sample(extras, rng.randint(2, 4))
    out += chosen
    for _ in range(rng.randint(1, 2)):
        out.append(_friend(rng, used))
    if extra:  # a bigger mailbox (the `messages` axis): the other one-off senders, more colleagues and friends
        out += [e for e in extras if e not in chosen]
        for _ in range(9):  # at most 9 more people: the name lists (20 last names) never run dry
            if sum(count for _, _, count in out) >= extra:
                break
            out.append(_friend(rng, used) if rng.random() < 0.4 else _colleague(rng, ctx, used, 2))
    return out


def _friend(rng: random.Random, used: set[str]) -> tuple[Ctx, Factory, int]:
    first, last = _person(rng, used)
    domain = rng.choice(FRIEND_DOMAINS)
    local = f"{_ascii(first)}.{_ascii(last).replace(chr(39), '')}"
    stream = {"name": f"{first} {last}", "email": f"{local}@{domain}", "kind": "personal"}
    return stream, _mail_friend, rng.randint(1, 2)


def _colleague(rng: random.Random, ctx: Ctx, used: set[str], least: int = 1) -> tuple[Ctx, Factory, int]:
    first, last = _person(rng, used)
    return ({"name": f"{first} {last}", "email": f"{_ascii(_slug(first + ' ' + last))}@{ctx['domain']}",
             "kind": "team"}, _mail_colleague, rng.randint(least, 3))


def _look_alikes(rng: random.Random, streams: list[tuple[Ctx, Factory, int]], k: int) -> list[tuple[Ctx, Factory, int]]:
    """`k` people who also write from a private address under the same name (a colleague from home, a friend from
    a second account): a sender criterion on one address must leave the other's mail alone. No address contains
    another, so a "From contains" rule still splits them."""
    people = [s for s, _, _ in streams if s["kind"] in HUMAN_KINDS]
    out: list[tuple[Ctx, Factory, int]] = []
    for person in rng.sample(people, min(k, len(people))):
        local = person["email"].partition("@")[0]
        domain = rng.choice([d for d in FRIEND_DOMAINS if not person["email"].endswith("@" + d)])
        out.append(({"name": person["name"], "email": f"{local}@{domain}", "kind": "personal"}, _mail_friend, 1))
    return out


def _dates(rng: random.Random, n: int, plan: Ctx) -> list[str]:
    """n ascending ISO datetimes in the plan's window; the first 2-4 are followed by a gap of 4+ days."""
    start = dt.date.fromisoformat(plan["start"])
    tz = dt.timezone(dt.timedelta(minutes=plan["utc_offset"]))
    head = rng.randint(2, 4)
    days = sorted(rng.sample(range(0, 6), head)) + sorted(rng.choices(range(10, plan["days"]), k=n - head))
    out = []
    for day in days:
        when = dt.datetime.combine(start + dt.timedelta(days=day), dt.time(rng.randint(7, 18), rng.randint(0, 59)), tz)
        out.append(when.isoformat())
    return sorted(out, key=dt.datetime.fromisoformat)


def generate_mailbox(rng: random.Random, plan: Ctx) -> dict[str, Any]:
    """A mailbox (JSON) for the plan: owner, company domain, window start/days, UTC offset, document format."""
    ctx = {"first": plan["owner"]["first"], "last": plan["owner"]["last"], "email": plan["owner"]["email"],
           "domain": plan["domain"], "month0": dt.date.fromisoformat(plan["start"]).month - 1}
    mails: list[Mail] = []
    noise = NOISE[plan.get("noise", "none")]
    streams = _streams(rng, ctx, plan["n_messages"] + 4 if "messages" in plan else 0)
    twins = _look_alikes(rng, streams, noise) if noise else []
    streams += twins
    # the look-alikes and the people they look like are never cut when the mailbox is trimmed to size
    named = {s["name"] for s, _, _ in twins}
    for stream, factory, count in streams:
        for i in range(count):
            mail = factory(rng, ctx, stream, i)
            mails.append({"sender_name": stream["name"], "sender_email": stream["email"], "kind": stream["kind"],
                          **mail})
    order_in_stream = {id(m): i for i, m in enumerate(mails)}
    rng.shuffle(mails)
    n_docs = 2 + noise
    kept = [m for m in mails if m["sender_name"] in named]
    mails = [m for m in mails if m["sender_name"] not in named]
    mails = mails[: max(12, plan["n_messages"]) - n_docs - len(kept)] + kept
    if kept:
        rng.shuffle(mails)
    dates = _dates(rng, len(mails) + 1, plan)
    # the latest document issue takes a date late in the window; the earlier ones go out a week or a month before
    # it, after the gap that follows the oldest messages, and each names the week or month its date is in
    fmt = plan["attachment_format"]
    doc = rng.choice(DOCS[fmt])
    last = dt.datetime.fromisoformat(dates.pop(rng.randrange(len(dates) // 2, len(dates))))
    earliest = dt.datetime.combine(dt.date.fromisoformat(plan["start"]) + dt.timedelta(days=11), dt.time(),
                                   last.tzinfo)
    docs = _doc_stream(rng, ctx, doc, fmt, doc_dates(last, earliest, doc.period, n_docs))
    order = list(mails)
    # a sender's messages keep their story order (booking before check-in, invoice numbers rising)
    by_sender: dict[str, list[int]] = {}
    for pos, mail in enumerate(order):
        by_sender.setdefault(mail["sender_email"], []).append(pos)
    for positions in by_sender.values():
        ranked = sorted((order[p] for p in positions), key=lambda m: order_in_stream.get(id(m), 0))
        for p, mail in zip(positions, ranked, strict=True):
            order[p] = mail
    dated = [{**m, "date": d} for m, d in zip(order, dates, strict=True)] + docs
    return {"messages": sorted(dated, key=lambda m: dt.datetime.fromisoformat(m["date"]))}


def check_mailbox(mailbox: Any, values: Any = None) -> str:
    """'' when a model's mailbox is usable by every Thunderbird family, else what is wrong (with the message and
    value): dates that parse as ISO date-times (all with a time zone or all without, years 1990-2100), no two
    messages with the same subject and date, attachment names whose extension is their format, and at least one
    sender with two or more messages (filters and moves need a sender that splits the mailbox). Never raises."""
    try:
        messages = mailbox["messages"]
        aware = set()
        seen: set[tuple[str, str]] = set()
        for i, m in enumerate(messages, start=1):
            try:
                when = dt.datetime.fromisoformat(m["date"])
            except (TypeError, ValueError):
                return f"message {i}: date {m['date']!r} is not an ISO date-time such as 2024-03-05T09:30:00+00:00"
            if not 1990 <= when.year <= 2100:
                return f"message {i}: date {m['date']!r} is not between 1990 and 2100"
            aware.add(when.tzinfo is not None)
            key = (str(m["subject"]).strip().casefold(), when.isoformat())
            if key in seen:
                return f"message {i}: another message has the same subject {m['subject']!r} and date {m['date']!r}"
            seen.add(key)
            for a in m["attachments"]:
                if a["filename"].rsplit(".", 1)[-1].lower() != a["format"]:
                    return f"message {i}: attachment {a['filename']!r} is not a {a['format']} file name"
        if len(aware) > 1:
            return "dates must all carry a time zone offset, or none of them"
        senders = [str(m["sender_email"]).lower() for m in messages]
        if max((senders.count(s) for s in senders), default=0) < 2:
            return "every message has a different sender; some senders must send two or more messages"
    except (TypeError, KeyError, AttributeError) as exc:
        return f"the mailbox cannot be read ({type(exc).__name__}: {exc})"
    return ""
