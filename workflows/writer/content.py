"""Offline generator for the Writer "content" LLM node: a realistic office document as plain JSON.

`generate_document(rng, theme=..., kind=...)` returns the shape `DOCUMENT_SCHEMA` describes (an online
model is asked for the same through workflows/prompts/writer_content.txt):
    kind      memo | letter | report | minutes | policy
    title     the document's first line
    front     short lines under the title (To/From/Date, Attendees, Policy number ...)
    sections  3-4 x {"heading", "paragraphs": 1-2 paragraphs of 2-3 sentences}
    items     5-6 x {"text", "details": 2 short sub-points} (list material, no end punctuation)
    table     {"header": 3 names, "rows": 4-6 rows of text, first column unique}
    closing   0-3 short lines (sign-off)
Sentences are plain: no hyphens, slashes, apostrophes, percent or currency signs, so word and character
counts are the same for every reasonable counter (LibreOffice's included). All randomness comes from
the caller's `random.Random`.
"""

from __future__ import annotations

import random
from typing import Any

from kit.dag import fields_sketch
from workflows.answer_checks import first_problem, guarded, unique
from workflows.writer.themes import THEMES, Theme

KINDS = ("memo", "letter", "report", "minutes", "policy")
THEME_NAMES = tuple(sorted(THEMES))
FIRST = ("Maria", "James", "Aisha", "Chen", "Olivia", "Mateo", "Priya", "Liam", "Sofia", "Noah", "Fatima",
         "Ethan", "Yuki", "Lucas", "Amara", "Daniel", "Elena", "Omar", "Grace", "Ravi", "Hannah", "Diego",
         "Leila", "Samuel", "Chloe", "Kwame", "Isabel", "Victor", "Nadia", "Tomas")
LAST = ("Lopez", "Smith", "Khan", "Wang", "Brown", "Garcia", "Patel", "Johnson", "Rossi", "Kim", "Walker",
        "Tanaka", "Silva", "Okafor", "Murphy", "Novak", "Haddad", "Nguyen", "Fischer", "Costa", "Mensah",
        "Larsen", "Dubois", "Reyes", "Shah", "Becker", "Moreau", "Ortiz", "Hughes", "Santos")
ORGS = ("Northwind Traders", "Bluewater Analytics", "Harbor Logistics", "Cedar Ridge Clinic", "Summit Credit Union",
        "Greenfield Foods", "Lakeside Library Trust", "Orion Engineering", "Maple Street Schools",
        "Crescent Hotels", "Pinecrest Housing", "Atlas Freight", "Brightline Media", "Riverbend Council",
        "Silverleaf Insurance", "Keystone Manufacturing")
DEPTS = ("Finance", "Operations", "Human Resources", "Facilities", "Marketing", "Customer Service", "IT Services",
         "Procurement", "Legal", "Communications")
ROLES = ("Operations Manager", "Finance Director", "Project Lead", "Office Manager", "Head of People",
         "Program Coordinator", "Chief Executive", "Facilities Supervisor")
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
PLACES = ("the main conference room", "the second floor meeting room", "the staff lounge", "the training centre",
          "the boardroom", "the east wing")

#: What a model is asked to write (`fields_sketch`): the document's prose and framing; the list items and the
#: table come from the theme's templates.
DOCUMENT_ASK = ("title", "file_stem", "author", "org", "front", "sections", "closing")
DOCUMENT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["kind", "title", "file_stem", "author", "org", "front", "sections", "items", "table", "closing"],
    "properties": {
        "kind": {"enum": list(KINDS)},
        "title": {"type": "string", "minLength": 3, "maxLength": 90},
        "file_stem": {"type": "string", "pattern": "^[a-z0-9_]{3,40}$"},
        "author": {"type": "string", "minLength": 3},
        "org": {"type": "string", "minLength": 3},
        "front": {"type": "array", "maxItems": 4, "items": {"type": "string", "minLength": 3}},
        "sections": {"type": "array", "minItems": 3, "maxItems": 5, "items": {
            "type": "object", "additionalProperties": False, "required": ["heading", "paragraphs"],
            "properties": {"heading": {"type": "string", "minLength": 3, "maxLength": 60},
                           "paragraphs": {"type": "array", "minItems": 1, "maxItems": 3,
                                          "items": {"type": "string", "minLength": 40}}}}},
        "items": {"type": "array", "minItems": 5, "maxItems": 7, "items": {
            "type": "object", "additionalProperties": False, "required": ["text", "details"],
            "properties": {"text": {"type": "string", "minLength": 8},
                           "details": {"type": "array", "minItems": 2, "maxItems": 2,
                                       "items": {"type": "string", "minLength": 5}}}}},
        "table": {"type": "object", "additionalProperties": False, "required": ["header", "rows"], "properties": {
            "header": {"type": "array", "minItems": 3, "maxItems": 3, "items": {"type": "string", "minLength": 2}},
            "rows": {"type": "array", "minItems": 4, "maxItems": 6, "items": {
                "type": "array", "minItems": 3, "maxItems": 3, "items": {"type": "string", "minLength": 1}}}}},
        "closing": {"type": "array", "maxItems": 3, "items": {"type": "string", "minLength": 2}},
    },
}
DOCUMENT_SKETCH = fields_sketch(DOCUMENT_SCHEMA, DOCUMENT_ASK)


def _person(rng: random.Random, taken: set[str]) -> str:
    while True:
        name = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
        if name not in taken:
            taken.add(name)
            return name


