"""chrome.web_bookmark: find a product's page on a shop's site (served offline on loopback, workflows/chrome/site.py)
and bookmark it under a stated name in a stated place.

The instruction names the shop's address and the product, never the page's address: the person browses from the
home page or a category to the product. Each product has a look-alike in its category (the "3" beside the "2"), so
a hasty click bookmarks the wrong page; Chrome proposes the page's title as the name ("Ridgeline 3 Tent |
Pinecrest Outfitters"), which is not the name asked for.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.chrome import kit as chc
from workflows.chrome import site as web

NAME = "chrome.web_bookmark"
PHRASINGS = (
    "The {shop} shop's site runs at {site}. In Google Chrome, find the product page of the '{product}' there and "
    "bookmark it {where}, named '{product}'.",
    "Open {site} in Chrome ({shop}), look up the '{product}' and add a bookmark to its product page {where}. "
    "Name the bookmark '{product}'.",
    "Using Chrome, browse the {shop} site at {site} to the page of the '{product}' and bookmark that page "
    "{where} with the name '{product}'.",
    "Find the '{product}' on the {shop} website ({site}) and bookmark its own page (not a category page) "
    "{where}; the bookmark must be called '{product}'.",
    "In Chrome, go to {site}, the site of {shop}, navigate to the product page for the '{product}' and save it as "
    "a bookmark named '{product}' {where}.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "I'm eyeing the '{product}' at {shop} ({site}). Could you bookmark its product page {where}, named "
    "'{product}'?",
    "Please bookmark the '{product}' page on {site} in Chrome {where} and call it '{product}'.",
    "Can you find the '{product}' on the {shop} site at {site} and bookmark its page {where} as '{product}'?",
    "I want to come back to the '{product}' later. Bookmark its page from {site} {where}, named '{product}'.",
    "Save the {shop} product page of the '{product}' ({site}) as a Chrome bookmark '{product}' {where}.",
)


def _where(location: str, folder: list[str]) -> str:
    if location == "bar":
        return f"directly {chc.place(folder[0])}"
    where = chc.place(folder[0]) if len(folder) == 2 else chc.located(folder[:-1])  # nested: axis `nesting`
    return f"in the existing folder '{folder[-1]}' {where}"


class Params(TypedDict):
    location: Literal["bar", "bar_folder", "other_folder"]


@dataclass(frozen=True)
class Target:
    folder: list[str]  # where the bookmark goes: [root label] or [root label, (nest...,) folder name]
    product: str  # the product whose page is bookmarked
    url: str  # its page's address (the answer)
    twin_url: str  # the look-alike product's page
    category_url: str  # the category page listing both


def goal(rng: random.Random, params: Params, bookmarks: dict[str, Any]) -> Goal[web.WebProfile, Target]:
    location = params["location"]
    profile = chc.base_profile(bookmarks, rng, params)
    site = web.draw_site(rng)
    folder = [chc.BAR]
    if location != "bar":
        root = location.removesuffix("_folder")
        folder = profile.path(root, rng.choice(profile.folders(root))["name"])
    product = rng.choice(site.products)
    twin = site.twin(product)
    target = Target(folder, product.name, site.url(product.page), site.url(twin.page),
                    site.url(f"c/{web.slug(product.category)}.html"))
    facts = {"shop": site.name, "site": site.home, "product": product.name, "where": _where(location, folder)}
    return Goal(web.web_profile(profile, site), facts, target)


def rubric(profile: web.WebProfile, target: Target) -> list[Check]:
    assert profile.site is not None
    return [Check("bookmarked", f"A bookmark named '{target.product}' in {' > '.join(target.folder)} points at the "
                                f"product page of the '{target.product}' on {profile.site.home}.",
                  "chrome.page_bookmarked",
                  {"path": chc.BOOKMARKS, "name": target.product, "folder": target.folder, "site": profile.site.home,
                   "page": target.product, "url": target.url})]


def solve(profile: web.WebProfile, target: Target) -> Attempts:
    site = profile.site
    assert site is not None

    def mark(url: str, name: str = target.product, folder: list[str] = target.folder) -> list[dict[str, Any]]:
        return [chc.bm("bookmark_page", folder=folder, name=name, url=url, site=site.home, site_dir=site.root,
                       find=target.product)]

    if len(target.folder) >= 2:
        wrong, why = target.folder[:-1], f"puts the bookmark directly in {target.folder[-2]}, not in the folder"
    else:
        wrong, why = [chc.OTHER], f"puts the bookmark in {chc.OTHER} instead of {chc.BAR}"
    title = f"{target.product} | {site.name}"
    return Attempts(
        Attempt("finds the product's page and bookmarks it under the stated name in the stated place",
                mark(target.url)),
        [Attempt("bookmarks the look-alike product's page", mark(target.twin_url)),
         Attempt("bookmarks the category page that lists the product instead of its own page",
                 mark(target.category_url)),
         Attempt("keeps the page title Chrome proposes as the bookmark's name", mark(target.url, name=title)),
         Attempt(why, mark(target.url, folder=wrong))],
    )


WORKFLOW = family(
    NAME, web.WEB,
    description="Find a product's page on a shop's site (served offline) and bookmark it under a stated name in a "
                "stated place.",
    knobs={"location": ("bar", "bar_folder", "other_folder")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
