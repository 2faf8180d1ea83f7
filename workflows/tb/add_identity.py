"""tb.add_identity: give the mail account a second identity (Account Settings > Manage Identities > Add), an address
the person can also send as: a shared role address of their company or a personal one, with the name shown to
recipients and, per knob, a Reply-To address or an organization.

The account's own identity stays its default (first in the account's identity list); the new one is listed after it
(`mail.account.account2.identities`), or Thunderbird never offers it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers import thunderbird as tb
from workflows.tb import kit as tc

NAME = "tb.add_identity"
ACCOUNT = "account2"  # the mail account of every Thunderbird profile (preparers.thunderbird.account_prefs)
PHRASINGS = (
    "In Thunderbird, add a new identity to my account {account}: the name '{name}' and the address {email}{extra}. "
    "Keep {account} as the default identity.",
    "Open Account Settings > Manage Identities for {account} in Thunderbird and add an identity with the name "
    "'{name}' and the address {email}{extra}.",
    "I also send mail as {email}. Set that up as an additional identity of my Thunderbird account {account}, "
    "named '{name}'{extra}.",
    "Please create a second identity in Thunderbird for the account {account}: '{name}' <{email}>{extra}. My main "
    "address stays the default.",
    "Add the sender identity '{name}' <{email}> to my Thunderbird account {account}{extra}, without changing the "
    "account's own identity.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "{why} Could you add {email} as an extra identity in Thunderbird, named '{name}'{extra}?",
    "I'd like to send mail from {email} too. Please add it to Thunderbird as '{name}'{extra}.",
    "{why} Please set up the identity '{name}' <{email}> in my Thunderbird account{extra}.",
    "Can you add a second identity, '{name}' with {email}, to my Thunderbird{extra}? Keep my usual address as "
    "the default.",
    "Please add {email} as a sender identity in Thunderbird, shown as '{name}'{extra}.",
)
ROLES = {"support": "Support", "billing": "Billing", "events": "Events", "press": "Press Office",
         "hiring": "Recruiting", "office": "Office"}
PERSONAL = ("fastmail.com", "posteo.net", "proton.me", "gmx.net", "mailbox.org")
WHY = {"role": "I've started answering the shared {role} mailbox.", "personal": "I sometimes write from my own "
       "address."}


class Params(TypedDict):
    extra: Literal["none", "reply_to", "organization"]


@dataclass(frozen=True)
class Target:
    profile: str
    account_email: str  # the account's own (default) identity
    email: str
    name: str
    reply_to: str | None
    organization: str | None
    typo: str  # the address mistyped: a near-miss
    copied: dict[str, Any]  # the prefs the new identity shares with the account's own (folders, SMTP server)


def goal(rng: random.Random, params: Params, mailbox: Mapping[str, Any], plan: Mapping[str, Any]
         ) -> Goal[tb.ProfileSpec, Target]:
    msgs = tc.messages(mailbox, plan)
    spec = tc.profile_spec(plan, tc.layout(rng, msgs), contacts=tc.contacts_from(rng, msgs))
    owner, domain = plan["owner"], plan["domain"]
    company = domain.split(".")[0].replace("-", " ").title()
    full = f"{owner['first']} {owner['last']}"
    kind = rng.choice(("role", "personal"))
    if params["extra"] == "organization":
        kind = "role"  # an organization belongs on a company address
    if kind == "role":
        role = rng.choice(sorted(ROLES))
        email = f"{role}@{domain}"
        name = rng.choice((f"{company} {ROLES[role]}", f"{full} ({ROLES[role]})"))
    else:
        role = ""
        local = owner["email"].partition("@")[0]
        email = f"{local}{rng.choice(('', '.home', str(rng.randint(1, 99))))}@{rng.choice(PERSONAL)}"
        name = full
    user, _, host = email.partition("@")
    typo = f"{user[:-2]}{user[-1]}@{host}"  # a letter dropped near the end of the name
    reply_to = organization = None
    extra = ""
    if params["extra"] == "reply_to":
        reply_to = rng.choice([f"{r}@{domain}" for r in ("team", "info", "hello", "contact")])
        extra = f", with {reply_to} as its Reply-To address"
    elif params["extra"] == "organization":
        organization = rng.choice((f"{company} Ltd", f"{company} GmbH", f"{company} Inc.", f"{company} Co-op"))
        extra = f", with the organization '{organization}'"
    prefs = tb.account_prefs(spec.identity)
    copied = {f: prefs[f"mail.identity.id1.{f}"] for f in ("smtpServer", "fcc_folder", "draft_folder",
                                                             "archive_folder", "stationery_folder")}
    facts = {"account": owner["email"], "name": name, "email": email, "extra": extra,
             "why": WHY[kind].format(role=ROLES.get(role, "").lower())}
    return Goal(spec, facts, Target(tc.profile_path(plan), owner["email"], email, name, reply_to, organization, typo,
                                    copied))


def rubric(target: Target) -> list[Check]:
    t = target
    args: dict[str, Any] = {"path": t.profile, "account_email": t.account_email, "email": t.email,
                            "full_name": t.name}
    extra = ""
    if t.reply_to:
        args["reply_to"] = t.reply_to
        extra = f", Reply-To {t.reply_to}"
    if t.organization:
        args["organization"] = t.organization
        extra = f", organization '{t.organization}'"
    return [Check("identity", f"The account {t.account_email} also offers the identity '{t.name}' <{t.email}>{extra}, "
                  f"and {t.account_email} is still its default identity.", "tb.identity_added", args)]


def solve(target: Target) -> Attempts:
    t = target

    def pref(name: str, value: Any) -> dict[str, Any]:
        return {"op": "tb.set_pref", "path": t.profile, "name": name, "value": value}

    def identity(ident: str, email: str, *, details: bool = True) -> list[dict[str, Any]]:
        p = f"mail.identity.{ident}."
        ops = [pref(p + "fullName", t.name), pref(p + "useremail", email), pref(p + "valid", True)]
        ops += [pref(p + field, value) for field, value in t.copied.items()]
        if details and t.reply_to:
            ops.append(pref(p + "reply_to", t.reply_to))
        if details and t.organization:
            ops.append(pref(p + "organization", t.organization))
        return ops

    listed = pref(f"mail.account.{ACCOUNT}.identities", "id1,id2")
    misses = [
        Attempt("fills in the new identity but never adds it to the account's identity list",
                identity("id2", t.email)),
        Attempt("adds the identity and makes it the account's default",
                [*identity("id2", t.email), pref(f"mail.account.{ACCOUNT}.identities", "id2,id1")]),
        Attempt("overwrites the account's own identity with the new name and address instead of adding one",
                identity("id1", t.email)),
        Attempt(f"mistypes the address as {t.typo}", [*identity("id2", t.typo), listed]),
    ]
    if t.reply_to or t.organization:
        field = "reply_to" if t.reply_to else "organization"
        misses.append(Attempt(f"sets the {field.replace('_', '-')} on the account's own identity instead",
                              [*identity("id2", t.email, details=False), listed,
                               pref(f"mail.identity.id1.{field}", t.reply_to or t.organization)]))
    return Attempts(Attempt(f"adds the identity {t.email} after the account's own", [*identity("id2", t.email),
                                                                                      listed]), misses)


WORKFLOW = family(
    NAME, tc.TB,
    description="Add a second identity (name and address, optionally a Reply-To address or organization) to the "
                "Thunderbird mail account, keeping the account's own identity as its default.",
    knobs={"extra": ("none", "reply_to", "organization")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
