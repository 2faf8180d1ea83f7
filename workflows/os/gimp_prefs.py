"""os.gimp_prefs: change a GIMP preference in the user's gimprc (~/.config/GIMP/2.10/gimprc).

The gimprc is a lived-in one (GIMP's header, a default image template, undo, theme, interpolation, cache and session
settings); an old ~/.gimp-2.8/gimprc from the previous GIMP is still in the home folder. Knob `setting`: the minimal
number of `undo_levels`, the default `image_size` of new images (nested in `default-image`), the interface `theme`,
or the default `interpolation` method. The task can be done in Edit > Preferences or by editing the file while GIMP
is closed; the rubric reads the settings as GIMP does (the later of two lines wins; a line that is no S-expression is
skipped): the asked ones hold the asked values, every other setting of the file keeps its value.

Near-misses: the new line put at the top (the old line below still wins), the old 2.8 gimprc edited instead, an
INI-style `key = value` line; the undo memory size set instead of the levels; width and height swapped, only the
width, width and height written outside `default-image`; the icon theme set instead of the theme.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers.tree import FileSpec
from workflows.os import kit as oc

NAME = "os.gimp_prefs"
PATH = oc.home(".config/GIMP/2.10/gimprc")
OLD = oc.home(".gimp-2.8/gimprc")
HEADER = ("# GIMP gimprc\n#\n# This is your personal gimprc file.  Any variable defined in this file takes\n"
          "# precedence over the value defined in the system-wide gimprc:\n#   /etc/gimp/2.0/gimprc\n"
          "# Most values can be set within GIMP by changing some options in\n# the Preferences dialog.\n\n")
SIZES = ((1280, 720), (2480, 3508), (800, 600), (3840, 2160), (1080, 1080), (1200, 628), (1920, 1080))
THEMES = ("Dark", "Light", "Gray", "System")
METHODS = ("none", "linear", "cubic", "nohalo", "lohalo")
PHRASINGS = (
    "GIMP keeps its preferences in {path}. With GIMP closed, edit that file (or use Edit > Preferences) to {ask}. "
    "Every other preference stays as it is.",
    "Change a GIMP preference: {ask}. The setting lives in {path}; keep all the other settings there unchanged.",
    "In GIMP's configuration file {path}, {ask}. Don't change any other setting.",
    "Configure GIMP 2.10 through {path}: {ask}. Leave the rest of the file's settings as they are.",
    "Update {path} (GIMP's gimprc) to {ask}. Nothing else in it should change.",
)
NATURAL = (
    "Could you tweak GIMP for me and {ask}? Its settings file is {path}.",
    "Please {ask} in GIMP; its settings are stored in {path}.",
    "I'd like GIMP to work a bit differently: {ask}. The config is {path}.",
    "Can you {ask} in my GIMP setup? It reads {path}.",
    "Help me adjust GIMP: please {ask}. Everything is in {path}.",
)


class Params(TypedDict):
    setting: Literal["undo_levels", "image_size", "theme", "interpolation"]


@dataclass(frozen=True)
class Target:
    setting: str
    initial: dict[str, str]  # every setting of the file as GIMP reads it
    settings: dict[str, str]  # the asked settings, as the check reads them
    written: dict[str, str]  # the same as the file writes them (a theme in quotes)
    misses: tuple[tuple[str, list[dict[str, Any]]], ...]


def _gimprc(s: Mapping[str, str]) -> str:
    image = "".join(f"\n    ({k.split('/')[1]} {v})" for k, v in s.items() if k.startswith("default-image/"))
    rest = "".join(f"({k} {v})\n" for k, v in s.items() if "/" not in k)
    return f"{HEADER}(default-image{image})\n{rest}\n# end of gimprc\n"


def goal(rng: random.Random, params: Params, pool: Mapping[str, Any]) -> Goal[list[FileSpec], Target]:
    setting = params["setting"]
    width, height = rng.choice(SIZES)
    theme, method = rng.choice(THEMES), rng.choice(METHODS[1:])
    undo = rng.choice((5, 8, 10))
    written = {"default-image/width": str(width), "default-image/height": str(height),
               "default-image/unit": "pixels", "default-image/xresolution": "300.000000",
               "default-image/yresolution": "300.000000", "default-image/resolution-unit": "inches",
               "default-image/image-type": "rgb", "default-image/precision": "u8-non-linear",
               "default-image/fill-type": "background-fill", "default-image/comment": '"Created with GIMP"',
               "undo-levels": str(undo), "undo-size": "1024M", "show-tips": "no", "theme": f'"{theme}"',
               "icon-theme": '"Symbolic"', "interpolation-type": method, "default-threshold": "15",
               "num-processors": str(rng.choice((2, 4, 8))), "tile-cache-size": rng.choice(("1024M", "2048M")),
               "restore-session": "no", "save-session-info": "yes"}
    initial = {k: v.strip('"') for k, v in written.items()}
    old_text = _gimprc({**written, "undo-levels": "5", "theme": '"Dark"'})
    misses: list[tuple[str, list[dict[str, Any]]]] = []
    if setting == "undo_levels":
        n = rng.choice([x for x in (20, 30, 50, 100) if x != undo])
        asked = {"undo-levels": str(n)}
        ask = f"set the minimal number of undo levels to {n}"
        misses += [("sets the undo memory size instead of the levels", [_set({"undo-size": f"{n}M"})]),
                   ("appends an INI-style line", [_append(f"undo-levels = {n}\n")])]
    elif setting == "image_size":
        w, h = rng.choice([s for s in SIZES if s != (width, height) and s[0] != s[1]])
        asked = {"default-image/width": str(w), "default-image/height": str(h)}
        ask = f"make the default image size for new images {w} x {h} pixels (width {w}, height {h})"
        misses += [("swaps width and height", [_set({"default-image/width": str(h), "default-image/height": str(w)})]),
                   ("changes only the width", [_set({"default-image/width": str(w)})]),
                   ("writes width and height outside default-image", [_append(f"(width {w})\n(height {h})\n")])]
    elif setting == "theme":
        new = rng.choice([t for t in THEMES if t != theme])
        asked = {"theme": new}
        ask = f"switch the interface theme to {new}"
        misses += [("sets the icon theme instead", [_set({"icon-theme": f'"{new}"'})]),
                   ("appends an INI-style line", [_append(f"theme = {new}\n")])]
    else:
        new = rng.choice([m for m in METHODS if m != method])
        asked = {"interpolation-type": new}
        ask = f"set the default interpolation method to {new}"
        misses += [("appends an INI-style line", [_append(f"interpolation-type = {new}\n")])]
    write = {k: f'"{v}"' if k == "theme" else v for k, v in asked.items()}
    misses += [("puts the new line at the top of the file, where the old line below overrides it",
                [_set(write, top=True)]),
               ("edits the old GIMP 2.8 gimprc instead", [{**_set(write), "path": OLD}])]
    facts = {"path": PATH, "ask": ask}
    spec = [FileSpec(PATH, "text", _gimprc(written)), FileSpec(OLD, "text", old_text)]
    return Goal(oc.dress(rng, params, pool, spec, PATH, facts), facts,
                Target(setting, initial, asked, write, tuple(misses)))


def _set(settings: Mapping[str, str], *, top: bool = False) -> dict[str, Any]:
    return {"op": "fs.gimprc_set", "path": PATH, "settings": dict(settings)} | ({"top": True} if top else {})


def _append(text: str) -> dict[str, Any]:
    return {"op": "fs.append_text", "path": PATH, "text": text}


def rubric(target: Target) -> list[Check]:
    t = target
    others = {k: v for k, v in t.initial.items() if k not in t.settings}
    return [Check("preference", f"In {PATH}, {', '.join(f'{k} = {v}' for k, v in t.settings.items())}.",
                  "gimprc.option", {"path": PATH, "option": t.setting, "settings": dict(t.settings)}),
            # the tree frame leaves GIMP's profile folder to GIMP (it writes sessionrc, toolrc ... as it runs)
            Check("kept", f"Every other setting in {PATH} keeps its value.", "gimprc.kept",
                  {"path": PATH, "settings": others})]


def solve(target: Target) -> Attempts:
    t = target
    return Attempts(Attempt("sets exactly the asked preference", [_set(t.written)]),
                    [Attempt(what, ops) for what, ops in t.misses])


WORKFLOW = family(
    NAME, oc.kit_without("location"),  # the gimprc lives where GIMP reads it
    description="Change a GIMP preference in ~/.config/GIMP/2.10/gimprc: undo levels, the default image size, the "
                "theme or the interpolation method.",
    knobs={"setting": ("undo_levels", "image_size", "theme", "interpolation")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
