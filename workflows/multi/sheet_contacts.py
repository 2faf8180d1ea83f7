"""multi.sheet_contacts: add the people of a spreadsheet (xlsx or CSV) to Thunderbird's Personal Address Book —
everyone, or those a stated rule selects (a group value, a company, a date) (Calc -> Thunderbird).

Names and addresses are never stated; the check reads them from the list's content. Excluded people must
stay out of the address book, and the cards must carry the full name as shown in the list.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from forge.dag import NodeContext, Workflow, node
from forge.model import HOME, Asset, Check, Solution
from preparers import xlsx
from workflows.multi import kit as mc
from workflows.tb import kit as tc

NAME = "multi.sheet_contacts"
HEADER = ("First Name", "Last Name", "Email", "Company", "{field}", "Added On")
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


@node("goal", "goal", ("params", "content", "plan"), ("setup", "facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("goal")
    params, content, plan = values["params"], values["content"], values["plan"]
    listing = content["people"]
    people = [dict(p) for p in listing["people"]]
    header = [h.format(field=listing["field"]) for h in HEADER]
    rows = [[p["first"], p["last"], p["email"], p["company"], p["group"], p["date"]] for p in people]
    folder = rng.choice(("Documents", "Desktop", "Documents/contacts", "Downloads"))
    path = f"{HOME}/{folder}/{listing['file_stem']}.{params['source']}"
    if params["source"] == "csv":
        data = mc.csv_bytes(header, rows)
    else:
        data = xlsx.build({"sheets": [{"name": listing["title"][:31], "rows": [header, *[
            [dt.date.fromisoformat(v) if i == 5 else v for i, v in enumerate(r)] for r in rows]]}]})
    who, chosen = _rule(rng, params["subset"], people, listing["field"])
    background = tc.messages(content["mailbox"], plan["mailbox"])
    spec = mc.mail_profile(rng, plan["mailbox"], background, [])
    facts = {"file": path, "title": listing["title"], "who": who}
    target = {"profile": tc.profile_path(plan["mailbox"]), "chosen": chosen,
              "others": [p for p in people if p not in chosen], "all": people}
    setup = mc.Setup((("files", [Asset(path, data, app="calc")]), ("tb", spec)),
                     launch=("libreoffice", "--calc", path))
    return {"setup": setup, "facts": facts, "target": target}


def _pairs(people: list[dict[str, str]]) -> list[list[str]]:
    return [[f"{p['first']} {p['last']}", p["email"]] for p in people]


@node("rubric", "rubric", ("target", "setup"), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    t = values["target"]
    return {"rubric": [Check("contacts", f"The Personal Address Book has a card for each of the {len(t['chosen'])} "
                                         "selected people (email and full name) and none for the others on the list.",
                             "multi.contacts", {"path": t["profile"], "present": _pairs(t["chosen"]),
                                                "absent": [p["email"] for p in t["others"]]}),
                       *mc.mail_kept(values["setup"])]}


@node("solve", "solve", ("params", "target"), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    t, params = values["target"], values["params"]

    def add(people: list[dict[str, str]], *, book: str = "abook.sqlite", named: bool = True) -> list[dict[str, Any]]:
        return [mc.op("tb.add_contact", t["profile"], email=p["email"], book=book,
                      display_name=f"{p['first']} {p['last']}" if named else "",
                      first=p["first"] if named else "", last=p["last"] if named else "") for p in people]

    chosen = t["chosen"]
    solutions = [
        Solution("oracle", "add a named card for each selected person", add(chosen)),
        Solution("near-miss-1", "adds the cards to Collected Addresses instead of the Personal Address Book",
                 add(chosen, book="history.sqlite")),
        Solution("near-miss-2", "adds only the email addresses, without names", add(chosen, named=False)),
    ]
    if params["subset"] == "all":
        solutions.append(Solution("near-miss-3", "stops one row short of the end of the list", add(chosen[:-1])))
    else:
        solutions.append(Solution("near-miss-3", "adds everyone on the list, ignoring the rule", add(t["all"])))
        solutions.append(Solution("near-miss-4", "adds only the first of the selected people", add(chosen[:1])))
    return {"solutions": solutions}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(mc.CALC, mc.TB),
    description="Add the people of a spreadsheet (all, or those a rule selects) to Thunderbird's Personal "
                "Address Book with their names.",
    knobs={"source": ("xlsx", "csv"), "subset": ("all", "group", "company", "date")},
    nodes=(*mc.source_nodes(people={}, mailbox={"kind": "pdf"}), goal, mc.prepare, mc.instruction(NAME, PHRASINGS),
           rubric, solve),
)
