"""chrome.web_download: download the care guide linked from a product's page on a shop's site (served offline on
loopback, workflows/chrome/site.py) into a stated folder.

The instruction names the shop's address, the product and the folder, never the file: the person browses to the
product's page and clicks its download link (Chrome saves it under the name the site gives it). The look-alike
product's page has a guide of its own; saving the page itself (Ctrl+S) is not downloading the file it links to.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import HOME, Check
from workflows.chrome import kit as chc
from workflows.chrome import site as web

NAME = "chrome.web_download"
FOLDERS = {"downloads": f"{HOME}/Downloads", "documents": f"{HOME}/Documents"}
PHRASINGS = (
    "The {shop} site runs at {site}. In Google Chrome, open the page of the '{product}' and download its care "
    "guide into {folder}.",
    "Using Chrome, go to {site} ({shop}), find the '{product}' and download the care guide linked on its page. "
    "Save it in {folder}{keep}.",
    "Download the care guide of the '{product}' from the {shop} website at {site} into {folder}{keep}.",
    "In Chrome, browse {site} to the product page of the '{product}' and save the care guide file it links to "
    "into {folder}{keep}.",
    "Open {site} in Google Chrome, look up the '{product}' and download its care guide (the file linked from its "
    "product page) to {folder}{keep}.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Could you download the care guide for the '{product}' from {site} and put it in {folder}?",
    "I need the '{product}' care guide from the {shop} site ({site}). Please download it into {folder}.",
    "Please download the care guide of the '{product}' from {site} into {folder}{keep}.",
    "Can you download the '{product}' care guide from {shop} at {site} and save it in {folder}?",
    "I just bought the '{product}' from {shop}. Download its care guide from {site} into {folder} for me.",
)
KEEP = ", keeping the file name the site gives it"


class Params(TypedDict):
    folder: Literal["downloads", "documents"]


@dataclass(frozen=True)
class Target:
    folder: str  # where the guide goes
    product: str
    guide: str  # the guide's path inside the site
    twin_guide: str  # the look-alike product's guide
    page: str  # the product page's path inside the site
    sha256: str  # the guide's bytes


def goal(rng: random.Random, params: Params, bookmarks: dict[str, Any]) -> Goal[web.WebProfile, Target]:
    profile = chc.base_profile(bookmarks, rng, params)
    site = web.draw_site(rng)
    product = rng.choice(site.products)
    folder = FOLDERS[params["folder"]]
    data = site.files()[product.guide]
    target = Target(folder, product.name, product.guide, site.twin(product).guide, product.page,
                    hashlib.sha256(data).hexdigest())
    facts = {"shop": site.name, "site": site.home, "product": product.name, "folder": folder, "keep": KEEP}
    return Goal(web.web_profile(profile, site), facts, target)


def rubric(profile: web.WebProfile, target: Target) -> list[Check]:
    assert profile.site is not None
    return [Check("downloaded", f"{target.folder} holds the care guide linked from the page of the "
                                f"'{target.product}' on {profile.site.home}, as the site serves it.",
                  "chrome.file_downloaded",
                  {"folder": target.folder, "file": target.guide.rsplit("/", 1)[-1], "sha256": target.sha256,
                   "site": profile.site.home, "page": target.product})]


def solve(params: Params, profile: web.WebProfile, target: Target) -> Attempts:
    site = profile.site
    assert site is not None

    def save(rel: str, folder: str = target.folder, name: str | None = None) -> list[dict[str, Any]]:
        return [{"op": "fs.copy", "path": f"{site.root}/{rel}",
                 "dest": f"{folder}/{name or rel.rsplit('/', 1)[-1]}"}]

    other = FOLDERS["documents" if params["folder"] == "downloads" else "downloads"]
    return Attempts(
        Attempt("downloads the guide linked from the product's page into the stated folder", save(target.guide)),
        [Attempt("downloads the look-alike product's care guide", save(target.twin_guide)),
         Attempt("saves the product page itself instead of the guide it links to",
                 save(target.page, name=f"{target.product} | {site.name}.html")),
         Attempt(f"leaves the guide in {other} instead of the stated folder", save(target.guide, folder=other))],
    )


WORKFLOW = family(
    NAME, web.WEB,
    description="Download the file linked from a product's page on a shop's site (served offline) into a stated "
                "folder.",
    knobs={"folder": ("downloads", "documents")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
