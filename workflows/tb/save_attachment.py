"""tb.save_attachment: save one attachment of a stated message to a stated path (kept or new file name).

The Inbox holds an earlier issue of the same document (same sender, same attachment file name, other
content), and the stated message carries a second attachment, so saving the wrong one shows.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from forge.dag import NodeContext, Workflow, node
from forge.model import HOME, Check, Solution
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
DIRS = {"documents": "Documents", "desktop": "Desktop", "new_folder": "Documents/{sub}"}
SUBFOLDERS = ("Statements", "Reports", "Paperwork", "Work Files", "Archive {y}", "Finance {y}")
MKDIR = " Create the folder if it does not exist yet."


@node("goal", "goal", ("params", "mailbox", "plan"), ("spec", "facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("goal")
    params, plan = values["params"], values["plan"]
    msgs = tc.messages(values["mailbox"], plan)
    message = next(m for m in reversed(msgs) if len(m.attachments) == 2)
    wanted, extra = message.attachments
    decoy = next(m for m in msgs if m is not message and any(a.filename == wanted.filename for a in m.attachments))
    folders = tc.layout(rng, msgs, keep=[message.message_id, decoy.message_id])
    sub = rng.choice(SUBFOLDERS).format(y=message.date.year)
    folder = f"{HOME}/{DIRS[params['dest']].format(sub=sub)}"
    stem, _, ext = wanted.filename.rpartition(".")
    filename = wanted.filename if params["rename"] == "keep" else f"{stem}_{message.date:%Y_%m}.{ext}"
    sender = tc.address(message)
    spec = tc.profile_spec(plan, folders, contacts=tc.contacts_from(rng, msgs))
    facts = {"subject": message.subject, "sender": sender, "date": f"{message.date:%Y-%m-%d}",
             "filename": wanted.filename, "dest": f"{folder}/{filename}",
             "mkdir": MKDIR if params["dest"] == "new_folder" else ""}
    target = {"profile": tc.profile_path(plan), "dest": f"{folder}/{filename}", "message": message.message_id,
              "decoy": decoy.message_id, "wanted": wanted.filename, "extra": extra.filename,
              "sha256": hashlib.sha256(wanted.data).hexdigest(), "size": len(wanted.data), "subject": message.subject}
    return {"spec": spec, "facts": facts, "target": target}


@node("rubric", "rubric", ("spec", "target"), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    t = values["target"]
    return {"rubric": [Check("saved", f"{t['dest']} holds exactly the attachment {t['wanted']} of the message "
                                      f"'{t['subject']}'.", "tb.file_saved",
                             {"path": t["dest"], "sha256": t["sha256"], "size": t["size"]}),
                       tc.kept_check(values["spec"], t["profile"])]}


@node("solve", "solve", ("target",), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    t = values["target"]

    def save(message: str, filename: str, dest: str) -> list[dict[str, Any]]:
        return [{"op": "tb.save_attachment", "path": t["profile"], "folder": "Inbox", "message_id": message,
                 "filename": filename, "dest": dest}]

    return {"solutions": [
        Solution("oracle", f"save {t['wanted']} of the stated message to {t['dest']}",
                 save(t["message"], t["wanted"], t["dest"])),
        Solution("near-miss-1", "saves the same-named attachment of the earlier message",
                 save(t["decoy"], t["wanted"], t["dest"])),
        Solution("near-miss-2", "saves to the default Downloads folder instead of the stated path",
                 save(t["message"], t["wanted"], f"{HOME}/Downloads/{t['wanted']}")),
        Solution("near-miss-3", f"saves the other attachment ({t['extra']}) under the stated path",
                 save(t["message"], t["extra"], t["dest"])),
    ]}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(tc.APP,),
    description="Save a stated attachment of a stated Thunderbird message to a stated file path.",
    knobs={"kind": ("pdf", "csv", "txt"), "dest": ("documents", "desktop", "new_folder"), "rename": ("keep", "rename")},
    nodes=(*tc.source_nodes(), goal, tc.prepare, tc.instruction(NAME, PHRASINGS), rubric, solve),
)
