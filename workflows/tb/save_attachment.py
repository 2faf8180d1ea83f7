"""tb.save_attachment: save one attachment of a stated message to a stated path (kept or new file name).

The Inbox holds an earlier issue of the same document (same sender, same attachment file name, other
content), and the stated message carries a second attachment, so saving the wrong one shows.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import HOME, Check
from preparers import thunderbird as tb
from workflows.tb import kit as tc

NAME = "tb.save_attachment"
PHRASINGS = (
    "In Thunderbird, open the message '{subject}' from {sender} (received {date}) and save its attachment "
    "{filename} as {dest}.{mkdir}",
    "Please save the attachment {filename} of the email '{subject}' (from {sender}, {date}) to {dest}.{mkdir}",
    "I need the file {filename} that came with the message '{subject}' sent by {sender} on {date}. Save it from "
    "Thunderbird as {dest}.{mkdir}",
    "Using Thunderbird, find the email from {sender} with the subject '{subject}' ({date}) and store its "
    "attachment {filename} at {dest}.{mkdir}",
    "Save {filename}, attached to '{subject}' from {sender} ({date}), to the path {dest} using Thunderbird.{mkdir}",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Please save {filename} from the email '{subject}' as {dest}.{mkdir}",
    "I got '{subject}' from {sender} on {date}. Could you save its attachment to {dest}?{mkdir}",
    "I need the attachment of '{subject}' from {sender} on my computer, at {dest}.{mkdir}",
    "Can you save the {filename} that came with '{subject}' to {dest}?{mkdir}",
    "Save the attachment of the email '{subject}' from {sender} to {dest}.{mkdir}",
)
DIRS = {"documents": "Documents", "desktop": "Desktop", "new_folder": "Documents/{sub}"}
SUBFOLDERS = ("Statements", "Reports", "Paperwork", "Work Files", "Archive {y}", "Finance {y}")
MKDIR = " Create the folder if it does not exist yet."


class Params(TypedDict):
    kind: Literal["pdf", "csv", "txt"]
    dest: Literal["documents", "desktop", "new_folder"]
    rename: Literal["keep", "rename"]


@dataclass(frozen=True)
class Target:
    profile: str  # the profile folder
    dest: str  # the path to save the attachment to
    message: str  # Message-ID of the stated message
    decoy: str  # Message-ID of the earlier message with a same-named attachment
    wanted: str  # the attachment's file name
    extra: str  # the stated message's other attachment
    sha256: str  # of the wanted attachment's bytes
    size: int
    subject: str  # the stated message's subject
    folder: str = "Inbox"  # the folder that holds the stated message and the earlier issue


def goal(rng: random.Random, params: Params, mailbox: Mapping[str, Any], plan: Mapping[str, Any]
         ) -> Goal[tb.ProfileSpec, Target]:
    msgs = tc.messages(mailbox, plan)
    message = next(m for m in reversed(msgs) if len(m.attachments) == 2)
    wanted, extra = message.attachments
    decoy = next(m for m in msgs if m is not message and any(a.filename == wanted.filename for a in m.attachments))
    source = tc.source_folder(rng, params, "Inbox")  # the `location` axis: Inbox, or a folder further down
    folders = tc.layout(rng, msgs, source=source, keep=[message.message_id, decoy.message_id])
    sub = rng.choice(SUBFOLDERS).format(y=message.date.year)
    folder = f"{HOME}/{DIRS[params['dest']].format(sub=sub)}"
    stem, _, ext = wanted.filename.rpartition(".")
    filename = wanted.filename if params["rename"] == "keep" else f"{stem}_{message.date:%Y_%m}.{ext}"
    sender = tc.address(message)
    spec = tc.profile_spec(plan, folders, contacts=tc.contacts_from(rng, msgs))
    facts = {"subject": message.subject, "sender": sender, "date": f"{message.date:%Y-%m-%d}",
             "filename": wanted.filename, "dest": f"{folder}/{filename}",
             "mkdir": MKDIR if params["dest"] == "new_folder" else ""}
    target = Target(tc.profile_path(plan), f"{folder}/{filename}", message.message_id, decoy.message_id,
                    wanted.filename, extra.filename, hashlib.sha256(wanted.data).hexdigest(), len(wanted.data),
                    message.subject, source)
    return Goal(spec, facts, target)


def rubric(target: Target) -> list[Check]:
    t = target
    return [Check("saved", f"{t.dest} holds exactly the attachment {t.wanted} of the message '{t.subject}'.",
                  "tb.file_saved", {"path": t.dest, "sha256": t.sha256, "size": t.size})]


def solve(target: Target) -> Attempts:
    t = target

    def save(message: str, filename: str, dest: str) -> list[dict[str, Any]]:
        return [{"op": "tb.save_attachment", "path": t.profile, "folder": t.folder, "message_id": message,
                 "filename": filename, "dest": dest}]

    return Attempts(
        Attempt(f"save {t.wanted} of the stated message to {t.dest}", save(t.message, t.wanted, t.dest)),
        [Attempt("saves the same-named attachment of the earlier message", save(t.decoy, t.wanted, t.dest)),
         Attempt("saves to the default Downloads folder instead of the stated path",
                 save(t.message, t.wanted, f"{HOME}/Downloads/{t.wanted}")),
         Attempt(f"saves the other attachment ({t.extra}) under the stated path", save(t.message, t.extra, t.dest))],
    )


WORKFLOW = family(
    NAME, tc.TB,
    description="Save a stated attachment of a stated Thunderbird message to a stated file path.",
    knobs={"kind": ("pdf", "csv", "txt"), "dest": ("documents", "desktop", "new_folder"), "rename": ("keep", "rename")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve, axes=tc.LOCATION,
)
