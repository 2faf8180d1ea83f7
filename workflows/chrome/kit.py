"""Nodes and helpers shared by the Chrome families.

Every Chrome family starts with `sample` (persona, folder count) and the `content` LLM node (a person's
bookmark set, see workflows/chrome/content.py). Its goal node turns the content into a `Profile` — the
bookmark tree spec plus Preferences — with whatever initial state the task needs, and states the facts.
The shared `prepare` node writes the profile (Bookmarks, Preferences, and the "First Run" sentinel that
keeps Chrome from showing its welcome flow) and launches Chrome.

Folder paths are lists starting with the root label Chrome shows: ["Bookmarks bar", "News"].

Difficulty axes (`AXES`), honoured by `base_profile(bookmarks, rng, params)`: more bookmark folders (`bookmarks`),
the person's folders one or two folders further down (`nesting`; families build paths with `Profile.path`), and
look-alike bookmarks (`noise`). The settings families (home page, search engine, startup pages) use the `SETTINGS`
kit instead, whose axis `customized` changes other settings first (their bookmarks are scenery).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import urlsplit

from kit.axes import pick, span
from kit.dag import Node, NodeContext, llm_node, node
from kit.family import AppKit
from kit.model import HOME, Asset, Check
from preparers import chrome
from verifiers.readers.json import leaves
from workflows.chrome.content import CONTENT_SCHEMA, PERSONAS, SITES, check_profile, generate_profile
from workflows.common import instruction
from workflows.frame import tree_frame_node
from workflows.teacher import teacher_node

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
    """The initial Chrome profile: bookmark spec (root key -> items, see preparers.chrome) and Preferences.
    `nest` names the folders (outermost first) each root's bookmark folders sit in (axis `nesting`; none by
    default): the person's folders are then at [root, *nest, name], their loose bookmarks still in the root."""

    bookmarks: dict[str, list[dict[str, Any]]]
    prefs: dict[str, Any]
    nest: tuple[str, ...] = ()

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
        """The person's folder items in `root` ("bar" or "other"): directly in it, or inside the `nest`."""
        items = self.bookmarks[_ROOT_KEY[root]]
        for name in self.nest:
            items = next(i for i in items if "children" in i and i["name"] == name)["children"]
        return [i for i in items if "children" in i]

    def path(self, root: str, name: str) -> list[str]:
        """The folder path of the person's folder `name` in `root`: [root label, *nest, name]."""
        return [ROOT_OF[root], *self.nest, name]

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
        return replace(self, prefs=prefs)


_ROOT_KEY = {"bar": "bookmark_bar", "other": "other"}


def place(root_label: str) -> str:
    """How a root is named in prose: "on the Bookmarks bar", "in Other bookmarks"."""
    return f"on the {root_label}" if root_label == BAR else f"in {root_label}"


def located(folder: list[str]) -> str:
    """Where a folder path is, in prose: "in the 'News' folder on the Bookmarks bar", "in Other bookmarks"."""
    if len(folder) == 1:
        return place(folder[0])
    outer = "".join(f" inside '{name}'" for name in reversed(folder[1:-1]))  # nested: axis `nesting`
    return f"in the '{folder[-1]}' folder{outer} {place(folder[0])}"


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


def base_profile(bookmarks: Mapping[str, Any], rng: random.Random, params: Mapping[str, Any] | None = None
                 ) -> Profile:
    """The person's profile: all folders but the last on the bookmarks bar, then the loose bar links;
    Other bookmarks holds its loose links and the last folder. Preferences are ordinary defaults.
    With `params`, the skill's axis levels shape the bookmarks (see `grow`); the default levels change nothing."""
    profile = _base_profile(bookmarks, rng)
    return grow(profile, bookmarks, rng, params) if params is not None else profile


