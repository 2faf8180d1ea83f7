"""chrome.web_lookup: look a fact up on a shop's site (served offline on loopback, workflows/chrome/site.py) and write
it into a stated text file: a product's price, a product's item number, or the store's opening hours on a day.

The instruction names the shop's address, what to look up and the file, never the answer: the person browses to the
product's page (its look-alike has another price and item number) or to the store page (each day its own hours).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import HOME, Check
from workflows.chrome import kit as chc
from workflows.chrome import site as web

NAME = "chrome.web_lookup"
PHRASINGS = (
    "On the {shop} site at {site}, look up {what} in Google Chrome. Write {how} into the text file {path}.",
    "Using Chrome, open {site} ({shop}) and find {what}. Save {how} in {path}.",
    "Find {what} on the {shop} website ({site}) and write {how} into {path}, nothing else.",
    "Browse the {shop} site at {site} in Chrome to find {what}, then create the text file {path} holding {how}.",
    "I need {what} from {site}, the {shop} site. Look it up in Chrome and write {how} into {path}.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Could you find {what} on {site} and write {how} into {path}?",
    "What is {what} at {shop} ({site})? Please write {how} into {path}.",
    "Please look up {what} on the {shop} site ({site}) and write {how} into {path}.",
    "I keep forgetting {what}. Find it on {site} and write {how} into {path} for me.",
    "Can you check {site} for {what}? Write {how} into {path}.",
)
HOW = {"price": "just the price as a number, without the dollar sign",
       "item": "just the item number",
       "hours": "the hours exactly as the site shows them"}
FILES = {"price": "price.txt", "item": "item_number.txt", "hours": "store_hours.txt"}
#: what the site shows before each fact on its page (the regular expression the teacher reads it with)
PATTERNS = {"price": r"Price: \$([0-9.]+)", "item": r"Item number: ([A-Z0-9-]+)"}


class Params(TypedDict):
    fact: Literal["price", "item", "hours"]


@dataclass(frozen=True)
class Target:
    path: str  # the text file to write
    answer: str  # the fact, as the site shows it
    wrong: str  # the look-alike's fact, or another day's hours
    wrong_why: str
    line: str  # the fact with the label the site shows beside it (a person copying the whole line)
    find: str | None  # the heading of the page the fact is on (None: the store page's table, found by the day)
    pattern: str


def _path(rng: random.Random, fact: str, subject: str | None) -> str:
    folder = rng.choice(("Documents", "Desktop", "Documents/notes"))
    stem = f"{web.slug(subject).replace('-', '_')}_" if subject else ""
    return f"{HOME}/{folder}/{stem}{FILES[fact]}"


def goal(rng: random.Random, params: Params, bookmarks: dict[str, Any]) -> Goal[web.WebProfile, Target]:
    fact = params["fact"]
    profile = chc.base_profile(bookmarks, rng, params)
    site = web.draw_site(rng)
    if fact == "hours":
        hours = dict(site.hours)
        counts = [h for _, h in site.hours]
        day = rng.choice([d for d, h in site.hours if counts.count(h) == 1 and h != "Closed"])
        other = next(d for d, h in site.hours if h != hours[day] and h != "Closed")
        what = f"the store's opening hours on {day}"
        target = Target(_path(rng, fact, None), hours[day], hours[other], f"writes {other}'s hours instead",
                        f"{day} {hours[day]}", None, rf"<td>{day}</td><td>([^<]+)</td>")
    else:
        product = rng.choice(site.products)
        twin = site.twin(product)
        value = product.price if fact == "price" else product.item
        label = f"Price: ${value}" if fact == "price" else f"Item number: {value}"
        what = (f"the price of the '{product.name}'" if fact == "price"
                else f"the item number of the '{product.name}'")
        target = Target(_path(rng, fact, product.name), value, twin.price if fact == "price" else twin.item,
                        f"writes the look-alike '{twin.name}''s {'price' if fact == 'price' else 'item number'}",
                        label, product.name, PATTERNS[fact])
    facts = {"shop": site.name, "site": site.home, "what": what, "how": HOW[fact], "path": target.path}
    return Goal(web.web_profile(profile, site), facts, target)


def rubric(params: Params, profile: web.WebProfile, target: Target) -> list[Check]:
    assert profile.site is not None
    return [Check("answer", f"{target.path} holds {HOW[params['fact']]}, as {profile.site.home} shows it.",
                  "fs.answer_equals", {"path": target.path, "answer": target.answer})]


def solve(profile: web.WebProfile, target: Target) -> Attempts:
    site = profile.site
    assert site is not None

    def write(text: str, path: str = target.path) -> list[dict[str, Any]]:
        return [{"op": "fs.write_found", "path": path, "text": text, "site_dir": site.root,
                 "pattern": target.pattern, "find": target.find}]

    elsewhere = re.sub(r"/(Documents/notes|Documents|Desktop)/", "/", target.path)
    return Attempts(
        Attempt("looks the fact up on the site and writes it, alone, into the stated file", write(target.answer)),
        [Attempt(target.wrong_why, write(target.wrong)),
         Attempt("copies the whole line with the site's label instead of just the value", write(target.line)),
         Attempt("writes the right value into a file of that name in the home folder instead",
                 write(target.answer, path=elsewhere))],
    )


WORKFLOW = family(
    NAME, web.WEB,
    description="Look a fact up on a shop's site (served offline): a product's price or item number, or the store's "
                "opening hours on a day, and write it into a stated text file.",
    knobs={"fact": ("price", "item", "hours")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
