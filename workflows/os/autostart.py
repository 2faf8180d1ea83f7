"""os.autostart: the desktop's login applications, ~/.config/autostart/*.desktop (XDG autostart keyfiles).

The home holds a few autostart entries (each `X-GNOME-Autostart-enabled=true`, some with a `[Desktop Action ...]`
section after `[Desktop Entry]`) and the user's own launchers in ~/.local/share/applications. Knob `change`: `add`
an app to the login applications (a copy of its launcher in ~/.config/autostart), `disable` an entry without
deleting it (`X-GNOME-Autostart-enabled=false`, as GNOME Tweaks writes it), or give an entry a start `delay`
(`X-GNOME-Autostart-Delay` in seconds). The rubric reads the keyfile as the desktop does (`[Desktop Entry]` keys,
each set once); the config frame keeps every other key and file.

Near-misses: the launcher copied into ~/.local/share/autostart, the neighbouring launcher copied, the launcher moved
out of the app menu, the copy saved without its .desktop extension; the entry deleted, a second enabled line
appended (the key set twice), the value written as False, another entry disabled; the delay appended at the end of
the file (inside the `[Desktop Action]` section), in milliseconds, on another entry.
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

NAME = "os.autostart"
AUTOSTART = oc.home(".config/autostart")
LAUNCHERS = oc.home(".local/share/applications")
#: desktop id -> (Name, Exec, Comment, an action (id, name, exec) or None)
APPS = {
    "com.nextcloud.desktopclient.nextcloud": ("Nextcloud", "nextcloud --background", "Sync your files", None),
    "org.keepassxc.KeePassXC": ("KeePassXC", "keepassxc %f", "Password manager", None),
    "syncthing-start": ("Start Syncthing", "syncthing serve --no-browser --logfile=default", "Starts Syncthing",
                        None),
    "zotero": ("Zotero", "zotero -url %U", "Reference manager", ("new-item", "New Item", "zotero --new-item")),
    "org.flameshot.Flameshot": ("Flameshot", "flameshot", "Screenshot tool",
                                ("capture", "Take screenshot", "flameshot gui --delay 500")),
    "redshift-gtk": ("Redshift", "redshift-gtk", "Colour temperature adjustment", None),
    "slack": ("Slack", "slack %U", "Team chat", ("quit", "Quit Slack", "slack --quit")),
    "com.github.hluk.copyq": ("CopyQ", "copyq", "Clipboard manager", ("show", "Show/hide", "copyq toggle")),
    "ulauncher": ("Ulauncher", "env GDK_BACKEND=x11 ulauncher --hide-window", "Application launcher", None),
    "org.gnome.Evolution-alarm-notify": ("Evolution Alarm Notify", "evolution-alarm-notify",
                                         "Calendar event notifications", None),
}
PHRASINGS = (
    "{task} Use the XDG autostart folder {autostart}. Leave every other file and setting as it is.",
    "Change my login applications: {task_lc} The autostart entries live in {autostart}; nothing else should change.",
    "In the desktop session's autostart configuration ({autostart}), {task_lc} Don't touch the other entries.",
    "Using the terminal or a text editor: {task_lc} (autostart folder: {autostart}). Keep everything else unchanged.",
    "Edit the startup applications of my desktop: {task_lc} They are the .desktop files in {autostart}.",
)
NATURAL = (
    "{task} My startup entries are in {autostart}.",
    "Could you sort out my login apps? {task}",
    "Please help with what starts when I log in: {task_lc}",
    "{task} Leave my other startup apps alone, please.",
    "Quick change to my startup applications: {task_lc}",
)


class Params(TypedDict):
    change: Literal["add", "disable", "delay"]


@dataclass(frozen=True)
class Target:
    change: str
    path: str  # the autostart entry the task is about
    source: str  # add: the launcher to copy
    key: str  # the key asked (Exec for add)
    value: str
    text: str  # the entry's text before (disable / delay)
    neighbour: str  # another entry (or launcher, for add)


def _entry(app: str, *, autostart: bool) -> str:
    name, exe, comment, action = APPS[app]
    lines = ["[Desktop Entry]", "Type=Application", f"Name={name}", f"Comment={comment}", f"Exec={exe}",
             f"Icon={app}", "Terminal=false"]
    if autostart:
        lines.append("X-GNOME-Autostart-enabled=true")
    else:
        lines.append("Categories=Utility;")
    if action:
        lines[lines.index("Terminal=false")] += f"\nActions={action[0]};"
        lines += ["", f"[Desktop Action {action[0]}]", f"Name={action[1]}", f"Exec={action[2]}"]
    return "\n".join(lines) + "\n"


def goal(rng: random.Random, params: Params, pool: Mapping[str, Any]) -> Goal[list[FileSpec], Target]:
    change = params["change"]
    apps = list(APPS)
    rng.shuffle(apps)
    with_action = [a for a in apps if APPS[a][3]]
    if change == "delay":  # the entry has a [Desktop Action] section after [Desktop Entry]
        first = rng.choice(with_action)
        apps.remove(first)
        apps.insert(0, first)
    started, launchers = apps[:3], apps[3:6]
    spec = [FileSpec(f"{AUTOSTART}/{a}.desktop", "text", _entry(a, autostart=True)) for a in started]
    spec += [FileSpec(f"{LAUNCHERS}/{a}.desktop", "text", _entry(a, autostart=False)) for a in launchers]
    if change == "add":
        app, other = launchers[0], launchers[1]
        path, source = f"{AUTOSTART}/{app}.desktop", f"{LAUNCHERS}/{app}.desktop"
        key, value = "Exec", APPS[app][1]
        task = (f"Make {APPS[app][0]} start automatically when I log in: copy its launcher {source} to {path} "
                "(keep the launcher where it is).")
        neighbour, text = f"{LAUNCHERS}/{other}.desktop", ""
    else:
        app, other = started[0], started[1]
        path, source = f"{AUTOSTART}/{app}.desktop", ""
        text = _entry(app, autostart=True)
        neighbour = f"{AUTOSTART}/{other}.desktop"
        if change == "disable":
            key, value = "X-GNOME-Autostart-enabled", "false"
            task = (f"Stop {APPS[app][0]} from starting at login without deleting its entry {path}: set "
                    "X-GNOME-Autostart-enabled=false in its [Desktop Entry] section.")
        else:
            n = rng.choice((5, 10, 15, 20, 30, 45))
            key, value = "X-GNOME-Autostart-Delay", str(n)
            task = (f"Delay the start of {APPS[app][0]} at login by {n} seconds: add X-GNOME-Autostart-Delay={n} to "
                    f"the [Desktop Entry] section of {path}.")
    facts = {"autostart": AUTOSTART, "task": task, "task_lc": task[0].lower() + task[1:]}
    near = source or path  # look-alikes of the launcher to copy, or of the entry to edit
    return Goal(oc.dress(rng, params, pool, spec, near, facts), facts,
                Target(change, path, source, key, value, text, neighbour))


def rubric(tree: list[FileSpec], target: Target) -> list[Check]:
    t = target
    if t.change == "add":
        launcher = next(s for s in tree if s.path == t.source)
        return [Check("entry", f"{t.path} exists (a file, not a link).", "fs.exists", {"path": t.path, "kind": "file"}),
                Check("copy", f"{t.path} is a copy of {t.source}.", "fs.same_content",
                      {"path": t.path, "sha256": oc.sha(launcher)})]
    return [Check("value", f"In {t.path}, [Desktop Entry] sets {t.key} once, to {t.value}.", "fs.config_value",
                  {"path": t.path, "section": "Desktop Entry", "key": t.key, "value": t.value})]


def _insert(path: str, line: str) -> dict[str, Any]:
    """`line` right under the [Desktop Entry] header."""
    return {"op": "fs.replace_in_file", "path": path, "old": "[Desktop Entry]\n", "new": f"[Desktop Entry]\n{line}\n",
            "count": 1}


def solve(target: Target) -> Attempts:
    t = target
    name = t.path.rsplit("/", 1)[1]
    if t.change == "add":
        copy = {"op": "fs.copy", "path": t.source, "dest": t.path}
        return Attempts(Attempt("copies the launcher into the autostart folder", [copy]), [
            Attempt("copies it into ~/.local/share/autostart",
                    [{**copy, "dest": oc.home(f".local/share/autostart/{name}")}]),
            Attempt("copies the neighbouring launcher", [{**copy, "path": t.neighbour,
                                                          "dest": f"{AUTOSTART}/{t.neighbour.rsplit('/', 1)[1]}"}]),
            Attempt("moves the launcher out of the app menu", [{**copy, "op": "fs.move"}]),
            Attempt("saves the copy without its .desktop extension",
                    [{**copy, "dest": t.path.removesuffix(".desktop")}]),
        ])
    if t.change == "disable":
        swap = {"op": "fs.replace_in_file", "path": t.path, "old": "X-GNOME-Autostart-enabled=true",
                "new": "X-GNOME-Autostart-enabled=false"}
        return Attempts(Attempt("switches the entry's autostart off", [swap]), [
            Attempt("deletes the entry", [{"op": "fs.delete", "path": t.path}]),
            Attempt("appends a second enabled line, leaving the first",
                    [{"op": "fs.append_text", "path": t.path, "text": "X-GNOME-Autostart-enabled=false\n"}]),
            Attempt("writes the value as False", [{**swap, "new": "X-GNOME-Autostart-enabled=False"}]),
            Attempt("disables another entry", [{**swap, "path": t.neighbour}]),
        ])
    line = f"{t.key}={t.value}"
    return Attempts(Attempt("adds the delay to the [Desktop Entry] section", [_insert(t.path, line)]), [
        Attempt("appends the line at the end of the file, inside the [Desktop Action] section",
                [{"op": "fs.append_text", "path": t.path, "text": line + "\n"}]),
        Attempt("gives the delay in milliseconds", [_insert(t.path, f"{t.key}={int(t.value) * 1000}")]),
        Attempt("delays another entry", [_insert(t.neighbour, line)]),
    ])


WORKFLOW = family(
    NAME, oc.kit_without("location"),  # autostart entries live where the session reads them
    description="Change the desktop's login applications in ~/.config/autostart: add an app (a copy of its launcher), "
                "disable an entry without deleting it, or delay an entry's start.",
    knobs={"change": ("add", "disable", "delay")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
