"""vscode.install_vsix: install a VS Code extension from a .vsix package in ~/Downloads (Extensions: Install from
VSIX...), either fresh or over an older version of it installed before.

Check (vscode.extension_installed, on ~/.vscode/extensions, which the tree frame leaves to it): the package's
`extension/` files unpacked into `<publisher>.<name>-<version>/`, extensions.json listing the extension once at
that folder and at the new version, the user's other extensions still listed and on disk, nothing else listed.
Near-misses: fresh: the package unzipped as it is (package.json one folder down), extensions.json not updated,
extensions.json rewritten with the new extension only; upgrade: the old version's entry left beside the new one,
the package unzipped as it is, the folder named without its version.
The teacher unpacks with python's zipfile and edits extensions.json (the sandbox has no `code` command).
"""

from __future__ import annotations

import hashlib
import json
import random
import uuid
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family, prepare_node
from kit.model import HOME, Asset, Check
from preparers import vscode
from verifiers.checks.vscode_extensions import json_digest
from workflows.vscode import kit as vsc
from workflows.vscode.content import project_files

NAME = "vscode.install_vsix"
#: (publisher, name, display name, description, category) of extensions a team builds for itself
EXTENSIONS = (
    ("northwind", "csv-lens", "CSV Lens", "Column-aligned preview and quick filters for CSV files.", "Other"),
    ("fabrikam", "deploy-buttons", "Deploy Buttons", "Status bar buttons for the team's staging and production "
     "deploys.", "Other"),
    ("contoso", "schema-hints", "Schema Hints", "Completions for the internal service YAML schemas.",
     "Programming Languages"),
    ("acme-devtools", "log-highlighter", "Log Highlighter", "Colours log levels, timestamps and request ids in .log "
     "files.", "Other"),
    ("lindqvist", "frost-theme", "Frost Theme", "A calm blue-grey colour theme for long evenings.", "Themes"),
)
#: (id, display name, publisher display name, version) of marketplace extensions people already have
INSTALLED = (
    ("ms-python.python", "Python", "Microsoft", "2024.8.1"),
    ("esbenp.prettier-vscode", "Prettier - Code formatter", "Prettier", "10.4.0"),
    ("eamodio.gitlens", "GitLens", "GitKraken", "15.1.0"),
    ("ms-vscode.makefile-tools", "Makefile Tools", "Microsoft", "0.10.9"),
    ("streetsidesoftware.code-spell-checker", "Code Spell Checker", "Street Side Software", "3.0.1"),
    ("redhat.vscode-yaml", "YAML", "Red Hat", "1.15.0"),
)
SITUATION = {
    "fresh": "",
    "upgrade": " It replaces version {old} of the same extension, which I installed earlier; only the new version "
               "should remain installed.",
}
PHRASINGS = (
    "Install the VS Code extension {display} ({ident}, version {version}) from the package {vsix}.{situation} "
    "Keep my other extensions and change nothing else.",
    "In VS Code, use Install from VSIX to install {vsix}, the {display} extension {version}.{situation} Leave the "
    "other installed extensions as they are.",
    "Our team ships the {display} extension as a file: {vsix}. Install it in VS Code.{situation} Do not remove or "
    "add any other extension.",
    "Please install the extension package {vsix} ({display} {version}) into VS Code.{situation} The rest of my "
    "setup stays the same.",
    "Add the {display} extension to VS Code from the VSIX file {vsix}.{situation} My other extensions must stay "
    "installed.",
)
NATURAL = (
    "Can you install the {display} extension from {vsix.file} in my Downloads?{situation}",
    "Please install {vsix.file} from my Downloads folder in VS Code for me.{situation}",
    "I downloaded {vsix.file}; could you install that extension in VS Code?{situation}",
    "Install the {display} VSIX ({vsix.file}) from my Downloads folder into VS Code.{situation}",
    "Could you add the {display} extension to VS Code? The package is {vsix}.{situation}",
)


class Params(TypedDict):
    situation: Literal["fresh", "upgrade"]


