"""tb.filter_action: a message filter for new mail whose action is not a folder move: tag the messages with a
label, mark them read, star them, forward them to an address, or delete them; the condition is a subject word or a
sender. Checked in msgFilterRules.dat (`tb.filter_acts`): enabled, run on new mail, the right action and value."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from dataclasses import dataclass
from email.utils import parseaddr
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers import thunderbird as tb
from verifiers.checks.tb_filter_action import DEFAULT_TAGS
from workflows.tb import kit as tc
from workflows.tb.content import FIRST, LAST

NAME = "tb.filter_action"
PHRASINGS = (
    "In Thunderbird, create a message filter named '{name}' that runs on new mail: when {cond}, it {act}.",
    "Set up an enabled Thunderbird filter called '{name}' for incoming mail. Condition: {cond}. Action: it {act}.",
    "Please add a message filter in Thunderbird (Tools > Message Filters) named '{name}' that checks new mail "
    "as it arrives; if {cond}, it {act}.",
    "Using Thunderbird's Message Filters, make a filter '{name}' with a single rule ({cond}) that {act}. It "
    "should run automatically when new mail comes in.",
    "New mail where {cond} needs handling. Create a Thunderbird filter named '{name}', enabled for incoming "
    "messages, that {act}.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "I'd like a Thunderbird filter '{name}' for new mail: when {cond}, it {act}.",
    "Please set up the filter '{name}' on incoming mail in Thunderbird: if {cond}, it {act}.",
    "Whenever new mail arrives where {cond}, a Thunderbird filter '{name}' should do this: it {act}.",
    "Add a mail filter '{name}' that {act} whenever new mail arrives where {cond}.",
    "Too much incoming mail where {cond}. A Thunderbird filter '{name}' that {act} would help.",
)
ACTIONS = {"tag": "AddTag", "mark_read": "Mark read", "flag": "Mark flagged", "forward": "Forward",
           "delete": "Delete"}
#: the action a careless filter picks instead
SWAP = {"tag": "flag", "mark_read": "flag", "flag": "mark_read", "forward": "flag", "delete": "mark_read"}
TAG_KEYS = {label: key for key, label in DEFAULT_TAGS.items()}


class Params(TypedDict):
    field: Literal["subject", "from"]
    action: Literal["tag", "mark_read", "flag", "forward", "delete"]


@dataclass(frozen=True)
class Target:
    profile: str  # the profile folder
    name: str  # the filter's name
    crit: tc.Criterion  # its condition
    action: str  # a key of ACTIONS
    tag: str | None  # the tag label (AddTag)
    other_tag: str  # another default tag, which a careless filter uses
    forward_to: str | None  # the address (Forward)
    other_address: str  # a near look-alike colleague, which a careless filter forwards to


def _describe(action: str, tag: str | None, forward_to: str | None) -> str:
    return {"tag": f"tags the messages with the '{tag}' tag", "mark_read": "marks the messages as read",
            "flag": "flags (stars) the messages", "forward": f"forwards the messages to {forward_to}",
            "delete": "deletes the messages"}[action]


def _name(rng: random.Random, crit: tc.Criterion, sender_name: str, action: str) -> str:
    verb = {"tag": "Tag", "mark_read": "Read", "flag": "Star", "forward": "Forward", "delete": "Drop"}[action]
    if crit.field == "from":
        return rng.choice((f"{verb} {sender_name}", f"{sender_name} mail", f"{sender_name} rule"))
    word = crit.value[:1].upper() + crit.value[1:]
    return rng.choice((f"{verb} {crit.value}", f"{word} mail", f"{word} rule"))


def _colleagues(rng: random.Random, plan: Mapping[str, Any]) -> tuple[str, str]:
    """Two colleagues' addresses at the owner's company, with different first names."""
    firsts = rng.sample([f for f in FIRST if f.isascii() and f != plan["owner"]["first"]], 2)
    last = rng.choice([x for x in LAST if x.isascii()])
    domain = plan["domain"]
    return tuple(f"{f.lower()}.{last.lower()}@{domain}" for f in firsts)  # type: ignore[return-value]


def goal(rng: random.Random, params: Params, mailbox: Mapping[str, Any], plan: Mapping[str, Any]
         ) -> Goal[tb.ProfileSpec, Target]:
    msgs = tc.messages(mailbox, plan)
    crit = tc.pick_criterion(rng, msgs, params["field"])
    folders = tc.layout(rng, msgs, keep=crit.ids)
    action = params["action"]
    tag, other_tag = rng.sample(sorted(TAG_KEYS), 2)
    forward_to, other_address = _colleagues(rng, plan)
    sender_name = parseaddr(next(m.sender for m in msgs if m.message_id == crit.ids[0]))[0]
    name = _name(rng, crit, re.sub(r"[^\w .'-]", "", sender_name).strip() or "Sender", action)
    other = [m for m in msgs if tc.address(m) not in crit.value and m.message_id not in crit.ids]
    existing = [tb.Filter("Newsletters", (("from", "contains", tc.address(other[0])),),
                          (("Move to folder", "Archives"),))] if other and rng.random() < 0.6 else []
    spec = tc.profile_spec(plan, folders, contacts=tc.contacts_from(rng, msgs), filters=existing)
    cond = (f"the subject contains '{crit.value}'" if crit.field == "subject"
            else f"the sender (From) contains {crit.value}")
    keep_tag = tag if action == "tag" else None
    keep_to = forward_to if action == "forward" else None
    facts = {"name": name, "cond": cond, "act": _describe(action, keep_tag, keep_to)}
    return Goal(spec, facts, Target(tc.profile_path(plan), name, crit, action, keep_tag, other_tag, keep_to,
                                    other_address))


def rubric(target: Target) -> list[Check]:
    t, crit = target, target.crit
    extra: dict[str, str] = {"tag": t.tag} if t.tag else {"forward_to": t.forward_to} if t.forward_to else {}
    what = f" '{t.tag}'" if t.tag else f" to {t.forward_to}" if t.forward_to else ""
    return [Check("filter", f"An enabled filter '{t.name}' that runs on new mail, with the single condition "
                            f"{crit.field} contains '{crit.value}', has the action {ACTIONS[t.action]}{what}.",
                  "tb.filter_acts", {"path": t.profile, "name": t.name, "field": crit.field, "value": crit.value,
                                     "action": ACTIONS[t.action], **extra})]


def _ops(t: Target, *, field: str | None = None, value: str | None = None, action: str | None = None,
         tag: str | None = None, forward_to: str | None = None, type: int = 17,  # noqa: A002 - the file's key
         enabled: bool = True) -> list[dict[str, Any]]:
    """The oracle's op, with one thing changed for a near-miss."""
    action = action or t.action
    act = [ACTIONS[action], ""]
    if action == "tag":
        act = ["AddTag", TAG_KEYS[tag or t.tag or t.other_tag]]
    elif action == "forward":
        act = ["Forward", forward_to or t.forward_to or t.other_address]
    return [{"op": "tb.add_filter", "path": t.profile, "name": t.name,
             "conditions": [[field or t.crit.field, "contains", value or t.crit.value]], "actions": [act],
             "type": type, "enabled": enabled}]


