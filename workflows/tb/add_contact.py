"""tb.add_contact: add one or two people (name + email) to Thunderbird's Personal Address Book."""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Mapping
from typing import Any

from forge.dag import NodeContext, Workflow, node
from forge.model import Check, Solution
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


@node("goal", "goal", ("params", "mailbox", "plan"), ("spec", "facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("goal")
    params, plan = values["params"], values["plan"]
    msgs = tc.messages(values["mailbox"], plan)
    folders = tc.layout(rng, msgs)
    existing = tc.contacts_from(rng, msgs, k=rng.randint(2, 4))
    people = []
    for first, last in rng.sample(NAMES[params["name_kind"]], params["count"]):
        people.append({"display": f"{first} {last}", "first": first, "last": last, "email": _email(rng, first, last)})
    spec = tc.profile_spec(plan, folders, contacts=existing)
    who = " and ".join(f"{p['display']} ({p['email']})" for p in people)
    two = len(people) == 2
    facts = {"who": who, "new": "new contacts" if two else "a new contact", "them": "both" if two else "them"}
    target = {"profile": tc.profile_path(plan), "people": people, "kind": params["name_kind"]}
    return {"spec": spec, "facts": facts, "target": target}


@node("rubric", "rubric", ("spec", "target"), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    t = values["target"]
    return {"rubric": [
        Check(f"contact-{i}", f"The Personal Address Book has a contact {p['display']} <{p['email']}>.",
              "tb.contact_exists", {"path": t["profile"], "email": p["email"], "display_name": p["display"]})
        for i, p in enumerate(t["people"], start=1)] + [tc.kept_check(values["spec"], t["profile"])]}


@node("solve", "solve", ("target",), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    t = values["target"]
    people = t["people"]

    def add(p: Mapping[str, str], **change: str) -> dict[str, Any]:
        return {"op": "tb.add_contact", "path": t["profile"], "display_name": change.get("display", p["display"]),
                "email": change.get("email", p["email"]), "first": change.get("first", p["first"]),
                "last": change.get("last", p["last"]), **({"book": change["book"]} if "book" in change else {})}

    first = people[0]
    display, f2, l2, why = _wrong_name(t["kind"], first["first"], first["last"])
    rest = [add(p) for p in people[1:]]
    solutions = [
        Solution("oracle", "add every contact as written", [add(p) for p in people]),
        Solution("near-miss-1", f"mistypes the address as {_typo(first['email'])}",
                 [add(first, email=_typo(first["email"])), *rest]),
        Solution("near-miss-2", "adds the contact to Collected Addresses instead of the Personal Address Book",
                 [add(first, book="history.sqlite"), *rest]),
        Solution("near-miss-3", why, [add(first, display=display, first=f2, last=l2), *rest]),
    ]
    if len(people) > 1:
        solutions.append(Solution("near-miss-4", "adds only the first person", [add(first)]))
    return {"solutions": solutions}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(tc.APP,),
    description="Add people (display name and email) to Thunderbird's Personal Address Book.",
    knobs={"count": (1, 2), "name_kind": ("plain", "accented", "hyphenated")},
    nodes=(*tc.source_nodes(), goal, tc.prepare, tc.instruction(NAME, PHRASINGS), rubric, solve),
)
