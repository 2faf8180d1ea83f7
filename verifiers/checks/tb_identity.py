"""Thunderbird identities: the addresses an account can send as (Account Settings > Manage Identities).

An identity is the prefs `mail.identity.<id>.*` (`useremail`, `fullName`, `reply_to`, `organization`, `valid`);
an account uses the identities its `mail.account.<account>.identities` lists, the first being its default. An
identity whose prefs exist but that no account lists is one Thunderbird never offers."""

from __future__ import annotations

from typing import Any

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.meaning import Meaning
from verifiers.readers.thunderbird import effective_prefs


def _listed(prefs: dict[str, Any], email: str) -> tuple[str, list[str]] | None:
    """The account whose identities include one with address `email`, and its identity ids in order."""
    for name, value in prefs.items():
        if name.startswith("mail.account.") and name.endswith(".identities") and isinstance(value, str):
            ids = [i.strip() for i in value.split(",") if i.strip()]
            if any(_text(prefs, i, "useremail").casefold() == email.casefold() for i in ids):
                return name.removeprefix("mail.account.").removesuffix(".identities"), ids
    return None


def _text(prefs: dict[str, Any], ident: str, field: str) -> str:
    value = prefs.get(f"mail.identity.{ident}.{field}")
    return value.strip() if isinstance(value, str) else ""


@primitive("tb.identity_added", grounded=("email", "full_name", "reply_to", "organization"),
           meaning=Meaning(action=r"identit|send (?:mail |messages )?(?:as|from)|address|alias"))
def identity_added(state: State, path: str, account_email: str, email: str, full_name: str,
                   reply_to: str | None = None, organization: str | None = None) -> Result:
    """The account of `account_email` (its default identity, still first) also offers an identity with address
    `email` and name `full_name` (and, when given, that Reply-To address and organization)."""
    prefs = effective_prefs(state, path)
    account = _listed(prefs, account_email)
    if account is None:
        return fail(f"no account offers the identity {account_email} any more")
    name, ids = account
    if _text(prefs, ids[0], "useremail").casefold() != account_email.casefold():
        return fail(f"the default identity of {name} is now {_text(prefs, ids[0], 'useremail') or ids[0]!r}, "
                    f"not {account_email}")
    found = [i for i in ids[1:] if _text(prefs, i, "useremail").casefold() == email.casefold()]
    if not found:
        loose = sorted({n.split(".")[2] for n, v in prefs.items()
                        if n.startswith("mail.identity.") and n.endswith(".useremail") and isinstance(v, str)
                        and v.strip().casefold() == email.casefold()})
        where = f" (identity {', '.join(loose)} has it, but no account lists it)" if loose else ""
        offered = [_text(prefs, i, "useremail") or i for i in ids]
        return fail(f"{name} offers {offered}, no identity {email}{where}")
    ident = found[0]
    problems = []
    if prefs.get(f"mail.identity.{ident}.valid") is False:
        problems.append("it is marked invalid")
    if _text(prefs, ident, "fullName") != full_name.strip():
        problems.append(f"its name is {_text(prefs, ident, 'fullName')!r}, expected {full_name!r}")
    if reply_to is not None and _text(prefs, ident, "reply_to").casefold() != reply_to.casefold():
        problems.append(f"its Reply-To is {_text(prefs, ident, 'reply_to')!r}, expected {reply_to}")
    if organization is not None and _text(prefs, ident, "organization") != organization.strip():
        problems.append(f"its organization is {_text(prefs, ident, 'organization')!r}, expected {organization!r}")
    if problems:
        return fail(f"the identity {email} ({ident}) is there, but " + "; ".join(problems))
    return ok(f"{name} offers the identity {full_name} <{email}> ({ident}) beside its default {account_email}")
