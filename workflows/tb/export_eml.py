"""tb.export_eml: save a stated message as an .eml file at a stated path (File > Save As > File), so it can be
archived, attached elsewhere or opened by another mail program.

The stated message is named by its subject, sender and date; its sender wrote other messages too (one of them is
the "wrong message" near-miss). A message with attachments must keep them in the saved file.
"""

from __future__ import annotations

import random
import re
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import HOME, Check
from preparers import thunderbird as tb
from verifiers.checks.tb_export import facts, read_message
from workflows.tb import kit as tc

NAME = "tb.export_eml"
PHRASINGS = (
    "In Thunderbird, save the message '{subject}' from {sender} (received {date}) as the file {dest}.{mkdir}",
    "Please export the email '{subject}' (from {sender}, {date}) from Thunderbird as an .eml file at {dest}.{mkdir}",
    "Using Thunderbird's File > Save As, store the message from {sender} with the subject '{subject}' ({date}) "
    "as {dest}.{mkdir}",
    "I need a copy of the email '{subject}' that {sender} sent on {date} as a mail file: save it to {dest}.{mkdir}",
    "Save the whole message '{subject}' from {sender} ({date}){whole} as {dest} from Thunderbird.{mkdir}",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Can you save the email '{subject}' from {sender} as {dest}?{mkdir}",
    "I want to keep a copy of '{subject}' outside Thunderbird. Please save it as {dest}.{mkdir}",
    "Please export the message '{subject}' from {sender} to {dest}.{mkdir}",
    "I need the mail '{subject}' from {sender} on {date} as an .eml file at {dest}.{mkdir}",
    "Could you save {sender}'s message '{subject}'{whole} to {dest}?{mkdir}",
)
DIRS = {"documents": "Documents", "desktop": "Desktop", "new_folder": "Documents/{sub}"}
SUBFOLDERS = ("Mail Archive", "Saved Emails", "Correspondence", "Records {y}", "Email {y}")
MKDIR = " Create the folder if it does not exist yet."
WHOLE = " with its attachments"


class Params(TypedDict):
    message: Literal["plain", "attachment"]
    dest: Literal["documents", "desktop", "new_folder"]


@dataclass(frozen=True)
class Target:
    profile: str  # the profile folder
    folder: str  # the folder holding the stated message
    message: str  # its Message-ID
    decoy: str  # Message-ID of another message of the same sender: the "wrong message" near-miss
    dest: str  # where the file goes
    subject: str
    expected: dict[str, Any]  # the stated message's facts (verifiers.checks.tb_export.facts)
    attachments: bool


def file_name(subject: str) -> str:
    """Thunderbird's suggested file name: the subject, characters a file name cannot hold left out."""
    return re.sub(r"\s+", " ", re.sub(r"[\\/:*?\"<>|]", "", subject)).strip() + ".eml"


def goal(rng: random.Random, params: Params, mailbox: Mapping[str, Any], plan: Mapping[str, Any]
         ) -> Goal[tb.ProfileSpec, Target]:
    msgs = tc.messages(mailbox, plan)
    want_att = params["message"] == "attachment"
    by_sender: dict[str, list[tb.Message]] = {}
    for m in msgs:
        by_sender.setdefault(tc.address(m), []).append(m)
    fits = [m for m in msgs if bool(m.attachments) == want_att and len(by_sender[tc.address(m)]) > 1
            and sum(o.subject == m.subject for o in msgs) == 1]
    if not fits:  # no sender wrote twice: any message of the kind, beside its neighbour in time
        fits = [m for m in msgs if bool(m.attachments) == want_att and sum(o.subject == m.subject for o in msgs) == 1]
    message = rng.choice(fits)
    others = [m for m in by_sender[tc.address(message)] if m is not message] or \
        [msgs[msgs.index(message) - 1 if msgs.index(message) else 1]]
    decoy = rng.choice(others)
    source = tc.source_folder(rng, params, "Inbox")  # the `location` axis
    folders = tc.layout(rng, msgs, source=source, keep=[message.message_id, decoy.message_id])
    sub = rng.choice(SUBFOLDERS).format(y=message.date.year)
    dest = f"{HOME}/{DIRS[params['dest']].format(sub=sub)}/{file_name(message.subject)}"
    spec = tc.profile_spec(plan, folders, contacts=tc.contacts_from(rng, msgs))
    expected = facts(read_message_bytes(tb.render_message(message)))
    facts_ = {"subject": message.subject, "sender": tc.address(message), "date": f"{message.date:%Y-%m-%d}",
              "dest": dest, "mkdir": MKDIR if params["dest"] == "new_folder" else "",
              "whole": WHOLE if want_att else ""}
    return Goal(spec, facts_, Target(tc.profile_path(plan), source, message.message_id, decoy.message_id, dest,
                                     message.subject, expected, want_att))


def read_message_bytes(entry: bytes) -> Any:
    """An mbox entry read as the check reads a saved file."""
    with tempfile.TemporaryDirectory(prefix="tb-eml-") as tmp:
        host = Path(tmp) / "m.eml"
        host.write_bytes(entry)
        return read_message(host)


def rubric(target: Target) -> list[Check]:
    t = target
    extra = " with its attachments" if t.attachments else ""
    return [Check("saved", f"{t.dest} is the message '{t.subject}'{extra} saved as a mail file.", "tb.message_saved",
                  {"path": t.dest, "subject": t.subject, "expected": t.expected})]


def solve(target: Target) -> Attempts:
    t = target

    def save(message: str, dest: str, mode: str = "eml") -> list[dict[str, Any]]:
        return [{"op": "tb.save_message", "path": t.profile, "folder": t.folder, "message_id": message,
                 "dest": dest, "mode": mode}]

    misses = [Attempt("saves another message of the same sender", save(t.decoy, t.dest)),
              Attempt("saves only the message text, without its headers", save(t.message, t.dest, "body")),
              Attempt("saves to the Downloads folder instead of the stated path",
                      save(t.message, f"{HOME}/Downloads/{t.dest.rsplit('/', 1)[1]}")),
              Attempt("writes a new message with the same sender, subject and text instead of saving the original",
                      save(t.message, t.dest, "retyped"))]
    if t.attachments:
        misses.append(Attempt("saves the message without its attachments", save(t.message, t.dest,
                                                                               "no_attachments")))
    return Attempts(Attempt("saves the stated message as an .eml file at the stated path", save(t.message, t.dest)),
                    misses)


WORKFLOW = family(
    NAME, tc.TB,
    description="Save a stated Thunderbird message (with its attachments) as an .eml file at a stated path.",
    knobs={"message": ("plain", "attachment"), "dest": ("documents", "desktop", "new_folder")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve, axes=tc.LOCATION,
)
