"""tb.create_folder: create a mail folder at the top of Local Folders, inside Inbox, or inside another folder."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers import thunderbird as tb
from workflows.tb import kit as tc

NAME = "tb.create_folder"
PHRASINGS = (
    "In Thunderbird, create a new mail folder named '{name}' {where}.",
    "Please add a folder called '{name}' to Thunderbird's Local Folders, {where}. Type the name exactly as given.",
    "I need a new Thunderbird folder for my mail: name it '{name}' and put it {where}.",
    "Using Thunderbird, make a folder '{name}' {where}; the name must match exactly, including capitals.",
    "Set up a new folder in Thunderbird called '{name}'. It should be created {where}.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Please make a new folder called '{name}' in Thunderbird, {where}.",
    "I want to keep some mail apart: create a Thunderbird folder '{name}' {where}.",
    "Could you add a '{name}' folder {where} in Thunderbird?",
    "Create '{name}' in Thunderbird {where}, with the name exactly as I wrote it.",
    "Add a mail folder named '{name}' to Thunderbird {where}.",
)
#: name_kind -> the names a new folder may get ("{y}": the mailbox's year)
NEW_NAMES = {
    "word": ("Invoices", "Suppliers", "Insurance", "Warranty", "Volunteering", "Mentoring", "Research", "Partners",
             "Press", "Legal", "Recipes", "Training"),
    "two_words": ("Tax Documents", "Team Offsite", "Client Feedback", "Travel Plans", "Vendor Quotes", "Book Club",
                  "Product Launch", "Board Meetings", "Side Projects", "Job Applications"),
    "with_year": ("Taxes {y}", "Expenses {y}", "Trips {y}", "Budget {y}", "Events {y}", "Statements {y}"),
}
WHERE = {
    "top": "at the top level of Local Folders (not inside Inbox or any other folder)",
    "inbox_sub": "as a subfolder of the Inbox folder",
    "folder_sub": "as a subfolder of the existing '{parent}' folder",
}


class Params(TypedDict):
    location: Literal["top", "inbox_sub", "folder_sub"]
    name_kind: Literal["word", "two_words", "with_year"]


@dataclass(frozen=True)
class Target:
    profile: str  # the profile folder
    name: str  # the new folder's name
    parent: str | None  # the folder it goes into (None: the top of Local Folders)
    year: int  # the mailbox's year, which `with_year` names carry


def _new_name(rng: random.Random, kind: str, taken: Sequence[str], year: int) -> str:
    """A name of the kind that no existing folder has (whatever its case)."""
    names = [n.format(y=year) for n in NEW_NAMES[kind]]
    free = [n for n in names if n.casefold() not in {t.rpartition("/")[2].casefold() for t in taken}]
    return rng.choice(free)


def _variant(name: str, kind: str, year: int) -> tuple[str, str]:
    """A plausible mistyped name and why it is wrong."""
    if kind == "two_words":
        return name.replace(" ", ""), "drops the space between the words"
    if kind == "with_year":
        return name.replace(str(year), str(year + 1)), "types the wrong year"
    return (name[:-1], "drops the final s") if name.endswith("s") else (name + "s", "adds a plural s")


def goal(rng: random.Random, params: Params, mailbox: Mapping[str, Any], plan: Mapping[str, Any]
         ) -> Goal[tb.ProfileSpec, Target]:
    msgs = tc.messages(mailbox, plan)
    folders = tc.layout(rng, msgs)
    year = int(plan["start"][:4])
    name = _new_name(rng, params["name_kind"], list(folders), year)
    tops = [f for f in folders if "/" not in f and f not in ("Inbox", "Archives")]
    parent = {"top": None, "inbox_sub": "Inbox", "folder_sub": rng.choice(tops)}[params["location"]]
    spec = tc.profile_spec(plan, folders, contacts=tc.contacts_from(rng, msgs))
    facts = {"name": name, "where": WHERE[params["location"]].format(parent=parent), "parent": parent or ""}
    return Goal(spec, facts, Target(tc.profile_path(plan), name, parent, year))


def rubric(params: Params, spec: tb.ProfileSpec, target: Target) -> list[Check]:
    t = target
    where = f"directly inside '{t.parent}'" if t.parent else "at the top level of Local Folders"
    args: dict[str, Any] = {"path": t.profile, "folder": t.name}
    if t.parent:
        args["parent"] = t.parent
    return [Check("folder", f"A Thunderbird folder named '{t.name}' exists {where}.", "tb.folder_exists", args)]


def solve(params: Params, target: Target) -> Attempts:
    t = target
    name, parent = t.name, t.parent

    def create(path: str) -> list[dict[str, Any]]:
        return [{"op": "tb.create_folder", "path": t.profile, "folder": path}]

    here = f"{parent}/" if parent else ""
    wrong_place = ("Inbox/" if not parent else "", "creates it inside Inbox instead of at the top level"
                   if not parent else "creates it at the top level instead of inside the stated folder")
    wrong_name, why = _variant(name, params["name_kind"], t.year)
    lower = name.lower() if name.lower() != name else name.upper()
    return Attempts(
        Attempt(f"create {here}{name}", create(f"{here}{name}")),
        [Attempt(wrong_place[1], create(f"{wrong_place[0]}{name}")),
         Attempt(f"types the name in the wrong case ({lower!r})", create(f"{here}{lower}")),
         Attempt(f"{why} ({wrong_name!r})", create(f"{here}{wrong_name}"))],
    )


WORKFLOW = family(
    NAME, tc.TB,
    description="Create a Thunderbird mail folder with a stated name at a stated place in Local Folders.",
    knobs={"location": ("top", "inbox_sub", "folder_sub"), "name_kind": ("word", "two_words", "with_year")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
