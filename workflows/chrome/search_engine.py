"""chrome.search_engine: make one of Chrome's built-in search engines the default.

The engines are the ones Chrome lists for en-US under Settings > Search engine; choosing one writes its data
to `default_search_provider_data.template_url_data` in Preferences (no such entry means Google). The
profile starts with a different default.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.chrome import kit as chc

NAME = "chrome.search_engine"
#: Search engines Chrome ships for en-US: key -> the template_url_data Chrome writes when one is chosen.
ENGINES: dict[str, dict[str, Any]] = {
    "google": {"short_name": "Google", "keyword": "google.com", "prepopulate_id": 1,
               "url": "{google:baseURL}search?q={searchTerms}&{google:RLZ}{google:originalQueryForSuggestion}"
                      "{google:assistedQueryStats}{google:searchFieldtrialParameter}ie={inputEncoding}",
               "favicon_url": "https://www.google.com/images/branding/product/ico/googleg_lodp.ico"},
    "bing": {"short_name": "Bing", "keyword": "bing.com", "prepopulate_id": 3,
             "url": "https://www.bing.com/search?q={searchTerms}&PC=U316&FORM=CHROMN",
             "favicon_url": "https://www.bing.com/sa/simg/bing_p_rr_teal_min.ico"},
    "yahoo": {"short_name": "Yahoo!", "keyword": "yahoo.com", "prepopulate_id": 2,
              "url": "https://search.yahoo.com/search{google:pathWildcard}?ei={inputEncoding}&fr=crmas&p={searchTerms}",
              "favicon_url": "https://search.yahoo.com/favicon.ico"},
    "duckduckgo": {"short_name": "DuckDuckGo", "keyword": "duckduckgo.com", "prepopulate_id": 92,
                   "url": "https://duckduckgo.com/?q={searchTerms}", "favicon_url": "https://duckduckgo.com/favicon.ico"},
    "ecosia": {"short_name": "Ecosia", "keyword": "ecosia.org", "prepopulate_id": 101,
               "url": "https://www.ecosia.org/search?q={searchTerms}&addon=opensearch",
               "favicon_url": "https://cdn.ecosia.org/assets/images/ico/favicon.ico"},
}
SITES = {"google": "www.google.com", "bing": "www.bing.com", "yahoo": "www.yahoo.com",
         "duckduckgo": "duckduckgo.com", "ecosia": "www.ecosia.org"}
PHRASINGS = (
    "Make {name} (shortcut: {keyword}) the default search engine in Google Chrome.",
    "In Chrome's settings, change the search engine used in the address bar to {name} ({keyword}).",
    "I'd like my Chrome address-bar searches to go to {name} instead of {current}. Set {name}, whose shortcut is "
    "{keyword}, as the default search engine.",
    "Please switch Chrome's default search engine from {current} to {name} (the entry with the shortcut {keyword}).",
    "Configure Google Chrome so that {name} ({keyword}) is the default search engine. Don't change the home page.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Please make {name} ({keyword}) my default search engine in Chrome instead of {current}.",
    "Can you switch Chrome's address-bar searches from {current} to {name} ({keyword})?",
    "I want {name}, {keyword}, as the default search engine in Google Chrome.",
    "Chrome still searches with {current}; please change the default to {name} ({keyword}).",
    "Set Chrome to search with {name} ({keyword}) by default; leave the rest of my settings alone.",
)


class Params(TypedDict):
    engine: Literal["google", "bing", "yahoo", "duckduckgo", "ecosia"]


@dataclass(frozen=True)
class Target:
    engine: str  # the key in ENGINES to make the default
    wrong: str  # another engine (neither the asked one nor the initial default): a plausible mis-click


def engine_ops(engine: str) -> list[dict[str, Any]]:
    """What Chrome writes when `engine` is made the default search engine."""
    return [chc.pref("default_search_provider_data.template_url_data", dict(ENGINES[engine]))]


def goal(rng: random.Random, params: Params, bookmarks: dict[str, Any]) -> Goal[chc.Profile, Target]:
    engine = params["engine"]
    profile = chc.base_profile(bookmarks, rng, params)
    others = [e for e in ENGINES if e != engine]
    if engine != "google" and rng.random() < 0.5:
        current = "google"
    else:
        current = rng.choice([e for e in others if e != "google"])
    if current != "google":
        profile = profile.with_prefs(**{"default_search_provider_data.template_url_data": dict(ENGINES[current])})
    data = ENGINES[engine]
    facts = {"name": data["short_name"], "keyword": data["keyword"], "current": ENGINES[current]["short_name"]}
    wrong = rng.choice([e for e in others if e != current])
    return Goal(profile, facts, Target(engine, wrong))


def rubric(profile: chc.Profile, target: Target) -> list[Check]:
    data = ENGINES[target.engine]
    check = Check(id="engine", criterion=f"Chrome's default search engine is {data['short_name']} ({data['keyword']}).",
                  primitive="chrome.search_engine",
                  args={"path": chc.PREFERENCES, "name": data["short_name"], "keyword": data["keyword"]})
    return [check, chc.prefs_kept_check(profile.prefs, "default_search_provider_data")]


def solve(target: Target) -> Attempts:
    engine, wrong = target.engine, target.wrong
    site = f"https://{SITES[engine]}/"
    return Attempts(
        Attempt(f"makes {engine} the default search engine", engine_ops(engine)),
        [Attempt(f"picks the wrong entry ({ENGINES[wrong]['short_name']})", engine_ops(wrong)),
         Attempt("sets the search engine's site as the home page instead",
                 [chc.pref("homepage_is_newtabpage", False), chc.pref("homepage", site)])],
    )


WORKFLOW = family(
    NAME, chc.SETTINGS,
    description="Make a stated built-in search engine Chrome's default search engine.",
    knobs={"engine": tuple(ENGINES)},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
