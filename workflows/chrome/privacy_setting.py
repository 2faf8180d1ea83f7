"""chrome.privacy_setting: change one privacy or security switch of Chrome's Settings > Privacy and security: send
Do Not Track or stop, Safe Browsing at Enhanced / Standard / No protection, third-party cookies blocked or allowed,
cookies and site data cleared (or no longer cleared) when all windows close.

Each switch lives in the profile's Preferences (see verifiers/checks/chrome_settings.py for the keys and their
defaults). The profile starts with the switch the other way, sometimes written out, sometimes left at Chrome's
default; the person's other settings must stay as they are.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers.ops.json_doc import get_at
from verifiers.checks.chrome_settings import COOKIE_MODE, COOKIES, DNT, SB_ENABLED, SB_ENHANCED
from workflows.chrome import kit as chc

NAME = "chrome.privacy_setting"
PHRASINGS = (
    "In Google Chrome's privacy and security settings, {what}.",
    "Change one Chrome setting: {what}. Leave every other setting, and the bookmarks, as they are.",
    "Open Chrome's Settings, go to Privacy and security and {what}.",
    "Update my browser's privacy settings: in Chrome, {what}. Don't change anything else.",
    "Please go into Google Chrome's settings and {what}; the rest of the configuration stays as it is.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Can you {what} in Chrome?",
    "I want my browser set up a bit differently: please {what} in Chrome.",
    "Please {what} in my Chrome, and leave my other settings alone.",
    "Could you {what}? It's somewhere in Chrome's privacy settings.",
    "In my Chrome browser, {what}, please.",
)
LOCAL_STATE = f"{chc.CONFIG}/Local State"


@dataclass(frozen=True)
class Change:
    what: str  # the request, in words of the lexicon's "privacy" domain
    key: str  # the Preferences key the change writes
    value: Any  # the value chrome://settings writes there
    before: tuple[Any, ...]  # initial values of `key` (None: unset, Chrome's default)
    slips: tuple[tuple[str, dict[str, Any]], ...]  # near-misses: (what the slip does, {key: value} it writes)


PRELOAD = ("net.network_prediction_options", 2)  # "Preload pages" turned off: the switch beside the cookie pages
LEAKS = "profile.password_manager_leak_detection"  # "Warn you if passwords are exposed", on the Safe Browsing page
SPELLING = "spellcheck.use_spelling_service"  # "Enhanced spell check": another 'enhanced' switch
CHANGES: dict[str, Change] = {
    "dnt_on": Change("turn on sending a Do Not Track request with my browsing traffic", DNT, True, (None, False), (
        ("turns off preloading pages instead", {PRELOAD[0]: PRELOAD[1]}),
        ("blocks third-party cookies instead (Do Not Track sits on the same page)", {COOKIE_MODE: 2}),
        ("writes the Do Not Track value as the text 'true', which Chrome ignores", {DNT: "true"}),
    )),
    "dnt_off": Change("stop sending the Do Not Track request with my browsing traffic", DNT, False, (True,), (
        ("allows third-party cookies instead (Do Not Track sits on the same page)", {COOKIE_MODE: 0}),
        ("turns off preloading pages instead", {PRELOAD[0]: PRELOAD[1]}),
        ("clears cookies and site data on exit instead", {COOKIES: 4}),
    )),
    "sb_enhanced": Change("switch Safe Browsing to Enhanced protection", SB_ENHANCED, True, (None, False), (
        ("turns on Enhanced spell check instead", {SPELLING: True}),
        ("turns on the exposed-password warning instead", {LEAKS: True}),
        ("marks protection enhanced but switches Safe Browsing off", {SB_ENHANCED: True, SB_ENABLED: False}),
    )),
    "sb_standard": Change("switch Safe Browsing back to Standard protection", SB_ENHANCED, False, (True,), (
        ("switches Safe Browsing off altogether", {SB_ENHANCED: False, SB_ENABLED: False}),
        ("turns off the exposed-password warning instead", {LEAKS: False}),
        ("turns off Enhanced spell check instead", {SPELLING: False}),
    )),
    "sb_off": Change("turn Safe Browsing off completely (No protection)", SB_ENABLED, False, (None, True), (
        ("drops Enhanced protection but keeps Standard protection on", {SB_ENHANCED: False}),
        ("turns off the exposed-password warning instead", {LEAKS: False}),
        ("writes the Safe Browsing switch as the text 'false', which Chrome ignores", {SB_ENABLED: "false"}),
    )),
    "tpc_block": Change("block third-party cookies in all windows, not just Incognito ones", COOKIE_MODE, 2,
                        (None, 0), (
        ("blocks third-party cookies in Incognito windows only", {COOKIE_MODE: 1}),
        ("blocks every cookie, first-party ones too", {COOKIES: 2}),
        ("turns on Do Not Track instead", {DNT: True}),
    )),
    "tpc_allow": Change("allow third-party cookies again", COOKIE_MODE, 0, (2,), (
        ("blocks third-party cookies in Incognito windows only", {COOKIE_MODE: 1}),
        ("turns off Do Not Track instead", {DNT: False}),
        ("allows every site's cookies in the general cookie setting instead", {COOKIES: 1}),
    )),
    "exit_clear": Change("set things up so my cookies and site data get cleared whenever I close all windows",
                         COOKIES, 4, (None, 1), (
        ("blocks every cookie instead of clearing them on exit", {COOKIES: 2}),
        ("blocks third-party cookies instead", {COOKIE_MODE: 2}),
        ("writes the cookie setting as the text '4', which Chrome ignores", {COOKIES: "4"}),
    )),
    "exit_keep": Change("stop clearing my cookies and site data when I close all windows", COOKIES, 1,
                        (4,), (
        ("blocks every cookie instead", {COOKIES: 2}),
        ("allows third-party cookies instead", {COOKIE_MODE: 0}),
        ("blocks third-party cookies instead", {COOKIE_MODE: 2}),
    )),
}
CRITERIA = {
    "dnt_on": "Chrome sends a Do Not Track request with browsing traffic.",
    "dnt_off": "Chrome no longer sends a Do Not Track request.",
    "sb_enhanced": "Safe Browsing is at Enhanced protection.",
    "sb_standard": "Safe Browsing is at Standard protection (on, not enhanced).",
    "sb_off": "Safe Browsing is off (No protection).",
    "tpc_block": "Third-party cookies are blocked in every window.",
    "tpc_allow": "Third-party cookies are allowed.",
    "exit_clear": "Cookies and site data are cleared when all Chrome windows close.",
    "exit_keep": "Cookies and site data are no longer cleared when Chrome closes: sites keep them.",
}
#: Safe Browsing's initial level, by change: both of its keys are written when the level is not the default.
SB_BEFORE = {"sb_enhanced": {SB_ENABLED: True}, "sb_standard": {SB_ENABLED: True}, "sb_off": {SB_ENHANCED: False}}


class Params(TypedDict):
    change: Literal["dnt_on", "dnt_off", "sb_enhanced", "sb_standard", "sb_off", "tpc_block", "tpc_allow",
                    "exit_clear", "exit_keep"]


@dataclass(frozen=True)
class Target:
    change: str


def goal(rng: random.Random, params: Params, bookmarks: dict[str, Any]) -> Goal[chc.Profile, Target]:
    name = params["change"]
    change = CHANGES[name]
    profile = chc.base_profile(bookmarks, rng, params)
    before = rng.choice(change.before)
    prefs: dict[str, Any] = {}
    if name == "sb_standard":  # Enhanced protection is both keys on
        prefs[SB_ENABLED] = True
    elif name in SB_BEFORE and (before is not None or rng.random() < 0.5):
        prefs.update(SB_BEFORE[name])
    if before is not None:
        prefs[change.key] = before
    elif name.startswith("sb_") and SB_ENHANCED not in prefs and rng.random() < 0.5:
        prefs[SB_ENHANCED] = False  # Standard protection written out, as after a visit to the page
    profile = profile.with_prefs(**prefs)
    if name.startswith("sb_") and get_at(profile.prefs, SB_ENHANCED) is True and name != "sb_standard":
        profile = profile.with_prefs(**{SB_ENHANCED: False})  # a lived-in profile's Enhanced protection undone
    return Goal(profile, {"what": change.what}, Target(name))


def rubric(profile: chc.Profile, target: Target) -> list[Check]:
    change = CHANGES[target.change]
    return [Check("privacy", CRITERIA[target.change], "chrome.privacy",
                  {"path": chc.PREFERENCES, "change": target.change}),
            # the frame leaves out what it counts as Chrome's bookkeeping; the settings it does not see stay too
            chc.prefs_kept_check(profile.prefs, change.key, *(["safebrowsing"] if target.change == "sb_off" else []))]


def solve(target: Target) -> Attempts:
    change = CHANGES[target.change]
    oracle = [chc.pref(change.key, change.value)]
    if target.change == "sb_off":
        oracle.append(chc.pref(SB_ENHANCED, False))
    misses = [Attempt(what, [chc.pref(key, value) for key, value in writes.items()]) for what, writes in change.slips]
    misses.append(Attempt("changes the setting in Chrome's Local State file instead of the profile's Preferences",
                          [{"op": "json.set", "path": LOCAL_STATE, "key": change.key, "value": change.value}]))
    return Attempts(Attempt(f"{change.what} in Preferences", oracle), misses)


WORKFLOW = family(
    NAME, chc.SETTINGS,
    description="Change one of Chrome's privacy and security settings (Do Not Track, Safe Browsing level, "
                "third-party cookies, clearing cookies on exit), keeping every other setting.",
    knobs={"change": tuple(CHANGES)},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
