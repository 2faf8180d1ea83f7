"""The canonical models of config files and of Chrome's profile JSON, and their frames (issue 37).

Two kinds, each a flat mapping fact key -> canonical text:

`config`: JSON and JSONC (VS Code's settings.json, keybindings.json, *.code-workspace, any JSON config a task
prepares), INI-style keyfiles (.ini, .conf, .cfg, .desktop) and YAML.
- `/a/b` (a JSON pointer): the value at that key path as canonical JSON (numbers by value: 14.0 is 14); objects are
  walked, so their key order is no fact; a list of plain values is one value (its order is part of it), a list of
  objects is walked by index (keybindings: the later rule wins, so order matters). VS Code's documented forms are
  canonicalised: `editor.rulers: [{"column": 88}]` reads as `[88]`, and rulers compare as a set.
- `/a/b#comment`: the comments above a key (or after its value on the same line), their text without the comment
  marks; `/a#comment-end` those before the closing bracket of `/a`; `#comment` those above the whole document. A file
  rewritten without its comments (`json.dumps` of the parsed data, a `jq` round trip) changes these facts.
- INI: `[section]key` (`key` before any section) with its value (spacing and matching quotes are free; a key set
  twice holds both values), `[section]key#comment`, `[section]#comment` (above the section header), `#comment-end`.
- YAML: the same keys as JSON from the parsed data; comments attached by indentation to the key below them.
- `#error`: the file does not parse (a damaged end state fails its frame, never crashes it).

`chrome` (Chrome's `Bookmarks`) and `chromeprefs` (its `Preferences` and `Local State`, which `json` ops edit):
- `bookmarks:Bookmarks bar/News` per folder (roots included; a second folder of one name gets `#2`): its children in
  order, each `url<TAB>name<TAB>address` or `folder<TAB>name`. Chrome's own noise (ids, guids, dates, the
  checksum, sync and meta data) is no fact.
- Preferences and Local State: every leaf as in JSON, apart from what Chrome writes on its own as it runs (window
  geometry, how it exited, versions, counters, timestamps, per-site engagement, sync and account state; `NOISE`).

A frame (`derive`) keeps a digest of every fact the task does not change (of each comment: one added beside the
ones that were there is free, as a person annotates their config; a comment removed or changed is not), and per
allowed fact what the end state may hold there: anything (`*`; the goal checks judge it), nothing (`-`, the oracle
removed it), or for a bookmark folder the task changes, a sequence rule (`seq:`): the bookmarks the task keeps there
stay, in their order, the ones it removes are gone, and no more are added than the task adds. An object the oracle
adds is free as a whole (its members are the goal checks' question: Chrome writes more members to a search engine
than the oracle does); so is a setting VS Code writes on its own when the user answers one of its prompts
(`SELF_WRITTEN`).
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import yaml

from kit import bounded
from preparers import jsonc
from preparers.chrome import ROOTS
from preparers.ops.json_doc import JsonDoc, loads_jsonc
from verifiers.frame.kinds import FrameKind, register
from verifiers.frame.tree import APP_PROFILES

MAX_BYTES = 4 << 20  # a config file larger than this is not one a person edits: its model is `#error`
MAX_FACTS = 20_000
_DIGEST_CHARS = 12
JSON_SUFFIXES = (".json", ".jsonc", ".code-workspace")
INI_SUFFIXES = (".ini", ".conf", ".cfg", ".desktop")
YAML_SUFFIXES = (".yaml", ".yml")
CHROME_DIRS = (".config/google-chrome/", ".config/chromium/")
CHROME_FILES = ("Bookmarks", "Preferences", "Local State")
#: Settings whose documented alternative forms mean the same (VS Code: a ruler is a column or {"column": n}).
RULERS = "editor.rulers"
#: Settings VS Code itself writes to the user settings when the user answers one of its prompts (trust a folder,
#: a git question, zoom, telemetry): never a new setting the user chose, so one added is no change out of scope.
SELF_WRITTEN = ("security.workspace.trust.", "git.", "telemetry.", "redhat.telemetry.", "window.zoomLevel",
                "extensions.ignoreRecommendations", "explorer.confirm", "update.")
#: Preferences / Local State keys (dotted prefixes) that Chrome writes on its own as it runs: never a user's change.
NOISE = ("browser.window_placement", "browser.has_seen_welcome_page", "browser.app_window_placement",
         "profile.exit_type", "profile.created_by_version", "profile.content_settings", "profile.info_cache",
         "profile.last_used", "profile.last_active_profiles", "profile.were_old_google_logins_removed",
         "account_", "gaia_cookie", "gcm", "google.services", "in_product_help", "invalidation", "media_router",
         "media.", "ntp", "optimization_guide", "privacy_sandbox", "protection", "segmentation_platform",
         "sessions", "signin", "sync", "updateclientdata", "web_apps", "extensions", "countryid_at_install",
         "default_apps_install_state", "domain_diversity", "language_model_counters", "commerce_daily_metrics",
         "dual_layer_user_pref_store", "enterprise_profile_guid", "tracking_protection", "unified_consent",
         "variations_", "user_experience_metrics", "uninstall_metrics", "was", "os_crypt", "tab_stats",
         "session_id_generator_last_value", "ukm", "performance_tuning", "management", "network_time",
         "hardware_acceleration_mode_previous", "subresource_filter", "breadcrumbs", "policy", "origin_trials",
         "cloud_management", "startup_metric", "data_use", "legacy", "shutdown", "local_state", "history_clusters",
         "autocomplete.retention_policy", "default_search_provider.guid", "download.directory_upgrade",
         "safebrowsing.metrics", "translate_", "zerosuggest", "search.cohort", "apps.shortcuts", "announcement")
#: Leaf names that are Chrome's bookkeeping wherever they appear (a date, a counter, a version, an id it assigns).
_NOISE_LEAF = re.compile(r"(^|_)(time|timestamp|date|count|counter|version|last_[a-z_]+|[a-z_]+_time)$"
                         r"|^(date_[a-z_]+|last_[a-z_]+|guid|id|checksum|sync_metadata|meta_info)$")


# --- shared helpers ---------------------------------------------------------------------------------------

def _number(value: float) -> int | float:
    return int(value) if float(value).is_integer() and abs(value) < 2**53 else float(value)


def canonical(value: Any) -> str:
    """A value as canonical JSON: keys sorted, numbers by value (14.0 is 14), booleans never numbers."""
    def norm(v: Any) -> Any:
        if isinstance(v, bool) or v is None or isinstance(v, str):
            return v
        if isinstance(v, int | float):
            return _number(v) if v == v and abs(v) != float("inf") else str(v)
        if isinstance(v, dict):
            return {str(k): norm(x) for k, x in v.items()}
        if isinstance(v, list | tuple):
            return [norm(x) for x in v]
        return str(v)  # a YAML date, timestamp or binary
    return json.dumps(norm(value), sort_keys=True, ensure_ascii=False)


def pointer(path: Iterable[str | int]) -> str:
    """A key path as a JSON pointer: `/editor.rulers`, `/[python]/editor.formatOnSave`, `/2/key`."""
    return "".join("/" + str(step).replace("~", "~0").replace("/", "~1") for step in path)


def note_text(note: str) -> str:
    """A comment's text without its marks and with single spaces: `// my  size` and `/* my size */` read alike."""
    text = note.strip()
    for start, end in (("//", ""), ("/*", "*/"), ("#", ""), (";", "")):
        if text.startswith(start) and text.endswith(end):
            text = text[len(start):len(text) - len(end)] if end else text[len(start):]
            break
    return " ".join(text.split())


