"""multi.sheet_contacts: add the people of a spreadsheet (xlsx or CSV) to Thunderbird's Personal Address Book —
everyone, or those a stated rule selects (a group value, a company, a date) (Calc -> Thunderbird).

Names and addresses are never stated; the check reads them from the list's content. Excluded people must
stay out of the address book, and the cards must carry the full name as shown in the list.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.axes import LOCATION, LOOKALIKES, deepen, look_alike_paths, pick
from kit.family import Attempt, Attempts, Goal, family
from kit.grammar import count
from kit.model import HOME, Asset, Check
from preparers import xlsx
from workflows.multi import kit as mc
from workflows.tb import kit as tc

NAME = "multi.sheet_contacts"
HEADER = ("First Name", "Last Name", "Email", "Company", "{field}", "Added On")
#: Difficulty axes (issue 15): how many people the list holds, how deep the file sits, and older copies of the list
#: beside it (each missing the last people added).
AXES = {"records": ("7-10", "11-14"), "location": LOCATION, "lookalikes": LOOKALIKES}
PHRASINGS = (
    "The file {file} lists the {title}. Add {who} to Thunderbird's Personal Address Book, each with their email "
    "address and their first and last name (display name: first name, a space, last name).",
    "Open {file} (it opens in LibreOffice Calc) and put {who} into the Personal Address Book in Thunderbird. "
    "Use each person's email address and full name, first name first, as the display name.",
    "Please copy {who} from {file}, the {title}, into Thunderbird's Personal Address Book: one card per person "
    "with the email address and the name written as first name then last name.",
    "Using LibreOffice Calc and Thunderbird, create address book cards in the Personal Address Book for {who} "
    "of {file}. Each card needs the person's email address and their full name (first last) as display name.",
    "In Thunderbird, add contacts to the Personal Address Book for {who} listed in the spreadsheet {file} "
    "({title}). Give each card the email from the list and the display name 'First Last'.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Please add {who} from {file} to my Personal Address Book in Thunderbird, with their email and full name.",
    "Could you put {who} from the {title} ({file}) into Thunderbird's Personal Address Book? Use 'First Last' as "
    "the display name.",
    "I want {who} in {file} as contacts in my Personal Address Book in Thunderbird, named first name then "
    "last name.",
    "Add {who} listed in {file} to my Thunderbird Personal Address Book, with email and 'First Last' display name.",
    "The {title} is in {file}. Save {who} from it as Personal Address Book contacts in Thunderbird, named 'First "
    "Last'.",
)


Person = dict[str, str]


class Params(TypedDict):
    source: Literal["xlsx", "csv"]
    subset: Literal["all", "group", "company", "date"]


@dataclass(frozen=True)
class Target:
    profile: str  # the Thunderbird profile folder
    chosen: list[Person]  # the people the rule selects
    others: list[Person]  # the rest of the list: no card for them
    everyone: list[Person]  # the whole list, in its order


def _rule(rng: Any, subset: str, people: list[dict[str, str]], field: str) -> tuple[str, list[dict[str, str]]]:
    """(how the instruction names the chosen people, the chosen people)."""
    if subset == "all":
        return "everyone on the list", people
    if subset == "group":
        counts = {g: sum(p["group"] == g for p in people) for g in {p["group"] for p in people}}
        value = rng.choice(sorted(g for g, n in counts.items() if 2 <= n < len(people)))
        return f"everyone whose {field} is '{value}'", [p for p in people if p["group"] == value]
    if subset == "company":
        counts = {c: sum(p["company"] == c for p in people) for c in {p["company"] for p in people}}
        value = rng.choice(sorted(c for c, n in counts.items() if 2 <= n < len(people)))
        return f"everyone from {value}", [p for p in people if p["company"] == value]
    dates = sorted(p["date"] for p in people)
    cut = dates[rng.randint(len(dates) // 3, len(dates) - 3) + 1]
    day = dt.date.fromisoformat(cut)
    return (f"everyone whose Added On date is {cut} ({day.day} {day:%B %Y}) or later",
            [p for p in people if p["date"] >= cut])


def goal(rng: random.Random, params: Params, content: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[mc.Setup, Target]:
    listing = content["people"]
    people = [dict(p) for p in listing["people"]]
    header = [h.format(field=listing["field"]) for h in HEADER]
    rows = [[p["first"], p["last"], p["email"], p["company"], p["group"], p["date"]] for p in people]
    folder = deepen(rng.choice(("Documents", "Desktop", "Documents/contacts", "Downloads")),
                    pick(params, "location", AXES))
    path = f"{HOME}/{folder}/{listing['file_stem']}.{params['source']}"
    data = _listing(params["source"], listing["title"], header, rows)
    newest = sorted(rows, key=lambda r: r[5])
    copies = [Asset(copy, _listing(params["source"], listing["title"], header,
                                   [r for r in rows if r not in newest[-2 - i:]]), app="calc")
              for i, copy in enumerate(look_alike_paths(path, pick(params, "lookalikes", AXES)))]
    who, chosen = _rule(rng, params["subset"], people, listing["field"])
    background = tc.messages(content["mailbox"], plan["mailbox"])
    spec = mc.mail_profile(rng, plan["mailbox"], background, [])
    facts = {"file": path, "title": listing["title"], "who": who}
    target = Target(tc.profile_path(plan["mailbox"]), chosen, [p for p in people if p not in chosen], people)
    setup = mc.Setup((("files", [Asset(path, data, app="calc"), *copies]), ("tb", spec)),
                     launch=("libreoffice", "--calc", path))
    return Goal(setup, facts, target)


def _listing(source: str, title: str, header: list[str], rows: list[list[str]]) -> bytes:
    """The list as a CSV or an xlsx workbook (dates typed as dates)."""
    if source == "csv":
        return mc.csv_bytes(header, rows)
    return xlsx.build({"sheets": [{"name": title[:31], "rows": [header, *[
        [dt.date.fromisoformat(v) if i == 5 else v for i, v in enumerate(r)] for r in rows]]}]})


def _pairs(people: list[Person]) -> list[list[str]]:
    return [[f"{p['first']} {p['last']}", p["email"]] for p in people]


def rubric(target: Target) -> list[Check]:
    t = target
    chosen = count(len(t.chosen), "selected person", "selected people")
    return [Check("contacts", f"The Personal Address Book has a card for each of the {chosen} (email and full "
                              "name) and none for the others on the list.",
                  "multi.contacts", {"path": t.profile, "present": _pairs(t.chosen),
                                     "absent": [p["email"] for p in t.others]})]


def solve(params: Params, target: Target) -> Attempts:
    t = target

    def add(people: list[Person], *, book: str = "abook.sqlite", named: bool = True) -> list[dict[str, Any]]:
        return [mc.op("tb.add_contact", t.profile, email=p["email"], book=book,
                      display_name=f"{p['first']} {p['last']}" if named else "",
                      first=p["first"] if named else "", last=p["last"] if named else "") for p in people]

    chosen = t.chosen
    misses = [
        Attempt("adds the cards to Collected Addresses instead of the Personal Address Book",
                add(chosen, book="history.sqlite")),
        Attempt("adds only the email addresses, without names", add(chosen, named=False)),
    ]
    if params["subset"] == "all":
        misses.append(Attempt("stops one row short of the end of the list", add(chosen[:-1])))
    else:
        misses.append(Attempt("adds everyone on the list, ignoring the rule", add(t.everyone)))
        misses.append(Attempt("adds only the first of the selected people", add(chosen[:1])))
    return Attempts(Attempt("add a named card for each selected person", add(chosen)), misses)


WORKFLOW = family(
    NAME, mc.app_kit((mc.CALC, mc.TB), people=mc.passing("records"), mailbox={"kind": "pdf"}),
    description="Add the people of a spreadsheet (all, or those a rule selects) to Thunderbird's Personal "
                "Address Book with their names.",
    knobs={"source": ("xlsx", "csv"), "subset": ("all", "group", "company", "date")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve, axes=AXES,
)
