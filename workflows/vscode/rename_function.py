"""vscode.rename_function: rename a Python function in its module, or in its module and the test that calls it,
whole words only (VS Code's Find and Replace with "Match Whole Word", or Rename Symbol).

The test is named after the function (`test_run_feeds_drops_empty_items`), so a plain replace-all also renames the
test; the instruction says the test keeps its name. Checks: each file is exactly its initial text with the whole
word renamed; the tree frame refuses any other file changed (the test file too, in the module-only task).
Near-misses: a plain replace that renames the test too, only the first occurrence in the test, the test file left
out (project scope), the test file renamed as well (module scope).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from kit.axes import deepen, pick, span
from kit.dag import NodeContext, node
from kit.family import Attempt, Attempts, Goal, family
from kit.model import Check
from preparers.ops.fs_rename import rename_words
from workflows.vscode import kit as vsc
from workflows.vscode.content import project_files

NAME = "vscode.rename_function"
VERBS = ("process", "handle", "apply", "collect", "prepare", "execute")
SCOPE = {
    "module": "in {module} only (I will update the callers myself)",
    "project": "in {module} and in its test {test}",
}
PHRASINGS = (
    "In VS Code, open the project {folder} and rename the function `{old}` to `{new}` {scope}. Replace whole words "
    "only: the test function `{test_name}` keeps its name. Change nothing else.",
    "Rename `{old}` to `{new}` {scope}, in the {project} project at {folder}. Use whole-word matching so "
    "`{test_name}` stays as it is, and save the files.",
    "Using VS Code's Find and Replace with Match Whole Word on, change `{old}` into `{new}` {scope} ({folder}). Keep "
    "`{test_name}` unchanged.",
    "The function `{old}` in the {project} project ({folder}) should be called `{new}`. Rename it {scope}; "
    "`{test_name}` is not to be renamed.",
    "Please rename the function `{old}` to `{new}` {scope} under {folder}, matching whole words only, so that "
    "`{test_name}` keeps its current name.",
)
#: the natural register: a user's goal in their own voice (workflows.common.instruction)
NATURAL = (
    "Could you rename `{old}` to `{new}` {scope}? Leave `{test_name}` alone.",
    "I want the function `{old}` in {project} renamed to `{new}`, {scope}. The test name `{test_name}` stays.",
    "Please rename `{old}` to `{new}` {scope}, whole words only, so `{test_name}` keeps its name.",
    "`{old}` is a bad name. Rename it to `{new}` {scope}, but don't touch `{test_name}`.",
    "Rename the function `{old}` to `{new}` {scope} in my {project} project; `{test_name}` keeps its name.",
)


class Params(TypedDict):
    scope: Literal["module", "project"]


@dataclass(frozen=True)
class Target:
    old: str
    new: str
    files: tuple[tuple[str, str], ...]  # (absolute path, expected text) of each file to rename in
    module: str  # the module defining the function (absolute path)
    test: str  # the test calling it (absolute path)


@node("sample", "sample", ("params",), ("plan",))
def sample(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    """The kit's sample with the language fixed to Python (a module, its test named after the function)."""
    rng = ctx.rng("sample")
    root = deepen(rng.choice(vsc.PROJECT_ROOTS), pick(values["params"], "location", vsc.AXES))
    low, high = span(pick(values["params"], "settings", vsc.AXES))
    return {"plan": {"language": "python", "root": root, "comments": rng.random() < 0.35,
                     "n_settings": rng.randint(low, high)}}


def goal(rng: random.Random, params: Params, project: dict[str, Any], plan: dict[str, Any]
         ) -> Goal[vsc.Workspace, Target]:
    ws = vsc.base_workspace(project, plan, rng)
    files = project_files(ws.project)
    mod = ws.project["modules"][0]
    pkg = ws.project["project"].replace("-", "_")
    module, test = f"src/{pkg}/{mod}.py", f"tests/test_{mod}.py"
    old, new = f"run_{mod}", f"{rng.choice(VERBS)}_{mod}"
    chosen = [module] if params["scope"] == "module" else [module, test]
    expected = tuple((f"{ws.folder}/{rel}", rename_words(files[rel], old, new)) for rel in chosen)
    facts = {"folder": ws.folder, "project": ws.project["project"], "old": old, "new": new,
             "scope": SCOPE[params["scope"]].format(module=f"{ws.folder}/{module}", test=f"{ws.folder}/{test}"),
             "test_name": f"test_run_{mod}_drops_empty_items"}
    return Goal(ws, facts, Target(old, new, expected, f"{ws.folder}/{module}", f"{ws.folder}/{test}"))


def rubric(target: Target) -> list[Check]:
    return [Check(f"renamed_{i}", f"In {path}, every whole-word `{target.old}` is now `{target.new}` and nothing "
                                  f"else changed.", "text.identifier_renamed",
                  {"path": path, "old": target.old, "new": target.new, "expected": text})
            for i, (path, text) in enumerate(target.files, start=1)]


def solve(params: Params, target: Target) -> Attempts:
    def whole(path: str) -> dict[str, Any]:
        return {"op": "fs.rename_word", "path": path, "old": target.old, "new": target.new}

    def plain(path: str, count: int = 0) -> dict[str, Any]:
        return {"op": "fs.replace_in_file", "path": path, "old": target.old, "new": target.new, "count": count}

    rename = [whole(path) for path, _ in target.files]
    if params["scope"] == "project":
        slips = [Attempt("a plain replace-all: the test function's own name changed too",
                         [plain(target.module), plain(target.test)]),
                 Attempt("replaced only the first occurrence in the test (the import), not the call",
                         [whole(target.module), plain(target.test, 1)]),
                 Attempt("renamed the function in the module but left the test calling the old name",
                         [whole(target.module)])]
    else:
        slips = [Attempt("also renamed the calls in the test file, which was to stay as it is",
                         [whole(target.module), whole(target.test)]),
                 Attempt("a plain replace-all over the project: the test and its name changed too",
                         [plain(target.module), plain(target.test)]),
                 Attempt("renamed the module file instead of the function",
                         [{"op": "fs.rename", "path": target.module, "name": f"{target.new}.py"}])]
    return Attempts(Attempt(f"Find and Replace, whole word, `{target.old}` -> `{target.new}`", rename), slips)


WORKFLOW = family(
    NAME, vsc.VSCODE,
    description="Rename a Python function, whole words only, in its module or in its module and its test.",
    knobs={"scope": ("module", "project")},
    phrasings=PHRASINGS, natural=NATURAL, goal=goal, rubric=rubric, solve=solve,
    source=(sample, vsc.content),
)
