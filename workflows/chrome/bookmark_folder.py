"""chrome.bookmark_folder: create a named bookmark folder and move stated bookmarks into it.

`sources` decides where the bookmarks come from: all loose (on the bookmarks bar or in Other bookmarks), or
mixed, with one taken out of an existing folder. Moving means the originals are gone from where they were.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.chrome import kit as chc

NAME = "chrome.bookmark_folder"
FOLDER_NAMES = ("Read later", "Daily", "Favorites", "Weekend", "Must read", "Quick links", "Side project",
                "Morning routine", "To review", "Essentials", "Archive 2023", "Planning")
PHRASINGS = (
    "In Chrome, create a new bookmark folder named '{new}' {place} and move these bookmarks into it: {moves}.",
    "Tidy up my Chrome bookmarks: make a folder called '{new}' {place}, then move {moves} into that folder "
    "(move them, don't copy them).",
    "Please add a bookmark folder '{new}' {place} in Google Chrome and put the following existing bookmarks in "
    "it, removing them from where they are now: {moves}.",
    "Using Chrome's bookmark manager, create the folder '{new}' {place}. Move {moves} into it. Leave every "
    "other bookmark where it is.",
    "Group some Chrome bookmarks: new folder '{new}' {place}; it should end up holding {moves}, which must no "
    "longer be in their old places.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Move {moves} into a new folder '{new}' {place} in Chrome.",
    "In Chrome, make a folder '{new}' {place} and move {moves} into it.",
    "Can you move {moves} into a new bookmark folder, '{new}', {place}?",
    "I want {moves} moved into a new Chrome folder '{new}' {place}.",
    "Tidy my bookmarks: move {moves} into a new folder '{new}' {place}.",
)


def _candidates(profile: chc.Profile, sources: str) -> list[tuple[list[str], dict[str, str]]]:
    """(folder, bookmark) pairs to move: loose ones, or for `mixed` one out of a folder first."""
    loose = [([chc.ROOT_OF[r]], b) for r in ("bar", "other") for b in profile.loose(r)]
    if sources == "loose":
        return loose
    inside = [(profile.path(r, f["name"]), b) for r in ("bar", "other") for f in profile.folders(r)
              for b in f["children"]]
    return inside + loose


class Params(TypedDict):
    parent: Literal["bar", "other"]
    count: Literal[2, 3]
    sources: Literal["loose", "mixed"]


@dataclass(frozen=True)
class Move:
    """One stated bookmark to move: where it is now (folder path), its name and address."""

    source: list[str]
    name: str
    url: str


@dataclass(frozen=True)
class Target:
    folder: list[str]  # the new folder's path: [root label, new name]
    moves: list[Move]  # the bookmarks to move into it, in the stated order


def goal(rng: random.Random, params: Params, bookmarks: dict[str, Any]) -> Goal[chc.Profile, Target]:
    profile = chc.base_profile(bookmarks, rng, params)
    taken = {name.casefold() for folder, _, _ in profile.links() for name in folder}
    new = rng.choice([n for n in FOLDER_NAMES if n.casefold() not in taken])
    parent = [chc.ROOT_OF[params["parent"]]]
    pool = _candidates(profile, params["sources"])
    if params["sources"] == "mixed":
        first = rng.choice([p for p in pool if len(p[0]) >= 2])
        rest = [p for p in pool if len(p[0]) == 1]
        chosen = [first, *rng.sample(rest, params["count"] - 1)]
    else:
        chosen = rng.sample(pool, params["count"])
    moves = [Move(folder, b["name"], b["url"]) for folder, b in chosen]
    text = chc.join_and([f"'{m.name}' ({m.url}, now {chc.located(m.source)})" for m in moves])
    facts = {"new": new, "place": chc.place(parent[0]), "moves": text}
    return Goal(profile, facts, Target([*parent, new], moves))


def rubric(target: Target) -> list[Check]:
    folder, moves = target.folder, target.moves
    label = " > ".join(folder)
    checks = [Check(id="folder", criterion=f"A bookmark folder {label} exists.", primitive="chrome.folder_exists",
                    args={"path": chc.BOOKMARKS, "folder": folder})]
    for i, m in enumerate(moves, start=1):
        checks.append(Check(id=f"moved_{i}", criterion=f"'{m.name}' ({m.url}) is in {label}.",
                            primitive="chrome.bookmark_exists",
                            args={"path": chc.BOOKMARKS, "name": m.name, "url": m.url, "folder": folder}))
        checks.append(Check(id=f"gone_{i}", criterion=f"{m.url} is no longer in {' > '.join(m.source)}.",
                            primitive="chrome.bookmark_absent",
                            args={"path": chc.BOOKMARKS, "url": m.url, "folder": m.source}))
    return checks


def _plan(folder: list[str], moves: list[Move], *, copy: bool = False) -> list[dict[str, Any]]:
    ops = [chc.bm("add_folder", folder=folder[:-1], name=folder[-1])]
    for m in moves:
        if copy:
            ops.append(chc.bm("add_bookmark", folder=folder, name=m.name, url=m.url))
        else:
            ops.append(chc.bm("move_bookmark", folder=m.source, name=m.name, to=folder))
    return ops


def solve(target: Target) -> Attempts:
    folder, moves = target.folder, target.moves
    other_root = chc.OTHER if folder[0] == chc.BAR else chc.BAR
    return Attempts(
        Attempt("creates the folder and moves each stated bookmark into it", _plan(folder, moves)),
        [Attempt("moves all but the last stated bookmark", _plan(folder, moves[:-1])),
         Attempt("copies the bookmarks into the folder, leaving the originals in place",
                 _plan(folder, moves, copy=True)),
         Attempt(f"creates the folder in {other_root} instead", _plan([other_root, folder[-1]], moves))],
    )


WORKFLOW = family(
    NAME, chc.CHROME,
    description="Create a bookmark folder in a stated place and move stated bookmarks into it.",
    knobs={"parent": ("bar", "other"), "count": (2, 3), "sources": ("loose", "mixed")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
