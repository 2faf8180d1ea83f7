"""chrome.clear_history: remove one site (every page, on any of its subdomains) or one page from Chrome's browsing
history, keeping everything else the history holds.

The profile gets a History database (preparers/ops/chrome_history.py) of the person's bookmarked sites, a few more
pages of each, some sites they visited without bookmarking them, and address-bar searches. The site to forget is
one they never bookmarked, visited on two of its host names (www.site and docs.site): a person who removes only
what the History page's search for one host shows leaves the other behind.

No frame reads the History database (it is Chrome's own, beside the files the frame knows), so the rubric guards
the history it keeps itself (`chrome.history_kept`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, Literal, TypedDict

from kit.axes import pick
from kit.dag import NodeContext, node
from kit.family import Attempt, Attempts, Goal, family
from kit.model import Asset, Check
from preparers.chrome import EPOCH_DELTA
from preparers.ops.chrome_history import build_history, host_of, on_site
from workflows.chrome import kit as chc

NAME = "chrome.clear_history"
HISTORY = f"{chc.PROFILE_DIR}/History"
PHRASINGS = (
    "In Google Chrome, {what}. Keep the rest of the browsing history.",
    "Open Chrome's History page and {what}; every other entry stays.",
    "Clean up my Chrome history: {what}. Don't clear anything else.",
    "Using Google Chrome's history, {what}. The other sites and pages must remain in the history.",
    "Please {what} in Chrome, leaving the other history entries as they are.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Can you {what} in Chrome? Keep the rest of my history.",
    "{why} Please {what}.",
    "I'd rather Chrome forgot some of my browsing: {what}, and nothing else.",
    "{why} Could you {what} in Chrome without clearing anything else?",
    "Please {what} in Chrome, but leave the rest of my history alone.",
)
SUBDOMAINS = ("docs", "help", "blog", "support", "community", "news", "shop", "status")
PAGES = ("pricing", "about", "login", "account/settings", "search?q=export", "features", "faq", "downloads",
         "changelog", "getting-started", "contact", "careers", "privacy", "blog/2024/roadmap", "help/billing")
SEARCHES = ("weather this weekend", "how to export bookmarks chrome", "cheap flights lisbon",
            "python sort dict by value", "best budget monitor 2024", "sourdough starter ratio", "train times",
            "convert pdf to word")
LOOKALIKE_SUFFIXES = ("hq", "app", "fans", "status", "community")
WHY = {"site": "I don't want that site showing up in my address bar suggestions anymore.",
       "page": "That one page keeps popping up in my suggestions."}
#: Difficulty axes: a longer history (more pages of each site), and sites whose names look like the one to forget.
AXES: dict[str, tuple[Any, ...]] = {"history": ("usual", "long"), "lookalikes": ("none", "some")}


@dataclass(frozen=True)
class Profile(chc.Profile):
    """The Chrome profile with its History database (the entries `build_history` takes)."""

    history: tuple[dict[str, Any], ...] = ()


@node("prepare", "prepare", ("profile",), ("assets", "launch"))
def prepare(ctx: NodeContext, values: Any) -> Any:
    out = dict(chc.prepare.fn(ctx, values))
    profile: Profile = values["profile"]
    out["assets"] = [*out["assets"], Asset(HISTORY, build_history(profile.history), app="chrome")]
    return out


KIT = replace(chc.CHROME, prepare=prepare, axes=AXES)


class Params(TypedDict):
    scope: Literal["site", "page"]


@dataclass(frozen=True)
class Target:
    site: str | None  # the site to forget (a host name; its subdomains go too)
    url: str | None  # or the one page to forget
    hosts: tuple[str, ...]  # the site's host names in the history
    sibling: str  # another page of the same site: the "wrong page" near-miss
    neighbour: str  # another site in the history: the "wrong site" near-miss
    lookalikes: tuple[str, ...]  # hosts whose names contain the site's name, but are other sites


def _site(url: str) -> str:
    """The site of an address: its host without a leading www. (and a two-letter country's second level kept)."""
    labels = host_of(url).removeprefix("www.").split(".")
    keep = 3 if len(labels) > 2 and len(labels[-1]) == 2 and labels[-2] in ("co", "com", "org", "ac", "gov") else 2
    return ".".join(labels[-keep:])


def _title(page: str, name: str) -> str:
    words = page.split("?")[0].rstrip("/").rsplit("/", 1)[-1].replace("-", " ")
    return f"{words.capitalize() or 'Home'} - {name}"


def goal(rng: random.Random, params: Params, bookmarks: dict[str, Any]) -> Goal[Profile, Target]:
    base = chc.base_profile(bookmarks, rng)
    long = pick(params, "history", AXES) == "long"
    now = rng.uniform(1_700_000_000, 1_717_000_000)

    def visits(count: int) -> list[int]:
        return sorted(int((now - rng.uniform(0, 60 * 86_400) + EPOCH_DELTA) * 1_000_000) for _ in range(count))

    entries: list[dict[str, Any]] = []
    taken: set[str] = set()

    def add(url: str, title: str, typed: int = 0, search: str | None = None) -> None:
        if url not in taken:
            taken.add(url)
            entries.append({"url": url, "title": title, "visits": visits(rng.randint(1, 6)), "typed": typed,
                            "search": search})

    linked = base.links()
    for _, name, url in linked:
        add(url, name, typed=rng.randint(0, 2))
        for page in rng.sample(PAGES, rng.randint(1, 3) if long else rng.randint(0, 1)):
            add(f"https://{host_of(url)}/{page}", _title(page, name))
    used = {_site(url) for _, _, url in linked}
    extra = [e for e in bookmarks["extra"] if _site(e["url"]) not in used]
    extra = list({_site(e["url"]): e for e in extra}.values())  # one extra per site
    if len(extra) < 2:  # the person bookmarked nearly every kind of site: take the unbookmarked pages as they are
        extra = list({_site(e["url"]): e for e in bookmarks["extra"]}.values())
    chosen, neighbour = rng.sample(extra, 2)
    site = _site(chosen["url"])
    main = host_of(chosen["url"])
    other_host = f"{rng.choice([s for s in SUBDOMAINS if f'{s}.{site}' != main])}.{site}"
    pages = [chosen["url"], *(f"https://{main}/{p}" for p in rng.sample(PAGES, 3 if long else 2)),
             *(f"https://{other_host}/{p}" for p in rng.sample(PAGES, 2))]
    for e in extra:
        if e is chosen:
            continue
        add(e["url"], e["name"], typed=rng.randint(0, 1))
        if long:
            for page in rng.sample(PAGES, rng.randint(1, 2)):
                add(f"https://{host_of(e['url'])}/{page}", _title(page, e["name"]))
    for term in rng.sample(SEARCHES, 3):
        add(f"https://www.google.com/search?q={term.replace(' ', '+')}", f"{term} - Google Search", typed=1,
            search=term)
    lookalikes: list[str] = []
    if pick(params, "lookalikes", AXES) == "some":
        label = site.split(".")[0]
        for suffix in rng.sample(LOOKALIKE_SUFFIXES, 2):
            host = f"www.{label}{suffix}.com"
            lookalikes.append(host)
            add(f"https://{host}/", f"{label.capitalize()}{suffix.capitalize()}")
    for i, url in enumerate(pages):
        add(url, chosen["name"] if i == 0 else _title(url.split("/", 3)[3], chosen["name"]), typed=int(i == 0))
    rng.shuffle(entries)  # the history's order is its rows' order: sites interleaved as they were visited
    profile = Profile(base.bookmarks, base.prefs, base.nest, history=tuple(entries))
    hosts = (main, other_host)
    if params["scope"] == "site":
        what = f"remove every page of {site} (on any of its subdomains) from my browsing history"
        target = Target(site, None, hosts, pages[1], neighbour["url"], tuple(lookalikes))
    else:
        url, sibling = rng.sample(pages[1:], 2)
        what = f"remove the page {url} (just that page, not the rest of the site) from my browsing history"
        target = Target(None, url, hosts, sibling, neighbour["url"], tuple(lookalikes))
    return Goal(profile, {"what": what, "why": WHY[params["scope"]]}, target)


def rubric(profile: Profile, target: Target) -> list[Check]:
    gone = (lambda url: on_site(url, target.site)) if target.site else (lambda url: url == target.url)
    kept = [[e["url"], len(e["visits"])] for e in profile.history if not gone(e["url"])]
    what = f"any page of {target.site}" if target.site else f"the page {target.url}"
    args: dict[str, Any] = {"path": HISTORY, **({"site": target.site} if target.site else {"url": target.url})}
    return [Check("removed", f"Chrome's browsing history no longer holds {what}: no visit, no address suggested.",
                  "chrome.history_removed", args),
            Check("history_kept", "Every other page in the history keeps its visits.", "chrome.history_kept",
                  {"path": HISTORY, "visits": kept})]


def _delete(**args: Any) -> dict[str, Any]:
    return {"op": "chromehist.delete", "path": HISTORY, **args}


def solve(target: Target) -> Attempts:
    misses = [Attempt("clears the whole browsing history", [_delete(everything=True)])]
    if target.site:
        oracle = _delete(site=target.site)
        misses += [
            Attempt(f"removes only {target.hosts[0]}, missing the pages on {target.hosts[1]}",
                    [_delete(hosts=[target.hosts[0]])]),
            Attempt("deletes the site's addresses but leaves their visits behind",
                    [_delete(site=target.site, keep_visits=True)]),
            Attempt("removes another site instead", [_delete(site=_site(target.neighbour))]),
        ]
        if target.lookalikes:
            misses.append(Attempt("also removes the sites whose names merely contain the site's name",
                                  [oracle, _delete(hosts=list(target.lookalikes))]))
    else:
        oracle = _delete(url=target.url)
        misses += [
            Attempt("removes every page of the site, not just the one asked", [_delete(hosts=list(target.hosts))]),
            Attempt("removes another page of the same site instead", [_delete(url=target.sibling)]),
            Attempt("deletes the page's visits but leaves the address suggested",
                    [_delete(url=target.url, keep_urls=True)]),
        ]
    return Attempts(Attempt("removes exactly what was asked from the history", [oracle]), misses)


WORKFLOW = family(
    NAME, KIT,
    description="Remove one site (every page, on any subdomain) or one page from Chrome's browsing history, keeping "
                "the rest of the history.",
    knobs={"scope": ("site", "page")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
