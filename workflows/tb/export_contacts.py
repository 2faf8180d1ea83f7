"""tb.export_contacts: export the Personal Address Book to a file, as CSV or vCard (Address Book > Tools > Export),
at a stated path. Checked by parsing the file, bounded (`tb.contacts_exported`), against the address book: every
card with its name and address, no address the book lacks."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import HOME, Check
from preparers import thunderbird as tb
from workflows.tb import kit as tc
from workflows.tb.content import FIRST, LAST

NAME = "tb.export_contacts"
PHRASINGS = (
    "In Thunderbird, export my Personal Address Book as a {kind} file to {dest}.",
    "Please export all contacts of Thunderbird's Personal Address Book to {dest} in {kind} format.",
    "Use Thunderbird's Address Book (Tools > Export) to save every contact as {kind} at {dest}.",
    "I need a copy of my Thunderbird contacts: export the Personal Address Book to {dest} ({kind}).",
    "Export the contacts in Thunderbird's Personal Address Book, all of them with names and addresses, as "
    "{kind} to {dest}.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Could you export my Thunderbird contacts to {dest} as {kind}?",
    "{why} Please export my Thunderbird address book to {dest} in {kind} format.",
    "I'd like my Thunderbird address book saved as {kind} at {dest}, every contact included.",
    "{why} Export all my Thunderbird contacts as {kind} to {dest}, please.",
    "Please save my Thunderbird contacts to {dest}; {kind} format is what I need.",
)
KINDS = {"csv": "CSV (comma separated)", "vcf": "vCard"}
WHY = ("I'm moving my contacts to my phone.", "I want a backup of my contacts.",
       "A colleague asked for my client list.", "I'm setting up a new mail program.")
PLACES = {"csv": (("Documents", "contacts.csv"), ("Documents/Backups", "address-book.csv"),
                  ("Desktop", "thunderbird-contacts.csv")),
          "vcf": (("Documents", "contacts.vcf"), ("Documents/Backups", "address-book.vcf"),
                  ("Desktop", "my-contacts.vcf"))}


class Params(TypedDict):
    format: Literal["csv", "vcf"]


@dataclass(frozen=True)
class Target:
    profile: str
    dest: str
    format: str
    wrong_dest: str


def _extra_contacts(rng: random.Random, have: set[str], n: int, domains: list[str]) -> list[tb.Contact]:
    out: list[tb.Contact] = []
    while len(out) < n:
        first, last = rng.choice(FIRST), rng.choice(LAST)
        local = f"{first}.{last}".lower().translate(str.maketrans("áéíóúñ", "aeioun"))
        email = f"{''.join(ch for ch in local if ch.isalpha() or ch == '.')}@{rng.choice(domains)}"
        if email not in have:
            have.add(email)
            out.append(tb.Contact(f"{first} {last}", email, first, last, modified=1700000000 + rng.randint(0, 10 ** 7)))
    return out


def goal(rng: random.Random, params: Params, mailbox: Mapping[str, Any], plan: Mapping[str, Any]
         ) -> Goal[tb.ProfileSpec, Target]:
    msgs = tc.messages(mailbox, plan)
    contacts = list(tc.contacts_from(rng, msgs, k=4))
    domains = sorted({tc.address(m).rpartition("@")[2] for m in msgs} | {plan["domain"]})
    contacts += _extra_contacts(rng, {c.email for c in contacts}, rng.randint(5, 7) - len(contacts), domains)
    spec = tc.profile_spec(plan, tc.layout(rng, msgs), contacts=contacts)
    fmt = params["format"]
    folder, file = rng.choice(PLACES[fmt])
    dest = f"{HOME}/{folder}/{file}"
    wrong = f"{HOME}/Downloads/{file}"
    facts = {"kind": KINDS[fmt], "dest": dest, "why": rng.choice(WHY)}
    return Goal(spec, facts, Target(tc.profile_path(plan), dest, fmt, wrong))


def rubric(target: Target) -> list[Check]:
    t = target
    return [Check("export", f"{t.dest} is the Personal Address Book exported as {KINDS[t.format]}: every contact "
                            "with its name and address, and no other address.", "tb.contacts_exported",
                  {"path": t.profile, "dest": t.dest, "format": t.format})]


def _export(t: Target, **change: Any) -> list[dict[str, Any]]:
    return [{"op": "tb.export_contacts", "path": t.profile, "dest": t.dest, "format": t.format, **change}]


def solve(target: Target) -> Attempts:
    t = target
    other = "vcf" if t.format == "csv" else "csv"
    return Attempts(Attempt(f"exports the address book as {t.format} to {t.dest}", _export(t)), [
        Attempt("leaves out the last contact", _export(t, skip=1)),
        Attempt("exports the addresses without the names", _export(t, names=False)),
        Attempt(f"exports {other} content under the asked name", _export(t, format=other)),
        Attempt(f"saves the export to {t.wrong_dest} instead", _export(t, dest=t.wrong_dest)),
    ])


WORKFLOW = family(
    NAME, tc.TB,
    description="Export the Thunderbird Personal Address Book to a CSV or vCard file at a stated path.",
    knobs={"format": ("csv", "vcf")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
