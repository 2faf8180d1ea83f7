"""os.config_edit: edit a config or text file — set or add a key, append, replace, comment out or delete a line.

Files: an ini file with two sections sharing a key name (~/.config/<app>/<app>.ini), a flat key = value .conf,
a project .env, ~/.bashrc, a markdown to-do list and a mailing list. Config checks parse the file (spacing,
comments and quotes are free; a key set twice fails) and require every other key unchanged; line checks require
the exact lines. Near-misses: the wrong section, a duplicate line appended instead of an edit, overwriting the
file, inserting at the top, the neighbouring line, deleting instead of commenting out.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers.tree import FileSpec
from workflows.calc.content import FIRST_NAMES, LAST_NAMES
from workflows.os import kit as oc

NAME = "os.config_edit"
SHARED_KEYS = (("enabled", "true", "false"), ("log_level", "info", "debug"), ("timeout", "30", "45"),
               ("cache", "on", "off"))
NEW_KEYS = (("autosave", "true"), ("theme", "dark"), ("language", "en_GB"), ("max_items", "250"),
            ("notify", "false"))
BASHRC = ("# ~/.bashrc: executed by bash for non-login shells.", "", "# If not running interactively, stop here",
          "case $- in", "    *i*) ;;", "      *) return;;", "esac", "", "HISTCONTROL=ignoreboth", "HISTSIZE=1000",
          "HISTFILESIZE=2000", "shopt -s histappend", "", "alias ll='ls -alF'", "alias la='ls -A'",
          "alias gs='git status'", "export EDITOR=nano")
BASHRC_EXTRAS = ("alias gd='git diff'", "alias ..='cd ..'", "export VISUAL=vim", "alias py=python3",
                 "export LESS='-R'", "alias grep='grep --color=auto'", "export HISTTIMEFORMAT='%F %T '",
                 "alias dc='docker compose'", "alias serve='python3 -m http.server'", "export PAGER=less")
PHRASINGS = (
    "Edit {path}: {task_lc} Don't change anything else in the file.",
    "Please edit {path}. {task} Everything else in it must stay as it is.",
    "Using a text editor or the terminal, update {path}: {task_lc} Leave the rest of the file alone.",
    "I need a small change in {path}. {task} Keep all other lines and settings unchanged.",
    "Open {path} and make this change: {task_lc} Nothing else should change; save the file in place.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "In {path}, please {task_lc}",
    "Could you edit {path} for me? {task}",
    "One small change to {path}, please. {task}",
    "{task} The file is {path}.",
    "Please update {path}: {task_lc}",
)


class Params(TypedDict):
    edit: Literal["ini_set", "conf_set", "env_set", "ini_add", "append_line", "replace_line", "comment_out",
                  "delete_line"]


@dataclass(frozen=True)
class KeyEdit:
    """A setting of a config file to set, add or comment out (ini_set, conf_set, env_set, ini_add, comment_out)."""

    edit: str
    path: str
    text: str  # the file as it is
    sections: dict[str, dict[str, str]]  # section ("" for a flat file) -> key -> value, as it is
    expected: dict[str, dict[str, str]]  # the same after the edit
    section: str  # where the key lives ("" for a flat file)
    key: str
    value: str  # the value to set
    line: str  # the key's line as written (`key = value`), for comment_out


@dataclass(frozen=True)
class LineEdit:
    """A text file's line to append, replace or delete (append_line, replace_line, delete_line)."""

    edit: str
    path: str
    text: str
    lines: list[str]  # the file's lines as they are
    new_line: str  # the line to add ("" for delete_line)
    old_line: str  # the line to replace or delete ("" for append_line)


Target = KeyEdit | LineEdit


FLIPS = {"true": "false", "false": "true", "on": "off", "off": "on", "info": "warning", "debug": "info",
         "csv": "xlsx", "wav": "flac", "daily": "weekly", "metric": "imperial"}


def _editable(value: str) -> bool:
    return value.isdigit() or value in FLIPS


