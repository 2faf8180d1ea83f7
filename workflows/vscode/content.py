"""Offline realistic content for VS Code tasks: a small software project and the files it consists of.

The `content` LLM node asks for a project (name, language, one-line summary, module names, author; see
workflows/prompts/vscode_content.txt and `CONTENT_SCHEMA`); offline, `generate_project` picks one from a
library of plausible projects. `project_files` renders the project's files (README, manifest, a few source
files with short real-looking code) so the folder VS Code opens looks like a real checkout.
"""

from __future__ import annotations

import json
import random
from typing import Any

LANGUAGES = ("python", "typescript", "go", "rust", "web")
CONTENT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["project", "language", "summary", "modules", "author"],
    "properties": {
        "project": {"type": "string", "pattern": "^[a-z][a-z0-9-]{2,30}$"},
        "language": {"enum": list(LANGUAGES)},
        "summary": {"type": "string", "minLength": 10, "maxLength": 120},
        "modules": {"type": "array", "minItems": 2, "maxItems": 4, "uniqueItems": True,
                    "items": {"type": "string", "pattern": "^[a-z][a-z0-9_]{2,20}$"}},
        "author": {"type": "string", "minLength": 3, "maxLength": 40},
    },
}

#: language -> [(project, summary, modules)]
PROJECTS: dict[str, tuple[tuple[str, str, tuple[str, ...]], ...]] = {
    "python": (
        ("invoice-parser", "Turns supplier invoice PDFs into clean CSV files for accounting.",
         ("extract", "normalize", "export", "vendors")),
        ("weather-alerts", "Polls forecast feeds and sends frost and storm alerts by e-mail.",
         ("feeds", "rules", "notify")),
        ("lab-inventory", "Tracks reagents, freezers and expiry dates for a research lab.",
         ("models", "storage", "reports", "barcode")),
        ("podcast-indexer", "Builds a searchable index of podcast episodes from RSS feeds.",
         ("crawler", "transcripts", "search")),
        ("budget-sync", "Imports bank statements and categorises household spending.",
         ("importers", "categories", "ledger")),
        ("sensor-gateway", "Collects readings from greenhouse sensors over MQTT and stores them.",
         ("mqtt_client", "readings", "storage", "alerts")),
    ),
    "typescript": (
        ("ticket-router", "Routes incoming support tickets to the right team using simple rules.",
         ("router", "rules", "slack")),
        ("recipe-box", "A small web API for saving, tagging and scaling recipes.",
         ("recipes", "tags", "scaling", "auth")),
        ("release-notes-bot", "Collects merged pull requests and drafts release notes.",
         ("github", "changelog", "templates")),
        ("fleet-tracker", "Shows delivery vans on a live map with ETA estimates.",
         ("positions", "eta", "websocket")),
        ("form-builder", "Drag-and-drop builder for survey forms with JSON export.",
         ("schema", "fields", "export", "preview")),
    ),
    "go": (
        ("log-shipper", "Tails service logs and ships them in batches to object storage.",
         ("tail", "batch", "upload")),
        ("url-shortener", "A tiny URL shortener with click statistics.",
         ("store", "handlers", "stats")),
        ("cert-watch", "Checks TLS certificates of our domains and warns before they expire.",
         ("scanner", "domains", "notify")),
        ("queue-worker", "Processes image thumbnail jobs from a Redis queue.",
         ("jobs", "thumbs", "metrics", "worker")),
    ),
    "rust": (
        ("chess-engine", "A small UCI chess engine with alpha-beta search.",
         ("board", "movegen", "search", "uci")),
        ("csv-dedupe", "Removes near-duplicate rows from large CSV exports.",
         ("reader", "fingerprint", "writer")),
        ("tile-server", "Serves pre-rendered map tiles from a local cache.",
         ("cache", "tiles", "server")),
    ),
    "web": (
        ("portfolio-site", "Personal portfolio with a project gallery and contact form.",
         ("gallery", "contact", "theme")),
        ("trail-map", "Interactive map of local hiking trails with elevation profiles.",
         ("map", "elevation", "filters")),
        ("team-dashboard", "Static dashboard showing sprint progress and build status.",
         ("charts", "builds", "sprint")),
    ),
}
AUTHORS = ("Maya Lindqvist", "Daniel Okafor", "Priya Raman", "Tom Becker", "Lena Hoffmann", "Carlos Mendes",
           "Aiko Tanaka", "Jonas Weber", "Grace Kim", "Omar Haddad", "Sofia Rossi", "Ben Carter")


def generate_project(rng: random.Random, *, language: str | None = None) -> dict[str, Any]:
    """One project (the content LLM node's offline answer)."""
    language = language or rng.choice(LANGUAGES)
    project, summary, modules = rng.choice(PROJECTS[language])
    chosen = rng.sample(modules, min(len(modules), rng.randint(2, 4)))
    return {"project": project, "language": language, "summary": summary, "modules": chosen,
            "author": rng.choice(AUTHORS)}


