"""vscode.edit_file: one edit of a project's Python source file in VS Code: replace a string everywhere in it
(Find and Replace, Replace All), re-indent a pasted function from tabs to 4 spaces a level, or delete an unused
function with its decorator.

Checks: the file reads as its initial text with exactly that edit (blank-line runs and trailing spaces aside)
and still compiles; the tree frame refuses any other file changed (the README that mentions the old host too).
Near-misses: replace: only the first occurrence, all but the last, the README changed as well; reindent: `expand`
with its default 8-column tabs, 2 spaces a level, only the first tab of each line; delete: the decorator left
behind, a selection that stopped at the blank line inside the body, the function commented out.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal, TypedDict

from kit.axes import deepen, pick, span
from kit.dag import NodeContext, node
from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers.ops.fs_source import delete, reindent
from workflows.vscode import kit as vsc

NAME = "vscode.edit_file"
#: (old host, new host) of a service the project's config points at
HOSTS = (
    ("staging.acme-internal.net", "api.acme-internal.net"),
    ("eu1.metrics.northwind.io", "eu2.metrics.northwind.io"),
    ("old-gateway.corp.lan", "gateway.corp.lan"),
    ("10.0.4.17", "10.0.8.21"),
    ("db-legacy.lab.local", "db01.lab.local"),
    ("queue.dev.fabrikam.cloud", "queue.prod.fabrikam.cloud"),
)
HELPERS = ("helpers", "utils", "common", "tools")
#: name -> source (4-space indent); each body has a blank line and nested blocks, for the slips to show
PLAIN = {
    "chunked": ('def chunked(items: list, size: int) -> list[list]:\n'
                '    """Split `items` into lists of at most `size` elements."""\n'
                '    if size < 1:\n        raise ValueError("size must be positive")\n\n'
                '    return [items[i:i + size] for i in range(0, len(items), size)]\n'),
    "parse_bool": ('def parse_bool(value: str) -> bool:\n'
                   '    """Read yes/no style flags from config files and environment variables."""\n'
                   '    text = value.strip().lower()\n    if text in ("1", "true", "yes", "on"):\n'
                   '        return True\n\n    if text in ("0", "false", "no", "off", ""):\n        return False\n'
                   '    raise ValueError(f"not a boolean: {value!r}")\n'),
    "human_size": ('def human_size(size: int) -> str:\n'
                   '    """Format a byte count as 1.2 KB, 3.4 MB and so on."""\n    value = float(size)\n'
                   '    for unit in ("B", "KB", "MB", "GB"):\n        if value < 1024:\n'
                   '            return f"{value:.1f} {unit}"\n        value /= 1024\n\n'
                   '    return f"{value:.1f} TB"\n'),
    "read_rows": ('def read_rows(path: str) -> list[dict]:\n'
                  '    """Load a tab-separated export into a list of dicts keyed by its header."""\n'
                  '    with open(path, encoding="utf-8") as handle:\n'
                  '        header = handle.readline().rstrip("\\n").split("\\t")\n\n'
                  '        return [dict(zip(header, line.rstrip("\\n").split("\\t"))) for line in handle]\n'),
    "slugify": ('def slugify(title: str) -> str:\n'
                '    """Lower-case `title` and join its words with hyphens."""\n'
                '    words = re.findall(r"[a-z0-9]+", title.lower())\n    if not words:\n'
                '        return "untitled"\n\n    return "-".join(words)\n'),
}
KEPT = ('@functools.lru_cache(maxsize=256)\ndef normalize_name(name: str) -> str:\n'
        '    """Collapse spaces and capitalise a person\'s or vendor\'s name."""\n    parts = name.split()\n\n'
        '    return " ".join(part.capitalize() for part in parts)\n')