class _Limit(ValueError):
    pass


def _put(facts: dict[str, str], key: str, value: str) -> None:
    if len(facts) >= MAX_FACTS:
        raise _Limit(f"more than {MAX_FACTS} keys")
    facts[key] = value


def vscode_form(key: str, value: Any, *, colour_free: bool = False) -> Any:
    """A VS Code setting's value in one of its documented forms: `editor.rulers` items `{"column": n}` are `n`
    (with `colour_free`, a ruler's colour is no part of it either), in column order (the order of rulers is no
    part of the setting); any other setting's value as it is."""
    if key != RULERS or not isinstance(value, list):
        return value
    fields = {"column", "color"} if colour_free else {"column"}
    plain = [v["column"] if isinstance(v, dict) and "column" in v and set(v) <= fields else v for v in value]
    return sorted(plain, key=canonical)


def _walk(facts: dict[str, str], value: Any, path: tuple[str | int, ...], depth: int = 0) -> None:
    if depth > bounded.MAX_DEPTH:
        raise _Limit(f"nested deeper than {bounded.MAX_DEPTH}")
    if path and path[-1] == RULERS:
        value = vscode_form(RULERS, value)
    if isinstance(value, dict) and value:
        for key, item in value.items():
            _walk(facts, item, (*path, str(key)), depth + 1)
    elif isinstance(value, list) and any(isinstance(v, dict | list) for v in value):
        for index, item in enumerate(value):
            _walk(facts, item, (*path, index), depth + 1)
    else:
        _put(facts, pointer(path), canonical(value))


