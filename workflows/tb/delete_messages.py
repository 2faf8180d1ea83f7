"""tb.delete_messages: delete the Inbox messages that match a criterion (a sender, a subject word, a date) the way
Thunderbird deletes: each leaves the Inbox (marked expunged there until compaction) and lands in Trash, from where
the user could still restore it. Every other message stays where it was (the frame)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers import thunderbird as tb
from workflows.tb import kit as tc

NAME = "tb.delete_messages"
PHRASINGS = (
    "In Thunderbird, delete every message in the Inbox {what}. Leave the other messages where they are.",
    "Please delete all Inbox messages {what} in Thunderbird, so they go to the Trash, and nothing else.",
    "Using Thunderbird, delete the messages {what} from my Inbox - all of them, and only those.",
    "My Inbox is cluttered. In Thunderbird, delete each message {what}; the rest of the Inbox stays as it is.",
    "Open the Inbox in Thunderbird and delete every message {what} (a normal delete to the Trash).",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Could you delete all the messages {what} from my Thunderbird Inbox?",
    "Please get rid of every Inbox message {what}; delete them to the Trash and leave the rest alone.",
    "I don't need the mail {what} any more. Please delete those messages from my Inbox.",
    "Please delete the messages in my Inbox {what}, and only those.",
    "My Inbox has too much mail {what}. Delete all of it, please.",
)


class Params(TypedDict):
    field: Literal["from", "subject", "before"]


@dataclass(frozen=True)
class Target:
    profile: str
    crit: tc.Criterion
    extra_id: str  # a message that does not match, which a careless delete takes too


def goal(rng: random.Random, params: Params, mailbox: Mapping[str, Any], plan: Mapping[str, Any]
         ) -> Goal[tb.ProfileSpec, Target]:
    msgs = tc.messages(mailbox, plan)
    crit = tc.pick_criterion(rng, msgs, params["field"])
    folders = tc.layout(rng, msgs, keep=crit.ids)
    spec = tc.profile_spec(plan, folders, contacts=tc.contacts_from(rng, msgs))
    others = [m.message_id for m in folders["Inbox"] if m.message_id not in crit.ids]
    return Goal(spec, {"what": crit.text}, Target(tc.profile_path(plan), crit, rng.choice(others)))


def rubric(target: Target) -> list[Check]:
    t, crit = target, target.crit
    return [Check("deleted", f"The {len(crit.ids)} Inbox messages {crit.text} are deleted: gone from the Inbox and "
                             "in the Trash.", "tb.messages_deleted",
                  {"path": t.profile, "folder": "Inbox", "message_ids": list(crit.ids), **crit.op_args()})]


def _move(t: Target, target: str = "Trash", **change: Any) -> dict[str, Any]:
    return {"op": "tb.move_messages", "path": t.profile, "source": "Inbox", "target": target, **t.crit.op_args(),
            **change}


def solve(target: Target) -> Attempts:
    t = target
    n = len(t.crit.ids)
    return Attempts(Attempt(f"deletes the {n} messages to the Trash", [_move(t)]), [
        Attempt("moves them to Archives instead of deleting them", [_move(t, "Archives")]),
        Attempt(f"deletes only {n - 1} of the {n}", [_move(t, limit=n - 1)]),
        Attempt("copies them to the Trash, leaving them in the Inbox", [_move(t, copy=True)]),
        Attempt("also deletes a message that does not match",
                [_move(t), _move(t, field="message_id", value=t.extra_id)]),
    ])


WORKFLOW = family(
    NAME, tc.TB,
    description="Delete the Thunderbird Inbox messages from a sender, with a subject word or dated before a day, "
                "so they go to the Trash.",
    knobs={"field": ("from", "subject", "before")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
