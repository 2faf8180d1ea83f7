"""chrome.profile_name: give the Chrome profile a stated name (Settings > You and Google > Customize your Chrome
profile), the label Chrome shows on the profile button and in the profile picker.

The name lives in the profile's Preferences (`profile.name`, with `profile.using_default_name` false once a person
has chosen one); the profile starts either with Chrome's generated name ("Person 1") or with a name chosen earlier.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from workflows.chrome import kit as chc

NAME = "chrome.profile_name"
PHRASINGS = (
    "In Google Chrome, rename the profile to '{name}'.",
    "Change the name of my Chrome profile{was} to '{name}'. Leave the other settings as they are.",
    "Open Chrome's 'Customize your Chrome profile' page and set the profile name to '{name}'.",
    "Please name this Chrome profile '{name}'{was}; nothing else should change.",
    "Configure Google Chrome so that the profile is called '{name}'.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "{why} Can you rename my Chrome profile to '{name}'?",
    "Please call my Chrome profile '{name}'{was} from now on, so I can tell it apart.",
    "{why} Please name this profile '{name}' in Chrome.",
    "Could you change my Chrome profile's name to '{name}'?",
    "I'd like my Chrome profile to be named '{name}'{was}.",
)
NAMES = ("Personal", "Work", "Side Projects", "Family", "Research", "Freelance", "Home Office", "Travel Planning",
         "Volunteering", "Studio")
WHY = "I use more than one Chrome profile and keep picking the wrong one."
LOCAL_STATE = f"{chc.CONFIG}/Local State"


class Params(TypedDict):
    initial: Literal["default", "custom"]


@dataclass(frozen=True)
class Target:
    name: str
    initial: str  # the name the profile has at the start
    generated: bool  # the start is Chrome's generated name (`profile.using_default_name` true)


def goal(rng: random.Random, params: Params, bookmarks: dict[str, Any]) -> Goal[chc.Profile, Target]:
    profile = chc.base_profile(bookmarks, rng, params)
    old = str(bookmarks["profile_name"])
    name = rng.choice([n for n in NAMES if n.casefold() != old.casefold()])
    if params["initial"] == "default":
        old = f"Person {rng.randint(1, 3)}"
        profile = profile.with_prefs(**{"profile.name": old, "profile.using_default_name": True})
        was = ""
    else:
        profile = profile.with_prefs(**{"profile.name": old, "profile.using_default_name": False})
        was = f" (now '{old}')"
    return Goal(profile, {"name": name, "was": was, "why": WHY}, Target(name, old, params["initial"] == "default"))


def rubric(profile: chc.Profile, target: Target) -> list[Check]:
    return [Check("name", f"The Chrome profile is named '{target.name}'.", "chrome.profile_name",
                  {"path": chc.PREFERENCES, "name": target.name}),
            # the frame leaves out what it counts as Chrome's bookkeeping; the settings it does not see stay too
            chc.prefs_kept_check(profile.prefs, "profile.name", "profile.using_default_name")]


def solve(target: Target) -> Attempts:
    t = target
    oracle = [chc.pref("profile.name", t.name), chc.pref("profile.using_default_name", False)]
    dropped = t.name[:-2] + t.name[-1]
    misses = [
        Attempt("writes the name into Chrome's Local State file instead of the profile's Preferences",
                [{"op": "json.set", "path": LOCAL_STATE, "key": "profile.info_cache.Default.name", "value": t.name}]),
        Attempt("types the name in lower case", [chc.pref("profile.name", t.name.lower()),
                                                 chc.pref("profile.using_default_name", False)]),
        Attempt(f"types the name with a letter missing ('{dropped}')",
                [chc.pref("profile.name", dropped), chc.pref("profile.using_default_name", False)]),
    ]
    if t.generated:
        misses.append(Attempt("sets the name but leaves Chrome using its generated name",
                              [chc.pref("profile.name", t.name)]))
    return Attempts(Attempt(f"names the profile '{t.name}'", oracle), misses)


WORKFLOW = family(
    NAME, chc.SETTINGS,
    description="Give the Chrome profile a stated name, from Chrome's generated name or an earlier one.",
    knobs={"initial": ("default", "custom")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
