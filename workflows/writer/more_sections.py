"""Sections that fit any document, for the bigger levels of the Writer `paragraphs` axis (issue 15: "size").

A theme's templates give 3-4 sections of 1-2 body paragraphs (3-8 body paragraphs in all). A longer document
(12-18, 24-32 body paragraphs) is that document plus the housekeeping sections real office documents of any topic
carry (roles, communication, record keeping, sign-off): their headings appear in no theme and every paragraph
starts with its own words, so headings and paragraph locators stay unique (tasks name paragraphs by their first
words). They are added after the content node (model or offline), so the model is never asked for more than its
schema allows.
"""

from __future__ import annotations

import random
from typing import Any

#: (heading, paragraphs): each paragraph two or three plain sentences, its first four words unique.
GENERIC: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("How This Document Is Organised", (
        "This document starts with the main points and then gives the details. Each section can be read on its "
        "own.",
        "Sections that need action from readers say so in their first paragraph. Dates are given in full.",
        "Later sections cover roles, communication and record keeping. They apply to everyone involved.",
        "A short sign-off section closes the document. It lists who approved the final version.")),
    ("Roles and Responsibilities", (
        "Every task in this document has one named owner. The owner keeps others informed of progress.",
        "Team leads make sure their members know what is expected. They raise problems early.",
        "Support staff help with scheduling, rooms and equipment. Requests go through the usual channels.",
        "Anyone who cannot meet a commitment should say so as soon as possible. Plans can then be adjusted.")),
    ("Communication Plan", (
        "Updates are shared by email every second week. Urgent changes are announced the same day.",
        "A short summary is also posted on the intranet. It links back to this document.",
        "Questions can be sent to the coordinator at any time. Answers to common questions are collected in one "
        "place.",
        "Meetings are kept short and have a written agenda. Notes are circulated within two days.")),
    ("Record Keeping", (
        "Working files are stored in the shared folder for this topic. Personal copies should be avoided.",
        "File names include the date and a short description. Old versions are moved to an archive folder.",
        "Records are kept for at least three years. After that they are reviewed before deletion.",
        "Confidential material is marked clearly and stored with restricted access. Printed copies are "
        "shredded.")),
    ("Accessibility and Inclusion", (
        "All shared material should be easy to read for everyone. Plain language is preferred.",
        "Meeting rooms are chosen with step-free access where possible. Remote attendance is always offered.",
        "Readers who need another format can ask the coordinator. A large-print copy takes one day.",
        "Feedback on accessibility is welcome at any time. It is reviewed at every planning meeting.")),
    ("Feedback and Improvement", (
        "Comments on this document are collected until the end of the month. A short form is provided.",
        "Suggestions are grouped by theme and discussed by the team. Each one receives a reply.",
        "Changes that follow from feedback are listed in the next version. Readers can see what changed.",
        "Small corrections, such as typing errors, are fixed without a formal review.")),
    ("Budget Notes", (
        "Costs mentioned here are estimates unless stated otherwise. Final figures come from finance.",
        "Spending above the agreed limits needs written approval. The request should explain the reason.",
        "Receipts must be kept for every purchase. They are needed for the monthly reconciliation.",
        "Savings found along the way are reported to the budget holder. They may fund later work.")),
    ("Review Schedule", (
        "This document is reviewed once a quarter. The review checks that it still matches practice.",
        "Each review is led by the document owner. Two colleagues from other teams take part.",
        "Major changes are announced before they take effect. Minor ones are noted in the change log.",
        "The next review date appears on the cover page. It is also kept in the team calendar.")),
    ("Glossary", (
        "Owner means the person accountable for a task or a document. There is one owner per item.",
        "Deadline means the last working day on which something is due. Weekends do not count.",
        "Stakeholder means anyone affected by the work or its results. The list is kept by the coordinator.",
        "Sign-off means written approval by the person named in this document.")),
    ("Document Approval", (
        "This version was prepared by the coordinator and checked by the team leads. No open comments remain.",
        "Approval is recorded by email and stored with the document. Verbal approval is not enough.",
        "Earlier versions remain available in the archive folder. They should not be used for new work.",
        "Questions about this version go to the document owner. Replies are usually sent within two days.")),
)


def body_count(document: dict[str, Any]) -> int:
    """How many body paragraphs a document (`workflows.writer.content.DOCUMENT_SCHEMA`) has."""
    return sum(len(s["paragraphs"]) for s in document["sections"])


def lengthen(rng: random.Random, document: dict[str, Any], n_paragraphs: int) -> dict[str, Any]:
    """`document` with generic sections (2-4 paragraphs each, their order kept) appended after its own sections
    until it has `n_paragraphs` body paragraphs; a document as long already is returned as it is. Headings already
    in the document are skipped, so headings stay unique."""
    missing = n_paragraphs - body_count(document)
    if missing <= 0:
        return document
    taken = {str(document["title"]).casefold()} | {s["heading"].casefold() for s in document["sections"]}
    pool = [entry for entry in GENERIC if entry[0].casefold() not in taken]
    sections = list(document["sections"])
    for heading, paragraphs in rng.sample(pool, len(pool)):
        if missing <= 0:
            break
        take = min(missing, rng.randint(2, len(paragraphs)))
        sections.append({"heading": heading, "paragraphs": list(paragraphs[:take])})
        missing -= take
    if missing > 0:
        raise ValueError(f"n_paragraphs={n_paragraphs}, but at most {n_paragraphs - missing} are possible")
    return {**document, "sections": sections}