def _error(facts: dict[str, str], exc: Exception) -> dict[str, str]:
    return {**facts, "#error": f"{type(exc).__name__}: {str(exc)[:120]}"}


def _text(host: Path) -> str:
    return bounded.read_file(host, MAX_BYTES).decode("utf-8")


# --- the config kind --------------------------------------------------------------------------------------

def json_facts(data: Any, notes: Mapping[jsonc.Path, list[str]] | None = None) -> dict[str, str]:
    """The facts of parsed JSON `data` with its comments (`preparers.jsonc.comments`)."""
    facts: dict[str, str] = {}
    if data is not None:
        _walk(facts, data, ())
    for path, found in (notes or {}).items():
        texts = [t for t in (note_text(n) for n in found) if t]
        if not texts:
            continue
        if path == jsonc.AFTER:
            key = "#comment-after"
        elif path and path[-1] == jsonc.END:
            key = f"{pointer(path[:-1])}#comment-end"
        else:
            key = f"{pointer(path)}#comment"
        _put(facts, key, json.dumps(texts, ensure_ascii=False))
    return facts


def _jsonc_facts(text: str) -> dict[str, str]:
    data = loads_jsonc(text)
    return json_facts(data, jsonc.comments(text) if "/" in text else {})


_SECTION = re.compile(r"^\[(?P<name>[^\]]*)\]\s*(?:[#;].*)?$")


def ini_facts(text: str) -> dict[str, str]:
    """The facts of an INI-style keyfile (see the module doc)."""
    values: dict[str, list[str]] = {}
    facts: dict[str, str] = {}
    pending: list[str] = []
    section = ""

    def attach(key: str) -> None:
        nonlocal pending
        if pending:
            _put(facts, f"{key}#comment", json.dumps(pending, ensure_ascii=False))
            pending = []

    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith(("#", ";")):
            if text := note_text(line):
                pending.append(text)
            continue
        if match := _SECTION.match(line):
            section = f"[{match['name'].strip()}]"
            attach(section)
            continue
        split = min((i for i in (line.find("="), line.find(":")) if i > 0), default=-1)
        if split > 0:
            key, value = line[:split].strip(), line[split + 1:].strip()
        else:
            key, _, value = line.partition(" ")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        full = f"{section}{key}"
        attach(full)
        values.setdefault(full, []).append(value)
        if len(values) > MAX_FACTS:
            raise _Limit(f"more than {MAX_FACTS} keys")
    if pending:
        facts["#comment-end"] = json.dumps(pending, ensure_ascii=False)
    for key, found in values.items():
        _put(facts, key, json.dumps(found[0] if len(found) == 1 else found, ensure_ascii=False))
    return facts


_YAML_KEY = re.compile(r"^(?P<indent>\s*)(?P<dash>-\s+)?(?P<key>[^\s#'\"][^:#]*?|'[^']*'|\"[^\"]*\")\s*:(\s|$)")


class _Loader(yaml.SafeLoader):
    """Safe YAML with a bound on aliases (a 'billion laughs' file expands nothing)."""

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            self.aliases = getattr(self, "aliases", 0) + 1
            if self.aliases > 100:
                raise _Limit("more than 100 YAML aliases")
        return super().compose_node(parent, index)