#: unused legacy functions, each with a decorator, to delete
LEGACY = {
    "legacy_currency_rate": ('@functools.cache\ndef legacy_currency_rate(code: str) -> float:\n'
                             '    """Fixed rates used before the exchange-rate service existed."""\n'
                             '    rates = {"EUR": 1.0, "USD": 1.08, "GBP": 0.86}\n\n'
                             '    return rates.get(code.upper(), 1.0)\n'),
    "old_retry_delays": ('@functools.lru_cache(maxsize=None)\n'
                         'def old_retry_delays(attempts: int) -> tuple[float, ...]:\n'
                         '    """Back-off delays of the retry loop before it moved to tenacity."""\n'
                         '    delays = [0.5 * 2 ** n for n in range(attempts)]\n\n'
                         '    return tuple(min(d, 30.0) for d in delays)\n'),
    "legacy_tax_table": ('@functools.lru_cache(maxsize=32)\ndef legacy_tax_table(year: int) -> dict[str, float]:\n'
                         '    """VAT rates from the old spreadsheet, kept until the 2023 migration."""\n'
                         '    table = {"standard": 0.19, "reduced": 0.07}\n\n'
                         '    return table if year < 2023 else {}\n'),
}
TASK = {
    "replace": "replace every occurrence of `{old}` with `{new}`",
    "reindent": "re-indent the function `{function}`, which is indented with tabs, to 4 spaces per level",
    "delete": "delete the unused function `{function}` (decorator included)",
}
PHRASINGS = (
    "In VS Code, open {path} (project {folder}) and {task}. Change nothing else in the file or in the project, "
    "and save it.",
    "Edit {path} in the {project} project: {task}. Leave every other line and every other file as it is.",
    "Using VS Code, {task} in the file {path}. Do not touch any other file; save the change.",
    "The file {path} of the project at {folder} needs one change: {task}. Keep the rest unchanged.",
    "Please open {folder} in VS Code and, in {path}, {task}. Nothing else should change; save the file.",
)
NATURAL = (
    "In {path.file} of my {project} project, please {task}.",
    "Could you {task} in {path.file}? Leave the rest of the file alone.",
    "I need one edit in {path.file} ({project}): {task}. Nothing else should change.",
    "Please {task} in {path}, and don't touch the other files.",
    "Can you open {path.file} and {task}? Keep everything else as it is.",
)


class Params(TypedDict):
    edit: Literal["replace", "reindent", "delete"]


@dataclass(frozen=True)
class Target:
    path: str  # absolute path of the edited file
    expected: str  # its text after the edit
    subject: str  # the function (reindent, delete) or the old string (replace)
    new: str = ""  # the replacement (replace)
    readme: str = ""  # the README mentioning the old string (replace)


