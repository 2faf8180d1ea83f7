"""chrome.edit_bookmark: rename, delete or re-point one bookmark, or rename or delete one bookmark folder.

`location` says where the target lives: inside a folder on the bookmarks bar (or the folder itself), or in
Other bookmarks. Every other bookmark must stay where it is.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict
from urllib.parse import urlsplit

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
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
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "In my Chrome bookmarks, please {what}.",
    "Could you {what} in Chrome? Everything else in my bookmarks stays as it is.",
    "One of my Chrome bookmarks is wrong, so {what}.",
    "Quick fix in my Chrome bookmarks: {what}.",
    "I'd like you to {what} in Google Chrome, leaving my other bookmarks alone.",
)


class Params(TypedDict):
    action: Literal["rename", "delete", "change_url", "rename_folder", "delete_folder"]
    location: Literal["bar", "other"]


@dataclass(frozen=True)
class BookmarkEdit:
    """Rename, delete or re-point the bookmark `name` -> `url` in `folder`."""

    kind: str  # rename | delete | change_url
    folder: list[str]
    name: str
    url: str
    sibling: str  # another bookmark of the same folder: the "wrong bookmark" near-misses
    new: str  # the new name (rename) or address (change_url); "" for delete
    what: str  # the edit in words, as the instruction states it


@dataclass(frozen=True)
class FolderEdit:
    """Rename or delete the bookmark folder `folder` ([root label, name])."""

    kind: str  # rename_folder | delete_folder
    folder: list[str]
    wrong: list[str]  # another folder: the "wrong folder" near-misses
    children: list[str]  # the names of the bookmarks inside
    new: str  # the new name (rename_folder); "" for delete_folder
    what: str


Target = BookmarkEdit | FolderEdit


def _fresh_name(rng: random.Random, patterns: tuple[str, ...], name: str, taken: set[str]) -> str:
    options = [p.format(name=name, first=name.split()[0]) for p in patterns]
    return rng.choice([o for o in options if o.casefold() not in taken and o != name])


def _bookmark_goal(rng: random.Random, profile: chc.Profile, action: str, root: str) -> BookmarkEdit:
    folder_item = rng.choice(profile.folders(root))
    folder = profile.path(root, folder_item["name"])
    item, sibling = rng.sample(folder_item["children"], 2)
    where = chc.located(folder)
    taken = {name.casefold() for _, name, _ in profile.links()}
    new = ""
    if action == "rename":
        new = _fresh_name(rng, RENAMES, item["name"], taken)
        what = f"rename the bookmark '{item['name']}' ({item['url']}) {where} to '{new}'"
    elif action == "delete":
        what = f"delete the bookmark '{item['name']}' ({item['url']}) {where}"
    else:
        new = f"https://{urlsplit(item['url']).netloc}/{rng.choice(PATHS)}"
        if new.rstrip("/") == item["url"].rstrip("/"):
            new += "start/"
        what = (f"change the address of the bookmark '{item['name']}' {where} from {item['url']} to "
                f"{new}, keeping its name")
    return BookmarkEdit(action, folder, item["name"], item["url"], sibling["name"], new, what)


def _folder_goal(rng: random.Random, profile: chc.Profile, action: str, root: str) -> FolderEdit:
    folders = profile.folders(root)
    item = rng.choice(folders)
    others = [f for r in ("bar", "other") for f in profile.folders(r) if f is not item]
    wrong = profile.path("bar" if others[0] in profile.folders("bar") else "other", others[0]["name"])
    folder = profile.path(root, item["name"])
    where = chc.located(folder[:-1])
    new = ""
    if action == "rename_folder":
        taken = {name.casefold() for folder, _, _ in profile.links() for name in folder}
        new = _fresh_name(rng, FOLDER_RENAMES, item["name"], taken)
        what = f"rename the bookmark folder '{item['name']}' {where} to '{new}', keeping its bookmarks in it"
    else:
        what = (f"delete the bookmark folder '{item['name']}' {where} together with the "
                f"{len(item['children'])} bookmarks inside it")
    return FolderEdit(action, folder, wrong, [c["name"] for c in item["children"]], new, what)


def goal(rng: random.Random, params: Params, bookmarks: dict[str, Any]) -> Goal[chc.Profile, Target]:
    action, root = params["action"], params["location"]
    profile = chc.base_profile(bookmarks, rng, params)
    build = _folder_goal if action.endswith("_folder") else _bookmark_goal
    target = build(rng, profile, action, root)
    return Goal(profile, {"what": target.what}, target)


def _target_checks(t: Target) -> list[Check]:
    """The checks on the edited bookmark or folder itself."""
    path, folder, kind = chc.BOOKMARKS, t.folder, t.kind
    label = " > ".join(folder)
    if isinstance(t, BookmarkEdit):
        if kind == "rename":
            return [Check("renamed", f"{label} holds '{t.new}' -> {t.url}.", "chrome.bookmark_exists",
                          {"path": path, "name": t.new, "url": t.url, "folder": folder}),
                    Check("old_name_gone", f"No bookmark in {label} is still called '{t.name}'.",
                          "chrome.bookmark_absent", {"path": path, "name": t.name, "folder": folder})]
        if kind == "delete":
            return [Check("deleted", f"No bookmark points at {t.url} any more.", "chrome.bookmark_absent",
                          {"path": path, "url": t.url, "name": t.name})]
        return [Check("new_url", f"'{t.name}' in {label} points at {t.new}.", "chrome.bookmark_exists",
                      {"path": path, "name": t.name, "url": t.new, "folder": folder}),
                Check("old_url_gone", f"No bookmark in {label} points at {t.url} any more.",
                      "chrome.bookmark_absent", {"path": path, "url": t.url, "folder": folder})]
    checks = [Check("old_folder_gone", f"There is no folder {label} any more.", "chrome.folder_absent",
                    {"path": path, "folder": folder})]
    if kind == "rename_folder":
        renamed = [*folder[:-1], t.new]
        checks.insert(0, Check("renamed_folder", f"A folder {' > '.join(renamed)} exists.", "chrome.folder_exists",
                               {"path": path, "folder": renamed}))
    return checks


def rubric(profile: chc.Profile, target: Target) -> list[Check]:
    if isinstance(target, BookmarkEdit) or target.kind != "rename_folder":
        return _target_checks(target)  # every other bookmark stays where it was: the frame's question
    # the frame sees a renamed folder as a new one that may hold as many bookmarks as the oracle's, any of them:
    # that they are the folder's own is this check's question
    d = len(target.folder)
    inside = [[[*f[:d - 1], target.new, *f[d:]], n, u] for f, n, u in profile.links() if f[:d] == target.folder]
    return [*_target_checks(target),
            Check("kept", f"The renamed folder {' > '.join([*target.folder[:-1], target.new])} still holds its "
                          "bookmarks.", "chrome.bookmarks_kept", {"path": chc.BOOKMARKS, "bookmarks": inside})]


def _bookmark_attempts(t: BookmarkEdit) -> tuple[list[dict[str, Any]], list[Attempt]]:
    """The oracle's ops and the near-misses for an edit of one bookmark."""
    folder = t.folder
    if t.kind == "rename":
        return [chc.bm("rename", folder=folder, name=t.name, new_name=t.new)], [
            Attempt(f"renames the neighbouring bookmark '{t.sibling}'",
                    [chc.bm("rename", folder=folder, name=t.sibling, new_name=t.new)]),
            Attempt("adds a new bookmark with the new name instead of renaming",
                    [chc.bm("add_bookmark", folder=folder, name=t.new, url=t.url)])]
    if t.kind == "delete":
        return [chc.bm("delete", folder=folder, name=t.name)], [
            Attempt(f"deletes the neighbouring bookmark '{t.sibling}'",
                    [chc.bm("delete", folder=folder, name=t.sibling)]),
            Attempt(f"deletes the whole '{folder[-1]}' folder",
                    [chc.bm("delete", folder=folder[:-1], name=folder[-1])])]
    return [chc.bm("set_url", folder=folder, name=t.name, url=t.new)], [
        Attempt("adds a second bookmark with the new address, leaving the old one",
                [chc.bm("add_bookmark", folder=folder, name=t.name, url=t.new)]),
        Attempt(f"changes the address of '{t.sibling}' instead",
                [chc.bm("set_url", folder=folder, name=t.sibling, url=t.new)])]


