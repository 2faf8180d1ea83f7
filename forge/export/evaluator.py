"""Rubric checks -> an OSWorld evaluator that OSWorld's own metric functions score.

Each check whose meaning an OSWorld metric expresses faithfully (same verdict on every state, as far as the
app can produce it) becomes that metric with its getters (`NATIVE`). The rest run through Forge's shipped
checker (`forge.export.checker`): one `vm_command_line` getter and `exact_match` on its verdict line. All
metrics are combined with conj "and", so the score is 1 only when every check passes and 0 otherwise
(never fractional: every metric used here answers 0 or 1).

Result getters that copy a file from the VM get a `dest` unique within the task (`result-<n>-<name>`), and
there are no gold files at all, so a result can never overwrite the file it is compared with.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from forge.export.checker import PASS_LINE


@dataclass(frozen=True)
class Metric:
    """One OSWorld metric call: `func(result_getter(), expected_getter(), **options)`."""

    func: str
    result: dict[str, Any]
    expected: dict[str, Any]
    options: dict[str, Any] = field(default_factory=dict)


def rule(value: Any) -> dict[str, Any]:
    """The `rule` getter: hands `value` to the metric as given."""
    return {"type": "rule", "rules": value}


def vm_file(path: str, dest: str) -> dict[str, Any]:
    return {"type": "vm_file", "path": path, "dest": dest}


def vm_command(command: list[str]) -> dict[str, Any]:
    return {"type": "vm_command_line", "command": command, "shell": False}


# A check's mapper gets (args, dest prefix) and returns the metric, or None when these args fall outside what
# the metric expresses faithfully (the check then goes to the shipped checker).
Mapper = Callable[[Mapping[str, Any], str], Metric | None]


def _pref_equals(args: Mapping[str, Any], dest: str) -> Metric | None:
    """tb.pref_equals -> check_thunderbird_prefs on prefs.js (postconfig closes Thunderbird so it is flushed).

    Thunderbird writes only non-default prefs: when the wanted value is the default, the metric must accept a
    missing key, which its `unexpect` rule does (key absent, or present with this value)."""
    value, default = args["value"], args.get("default")
    if not isinstance(value, bool | int | str) or (default is not None and type(default) is not type(value)):
        return None
    if default is not None and default == value:
        rules = {"unexpect": {args["name"]: {"method": "ne", "ref": value}}}
    else:
        rules = {"expect": {args["name"]: {"method": "eq", "ref": value}}}
    path = f"{str(args['path']).rstrip('/')}/prefs.js"
    return Metric("check_thunderbird_prefs", vm_file(path, f"{dest}-prefs.js"), rule(rules))


def _cell_value(args: Mapping[str, Any], dest: str) -> Metric | None:
    """xlsx.cell_value with a text value -> compare_table's check_cell (cached values, as LibreOffice saves them).

    Forge trims whitespace around text; the regex does the same. Numbers are left to the checker, because a
    formula cell of a file no app has saved has no cached value for OSWorld to read."""
    expected = args["expected"]
    if not isinstance(expected, str) or not expected.strip() or _looks_numeric(expected):
        return None
    pattern = rf"^\s*{re.escape(expected.strip())}\s*$"
    check = {"type": "check_cell", "sheet_idx": f"RN{args['sheet']}", "coordinate": args["cell"],
             "props": {"value": {"method": "re", "ref": pattern}}}
    name = str(args["path"]).rsplit("/", 1)[-1]
    return Metric("compare_table", vm_file(args["path"], f"{dest}-{name}"), rule(None), {"rules": [check]})


def _looks_numeric(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _sha_command(path: str, *, no_link: bool) -> list[str]:
    """Prints `<sha256>  -` for a regular file at `path`, nothing otherwise (missing, folder, link if `no_link`)."""
    test = '[ -f "$1" ] && [ ! -L "$1" ]' if no_link else '[ -f "$1" ]'
    return ["bash", "-c", f'{test} && sha256sum < "$1"', "forge-sha", path]


def _same_bytes(no_link: bool) -> Mapper:
    """tb.file_saved / multi.saved_file / fs.same_content -> exact_match on the file's sha256."""

    def mapper(args: Mapping[str, Any], dest: str) -> Metric | None:
        sha = str(args["sha256"])
        return Metric("exact_match", vm_command(_sha_command(args["path"], no_link=no_link)),
                      rule({"expected": f"{sha}  -\n"}))

    return mapper


def _file_mode(args: Mapping[str, Any], dest: str) -> Metric | None:
    """fs.file_mode -> exact_match on `stat -L -c %a` (permission bits, links followed; nothing if missing)."""
    try:
        mode = int(str(args["mode"]), 8)
    except ValueError:
        return None
    return Metric("exact_match", vm_command(["stat", "-L", "-c", "%a", "--", args["path"]]),
                  rule({"expected": f"{mode:o}\n"}))


#: The printable characters bash's `printf %q` escapes with a backslash (checked against bash 5 for every printable
#: ASCII character; `~` and `#` only at the start of a word, so names starting with them are left to the checker).
_SHELL_SPECIAL = frozenset("!\"$&'()*,;<>?[\\]^`{|} ")


def _shown(name: str, *, nested: bool = False) -> str | None:
    """`name` as bash's `printf %q` prints it, or None for a name this export leaves to the checker (a control
    or non-ASCII character, whose quoting depends on the locale; `.`/`..`; a leading `~` or `#`)."""
    parts = name.split("/") if nested else [name]
    if any(p in ("", ".", "..") or p[0] in "~#" or not all(" " <= c <= "~" and c != "/" for c in p) for p in parts):
        return None
    return "".join("\\" + c if c in _SHELL_SPECIAL else c for c in name)


