"""chrome.edit_bookmark: rename, delete or re-point one bookmark, or rename or delete one bookmark folder.

`location` says where the target lives: inside a folder on the bookmarks bar (or the folder itself), or in
Other bookmarks. Every other bookmark must stay where it is.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from forge.dag import NodeContext, Workflow, node
from forge.model import Check, Solution
from workflows.chrome import kit as chc

NAME = "chrome.edit_bookmark"
RENAMES = ("My {name}", "{name} (work)", "{name} home", "{first}", "{name} daily", "Old {name}")
FOLDER_RENAMES = ("{name} archive", "Old {name}", "{name} 2024", "My {name}", "{name} and more")
PATHS = ("blog/", "help/", "about/", "account/", "search/", "news/")
PHRASINGS = (
    "In Google Chrome's bookmarks, {what}. Leave all other bookmarks as they are.",
    "Please clean up my Chrome bookmarks: {what}.",
    "Open Chrome's bookmark manager and {what}. Nothing else should change.",
    "One bookmark entry in Chrome needs fixing: {what}.",
    "Edit the bookmarks in Chrome: {what}. Don't move or delete anything else.",
)


def _fresh_name(rng: random.Random, patterns: tuple[str, ...], name: str, taken: set[str]) -> str:
    options = [p.format(name=name, first=name.split()[0]) for p in patterns]
    return rng.choice([o for o in options if o.casefold() not in taken and o != name])


def _bookmark_goal(rng: random.Random, profile: chc.Profile, action: str, root: str) -> dict[str, Any]:
    folder_item = rng.choice(profile.folders(root))
    folder = [chc.ROOT_OF[root], folder_item["name"]]
    item, sibling = rng.sample(folder_item["children"], 2)
    where = chc.located(folder)
    t: dict[str, Any] = {"kind": action, "folder": folder, "name": item["name"], "url": item["url"],
                         "sibling": sibling["name"]}
    taken = {name.casefold() for _, name, _ in profile.links()}
    if action == "rename":
        t["new"] = _fresh_name(rng, RENAMES, item["name"], taken)
        t["what"] = f"rename the bookmark '{item['name']}' ({item['url']}) {where} to '{t['new']}'"
    elif action == "delete":
        t["what"] = f"delete the bookmark '{item['name']}' ({item['url']}) {where}"
    else:
        t["new"] = f"https://{chc.host(item['url'])}/{rng.choice(PATHS)}"
        if t["new"].rstrip("/") == item["url"].rstrip("/"):
            t["new"] += "start/"
        t["what"] = (f"change the address of the bookmark '{item['name']}' {where} from {item['url']} to "
                     f"{t['new']}, keeping its name")
    return t


def _folder_goal(rng: random.Random, profile: chc.Profile, action: str, root: str) -> dict[str, Any]:
    folders = profile.folders(root)
    item = rng.choice(folders)
    others = [f for r in ("bar", "other") for f in profile.folders(r) if f is not item]
    t: dict[str, Any] = {"kind": action, "folder": [chc.ROOT_OF[root], item["name"]],
                         "wrong": [chc.ROOT_OF["bar" if others[0] in profile.folders("bar") else "other"],
                                   others[0]["name"]], "children": [c["name"] for c in item["children"]]}
    where = chc.place(chc.ROOT_OF[root])
    if action == "rename_folder":
        taken = {name.casefold() for folder, _, _ in profile.links() for name in folder}
        t["new"] = _fresh_name(rng, FOLDER_RENAMES, item["name"], taken)
        t["what"] = f"rename the bookmark folder '{item['name']}' {where} to '{t['new']}', keeping its bookmarks in it"
    else:
        t["what"] = (f"delete the bookmark folder '{item['name']}' {where} together with the "
                     f"{len(item['children'])} bookmarks inside it")
    return t


@node("goal", "goal", ("params", "bookmarks"), ("profile", "facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("goal")
    action, root = values["params"]["action"], values["params"]["location"]
    profile = chc.base_profile(values["bookmarks"], rng)
    build = _folder_goal if action.endswith("_folder") else _bookmark_goal
    t = build(rng, profile, action, root)
    return {"profile": profile, "facts": {"what": t["what"]}, "target": t}


def _target_checks(t: dict[str, Any]) -> list[Check]:
    """The checks on the edited bookmark or folder itself."""
    path, folder, kind = chc.BOOKMARKS, t["folder"], t["kind"]
    label = " > ".join(folder)
    if kind == "rename":
        return [Check("renamed", f"{label} holds '{t['new']}' -> {t['url']}.", "chrome.bookmark_exists",
                      {"path": path, "name": t["new"], "url": t["url"], "folder": folder}),
                Check("old_name_gone", f"No bookmark in {label} is still called '{t['name']}'.",
                      "chrome.bookmark_absent", {"path": path, "name": t["name"], "folder": folder})]
    if kind == "delete":
        return [Check("deleted", f"No bookmark points at {t['url']} any more.", "chrome.bookmark_absent",
                      {"path": path, "url": t["url"], "name": t["name"]})]
    if kind == "change_url":
        return [Check("new_url", f"'{t['name']}' in {label} points at {t['new']}.", "chrome.bookmark_exists",
                      {"path": path, "name": t["name"], "url": t["new"], "folder": folder}),
                Check("old_url_gone", f"No bookmark in {label} points at {t['url']} any more.",
                      "chrome.bookmark_absent", {"path": path, "url": t["url"], "folder": folder})]
    checks = [Check("old_folder_gone", f"There is no folder {label} any more.", "chrome.folder_absent",
                    {"path": path, "folder": folder})]
    if kind == "rename_folder":
        checks.insert(0, Check("renamed_folder", f"A folder {folder[0]} > {t['new']} exists.", "chrome.folder_exists",
                               {"path": path, "folder": [folder[0], t["new"]]}))
    return checks


@node("rubric", "rubric", ("profile", "target"), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    profile: chc.Profile = values["profile"]
    t = values["target"]
    links = profile.links()
    if t["kind"] == "rename_folder":
        kept = [[[f[0], t["new"], *f[2:]] if f[:2] == t["folder"] else f, n, u] for f, n, u in links]
    elif t["kind"] == "delete_folder":
        kept = [[f, n, u] for f, n, u in links if f[:2] != t["folder"]]
    else:
        kept = chc.kept(links, t["url"])
    # the count is fixed too: an edit adds no bookmark (a renamed or re-pointed one still counts once)
    total = len(kept) + (1 if t["kind"] in ("rename", "change_url") else 0)
    args: dict[str, Any] = {"path": chc.BOOKMARKS, "bookmarks": kept, "total": total}
    checks = [*_target_checks(t),
              Check("kept", "Every other bookmark is still in its place, and no bookmark was added or re-added "
                            "elsewhere.", "chrome.bookmarks_kept", args)]
    return {"rubric": checks}


@node("solve", "solve", ("target",), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    t = values["target"]
    folder, kind = t["folder"], t["kind"]
    at = {"folder": folder, "name": t["name"]} if "name" in t else {}
    misses: list[tuple[str, list[dict[str, Any]]]]
    if kind == "rename":
        oracle = [chc.bm("rename", **at, new_name=t["new"])]
        misses = [(f"renames the neighbouring bookmark '{t['sibling']}'",
                   [chc.bm("rename", folder=folder, name=t["sibling"], new_name=t["new"])]),
                  ("adds a new bookmark with the new name instead of renaming",
                   [chc.bm("add_bookmark", folder=folder, name=t["new"], url=t["url"])])]
    elif kind == "delete":
        oracle = [chc.bm("delete", **at)]
        misses = [(f"deletes the neighbouring bookmark '{t['sibling']}'",
                   [chc.bm("delete", folder=folder, name=t["sibling"])]),
                  (f"deletes the whole '{folder[-1]}' folder", [chc.bm("delete", folder=folder[:-1], name=folder[-1])])]
    elif kind == "change_url":
        oracle = [chc.bm("set_url", **at, url=t["new"])]
        misses = [("adds a second bookmark with the new address, leaving the old one",
                   [chc.bm("add_bookmark", folder=folder, name=t["name"], url=t["new"])]),
                  (f"changes the address of '{t['sibling']}' instead",
                   [chc.bm("set_url", folder=folder, name=t["sibling"], url=t["new"])])]
    elif kind == "rename_folder":
        oracle = [chc.bm("rename", folder=folder[:1], name=folder[1], new_name=t["new"])]
        misses = [(f"renames the folder '{t['wrong'][1]}' instead",
                   [chc.bm("rename", folder=t["wrong"][:1], name=t["wrong"][1], new_name=t["new"])]),
                  ("creates a new empty folder with the new name", [chc.bm("add_folder", folder=folder[:1],
                                                                           name=t["new"])])]
    else:
        oracle = [chc.bm("delete", folder=folder[:1], name=folder[1])]
        misses = [(f"deletes the folder '{t['wrong'][1]}' instead",
                   [chc.bm("delete", folder=t["wrong"][:1], name=t["wrong"][1])]),
                  ("saves the folder's first bookmark to the parent before deleting the folder",
                   [chc.bm("move_bookmark", folder=folder, name=t["children"][0], to=folder[:1]),
                    chc.bm("delete", folder=folder[:1], name=folder[1])]),
                  ("deletes the bookmarks inside but leaves the empty folder",
                   [chc.bm("delete", folder=folder, name=name) for name in t["children"]])]
    solutions = [Solution("oracle", t["what"], oracle)]
    solutions += [Solution(f"near-miss-{i}", why, ops) for i, (why, ops) in enumerate(misses, start=1)]
    return {"solutions": solutions}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(chc.APP,),
    description="Rename, delete or change the address of a bookmark, or rename or delete a bookmark folder.",
    knobs={"action": ("rename", "delete", "change_url", "rename_folder", "delete_folder"),
           "location": ("bar", "other")},
    nodes=(*chc.source_nodes(), goal, chc.prepare, chc.instruction(NAME, PHRASINGS), rubric, solve),
)
