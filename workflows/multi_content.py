"""Offline content the multi-app families need beyond what the single-app generators give: a contact list (the
`people` part of the content LLM node, shaped as `PEOPLE_SCHEMA`), person names and addresses in the mailbox's
style, and a short Writer report that sits next to a workbook. All randomness comes from the caller's rng.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Mapping, Sequence
from typing import Any

from workflows import writer_common as wc
from workflows.tb_content import FIRST, LAST


def person(rng: random.Random, avoid: Sequence[str] = ()) -> tuple[str, str]:
    """(first, last) from the mailbox name pools, avoiding names in `avoid`."""
    while True:
        first, last = rng.choice(FIRST), rng.choice(LAST)
        if first not in avoid and last not in avoid and "'" not in last:
            return first, last


def local_part(first: str, last: str) -> str:
    table = str.maketrans("áàâäãåçéèêëíìîïñóòôöõúùûüý", "aaaaaaceeeeiiiinooooouuuuy")
    return f"{first}.{last}".lower().translate(table).replace("'", "")


PEOPLE_LISTS = (
    ("Partner Summit Guest List", "partner_summit_guests", "Status", ("Confirmed", "Pending", "Declined")),
    ("Supplier Contacts", "supplier_contacts", "Tier", ("Preferred", "Approved", "Trial")),
    ("Workshop Attendees", "workshop_attendees", "Session", ("Morning", "Afternoon", "Both")),
    ("Advisory Board", "advisory_board", "Role", ("Chair", "Member", "Observer")),
    ("Volunteer Roster", "volunteer_roster", "Shift", ("Early", "Late", "Weekend")),
    ("Customer Reference Program", "customer_references", "Stage", ("Active", "Invited", "Paused")),
)
ORGS = (("Brightwater Consulting", "brightwater.co"), ("Fenwick and Hale", "fenwickhale.com"),
        ("Oakridge Partners", "oakridgepartners.net"), ("Novaline Systems", "novaline.io"),
        ("Quarry Lane Studio", "quarrylane.studio"), ("Tessera Labs", "tesseralabs.com"),
        ("Halcyon Freight", "halcyonfreight.com"), ("Morrow and Kent", "morrowkent.law"))
PEOPLE_SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "required": ["title", "file_stem", "field", "people"],
    "properties": {
        "title": {"type": "string", "minLength": 3}, "file_stem": {"type": "string", "pattern": "^[a-z0-9_]{3,40}$"},
        "field": {"type": "string", "minLength": 2},
        "people": {"type": "array", "minItems": 6, "maxItems": 14, "items": {
            "type": "object", "additionalProperties": False,
            "required": ["first", "last", "email", "company", "group", "date"],
            "properties": {"first": {"type": "string"}, "last": {"type": "string"},
                           "email": {"type": "string", "pattern": r"^[a-z0-9._-]+@[a-z0-9.-]+\.[a-z]{2,}$"},
                           "company": {"type": "string"}, "group": {"type": "string"},
                           "date": {"type": "string", "format": "date"}}}}},
}


def generate_people(rng: random.Random, plan: Mapping[str, Any]) -> dict[str, Any]:
    """A contact list: people from a few companies, a grouping column (status, tier...) and a date each."""
    title, stem, field, groups = rng.choice(PEOPLE_LISTS)
    orgs = rng.sample(ORGS, 3)
    start = dt.date(plan["year"], rng.randint(1, 9), 1)
    days = sorted(rng.sample(range(0, 120), plan["n"]))
    taken: set[str] = set()
    people = []
    for i, day in enumerate(days):
        while True:
            first, last = person(rng)
            if first not in taken and last not in taken:
                taken.update((first, last))
                break
        company, domain = orgs[i % 3] if i < 6 else rng.choice(orgs)
        local = rng.choice((local_part(first, last), f"{first[0]}{last}".lower().replace("'", "")))
        people.append({"first": first, "last": last, "email": f"{local}@{domain}", "company": company,
                       "group": groups[i % len(groups)] if i < 6 else rng.choice(groups),
                       "date": (start + dt.timedelta(days=day)).isoformat()})
    rng.shuffle(people)
    return {"title": title, "file_stem": stem, "field": field, "people": people}


REPORT_TITLES = ("{title}: Summary", "{title} Review", "Notes on the {title}", "{title} Update")
SUMMARY = (
    "This report summarises the {title} kept in the workbook {file}.",
    "The figures were taken from {file}, the team's working copy of the {title}.",
    "It was prepared for the monthly review and covers every entry of the {title}.",
    "Entries were checked against the source records before the figures were collected.",
    "Questions about individual entries should go to the person who owns the workbook.",
)
NEXT_STEPS = (
    "Corrections should reach {author} before the review meeting.",
    "The next update will follow once the remaining entries are confirmed.",
    "Open points will be tracked in the shared workbook until they are closed.",
    "Any changes made after this report will be listed in the next issue.",
)
REPORT_FOLDERS = ("Documents", "Documents/reports", "Desktop", "work", "Documents/office")


def report(rng: random.Random, path: str, title: str, file: str, author: str, anchors: Sequence[str]) -> wc.Layout:
    """A short report (Title, byline, Summary, the `anchors` paragraphs, Next Steps) about the workbook `file`."""
    ctx = {"title": title, "file": file, "author": author}
    summary = " ".join(s.format(**ctx) for s in rng.sample(SUMMARY, 2))
    steps = " ".join(s.format(**ctx) for s in rng.sample(NEXT_STEPS, 2))
    blocks: list[wc.Para | wc.Grid] = [
        wc.Para(rng.choice(REPORT_TITLES).format(title=title), "title", "Title"),
        wc.Para(f"Prepared by {author}", "front"),
        wc.Para("Summary", "heading", "Heading 1"),
        wc.Para(summary, "body"),
        *(wc.Para(text, "body") for text in anchors),
        wc.Para("Next Steps", "heading", "Heading 1"),
        wc.Para(steps, "body"),
    ]
    return wc.Layout(path=path, blocks=tuple(blocks), paper=rng.choice(wc.PAPERS), author=author)
