"""os.replace_tree: replace a string in every file of a folder tree (all subfolders), like `grep -rl | xargs sed -i`.

A project folder two levels deep holds configs, deploy files, docs and scripts that mention an old database host or
an old release version, some lines twice. Knob `token`: a `host` name, or a `version` number that must be replaced
as a whole (2.3.1 -> 2.4.0, while 2.3.10 and 12.3.1 stay). Knob `scope`: only the files of a stated extension
(`ext`: the changelog and notes that mention the old value keep it), or `all` files below the folder. The rubric
lists the tree recursively with every file's expected content (fs.dir_listing).

Near-misses: only the files directly in the folder, only the first match of each line (sed without g), every
file when only one extension was asked, a plain substring replace of the version (2.3.10 becomes 2.4.00).
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers.tree import FileSpec
from workflows.os import kit as oc

NAME = "os.replace_tree"
PHRASINGS = (
    "In {files} under {root} (all subfolders, at any depth), replace {what} '{old}' with '{new}'.{note}",
    "Search {root} recursively and change each occurrence of {what} '{old}' to '{new}' in {files}.{note}",
    "The {what} changed from '{old}' to '{new}'. Update {files} below {root}, in every subfolder.{note}",
    "Using the terminal (grep -r, sed or similar), replace '{old}' by '{new}' in {files} anywhere in {root}.{note}",
    "Go through {root} and its subfolders and rewrite '{old}' as '{new}' in {files}.{note}",
)
NATURAL = (
    "Our {what} moved from '{old}' to '{new}'. Could you update {files} in {root}, subfolders included?",
    "Please replace '{old}' with '{new}' in {files} everywhere under {root}.{note}",
    "I need every mention of '{old}' in {files} below {root} changed to '{new}'.",
    "Can you swap '{old}' for '{new}' in {files} throughout {root}, subfolders included?{note}",
    "Everything under {root} should say '{new}' instead of '{old}' now, in {files}.{note}",
)


class Params(TypedDict):
    token: Literal["host", "version"]
    scope: Literal["ext", "all"]


@dataclass(frozen=True)
class Target:
    root: str
    old: str
    new: str
    pattern: str  # what matches the old value (a whole version number for `version`)
    ext: str  # the extension asked ("" for all)
    changed: tuple[str, ...]  # the files the task changes
    texts: dict[str, str]  # every file below the root -> its text after the task


def _lines(kind: str, old: str, rng: random.Random, project: str) -> dict[str, list[str]]:
    """Per file name: its lines, mentioning `old` (some lines twice)."""
    if kind == "host":
        return {
            "config/app.yaml": ["database:", f"  host: {old}", "  port: 5432",
                                f"  replica: {old}:5433  # reads go to {old} too", "cache:", "  ttl: 300"],
            "config/worker.conf": ["[queue]", f"broker = amqp://{old}:5672", "prefetch = 8", "[db]",
                                   f"url = postgresql://app@{old}/{project}?fallback={old}"],
            "deploy/compose.yaml": ["services:", "  app:", "    environment:", f"      DB_HOST: {old}",
                                    "      LOG_LEVEL: info"],
            "deploy/k8s/configmap.yaml": ["apiVersion: v1", "kind: ConfigMap", "data:", f"  DB_HOST: \"{old}\""],
            "scripts/backup.sh": ["#!/bin/sh", f"pg_dump -h {old} {project} > /var/backups/{project}.sql",
                                  f"echo \"dumped {project} from {old}\""],
            "docs/CHANGELOG.md": [f"# {project} changelog", "", f"- 2024-02: database moved to {old}",
                                  "- 2023-11: first release"],
            "README.md": [f"# {project}", "", f"The database runs on {old} (see config/app.yaml)."],
            "values.yaml": ["replicaCount: 2", f"dbHost: {old}", "resources: {}"],
        }
    return {
        "config/app.yaml": ["app:", f"  version: {old}", f"  min_client: {old}", "  channel: stable"],
        "config/versions.conf": [f"APP_VERSION={old}", f"SDK_VERSION={old}0", f"LEGACY_VERSION=1{old}"],
        "deploy/compose.yaml": ["services:", "  app:", f"    image: registry.example.com/{project}:{old}",
                                f"    labels: [\"release={old}\", \"previous={old}0\"]"],
        "deploy/k8s/deployment.yaml": ["spec:", "  template:", "    spec:", "      containers:",
                                       f"        - image: registry.example.com/{project}:{old}  # pinned to {old}"],
        "scripts/install.sh": ["#!/bin/sh", f"pip install {project}-client=={old}",
                               f"echo \"installed {old} (not {old}0)\""],
        "docs/CHANGELOG.md": [f"# {project} changelog", "", f"## {old}", "- faster sync", f"## 1{old}",
                              "- typo fixes"],
        "README.md": [f"# {project}", "", f"Current release: {old}. Upgrade notes for {old}0 are in docs."],
        "values.yaml": ["replicaCount: 2", f"imageTag: \"{old}\"", "resources: {}"],
    }


def goal(rng: random.Random, params: Params, pool: Mapping[str, Any]) -> Goal[list[FileSpec], Target]:
    token, scope = params["token"], params["scope"]
    project = rng.choice(pool["projects"])
    root = oc.home(rng.choice((f"projects/{project}", f"work/{project}", f"Documents/{project}")))
    if token == "host":
        old = f"{rng.choice(('db01', 'pg-main', 'sql2', 'dbhost'))}.{rng.choice(('corp.local', 'old-dc.net'))}"
        new = f"db.{project}.{rng.choice(('example.org', 'internal.example.com'))}"
        pattern = re.escape(old)
        what = "the database host"
    else:
        major, minor, patch = rng.randint(1, 4), rng.randint(2, 9), rng.randint(1, 5)
        old, new = f"{major}.{minor}.{patch}", f"{major}.{minor + 1}.0"
        pattern = r"(?<![\w.])" + re.escape(old) + r"(?![\w.]*\d)"
        what = "the release version"
    lines = _lines(token, old, rng, project)
    ext = "yaml" if scope == "ext" else ""
    texts, changed = {}, []
    for rel, body in lines.items():
        path = f"{root}/{rel}"
        text = "\n".join(body) + "\n"
        texts[path] = text
        if not ext or rel.endswith("." + ext):
            after = re.sub(pattern, new, text)
            if after != text:
                texts[path] = after
                changed.append(path)
    initial = {f"{root}/{rel}": "\n".join(body) + "\n" for rel, body in lines.items()}
    files = f"the .{ext} files" if ext else "every file"
    note = ("Leave the other files as they are." if ext else "") + (
        f" Only the exact version {old} changes, not numbers that merely contain it." if token == "version" else "")
    facts = {"root": root, "old": old, "new": new, "what": what, "files": files,
             "note": f" {note.strip()}" if note.strip() else ""}
    spec = [FileSpec(p, "text", t) for p, t in initial.items()]
    return Goal(oc.dress(rng, params, pool, spec, root, facts), facts,
                Target(root, old, new, pattern, ext, tuple(changed), texts))


def rubric(tree: list[FileSpec], target: Target) -> list[Check]:
    t = target
    prefix = t.root + "/"
    after = {s.path: oc.sha(FileSpec(s.path, "text", t.texts[s.path])) if s.path in t.texts else oc.sha(s)
             for s in tree if s.path.startswith(prefix)}
    contents = {p[len(prefix):]: sha for p, sha in after.items()}
    names = sorted(contents)
    return [oc.listing_check("tree", t.root, names, f"Below {t.root} the files are exactly {oc.quote_list(names)}, "
                             f"with '{t.old}' replaced by '{t.new}' where asked.", recursive=True, contents=contents)]


def _replace(paths: list[str] | tuple[str, ...], pattern: str, new: str, count: int = 0) -> list[dict[str, Any]]:
    return [{"op": "fs.regex_replace", "path": p, "pattern": pattern, "repl": new}
            | ({"count": count} if count else {}) for p in sorted(paths)]


def solve(params: Params, target: Target) -> Attempts:
    t = target
    top = [p for p in t.changed if p.rsplit("/", 1)[0] == t.root]
    misses = [Attempt("only replaces in the files directly in the folder", _replace(top, t.pattern, t.new)),
              Attempt("replaces only the first match of each line (sed without g)",
                      _replace(t.changed, t.pattern, t.new, count=1))]
    every = [p for p in t.texts if re.search(t.pattern, t.texts[p]) or p in t.changed]
    if t.ext:
        misses.append(Attempt("replaces in every file, not only the asked extension",
                              _replace(every, t.pattern, t.new)))
    if params["token"] == "version":
        misses.append(Attempt("replaces the version as a plain substring (2.3.10 becomes 2.4.00)",
                              _replace(every if not t.ext else t.changed, re.escape(t.old), t.new)))
    return Attempts(Attempt("replaces in exactly the asked files, at every depth",
                            _replace(t.changed, t.pattern, t.new)), misses)


WORKFLOW = family(
    NAME, oc.kit_without("location"),
    description="Replace a host name or a whole version number in every file (or every file of one extension) of a "
                "folder tree, subfolders included.",
    knobs={"token": ("host", "version"), "scope": ("ext", "all")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
)
