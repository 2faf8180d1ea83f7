"""tb.add_contact: add one or two people (name + email) to Thunderbird's Personal Address Book."""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers import thunderbird as tb
from workflows.tb import kit as tc

NAME = "tb.add_contact"
PHRASINGS = (
    "Add {who} to the Personal Address Book in Thunderbird.",
    "Please save {who} as {new} in Thunderbird's Personal Address Book, with the name and email address exactly "
    "as written.",
    "In Thunderbird, open the Address Book and create {new} in Personal Address Book for {who}.",
    "I just met {who}. Put {them} into my Thunderbird address book (Personal Address Book), spelled exactly "
    "like that.",
    "Using Thunderbird, add {new} to the Personal Address Book: {who}. Keep the spelling of the names, "
    "including any accents or hyphens.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Please add {who} to my Personal Address Book in Thunderbird.",
    "I just met {who}. Could you save {them} as {new} in Thunderbird's Personal Address Book?",
    "Save {who} in my Thunderbird contacts (Personal Address Book), spelled exactly like that.",
    "Can you put {who} into the Personal Address Book in Thunderbird?",
    "I need {who} in my Personal Address Book in Thunderbird, names spelled as written.",
)
NAMES = {
    "plain": (("Laura", "Bennett"), ("Marcus", "Webb"), ("Julia", "Hartmann"), ("Ethan", "Brooks"), ("Nora", "Quinn"),
              ("Adrian", "Cole"), ("Rosa", "Lindgren"), ("Caleb", "Foster"), ("Alice", "Mercer"), ("Tobias", "Grant")),
    "accented": (("Inès", "Moreau"), ("Björn", "Åkesson"), ("José", "Peña"), ("Zoë", "Müller"), ("Łukasz", "Wójcik"),
                 ("Chloé", "Lefèvre"), ("Jürgen", "Schäfer"), ("Mónica", "Ibáñez"), ("Søren", "Dahl"),
                 ("Anaïs", "Rénard")),
    "hyphenated": (("Sarah", "Lloyd-Jones"), ("Marie-Claire", "Dupont"), ("Jean-Luc", "Girard"),
                   ("Emily", "Carter-Hughes"), ("Ana", "García-López"), ("Anne-Sophie", "Weber"),
                   ("Tom", "Baker-Smith"), ("Lena", "Schulz-Berger"), ("Paul-Henri", "Martin")),
}
PARTNERS = ("harborlight.com", "oakridge-consulting.com", "vantastudio.io", "pinecrest.org", "zephyrlogistics.com",
            "brightwater.de", "nordlys.no", "solcanto.es")


class Params(TypedDict):
    count: Literal[1, 2]
    name_kind: Literal["plain", "accented", "hyphenated"]


@dataclass(frozen=True)
class Person:
    """A contact to add, as the instruction writes it."""

    display: str
    first: str
    last: str
    email: str


@dataclass(frozen=True)
class Target:
    profile: str  # the profile folder
    people: tuple[Person, ...]  # the contacts to add, in the instruction's order
    kind: str  # the `name_kind` knob


def _ascii(text: str) -> str:
    text = text.replace("ø", "o").replace("Ø", "O").replace("ł", "l").replace("Ł", "L")
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()


def _email(rng: random.Random, first: str, last: str) -> str:
    local = rng.choice(("{f}.{l}", "{f}{l}", "{i}{l}", "{f}_{l}")).format(
        f=_ascii(first).lower(), l=_ascii(last).lower(), i=_ascii(first)[0].lower())
    return f"{local}@{rng.choice(PARTNERS)}"


def _typo(email: str) -> str:
    local, _, domain = email.partition("@")
    i = max(1, len(local) // 2)
    return f"{local[:i]}{local[i + 1]}{local[i]}{local[i + 2:]}@{domain}" if local[i] != local[i + 1] \
        else f"{local[:i]}{local[i + 1:]}@{domain}"


def _wrong_name(kind: str, first: str, last: str) -> tuple[str, str, str, str]:
    """(display, first, last, why) for a plausibly mistyped name."""
    if kind == "accented":
        return f"{_ascii(first)} {_ascii(last)}", _ascii(first), _ascii(last), "drops the accents"
    if kind == "hyphenated":
        f2, l2 = first.replace("-", " "), last.replace("-", " ")
        return f"{f2} {l2}", f2, l2, "replaces the hyphen with a space"
    return first, first, "", "enters only the first name"


def goal(rng: random.Random, params: Params, mailbox: Mapping[str, Any], plan: Mapping[str, Any]
         ) -> Goal[tb.ProfileSpec, Target]:
    msgs = tc.messages(mailbox, plan)
    folders = tc.layout(rng, msgs)
    existing = tc.contacts_from(rng, msgs, k=rng.randint(2, 4))
    people = tuple(Person(f"{first} {last}", first, last, _email(rng, first, last))
                   for first, last in rng.sample(NAMES[params["name_kind"]], params["count"]))
    spec = tc.profile_spec(plan, folders, contacts=existing)
    who = " and ".join(f"{p.display} ({p.email})" for p in people)
    two = len(people) == 2
    facts = {"who": who, "new": "new contacts" if two else "a new contact", "them": "both" if two else "them"}
    return Goal(spec, facts, Target(tc.profile_path(plan), people, params["name_kind"]))


def rubric(target: Target) -> list[Check]:
    t = target
    return [Check(f"contact-{i}", f"The Personal Address Book has a contact {p.display} <{p.email}>.",
                  "tb.contact_exists", {"path": t.profile, "email": p.email, "display_name": p.display})
            for i, p in enumerate(t.people, start=1)]


def solve(target: Target) -> Attempts:
    t = target

    def add(p: Person, book: str | None = None) -> dict[str, Any]:
        return {"op": "tb.add_contact", "path": t.profile, "display_name": p.display, "email": p.email,
                "first": p.first, "last": p.last, **({"book": book} if book else {})}

    first = t.people[0]
    display, f2, l2, why = _wrong_name(t.kind, first.first, first.last)
    rest = [add(p) for p in t.people[1:]]
    typo = _typo(first.email)
    misses = [
        Attempt(f"mistypes the address as {typo}", [add(replace(first, email=typo)), *rest]),
        Attempt("adds the contact to Collected Addresses instead of the Personal Address Book",
                [add(first, book="history.sqlite"), *rest]),
        Attempt(why, [add(Person(display, f2, l2, first.email)), *rest]),
    ]
    if len(t.people) > 1:
        misses.append(Attempt("adds only the first person", [add(first)]))
    return Attempts(Attempt("add every contact as written", [add(p) for p in t.people]), misses)


WORKFLOW = family(
    NAME, tc.TB,
    description="Add people (display name and email) to Thunderbird's Personal Address Book.",
    knobs={"count": (1, 2), "name_kind": ("plain", "accented", "hyphenated")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
