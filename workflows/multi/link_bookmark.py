"""multi.link_bookmark: a document, an email or a text file lists a few websites; bookmark the stated one in
Chrome under a stated name and place (Writer / Thunderbird / files -> Chrome).

The address itself is not in the instruction: the user reads it from the source, and the check accepts it
the way Chrome stores a typed or pasted URL. The other listed sites are the plausible wrong picks.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict
from urllib.parse import urlsplit

from kit.axes import LOCATION, deepen, pick
from kit.family import Attempt, Attempts, Goal, family
from kit.model import HOME, Check
from preparers.tree import FileSpec
from workflows.chrome import kit as chc
from workflows.multi import kit as mc
from workflows.tb import kit as tc
from workflows.writer import kit as wc

NAME = "multi.link_bookmark"
TOPICS = ("Useful Sites", "Links to Check Out", "Sites from the Meeting", "Shared Links", "Links Worth Keeping",
          "Sites Mentioned Last Week")
INTROS = ("Here are the sites we talked about, in no particular order.",
          "These are the pages the team keeps coming back to.",
          "A few links worth keeping at hand for the coming weeks.")
NEW_FOLDERS = ("Team Links", "Saved for Later", "Work Resources", "Shared Links")
#: Difficulty axes (issue 15): more sites listed next to the wanted one, and how deep the source sits (a file
#: further down, or the email filed in a subfolder of the Inbox).
AXES = {"noise": mc.NOISE, "location": LOCATION}
#: The Thunderbird kit's `location` level for each file `location` level.
MAIL_LEVELS = {"near": "near", "deep": "sub", "deeper": "nested"}
PHRASINGS = (
    "{source} lists a few websites. Bookmark the one listed as '{name}' in Google Chrome, {where}, and name the "
    "bookmark '{name}'.{mkdir}",
    "Find the link for '{name}' in {source_lower} and add it to Chrome's bookmarks {where}. The bookmark must be "
    "called '{name}'.{mkdir}",
    "Please open {source_lower}, copy the address given for '{name}', and bookmark it in Chrome as '{name}', "
    "{where}.{mkdir}",
    "In Chrome, create a bookmark named '{name}' {where} that points to the '{name}' address listed in "
    "{source_lower}.{mkdir}",
    "{source} mentions several sites. Save the '{name}' one as a Chrome bookmark, named '{name}', {where}.{mkdir}",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "{source} lists a few websites. Bookmark the '{name}' one in Chrome {where}, named '{name}'.{mkdir}",
    "Could you bookmark the '{name}' link from {source_lower} in Chrome, {where}? Call it '{name}'.{mkdir}",
    "I want the '{name}' site from {source_lower} as a Chrome bookmark named '{name}', {where}.{mkdir}",
    "Please add '{name}' from {source_lower} to my Chrome bookmarks {where}, under that name.{mkdir}",
    "Save the '{name}' address in {source_lower} as a Chrome bookmark {where}, named '{name}'.{mkdir}",
)


def _where(place: str, folder: list[str]) -> str:
    if place in ("bar", "other"):
        return f"directly {chc.place(folder[0])} (not inside any folder)"
    if place == "bar_folder":
        return f"inside the existing folder '{folder[1]}' {chc.place(folder[0])}"
    return f"inside a new folder '{folder[1]}' {chc.place(folder[0])}"


class Params(TypedDict):
    source: Literal["docx", "email", "txt"]
    place: Literal["bar", "other", "bar_folder", "new_folder"]


@dataclass(frozen=True)
class Target:
    folder: list[str]  # the bookmark's folder path, from the root (bookmark bar or other bookmarks)
    name: str
    url: str
    other_url: str  # another site of the same list: the wrong pick


def _source(rng: Any, kind: str, content: Mapping[str, Any], plan: Mapping[str, Any], sites: list[dict[str, str]],
            topic: str, level: str) -> tuple[tuple[str, Any], str]:
    """The piece holding the links and how the instruction names it."""
    lines = [f"{s['name']}: {s['url']}" for s in sites]
    intro = rng.choice(INTROS)
    if kind == "email":
        mail = plan["mailbox"]
        background = tc.messages(content["mailbox"], mail)
        first, last = mc.person(rng, avoid=(mail["owner"]["first"], mail["owner"]["last"]))
        sender = (f"{first} {last}", f"{mc.local_part(first, last)}@{mail['domain']}")
        body = (f"Hi {mail['owner']['first']},\n\n{intro}\n\n" + "\n".join(lines)
                + f"\n\nCheers,\n{first}\n")
        when = mc.dates_between(background, rng, 1)[0]
        msg = mc.message(mail, sender, topic, body, when)
        folder = tc.source_folder(rng, {"location": MAIL_LEVELS[level]}, "Inbox")
        spec = mc.mail_profile(rng, mail, background, [msg], source=folder)
        where = "Thunderbird" if folder == "Inbox" else f"Thunderbird's folder {folder.replace('/', ' > ')}"
        return ("tb", spec), f"The email '{topic}' from {sender[1]} (received {mc.mail_date(when)}) in {where}"
    stem = topic.lower().replace(" ", "_")
    if kind == "docx":
        first, last = mc.person(rng)
        path = f"{HOME}/{deepen(rng.choice(wc.FOLDERS), level)}/{stem}.docx"
        blocks = [wc.Para(topic, "title", "Title"), wc.Para(intro, "body"),
                  *(wc.Para(line, "item", "List Bullet") for line in lines),
                  wc.Para(f"Compiled by {first} {last}", "closing")]
        layout = wc.Layout(path=path, blocks=tuple(blocks), paper=rng.choice(wc.PAPERS), author=f"{first} {last}")
        return ("writer", layout), f"The document {path}"
    path = f"{HOME}/{deepen(rng.choice(('Documents', 'Documents/notes', 'Desktop')), level)}/{stem}.txt"
    text = f"{topic}\n\n{intro}\n\n" + "\n".join(lines) + "\n"
    return ("tree", [FileSpec(path, "text", text)]), f"The text file {path}"


def goal(rng: random.Random, params: Params, content: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[mc.Setup, Target]:
    bookmarks = content["bookmarks"]
    profile = chc.base_profile(bookmarks, rng)
    place = params["place"]
    folder = [chc.BAR if place.startswith("bar") or place == "new_folder" else chc.OTHER]
    if place == "bar_folder":
        folder.append(rng.choice(profile.folders("bar"))["name"])
    elif place == "new_folder":
        taken = {f["name"] for f in profile.folders("bar")}
        folder.append(rng.choice([n for n in NEW_FOLDERS if n not in taken]))
    sites = rng.sample(list(bookmarks["extra"]), 3 + mc.EXTRA[pick(params, "noise", AXES)])
    wanted = rng.choice(sites)
    topic = rng.choice(TOPICS)
    piece, source = _source(rng, params["source"], content, plan, sites, topic, pick(params, "location", AXES))
    facts = {"source": source, "source_lower": source[0].lower() + source[1:], "name": wanted["name"],
             "where": _where(place, folder),
             "mkdir": " Create the folder first; it does not exist yet." if place == "new_folder" else ""}
    target = Target(folder, wanted["name"], wanted["url"], next(s["url"] for s in sites if s is not wanted))
    return Goal(mc.Setup((piece, ("chrome", profile))), facts, target)


def rubric(target: Target) -> list[Check]:
    t = target
    return [Check("bookmark", f"A bookmark named '{t.name}' in {' > '.join(t.folder)} points at {t.url}.",
                  "multi.bookmark", {"path": chc.BOOKMARKS, "name": t.name, "url": t.url, "folder": t.folder})]


def solve(params: Params, target: Target) -> Attempts:
    t, place = target, params["place"]
    folder = t.folder

    def add(url: str = t.url, name: str = t.name, where: list[str] = folder) -> list[dict[str, Any]]:
        new = place == "new_folder" and len(where) > 1
        ops = [chc.bm("add_folder", folder=where[:1], name=where[1])] if new else []
        return [*ops, chc.bm("add_bookmark", folder=where, name=name, url=url)]

    elsewhere = [chc.OTHER] if folder == [chc.BAR] else [chc.BAR] if len(folder) == 1 else folder[:1]
    return Attempts(
        Attempt("bookmark the stated site under the stated name and place", add()),
        [Attempt("bookmarks another site from the same list", add(url=t.other_url)),
         Attempt(f"puts the bookmark in {' > '.join(elsewhere)} instead", add(where=elsewhere)),
         Attempt("keeps the address as the bookmark name", add(name=urlsplit(t.url).netloc))],
    )


WORKFLOW = family(
    NAME, mc.app_kit((mc.CHROME, mc.WRITER, mc.TB, mc.OS), bookmarks={}, mailbox={"kind": "pdf"}),
    description="Bookmark in Chrome a website listed in a document, an email or a text file, under a stated name "
                "and place.",
    knobs={"source": ("docx", "email", "txt"), "place": ("bar", "other", "bar_folder", "new_folder")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve, axes=AXES,
)