def _base_profile(bookmarks: Mapping[str, Any], rng: random.Random) -> Profile:
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
    in `scope` (what the task changes) and outside `CHROME_MANAGED` keeps its value. Not subsumed by the frame
    (`chromeprefs.frame`), which leaves out what it counts as Chrome's own bookkeeping (`verifiers.frame.config.NOISE`:
    `download.directory_upgrade`), a value the json mutators drop or change as damage."""
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


# --- difficulty axes (issue 15): honoured by `base_profile`; the first level of each is today's profile -------

AXES: dict[str, tuple[Any, ...]] = {
    "bookmarks": ("3-4", "6-8", "10-12"),  # how many bookmark folders the profile holds (today's: 3-4)
    # the person's folders one or two folders further down (not `location`: two families have a knob of that name)
    "nesting": ("flat", "one", "two"),
    "noise": ("none", "some", "many"),  # look-alike bookmarks: same name other address, same site other page
}
#: Folders that hold the person's folders at the `nesting` levels, outermost first.
NESTS = (("Saved", "Personal"), ("Archive", "2024"), ("Imported", "From Firefox"), ("Old bar", "Sorted"))
#: Pages of a site that no family uses as a "new address": the look-alikes' paths.
TWIN_PATHS = ("login", "pricing", "careers", "contact", "press", "status")
NOISE = {"none": 0, "some": 2, "many": 4}


def _fillers(bookmarks: Mapping[str, Any], rng: random.Random, count: int) -> list[dict[str, Any]]:
    """`count` more folders of well-known sites in categories the profile does not use yet, sharing no folder
    name, bookmark name or address with the person's bookmarks (or the sites a task may add)."""
    links = [*bookmarks["bar"], *(b for f in bookmarks["folders"] for b in f["bookmarks"]), *bookmarks["other"],
             *bookmarks["extra"]]
    names = {link["name"].casefold() for link in links} | {f["name"].casefold() for f in bookmarks["folders"]}
    urls = {link["url"] for link in links}
    out = []
    for cat in rng.sample(sorted(SITES), len(SITES)):
        folder_names, sites = SITES[cat]
        fresh = [(n, u) for n, u in sites if n.casefold() not in names and u not in urls]
        label = next((n for n in folder_names if n.casefold() not in names), None)
        if label is None or len(fresh) < 3:
            continue
        names.add(label.casefold())
        chosen = rng.sample(fresh, rng.randint(3, min(4, len(fresh))))
        names |= {n.casefold() for n, _ in chosen}
        out.append({"name": label, "children": [{"name": n, "url": u} for n, u in chosen]})
        if len(out) == count:
            break
    return out


def _twins(profile: Profile, rng: random.Random, count: int) -> None:
    """Add `count` look-alikes of bookmarks in the person's folders (in place): every other one keeps the name
    and points at another page of the site, loose in the other root; the rest sit beside their original, named
    after the page, at another page of the same site."""
    taken_urls = {url for _, _, url in profile.links()}
    taken_names = {name.casefold() for _, name, _ in profile.links()}
    inside = [(root, f, b) for root in ("bar", "other") for f in profile.folders(root) for b in f["children"]]
    for i, (root, folder, item) in enumerate(rng.sample(inside, min(count, len(inside)))):
        host = urlsplit(item["url"]).netloc
        page = next((p for p in rng.sample(TWIN_PATHS, len(TWIN_PATHS))
                     if f"https://{host}/{p}/" not in taken_urls
                     and f"{item['name']} {p.title()}".casefold() not in taken_names), None)
        if page is None:
            continue
        url = f"https://{host}/{page}/"
        taken_urls.add(url)
        if i % 2 == 0:
            other = "other" if root == "bar" else "bar"
            profile.bookmarks[_ROOT_KEY[other]].insert(0, {"name": item["name"], "url": url})
        else:
            name = f"{item['name']} {page.title()}"
            taken_names.add(name.casefold())
            folder["children"].insert(folder["children"].index(item) + 1, {"name": name, "url": url})