def yaml_facts(text: str) -> dict[str, str]:
    """The facts of a YAML file: its data as JSON's, comments attached by indentation to the key below them."""
    facts: dict[str, str] = {}
    data = yaml.load(text, Loader=_Loader)  # noqa: S506 - a SafeLoader subclass
    if data is not None:
        _walk(facts, data, ())
    stack: list[tuple[int, str]] = []
    pending: list[str] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line in ("---", "..."):
            continue
        if line.startswith("#"):
            if note := note_text(line):
                pending.append(note)
            continue
        match = _YAML_KEY.match(raw)
        if not match:
            continue
        indent = len(match["indent"]) + len(match["dash"] or "")
        while stack and stack[-1][0] >= indent:
            stack.pop()
        key = match["key"].strip().strip("'\"")
        stack.append((indent, key))
        if pending:
            _put(facts, f"{pointer(k for _, k in stack)}#comment", json.dumps(pending, ensure_ascii=False))
            pending = []
    if pending:
        facts["#comment-end"] = json.dumps(pending, ensure_ascii=False)
    return facts


def config_format(dest: str) -> str:
    """'json', 'ini', 'yaml' for a config file's home path, '' for any other. JSON is a config where a person
    configures something: VS Code's settings and keybindings, a workspace file, a `.jsonc`, any JSON in a hidden
    folder (`.vscode/`, `.config/`); a project's own JSON (package.json) is the tree frame's, which hashes it whole.
    Application profiles have their own kinds (Chrome's: `chrome`)."""
    name = dest.rsplit("/", 1)[-1].lower()
    if any(p in dest for p in APP_PROFILES if p != ".config/Code/"):
        return ""
    fmt = _suffix_format(name)
    if fmt == "json":
        hidden = any(part.startswith(".") for part in dest.removeprefix("/home/user/").split("/")[:-1])
        person = hidden or name in ("settings.json", "keybindings.json") or name.endswith((".jsonc",
                                                                                           ".code-workspace"))
        return "json" if person else ""
    return fmt


def _suffix_format(name: str) -> str:
    name = name.lower()
    if name.endswith(JSON_SUFFIXES):
        return "json"
    if name.endswith(INI_SUFFIXES):
        return "ini"
    return "yaml" if name.endswith(YAML_SUFFIXES) else ""


def config_text_facts(text: str, fmt: str) -> dict[str, str]:
    """The facts of a config file's text in format `fmt` ('json', 'ini', 'yaml'); `#error` when it does not parse."""
    try:
        if fmt == "json":
            return _jsonc_facts(text)
        return ini_facts(text) if fmt == "ini" else yaml_facts(text)
    except (ValueError, yaml.YAMLError, RecursionError, TypeError) as exc:
        return _error({}, exc)


def read_config(host: Path) -> dict[str, str]:
    """The facts of the config file at `host` (bounded; a file too large or not UTF-8 reads as `#error`)."""
    fmt = _suffix_format(host.name) or "json"
    try:
        text = _text(host)
    except (ValueError, bounded.LimitExceeded) as exc:
        return _error({}, exc)
    return config_text_facts(text, fmt)


def edited_config(doc: Any) -> dict[str, str]:
    """The facts of a JSON document as `preparers.ops.json_doc` holds it (its data and the comments it keeps)."""
    if not isinstance(doc, JsonDoc):
        raise TypeError(f"a config document is a JsonDoc, not {type(doc).__name__}")
    notes = {path: found for path, found in doc.comments.items() if _written(doc.data, path)}
    try:
        return json_facts(doc.data, notes)
    except (_Limit, RecursionError) as exc:
        return _error({}, exc)


def _written(data: Any, path: jsonc.Path) -> bool:
    """Does `preparers.jsonc.dumps` write the comments of `path` for `data` (is the key there)?"""
    if path == jsonc.AFTER or not path:
        return True
    steps = path[:-1] if path[-1] == jsonc.END else path
    node = data
    for step in steps:
        found = (isinstance(node, dict) and isinstance(step, str) and step in node) or (
            isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node))
        if not found:
            return False
        node = node[step]
    return path[-1] != jsonc.END or (isinstance(node, dict | list) and bool(node))


# --- the chrome kind --------------------------------------------------------------------------------------

def _children(node: Any) -> list[dict[str, Any]]:
    kids = node.get("children") if isinstance(node, dict) else None
    return [k for k in kids if isinstance(k, dict)] if isinstance(kids, list) else []


def _entry(node: Mapping[str, Any]) -> str:
    name = str(node.get("name", ""))
    if node.get("type") == "folder" or "children" in node:
        return f"folder\t{name}"
    return f"url\t{name}\t{node.get('url', '')}"


