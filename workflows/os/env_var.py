"""os.env_var: set a user environment variable persistently, in the file the session or the shell reads it from.

Knob `where`: a systemd user environment file (~/.config/environment.d/*.conf, `KEY=VALUE`, read by the login
session), ~/.bashrc (an `export` line, read by every interactive bash) or ~/.profile (an `export` line, read at
login). Knob `change`: `add` a variable the file does not set yet, or `update` one it sets to an older value. The
rubric reads the file as its reader does (`env.variable_set`: the last assignment wins; the shell needs the
variable exported; environment.d reads no `export`); a shell file keeps every other line, comments included
(`fs.lines_kept`: the tree frame sees only that the file changed), an environment.d .conf is the config frame's
(its keys and comments); the tree frame keeps every other file.

Near-misses: the line written to the other file (~/.profile for ~/.bashrc and back; ~/.profile for an
environment.d file), the shell line without `export`, `export` in an environment.d file, spaces around '=' (a
command to bash), the file overwritten with the one line (> instead of >>), the neighbouring variable changed.
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

NAME = "os.env_var"
ENVD = oc.home(".config/environment.d")
#: variable -> (the value asked, an older value, what it is for)
VARIABLES = {
    "JAVA_HOME": ("/usr/lib/jvm/java-17-openjdk-amd64", "/usr/lib/jvm/java-11-openjdk-amd64", "the Java toolchain"),
    "GOPATH": ("/home/user/code/go", "/home/user/go", "Go's workspace"),
    "NODE_OPTIONS": ("--max-old-space-size=4096", "--max-old-space-size=2048", "Node.js's memory limit"),
    "HTTPS_PROXY": ("http://proxy.harbourline.lan:3128", "http://proxy.harbourline.lan:8080", "the office proxy"),
    "MOZ_ENABLE_WAYLAND": ("1", "0", "Firefox on Wayland"),
    "QT_QPA_PLATFORMTHEME": ("gtk3", "qt5ct", "the Qt apps' theme"),
    "ANDROID_HOME": ("/home/user/Android/Sdk", "/opt/android-sdk", "the Android SDK"),
    "PIP_REQUIRE_VIRTUALENV": ("true", "false", "pip's virtualenv guard"),
    "SDL_VIDEODRIVER": ("wayland", "x11", "SDL games' video driver"),
    "MANPAGER": ("less -R", "more", "the manual pages' pager"),
}
PROFILE = ("# ~/.profile: executed by the command interpreter for login shells.",
           "# This file is not read by bash(1), if ~/.bash_profile or ~/.bash_login exists.",
           "", "# the default umask is set in /etc/profile", "#umask 022", "",
           "# if running bash", 'if [ -n "$BASH_VERSION" ]; then', "    # include .bashrc if it exists",
           '    if [ -f "$HOME/.bashrc" ]; then', '\t. "$HOME/.bashrc"', "    fi", "fi", "",
           "# set PATH so it includes user's private bin if it exists", 'if [ -d "$HOME/.local/bin" ] ; then',
           '    PATH="$HOME/.local/bin:$PATH"', "fi")
BASHRC = ("# ~/.bashrc: executed by bash(1) for non-login shells.", "", "# If not running interactively, stop here",
          "case $- in", "    *i*) ;;", "      *) return;;", "esac", "", "HISTCONTROL=ignoreboth", "HISTSIZE=1000",
          "HISTFILESIZE=2000", "shopt -s histappend", "", "alias ll='ls -alF'", "alias la='ls -A'",
          "alias gs='git status'")
ENVD_HEADER = ("# Environment for my desktop session, read by systemd --user at login.",
               "# Format: KEY=VALUE, one per line (see environment.d(5)).")
TASKS = {
    ("environment_d", "add"): "Set the user environment variable {name} to {value} ({why}) for every login session: "
                              "add it to the systemd user environment file {path}.",
    ("environment_d", "update"): "The systemd user environment file {path} sets {name} to {old}; change it to "
                                 "{value} ({why}).",
    ("bashrc", "add"): "Set the environment variable {name} to {value} ({why}) permanently for my terminals: export "
                       "it from {path}.",
    ("bashrc", "update"): "My {path} exports {name} as {old}; make it export {value} instead ({why}).",
    ("profile", "add"): "Set the environment variable {name} to {value} ({why}) for my login sessions: export it "
                        "from {path}.",
    ("profile", "update"): "My {path} exports {name} as {old}; make it export {value} instead ({why}).",
}
PHRASINGS = (
    "{task} Keep every other line of the file, comments included, and change no other file.",
    "Please make this change: {task} Everything else in the file stays as it is.",
    "Using the terminal or a text editor: {task} Don't touch the other lines or files.",
    "{task} The rest of the file must not change.",
    "I need an environment variable sorted out. {task} Leave everything else alone.",
)
NATURAL = (
    "{task}",
    "Could you help me with an environment variable? {task}",
    "Quick one: {task_lc}",
    "{task} Thanks!",
    "Please sort this out for me: {task_lc}",
)


class Params(TypedDict):
    where: Literal["environment_d", "bashrc", "profile"]
    change: Literal["add", "update"]


@dataclass(frozen=True)
class Target:
    where: str
    change: str
    path: str
    name: str
    value: str
    old: str
    text: str  # the file as prepared
    neighbour: str  # another variable the file sets
    other_file: str  # where a near-miss writes the line instead


def _line(where: str, name: str, value: str) -> str:
    quoted = f'"{value}"' if " " in value else value
    return f"{name}={quoted}" if where == "environment_d" else f"export {name}={quoted}"


def goal(rng: random.Random, params: Params, pool: Mapping[str, Any]) -> Goal[list[FileSpec], Target]:
    where, change = params["where"], params["change"]
    names = list(VARIABLES)
    rng.shuffle(names)
    name, neighbour, third = names[:3]
    value, old, why = VARIABLES[name]
    existing = [neighbour, third] + ([name] if change == "update" else [])
    rng.shuffle(existing)
    if where == "environment_d":
        path = f"{ENVD}/{rng.choice(('50-user', '60-session', 'envvars', '90-local'))}.conf"
        lines = [*ENVD_HEADER, "", *(_line(where, n, VARIABLES[n][1 if n == name else 0]) for n in existing)]
        other = oc.home(".profile")
    else:
        base = BASHRC if where == "bashrc" else PROFILE
        path = oc.home(".bashrc" if where == "bashrc" else ".profile")
        lines = [*base, "", "# my settings", *(_line(where, n, VARIABLES[n][1 if n == name else 0]) for n in existing)]
        other = oc.home(".profile" if where == "bashrc" else ".bashrc")
    text = "\n".join(lines) + "\n"
    spec = [FileSpec(path, "text", text)]
    # the other shell file is there too, as in every home
    spec.append(FileSpec(other, "text", "\n".join(BASHRC if other.endswith(".bashrc") else PROFILE) + "\n"))
    said = {k: f"'{v}'" if " " in v else v for k, v in (("value", value), ("old", old))}  # 'less -R' is one value
    task = TASKS[(where, change)].format(name=name, why=why, path=path, **said)
    facts = {"task": task, "task_lc": task[0].lower() + task[1:], "path": path}
    target = Target(where, change, path, name, value, old, text, neighbour, other)
    return Goal(oc.dress(rng, params, pool, spec, path, facts), facts, target)


def _kept(target: Target) -> list[str]:
    """The file's lines the task keeps: all of them, but the old assignment an update replaces."""
    old = _line(target.where, target.name, target.old)
    return [line for line in target.text.splitlines() if not (target.change == "update" and line == old)]


