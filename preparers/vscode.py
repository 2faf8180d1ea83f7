"""VS Code files: user settings.json and keybindings.json, a project's .vscode/settings.json, *.code-workspace.

Written the way VS Code writes them: settings.json with 4-space indentation and keys in insertion order
(comment lines above some keys are allowed, since VS Code reads JSONC and users annotate their settings),
keybindings.json with VS Code's header comment above the array, workspace files tab-indented.
`build(spec)` turns a whole setup into destination path -> bytes.
"""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Mapping
from typing import Any

USER_DIR = "/home/user/.config/Code/User"
KEYBINDINGS_HEADER = "// Place your key bindings in this file to override the defaults\n"


def render_settings(data: Mapping[str, Any], comments: Mapping[str, str] | None = None, indent: str = "    ") -> str:
    """settings.json text, with the comment line `comments[key]` above each such top-level key."""
    if not data:
        return "{\n}\n"
    out = []
    for line in json.dumps(data, indent=indent, ensure_ascii=False).split("\n"):
        for key, comment in (comments or {}).items():
            if line.startswith(f"{indent}{json.dumps(key, ensure_ascii=False)}:"):
                out.append(f"{indent}{comment}")
        out.append(line)
    return "\n".join(out) + "\n"


def render_keybindings(rules: list[dict[str, Any]]) -> str:
    """keybindings.json text: the header comment, then the rules (key, command, when) or an empty array."""
    return KEYBINDINGS_HEADER + (json.dumps(rules, indent=4, ensure_ascii=False) if rules else "[\n]") + "\n"


def build(spec: Mapping[str, Any]) -> dict[str, bytes]:
    """Files for a VS Code setup. `spec` keys: `folder` (project path), `files` (relative path -> text),
    `user_settings`, `comments`, `keybindings`, and optionally `folder_settings` (.vscode/settings.json) and
    `code_workspace` (written to `workspace_file`)."""
    folder = spec["folder"].rstrip("/")
    out = {f"{folder}/{rel}": text.encode("utf-8") for rel, text in spec.get("files", {}).items()}
    out[f"{USER_DIR}/settings.json"] = render_settings(spec.get("user_settings", {}), spec.get("comments")).encode()
    out[f"{USER_DIR}/keybindings.json"] = render_keybindings(list(spec.get("keybindings", []))).encode()
    if spec.get("folder_settings") is not None:
        out[f"{folder}/.vscode/settings.json"] = render_settings(spec["folder_settings"]).encode()
    if spec.get("code_workspace") is not None:
        out[spec["workspace_file"]] = render_settings(spec["code_workspace"], indent="\t").encode()
    return out


# --- extensions (~/.vscode/extensions) ------------------------------------------------------------------

EXTENSIONS_DIR = "/home/user/.vscode/extensions"
#: a fixed zip timestamp, so the same extension always packs to the same bytes
_ZIP_TIME = (2024, 5, 14, 9, 30, 0)


def vsix(package: Mapping[str, Any], files: Mapping[str, str]) -> bytes:
    """A .vsix as `vsce package` makes it: `extension.vsixmanifest`, `[Content_Types].xml` and the extension's
    files under `extension/` (`files`: relative path -> text; package.json is written from `package`)."""
    manifest = ('<?xml version="1.0" encoding="utf-8"?>\n<PackageManifest Version="2.0.0" '
                'xmlns="http://schemas.microsoft.com/developer/vsx-schema/2011">\n  <Metadata>\n'
                f'    <Identity Language="en-US" Id="{package["name"]}" Version="{package["version"]}" '
                f'Publisher="{package["publisher"]}" />\n    <DisplayName>{package["displayName"]}</DisplayName>\n'
                f'    <Description xml:space="preserve">{package["description"]}</Description>\n  </Metadata>\n'
                '  <Installation>\n    <InstallationTarget Id="Microsoft.VisualStudio.Code"/>\n  </Installation>\n'
                '  <Assets>\n    <Asset Type="Microsoft.VisualStudio.Code.Manifest" Path="extension/package.json" '
                'Addressable="true" />\n  </Assets>\n</PackageManifest>\n')
    types = ('<?xml version="1.0" encoding="utf-8"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/'
             'content-types"><Default Extension=".json" ContentType="application/json"/><Default Extension=".md" '
             'ContentType="text/markdown"/><Default Extension=".js" ContentType="application/javascript"/>'
             '<Default Extension=".vsixmanifest" ContentType="text/xml"/></Types>\n')
    members = {"extension.vsixmanifest": manifest, "[Content_Types].xml": types,
               "extension/package.json": json.dumps(package, indent=2) + "\n",
               **{f"extension/{rel}": text for rel, text in files.items()}}
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, text in members.items():
            info = zipfile.ZipInfo(name, _ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, text)
    return out.getvalue()


def extension_entry(ident: str, version: str, metadata: Mapping[str, Any], uuid: str | None = None) -> dict[str, Any]:
    """One entry of ~/.vscode/extensions/extensions.json, as VS Code writes it."""
    folder = f"{ident}-{version}"
    path = f"{EXTENSIONS_DIR}/{folder}"
    identifier: dict[str, Any] = {"id": ident}
    if uuid:
        identifier["uuid"] = uuid
    return {"identifier": identifier, "version": version,
            "location": {"$mid": 1, "fsPath": path, "external": f"file://{path}", "path": path, "scheme": "file"},
            "relativeLocation": folder, "metadata": dict(metadata)}


def render_extensions(entries: list[dict[str, Any]]) -> str:
    """extensions.json text: VS Code writes it compact, on one line."""
    return json.dumps(entries, separators=(",", ":"), ensure_ascii=False)
