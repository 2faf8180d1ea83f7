"""chrome.site_search: add a site search shortcut (Settings > Search engine > Manage search engines and site search >
Site search > Add: a name, the shortcut typed in the address bar, and the search address with %s for the query), or
point an existing shortcut at another site.

The profile gets a Web Data database (preparers/ops/chrome_webdata.py) with Chrome's built-in engines and a few site
searches the person made earlier. No frame reads it, so the rubric guards the other engines itself
(`chrome.search_engines_kept`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, Literal, TypedDict

from kit.dag import NodeContext, node
from kit.family import Attempt, Attempts, Goal, family
from kit.model import Asset, Check
from preparers.chrome import EPOCH_DELTA, guid_from
from preparers.ops.chrome_webdata import build_webdata
from workflows.chrome import kit as chc

NAME = "chrome.site_search"
WEBDATA = f"{chc.PROFILE_DIR}/Web Data"
PHRASINGS = (
    "In Google Chrome, {what}. Keep the other search engines as they are.",
    "Open Chrome's Manage search engines and site search page and {what}.",
    "Set up a Chrome address bar shortcut: {what}. Don't change the default search engine.",
    "Using Chrome's site search settings, {what}; every other engine stays.",
    "Please {what} in Google Chrome, leaving the other shortcuts alone.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "{why} Can you {what} in Chrome?",
    "Please {what} in my Chrome.",
    "{why} Please {what}.",
    "Could you {what} in Chrome? The other shortcuts stay.",
    "I'd like Chrome to {what}, please.",
)
#: site searches a person adds: (name, shortcut, search address)
SITES = (
    ("Wikipedia", "w", "https://en.wikipedia.org/w/index.php?search=%s"),
    ("YouTube", "yt", "https://www.youtube.com/results?search_query=%s"),
    ("GitHub", "gh", "https://github.com/search?q=%s"),
    ("Stack Overflow", "so", "https://stackoverflow.com/search?q=%s"),
    ("MDN Web Docs", "mdn", "https://developer.mozilla.org/en-US/search?q=%s"),
    ("Amazon", "az", "https://www.amazon.com/s?k=%s"),
    ("IMDb", "imdb", "https://www.imdb.com/find/?q=%s"),
    ("Python Docs", "py", "https://docs.python.org/3/search.html?q=%s"),
    ("OpenStreetMap", "map", "https://www.openstreetmap.org/search?query=%s"),
    ("Reddit", "r", "https://www.reddit.com/search/?q=%s"),
    ("Goodreads", "gr", "https://www.goodreads.com/search?q=%s"),
    ("Etsy", "etsy", "https://www.etsy.com/search?q=%s"),
    ("npm", "npm", "https://www.npmjs.com/search?q=%s"),
    ("Merriam-Webster", "mw", "https://www.merriam-webster.com/dictionary/%s"),
)
BUILT_IN = (("Google", "google.com", "{google:baseURL}search?q={searchTerms}&{google:RLZ}", 1),
            ("Bing", "bing.com", "https://www.bing.com/search?q={searchTerms}&PC=U316&FORM=CHROMN", 3),
            ("DuckDuckGo", "duckduckgo.com", "https://duckduckgo.com/?q={searchTerms}", 92),
            ("Yahoo!", "yahoo.com", "https://search.yahoo.com/search{google:pathWildcard}?ei={inputEncoding}&"
                                    "fr=crmas&p={searchTerms}", 2),
            ("Ecosia", "ecosia.org", "https://www.ecosia.org/search?q={searchTerms}", 101))
WHY = "I look things up on that site all the time."


@dataclass(frozen=True)
class Profile(chc.Profile):
    """The Chrome profile with its Web Data search engines (the engines `build_webdata` takes)."""

    engines: tuple[dict[str, Any], ...] = ()


@node("prepare", "prepare", ("profile",), ("assets", "launch"))
def prepare(ctx: NodeContext, values: Any) -> Any:
    out = dict(chc.prepare.fn(ctx, values))
    profile: Profile = values["profile"]
    out["assets"] = [*out["assets"], Asset(WEBDATA, build_webdata(profile.engines), app="chrome")]
    return out


KIT = replace(chc.SETTINGS, prepare=prepare)


class Params(TypedDict):
    initial: Literal["new", "repoint"]


@dataclass(frozen=True)
class Target:
    name: str
    keyword: str
    url: str
    replace: str | None  # repoint: the shortcut as it is now (same keyword, another site)
    other_keyword: str  # another shortcut of the person's: the "edited the wrong one" near-miss
    created: int
    guid: str


def goal(rng: random.Random, params: Params, bookmarks: dict[str, Any]) -> Goal[Profile, Target]:
    base = chc.base_profile(bookmarks, rng, params)
    now = rng.uniform(1_700_000_000, 1_717_000_000)

    def stamp() -> int:
        return int((now - rng.uniform(30, 900) * 86_400 + EPOCH_DELTA) * 1_000_000)

    engines = [{"name": n, "keyword": k, "url": u, "prepopulate_id": p, "created": stamp(),
                "guid": guid_from(rng.getrandbits(128)), "usage": rng.randint(0, 40)} for n, k, u, p in BUILT_IN]
    chosen, old, *mine = rng.sample(SITES, 5)
    name, keyword, url = chosen
    for n, k, u in mine:
        engines.append({"name": n, "keyword": k, "url": u, "created": stamp(), "guid": guid_from(rng.getrandbits(128)),
                        "usage": rng.randint(1, 60)})
    if params["initial"] == "repoint":
        # the person's shortcut `keyword` searches another site now
        engines.append({"name": old[0], "keyword": keyword, "url": old[2], "created": stamp(),
                        "guid": guid_from(rng.getrandbits(128)), "usage": rng.randint(1, 30)})
        what = (f"change the site search shortcut '{keyword}' so that it searches {name} ({url}) instead of "
                f"{old[0]}, and name it '{name}'")
    else:
        what = f"add a site search called '{name}' with the shortcut '{keyword}' and the address {url}"
    rng.shuffle(engines)
    profile = Profile(base.bookmarks, base.prefs, base.nest, engines=tuple(engines))
    return Goal(profile, {"what": what, "why": WHY},
                Target(name, keyword, url, keyword if params["initial"] == "repoint" else None, mine[0][1],
                       int((now + EPOCH_DELTA) * 1_000_000), guid_from(rng.getrandbits(128))))


def rubric(profile: Profile, target: Target) -> list[Check]:
    t = target
    kept = [[e["keyword"], e["url"].replace("%s", "{searchTerms}")] for e in profile.engines
            if e["keyword"] != t.keyword]
    return [Check("site_search", f"Typing '{t.keyword}' in Chrome's address bar searches {t.name} ({t.url}).",
                  "chrome.site_search", {"path": WEBDATA, "name": t.name, "keyword": t.keyword, "url": t.url}),
            Check("engines_kept", "Every other search engine and shortcut is as it was.", "chrome.search_engines_kept",
                  {"path": WEBDATA, "engines": kept})]


def _set(t: Target, **changes: Any) -> dict[str, Any]:
    args = {"name": t.name, "keyword": t.keyword, "url": t.url, "guid": t.guid, "created": t.created, **changes}
    if args.get("replace") is None:
        args.pop("replace", None)
    return {"op": "chromewebdata.set_site_search", "path": WEBDATA, **args}


def solve(target: Target) -> Attempts:
    t = target
    home = t.url.split("?")[0].rsplit("/", 1)[0] + "/" if "?" in t.url else t.url.replace("%s", "")
    misses = [
        Attempt("gives the site's address without %s, so the shortcut opens a page instead of searching",
                [_set(t, url=home, replace=t.replace)]),
        Attempt("makes the site Chrome's default search engine instead of adding a shortcut",
                [chc.pref("default_search_provider_data.template_url_data",
                          {"short_name": t.name, "keyword": t.keyword, "url": t.url.replace("%s", "{searchTerms}")})]),
        Attempt("types the shortcut with an @ in front, like Chrome's built-in @bookmarks",
                [_set(t, keyword="@" + t.keyword, replace=t.replace)]),
    ]
    if t.replace is not None:
        misses += [Attempt("adds a second shortcut with the same letters and leaves the old one", [_set(t)]),
                   Attempt("edits another of the person's shortcuts instead",
                           [_set(t, keyword=t.other_keyword, replace=t.other_keyword)])]
    return Attempts(Attempt("adds (or edits) the site search as asked", [_set(t, replace=t.replace)]), misses)


WORKFLOW = family(
    NAME, KIT,
    description="Add a Chrome site search shortcut (name, shortcut, search address with %s), or point an existing "
                "shortcut at another site, keeping the other search engines.",
    knobs={"initial": ("new", "repoint")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