def bookmarks_facts(tree: Any) -> dict[str, str]:
    """One fact per bookmark folder (roots included): its children in order (see the module doc)."""
    roots = tree.get("roots") if isinstance(tree, dict) else None
    if not isinstance(roots, dict):
        raise ValueError("not a Chrome Bookmarks file (no 'roots' object)")
    facts: dict[str, str] = {}
    stack: list[tuple[str, Any, int]] = []
    labels = {key: label for key, (_, label, _) in ROOTS.items()}
    for key in [*ROOTS, *sorted(k for k in roots if k not in ROOTS)]:
        if isinstance(roots.get(key), dict):
            stack.append((labels.get(key, key), roots[key], 0))
    seen: Counter[str] = Counter()
    while stack:
        path, node, depth = stack.pop(0)
        if depth > bounded.MAX_DEPTH:
            raise _Limit(f"folders nested deeper than {bounded.MAX_DEPTH}")
        seen[path] += 1
        key = f"bookmarks:{path}" + (f"#{seen[path]}" if seen[path] > 1 else "")
        kids = _children(node)
        _put(facts, key, json.dumps([_entry(k) for k in kids], ensure_ascii=False))
        stack.extend((f"{path}/{k.get('name', '')}", k, depth + 1) for k in kids if _entry(k).startswith("folder"))
    return facts


def _noise(path: tuple[str | int, ...]) -> bool:
    dotted = ".".join(str(p) for p in path)
    return dotted.startswith(NOISE) or any(isinstance(p, str) and _NOISE_LEAF.search(p) for p in path)


def prefs_facts(prefs: Any) -> dict[str, str]:
    """Every leaf of Preferences / Local State but Chrome's own bookkeeping (`NOISE`), by JSON pointer."""
    if not isinstance(prefs, dict):
        raise ValueError("the top level is not an object")
    facts: dict[str, str] = {}
    _walk(facts, {k: v for k, v in prefs.items() if not _noise((k,))}, ())
    return {k: v for k, v in facts.items() if not _noise(tuple(_steps(k)))}


def _steps(key: str) -> list[str]:
    return [s.replace("~1", "/").replace("~0", "~") for s in key.split("/")[1:]]


def chrome_text_facts(text: str, name: str) -> dict[str, str]:
    """The facts of a Chrome profile file's text (`name`: Bookmarks, Preferences or Local State)."""
    try:
        data = json.loads(text)
        return bookmarks_facts(data) if name == "Bookmarks" else prefs_facts(data)
    except (ValueError, RecursionError, TypeError) as exc:
        return _error({}, exc)


def read_chrome(host: Path) -> dict[str, str]:
    try:
        text = _text(host)
    except (ValueError, bounded.LimitExceeded) as exc:
        return _error({}, exc)
    return chrome_text_facts(text, host.name)


def edited_chrome(doc: Any) -> dict[str, str]:
    """The facts of a Bookmarks tree (`chromebm` ops) or a Preferences document (`json` ops) held in memory."""
    try:
        if isinstance(doc, JsonDoc):
            return prefs_facts(doc.data)
        return bookmarks_facts(doc)
    except (ValueError, RecursionError) as exc:
        return _error({}, exc)


def is_chrome(dest: str) -> bool:
    return any(d in dest for d in CHROME_DIRS) and dest.rsplit("/", 1)[-1] in CHROME_FILES


# --- the frame: derive and judge --------------------------------------------------------------------------

def _is_free(key: str, free: Iterable[str]) -> bool:
    return any(fnmatch.fnmatchcase(key, region) for region in free)


