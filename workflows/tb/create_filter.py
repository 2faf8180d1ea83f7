"""tb.create_filter: a message filter "subject/sender contains X -> move / copy / mark read / flag", optionally
run on the Inbox right away so the messages already there are handled too."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from email.utils import parseaddr
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers import thunderbird as tb
from workflows.tb import kit as tc

NAME = "tb.create_filter"
PHRASINGS = (
    "In Thunderbird, create a message filter named '{name}' for Local Folders that, when {cond}, {act}.{run}",
    "Set up a Thunderbird filter called '{name}': if {cond}, it {act}. Make sure the filter is enabled.{run}",
    "Please add a new message filter in Thunderbird (Tools > Message Filters) named '{name}'. Condition: {cond}. "
    "Action: it {act}.{run}",
    "I get a lot of mail where {cond}. Create a Thunderbird filter named '{name}' that {act}.{run}",
    "Using Thunderbird's Message Filters, make an enabled filter '{name}' with a single rule ({cond}) that "
    "{act}.{run}",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Create a Thunderbird filter '{name}': when {cond}, it {act}.{run}",
    "I'd like a mail filter '{name}' that {act} when {cond}.{run}",
    "Please set up the filter '{name}' in Thunderbird: if {cond}, it {act}.{run}",
    "Add a Thunderbird filter '{name}' that {act} whenever {cond}.{run}",
    "Too much mail arrives where {cond}. A filter '{name}' that {act} would help.{run}",
)
ACTIONS = {"move": "Move to folder", "copy": "Copy to folder", "mark_read": "Mark read", "flag": "Mark flagged"}
SWAP = {"move": "copy", "copy": "move", "mark_read": "flag", "flag": "mark_read"}
RUN = " Then run the filter on the Inbox now, so the messages already there are handled as well."


class Params(TypedDict):
    field: Literal["subject", "from"]
    action: Literal["move", "copy", "mark_read", "flag"]
    apply: Literal["save_only", "run_now"]


@dataclass(frozen=True)
class Target:
    profile: str  # the profile folder
    name: str  # the filter's name
    crit: tc.Criterion  # its condition, and the Inbox messages it matches
    action: str  # a key of ACTIONS
    dest: str | None  # the folder a move or copy goes to ("Parent/Leaf" for a subfolder)
    wrong: str  # another folder, which a careless filter targets
    run: bool  # the filter must also be run on the Inbox now


def _describe(action: str, dest: str | None) -> str:
    if action in ("move", "copy"):
        parent, _, leaf = (dest or "").rpartition("/")
        where = f"the '{leaf}' subfolder of '{parent}'" if parent else f"the '{dest}' folder"
        return f"{'moves' if action == 'move' else 'copies'} the messages to {where}"
    return "marks the messages as read" if action == "mark_read" else "flags (stars) the messages"


def _name(rng: random.Random, crit: tc.Criterion, sender_name: str) -> str:
    if crit.field == "from":
        return rng.choice((f"From {sender_name}", f"{sender_name} mail", f"Sort {sender_name}"))
    word = crit.value[:1].upper() + crit.value[1:]
    return rng.choice((f"{word} messages", f"Sort {crit.value}", f"{word} filter"))


def goal(rng: random.Random, params: Params, mailbox: Mapping[str, Any], plan: Mapping[str, Any]
         ) -> Goal[tb.ProfileSpec, Target]:
    msgs = tc.messages(mailbox, plan)
    crit = tc.pick_criterion(rng, msgs, params["field"])
    folders = tc.layout(rng, msgs, keep=crit.ids)
    folders = tc.with_flags(folders, crit.ids, read=False, flagged=False)
    action = params["action"]
    customs = [f for f in folders if f not in ("Inbox", "Archives")]
    dest = None
    if action in ("move", "copy"):
        theme = tc.theme_folder(rng, crit, tc.kinds(mailbox, plan), list(folders))
        dest = rng.choice((theme, f"Inbox/{theme}"))
        folders[dest] = []
    wrong = rng.choice([f for f in customs + ["Archives"] if f != dest])
    sender_name = parseaddr(next(m.sender for m in msgs if m.message_id == crit.ids[0]))[0]
    name = _name(rng, crit, sender_name)
    other = [m for m in msgs if tc.address(m) not in crit.value and m.message_id not in crit.ids]
    existing = [tb.Filter("Newsletters", (("from", "contains", tc.address(other[0])),),
                          (("Move to folder", "Archives"),))] if other and rng.random() < 0.6 else []
    spec = tc.profile_spec(plan, folders, contacts=tc.contacts_from(rng, msgs), filters=existing)
    cond = (f"the subject contains '{crit.value}'" if crit.field == "subject"
            else f"the sender (From) contains {crit.value}")
    run = params["apply"] == "run_now"
    facts = {"name": name, "cond": cond, "act": _describe(action, dest), "run": RUN if run else ""}
    return Goal(spec, facts, Target(tc.profile_path(plan), name, crit, action, dest, wrong, run))


def _folder_args(path: str | None, key: str = "target", parent_key: str = "target_parent") -> dict[str, str]:
    """A folder path as check args: {"target": leaf, "target_parent": parent} (no parent at the top level)."""
    if not path:
        return {}
    parent, _, leaf = path.rpartition("/")
    return {key: leaf, parent_key: parent} if parent else {key: leaf}


def rubric(target: Target) -> list[Check]:
    t, crit = target, target.crit
    profile, action, dest = t.profile, t.action, t.dest
    checks = [Check("filter", f"An enabled filter '{t.name}' with the single condition {crit.field} contains "
                              f"'{crit.value}' has the action {ACTIONS[action]}" + (f" to '{dest}'." if dest else "."),
                    "tb.filter_exists", {"path": profile, "name": t.name, "field": crit.field,
                                         "value": crit.value, "action": ACTIONS[action], **_folder_args(dest)})]
    if t.run:
        ids = list(crit.ids)
        if action in ("move", "copy"):
            checks.append(Check("applied", f"The {len(ids)} matching Inbox messages are in '{dest}'.",
                                "tb.messages_in_folder",
                                {"path": profile, **_folder_args(dest, "folder", "parent"), "message_ids": ids}))
            inbox: dict[str, Any] = {"count": 0, **crit.op_args()} if action == "move" else {"message_ids": ids}
            checks.append(Check("inbox", "The matching messages left the Inbox." if action == "move" else
                                "The matching messages are still in the Inbox (copied, not moved).",
                                "tb.messages_in_folder", {"path": profile, "folder": "Inbox", **inbox}))
        else:
            state = {"read": True} if action == "mark_read" else {"flagged": True}
            checks.append(Check("applied", f"The {len(ids)} matching Inbox messages are {next(iter(state))}.",
                                "tb.message_flags", {"path": profile, "folder": "Inbox", "message_ids": ids, **state}))
    return checks


def _ops(t: Target, *, field: str | None = None, value: str | None = None, action: str | None = None,
         dest: str | None = None, run: bool | None = None, op: str = "contains") -> list[dict[str, Any]]:
    """The oracle's ops, with one thing changed for a near-miss."""
    crit = t.crit
    action = action or t.action
    dest = dest or t.dest
    folder = dest if action in ("move", "copy") else ""
    ops: list[dict[str, Any]] = [{"op": "tb.add_filter", "path": t.profile, "name": t.name,
                                  "conditions": [[field or crit.field, op, value or crit.value]],
                                  "actions": [[ACTIONS[action], folder]]}]
    if t.run if run is None else run:
        base = {"path": t.profile, **crit.op_args()}
        runs: dict[str, dict[str, Any]] = {
            "move": {"op": "tb.move_messages", "source": "Inbox", "target": folder, **base},
            "copy": {"op": "tb.move_messages", "source": "Inbox", "target": folder, "copy": True, **base},
            "mark_read": {"op": "tb.mark_read", "folder": "Inbox", **base},
            "flag": {"op": "tb.mark_flagged", "folder": "Inbox", **base}}
        ops.append(runs[action])
    return ops


def solve(target: Target) -> Attempts:
    t, crit = target, target.crit
    other_field = "from" if crit.field == "subject" else "subject"
    misses = [
        Attempt(f"puts the word in a {other_field} condition instead", _ops(t, field=other_field)),
        Attempt(f"chooses the action {ACTIONS[SWAP[t.action]]!r}", _ops(t, action=SWAP[t.action])),
        Attempt(f"types a shortened value {crit.value[:-1]!r}", _ops(t, value=crit.value[:-1])),
    ]
    if t.dest:
        misses.append(Attempt(f"targets the folder '{t.wrong}'", _ops(t, dest=t.wrong)))
    if t.run:
        misses.append(Attempt("saves the filter but never runs it", _ops(t, run=False)))
    else:
        misses.append(Attempt("uses 'is' instead of 'contains'", _ops(t, op="is")))
    return Attempts(Attempt("the filter as asked" + (", run on the Inbox" if t.run else ""), _ops(t)), misses)


WORKFLOW = family(
    NAME, tc.TB,
    description="Create a Thunderbird message filter on a subject word or sender with a move/copy/read/flag action.",
    knobs={"field": ("subject", "from"), "action": ("move", "copy", "mark_read", "flag"),
           "apply": ("save_only", "run_now")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
