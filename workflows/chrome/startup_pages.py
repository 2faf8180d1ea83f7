"""chrome.startup_pages: choose what Chrome opens on startup.

Settings > On startup offers "Open the New Tab page" (`session.restore_on_startup` 5), "Continue where you
left off" (1) and "Open a specific page or set of pages" (4, with `session.startup_urls`). Targets: open one,
two or three stated pages; add a page to the existing set; replace the set; or switch to one of the other modes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.chrome import kit as chc

NAME = "chrome.startup_pages"
PAGES = {"one_page": 1, "two_pages": 2, "three_pages": 3}
PHRASINGS = (
    "In Google Chrome's startup settings, {what}.",
    "Change what Chrome does when it starts: {what}. Leave everything else unchanged.",
    "Please configure Chrome's 'On startup' setting so that it will {what_plain}.",
    "When I launch Chrome it doesn't open what I want. Fix the startup behaviour: {what}.",
    "Using chrome://settings/onStartup, {what}.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Could you fix my Chrome startup? It should {what_plain}.",
    "Please set up Chrome's startup so that it will {what_plain}.",
    "Please change how my browser starts: Chrome should {what_plain}.",
    "Chrome doesn't open what I want when it launches. Make it {what_plain}.",
    "Set up Google Chrome's startup so it will {what_plain}; leave my other settings as they are.",
)


def _session(mode: int, urls: list[str]) -> dict[str, Any]:
    return {"session.restore_on_startup": mode, "session.startup_urls": urls}


class Params(TypedDict):
    target: Literal["one_page", "two_pages", "three_pages", "add_page", "replace_pages", "continue", "new_tab"]


@dataclass(frozen=True)
class Target:
    mode: str  # "urls" (open stated pages), "continue" or "new_tab"
    urls: list[str] | None  # the pages Chrome must open, in order (mode "urls" only)
    spare: str  # a page the person has not bookmarked, for the "one page too many" near-misses
    initial: dict[str, Any]  # the initial `session` Preferences (restore_on_startup, startup_urls)


def goal(rng: random.Random, params: Params, bookmarks: dict[str, Any]) -> Goal[chc.Profile, Target]:
    target = params["target"]
    profile = chc.base_profile(bookmarks, rng, params)
    fresh = [s["url"] for s in chc.pick_sites(bookmarks, rng, 3)]
    old = rng.sample([url for _, _, url in profile.links()], 2)
    urls: list[str] | None
    if target in PAGES:
        urls = fresh[:PAGES[target]]
        profile = profile.with_prefs(**_session(rng.choice([1, 5]), []))
        what = f"make it open {'this page' if len(urls) == 1 else 'these pages'}: {chc.join_and(urls)}"
        plain = f"open {chc.join_and(urls)} every time it starts"
        mode = "urls"
    elif target == "add_page":
        kept = old[:rng.randint(1, 2)]
        profile = profile.with_prefs(**_session(4, kept))
        them = "that page" if len(kept) == 1 else "those"
        what = f"it currently opens {chc.join_and(kept)}; keep {them} and add {fresh[0]}"
        plain = f"open {chc.join_and([*kept, fresh[0]])} at startup (it now opens only {chc.join_and(kept)})"
        mode, urls = "urls", [*kept, fresh[0]]
    elif target == "replace_pages":
        profile = profile.with_prefs(**_session(4, old))
        what = f"replace the pages it opens now ({chc.join_and(old)}) with {chc.join_and(fresh[:2])}"
        plain = f"open only {chc.join_and(fresh[:2])} at startup, no longer {chc.join_and(old)}"
        mode, urls = "urls", fresh[:2]
    else:
        pages = rng.random() < 0.6
        other = 4 if pages else (5 if target == "continue" else 1)
        profile = profile.with_prefs(**_session(other, old if pages else []))
        what = ("choose 'Continue where you left off' so the tabs of the last session come back" if target == "continue"
                else "choose 'Open the New Tab page'")
        plain = ("continue where I left off, restoring the previous session's tabs" if target == "continue"
                 else "open just the New Tab page")
        mode, urls = target, None
    return Goal(profile, {"what": what, "what_plain": plain},
                Target(mode, urls, spare=fresh[2], initial=profile.prefs["session"]))


def rubric(profile: chc.Profile, target: Target) -> list[Check]:
    args: dict[str, Any] = {"path": chc.PREFERENCES, "mode": target.mode}
    if target.mode == "urls":
        args["urls"] = target.urls
        criterion = f"On startup Chrome opens exactly these pages: {', '.join(target.urls or [])}."
    else:
        criterion = {"continue": "On startup Chrome continues where it left off.",
                     "new_tab": "On startup Chrome opens the New Tab page."}[target.mode]
    # Choosing another startup mode in Chrome keeps the list of pages: only a pages task may change it
    scope = "session" if target.mode == "urls" else "session.restore_on_startup"
    return [Check(id="startup", criterion=criterion, primitive="chrome.startup_pages", args=args),
            chc.prefs_kept_check(profile.prefs, scope)]


def _set(mode: int, urls: list[str] | None = None) -> list[dict[str, Any]]:
    ops = [chc.pref("session.restore_on_startup", mode)]
    return ops + ([chc.pref("session.startup_urls", urls)] if urls is not None else [])


def solve(params: Params, target: Target) -> Attempts:
    initial = target.initial
    urls = target.urls or []
    if params["target"] in PAGES:
        oracle = _set(4, urls)
        misses = [Attempt("enters the pages but leaves the startup option as it was",
                          _set(initial["restore_on_startup"], urls)),
                  Attempt("adds one page too many", _set(4, [*urls, target.spare]))]
        if len(urls) > 1:
            misses.append(Attempt("leaves out the last page", _set(4, urls[:-1])))
        else:
            misses.append(Attempt("makes the page the home page instead",
                                  [chc.pref("homepage_is_newtabpage", False), chc.pref("homepage", urls[0])]))
    elif params["target"] == "replace_pages":
        oracle = _set(4, urls)
        misses = [Attempt("adds the new pages but keeps the old ones too",
                          _set(4, [*initial["startup_urls"], *urls])),
                  Attempt("replaces the old pages with only the first new one", _set(4, urls[:1])),
                  Attempt("removes one old page and adds the new ones",
                          _set(4, [*initial["startup_urls"][1:], *urls]))]
    elif params["target"] == "add_page":
        oracle = _set(4, urls)
        misses = [Attempt("replaces the existing pages with the new one", _set(4, urls[-1:])),
                  Attempt("adds the page as the home page instead",
                          [chc.pref("homepage_is_newtabpage", False), chc.pref("homepage", urls[-1])])]
    elif params["target"] == "continue":
        oracle = _set(1)
        misses = [Attempt("chooses 'Open the New Tab page'", _set(5)),
                  Attempt("chooses 'Open a specific page or set of pages'", _set(4, [target.spare]))]
    else:
        oracle = _set(5)
        misses = [Attempt("chooses 'Continue where you left off'", _set(1)),
                  Attempt("makes the New Tab page the home page instead", [chc.pref("homepage_is_newtabpage", True)])]
    return Attempts(Attempt("sets the startup behaviour as asked", oracle), misses)


WORKFLOW = family(
    NAME, chc.SETTINGS,
    description="Set what Chrome opens on startup: stated pages, added or replaced pages, the previous session or "
                "the New Tab page.",
    knobs={"target": ("one_page", "two_pages", "three_pages", "add_page", "replace_pages", "continue", "new_tab")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