@dataclass(frozen=True)
class Target:
    vsix: str
    ident: str
    version: str
    manifest: str  # the package's package.json (JSON text)
    files: tuple[tuple[str, str], ...]  # (relative path, sha256) of the package's other extension/ files
    kept: tuple[tuple[str, str], ...]  # (id, version) of the other installed extensions
    old_version: str | None
    assets: tuple[tuple[str, bytes], ...]  # the .vsix and ~/.vscode/extensions, beside the workspace


def _version(rng: random.Random) -> tuple[int, int, int]:
    return rng.randint(0, 2), rng.randint(1, 12), rng.randint(0, 9)


def _files(display: str, description: str, category: str, name: str, version: str) -> dict[str, str]:
    files = {"README.md": f"# {display}\n\n{description}\n\nInstall it from the .vsix the team shares, then reload "
                          "the window.\n",
             "CHANGELOG.md": f"# Change log\n\n## {version}\n\n- Fixes and small improvements.\n",
             "LICENSE.txt": "Internal use only. Copyright the authors.\n"}
    if category == "Themes":
        files[f"themes/{name}-color-theme.json"] = json.dumps(
            {"name": display, "type": "dark", "colors": {"editor.background": "#2b303b",
                                                         "editor.foreground": "#c0c5ce"}}, indent=2) + "\n"
    else:
        files["out/extension.js"] = ('"use strict";\nconst vscode = require("vscode");\n\n'
                                     "function activate(context) {\n"
                                     f'  context.subscriptions.push(vscode.commands.registerCommand("{name}.show", '
                                     f'() => vscode.window.showInformationMessage("{display} is active")));\n'
                                     "}\n\nfunction deactivate() {}\n\nmodule.exports = { activate, deactivate };\n")
    return files


def _package(publisher: str, name: str, display: str, description: str, category: str, version: str
             ) -> dict[str, Any]:
    package: dict[str, Any] = {"name": name, "displayName": display, "description": description,
                               "version": version, "publisher": publisher, "engines": {"vscode": "^1.85.0"},
                               "categories": [category]}
    if category == "Themes":
        package["contributes"] = {"themes": [{"label": display, "uiTheme": "vs-dark",
                                              "path": f"./themes/{name}-color-theme.json"}]}
    else:
        package["main"] = "./out/extension.js"
        package["activationEvents"] = ["onStartupFinished"]
        package["contributes"] = {"commands": [{"command": f"{name}.show", "title": f"{display}: Show"}]}
    return package


def _installed_folder(ident: str, version: str, package: dict[str, Any], files: dict[str, str]
                      ) -> dict[str, bytes]:
    root = f"{vscode.EXTENSIONS_DIR}/{ident}-{version}"
    out = {f"{root}/package.json": (json.dumps(package, indent=2) + "\n").encode()}
    out.update({f"{root}/{rel}": text.encode() for rel, text in files.items()})
    return out