def solve(target: Target) -> Attempts:
    t, crit = target, target.crit
    other_field = "from" if crit.field == "subject" else "subject"
    misses = [
        Attempt(f"puts the condition on the {other_field} instead", _ops(t, field=other_field)),
        Attempt("saves the filter to run manually only, so new mail never meets it", _ops(t, type=16)),
        Attempt(f"types a shortened value {crit.value[:-1]!r}", _ops(t, value=crit.value[:-1])),
        Attempt("leaves the new filter disabled", _ops(t, enabled=False)),
    ]
    if t.action == "tag":
        misses.append(Attempt(f"picks the '{t.other_tag}' tag", _ops(t, tag=t.other_tag)))
    elif t.action == "forward":
        misses.append(Attempt(f"forwards to {t.other_address}", _ops(t, forward_to=t.other_address)))
    misses.append(Attempt(f"chooses the action {ACTIONS[SWAP[t.action]]!r}", _ops(t, action=SWAP[t.action])))
    return Attempts(Attempt("the filter as asked, run on new mail", _ops(t)), misses)


WORKFLOW = family(
    NAME, tc.TB,
    description="Create a Thunderbird message filter for new mail that tags, marks read, stars, forwards or "
                "deletes the messages from a sender or with a subject word.",
    knobs={"field": ("subject", "from"), "action": ("tag", "mark_read", "flag", "forward", "delete")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