@node("sample", "sample", ("params",), ("plan",))
def sample(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    """The kit's sample with the language fixed to Python (the edited file is a Python module)."""
    rng = ctx.rng("sample")
    root = deepen(rng.choice(vsc.PROJECT_ROOTS), pick(values["params"], "location", vsc.AXES))
    low, high = span(pick(values["params"], "settings", vsc.AXES))
    return {"plan": {"language": "python", "root": root, "comments": rng.random() < 0.35,
                     "n_settings": rng.randint(low, high)}}


def _config(project: dict[str, Any], old: str, extra: bool) -> str:
    env = project["project"].replace("-", "_").upper()
    lines = [f'"""Runtime configuration for {project["project"]}."""', "", "import os", "",
             f"# Default endpoint; override it with {env}_API_URL.",
             f'API_URL = os.environ.get("{env}_API_URL", "https://{old}/v1")',
             f'HEALTH_URL = "https://{old}/health"', "TIMEOUT_SECONDS = 20", "RETRIES = 3",
             f'ALLOWED_HOSTS = ["{old}", "localhost"]']
    if extra:
        lines += [f'METRICS_URL = "https://{old}/metrics"']
    lines += ['LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"']
    return "\n".join(lines) + "\n"


def _tabs(source: str) -> str:
    """`source` (4-space indent) indented with one tab a level, as pasted from a tab-indented editor."""
    out = []
    for line in source.split("\n"):
        spaces = len(line) - len(line.lstrip(" "))
        out.append("\t" * (spaces // 4) + line[spaces - spaces % 4:])
    return "\n".join(out)


def _module(project: dict[str, Any], blocks: list[str]) -> str:
    return (f'"""Small helpers shared across {project["project"]}."""\n\nimport functools\nimport re\n\n\n'
            + "\n\n".join(blocks))


def goal(rng: random.Random, params: Params, project: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[vsc.Workspace, Target]:
    ws = vsc.base_workspace(project, plan, rng)
    pkg = ws.project["project"].replace("-", "_")
    edit = params["edit"]
    extra: dict[str, str] = {}
    if edit == "replace":
        old, new = rng.choice(HOSTS)
        rel = f"src/{pkg}/config.py"
        text = _config(ws.project, old, rng.random() < 0.5)
        readme = (f"# {ws.project['project']}\n\n{ws.project['summary']}\n\nBy default the service talks to "
                  f"`{old}`; see `src/{pkg}/config.py`.\n\nMaintainer: {ws.project['author']}\n")
        extra = {rel: text, "README.md": readme}
        target = Target(f"{ws.folder}/{rel}", text.replace(old, new), old, new, f"{ws.folder}/README.md")
        task = TASK[edit].format(old=old, new=new)
    else:
        rel = f"src/{pkg}/{rng.choice(HELPERS)}.py"
        plain = rng.sample(sorted(PLAIN), 3)
        if edit == "reindent":
            function = rng.choice([n for n in plain if n != "slugify"])
            blocks = [_tabs(PLAIN[n]) if n == function else PLAIN[n] for n in plain] + [KEPT]
            rng.shuffle(blocks)
            text = _module(ws.project, blocks)
            expected = reindent(text, function)
        else:
            function = rng.choice(sorted(LEGACY))
            blocks = [PLAIN[n] for n in plain] + [KEPT, LEGACY[function]]
            rng.shuffle(blocks)
            text = _module(ws.project, blocks)
            expected = delete(text, function)
        extra = {rel: text}
        target = Target(f"{ws.folder}/{rel}", expected, function)
        task = TASK[edit].format(function=function)
    ws = replace(ws, project={**ws.project, "files": extra})
    facts = {"folder": ws.folder, "project": ws.project["project"], "path": target.path, "task": task}
    return Goal(ws, facts, target)


def rubric(params: Params, target: Target) -> list[Check]:
    if params["edit"] == "replace":
        return [Check("replaced", f"In {target.path}, every `{target.subject}` is now `{target.new}` and nothing else "
                                  "changed.", "text.all_replaced",
                      {"path": target.path, "old": target.subject, "new": target.new, "expected": target.expected})]
    if params["edit"] == "reindent":
        return [Check("reindented", f"In {target.path}, the function `{target.subject}` is indented with 4 spaces "
                                    "per level instead of tabs, and nothing else changed.", "text.function_reindented",
                      {"path": target.path, "function": target.subject, "expected": target.expected})]
    return [Check("deleted", f"{target.path} no longer has the function `{target.subject}` (nor its decorator), and "
                             "nothing else changed.", "text.function_deleted",
                  {"path": target.path, "function": target.subject, "expected": target.expected})]


def solve(params: Params, target: Target) -> Attempts:
    path = target.path
    if params["edit"] == "replace":
        base = {"op": "fs.replace_in_file", "path": path, "old": target.subject, "new": target.new}
        count = target.expected.count(target.new)
        return Attempts(Attempt(f"Replace All `{target.subject}` -> `{target.new}` in the file", [base]), [
            Attempt("replaced only the first occurrence", [{**base, "count": 1}]),
            Attempt("replaced all but the last occurrence", [{**base, "count": count - 1}]),
            Attempt("replaced in the whole project: the README changed too",
                    [base, {**base, "path": target.readme}])])
    if params["edit"] == "reindent":
        base = {"op": "fs.reindent_function", "path": path, "function": target.subject}
        return Attempts(Attempt(f"re-indent `{target.subject}` with 4 spaces a level", [base]), [
            Attempt("ran `expand`, whose tab stops are 8 columns", [{**base, "width": 8}]),
            Attempt("used 2 spaces a level", [{**base, "width": 2}]),
            Attempt("replaced only the first tab of each line", [{**base, "first_only": True}])])
    base = {"op": "fs.delete_function", "path": path, "function": target.subject}
    return Attempts(Attempt(f"delete `{target.subject}` and its decorator", [base]), [
        Attempt("deleted the function but left its decorator above the next one", [{**base, "keep_decorators": True}]),
        Attempt("selected down to the first blank line only: the rest of the body is left",
                [{**base, "partial": True}]),
        Attempt("commented the function out instead of deleting it", [{**base, "comment_out": True}])])


WORKFLOW = family(
    NAME, vsc.VSCODE,
    description="Edit one Python source file of a project: replace a string everywhere, re-indent a function from "
                "tabs to 4 spaces, or delete an unused function.",
    knobs={"edit": ("replace", "reindent", "delete")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
    source=(sample, vsc.content),
)