def _context(rng: random.Random) -> dict[str, str]:
    """Slot values shared by one document, so names and dates stay consistent across its sentences."""
    taken: set[str] = set()
    year = rng.choice((2023, 2024, 2025))
    month = rng.randrange(12)
    return {
        "org": rng.choice(ORGS), "person": _person(rng, taken), "person2": _person(rng, taken),
        "person3": _person(rng, taken), "dept": rng.choice(DEPTS), "role": rng.choice(ROLES),
        "year": str(year), "next_year": str(year + 1), "month": MONTHS[month],
        "next_month": MONTHS[(month + 1) % 12], "day": str(rng.randint(2, 27)),
        "date": f"{rng.randint(2, 27)} {MONTHS[month]} {year}", "weekday": rng.choice(WEEKDAYS),
        "place": rng.choice(PLACES), "count": str(rng.randint(12, 240)), "small": str(rng.randint(3, 9)),
        "pct": str(rng.randint(4, 38)), "amount": f"{rng.randint(12, 480) * 250:,}",
        "code": f"{rng.choice(('POL', 'HR', 'OPS', 'FIN'))} {rng.randint(100, 480)}",
    }


def _front(kind: str, subject: str, theme: Theme, ctx: dict[str, str], rng: random.Random
           ) -> tuple[str, list[str], list[str]]:
    """(title, front lines, closing lines) for the document kind."""
    if kind == "memo":
        front = [f"To: {rng.choice(theme.audiences).format(**ctx)}", f"From: {ctx['person']}, {ctx['role']}",
                 f"Date: {ctx['date']}", f"Subject: {subject}"]
        return rng.choice(("Memorandum", f"Memo: {subject}", f"Internal Memo: {subject}")), front, []
    if kind == "letter":
        front = [ctx["date"], f"Dear {ctx['person2']},"]
        closing = [rng.choice(("Kind regards,", "Yours sincerely,", "With best regards,")), ctx["person"],
                   f"{ctx['role']}, {ctx['org']}"]
        return rng.choice((f"Re: {subject}", subject)), front, closing
    if kind == "report":
        front = [f"Prepared by {ctx['person']}, {ctx['dept']}", f"{ctx['month']} {ctx['year']}"]
        return rng.choice((f"{subject} Report", f"{subject}: Status Report", f"Report on {subject}")), front, []
    if kind == "minutes":
        front = [f"Date: {ctx['date']}", f"Attendees: {ctx['person']}, {ctx['person2']}, {ctx['person3']}",
                 f"Chair: {ctx['person']}"]
        return rng.choice((f"Minutes: {subject}", f"Meeting Minutes: {subject}")), front, []
    front = [f"Policy number: {ctx['code']}", f"Effective date: {ctx['date']}", f"Owner: {ctx['dept']}"]
    return rng.choice((f"{subject} Policy", f"Policy on {subject}")), front, []


def _stem(kind: str, subject: str, rng: random.Random) -> str:
    words = [w for w in "".join(c if c.isalnum() else " " for c in subject.lower()).split()
             if w not in ("the", "of", "and", "to", "for", "on")]
    return "_".join([kind, *words[:3]] if rng.random() < 0.5 else words[:4]) or kind


def _sections(theme: Theme, ctx: dict[str, str], rng: random.Random) -> list[dict[str, Any]]:
    """3-4 sections; each paragraph takes 2-3 of the section's sentences, kept in their written order."""
    sections = []
    for heading, sentences in rng.sample(theme.sections, rng.randint(3, 4)):
        sizes = [rng.choice((2, 3))] + ([2] if rng.random() < 0.5 else [])
        chosen = sorted(rng.sample(range(len(sentences)), sum(sizes)))
        paragraphs, at = [], 0
        for size in sizes:
            paragraphs.append(" ".join(sentences[i].format(**ctx) for i in chosen[at:at + size]))
            at += size
        sections.append({"heading": rng.choice(heading).format(**ctx), "paragraphs": paragraphs})
    return sections


def _table(theme: Theme, rng: random.Random) -> dict[str, Any]:
    header, firsts, seconds, thirds = theme.table
    n = rng.randint(4, 6)
    column = rng.sample(seconds, n) if len(seconds) >= n else [rng.choice(seconds) for _ in range(n)]
    rows = [[first, second, rng.choice(thirds)] for first, second in zip(rng.sample(firsts, n), column, strict=True)]
    return {"header": list(header), "rows": rows}


def generate_document(rng: random.Random, *, theme: str, kind: str) -> dict[str, Any]:
    """One realistic document for `theme` (a name in THEMES) framed as `kind` (one of KINDS)."""
    spec = THEMES[theme]
    ctx = _context(rng)
    subject = rng.choice(spec.subjects).format(**ctx)
    title, front, closing = _front(kind, subject, spec, ctx, rng)
    items = [{"text": text.format(**ctx), "details": [d.format(**ctx) for d in details]}
             for text, details in rng.sample(spec.items, rng.randint(5, min(6, len(spec.items))))]
    return {
        "kind": kind, "title": title, "file_stem": _stem(kind, subject, rng), "author": ctx["person"],
        "org": ctx["org"], "front": front, "sections": _sections(spec, ctx, rng), "items": items,
        "table": _table(spec, rng), "closing": closing,
    }


@guarded("document")
def check_document(doc: Any, values: Any = None) -> str:
    """'' when a model's document suits every Writer family: headings, list items, table column names and the
    table's first column unique (tasks name them to point at a section, an item or a row)."""
    rows = doc["table"]["rows"]
    return first_problem(
        unique([s["heading"] for s in doc["sections"]], "section headings"),
        unique([i["text"] for i in doc["items"]], "list item texts"),
        unique(doc["table"]["header"], "table column names"),
        unique([r[0] for r in rows], "the table's first column"),
        unique([doc["title"], *(s["heading"] for s in doc["sections"])], "the title and the headings"))