# fs.dir_listing as data: the folder's entries (or, recursive, every non-folder below it, links listed and never
# entered), one `entry NAME` line each in byte order, then `sha NAME HASH` for each name whose content is checked
# (HASH `not-a-file` for a link, a folder or a missing entry), after a `folder` line that only a real folder gets.
# Names are printed with %q, so a name holding a newline can never pass for two plain names.
_LISTING = r"""[ -d "$1" ] && [ ! -L "$1" ] && cd -- "$1" || exit 0
echo folder
if [ "$2" = recursive ]; then find . -mindepth 1 ! -type d -printf '%P\0'
else find . -mindepth 1 -maxdepth 1 -printf '%P\0'; fi | LC_ALL=C sort -z |
while IFS= read -r -d '' name; do printf 'entry %q\n' "$name"; done
shift 2
for name; do
  if [ -f "$name" ] && [ ! -L "$name" ]; then printf 'sha %q %s\n' "$name" "$(sha256sum < "$name" | cut -d' ' -f1)"
  else printf 'sha %q not-a-file\n' "$name"; fi
done"""


def _dir_listing(args: Mapping[str, Any], dest: str) -> Metric | None:
    """fs.dir_listing -> exact_match on the folder's listing (and the sha256 of the files it names)."""
    names = [str(n) for n in args["names"]]
    contents = {str(k): str(v) for k, v in (args.get("contents") or {}).items()}
    recursive = bool(args.get("recursive", False))
    shown = {n: _shown(n, nested=recursive) for n in names}
    if None in shown.values() or set(contents) - set(names):
        return None
    expected = "folder\n" + "".join(f"entry {shown[n]}\n" for n in sorted(names, key=lambda n: n.encode()))
    expected += "".join(f"sha {shown[n]} {sha}\n" for n, sha in sorted(contents.items()))
    command = ["bash", "-c", _LISTING, "forge-listing", str(args["path"]), "recursive" if recursive else "flat",
               *sorted(contents)]
    return Metric("exact_match", vm_command(command), rule({"expected": expected}))


# fs.dir_modes as data: for each `NAME:MASK`, `NAME BITS` (its permission bits, links followed, AND the mask: 7777
# for an exact mode, the wanted bits for "+500") or `NAME missing`, after a `folder` line (none: no folder).
_MODES = r"""[ -d "$1" ] || exit 0
echo folder
folder=$1; shift
for spec; do
  name=${spec%:*}; mask=${spec##*:}
  if mode=$(stat -L -c %a -- "$folder/$name" 2>/dev/null); then printf '%s %o\n' "$name" $(( 8#$mode & 8#$mask ))
  else printf '%s missing\n' "$name"; fi
done"""


def _dir_modes(args: Mapping[str, Any], dest: str) -> Metric | None:
    """fs.dir_modes -> exact_match on each named entry's permission bits (masked to the wanted bits for "+500")."""
    specs, expected = [], ["folder\n"]
    for name, mode in sorted(dict(args["modes"]).items()):
        wanted = str(mode)
        if _shown(str(name)) is None or not re.fullmatch(r"\+?[0-7]{1,4}", wanted):
            return None
        bits = int(wanted.lstrip("+"), 8)
        mask = bits if wanted.startswith("+") else 0o7777
        specs.append(f"{name}:{mask:o}")
        expected.append(f"{name} {bits & mask:o}\n")
    command = ["bash", "-c", _MODES, "forge-modes", str(args["path"]), *specs]
    return Metric("exact_match", vm_command(command), rule({"expected": "".join(expected)}))


#: Checks OSWorld metrics express faithfully; keep sorted.
NATIVE: dict[str, Mapper] = {
    "fs.dir_listing": _dir_listing,
    "fs.dir_modes": _dir_modes,
    "fs.file_mode": _file_mode,
    "fs.same_content": _same_bytes(no_link=True),
    "multi.saved_file": _same_bytes(no_link=False),
    "tb.file_saved": _same_bytes(no_link=False),
    "tb.pref_equals": _pref_equals,
    "xlsx.cell_value": _cell_value,
}


@dataclass(frozen=True)
class Plan:
    """How one rubric is scored: native metrics, plus the checks left for the shipped checker."""

    metrics: tuple[Metric, ...]
    checker_checks: tuple[dict[str, Any], ...]


def plan_rubric(rubric: Sequence[Mapping[str, Any]]) -> Plan:
    metrics: list[Metric] = []
    rest: list[dict[str, Any]] = []
    for n, check in enumerate(rubric):
        mapper = NATIVE.get(str(check["primitive"]))
        metric = mapper(check["args"], f"result-{n}") if mapper else None
        if metric is None:
            rest.append(dict(check))
        else:
            metrics.append(metric)
    return Plan(tuple(metrics), tuple(rest))


def checker_metric(python: str, checker: str, rubric: str, home: str = "/home/user") -> Metric:
    """The shipped checker run on the VM by `python`, scored by exact_match on its verdict line."""
    return Metric("exact_match", vm_command([python, checker, rubric, home]), rule({"expected": PASS_LINE}))


def evaluator_json(metrics: Sequence[Metric], postconfig: list[dict[str, Any]]) -> dict[str, Any]:
    """The task's `evaluator` (always lists, conj "and": every metric must score 1)."""
    return {
        "postconfig": postconfig,
        "func": [m.func for m in metrics],
        "conj": "and",
        "result": [m.result for m in metrics],
        "expected": [m.expected for m in metrics],
        "options": [m.options for m in metrics],
    }