def rubric(target: Target) -> list[Check]:
    t = target
    syntax = "environment.d" if t.where == "environment_d" else "shell"
    reader = "the login session" if syntax == "environment.d" else "bash"
    checks = [Check("set", f"Read as {reader} reads it, {t.path} sets {t.name} to {t.value}"
                           f"{'' if syntax == 'environment.d' else ' and exports it'}.",
                    "env.variable_set", {"path": t.path, "name": t.name, "value": t.value, "syntax": syntax})]
    if syntax == "shell":  # an environment.d .conf is a framed config (its keys and comments); a shell file is not,
        # and the tree frame sees only that it changed, not which of its lines
        checks.append(Check("kept", f"Every other line of {t.path}, comments included, is still there in order.",
                            "fs.lines_kept", {"path": t.path, "lines": _kept(t)}))
    return checks


def _put(t: Target, line: str, path: str | None = None) -> list[dict[str, Any]]:
    """The edit that writes `line`: in place of the old assignment (update) or at the end of the file (add)."""
    path = path or t.path
    if t.change == "update" and path == t.path:
        return [{"op": "fs.replace_in_file", "path": path, "old": _line(t.where, t.name, t.old) + "\n",
                 "new": line + "\n", "count": 1}]
    return [{"op": "fs.append_text", "path": path, "text": line + "\n"}]


def solve(target: Target) -> Attempts:
    t = target
    good = _line(t.where, t.name, t.value)
    misses = [Attempt(f"writes the line to {t.other_file} instead",
                      [{"op": "fs.append_text", "path": t.other_file, "text": _line("profile", t.name, t.value)
                        + "\n"}]),
              Attempt("overwrites the file with the one line (> instead of >>)",
                      [{"op": "fs.write_text", "path": t.path, "text": good + "\n"}])]
    if t.where == "environment_d":
        misses.append(Attempt("writes an export line, which environment.d does not read",
                              _put(t, f"export {good}")))
    else:
        misses += [Attempt("sets the variable without exporting it", _put(t, good.removeprefix("export "))),
                   Attempt("puts spaces around '=', which bash runs as a command",
                           _put(t, good.replace("=", " = ", 1)))]
    if t.change == "update":
        value = VARIABLES[t.neighbour][0]
        misses.append(Attempt("changes the neighbouring variable instead", [
            {"op": "fs.replace_in_file", "path": t.path, "old": _line(t.where, t.neighbour, value) + "\n",
             "new": _line(t.where, t.neighbour, t.value) + "\n", "count": 1}]))
    return Attempts(Attempt(f"writes {good} to {t.path}", _put(t, good)), misses)


WORKFLOW = family(
    NAME, oc.kit_without("location"),  # the file lives where the session or the shell reads it
    description="Set a user environment variable persistently: in a systemd environment.d file, or exported from "
                "~/.bashrc or ~/.profile; add a new one or change an existing one, keeping every other line.",
    knobs={"where": ("environment_d", "bashrc", "profile"), "change": ("add", "update")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
