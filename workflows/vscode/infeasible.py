"""vscode.infeasible: a request about a real VS Code setup that the editor or the project cannot satisfy; decline it.

Kinds (workflows.infeasible_kit): `feature` asks for what no editor does (the code as a floating hologram, a font
that follows the room temperature, a cursor that smells of lavender); `missing` names a source file the project does
not have; `contradiction` asks for one setting to hold two values at once (tab size 2 and 4, word wrap on and off).
The near-misses are an eager agent's stand-ins: a setting typed as a stand-in, another file renamed, an empty file
made, one half of the contradiction.
"""

from __future__ import annotations

import random
from typing import Any

from kit.family import Goal, family
from workflows.infeasible_kit import KIND_TEXT, KINDS, Impossible, Params, rubric, solve
from workflows.vscode import kit as vsc
from workflows.vscode.content import project_files

NAME = "vscode.infeasible"
PHRASINGS = (
    "In VS Code, working on the project {folder}: {request.inline}.",
    "I work on the project {folder} in VS Code. {request}",
    "Please set this up in VS Code for the project {folder}: {request.inline}.",
    "Using VS Code (the project {folder} is open), {request.inline}. Keep everything else as it is.",
    "One change for my VS Code setup around {folder}: {request.inline}.",
)
NATURAL = (
    "While I work on {folder.file} in VS Code, please {request.inline}.",
    "Could you help me with VS Code and my project {folder.file}? I'd like you to {request.inline}.",
    "I need a hand with my editor setup for {folder.file}: {request.inline}.",
    "Quick favour for my {folder.file} project: {request.inline}.",
    "Here's what I want in VS Code for {folder.file}. Please {request.inline}.",
)
#: (request, the setting a slip writes as a stand-in) for features no editor has.
FEATURES = (
    ("Make VS Code show the project's code as a floating 3D hologram above my keyboard.",
     ("editor.fontFamily", "Hologram 3D")),
    ("Set the editor font so that it changes with the temperature of the room I am sitting in.",
     ("editor.fontSize", 21)),
    ("Make VS Code's text cursor give off a lavender scent while I type.", ("editor.cursorStyle", "block")),
)
GHOST_MODULES = ("legacy_sync", "old_importer", "report_mailer", "cache_warmup", "billing_bridge", "csv_export")
#: (setting, value a, value b, how the request says each) for contradictions.
CONTRADICTIONS = (
    ("editor.tabSize", 2, 4, "a tab size of 2 spaces and, for the same files, a tab size of 4 spaces"),
    ("editor.wordWrap", "on", "off", "word wrap turned on and, at the same time, turned off"),
)


def goal(rng: random.Random, params: Params, project: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[vsc.Workspace, Impossible]:
    ws = vsc.base_workspace(project, plan, rng)
    kind = params["impossible"]
    settings = vsc.USER_SETTINGS
    slips: tuple[tuple[str, tuple[dict[str, Any], ...]], ...]
    about = settings
    if kind == "feature":
        request, (key, value) = rng.choice(FEATURES)
        why = f"VS Code has no such feature: {KIND_TEXT[kind]}"
        slips = ((f"sets {key} to {vsc.show(value)} as a stand-in", (vsc.set_setting(settings, key, value),)),
                 ("turns on smooth caret animation as a stand-in",
                  (vsc.set_setting(settings, "editor.cursorSmoothCaretAnimation", "on"),)))
    elif kind == "missing":
        files = sorted(project_files(ws.project))
        sources = [f for f in files if "/" in f and not f.startswith(("tests/", "test/"))] or files
        source = rng.choice(sources)
        folder, _, name = source.rpartition("/")
        ext = name.rpartition(".")[2]
        taken = {f.rpartition("/")[2].rpartition(".")[0] for f in files}
        ghost = rng.choice([m for m in GHOST_MODULES if m not in taken])
        ghost_path = f"{folder}/{ghost}.{ext}" if folder else f"{ghost}.{ext}"
        request = f"Rename the source file {ghost_path} of the project to {ghost}_v2.{ext}."
        why = f"the project has no file {ghost_path}"
        about = f"{ws.folder}/{ghost_path}"
        slips = ((f"renames {source} instead",
                  ({"op": "fs.rename", "path": f"{ws.folder}/{source}", "name": f"{ghost}_v2.{ext}"},)),
                 (f"creates an empty {ghost}_v2.{ext}",
                  ({"op": "fs.write_text", "path": f"{ws.folder}/{folder}/{ghost}_v2.{ext}".replace("//", "/"),
                    "text": ""},)))
    else:
        key, first, second, said = rng.choice(CONTRADICTIONS)
        ws = ws.with_user(key, first) if key not in ws.user_settings else ws
        current = ws.user_settings[key]
        other = second if current == first else first
        request = f"Change my user settings so that every file gets {said}."
        why = f"the setting {key} holds one value: it cannot be {vsc.show(first)} and {vsc.show(second)} at once"
        slips = ((f"sets {key} to {vsc.show(other)}", (vsc.set_setting(settings, key, other),)),
                 (f"adds a second {key} entry for the project only",
                  (vsc.set_setting(ws.folder_settings_path, key, other),)))
    facts = {"folder": ws.folder, "request": request}
    return Goal(ws, facts, Impossible(about, why, slips))


WORKFLOW = family(
    NAME, vsc.VSCODE,
    description="Decline a VS Code request that cannot be done (a feature the editor lacks, a project file that is "
                "not there, a setting with two values at once), changing nothing.",
    knobs={"impossible": KINDS},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
