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
from typing import Any

from forge.dag import NodeContext, Workflow, node
from forge.model import Check, Solution
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


@node("goal", "goal", ("params", "pool"), ("tree", "facts", "target"))
def goal(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng, pool, edit = ctx.rng("goal"), values["pool"], values["params"]["edit"]
    project = rng.choice(pool["projects"])
    target: dict[str, Any] = {"edit": edit}
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
        target |= {"sections": sections, "expected": expected, "section": section, "key": key, "value": value,
                   "line": line}
    else:
        lines, path, new_line, old_line, task = _text_file(edit, pool, rng, project)
        text = "\n".join(lines) + "\n"
        target |= {"lines": lines, "new_line": new_line, "old_line": old_line}
    target |= {"path": path, "text": text}
    facts = {"path": path, "task": task, "task_lc": task[0].lower() + task[1:]}
    return {"tree": [FileSpec(path, "text", text)], "facts": facts, "target": target}


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


@node("rubric", "rubric", ("target",), ("rubric",))
def rubric(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    t = values["target"]
    path, edit = t["path"], t["edit"]
    if "expected" in t:
        keep = Check("others", f"{path} sets exactly: {t['expected']}.", "fs.config_matches",
                     {"path": path, "entries": t["expected"]})
        if edit == "comment_out":
            return {"rubric": [Check("commented", f"In {path}, '{t['line']}' is commented out.", "fs.commented",
                                     {"path": path, "line": t["line"]}), keep]}
        args = {"path": path, "key": t["key"], "value": t["value"]} | ({"section": t["section"]} if t["section"]
                                                                      else {})
        return {"rubric": [Check("value", f"In {path}, {t['key']} is set once, to {t['value']}.",
                                 "fs.config_value", args), keep]}
    lines = [x for x in t["lines"] if x != t["old_line"]] if edit == "delete_line" else \
        [t["new_line"] if x == t["old_line"] else x for x in t["lines"]]
    if edit == "append_line":
        lines = [*t["lines"], t["new_line"]]
    checks = [Check("lines", f"{path} consists of exactly the expected {len(lines)} lines.", "fs.lines_equal",
                    {"path": path, "lines": lines})]
    if t["new_line"]:
        checks.append(Check("added", f"{path} has the line {t['new_line']!r}.", "fs.line_present",
                            {"path": path, "line": t["new_line"]}))
    if t["old_line"]:
        checks.append(Check("removed", f"{path} no longer has the line {t['old_line']!r}.", "fs.line_absent",
                            {"path": path, "line": t["old_line"]}))
    return {"rubric": checks}


@node("solve", "solve", ("target",), ("solutions",))
def solve(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    t = values["target"]
    path, edit, text = t["path"], t["edit"], t["text"]

    def write(new_text: str) -> list[dict[str, Any]]:
        return [{"op": "fs.write_text", "path": path, "text": new_text}]

    lines = text.splitlines()
    misses: list[tuple[str, list[dict[str, Any]]]] = []
    if "expected" in t:
        expected = t["expected"]
        body = "".join(f"{k}={v}\n" for k, v in expected[""].items()) if edit == "env_set" else \
            oc.render_ini(expected, header=text.splitlines()[0][2:])
        if edit == "comment_out":
            body = text.replace(f"\n{t['line']}\n", f"\n# {t['line']}\n", 1)
        oracle = write(body)
        key, value, section = t["key"], t["value"], t["section"]
        added = f"{key}={value}" if edit == "env_set" else f"{key} = {value}"
        misses.append(("appends the setting at the end, leaving the old one", write(text.rstrip("\n") + "\n"
                                                                                    + added + "\n")))
        others = [s for s in t["sections"] if s != section] if section else []
        if others:
            wrong = {s: dict(k) for s, k in t["sections"].items()}
            wrong[others[0]][key] = value
            misses.append(("makes the change in the wrong section", write(oc.render_ini(wrong))))
        if edit == "comment_out":
            misses.append(("deletes the line instead of commenting it out",
                           write(text.replace(f"\n{t['line']}\n", "\n", 1))))
        elif edit != "ini_add":
            neighbour = next(k for k in t["sections"][section] if k != key)
            wrong = {s: dict(k) for s, k in t["sections"].items()}
            wrong[section][neighbour] = value
            body = "".join(f"{k}={v}\n" for k, v in wrong[""].items()) if edit == "env_set" else \
                oc.render_ini(wrong)
            misses.append(("changes the neighbouring key instead", write(body)))
    else:
        new, old = t["new_line"], t["old_line"]
        if edit == "append_line":
            oracle = [{"op": "fs.append_text", "path": path, "text": new + "\n"}]
            misses += [("overwrites the file with the new line (> instead of >>)", write(new + "\n")),
                       ("inserts the line at the top of the file", write(new + "\n" + text))]
        elif edit == "delete_line":
            at = lines.index(old)
            oracle = write("\n".join(lines[:at] + lines[at + 1:]) + "\n")
            misses += [("deletes the line after it (off by one)", write("\n".join(lines[:at + 1] + lines[at + 2:])
                                                                         + "\n")),
                       ("empties the line but leaves it blank", write("\n".join(lines[:at] + [""] + lines[at + 1:])
                                                                     + "\n"))]
        else:
            oracle = [{"op": "fs.replace_in_file", "path": path, "old": old, "new": new}]
            misses += [("adds the new line but keeps the old one", [{"op": "fs.replace_in_file", "path": path,
                                                                     "old": old, "new": old + "\n" + new}]),
                       ("marks every item done", [{"op": "fs.replace_in_file", "path": path, "old": "- [ ]",
                                                   "new": "- [x]"}])]
    return {"solutions": [Solution("oracle", "makes exactly the asked edit", oracle)]
            + [Solution(f"near-miss-{i}", why, ops) for i, (why, ops) in enumerate(misses, start=1)]}


WORKFLOW = Workflow(
    name=NAME,
    version=1,
    apps=(oc.APP,),
    description="Edit a config or text file: set or add a key, append, replace, comment out or delete a line.",
    knobs={"edit": ("ini_set", "conf_set", "env_set", "ini_add", "append_line", "replace_line", "comment_out",
                    "delete_line")},
    nodes=(*oc.source_nodes(), goal, oc.prepare, oc.instruction(NAME, PHRASINGS), rubric, solve),
)