def goal(rng: random.Random, params: Params, project: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[vsc.Workspace, Target]:
    ws = vsc.base_workspace(project, plan, rng)
    publisher, name, display, description, category = rng.choice(EXTENSIONS)
    ident = f"{publisher}.{name}"
    major, minor, patch = _version(rng)
    version = f"{major}.{minor}.{patch}"
    assets: dict[str, bytes] = {}
    entries = []
    kept = []
    for other, other_display, author, other_version in rng.sample(INSTALLED, rng.randint(1, 3)):
        o_publisher, o_name = other.split(".", 1)
        package = {"name": o_name, "displayName": other_display, "version": other_version, "publisher": o_publisher,
                   "engines": {"vscode": "^1.80.0"}}
        assets.update(_installed_folder(other, other_version, package,
                                        {"README.md": f"# {other_display}\n\nBy {author}.\n"}))
        entries.append(vscode.extension_entry(other, other_version, {
            "installedTimestamp": 1700000000000 + rng.randint(0, 10**10), "source": "gallery",
            "publisherDisplayName": author, "targetPlatform": "undefined", "updated": False,
            "isPreReleaseVersion": False, "preRelease": False},
            uuid=str(uuid.UUID(int=rng.getrandbits(128), version=4))))
        kept.append((other, other_version))
    old = None
    if params["situation"] == "upgrade":
        old = f"{major}.{minor - 1}.{rng.randint(0, 9)}" if minor > 1 else f"{major}.0.{max(patch - 1, 0)}"
        if old == version:
            version = f"{major}.{minor}.{patch + 1}"
        old_files = _files(display, description, category, name, old)
        assets.update(_installed_folder(ident, old, _package(publisher, name, display, description, category, old),
                                        old_files))
        entries.insert(rng.randint(0, len(entries)), vscode.extension_entry(ident, old, {
            "installedTimestamp": 1710000000000 + rng.randint(0, 10**9), "pinned": True, "source": "vsix"}))
    assets[f"{vscode.EXTENSIONS_DIR}/extensions.json"] = vscode.render_extensions(entries).encode()
    package = _package(publisher, name, display, description, category, version)
    files = _files(display, description, category, name, version)
    vsix = f"{HOME}/Downloads/{ident}-{version}.vsix"
    assets[vsix] = vscode.vsix(package, files)
    digests = tuple((rel, json_digest(json.loads(text)) if rel.endswith(".json") else
                     hashlib.sha256(text.encode()).hexdigest()) for rel, text in sorted(files.items()))
    facts = {"vsix": vsix, "display": display, "ident": ident, "version": version,
             "situation": SITUATION[params["situation"]].format(old=old)}
    return Goal(ws, facts, Target(vsix, ident, version, json.dumps(package), digests, tuple(kept), old,
                                  tuple(assets.items())))


def prepare(workspace: vsc.Workspace, target: Target) -> dict[str, Any]:
    ws = workspace
    files = vscode.build({"folder": ws.folder, "files": project_files(ws.project), "user_settings": ws.user_settings,
                          "comments": ws.comments, "keybindings": ws.keybindings,
                          "folder_settings": ws.folder_settings, "code_workspace": ws.code_workspace,
                          "workspace_file": ws.workspace_file})
    files.update(dict(target.assets))
    return {"assets": [Asset(dest, data) for dest, data in files.items()], "launch": ["code", ws.folder]}


def rubric(params: Params, target: Target) -> list[Check]:
    replaces = f", in place of version {target.old_version}" if target.old_version else ""
    return [Check("installed", f"The extension {target.ident} {target.version} from {target.vsix} is installed in "
                               f"VS Code{replaces}: unpacked in ~/.vscode/extensions/{target.ident}-{target.version} "
                               "and listed in extensions.json, with the other extensions still installed.",
                  "vscode.extension_installed",
                  {"vsix": target.vsix, "extensions": vscode.EXTENSIONS_DIR, "id": target.ident,
                   "version": target.version, "manifest": json.loads(target.manifest), "files": dict(target.files),
                   "kept": [list(k) for k in target.kept],
                   "old_version": target.old_version})]


def solve(params: Params, target: Target) -> Attempts:
    base = {"op": "fs.install_vsix", "path": target.vsix}
    if params["situation"] == "fresh":
        slips = [Attempt("unzipped the package as it is: package.json sits one folder down, in extension/",
                         [{**base, "nested": True}]),
                 Attempt("unpacked the files but did not list the extension in extensions.json",
                         [{**base, "register": False}]),
                 Attempt("rewrote extensions.json with the new extension only: the others are no longer loaded",
                         [{**base, "drop_others": True}])]
    else:
        slips = [Attempt("added the new version but left the old one listed in extensions.json",
                         [{**base, "keep_old": True}]),
                 Attempt("unzipped the package as it is: package.json sits one folder down, in extension/",
                         [{**base, "nested": True}]),
                 Attempt("named the folder without its version", [{**base, "versioned": False}])]
    return Attempts(Attempt(f"install {target.vsix} as VS Code does", [base]), slips)


WORKFLOW = family(
    NAME, vsc.VSCODE,
    description="Install a VS Code extension from a .vsix package, fresh or over an older version of it, keeping "
                "the other installed extensions.",
    knobs={"situation": ("fresh", "upgrade")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve, prepare=prepare_node(prepare),
)
