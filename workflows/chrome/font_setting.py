"""chrome.font_setting: set one of Chrome's Settings > Appearance > Customize fonts: the font size, the minimum font
size, or the standard, serif, sans-serif or fixed-width font.

`initial` decides whether the profile still has Chrome's default for it (no key in Preferences) or a value the person
chose earlier. The keys and defaults are in verifiers/checks/chrome_settings.py (`FONTS`).
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, replace
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from verifiers.checks.chrome_settings import FONTS
from workflows.chrome import kit as chc

NAME = "chrome.font_setting"
PHRASINGS = (
    "In Google Chrome, open Settings > Appearance > Customize fonts and set the {label} to {value}.",
    "Change Chrome's {label} to {value}. Leave every other setting as it is.",
    "Configure Google Chrome so that its {label} is {value}; nothing else in the settings changes.",
    "In Chrome's appearance settings, make the {label} {value}.",
    "Update my browser: Chrome's {label} should be {value} (Customize fonts). Don't touch the other fonts.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Can you set the {label} in my Chrome to {value}?",
    "I'd like Chrome's {label} to be {value}, please.",
    "{why} Please change Chrome's {label} to {value}.",
    "Please make {value} the {label} in Chrome and keep my other settings.",
    "{why} Could you set Chrome's {label} to {value}?",
)


@dataclass(frozen=True)
class Font:
    values: tuple[Any, ...]  # what a task may ask for (never the default)
    why: str  # the person's reason, in the natural register
    slips: tuple[str, ...]  # the settings a person confuses with this one (names of FONTS, or "fixed_size")


#: fonts an Ubuntu desktop has installed (Chrome's font lists offer the installed ones)
SANS = ("DejaVu Sans", "Liberation Sans", "Noto Sans", "Ubuntu", "Carlito")
SERIF = ("DejaVu Serif", "Liberation Serif", "Noto Serif", "Caladea")
MONO = ("DejaVu Sans Mono", "Liberation Mono", "Noto Sans Mono", "Ubuntu Mono")
SETTINGS: dict[str, Font] = {
    "size": Font((12, 18, 20, 22, 24), "Web pages are hard to read at this size.", ("minimum", "fixed_size")),
    "minimum": Font((10, 11, 12, 13, 14), "Some sites use tiny print.", ("size", "fixed_size")),
    "standard": Font((*SANS, *SERIF), "I prefer a different look for web pages.", ("sans", "serif")),
    "serif": Font(SERIF, "Articles should look like a printed page.", ("standard", "sans")),
    "sans": Font(SANS, "I want a cleaner sans-serif look.", ("standard", "serif")),
    "fixed": Font(MONO, "Code snippets on web pages look cramped.", ("standard", "sans")),
}
FIXED_SIZE = "webkit.webprefs.default_fixed_font_size"  # the fixed-width font's own size (default 13)
LOCAL_STATE = f"{chc.CONFIG}/Local State"


class Params(TypedDict):
    setting: Literal["size", "minimum", "standard", "serif", "sans", "fixed"]
    initial: Literal["default", "custom"]


@dataclass(frozen=True)
class Target:
    value: Any  # the asked value
    other: Any  # a neighbouring value: the "wrong value" near-miss


def goal(rng: random.Random, params: Params, bookmarks: dict[str, Any]) -> Goal[chc.Profile, Target]:
    name = params["setting"]
    spec, (key, _, label) = SETTINGS[name], FONTS[name]
    profile = chc.base_profile(bookmarks, rng, params)
    value = rng.choice(spec.values)
    others = [v for v in spec.values if v != value]
    if isinstance(value, int):  # a neighbouring size: the slip of one step on the list
        others.sort(key=lambda v: abs(v - value))
    other = others[0] if isinstance(value, int) else rng.choice(others)
    # the person's earlier choice; the value checks against none of the settings a task confuses with it
    before = rng.choice([v for v in others if v != other]) if params["initial"] == "custom" else None
    slots = [FONTS[s][0] for s in spec.slips if s in FONTS] + [FIXED_SIZE]
    for slot in (key, *slots):  # a lived-in profile may carry a font size already (`customized`): start clean
        profile = _without(profile, slot)
    if before is not None:
        profile = profile.with_prefs(**{key: before})
    shown = f"{value} px" if isinstance(value, int) else value
    return Goal(profile, {"label": label, "value": shown, "why": spec.why}, Target(value, other))


def _without(profile: chc.Profile, key: str) -> chc.Profile:
    """`profile` with no value at the dotted `key`."""
    prefs = copy.deepcopy(profile.prefs)
    *parents, last = key.split(".")
    node: Any = prefs
    for step in parents:
        node = node.get(step) if isinstance(node, dict) else None
    if not isinstance(node, dict) or last not in node:
        return profile
    del node[last]
    return replace(profile, prefs=prefs)


def rubric(params: Params, profile: chc.Profile, target: Target) -> list[Check]:
    name = params["setting"]
    key, _, label = FONTS[name]
    return [Check("font", f"Chrome's {label} is {target.value}.", "chrome.font",
                  {"path": chc.PREFERENCES, "setting": name, "value": target.value}),
            # the frame leaves out what it counts as Chrome's bookkeeping; the settings it does not see stay too
            chc.prefs_kept_check(profile.prefs, key)]


def solve(params: Params, target: Target) -> Attempts:
    name = params["setting"]
    spec, (key, _, label) = SETTINGS[name], FONTS[name]
    misses = [Attempt(f"sets the {label} to {target.other} instead", [chc.pref(key, target.other)])]
    for slip in spec.slips:
        slot, noun = (FIXED_SIZE, "fixed-width font size") if slip == "fixed_size" else (FONTS[slip][0],
                                                                                           FONTS[slip][2])
        misses.append(Attempt(f"sets the {noun} to {target.value} instead", [chc.pref(slot, target.value)]))
    if isinstance(target.value, int):
        misses.append(Attempt("types the size as text, which Chrome ignores", [chc.pref(key, str(target.value))]))
    misses.append(Attempt("writes the setting into Chrome's Local State file instead of the profile's Preferences",
                          [{"op": "json.set", "path": LOCAL_STATE, "key": key, "value": target.value}]))
    return Attempts(Attempt(f"sets the {label} to {target.value}", [chc.pref(key, target.value)]), misses)


WORKFLOW = family(
    NAME, chc.SETTINGS,
    description="Set one of Chrome's Customize fonts settings (font size, minimum font size, or the standard, serif, "
                "sans-serif or fixed-width font) to a stated value, keeping every other setting.",
    knobs={"setting": tuple(SETTINGS), "initial": ("default", "custom")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