def _pkg(project: str) -> str:
    return project.replace("-", "_")


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(p.title() for p in rest)


def project_files(p: dict[str, Any]) -> dict[str, str]:
    """Relative path -> text for the project's files."""
    name, mods, lang = p["project"], list(p["modules"]), p["language"]
    readme = f"# {name}\n\n{p['summary']}\n\nMaintainer: {p['author']}\n"
    files = {"README.md": readme}
    if lang == "python":
        pkg = _pkg(name)
        files["pyproject.toml"] = (f'[project]\nname = "{name}"\nversion = "0.3.1"\ndescription = "{p["summary"]}"\n'
                                   f'requires-python = ">=3.10"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n')
        files[f"src/{pkg}/__init__.py"] = f'"""{p["summary"]}"""\n\n__version__ = "0.3.1"\n'
        for mod in mods:
            files[f"src/{pkg}/{mod}.py"] = (f'"""{mod.replace("_", " ").title()} for {name}."""\n\n\n'
                                            f"def run_{mod}(items: list[dict]) -> list[dict]:\n"
                                            f'    """Process the items of one {mod} pass."""\n'
                                            f"    return [item for item in items if item]\n")
        files[f"tests/test_{mods[0]}.py"] = (f"from {pkg}.{mods[0]} import run_{mods[0]}\n\n\n"
                                             f"def test_run_{mods[0]}_drops_empty_items():\n"
                                             f"    assert run_{mods[0]}([{{}}, {{'id': 1}}]) == [{{'id': 1}}]\n")
        files[".gitignore"] = "__pycache__/\n*.pyc\n.venv/\n.pytest_cache/\ndist/\n"
    elif lang in ("typescript", "web"):
        manifest = {"name": name, "version": "1.4.0", "private": True, "description": p["summary"],
                    "scripts": {"build": "tsc" if lang == "typescript" else "vite build",
                                "test": "vitest run", "lint": "eslint ."}}
        files["package.json"] = json.dumps(manifest, indent=2) + "\n"
        ext, folder = ("ts", "src") if lang == "typescript" else ("js", "js")
        if lang == "typescript":
            files["tsconfig.json"] = json.dumps({"compilerOptions": {"target": "ES2022", "module": "NodeNext",
                                                                     "strict": True, "outDir": "dist"},
                                                 "include": ["src"]}, indent=2) + "\n"
        else:
            files["index.html"] = (f"<!doctype html>\n<html lang=\"en\">\n<head>\n  <meta charset=\"utf-8\">\n"
                                   f"  <title>{name}</title>\n  <link rel=\"stylesheet\" href=\"css/style.css\">\n"
                                   f"</head>\n<body>\n  <main id=\"app\"></main>\n"
                                   f"  <script type=\"module\" src=\"js/{mods[0]}.js\"></script>\n</body>\n</html>\n")
            files["css/style.css"] = ("body {\n  font-family: system-ui, sans-serif;\n  margin: 0 auto;\n"
                                      "  max-width: 60rem;\n}\n")
        typed = ": unknown[]" if ext == "ts" else ""
        for mod in mods:
            files[f"{folder}/{mod}.{ext}"] = (f"// {mod.replace('_', ' ')} for {name}\n"
                                              f"export function {_camel(mod)}(items{typed})"
                                              f" {{\n  return items.filter(Boolean);\n}}\n")
        files[".gitignore"] = "node_modules/\ndist/\ncoverage/\n"
    elif lang == "go":
        files["go.mod"] = f"module github.com/acme/{name}\n\ngo 1.22\n"
        files["main.go"] = (f"package main\n\nimport \"log\"\n\nfunc main() {{\n"
                            f"\tlog.Println(\"{name} starting\")\n}}\n")
        for mod in mods:
            files[f"internal/{mod}/{mod}.go"] = (f"// Package {mod} is part of {name}.\npackage {mod}\n\n"
                                                 f"// Run processes one {mod} pass.\nfunc Run(items []string) int {{\n"
                                                 f"\treturn len(items)\n}}\n")
        files[".gitignore"] = f"/{name}\n*.test\ncoverage.out\n"
    else:
        files["Cargo.toml"] = f'[package]\nname = "{name}"\nversion = "0.2.0"\nedition = "2021"\n\n[dependencies]\n'
        files["src/main.rs"] = "".join(f"mod {m};\n" for m in mods) + f'\nfn main() {{\n    println!("{name}");\n}}\n'
        for mod in mods:
            files[f"src/{mod}.rs"] = (f"//! {mod.replace('_', ' ')} for {name}.\n\n"
                                      f"pub fn run(items: &[String]) -> usize {{\n    items.len()\n}}\n")
        files[".gitignore"] = "/target\n"
    files.update(p.get("files", {}))  # files a family adds or rewrites (relative path -> text)
    return files