SETTINGS_AXES: dict[str, tuple[Any, ...]] = {"customized": ("none", "some", "many")}
CUSTOMIZED = {"none": 0, "some": 3, "many": 7}
#: Settings a person changes in chrome://settings, with a non-default value: none is a key any settings family
#: changes (home page, startup, search engine) or one the profile mutators set (`chrome.USER_SETTINGS`).
CUSTOM_SETTINGS: tuple[tuple[str, Any], ...] = (
    ("bookmark_bar.show_on_all_tabs", False), ("browser.enable_spellchecking", False),
    ("intl.accept_languages", "en-US,en,de"), ("spellcheck.dictionaries", ["en-US", "de"]),
    ("profile.default_content_setting_values.notifications", 2), ("safebrowsing.enhanced", True),
    ("autofill.profile_enabled", False), ("net.network_prediction_options", 2),
    ("download.default_directory", f"{HOME}/Downloads/chrome"), ("browser.theme.color_scheme2", 2),
)


def customize(profile: Profile, rng: random.Random, count: int) -> Profile:
    """`profile` with `count` of `CUSTOM_SETTINGS` set: a lived-in profile, whose other settings a settings task
    must leave as they are (`prefs_kept_check` covers every leaf)."""
    return profile.with_prefs(**dict(rng.sample(CUSTOM_SETTINGS, count)))


def grow(profile: Profile, bookmarks: Mapping[str, Any], rng: random.Random, params: Mapping[str, Any]) -> Profile:
    """`profile` shaped by the skill's axis levels: other settings already changed (`customized`), more folders
    (`bookmarks`), the folders nested one or two folders down (`nesting`), look-alike bookmarks (`noise`).
    Default levels return `profile` with no draw."""
    if pick(params, "customized", SETTINGS_AXES) != SETTINGS_AXES["customized"][0]:
        profile = customize(profile, rng, CUSTOMIZED[pick(params, "customized", SETTINGS_AXES)])
    levels = {axis: pick(params, axis, AXES) for axis in AXES}
    if all(levels[axis] == AXES[axis][0] for axis in AXES):
        return profile
    spec = copy.deepcopy(profile.bookmarks)
    grown = replace(profile, bookmarks=spec)
    if levels["bookmarks"] != AXES["bookmarks"][0]:
        low, high = span(levels["bookmarks"])
        more = _fillers(bookmarks, rng, rng.randint(low, high) - len(bookmarks["folders"]))
        bar_folders = sum("children" in i for i in spec["bookmark_bar"])
        for i, folder in enumerate(more):  # alternately after the bar's folders and at the end of Other bookmarks
            if i % 2 == 0:
                spec["bookmark_bar"].insert(bar_folders, folder)
                bar_folders += 1
            else:
                spec["other"].append(folder)
    depth = AXES["nesting"].index(levels["nesting"])
    if depth:
        nest = rng.choice(NESTS)[:depth]
        for key in ("bookmark_bar", "other"):
            folders = [i for i in spec[key] if "children" in i]
            wrapped: list[dict[str, Any]] = folders
            for name in reversed(nest):
                wrapped = [{"name": name, "children": wrapped}]
            loose = [i for i in spec[key] if "children" not in i]
            spec[key] = [*wrapped, *loose] if key == "bookmark_bar" else [*loose, *wrapped]
        grown = replace(grown, nest=nest)
    if NOISE[levels["noise"]]:
        _twins(grown, rng, NOISE[levels["noise"]])
    return grown


#: The Chrome app kit: families built with `kit.family.family(NAME, CHROME, ...)`.
CHROME = AppKit(apps=(APP,), source=source_nodes, state="profile", prepare=prepare, instruction=instruction,
                axes=AXES, frame=tree_frame_node, teacher=teacher_node)
#: The families that change a setting, not a bookmark: the bookmark axes would only redecorate their profile, so
#: they use `SETTINGS`, whose one axis is how many other settings the person has already changed (each must stay).
SETTINGS_FAMILIES = ("chrome.homepage", "chrome.search_engine", "chrome.startup_pages", "chrome.privacy_setting",
                     "chrome.font_setting", "chrome.profile_name", "chrome.site_search", "chrome.flag")
SETTINGS = replace(CHROME, axes=SETTINGS_AXES)
