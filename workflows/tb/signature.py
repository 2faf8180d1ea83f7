"""tb.signature: give one of the account's identities a signature, typed as text in Account Settings or taken from
a file in the home folder ("Attach the signature from a file"); the identity is the account's own or a second,
shared-role one.

Checked in prefs.js (`tb.signature_set`): the identity found by its address signs with exactly the asked lines
(and no file attached in their place), or with the asked file, attached. The other identity keeps its signature.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.dag import NodeContext, node
from kit.family import Attempt, Attempts, Goal, family
from kit.model import HOME, Asset, Check
from preparers import thunderbird as tb
from workflows.tb import kit as tc

NAME = "tb.signature"
PHRASINGS = (
    "In Thunderbird, set the signature of my identity {email} {how}.",
    "Open Account Settings in Thunderbird and give the identity {email} a signature {how}.",
    "Please change the Thunderbird signature used when I write from {email}: {how_sentence}",
    "My mail from {email} needs a signature. In Thunderbird's account settings, set it {how}.",
    "Set up the signature for {email} in Thunderbird {how}. Leave my other identity's signature alone.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Could you set my Thunderbird signature for {email} {how}?",
    "When I write from {email}, Thunderbird should add a signature {how}.",
    "Please give {email} a signature in Thunderbird {how}.",
    "I'd like a signature on my mail from {email}, {how}; please set that up in Thunderbird.",
    "My messages from {email} go out unsigned. Please set the signature {how}.",
)
TITLES = ("Project Manager", "Senior Analyst", "Operations Lead", "Account Director", "Product Designer",
          "Data Engineer", "Office Manager")
ORGS = ("Alder & Finch Ltd", "Blue Quarry Analytics", "Northbeam Co-op", "Tidewater Labs", "Kestrel Works",
        "Meridian Health Partners")
ROLES = {"support": "Customer Support", "billing": "Billing Team", "events": "Events Team", "office": "Front Office"}
FOLDERS = ("Documents", "Documents/Signatures", "Documents/Mail")
ID = "mail.identity."


class Params(TypedDict):
    source: Literal["text", "file"]
    identity: Literal["own", "role"]


@dataclass(frozen=True)
class Target:
    profile: str
    email: str  # the identity's address
    ident: str  # its id (id1 the account's own, id2 the role identity)
    other: str  # the other identity's id
    lines: tuple[str, ...]  # the signature's lines
    file: str | None  # the signature file (source=file)
    old_file: str | None  # an older signature file beside it


@dataclass(frozen=True)
class Setup:
    """The profile and the files in the home folder (path under /home/user -> text)."""

    spec: tb.ProfileSpec
    files: tuple[tuple[str, str], ...]


def _phone(rng: random.Random) -> str:
    return rng.choice((f"+44 20 7946 {rng.randint(1000, 9999)}", f"+1 415 555 {rng.randint(1000, 1999)}",
                       f"+49 30 901820{rng.randint(10, 99)}", f"+61 2 9876 {rng.randint(1000, 9999)}"))


def _quoted(lines: tuple[str, ...]) -> str:
    return ", ".join(f'"{line}"' for line in lines[:-1]) + f' and "{lines[-1]}"'


def goal(rng: random.Random, params: Params, mailbox: Mapping[str, Any], plan: Mapping[str, Any]
         ) -> Goal[Setup, Target]:
    owner = plan["owner"]
    full = f"{owner['first']} {owner['last']}"
    org = rng.choice(ORGS)
    role = rng.choice(sorted(ROLES))
    role_email = f"{role}@{plan['domain']}"
    prefs: dict[str, Any] = {"mail.account.account2.identities": "id1,id2", f"{ID}id2.useremail": role_email,
                             f"{ID}id2.fullName": f"{org} {ROLES[role]}", f"{ID}id2.valid": True}
    if params["identity"] == "own":
        ident, other, email = "id1", "id2", owner["email"]
        lines = (full, f"{rng.choice(TITLES)}, {org}", _phone(rng))
    else:
        ident, other, email = "id2", "id1", role_email
        lines = (f"{ROLES[role]} | {org}", _phone(rng), f"Replies within one working day ({full})")
    prefs[f"{ID}{other}.htmlSigText"] = (f"{full}\n{org}" if other == "id1" else f"{ROLES[role]}\n{org}")
    if rng.random() < 0.5:  # an outdated signature the task replaces
        prefs[f"{ID}{ident}.htmlSigText"] = lines[0]
    files: list[tuple[str, str]] = []
    file = old_file = None
    if params["source"] == "file":
        folder = rng.choice(FOLDERS)
        stem = rng.choice(("signature", f"{role}-signature" if ident == "id2" else "my-signature", "mail-signature"))
        file = f"{HOME}/{folder}/{stem}.txt"
        old_file = f"{HOME}/{folder}/{stem}-old.txt"
        files = [(file, "\n".join(lines) + "\n"), (old_file, "\n".join(lines[:2]) + "\n")]
    msgs = tc.messages(mailbox, plan)
    spec = tc.profile_spec(plan, tc.layout(rng, msgs), contacts=tc.contacts_from(rng, msgs), prefs=prefs)
    if file:
        short = "~" + file.removeprefix(HOME)
        how = f"from the file {file} (tick 'Attach the signature from a file' and choose {short})"
        how_sentence = f"attach the signature from the file {file} instead of typing it."
    else:
        how = f"with these {len(lines)} lines: {_quoted(lines)}"
        how_sentence = f"the signature text should be these {len(lines)} lines, {_quoted(lines)}."
    facts = {"email": email, "how": how, "how_sentence": how_sentence}
    return Goal(Setup(spec, tuple(files)), facts,
                Target(tc.profile_path(plan), email, ident, other, lines, file, old_file))


@node("prepare", "prepare", ("spec",), ("assets", "launch"))
def prepare(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    setup: Setup = values["spec"]
    out = tc.prepare.fn(ctx, {"spec": setup.spec})
    files = [Asset(path, text.encode("utf-8")) for path, text in setup.files]
    return {"assets": [*out["assets"], *files], "launch": out["launch"]}


def rubric(target: Target) -> list[Check]:
    t = target
    if t.file:
        return [Check("signature", f"The identity {t.email} signs with the file {t.file} ('Attach the signature "
                                   "from a file' ticked).", "tb.signature_set",
                      {"path": t.profile, "email": t.email, "file": t.file})]
    return [Check("signature", f"The identity {t.email} has the signature text {' / '.join(t.lines)}, and no "
                               "signature file in its place.", "tb.signature_set",
                  {"path": t.profile, "email": t.email, "lines": list(t.lines)})]


def _pref(t: Target, name: str, value: Any) -> dict[str, Any]:
    return {"op": "tb.set_pref", "path": t.profile, "name": name, "value": value}


def _text(t: Target, ident: str, lines: tuple[str, ...]) -> list[dict[str, Any]]:
    return [_pref(t, f"{ID}{ident}.htmlSigText", "\n".join(lines))]


def _file(t: Target, ident: str, file: str, *, attach: bool = True) -> list[dict[str, Any]]:
    return [_pref(t, f"{ID}{ident}.sig_file", file), *([_pref(t, f"{ID}{ident}.attach_signature", True)]
                                                       if attach else [])]


def solve(target: Target) -> Attempts:
    t = target
    whose = "the account's own identity" if t.other == "id1" else "the other identity"
    if t.file:
        return Attempts(Attempt(f"attaches {t.file} as the signature of {t.email}", _file(t, t.ident, t.file)), [
            Attempt(f"sets the file on {whose} instead", _file(t, t.other, t.file)),
            Attempt("chooses the file but leaves 'Attach the signature from a file' unticked",
                    _file(t, t.ident, t.file, attach=False)),
            Attempt(f"picks the older file {t.old_file}", _file(t, t.ident, t.old_file or "")),
            Attempt("pastes the file's text into the signature box instead", _text(t, t.ident, t.lines)),
        ])
    return Attempts(Attempt(f"types the {len(t.lines)} lines as the signature of {t.email}",
                            _text(t, t.ident, t.lines)), [
        Attempt(f"sets the signature on {whose} instead", _text(t, t.other, t.lines)),
        Attempt("leaves out the last line", _text(t, t.ident, t.lines[:-1])),
        Attempt("types every line on one line", [_pref(t, f"{ID}{t.ident}.htmlSigText", " ".join(t.lines))]),
        Attempt("also ticks 'Attach the signature from a file'",
                [*_text(t, t.ident, t.lines), _pref(t, f"{ID}{t.ident}.attach_signature", True)]),
    ])


WORKFLOW = family(
    NAME, tc.TB,
    description="Set the signature of one of the Thunderbird account's identities, typed as text or attached "
                "from a file in the home folder.",
    knobs={"source": ("text", "file"), "identity": ("own", "role")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve, prepare=prepare,
)