def _digest(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()[:_DIGEST_CHARS]


def is_comment(key: str) -> bool:
    return key.endswith(("#comment", "#comment-end", "#comment-after"))


def _comment_digests(value: str) -> list[str]:
    try:
        texts = json.loads(value)
    except ValueError:
        texts = [value]
    return sorted(_digest(str(t)) for t in (texts if isinstance(texts, list) else [texts]))


def _kept_digest(key: str, value: str) -> str:
    """A kept fact's digest; a bookmark folder's also says its children as a set (so a reordering is named); a
    comment's one per comment (a comment added beside it is free: a person annotates their config)."""
    if is_comment(key):
        return "c:" + ",".join(_comment_digests(value))
    if key.startswith("bookmarks:"):
        try:
            return f"{_digest(value)}:{_digest(json.dumps(sorted(json.loads(value))))}"
        except (ValueError, TypeError):
            return _digest(value)
    return _digest(value)


def _pointer_of(key: str) -> str:
    return key.split("#", 1)[0]


def _new_objects(initial: Mapping[str, str], oracle: Mapping[str, str]) -> dict[str, str]:
    """Regions (`/a/b/*`) of the objects the oracle adds: every key below one is the goal checks' question."""
    have = {_pointer_of(k) for k in initial}
    prefixes = {p for k in have for p in _prefixes(k)}
    out = {}
    for key in oracle:
        if key.startswith("bookmarks:") or key in initial:
            continue
        ancestors = _prefixes(_pointer_of(key))[:-1]
        top = next((a for a in ancestors if a and a not in prefixes and a not in have), None)
        if top is not None:
            out[f"{_glob(top)}/*"] = f"{top} is an object the task adds: its members are the goal checks' question"
    return out


def _glob(text: str) -> str:
    """`text` as an fnmatch pattern matching itself (VS Code's `[python]` is no character class)."""
    return re.sub(r"([*?\[])", r"[\1]", text)


def _prefixes(ptr: str) -> list[str]:
    """'/a/b/c' -> ['/a', '/a/b', '/a/b/c']."""
    steps = ptr.split("/")[1:]
    return ["/" + "/".join(steps[:i + 1]) for i in range(len(steps))]


def _sequence(initial: str | None, oracle: str | None) -> str:
    """The rule for a bookmark folder the task changes: kept children (in order), removed ones, how many added."""
    before = Counter(json.loads(initial or "[]"))
    after: list[str] = json.loads(oracle or "[]")
    both = before & Counter(after)
    keep, left = [], Counter(both)
    for item in after:
        if left[item] > 0:
            keep.append(item)
            left[item] -= 1
    gone = sorted((before - Counter(after)).elements())
    return "seq:" + json.dumps({"keep": keep, "gone": gone, "added": len(after) - len(keep)}, ensure_ascii=False)


def _allowed_kind(key: str, initial: str | None, oracle: str | None) -> str:
    if key.startswith("bookmarks:") and oracle is not None:
        return _sequence(initial, oracle)
    return "-" if oracle is None else "*"


def derive(initial: Mapping[str, str], oracle: Mapping[str, str],
           free: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The frame of a task from the models of a file before and after its oracle (see the module doc); `free`:
    the family's freedoms (fact key pattern -> reason), where any change is allowed."""
    free = {**_new_objects(initial, oracle), **dict(free or {})}
    allowed = {key: _allowed_kind(key, initial.get(key), oracle.get(key))
               for key in sorted(set(initial) | set(oracle))
               if initial.get(key) != oracle.get(key) and not _is_free(key, free)}
    kept = {key: _kept_digest(key, value) for key, value in initial.items()
            if key not in allowed and not _is_free(key, free)}
    return {"allowed": allowed, "kept": kept, "free": free}


def _show(key: str) -> str:
    if key.startswith("bookmarks:"):
        return "the bookmark folder " + " > ".join(key.removeprefix("bookmarks:").split("/"))
    return key or "the document"


def _short(value: str, limit: int = 60) -> str:
    return value if len(value) <= limit else value[:limit - 3] + "..."


def _names(items: Iterable[str]) -> str:
    return ", ".join(repr(i.split("\t")[1]) if "\t" in i else repr(i) for i in items)


def _judge_sequence(key: str, rule: Mapping[str, Any], end: str | None) -> list[str]:
    try:
        got: list[str] = json.loads(end or "[]")
    except ValueError:
        got = []
    problems = []
    keep: list[str] = list(rule.get("keep", []))
    have = Counter(got)
    missing = Counter(keep) - have
    if missing:
        problems.append(f"{_show(key)} lost {_names(missing.elements())}, which the task keeps")
    ordered = [item for item in got if item in set(keep)]
    if not missing and _dedupe_order(ordered, keep) != keep:
        problems.append(f"{_show(key)} is reordered: {_names(_dedupe_order(ordered, keep))} where the task keeps "
                        f"{_names(keep)}")
    gone = [item for item in rule.get("gone", []) if have[item] > Counter(keep)[item]]
    if gone:
        problems.append(f"{_show(key)} still holds {_names(gone)}, which the task removes")
    extra = sum((have - Counter(keep) - Counter(rule.get("gone", []))).values())
    if extra > int(rule.get("added", 0)):
        strays = list((have - Counter(keep) - Counter(rule.get("gone", []))).elements())
        problems.append(f"{_show(key)} gained {extra} item(s) ({_names(strays[:4])}) where the task adds "
                        f"{rule.get('added', 0)}")
    return problems


def _dedupe_order(items: list[str], keep: list[str]) -> list[str]:
    """`items` restricted to as many of each as `keep` holds (the first ones)."""
    left = Counter(keep)
    out = []
    for item in items:
        if left[item] > 0:
            out.append(item)
            left[item] -= 1
    return out


def judge(frame: Mapping[str, Any], end: Mapping[str, str]) -> list[str]:
    """Every change of `end` out of the frame, one phrase each (empty: the end state lies inside it)."""
    allowed: Mapping[str, str] = frame["allowed"]
    kept: Mapping[str, str] = frame["kept"]
    free = tuple(frame.get("free") or ())
    problems = []
    if "#error" in end and "#error" not in allowed and "#error" not in kept:
        problems.append(f"the file no longer reads ({end['#error']})")
    for key, kind in allowed.items():
        if kind == "-" and key in end:
            problems.append(f"{_show(key)} is still there ({_short(end[key])}), which the task removes")
        elif kind.startswith("seq:"):
            problems += _judge_sequence(key, json.loads(kind[4:]), end.get(key))
    for key, digest in kept.items():
        if is_comment(key):
            lost = Counter(digest[2:].split(",")) - Counter(_comment_digests(end.get(key, "[]")))
            if lost:
                problems.append(f"{_show(key)}: {sum(lost.values())} comment(s) removed or changed "
                                f"(now {_short(end.get(key, 'none'))})")
            continue
        if key not in end:
            problems.append(f"{_show(key)} was removed")
        elif _kept_digest(key, end[key]) != digest:
            now = _kept_digest(key, end[key])
            if key.startswith("bookmarks:") and now.split(":")[-1] == digest.split(":")[-1]:
                problems.append(f"{_show(key)} is reordered (now {_names(json.loads(end[key])[:6])})")
            else:
                problems.append(f"{_show(key)} changed (now {_short(end[key])})")
    for key in end:
        if key not in kept and key not in allowed and key != "#error" and not is_comment(key) \
                and not _is_free(key, free) and not key.startswith(tuple(f"/{k}" for k in SELF_WRITTEN)):
            problems.append(f"{_show(key)} was added ({_short(end[key])})")
    return list(dict.fromkeys(problems))


CONFIG = register(FrameKind(
    name="config", noun="config file", matches=lambda dest: bool(config_format(dest)), read=read_config,
    derive=derive, judge=judge, edited=edited_config, ops_kind="json",
    kept_criterion="Nothing else in {dest} changed: every key, value and comment the task does not ask to change is "
                   "as it was, and nothing is added.",
    made_criterion="{dest} holds nothing beyond what the task asks: no other key, value or comment."))
CHROME = register(FrameKind(
    name="chrome", noun="Chrome Bookmarks file", matches=lambda dest: is_chrome(dest) and dest.endswith("/Bookmarks"),
    read=read_chrome, derive=derive, judge=judge, edited=edited_chrome, ops_kind="chromebm",
    kept_criterion="Nothing else in Chrome's {dest} changed: every bookmark folder the task does not touch holds the "
                   "same bookmarks in the same order, and nothing is added beyond what the task adds.",
    made_criterion="Chrome's {dest} holds nothing beyond what the task asks."))
#: Preferences and Local State: a kind of their own, since the `json` ops edit them (`chromebm` edits Bookmarks).
CHROME_PREFS = register(FrameKind(
    name="chromeprefs", noun="Chrome preferences file",
    matches=lambda dest: is_chrome(dest) and not dest.endswith("/Bookmarks"), read=read_chrome, derive=derive,
    judge=judge, edited=edited_chrome, ops_kind="json",
    kept_criterion="Nothing else in Chrome's {dest} changed: every setting the task does not ask to change is as it "
                   "was, and no setting is added (what Chrome writes on its own as it runs is no setting).",
    made_criterion="Chrome's {dest} holds nothing beyond what the task asks."))
