"""vlc.preferences: change a VLC preference that lives in the user's ~/.config/vlc/vlcrc.

The vlcrc is laid out as VLC 3 writes it (a byte order mark and `###` banner, `[qt] # ...` and `[core] # ...`
sections, per option a `# label (type)` line and the option, commented out while at its default), with a few
options the user already changed (the privacy question answered, a volume or playlist habit). Knob `setting`: the
folder recordings go to (`input-record-path`), the maximum volume the interface shows (`qt-max-volume`, 60-300),
allowing only one running instance (`one-instance`), starting in minimal view (`qt-minimal-view`), repeating the
whole playlist (`loop`), a new window per file opened from the file manager (`one-instance-when-started-from-file`
turned off) or no background cone (`qt-bgcone` off); a switch starts at its default and is asked to be turned the
other way. The task can be done in Tools > Preferences (Show settings: All) or by editing the file with VLC closed;
the rubric reads the option as VLC loads it (verifiers/readers/vlcrc.py) and the vlcrc frame keeps every other
option and comment.

Near-misses, each one VLC really ignores or reads otherwise: the line left commented out (`#loop=1`), written with
spaces around `=` (VLC reads the name `loop `), a switch written `true` or a volume `200%` (no whole integer), a
neighbouring option set instead (snapshot folder for recordings folder, playlist enqueue for one instance, start
minimized to the tray for minimal view, repeat current item for repeat all, one instance for the file-manager one, the
expanding cone for the cone),
a volume above VLC's 300 limit.
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
from workflows.vlc import kit as vk

NAME = "vlc.preferences"
PATH = vk.VLCRC
VERSION = "3.0.16"


@dataclass(frozen=True)
class Option:
    section: str
    name: str
    kind: str  # "bool", "integer", "string" as VLC labels it
    default: str
    label: str  # what the `# label (type)` comment says


#: The options the file shows, in VLC's order per section (labels paraphrase VLC's short texts).
QT = "qt"
CORE = "core"
OPTIONS = (
    Option(QT, "qt-minimal-view", "boolean", "0", "Start in minimal view (without menus)"),
    Option(QT, "qt-system-tray", "boolean", "1", "Systray icon"),
    Option(QT, "qt-start-minimized", "boolean", "0", "Start VLC with only a systray icon"),
    Option(QT, "qt-notification", "integer", "1", "Show notification popup on track change"),
    Option(QT, "qt-fs-controller", "boolean", "1", "Show a controller in fullscreen mode"),
    Option(QT, "qt-recentplay", "boolean", "1", "Save the recently played items in the menu"),
    Option(QT, "qt-continue", "integer", "1", "Continue playback?"),
    Option(QT, "qt-privacy-ask", "boolean", "1", "Ask for network policy at start"),
    Option(QT, "qt-bgcone", "boolean", "1", "Display background cone or art"),
    Option(QT, "qt-bgcone-expands", "boolean", "0", "Expanding background cone or art"),
    Option(QT, "qt-max-volume", "integer", "125", "Maximum Volume displayed"),
    Option(CORE, "video-on-top", "boolean", "0", "Always on top"),
    Option(CORE, "snapshot-path", "string", "", "Video snapshot directory (or filename)"),
    Option(CORE, "snapshot-format", "string", "png", "Video snapshot format"),
    Option(CORE, "volume-save", "boolean", "1", "Remember the audio volume"),
    Option(CORE, "input-record-path", "string", "", "Record directory"),
    Option(CORE, "metadata-network-access", "boolean", "0", "Allow metadata network access"),
    Option(CORE, "one-instance", "boolean", "0", "Allow only one instance"),
    Option(CORE, "one-instance-when-started-from-file", "boolean", "1",
           "Use only one instance when started from file manager"),
    Option(CORE, "playlist-enqueue", "boolean", "0", "Enqueue items into playlist in one instance mode"),
    Option(CORE, "random", "boolean", "0", "Play files randomly forever"),
    Option(CORE, "loop", "boolean", "0", "Repeat all"),
    Option(CORE, "repeat", "boolean", "0", "Repeat current item"),
    Option(CORE, "start-paused", "boolean", "0", "Start paused"),
)
BY_NAME = {o.name: o for o in OPTIONS}
SECTIONS = {QT: "Qt interface", CORE: "core program"}
#: setting knob -> (option, the neighbour a person confuses it with)
SETTINGS = {"record_folder": ("input-record-path", "snapshot-path"), "max_volume": ("qt-max-volume", None),
            "one_instance": ("one-instance", "playlist-enqueue"), "minimal_view": ("qt-minimal-view",
                                                                                   "qt-start-minimized"),
            "loop": ("loop", "repeat"),
            "instance_per_file": ("one-instance-when-started-from-file", "one-instance"),
            "no_cone": ("qt-bgcone", "qt-bgcone-expands")}
FOLDERS = ("Videos/Recordings", "Videos/vlc-captures", "Music/radio-recordings", "Videos/screen-recordings",
           "Music/Recorded")
VOLUMES = (150, 175, 200, 250, 300)
ASK = {
    "record_folder": "make VLC save its recordings (the record directory) in {folder}",
    "max_volume": "raise the maximum volume the VLC interface shows to {volume}%",
    "one_instance": "turn on 'Allow only one instance', so opening a file reuses the running VLC (one instance only)",
    "minimal_view": "make VLC start in minimal view, without the menus (turn on minimal view)",
    "loop": "turn on repeat all, so VLC loops the whole playlist",
    "instance_per_file": "turn off using only one instance when started from the file manager, so every file I open "
                         "from there gets its own VLC window",
    "no_cone": "turn off the background cone, the traffic cone VLC shows while nothing is playing",
}
PHRASINGS = (
    "VLC keeps its preferences in {path}. Please {ask}. Every other preference stays as it is.",
    "Change one VLC preference: {ask}. You can use Tools > Preferences or edit {path} with VLC closed; keep all "
    "the other settings there unchanged.",
    "In VLC's configuration file {path}, {ask}. Don't change any other setting.",
    "Configure VLC media player ({path}) to {ask}. Leave the rest of its preferences as they are.",
    "Update VLC's vlcrc at {path} to {ask}. Nothing else in it should change.",
)
NATURAL = (
    "Could you set up VLC for me and {ask}? Its settings file is {path}.",
    "Please {ask}; VLC keeps its settings in {path}.",
    "I'd like VLC to work a bit differently: {ask}. The config is {path}.",
    "Can you {ask}? My VLC reads its settings from {path}.",
    "Help me adjust VLC media player: please {ask}. Everything is in {path}.",
)


class Params(TypedDict):
    setting: Literal["record_folder", "max_volume", "one_instance", "minimal_view", "loop", "instance_per_file",
                     "no_cone"]


@dataclass(frozen=True)
class Target:
    setting: str
    option: str
    value: str
    kind: str  # the check's kind: "bool", "int", "string"
    default: str
    section: str
    misses: tuple[tuple[str, tuple[dict[str, Any], ...]], ...]


def vlcrc(values: Mapping[str, str]) -> str:
    """The file VLC writes for `values` ({option: value} the user changed; every other option at its default)."""
    parts = [f"\ufeff###\n###  vlc {VERSION}\n###\n\n###\n### lines beginning with a '#' character are comments\n"
             "###\n\n"]
    for section, long_name in SECTIONS.items():
        parts.append(f"[{section}] # {long_name}\n\n")
        for o in (o for o in OPTIONS if o.section == section):
            value = values.get(o.name, o.default)
            mark = "" if o.name in values and value != o.default else "#"
            parts.append(f"# {o.label} ({o.kind})\n{mark}{o.name}={value}\n\n")
    return "".join(parts)


def lived_in(rng: random.Random, asked: str = "") -> dict[str, str]:
    """What the user changed long ago: the privacy question answered, and a habit or two (never the `asked` one)."""
    changed = {"qt-privacy-ask": "0", "metadata-network-access": rng.choice(("0", "1"))}
    habits = [("video-on-top", "1"), ("qt-continue", "2"), ("qt-notification", "0"), ("random", "1"),
              ("snapshot-format", "jpg"), ("volume-save", "0"), ("qt-bgcone", "0")]
    for extra, value in rng.sample([h for h in habits if h[0] != asked], 2):
        changed[extra] = value
    return changed


def _set(target_option: str, value: str, *, form: str = "plain") -> dict[str, Any]:
    op = {"op": "fs.vlcrc_set", "path": PATH, "options": {target_option: value},
          "section": BY_NAME[target_option].section}
    return op | ({"form": form} if form != "plain" else {})


def goal(rng: random.Random, params: Params, pool: Mapping[str, Any]) -> Goal[list[FileSpec], Target]:
    setting = params["setting"]
    name, neighbour = SETTINGS[setting]
    option = BY_NAME[name]
    changed = lived_in(rng, name)
    if setting == "max_volume" and rng.random() < 0.4:
        changed["qt-max-volume"] = str(rng.choice((100, 110, 140)))  # lowered once, now raised again
    spec = [FileSpec(PATH, "text", vlcrc(changed))]
    folder = ""
    kind = {"boolean": "bool", "integer": "int", "string": "string"}[option.kind]
    if setting == "record_folder":
        folder = oc.home(rng.choice(FOLDERS))
        spec.append(oc.Files(pool, rng).new(folder, "mp3"))  # an earlier recording: the folder is there
        value = folder
        misses = [("sets the snapshot folder instead of the record directory", (_set(neighbour or "", folder),))]
    elif setting == "max_volume":
        volume = rng.choice([v for v in VOLUMES if str(v) != changed.get(name)])
        value = str(volume)
        misses = [("writes the volume with a percent sign, which VLC does not read as a number",
                   (_set(name, f"{volume}%"),)),
                  ("sets it ten times too high, past VLC's 300% limit, so VLC refuses it",
                   (_set(name, str(volume * 10)),))]
    else:  # a switch, turned away from its default
        value = "0" if option.default == "1" else "1"
        word = "false" if value == "0" else "true"
        misses = [(f"sets the neighbouring option {neighbour} instead", (_set(neighbour or "", value),)),
                  (f"writes {name}={word}, which VLC does not read as a switch", (_set(name, word),))]
    misses += [("leaves the line commented out, only changing its value", (_set(name, value, form="commented"),)),
               ("writes the line with spaces around '=', so VLC reads no such option",
                (_set(name, value, form="spaced"),))]
    facts = {"path": PATH, "ask": ASK[setting].format(folder=folder, volume=value)}
    target = Target(setting, name, value, kind, option.default, option.section, tuple(misses))
    return Goal(oc.dress(rng, params, pool, spec, PATH, facts), facts, target)


def rubric(target: Target) -> list[Check]:
    t = target
    args: dict[str, Any] = {"path": PATH, "option": t.option, "value": t.value, "kind": t.kind,
                            "default": t.default}
    if t.option == "qt-max-volume":
        args |= {"low": 60, "high": 300}
    shown = {"1": "on", "0": "off"}[t.value] if t.kind == "bool" else t.value
    return [Check("preference", f"When VLC loads {PATH}, {t.option} is {shown}.", "vlcrc.option", args)]


def solve(target: Target) -> Attempts:
    t = target
    return Attempts(Attempt(f"sets {t.option}={t.value} in the vlcrc", [_set(t.option, t.value)]),
                    [Attempt(what, list(ops)) for what, ops in t.misses])


WORKFLOW = family(
    NAME, vk.VLC,
    description="Change a VLC media player preference in ~/.config/vlc/vlcrc: the recordings folder, the maximum "
                "volume shown, one instance only, minimal view, repeat all, one instance from the file manager or "
                "the background cone.",
    knobs={"setting": tuple(SETTINGS)},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