def _folder_attempts(t: FolderEdit) -> tuple[list[dict[str, Any]], list[Attempt]]:
    """The oracle's ops and the near-misses for a rename or delete of one folder."""
    folder = t.folder
    if t.kind == "rename_folder":
        return [chc.bm("rename", folder=folder[:-1], name=folder[-1], new_name=t.new)], [
            Attempt(f"renames the folder '{t.wrong[-1]}' instead",
                    [chc.bm("rename", folder=t.wrong[:-1], name=t.wrong[-1], new_name=t.new)]),
            Attempt("creates a new empty folder with the new name",
                    [chc.bm("add_folder", folder=folder[:-1], name=t.new)])]
    return [chc.bm("delete", folder=folder[:-1], name=folder[-1])], [
        Attempt(f"deletes the folder '{t.wrong[-1]}' instead",
                [chc.bm("delete", folder=t.wrong[:-1], name=t.wrong[-1])]),
        Attempt("saves the folder's first bookmark to the parent before deleting the folder",
                [chc.bm("move_bookmark", folder=folder, name=t.children[0], to=folder[:-1]),
                 chc.bm("delete", folder=folder[:-1], name=folder[-1])]),
        Attempt("deletes the bookmarks inside but leaves the empty folder",
                [chc.bm("delete", folder=folder, name=name) for name in t.children])]


def solve(target: Target) -> Attempts:
    oracle, misses = (_bookmark_attempts(target) if isinstance(target, BookmarkEdit) else
                      _folder_attempts(target))
    return Attempts(Attempt(target.what, oracle), misses)


WORKFLOW = family(
    NAME, chc.CHROME,
    description="Rename, delete or change the address of a bookmark, or rename or delete a bookmark folder.",
    knobs={"action": ("rename", "delete", "change_url", "rename_folder", "delete_folder"),
           "location": ("bar", "other")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
