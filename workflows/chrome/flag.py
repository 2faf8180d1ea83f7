"""chrome.flag: set one chrome://flags experiment to Enabled or Disabled, or back to Default, keeping the other
flags the person set.

Chrome keeps the flags in the browser-wide `Local State` file (not the profile's Preferences), as
`browser.enabled_labs_experiments`: one "name@option" entry per flag that is not at Default (option 1 Enabled, 2
Disabled). The flags frame reads that list as one setting, so the goal check also guards the other entries.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any, Literal, TypedDict

from kit.dag import NodeContext, node
from kit.family import Attempt, Attempts, Goal, family
from kit.model import Asset, Check
from preparers import chrome
from verifiers.checks.chrome_settings import FLAG_OPTIONS, LABS
from workflows.chrome import kit as chc

NAME = "chrome.flag"
LOCAL_STATE = f"{chc.CONFIG}/Local State"
PHRASINGS = (
    "In Google Chrome, open chrome://flags and {what}. Leave the other flags as they are.",
    "Change one Chrome experiment: {what}. Don't touch any other flag.",
    "Using Chrome's experiments page (chrome://flags), {what}.",
    "Please {what} in chrome://flags; the other experiments keep their settings.",
    "Configure Google Chrome's flags: {what}, and nothing else.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "{why} Can you {ask} in Chrome's flags?",
    "Please {ask} on Chrome's experiments page.",
    "{why} Please {ask}.",
    "Could you {ask} in Chrome and keep my other flags?",
    "I'd like Chrome's flags changed: {ask}, please.",
)
#: chrome://flags experiments with an Enabled / Disabled choice: internal name -> the title the page shows
FLAGS = {"enable-parallel-downloading": "Parallel downloading", "smooth-scrolling": "Smooth Scrolling",
         "ignore-gpu-blocklist": "Override software rendering list", "enable-gpu-rasterization": "GPU rasterization",
         "enable-quic": "Experimental QUIC protocol", "back-forward-cache": "Back-forward cache",
         "enable-experimental-web-platform-features": "Experimental Web Platform features",
         "enable-tab-audio-muting": "Tab audio muting UI control", "enable-reader-mode": "Enable Reader Mode"}
WHY = "I read about this experiment and want to try a different setting."


@dataclass(frozen=True)
class Profile(chc.Profile):
    """The Chrome profile with the browser's Local State (its flags)."""

    labs: tuple[str, ...] = ()


@node("prepare", "prepare", ("profile",), ("assets", "launch"))
def prepare(ctx: NodeContext, values: Any) -> Any:
    out = dict(chc.prepare.fn(ctx, values))
    profile: Profile = values["profile"]
    state = {"browser": {"enabled_labs_experiments": list(profile.labs), "first_run_finished": True},
             "intl": {"app_locale": "en-US"}, "hardware_acceleration_mode": {"enabled": True}}
    out["assets"] = [*out["assets"], Asset(LOCAL_STATE, chrome.build_preferences(state), app="chrome")]
    return out


KIT = replace(chc.SETTINGS, prepare=prepare)


class Params(TypedDict):
    change: Literal["enable", "disable", "reset"]


@dataclass(frozen=True)
class Target:
    flag: str
    setting: str  # enabled | disabled | default
    others: tuple[str, ...]  # the other flags' entries, kept
    before: str | None  # the flag's entry at the start (reset: its current option)
    neighbour: str  # another flag: the "wrong flag" near-miss


def goal(rng: random.Random, params: Params, bookmarks: dict[str, Any]) -> Goal[Profile, Target]:
    base = chc.base_profile(bookmarks, rng, params)
    flag, neighbour, *rest = rng.sample(sorted(FLAGS), 5)
    others = [f"{f}@{rng.choice((1, 2))}" for f in rest[:rng.randint(1, 3)]]
    title = FLAGS[flag]
    change = params["change"]
    before = None
    if change == "reset":
        before = f"{flag}@{rng.choice((1, 2))}"
        setting = "default"
        what = f"set the flag '{title}' (chrome://flags/#{flag}) back to Default"
        ask = f"set the '{title}' experiment ('{flag}') back to Default"
    else:
        setting = "enabled" if change == "enable" else "disabled"
        what = f"set the flag '{title}' (chrome://flags/#{flag}) to {setting.capitalize()}"
        ask = f"set the '{title}' experiment ('{flag}') to {setting.capitalize()}"
    labs = [*others, *([before] if before else [])]
    rng.shuffle(labs)
    profile = Profile(base.bookmarks, base.prefs, base.nest, labs=tuple(labs))
    return Goal(profile, {"what": what, "ask": ask, "why": WHY},
                Target(flag, setting, tuple(others), before, neighbour))


def rubric(target: Target) -> list[Check]:
    t = target
    shown = {"default": "Default", "enabled": "Enabled", "disabled": "Disabled"}[t.setting]
    return [Check("flag", f"The chrome://flags experiment {t.flag} is set to {shown}, and the other flags keep their "
                  "settings.", "chrome.flag", {"path": LOCAL_STATE, "flag": t.flag, "setting": t.setting,
                                               "others": list(t.others)})]


def _labs(entries: list[str]) -> dict[str, Any]:
    return {"op": "json.set", "path": LOCAL_STATE, "key": LABS, "value": entries}


def solve(target: Target) -> Attempts:
    t = target
    others = list(t.others)
    mine = [] if t.setting == "default" else [f"{t.flag}@{FLAG_OPTIONS[t.setting]}"]
    opposite = {"enabled": 2, "disabled": 1}.get(t.setting) or (3 - int(str(t.before).rsplit("@", 1)[1]))
    start = [*others, *([t.before] if t.before else [])]
    misses = [
        Attempt("chooses the other option for the flag", [_labs([*others, f"{t.flag}@{opposite}"])]),
        Attempt("changes another flag instead",
                [_labs([*start, f"{t.neighbour}@{FLAG_OPTIONS.get(t.setting, 1)}"])]),
        Attempt("resets every other flag too", [_labs(mine)]),
        Attempt("writes the flag into the profile's Preferences instead of Local State",
                [chc.pref(LABS, [*start, *mine])]),
    ]
    return Attempts(Attempt("sets the flag as asked", [_labs([*others, *mine])]), misses)


WORKFLOW = family(
    NAME, KIT,
    description="Set one chrome://flags experiment to Enabled, Disabled or back to Default, keeping the other flags.",
    knobs={"change": ("enable", "disable", "reset")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
