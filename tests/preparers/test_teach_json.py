"""JSON and Chrome-bookmark teacher snippets (preparers/teach/json.py, chrome.py): the Python a person types leaves
the data the op leaves, run exactly as a student's command runs (forge.agent.shell.AgentShell, bubblewrap).

JSON files are compared as data (`loads_jsonc`, as the checks read them), plus their layout where a person keeps
it: Chrome's one-line Preferences, VS Code's comment lines above the keys they annotate. Bookmarks are compared as
a tree of names, kinds and addresses (ids, guids and dates are the app's: fresh and unique is all that is asked)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from forge.agent.shell import AgentShell
from kit.sandbox import Sandbox, chown_tree
from preparers.chrome import build_bookmarks, build_preferences
from preparers.ops import apply_ops
from preparers.ops.json_doc import loads_jsonc
from preparers.teach import languages, look, teach
from preparers.vscode import render_keybindings, render_settings

pytestmark = pytest.mark.skipif(not Sandbox().enabled, reason="student commands run only in bubblewrap")

H = "/home/user"
SETTINGS = f"{H}/.config/Code/User/settings.json"
KEYS = f"{H}/.config/Code/User/keybindings.json"
PREFS = f"{H}/.config/google-chrome/Default/Preferences"
BOOKMARKS = f"{H}/.config/google-chrome/Default/Bookmarks"
PROJECT = f"{H}/code/api/.vscode/settings.json"
COMMENTS = {"editor.fontSize": "// bigger on the laptop", "files.exclude": "// keep the tree clean"}


def _state(root: Path) -> None:
    user = root / ".config/Code/User"
    user.mkdir(parents=True)
    (user / "settings.json").write_text(render_settings(
        {"editor.fontSize": 13, "workbench.colorTheme": "Default Dark+", "files.exclude": {"**/.git": True},
         "cSpell.words": ["forge"]}, COMMENTS))
    (user / "keybindings.json").write_text(render_keybindings([{"key": "ctrl+k", "command": "noop"}]))
    chrome = root / ".config/google-chrome/Default"
    chrome.mkdir(parents=True)
    (chrome / "Preferences").write_bytes(build_preferences({"homepage": "https://a.example/", "session": {
        "restore_on_startup": 5}, "browser": {"show_home_button": False}}))
    (chrome / "Bookmarks").write_bytes(build_bookmarks({
        "bookmark_bar": [{"name": "Docs", "children": [{"name": "Python", "url": "https://docs.python.org/"}]},
                         {"name": "News", "url": "https://news.example/"}],
        "other": [{"name": "Old", "children": [{"name": "Wiki", "url": "https://wiki.example/"},
                                               {"name": "Mail", "url": "https://mail.example/"}]}]},
        random.Random(3)))
    (root / "code/api").mkdir(parents=True)


def j(_op: str, path: str, /, **args: Any) -> dict[str, Any]:
    return {"op": _op, "path": path, **args}


CASES: dict[str, list[dict[str, Any]]] = {
    "set-keep-comments": [j("json.set", SETTINGS, key=["editor.fontSize"], value=16),
                          j("json.set", SETTINGS, key=["editor.tabSize"], value=2),
                          j("json.set", SETTINGS, key=["files.exclude", "**/node_modules"], value=True)],
    "delete": [j("json.delete", SETTINGS, key=["workbench.colorTheme"]),
               j("json.delete", SETTINGS, key=["no.such"], missing_ok=True)],
    "delete-commented": [j("json.delete", SETTINGS, key=["files.exclude"])],
    "delete-last-commented": [j("json.delete", SETTINGS, key=["cSpell.words"]),
                              j("json.delete", SETTINGS, key=["files.exclude"])],
    "append": [j("json.append", SETTINGS, key=["cSpell.words"], value="teach", unique=True),
               j("json.append", SETTINGS, key=["cSpell.words"], value="forge", unique=True),
               j("json.append", SETTINGS, key=["search.exclude.list"], value="dist")],
    "keybinding": [j("json.append", KEYS, key=[], value={"key": "ctrl+shift+t", "command": "workbench.action.x",
                                                          "when": "editorTextFocus"})],
    "chrome-prefs": [j("json.set", PREFS, key="session.restore_on_startup", value=4),
                     j("json.set", PREFS, key="session.startup_urls", value=["https://b.example/"]),
                     j("json.set", PREFS, key="browser.show_home_button", value=True)],
    "new-workspace-file": [j("json.set", PROJECT, key=["editor.formatOnSave"], value=True)],
    "bookmarks-add": [j("chromebm.add_bookmark", BOOKMARKS, folder=["Bookmarks bar", "Docs"], name="Django",
                        url="https://docs.djangoproject.com/"),
                      j("chromebm.add_bookmark", BOOKMARKS, folder=["Other bookmarks"], name="First",
                        url="https://first.example/", index=0)],
    "bookmarks-folder-move": [j("chromebm.add_folder", BOOKMARKS, folder=["Bookmarks bar"], name="Reading", index=1),
                              j("chromebm.move_bookmark", BOOKMARKS, folder=["Other bookmarks", "Old"], name="Wiki",
                                to=["Bookmarks bar", "Reading"]),
                              j("chromebm.move_bookmark", BOOKMARKS, folder=["Bookmarks bar"], name="News",
                                to=["Bookmarks bar", "Reading"], index=0)],
    "bookmarks-edit": [j("chromebm.rename", BOOKMARKS, folder=["Bookmarks bar"], name="Docs", new_name="Manuals"),
                       j("chromebm.set_url", BOOKMARKS, folder=["Bookmarks bar", "Manuals"], name="Python",
                         url="https://docs.python.org/3/"),
                       j("chromebm.delete", BOOKMARKS, folder=["Other bookmarks"], name="Old")],
}


def _tree(node: dict[str, Any]) -> Any:
    return (node["name"], node["type"], node.get("url"), [_tree(c) for c in node.get("children", [])])


def _ids(node: dict[str, Any]) -> list[int]:
    return [int(node["id"]), *(i for c in node.get("children", []) for i in _ids(c))]


def _run(tmp_path: Path, ops: list[dict[str, Any]]) -> tuple[Path, Path]:
    by_op, by_shell = tmp_path / "op", tmp_path / "shell"
    _state(by_op)
    apply_ops(by_op, ops)
    _state(by_shell)
    sandbox = Sandbox()
    if sandbox.as_root:
        chown_tree(by_shell)
    done = AgentShell(sandbox).run(by_shell, teach(ops))
    assert done.exit_code == 0, done.shown
    return by_op, by_shell


@pytest.mark.parametrize("name", [n for n in CASES if not n.startswith("bookmarks")])
def test_the_json_snippet_leaves_the_data_the_op_leaves(tmp_path: Path, name: str) -> None:
    by_op, by_shell = _run(tmp_path, CASES[name])
    path = CASES[name][0]["path"].removeprefix(H + "/")
    mine, theirs = (by_shell / path).read_text(), (by_op / path).read_text()
    assert loads_jsonc(mine) == loads_jsonc(theirs)
    _state(tmp_path / "initial")
    before = tmp_path / "initial" / path
    assert not before.exists() or loads_jsonc(theirs) != loads_jsonc(before.read_text())  # the case changes it
    if path.endswith("Preferences"):  # Chrome's layout: one line, sorted keys
        assert mine == build_preferences(json.loads(theirs)).decode()
    lines = mine.splitlines()
    kept = [line.strip() for line in theirs.splitlines() if line.strip().startswith("//")]
    assert [line.strip() for line in lines if line.strip().startswith("//")] == kept  # no comment lost
    try:
        from preparers import jsonc
    except ImportError:  # the op's own comment model (where a removed key's comments go), when it is there
        jsonc = None  # type: ignore[assignment]
    if jsonc is not None and "/" in theirs:
        assert jsonc.comments(mine) == jsonc.comments(theirs)
    for key, comment in COMMENTS.items() if path.endswith("User/settings.json") else ():
        owner = next((i for i, line in enumerate(lines) if line.strip().startswith(json.dumps(key) + ":")), None)
        if owner is not None:  # a comment stays above the key it annotates, as long as the key is there
            assert lines[owner - 1].strip() == comment, mine
    if path.endswith("keybindings.json"):
        assert lines[0].startswith("// Place your key bindings"), mine


@pytest.mark.parametrize("name", [n for n in CASES if n.startswith("bookmarks")])
def test_the_bookmark_snippet_leaves_the_tree_the_op_leaves(tmp_path: Path, name: str) -> None:
    by_op, by_shell = _run(tmp_path, CASES[name])
    rel = BOOKMARKS.removeprefix(H + "/")
    mine, theirs = json.loads((by_shell / rel).read_text()), json.loads((by_op / rel).read_text())
    assert {k: _tree(v) for k, v in mine["roots"].items()} == {k: _tree(v) for k, v in theirs["roots"].items()}
    ids = [i for root in mine["roots"].values() for i in _ids(root)]
    assert len(ids) == len(set(ids))  # a new node takes a free id
    assert "checksum" not in mine
    assert (by_shell / rel).read_text() == json.dumps(mine, indent=3, sort_keys=True, ensure_ascii=False) + "\n"


def test_the_look_shows_settings_and_bookmarks(tmp_path: Path) -> None:
    _state(tmp_path)
    sandbox = Sandbox()
    if sandbox.as_root:
        chown_tree(tmp_path)
    ops = CASES["set-keep-comments"] + CASES["bookmarks-edit"]
    seen = AgentShell(sandbox).run(tmp_path, look(ops, [SETTINGS, BOOKMARKS]))
    assert seen.exit_code == 0, seen.shown
    assert "// bigger on the laptop" in seen.shown and "  Python -> https://docs.python.org/" in seen.shown


@pytest.mark.parametrize("kind", ["json", "chromebm"])
def test_the_helpers_survive_the_heredocs_import_merge(kind: str) -> None:
    """`teach` keeps each import line once per heredoc: a helper line that repeats would be dropped."""
    lines = [line for line in languages()[kind].imports.splitlines() if line.strip()]
    assert len(lines) == len(set(lines))