def _changed(value: str) -> str:
    """A plausible new value for a setting."""
    if value.isdigit():
        return str(int(value) * 2 if int(value) < 1000 else int(value) // 2)
    return FLIPS[value]


def _ini(pool: Mapping[str, Any], rng: random.Random) -> tuple[str, dict[str, dict[str, str]], str]:
    """(app, sections with one key name present in both, that shared key)."""
    setting = rng.choice(pool["settings"])
    sections = {name: dict(keys) for name, keys in setting["sections"].items()}
    key, a, b = rng.choice([k for k in SHARED_KEYS if all(k[0] not in s for s in sections.values())])
    first, second = list(sections)[:2]
    sections[first][key], sections[second][key] = a, b
    return setting["app"], sections, key


def goal(rng: random.Random, params: Params, pool: Mapping[str, Any]) -> Goal[list[FileSpec], Target]:
    edit = params["edit"]
    project = rng.choice(pool["projects"])
    target: Target
    if edit in ("ini_set", "ini_add", "conf_set", "env_set", "comment_out"):
        app, sections, shared = _ini(pool, rng)
        names = list(sections)
        if edit in ("conf_set", "comment_out"):
            sections = {"": {k: v for s in sections.values() for k, v in s.items()}}
            path = oc.home(f".config/{app}/{app}.conf")
        elif edit == "env_set":
            sections = {"": {k.upper(): v for s in sections.values() for k, v in s.items()}}
            path = oc.home(f"projects/{project}/.env")
        else:
            path = oc.home(f".config/{app}/{app}.ini")
        text = oc.render_ini(sections, header=f"{app} settings")
        if edit == "env_set":
            text = "".join(f"{k}={v}\n" for k, v in sections[""].items())
        section = rng.choice(names[:-1] if edit == "ini_add" else names[:2]) if edit.startswith("ini") else ""
        keys = sections[section]
        if edit == "ini_add":
            key, value = rng.choice([k for k in NEW_KEYS if k[0] not in keys])
        else:
            key = shared if edit == "ini_set" else rng.choice(sorted(k for k, v in keys.items() if _editable(v)))
            value = _changed(keys[key])
        where = f" in the [{section}] section" if section else ""
        line = f"{key} = {keys.get(key, '')}"
        task = {"ini_set": f"Set {key} to {value}{where} (only there).",
                "conf_set": f"Change the value of {key} to {value}.",
                "env_set": f"Change {key} so that it is set to {value}.",
                "ini_add": f"Add a new setting {key} with the value {value}{where}.",
                "comment_out": f"Disable the line '{line}' by commenting it out with a # at the start of the line "
                               "(don't delete it)."}[edit]
        expected = {s: dict(k) for s, k in sections.items()}
        if edit == "comment_out":
            del expected[""][key]
        else:
            expected[section][key] = value
        target = KeyEdit(edit, path, text, sections, expected, section, key, value, line)
    else:
        lines, path, new_line, old_line, task = _text_file(edit, pool, rng, project)
        text = "\n".join(lines) + "\n"
        target = LineEdit(edit, path, text, lines, new_line, old_line)
    facts = {"path": path, "task": task, "task_lc": task[0].lower() + task[1:]}
    return Goal(oc.dress(rng, params, pool, [FileSpec(path, "text", text)], path, facts), facts, target)


def _bashrc(rng: random.Random) -> list[str]:
    """A lived-in ~/.bashrc: the Debian skeleton, a history size and a few of the user's own lines."""
    lines = list(BASHRC)
    lines[lines.index("HISTSIZE=1000")] = f"HISTSIZE={rng.choice((1000, 2000, 5000, 10000))}"
    return lines + rng.sample(BASHRC_EXTRAS, rng.randint(2, 4))


def _text_file(edit: str, pool: Mapping[str, Any], rng: random.Random, project: str
               ) -> tuple[list[str], str, str, str, str]:
    """(lines, path, new line, old line, task sentence) for the line-based edits."""
    if edit == "append_line":
        script = rng.choice(pool["scripts"])["stem"]
        new = rng.choice((f"alias {script.split('_')[0]}='~/bin/{script}.sh'", 'export PATH="$HOME/bin:$PATH"',
                          f"export PROJECT_DIR=\"$HOME/projects/{project}\"", "alias update='sudo apt update'"))
        path = oc.home(".bashrc")
        return _bashrc(rng), path, new, "", f"Append the line {new} to the end of the file."
    if edit == "delete_line":
        people = rng.sample([f"{f.lower()}.{x.lower()}@example.org" for f in FIRST_NAMES for x in LAST_NAMES], 9)
        path = oc.home(f"Documents/{project}/mailing_list.txt")
        gone = rng.choice(people[1:-1])
        return people, path, "", gone, f"Remove the address {gone} (delete its whole line)."
    notes = rng.sample(sorted({n for d in pool["documents"] for n in d["lines"][2:]}), 6)
    lines = [f"# {project} to-do", "", *(f"- [ ] {n}" for n in notes)]
    old = rng.choice(lines[3:])
    new = old.replace("- [ ]", "- [x]", 1)
    path = oc.home(f"Documents/{project}/todo.md")
    return lines, path, new, old, f"Mark the item '{old[6:]}' as done by replacing the line '{old}' with '{new}'."


def rubric(target: Target) -> list[Check]:
    t, path = target, target.path
    if isinstance(t, KeyEdit):
        keep = Check("others", f"{path} sets exactly: {t.expected}.", "fs.config_matches",
                     {"path": path, "entries": t.expected})
        if t.edit == "comment_out":
            return [Check("commented", f"In {path}, '{t.line}' is commented out.", "fs.commented",
                          {"path": path, "line": t.line}), keep]
        args = {"path": path, "key": t.key, "value": t.value} | ({"section": t.section} if t.section else {})
        return [Check("value", f"In {path}, {t.key} is set once, to {t.value}.", "fs.config_value", args), keep]
    lines = [x for x in t.lines if x != t.old_line] if t.edit == "delete_line" else \
        [t.new_line if x == t.old_line else x for x in t.lines]
    if t.edit == "append_line":
        lines = [*t.lines, t.new_line]
    checks = [Check("lines", f"{path} consists of exactly the expected {len(lines)} lines.", "fs.lines_equal",
                    {"path": path, "lines": lines})]
    if t.new_line:
        checks.append(Check("added", f"{path} has the line {t.new_line!r}.", "fs.line_present",
                            {"path": path, "line": t.new_line}))
    if t.old_line:
        checks.append(Check("removed", f"{path} no longer has the line {t.old_line!r}.", "fs.line_absent",
                            {"path": path, "line": t.old_line}))
    return checks


def _write(path: str, text: str) -> list[dict[str, Any]]:
    return [{"op": "fs.write_text", "path": path, "text": text}]


def _key_attempts(t: KeyEdit) -> Attempts:
    path, edit, text = t.path, t.edit, t.text
    body = "".join(f"{k}={v}\n" for k, v in t.expected[""].items()) if edit == "env_set" else \
        oc.render_ini(t.expected, header=text.splitlines()[0][2:])
    if edit == "comment_out":
        body = text.replace(f"\n{t.line}\n", f"\n# {t.line}\n", 1)
    key, value, section = t.key, t.value, t.section
    added = f"{key}={value}" if edit == "env_set" else f"{key} = {value}"
    misses = [Attempt("appends the setting at the end, leaving the old one",
                      _write(path, text.rstrip("\n") + "\n" + added + "\n"))]
    others = [s for s in t.sections if s != section] if section else []
    if others:
        wrong = {s: dict(k) for s, k in t.sections.items()}
        wrong[others[0]][key] = value
        misses.append(Attempt("makes the change in the wrong section", _write(path, oc.render_ini(wrong))))
    if edit == "comment_out":
        misses.append(Attempt("deletes the line instead of commenting it out",
                              _write(path, text.replace(f"\n{t.line}\n", "\n", 1))))
    elif edit != "ini_add":
        neighbour = next(k for k in t.sections[section] if k != key)
        wrong = {s: dict(k) for s, k in t.sections.items()}
        wrong[section][neighbour] = value
        changed = "".join(f"{k}={v}\n" for k, v in wrong[""].items()) if edit == "env_set" else \
            oc.render_ini(wrong)
        misses.append(Attempt("changes the neighbouring key instead", _write(path, changed)))
    return Attempts(Attempt("makes exactly the asked edit", _write(path, body)), misses)


def _line_attempts(t: LineEdit) -> Attempts:
    path, text, new, old = t.path, t.text, t.new_line, t.old_line
    lines = text.splitlines()
    if t.edit == "append_line":
        oracle = [{"op": "fs.append_text", "path": path, "text": new + "\n"}]
        misses = [Attempt("overwrites the file with the new line (> instead of >>)", _write(path, new + "\n")),
                  Attempt("inserts the line at the top of the file", _write(path, new + "\n" + text))]
    elif t.edit == "delete_line":
        at = lines.index(old)
        oracle = _write(path, "\n".join(lines[:at] + lines[at + 1:]) + "\n")
        misses = [Attempt("deletes the line after it (off by one)",
                          _write(path, "\n".join(lines[:at + 1] + lines[at + 2:]) + "\n")),
                  Attempt("empties the line but leaves it blank",
                          _write(path, "\n".join(lines[:at] + [""] + lines[at + 1:]) + "\n"))]
    else:
        oracle = [{"op": "fs.replace_in_file", "path": path, "old": old, "new": new}]
        misses = [Attempt("adds the new line but keeps the old one",
                          [{"op": "fs.replace_in_file", "path": path, "old": old, "new": old + "\n" + new}]),
                  Attempt("marks every item done",
                          [{"op": "fs.replace_in_file", "path": path, "old": "- [ ]", "new": "- [x]"}])]
    return Attempts(Attempt("makes exactly the asked edit", oracle), misses)


def solve(target: Target) -> Attempts:
    return _key_attempts(target) if isinstance(target, KeyEdit) else _line_attempts(target)


WORKFLOW = family(
    NAME, oc.kit_without("location"),  # a config file stays where its app reads it
    description="Edit a config or text file: set or add a key, append, replace, comment out or delete a line.",
    knobs={"edit": ("ini_set", "conf_set", "env_set", "ini_add", "append_line", "replace_line", "comment_out",
                    "delete_line")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
