"""chrome.homepage: set the home page to a stated address (from the New Tab page or replacing another
address) or back to the New Tab page; optionally also make the Home button visible.

In Chrome the home page lives under Settings > Appearance > Show home button: a choice between "New Tab
page" and a custom address (`homepage_is_newtabpage`, `homepage`, `browser.show_home_button` in Preferences).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.chrome import kit as chc

NAME = "chrome.homepage"
PHRASINGS = (
    "In Google Chrome, {what}.{button}",
    "Change Chrome's settings: {what}.{button} Don't change anything else.",
    "Please update my browser: in Chrome's appearance settings, {what}.{button}",
    "The Home button in Chrome should take me somewhere else. Please {what}.{button}",
    "Configure Google Chrome: {what}.{button} Leave the startup pages and bookmarks as they are.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "In Chrome, please {what}.{button}",
    "My Chrome home page isn't what I want. Could you {what}?{button}",
    "Please {what} in my Chrome settings.{button}",
    "Chrome's Home button should go somewhere else: {what}.{button}",
    "Can you {what} in Google Chrome?{button} Nothing else should change.",
)
BUTTON_TEXT = " Also make sure the Home button is shown in the toolbar."


class Params(TypedDict):
    target: Literal["url_from_ntp", "url_replace", "new_tab"]
    button: Literal["show", "unchanged"]


@dataclass(frozen=True)
class Target:
    url: str | None  # the custom home page address; None: the New Tab page
    show_button: bool | None  # True: the Home button must be shown; None: the task says nothing about it
    other_url: str  # a page the person has not bookmarked: the "different page" near-miss


def goal(rng: random.Random, params: Params, bookmarks: dict[str, Any]) -> Goal[chc.Profile, Target]:
    target, button = params["target"], params["button"]
    profile = chc.base_profile(bookmarks, rng, params)
    sites = [s["url"] for s in chc.pick_sites(bookmarks, rng, 2)]
    old = rng.choice([url for _, _, url in profile.links()])
    shown = False if button == "show" else rng.random() < 0.5
    if target == "url_from_ntp":
        profile = profile.with_prefs(homepage_is_newtabpage=True, **{"browser.show_home_button": shown})
        what = f"set the home page to {sites[0]} instead of the New Tab page"
    elif target == "url_replace":
        profile = profile.with_prefs(homepage=old, homepage_is_newtabpage=False, **{"browser.show_home_button": shown})
        what = f"change the home page from {old} to {sites[0]}"
    else:
        profile = profile.with_prefs(homepage=old, homepage_is_newtabpage=False, **{"browser.show_home_button": shown})
        what = f"make the Home button open the New Tab page instead of {old}"
    facts = {"what": what, "button": BUTTON_TEXT if button == "show" else ""}
    return Goal(profile, facts, Target(url=None if target == "new_tab" else sites[0],
                                       show_button=True if button == "show" else None, other_url=sites[1]))


def rubric(profile: chc.Profile, target: Target) -> list[Check]:
    args: dict[str, Any] = {"path": chc.PREFERENCES}
    if target.url is None:
        args["new_tab"] = True
        criterion = "The home page is the New Tab page."
    else:
        args["url"] = target.url
        criterion = f"The home page is the custom address {target.url} (not the New Tab page)."
    if target.show_button is not None:
        args["show_button"] = True
        criterion += " The Home button is shown."
    # Choosing the New Tab page in Chrome keeps the stored address: only a custom-address task may change it
    scope = ["homepage_is_newtabpage", *(["homepage"] if target.url is not None else []),
             *(["browser.show_home_button"] if target.show_button else [])]
    return [Check(id="homepage", criterion=criterion, primitive="chrome.homepage", args=args),
            chc.prefs_kept_check(profile.prefs, *scope)]


def solve(target: Target) -> Attempts:
    button = [chc.pref("browser.show_home_button", True)] if target.show_button else []
    if target.url is None:
        oracle = [chc.pref("homepage_is_newtabpage", True), *button]
        misses = [
            Attempt("sets the startup page to the New Tab page instead of the home page",
                    [chc.pref("session.restore_on_startup", 5), *button]),
            Attempt("clears the custom address but leaves the custom-address option selected",
                    [chc.pref("homepage", ""), chc.pref("homepage_is_newtabpage", False), *button]),
        ]
    else:
        oracle = [chc.pref("homepage_is_newtabpage", False), chc.pref("homepage", target.url), *button]
        misses = [
            Attempt("types the address but leaves the 'New Tab page' option selected",
                    [chc.pref("homepage_is_newtabpage", True), chc.pref("homepage", target.url), *button]),
            Attempt("opens the address on startup instead of making it the home page",
                    [chc.pref("session.restore_on_startup", 4), chc.pref("session.startup_urls", [target.url]),
                     *button]),
            Attempt("sets a different page as the home page",
                    [chc.pref("homepage_is_newtabpage", False), chc.pref("homepage", target.other_url), *button]),
        ]
    if target.show_button:
        misses.append(Attempt("sets the home page but leaves the Home button hidden",
                              [op for op in oracle if op not in button]))
    return Attempts(Attempt("sets the home page as asked", oracle), misses)


WORKFLOW = family(
    NAME, chc.SETTINGS,
    description="Set Chrome's home page to a stated address or to the New Tab page, optionally showing the Home "
                "button.",
    knobs={"target": ("url_from_ntp", "url_replace", "new_tab"), "button": ("show", "unchanged")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
