"""Nodes and helpers shared by the Chrome families.

Every Chrome family starts with `sample` (persona, folder count) and the `content` LLM node (a person's
bookmark set, see workflows/chrome/content.py). Its goal node turns the content into a `Profile` — the
bookmark tree spec plus Preferences — with whatever initial state the task needs, and states the facts.
The shared `prepare` node writes the profile (Bookmarks, Preferences, and the "First Run" sentinel that
keeps Chrome from showing its welcome flow) and launches Chrome.

Folder paths are lists starting with the root label Chrome shows: ["Bookmarks bar", "News"].
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from forge.dag import Node, NodeContext, llm_node, node
from forge.family import AppKit
from forge.model import HOME, Asset, Check
from preparers import chrome
from verifiers.checks.json_doc import leaves
from workflows.chrome.content import CONTENT_SCHEMA, PERSONAS, check_profile, generate_profile
from workflows.common import instruction

__all__ = ["instruction"]  # re-exported: families call chc.instruction(...)

APP = "chrome"
CONFIG = f"{HOME}/.config/google-chrome"
PROFILE_DIR = f"{CONFIG}/Default"
BOOKMARKS = f"{PROFILE_DIR}/Bookmarks"
PREFERENCES = f"{PROFILE_DIR}/Preferences"
LAUNCH = ["google-chrome"]
BAR, OTHER = chrome.ROOTS["bookmark_bar"][1], chrome.ROOTS["other"][1]
ROOT_OF = {"bar": BAR, "other": OTHER}

Link = tuple[list[str], str, str]  # (folder path, name, url)


@dataclass(frozen=True)
class Profile:
    """The initial Chrome profile: bookmark spec (root key -> items, see preparers.chrome) and Preferences."""

    bookmarks: dict[str, list[dict[str, Any]]]
    prefs: dict[str, Any]

    def links(self) -> list[Link]:
        """Every bookmark with its folder path, in tree order."""
        out: list[Link] = []

        def visit(path: list[str], items: list[dict[str, Any]]) -> None:
            for item in items:
                if "children" in item:
                    visit([*path, item["name"]], item["children"])
                else:
                    out.append((path, item["name"], item["url"]))

        for key, items in self.bookmarks.items():
            visit([chrome.ROOTS[key][1]], items)
        return out

    def folders(self, root: str) -> list[dict[str, Any]]:
        """The folder items directly in `root` ("bar" or "other")."""
        return [i for i in self.bookmarks[_ROOT_KEY[root]] if "children" in i]

    def loose(self, root: str) -> list[dict[str, Any]]:
        """The bookmarks directly in `root` ("bar" or "other"), outside any folder."""
        return [i for i in self.bookmarks[_ROOT_KEY[root]] if "children" not in i]

    def with_prefs(self, **changes: Any) -> Profile:
        """A copy whose Preferences have the dotted keys in `changes` set (e.g. `**{"session.x": 1}`)."""
        prefs = copy.deepcopy(self.prefs)
        for key, value in changes.items():
            *parents, last = key.split(".")
            target = prefs
            for step in parents:
                target = target.setdefault(step, {})
            target[last] = value
        return Profile(self.bookmarks, prefs)


_ROOT_KEY = {"bar": "bookmark_bar", "other": "other"}


def kept(links: list[Link], *excluded: str) -> list[list[Any]]:
    """`links` as check args, without the bookmarks whose url is in `excluded`."""
    return [[folder, name, url] for folder, name, url in links if url not in excluded]


def place(root_label: str) -> str:
    """How a root is named in prose: "on the Bookmarks bar", "in Other bookmarks"."""
    return f"on the {root_label}" if root_label == BAR else f"in {root_label}"


def located(folder: list[str]) -> str:
    """Where a folder path is, in prose: "in the 'News' folder on the Bookmarks bar", "in Other bookmarks"."""
    if len(folder) == 1:
        return place(folder[0])
    inner = " inside ".join(f"'{name}'" for name in reversed(folder[1:]))
    return f"in the {inner} folder {place(folder[0])}"


def join_and(items: list[str]) -> str:
    """"a", "a and b", "a, b and c"."""
    return ", ".join(items[:-1]) + f" and {items[-1]}" if len(items) > 1 else items[0]


# --- shared nodes -----------------------------------------------------------------------------------

@node("sample", "sample", ("params",), ("plan",))
def sample(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    rng = ctx.rng("sample")
    return {"plan": {"persona": rng.choice(sorted(PERSONAS)), "n_folders": rng.randint(3, 4)}}


def _offline_profile(rng: random.Random, values: Mapping[str, Any]) -> dict[str, Any]:
    plan = values["plan"]
    return generate_profile(rng, persona=plan["persona"], n_folders=plan["n_folders"])


content = llm_node("content", kind="llm", inputs=("plan",), output="bookmarks", prompt="chrome_content.txt",
                   schema=CONTENT_SCHEMA, offline=_offline_profile, check=check_profile)


def base_profile(bookmarks: Mapping[str, Any], rng: random.Random) -> Profile:
    """The person's profile: all folders but the last on the bookmarks bar, then the loose bar links;
    Other bookmarks holds its loose links and the last folder. Preferences are ordinary defaults."""
    folders = [{"name": f["name"], "children": [dict(b) for b in f["bookmarks"]]} for f in bookmarks["folders"]]
    spec = {"bookmark_bar": [*folders[:-1], *(dict(b) for b in bookmarks["bar"])],
            "other": [*(dict(b) for b in bookmarks["other"]), folders[-1]],
            "synced": []}
    home = rng.choice([b["url"] for b in bookmarks["bar"]])
    prefs: dict[str, Any] = {
        "bookmark_bar": {"show_on_all_tabs": True},
        "browser": {"has_seen_welcome_page": True, "show_home_button": rng.random() < 0.4,
                    "window_placement": {"bottom": 1050, "left": 10, "maximized": True, "right": 1910, "top": 10,
                                         "work_area_bottom": 1080, "work_area_left": 0, "work_area_right": 1920,
                                         "work_area_top": 0}},
        "download": {"default_directory": f"{HOME}/Downloads", "directory_upgrade": True,
                     "prompt_for_download": rng.random() < 0.3},
        "homepage_is_newtabpage": True,
        "intl": {"selected_languages": "en-US,en"},
        "profile": {"avatar_index": rng.randint(0, 55), "exit_type": "Normal", "name": bookmarks["profile_name"],
                    "created_by_version": rng.choice(["120.0.6099.109", "122.0.6261.94", "124.0.6367.60"])},
        "savefile": {"default_directory": f"{HOME}/Downloads"},
        "session": {"restore_on_startup": 5, "startup_urls": []},
    }
    if rng.random() < 0.5:  # Chrome keeps a typed home page even while the New Tab page is selected
        prefs["homepage"] = home
    return Profile(spec, prefs)


def pick_sites(bookmarks: Mapping[str, Any], rng: random.Random, k: int) -> list[dict[str, Any]]:
    """`k` sites the person has not bookmarked yet."""
    return rng.sample(list(bookmarks["extra"]), k)


@node("prepare", "prepare", ("profile",), ("assets", "launch"))
def prepare(ctx: NodeContext, values: Mapping[str, Any]) -> Mapping[str, Any]:
    profile: Profile = values["profile"]
    assets = [
        Asset(BOOKMARKS, chrome.build_bookmarks(profile.bookmarks, ctx.rng("prepare")), app="chrome"),
        Asset(PREFERENCES, chrome.build_preferences(profile.prefs), app="chrome"),
        Asset(f"{CONFIG}/First Run", b"", app="chrome"),
    ]
    return {"assets": assets, "launch": list(LAUNCH)}


def source_nodes() -> tuple[Node, ...]:
    """sample -> content: the start of every Chrome family."""
    return (sample, content)


# --- checks ---------------------------------------------------------------------------------------------

#: Preferences that Chrome itself rewrites (window geometry, how it last exited, its version): never a user's
#: setting, so never "left unchanged"
CHROME_MANAGED = ("browser.window_placement", "browser.has_seen_welcome_page", "profile.exit_type",
                  "profile.created_by_version")


def prefs_kept_check(prefs: Mapping[str, Any], *scope: str) -> Check:
    """"Chrome's other settings are unchanged": every leaf of the initial `prefs` outside the dotted key prefixes
    in `scope` (what the task changes) and outside `CHROME_MANAGED` keeps its value."""
    skip = (*scope, *CHROME_MANAGED)
    def out_of_scope(dotted: str) -> bool:
        return not any(dotted == s or dotted.startswith(s + ".") for s in skip)

    kept = [[key, value] for key, value in leaves(dict(prefs)) if out_of_scope(".".join(key))]
    # user-facing settings the profile lacks must stay absent: an added one is a setting changed too
    have = {".".join(key) for key, _ in leaves(dict(prefs))}
    unset = [key for key in sorted(chrome.USER_SETTINGS) if key not in have and out_of_scope(key)]
    return Check("prefs_kept", "Chrome's other settings are unchanged.", "json.values_kept",
                 {"path": PREFERENCES, "values": kept, "unset": unset})


# --- ops builders (solutions are data) ---------------------------------------------------------------

def bm(op_name: str, **args: Any) -> dict[str, Any]:
    """A `chromebm.*` op on the Bookmarks file."""
    return {"op": f"chromebm.{op_name}", "path": BOOKMARKS, **args}


def pref(key: str, value: Any) -> dict[str, Any]:
    """A `json.set` op on Preferences (dotted key)."""
    return {"op": "json.set", "path": PREFERENCES, "key": key, "value": value}


#: The Chrome app kit: families built with `forge.family.family(NAME, CHROME, ...)`.
CHROME = AppKit(apps=(APP,), source=source_nodes, state="profile", prepare=prepare, instruction=instruction)
