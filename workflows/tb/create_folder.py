"""tb.create_folder: create a mail folder at the top of Local Folders, inside Inbox, or inside another folder."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from forge.dag import NodeContext, Workflow, node
from forge.model import Check, Solution
from workflows.tb import kit as tc

NAME = "tb.create_folder"
PHRASINGS = (
    "In Thunderbird, create a new mail folder named '{name}' {where}.",
    "Please add a folder called '{name}' to Thunderbird's Local Folders, {where}. Type the name exactly as given.",
    "I need a new Thunderbird folder for my mail: name it '{name}' and put it {where}.",
    "Using Thunderbird, make a folder '{name}' {where}; the name must match exactly, including capitals.",
    "Set up a new folder in Thunderbird called '{name}'. It should be created {where}.",
)
WHERE = {
    "top": "at the top level of Local Folders (not inside Inbox or any other folder)",
    "inbox_sub": "as a subfolder of the Inbox folder",
    "folder_sub": "as a subfolder of the existing '{parent}' folder",
}


def _variant(name: str, kind: str, year: int) -> tuple[str, str]:
    """A plausible mistyped name and why it is wrong."""
    if kind == "two_words":
        return name.replace(" ", ""), "drops the space between the words"
    if kind == "with_year":
        return name.replace(str(year), str(year + 1)), "types the wrong year"
    return (name[:-1], "drops the final s") if name.endswith("s") else (name + "s", "adds a plural s")


@node("goal", "goal", ("params", "mailbox", "plan"), ("spec", "facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("goal")
    params, plan = values["params"], values["plan"]
    msgs = tc.messages(values["mailbox"], plan)
    folders = tc.layout(rng, msgs)
    year = int(plan["start"][:4])
    name = tc.new_folder_name(rng, params["name_kind"], list(folders), year)
    tops = [f for f in folders if "/" not in f and f not in ("Inbox", "Archives")]
    parent = {"top": None, "inbox_sub": "Inbox", "folder_sub": rng.choice(tops)}[params["location"]]
    spec = tc.profile_spec(plan, folders, contacts=tc.contacts_from(rng, msgs))
    facts = {"name": name, "where": WHERE[params["location"]].format(parent=parent), "parent": parent or ""}
    target = {"profile": tc.profile_path(plan), "name": name, "parent": parent, "year": year}
    return {"spec": spec, "facts": facts, "target": target}


@node("rubric", "rubric", ("params", "spec", "target"), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    t = values["target"]
    where = f"directly inside '{t['parent']}'" if t["parent"] else "at the top level of Local Folders"
    args: dict[str, Any] = {"path": t["profile"], "folder": t["name"]}
    if t["parent"]:
        args["parent"] = t["parent"]
    return {"rubric": [Check("folder", f"A Thunderbird folder named '{t['name']}' exists {where}.",
                             "tb.folder_exists", args), tc.kept_check(values["spec"], t["profile"])]}


@node("solve", "solve", ("params", "target"), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    t = values["target"]
    name, parent = t["name"], t["parent"]

    def create(path: str) -> list[dict[str, Any]]:
        return [{"op": "tb.create_folder", "path": t["profile"], "folder": path}]

    here = f"{parent}/" if parent else ""
    wrong_place = ("Inbox/" if not parent else "", "creates it inside Inbox instead of at the top level"
                   if not parent else "creates it at the top level instead of inside the stated folder")
    wrong_name, why = _variant(name, values["params"]["name_kind"], t["year"])
    lower = name.lower() if name.lower() != name else name.upper()
    return {"solutions": [
        Solution("oracle", f"create {here}{name}", create(f"{here}{name}")),
        Solution("near-miss-1", wrong_place[1], create(f"{wrong_place[0]}{name}")),
        Solution("near-miss-2", f"types the name in the wrong case ({lower!r})", create(f"{here}{lower}")),
        Solution("near-miss-3", f"{why} ({wrong_name!r})", create(f"{here}{wrong_name}")),
    ]}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(tc.APP,),
    description="Create a Thunderbird mail folder with a stated name at a stated place in Local Folders.",
    knobs={"location": ("top", "inbox_sub", "folder_sub"), "name_kind": ("word", "two_words", "with_year")},
    nodes=(*tc.source_nodes(), goal, tc.prepare, tc.instruction(NAME, PHRASINGS), rubric, solve),
)
