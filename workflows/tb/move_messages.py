"""tb.move_messages: move the messages of a folder that match a criterion (sender, subject word, older than a
date) into an existing folder, an existing subfolder, or a new top-level folder created for them."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers import thunderbird as tb
from workflows.tb import kit as tc

NAME = "tb.move_messages"
PHRASINGS = (
    "In Thunderbird, move all messages in the {source} folder {what} to {dest}.",
    "Please clean up my {source} folder in Thunderbird: every message {what} should be moved into {dest}. "
    "Leave all other messages where they are.",
    "Using Thunderbird, select the messages in {source} {what} and move them (not copy) to {dest}.",
    "Move the mail {what} out of {source} and into {dest} in Thunderbird; the other messages stay in {source}.",
    "I want the {source} messages {what} filed under {dest}. Move all of them in Thunderbird, and only those.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Please move every {source} message {what} into {dest} in Thunderbird.",
    "My {source} is cluttered. Could you file the messages {what} under {dest}, moving them there?",
    "In Thunderbird, the mail {what} in {source} belongs in {dest}. Move it there and leave the rest.",
    "Move all messages {what} out of my {source} and into {dest}, please.",
    "I want the {source} messages {what} in {dest} instead; move all of them, and nothing else.",
)
SOURCES = {"inbox": "Inbox", "archives": "Archives"}


class Params(TypedDict):
    criterion: Literal["from", "subject", "before"]
    target: Literal["existing_top", "existing_sub", "new_top"]
    source: Literal["inbox", "archives"]


@dataclass(frozen=True)
class Target:
    profile: str  # the profile folder
    source: str  # the folder the messages leave
    dest: str  # the folder path they go to ("Parent/Leaf" for a subfolder)
    new: bool  # the destination must be created first
    crit: tc.Criterion  # the messages to move
    others: list[str]  # Message-IDs of the source's other messages
    wrong: str  # another existing folder, where a careless move puts them


def _split(path: str) -> tuple[str, str | None]:
    parent, _, leaf = path.rpartition("/")
    return leaf, parent or None


def goal(rng: random.Random, params: Params, mailbox: Mapping[str, Any], plan: Mapping[str, Any]
         ) -> Goal[tb.ProfileSpec, Target]:
    msgs = tc.messages(mailbox, plan)
    crit = tc.pick_criterion(rng, msgs, params["criterion"])
    source = tc.source_folder(rng, params, SOURCES[params["source"]])
    folders = tc.layout(rng, msgs, source=source, keep=crit.ids)
    tops = [f for f in folders if "/" not in f and f not in ("Inbox", "Archives")]
    sub = next(f for f in folders if "/" in f)
    kind = params["target"]
    theme = tc.theme_folder(rng, crit, tc.kinds(mailbox, plan), list(folders))
    if kind == "new_top":
        dest_path = theme
        dest = f"a new top-level folder named '{dest_path}' (create it in Local Folders first)"
    elif kind == "existing_sub":
        dest_path = f"{rng.choice(['Inbox', *tops])}/{theme}"
        dest = f"the '{_split(dest_path)[0]}' subfolder of '{_split(dest_path)[1]}'"
    else:
        dest_path = theme
        dest = f"the '{dest_path}' folder"
    if kind != "new_top":
        folders[dest_path] = []
    others = [m.message_id for m in folders[source] if m.message_id not in crit.ids]
    wrong = rng.choice([f for f in [*tops, sub, "Archives", "Inbox"] if f not in (dest_path, source)])
    spec = tc.profile_spec(plan, folders, contacts=tc.contacts_from(rng, msgs))
    facts = {"source": source, "what": crit.text, "dest": dest}
    return Goal(spec, facts, Target(tc.profile_path(plan), source, dest_path, kind == "new_top", crit, others, wrong))


def rubric(target: Target) -> list[Check]:
    t, crit = target, target.crit
    leaf, parent = _split(t.dest)
    dest_args: dict[str, Any] = {"path": t.profile, "folder": leaf, "message_ids": list(crit.ids)}
    if parent:
        dest_args["parent"] = parent
    return [
        Check("moved", f"All {len(crit.ids)} messages {crit.text} are in the folder '{t.dest}'.",
              "tb.messages_in_folder", dest_args),
        Check("source-cleared", f"No message {crit.text} remains in {t.source} (moved, not copied).",
              "tb.messages_in_folder", {"path": t.profile, **tc.folder_args(t.source), "count": 0,
                                        **crit.op_args()}),
    ]


def solve(target: Target) -> Attempts:
    t, crit = target, target.crit
    path, source, dest = t.profile, t.source, t.dest

    def move(to: str, **extra: Any) -> dict[str, Any]:
        return {"op": "tb.move_messages", "path": path, "source": source, "target": to, **crit.op_args(), **extra}

    create = [{"op": "tb.create_folder", "path": path, "folder": dest}] if t.new else []
    extra = {"op": "tb.move_messages", "path": path, "source": source, "target": dest, "field": "message_id",
             "value": t.others[0]}
    if t.new:
        wrong = Attempt(f"creates '{dest}' inside {source} instead of at the top level and moves the messages there",
                        [{"op": "tb.create_folder", "path": path, "folder": f"{source}/{dest}"},
                         move(f"{source}/{dest}")])
    else:
        wrong = Attempt(f"moves the messages to '{t.wrong}' instead of '{dest}'", [move(t.wrong)])
    return Attempts(
        Attempt(f"move the messages {crit.text} from {source} to {dest}", [*create, move(dest)]),
        [Attempt("copies the messages instead of moving them", [*create, move(dest, copy=True)]),
         Attempt("moves only the first matching message", [*create, move(dest, limit=1)]),
         wrong,
         Attempt("also moves one message that does not match", [*create, move(dest), extra])],
    )


WORKFLOW = family(
    NAME, tc.TB,
    description="Move the messages of a folder that match a sender, a subject word or a date into another folder.",
    knobs={"criterion": ("from", "subject", "before"), "target": ("existing_top", "existing_sub", "new_top"),
           "source": ("inbox", "archives")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve, axes=tc.LOCATION,
)
