"""chrome.bookmark_folder: create a named bookmark folder and move stated bookmarks into it.

`sources` decides where the bookmarks come from: all loose (on the bookmarks bar or in Other bookmarks), or
mixed, with one taken out of an existing folder. Moving means the originals are gone from where they were.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from forge.dag import NodeContext, Workflow, node
from forge.model import Check, Solution
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


def _candidates(profile: chc.Profile, sources: str) -> list[tuple[list[str], dict[str, str]]]:
    """(folder, bookmark) pairs to move: loose ones, or for `mixed` one out of a folder first."""
    loose = [([chc.ROOT_OF[r]], b) for r in ("bar", "other") for b in profile.loose(r)]
    if sources == "loose":
        return loose
    inside = [([chc.ROOT_OF[r], f["name"]], b) for r in ("bar", "other") for f in profile.folders(r)
              for b in f["children"]]
    return inside + loose


@node("goal", "goal", ("params", "bookmarks"), ("profile", "facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("goal")
    params = values["params"]
    profile = chc.base_profile(values["bookmarks"], rng)
    taken = {name.casefold() for folder, _, _ in profile.links() for name in folder}
    new = rng.choice([n for n in FOLDER_NAMES if n.casefold() not in taken])
    parent = [chc.ROOT_OF[params["parent"]]]
    pool = _candidates(profile, params["sources"])
    if params["sources"] == "mixed":
        first = rng.choice([p for p in pool if len(p[0]) == 2])
        rest = [p for p in pool if len(p[0]) == 1]
        chosen = [first, *rng.sample(rest, params["count"] - 1)]
    else:
        chosen = rng.sample(pool, params["count"])
    moves: list[dict[str, Any]] = [{"from": folder, "name": b["name"], "url": b["url"]} for folder, b in chosen]
    text = chc.join_and([f"'{m['name']}' ({m['url']}, now {chc.located(m['from'])})" for m in moves])
    facts = {"new": new, "place": chc.place(parent[0]), "moves": text}
    return {"profile": profile, "facts": facts, "target": {"folder": [*parent, new], "moves": moves}}


@node("rubric", "rubric", ("profile", "target"), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    profile: chc.Profile = values["profile"]
    folder, moves = values["target"]["folder"], values["target"]["moves"]
    label = " > ".join(folder)
    checks = [Check(id="folder", criterion=f"A bookmark folder {label} exists.", primitive="chrome.folder_exists",
                    args={"path": chc.BOOKMARKS, "folder": folder})]
    for i, m in enumerate(moves, start=1):
        checks.append(Check(id=f"moved_{i}", criterion=f"'{m['name']}' ({m['url']}) is in {label}.",
                            primitive="chrome.bookmark_exists",
                            args={"path": chc.BOOKMARKS, "name": m["name"], "url": m["url"], "folder": folder}))
        checks.append(Check(id=f"gone_{i}", criterion=f"{m['url']} is no longer in {' > '.join(m['from'])}.",
                            primitive="chrome.bookmark_absent",
                            args={"path": chc.BOOKMARKS, "url": m["url"], "folder": m["from"]}))
    links = profile.links()
    checks.append(Check(id="kept", criterion="Every other bookmark is still in its place, and no bookmark was "
                                             "added.", primitive="chrome.bookmarks_kept",
                        args={"path": chc.BOOKMARKS, "bookmarks": chc.kept(links, *(m["url"] for m in moves)),
                              "total": len(links)}))
    return {"rubric": checks}


def _plan(folder: list[str], moves: list[dict[str, Any]], *, copy: bool = False) -> list[dict[str, Any]]:
    ops = [chc.bm("add_folder", folder=folder[:-1], name=folder[-1])]
    for m in moves:
        if copy:
            ops.append(chc.bm("add_bookmark", folder=folder, name=m["name"], url=m["url"]))
        else:
            ops.append(chc.bm("move_bookmark", folder=m["from"], name=m["name"], to=folder))
    return ops


@node("solve", "solve", ("target",), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    folder, moves = values["target"]["folder"], values["target"]["moves"]
    other_root = chc.OTHER if folder[0] == chc.BAR else chc.BAR
    return {"solutions": [
        Solution("oracle", "creates the folder and moves each stated bookmark into it", _plan(folder, moves)),
        Solution("near-miss-1", "moves all but the last stated bookmark", _plan(folder, moves[:-1])),
        Solution("near-miss-2", "copies the bookmarks into the folder, leaving the originals in place",
                 _plan(folder, moves, copy=True)),
        Solution("near-miss-3", f"creates the folder in {other_root} instead",
                 _plan([other_root, folder[-1]], moves)),
    ]}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(chc.APP,),
    description="Create a bookmark folder in a stated place and move stated bookmarks into it.",
    knobs={"parent": ("bar", "other"), "count": (2, 3), "sources": ("loose", "mixed")},
    nodes=(*chc.source_nodes(), goal, chc.prepare, chc.instruction(NAME, PHRASINGS), rubric, solve),
)
