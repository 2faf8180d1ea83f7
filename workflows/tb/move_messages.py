"""tb.move_messages: move the messages of a folder that match a criterion (sender, subject word, older than a
date) into an existing folder, an existing subfolder, or a new top-level folder created for them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from forge.dag import NodeContext, Workflow, node
from forge.model import Check, Solution
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
SOURCES = {"inbox": "Inbox", "archives": "Archives"}


def _split(path: str) -> tuple[str, str | None]:
    parent, _, leaf = path.rpartition("/")
    return leaf, parent or None


@node("goal", "goal", ("params", "mailbox", "plan"), ("spec", "facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("goal")
    params, plan = values["params"], values["plan"]
    msgs = tc.messages(values["mailbox"], plan)
    crit = tc.pick_criterion(rng, msgs, params["criterion"])
    source = SOURCES[params["source"]]
    folders = tc.layout(rng, msgs, source=source, keep=crit.ids)
    tops = [f for f in folders if "/" not in f and f not in ("Inbox", "Archives")]
    sub = next(f for f in folders if "/" in f)
    kind = params["target"]
    theme = tc.theme_folder(rng, crit, tc.kinds(values["mailbox"], plan), list(folders))
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
    target = {"profile": tc.profile_path(plan), "source": source, "dest": dest_path, "new": kind == "new_top",
              "crit": crit, "others": others, "wrong": wrong}
    return {"spec": spec, "facts": facts, "target": target}


@node("rubric", "rubric", ("spec", "target"), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    t = values["target"]
    crit: tc.Criterion = t["crit"]
    leaf, parent = _split(t["dest"])
    dest_args: dict[str, Any] = {"path": t["profile"], "folder": leaf, "message_ids": list(crit.ids)}
    if parent:
        dest_args["parent"] = parent
    return {"rubric": [
        Check("moved", f"All {len(crit.ids)} messages {crit.text} are in the folder '{t['dest']}'.",
              "tb.messages_in_folder", dest_args),
        Check("source-cleared", f"No message {crit.text} remains in {t['source']} (moved, not copied).",
              "tb.messages_in_folder", {"path": t["profile"], "folder": t["source"], "count": 0,
                                        **crit.op_args()}),
        Check("others-kept", f"The other {len(t['others'])} messages of {t['source']} are still there.",
              "tb.messages_in_folder", {"path": t["profile"], "folder": t["source"], "message_ids": t["others"]}),
        tc.kept_check(values["spec"], t["profile"], touched=list(crit.ids)),
    ]}


@node("solve", "solve", ("target",), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    t = values["target"]
    crit: tc.Criterion = t["crit"]
    path, source, dest = t["profile"], t["source"], t["dest"]

    def move(to: str, **extra: Any) -> dict[str, Any]:
        return {"op": "tb.move_messages", "path": path, "source": source, "target": to, **crit.op_args(), **extra}

    create = [{"op": "tb.create_folder", "path": path, "folder": dest}] if t["new"] else []
    extra = {"op": "tb.move_messages", "path": path, "source": source, "target": dest, "field": "message_id",
             "value": t["others"][0]}
    if t["new"]:
        wrong = (f"creates '{dest}' inside {source} instead of at the top level and moves the messages there",
                 [{"op": "tb.create_folder", "path": path, "folder": f"{source}/{dest}"},
                  move(f"{source}/{dest}")])
    else:
        wrong = (f"moves the messages to '{t['wrong']}' instead of '{dest}'", [move(t["wrong"])])
    return {"solutions": [
        Solution("oracle", f"move the messages {crit.text} from {source} to {dest}", [*create, move(dest)]),
        Solution("near-miss-1", "copies the messages instead of moving them", [*create, move(dest, copy=True)]),
        Solution("near-miss-2", "moves only the first matching message", [*create, move(dest, limit=1)]),
        Solution("near-miss-3", wrong[0], wrong[1]),
        Solution("near-miss-4", "also moves one message that does not match", [*create, move(dest), extra]),
    ]}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(tc.APP,),
    description="Move the messages of a folder that match a sender, a subject word or a date into another folder.",
    knobs={"criterion": ("from", "subject", "before"), "target": ("existing_top", "existing_sub", "new_top"),
           "source": ("inbox", "archives")},
    nodes=(*tc.source_nodes(), goal, tc.prepare, tc.instruction(NAME, PHRASINGS), rubric, solve),
)
