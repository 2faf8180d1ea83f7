"""chrome.add_bookmark: bookmark one or two stated pages, with stated names, in a stated place."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.chrome import kit as chc

NAME = "chrome.add_bookmark"
PHRASINGS = (
    "In Google Chrome, bookmark {items} {where}. Use exactly the bookmark names given.",
    "Add {items} to Chrome's bookmarks, {where}. Name each bookmark exactly as written here and leave the "
    "other bookmarks alone.",
    "I want quick access to {items}. Please create {noun} in Chrome {where}, named exactly as given.",
    "Using Chrome's bookmark manager or the star button, bookmark {items} {where}. The names must match the "
    "ones given.",
    "Create a new Chrome bookmark for each of these: {items}. Put {noun} {where}, keep the names exactly as "
    "stated and don't touch any existing bookmark.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Could you bookmark {items} in Chrome, {where}? Keep the names exactly like that.",
    "I keep going back to {items}. Save {noun} in Chrome {where}, named as shown.",
    "Add {items} to my Chrome bookmarks {where}, with those exact names.",
    "Please bookmark {items} {where} in Chrome; the names should match what I wrote.",
    "I want quick access to {items} from Chrome. Put {noun} {where}, named as given.",
)


def _where(location: str, folder: list[str]) -> str:
    if location in ("bar", "other"):
        return f"directly {chc.place(folder[0])} (not inside any folder)"
    where = chc.place(folder[0]) if len(folder) == 2 else chc.located(folder[:-1])  # nested: axis `nesting`
    return f"inside the existing folder '{folder[-1]}' {where}"


class Params(TypedDict):
    location: Literal["bar", "bar_folder", "other", "other_folder"]
    count: Literal[1, 2]


@dataclass(frozen=True)
class Target:
    folder: list[str]  # where the new bookmarks go: [root label] or [root label, (nest...,) folder name]
    sites: list[dict[str, str]]  # the pages to bookmark: {"name", "url", ...} in the stated order


def goal(rng: random.Random, params: Params, bookmarks: dict[str, Any]) -> Goal[chc.Profile, Target]:
    location, count = params["location"], params["count"]
    profile = chc.base_profile(bookmarks, rng, params)
    root = location.removesuffix("_folder")
    folder = [chc.ROOT_OF[root]]
    extra = list(bookmarks["extra"])
    if location.endswith("_folder"):
        folder = profile.path(root, rng.choice(profile.folders(root))["name"])
        fitting = [s for s in extra if s.get("folder") == folder[-1]]
        extra = fitting if len(fitting) >= count else extra  # sites of the folder's kind when the model gave them
    sites = rng.sample(extra, count)
    items = " and ".join(f"'{s['name']}' ({s['url']})" for s in sites)
    facts = {"items": items, "where": _where(location, folder),
             "noun": "the bookmark" if count == 1 else "both bookmarks"}
    return Goal(profile, facts, Target(folder, sites))


def rubric(target: Target) -> list[Check]:
    folder, sites = target.folder, target.sites
    return [Check(id=f"bookmark_{i}",
                  criterion=f"A bookmark named '{s['name']}' pointing at {s['url']} is in {' > '.join(folder)}.",
                  primitive="chrome.bookmark_exists",
                  args={"path": chc.BOOKMARKS, "name": s["name"], "url": s["url"], "folder": folder})
            for i, s in enumerate(sites, start=1)]


def _adds(folder: list[str], sites: list[dict[str, str]]) -> list[dict[str, Any]]:
    return [chc.bm("add_bookmark", folder=folder, name=s["name"], url=s["url"]) for s in sites]


def solve(params: Params, profile: chc.Profile, target: Target) -> Attempts:
    folder, sites = target.folder, target.sites
    if len(folder) >= 2:
        wrong, why = folder[:-1], (f"puts the bookmarks directly in {folder[-2]} instead of the '{folder[-1]}' "
                                   "folder")
    else:
        other_root = chc.OTHER if folder[0] == chc.BAR else chc.BAR
        wrong, why = [other_root], f"puts the bookmarks in {other_root} instead of {folder[0]}"
    titled = [chc.bm("add_bookmark", folder=folder, name=s["url"].split("://", 1)[1].rstrip("/"), url=s["url"])
              for s in sites]
    misses = [
        Attempt(why, _adds(wrong, sites)),
        Attempt("keeps the name Chrome proposes for an unloaded page (its address) instead of typing the stated name",
                titled),
    ]
    if len(sites) > 1:
        misses.append(Attempt("adds only the first bookmark", _adds(folder, sites[:1])))
    else:
        first = profile.links()[0]
        misses.append(Attempt(f"adds the bookmark but deletes '{first[1]}' on the way",
                              [*_adds(folder, sites), chc.bm("delete", folder=first[0], name=first[1])]))
    return Attempts(Attempt("adds each bookmark with its stated name in the stated place", _adds(folder, sites)),
                    misses)


WORKFLOW = family(
    NAME, chc.CHROME,
    description="Bookmark stated pages under stated names, on the bookmarks bar, in Other bookmarks or in a folder.",
    knobs={"location": ("bar", "bar_folder", "other", "other_folder"), "count": (1, 2)},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
