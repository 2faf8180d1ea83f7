"""tb.mark_messages: mark the messages of a folder that match a criterion as read, or flag (star) them, leaving
every other message as it was."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers import thunderbird as tb
from workflows.tb import kit as tc

NAME = "tb.mark_messages"
PHRASINGS = (
    "In Thunderbird, {verb} every message in the {source} folder {what}. {leave}",
    "Please go through my {source} folder in Thunderbird and {verb} all messages {what}. {leave}",
    "Using Thunderbird, {verb} the messages in {source} {what} - all of them, and only those.",
    "The messages {what} in {source} need attention: in Thunderbird, {verb} every one of them. {leave}",
    "Open Thunderbird's {source} folder and {verb} every message {what}; the other messages must stay as they are.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "In Thunderbird, please {verb} every message in my {source} folder {what}. {leave}",
    "Could you {verb} all the {source} messages {what}? {leave}",
    "Please go through my {source} folder and {verb} the messages {what}, and only those.",
    "The {source} messages {what} need attention: {verb} all of them. {leave}",
    "Please {verb} each message {what} in my Thunderbird {source}. {leave}",
)
MARKS = {
    "read": ("mark as read", "Leave the other messages unread if they are unread now.", "read"),
    "flagged": ("flag (star)", "Do not flag any other message.", "flagged"),
}
SOURCES = {"inbox": "Inbox", "archives": "Archives"}


class Params(TypedDict):
    mark: Literal["read", "flagged"]
    criterion: Literal["from", "subject", "before"]
    folder: Literal["inbox", "archives"]


@dataclass(frozen=True)
class Target:
    profile: str  # the profile folder
    source: str  # the folder whose messages are marked
    crit: tc.Criterion  # the messages to mark
    mark: str  # read | flagged
    untouched: list[str]  # Message-IDs of the folder's other messages that are not marked now


def goal(rng: random.Random, params: Params, mailbox: Mapping[str, Any], plan: Mapping[str, Any]
         ) -> Goal[tb.ProfileSpec, Target]:
    msgs = tc.messages(mailbox, plan)
    crit = tc.pick_criterion(rng, msgs, params["criterion"])
    source = tc.source_folder(rng, params, SOURCES[params["folder"]])
    folders = tc.layout(rng, msgs, source=source, keep=crit.ids)
    others = [m.message_id for m in folders[source] if m.message_id not in crit.ids]
    folders = tc.with_flags(folders, crit.ids, read=False, flagged=False)
    if params["mark"] == "read":  # at least two other unread messages, so "mark all read" shows
        folders = tc.with_flags(folders, rng.sample(others, 2), read=False)
        untouched = [m.message_id for m in folders[source] if m.message_id in others and not m.read]
    else:
        untouched = [m.message_id for m in folders[source] if m.message_id in others and not m.flagged]
    spec = tc.profile_spec(plan, folders, contacts=tc.contacts_from(rng, msgs))
    verb, leave, _ = MARKS[params["mark"]]
    facts = {"verb": verb, "leave": leave, "source": source, "what": crit.text}
    return Goal(spec, facts, Target(tc.profile_path(plan), source, crit, params["mark"], untouched))


def rubric(spec: tb.ProfileSpec, target: Target) -> list[Check]:
    t, crit = target, target.crit
    state = MARKS[t.mark][2]
    base = {"path": t.profile, **tc.folder_args(t.source)}
    checks = [
        Check("marked", f"All {len(crit.ids)} messages in {t.source} {crit.text} are {state}.",
              "tb.message_flags", {**base, "message_ids": list(crit.ids), state: True}),
        Check("others", f"The other {len(t.untouched)} messages of {t.source} that were not {state} still "
                        f"are not.", "tb.message_flags", {**base, "message_ids": t.untouched, state: False}),
    ]
    if t.mark == "flagged":
        # flagging needs no message opened (the list shows sender, subject and date): the others stay unread too.
        # The frame lets a message go from unread to read where the task marks none read; this check does not.
        checks.append(tc.kept_check(spec, t.profile, relabeled=list(crit.ids), read=True))
    return checks


def solve(target: Target) -> Attempts:
    t, crit = target, target.crit
    op, other = ("tb.mark_read", "tb.mark_flagged") if t.mark == "read" else ("tb.mark_flagged", "tb.mark_read")
    base = {"path": t.profile, "folder": t.source}
    return Attempts(
        Attempt(f"{MARKS[t.mark][0]} the messages {crit.text}", [{"op": op, **base, **crit.op_args()}]),
        [Attempt("marks every message of the folder", [{"op": op, **base, "field": "any", "value": ""}]),
         Attempt("marks only the first matching message", [{"op": op, **base, **crit.op_args(), "limit": 1}]),
         Attempt("uses the other marking (read instead of flagged, or the reverse)",
                 [{"op": other, **base, **crit.op_args()}])],
    )


WORKFLOW = family(
    NAME, tc.TB,
    description="Mark the messages of a folder that match a sender, subject word or date as read, or flag them.",
    knobs={"mark": ("read", "flagged"), "criterion": ("from", "subject", "before"), "folder": ("inbox", "archives")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve, axes=tc.LOCATION,
)
