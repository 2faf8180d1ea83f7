"""Offline content the multi-app families need beyond what the single-app generators give: a contact list (the
`people` part of the content LLM node, shaped as `PEOPLE_SCHEMA`), person names and addresses in the mailbox's
style, and a short Writer report that sits next to a workbook. All randomness comes from the caller's rng.
"""

from __future__ import annotations

import calendar
import datetime as dt
import random
from collections.abc import Mapping, Sequence
from typing import Any

from workflows.tb.content import FIRST, LAST
from workflows.writer import kit as wc


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
#: What each part of the multi-app content node is, for the prompt: a task's prompt describes only its own parts
#: (kit.dag.llm_node `fields`), not all nine.
PART_PROMPTS: dict[str, str] = {
    "table": ('"table": a small spreadsheet for the sub-plan\'s scenario with exactly n_rows data rows: one unique '
              'text "key" column, one "category" column (3 to 6 values, each used at least twice), one "date" column '
              '(distinct YYYY-MM-DD dates), then 2 or 3 numeric columns ("int", "money" with 2 decimals, "number" '
              'with 1 decimal) with distinct values; Title Case column names; a human title, a lowercase file stem '
              'and a short sheet name.'),
    "mailbox": ('"mailbox": only the mail people send the owner (machine mail is made from templates): 4 to 8 '
                'messages, oldest first, from two colleagues at the company domain (each writing one to three times, '
                'subjects sharing a distinctive word) and one or two friends; plain-text bodies with a greeting and a '
                'sign-off.'),
    "document": ('"document": an office document of the sub-plan\'s kind and theme: a title, file stem, author, '
                 'organisation, front lines, closing lines (letters only), and 3 to 4 sections with a heading and 1 '
                 'to 2 plain paragraphs each.'),
    "deck": ('"deck": a presentation for the scenario: a title, subtitle, author, file stem, and n_slides content '
             'slides with a title, 4 bullets, 2 to 4 extra bullets on the topic and one sentence of speaker notes.'),
    "bookmarks": ('"bookmarks": a persona\'s Chrome bookmarks of real, well-known sites: bar links, 3 to 4 named '
                  'folders, other bookmarks, and unbookmarked extra sites with the folder they would fit.'),
    "project": ('"project": a small software project in the sub-plan\'s language: name, one-line summary, module '
                'names, author.'),
    "pool": ('"pool": names in a user\'s home folder for the scenario: the owner\'s full name, 3 or 4 project folder '
             'names, 10 or more photo file stems and 4 or more audio stems (the files\' contents are made from '
             'templates).'),
    "people": ('"people": a contact list (a title, a lowercase file stem, the name of a grouping column such as '
               'Status or Tier) of n people from three invented companies, each with first and last name, a work '
               'email address at the company\'s domain, the company, a grouping value (each used at least twice) '
               'and a distinct date in year.'),
    "picture": ('"picture": what a photo shows for the sub-plan\'s kind: subject, a file stem as a camera or person '
                'names it, a palette that suits it, the object of a product shot ("" otherwise) and a layout seed.'),
}


def part_prompts(parts: Sequence[str]) -> str:
    """The prompt's list of what each of `parts` is, one line each."""
    return "\n".join(f"- {PART_PROMPTS[part]}" for part in sorted(parts))


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


def dated_before(table: Mapping[str, Any], day: dt.date) -> dict[str, Any]:
    """`table` (a Calc content part: ISO date strings) moved back by whole years until every date in it is before
    `day`, with the year in its title, file stem and sheet name moved alike, so a table mailed on `day` holds no
    data dated after the mail (issue 16). No random draw; a table already dated before `day` comes back as is."""
    cols = [i for i, c in enumerate(table["columns"]) if c["kind"] == "date"]
    dates = [dt.date.fromisoformat(row[i]) for row in table["rows"] for i in cols]
    if not dates or max(dates) < day:
        return dict(table)

    def back(d: dt.date, years: int) -> dt.date:
        year = d.year - years
        return d.replace(year=year, day=28) if (d.month, d.day) == (2, 29) and not calendar.isleap(year) \
            else d.replace(year=year)

    # the fewest years that put every date before `day` and keep them distinct (29 February becomes the 28th in a
    # common year, so a table holding both waits for a leap year: at most four more years)
    years = next(y for y in range(1, max(dates).year - day.year + 6)
                 if max(back(d, y) for d in dates) < day and len({back(d, y) for d in dates}) == len(dates))
    year = str(min(dates).year)
    rows = [[back(dt.date.fromisoformat(v), years).isoformat() if i in cols else v for i, v in enumerate(row)]
            for row in table["rows"]]
    moved = {key: str(table[key]).replace(year, str(int(year) - years)) for key in ("title", "file_stem", "sheet")}
    return {**table, **moved, "rows": rows}


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
