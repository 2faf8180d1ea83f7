"""os.lo_options: change a LibreOffice option in its user profile (~/.config/libreoffice/4/user/*.xcu).

The profile is a lived-in one: window states, recent documents, paths, the user's name, a few options changed
before. Knob `option`: turn AutoRecovery on and save every N minutes (`autosave`), set the name of the user data
(`user_name`, used as the author of comments and changes), turn the Impress Presenter Console off (`presenter`), or
set Writer's default font (`default_font`). The task can be done in Tools > Options or by editing the file while
LibreOffice is closed; the rubric reads the settings' values either way (LibreOffice rewrites the whole file when
it quits): the asked ones hold the asked values and every other setting of the profile keeps its value.

Near-misses: the interval in seconds, the interval set but AutoRecovery left off, the legacy Save/Document key
instead; first and last name swapped, the whole name as the first name, only the first name; the boolean written
as 0, the option's group path cut short, the neighbouring StartWithActualPage switched instead; the Heading font
instead of the default one, all of Writer's basic fonts changed, the other Liberation family.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers.ops.os_xcu import item_line
from preparers.tree import FileSpec
from workflows.calc.content import FIRST_NAMES, LAST_NAMES
from workflows.os import kit as oc

NAME = "os.lo_options"
PATH = oc.home(".config/libreoffice/4/user/registrymodifications.xcu")
RECOVERY = "/org.openoffice.Office.Recovery/AutoSave"
LEGACY = "/org.openoffice.Office.Common/Save/Document"
USER = "/org.openoffice.UserProfile/Data"
START = "/org.openoffice.Office.Impress/Misc/Start"
FONTS = "/org.openoffice.Office.Writer/DefaultFont"
FONT_PROPS = ("Standard", "Heading", "List", "Caption", "Index")
#: a font -> the font of the other family a careless pick takes
FONT_TWINS = {"Liberation Serif": "Liberation Sans", "Liberation Sans": "Liberation Serif", "Carlito": "Caladea",
              "Caladea": "Carlito", "DejaVu Serif": "DejaVu Sans", "DejaVu Sans": "DejaVu Serif",
              "Noto Serif": "Noto Sans", "Noto Sans": "Noto Serif"}
#: settings LibreOffice writes into every used profile (item path:prop -> value)
BACKGROUND = {
    "/org.openoffice.Office.Common/Misc:FirstRun": "false",
    "/org.openoffice.Office.Common/Misc:ShowTipOfTheDay": "false",
    "/org.openoffice.Office.Common/Misc:UseSystemFileDialog": "true",
    "/org.openoffice.Setup/L10N:ooLocale": "en-GB",
    "/org.openoffice.Office.Linguistic/General:DefaultLocale": "en-GB",
    "/org.openoffice.Office.Common/Save/Document:WarnAlienFormat": "false",
    "/org.openoffice.Office.Common/Save/Document:CreateBackup": "true",
    "/org.openoffice.Office.Writer/Layout/Other:MeasureUnit": "2",
    "/org.openoffice.Office.Calc/Layout/Other/MeasureUnit:NonMetric": "8",
    "/org.openoffice.Office.Common/Undo:Steps": "100",
    "/org.openoffice.Office.Common/Security/Scripting:MacroSecurityLevel": "2",
    "/org.openoffice.Office.Impress/Misc:ShowStatusBar": "true",
    "/org.openoffice.Office.Common/Help:ShowBasicHelp": "false",
    "/org.openoffice.Office.UI.ToolbarMode/Applications/Writer:Active": "Default",
}
PHRASINGS = (
    "LibreOffice keeps its options in {path}. With LibreOffice closed, edit that file (or use Tools > Options) so "
    "that {task}. Every other setting stays as it is.",
    "Change a LibreOffice option: {ask_cap}. The option lives in the user profile file {path}; keep all other "
    "settings there unchanged.",
    "In LibreOffice's user profile ({path}), {ask}. Don't touch any other option.",
    "Configure LibreOffice so that {task}. You can edit {path} directly while LibreOffice is not running; leave "
    "the rest of the profile as it is.",
    "Update the LibreOffice settings in {path}: {ask_cap}. Nothing else in the profile should change.",
)
NATURAL = (
    "Could you change my LibreOffice settings so that {task}? They are stored in {path}.",
    "Please set up LibreOffice so that {task}; my profile file is {path}.",
    "I want LibreOffice configured so that {task}. The options file is {path}.",
    "Can you fix my LibreOffice options? Please {ask}. (Profile: {path})",
    "In LibreOffice, please {ask}. Its settings are in {path}.",
)


class Params(TypedDict):
    option: Literal["autosave", "user_name", "presenter", "default_font"]


@dataclass(frozen=True)
class Target:
    option: str
    text: str  # the file as it is
    initial: dict[str, str]  # every setting as it is
    settings: dict[str, str]  # the asked settings and their values
    misses: tuple[tuple[str, dict[str, str]], ...]  # (what the slip does, the settings it writes)


def _xcu(settings: Mapping[str, str], recent: list[str]) -> str:
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             '<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema"'
             ' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">']
    for i, url in enumerate(recent):
        lines.append(f'<item oor:path="/org.openoffice.Office.Histories/Histories/org.openoffice.Office.Histories:'
                     f'HistoryInfo[\'PickList\']/OrderList"><node oor:name="{i}" oor:op="replace"><prop '
                     f'oor:name="HistoryItemRef" oor:op="fuse"><value>{url}</value></prop></node></item>')
    lines += [item_line(key, value) for key, value in settings.items()]
    lines.append("</oor:items>")
    return "\n".join(lines) + "\n"


def goal(rng: random.Random, params: Params, pool: Mapping[str, Any]) -> Goal[list[FileSpec], Target]:
    option = params["option"]
    first, last = rng.choice(FIRST_NAMES), rng.choice(LAST_NAMES)
    old_first, old_last = rng.choice([f for f in FIRST_NAMES if f != first]), rng.choice(
        [x for x in LAST_NAMES if x != last])
    initial: dict[str, str] = dict(rng.sample(sorted(BACKGROUND.items()), rng.randint(8, len(BACKGROUND))))
    initial |= {f"{USER}:givenname": old_first, f"{USER}:sn": old_last,
                f"{USER}:initials": old_first[0] + old_last[0]}
    minutes_before = rng.choice((10, 15, 30))
    initial |= {f"{RECOVERY}:Enabled": "false" if option == "autosave" else "true",
                f"{RECOVERY}:TimeIntervall": str(minutes_before), f"{LEGACY}:AutoSaveTimeIntervall": "15"}
    initial |= {f"{START}:EnablePresenterScreen": "true", f"{START}:StartWithActualPage": "true"}
    fonts = list(FONT_TWINS)
    font_before, font = rng.sample(fonts, 2)
    if FONT_TWINS[font] == font_before:
        font_before = next(f for f in fonts if f not in (font, FONT_TWINS[font]))
    initial |= {f"{FONTS}:{prop}": font_before for prop in FONT_PROPS}
    order = list(initial)
    rng.shuffle(order)
    initial = {k: initial[k] for k in order}
    project = rng.choice(pool["projects"])
    docs = [d["stem"] for d in pool["documents"]]
    recent = [f"file:///home/user/Documents/{project}/{stem}.{rng.choice(('docx', 'odt', 'xlsx', 'pptx'))}"
              for stem in rng.sample(docs, min(len(docs), rng.randint(3, 5)))]
    misses: list[tuple[str, dict[str, str]]]
    if option == "autosave":
        n = rng.choice([m for m in (2, 3, 5, 7, 12, 20) if m != minutes_before])
        settings = {f"{RECOVERY}:Enabled": "true", f"{RECOVERY}:TimeIntervall": str(n)}
        task = f"AutoRecovery is turned on and saves recovery information every {n} minutes"
        ask = f"turn AutoRecovery on and have it save recovery information every {n} minutes"
        misses = [("sets the interval in seconds", {**settings, f"{RECOVERY}:TimeIntervall": str(n * 60)}),
                  ("sets the interval but leaves AutoRecovery off", {f"{RECOVERY}:TimeIntervall": str(n)}),
                  ("changes the legacy Save/Document autosave keys instead",
                   {f"{LEGACY}:AutoSave": "true", f"{LEGACY}:AutoSaveTimeIntervall": str(n)})]
    elif option == "user_name":
        settings = {f"{USER}:givenname": first, f"{USER}:sn": last, f"{USER}:initials": first[0] + last[0]}
        who = f"first name {first}, last name {last}, initials {first[0]}{last[0]}"
        task = f"the user data name is mine: {who} (it is used as the author of comments and tracked changes)"
        ask = f"set the user data name to mine: {who} (used as the author of comments and tracked changes)"
        misses = [("swaps the first and last name", {**settings, f"{USER}:givenname": last, f"{USER}:sn": first}),
                  ("puts the whole name into the first name", {**settings, f"{USER}:givenname": f"{first} {last}",
                                                               f"{USER}:sn": ""}),
                  ("changes only the first name", {f"{USER}:givenname": first})]
    elif option == "presenter":
        settings = {f"{START}:EnablePresenterScreen": "false"}
        task = "the Presenter Console of Impress is turned off (no presenter screen on a second display)"
        ask = "turn off the Presenter Console of Impress (no presenter screen on a second display)"
        misses = [("writes the switch as 0 instead of false", {f"{START}:EnablePresenterScreen": "0"}),
                  ("writes it under the Misc group instead of Misc/Start",
                   {"/org.openoffice.Office.Impress/Misc:EnablePresenterScreen": "false"}),
                  ("turns off the neighbouring StartWithActualPage switch instead",
                   {f"{START}:StartWithActualPage": "false"})]
    else:
        settings = {f"{FONTS}:Standard": font}
        task = f"Writer's default font (the basic font of the Default Paragraph Style) is {font}"
        ask = f"make {font} Writer's default font (the basic font of the Default Paragraph Style)"
        misses = [("changes the Heading font instead", {f"{FONTS}:Heading": font}),
                  ("changes all of Writer's basic fonts", {f"{FONTS}:{prop}": font for prop in FONT_PROPS}),
                  (f"picks {FONT_TWINS[font]} instead", {f"{FONTS}:Standard": FONT_TWINS[font]})]
    text = _xcu(initial, recent)
    facts = {"path": PATH, "task": task, "ask": ask, "ask_cap": ask[0].upper() + ask[1:]}
    spec = [FileSpec(PATH, "text", text)]
    return Goal(oc.dress(rng, params, pool, spec, PATH, facts), facts,
                Target(option, text, initial, settings, tuple(misses)))


def rubric(target: Target) -> list[Check]:
    t = target
    others = {k: v for k, v in t.initial.items() if k not in t.settings}
    return [Check("option", f"In {PATH}, {', '.join(f'{k} = {v}' for k, v in t.settings.items())}.", "xcu.option",
                  {"path": PATH, "option": t.option, "settings": dict(t.settings)}),
            # the tree frame leaves LibreOffice's profile to LibreOffice (it rewrites it as it runs): kept here
            Check("kept", f"Every other setting in {PATH} keeps its value.", "xcu.kept",
                  {"path": PATH, "settings": others})]


def solve(target: Target) -> Attempts:
    t = target
    def setting(values: dict[str, str]) -> list[dict[str, Any]]:
        return [{"op": "fs.xcu_set", "path": PATH, "settings": dict(values)}]

    return Attempts(Attempt("sets exactly the asked settings", setting(t.settings)),
                    [Attempt(what, setting(wrong)) for what, wrong in t.misses])


WORKFLOW = family(
    NAME, oc.kit_without("location"),  # the profile lives where LibreOffice reads it
    description="Change a LibreOffice option in the user profile (registrymodifications.xcu): AutoRecovery "
                "interval, user data name, Impress Presenter Console, Writer's default font.",
    knobs={"option": ("autosave", "user_name", "presenter", "default_font")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
