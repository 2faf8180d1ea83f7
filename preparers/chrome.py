"""Chrome profile files: `Bookmarks` and `Preferences` under ~/.config/google-chrome/Default.

Both are JSON as Chrome writes them: Bookmarks pretty-printed with 3-space indent and sorted keys
(`{"roots": {"bookmark_bar", "other", "synced"}, "version": 1}`; the optional checksum is omitted, which
Chrome accepts), Preferences compact and key-sorted. Node ids count up from 4 after the three roots,
guids and `date_added` (microseconds since 1601-01-01, as strings) come from the caller's RNG, so the
same spec and seed give the same bytes. Root guids are Chrome's fixed constants.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

#: Root key -> (id, label Chrome shows and saves, Chrome's fixed guid).
ROOTS: dict[str, tuple[str, str, str]] = {
    "bookmark_bar": ("1", "Bookmarks bar", "0bc5d13f-2cba-5d74-951f-3f233fe6c908"),
    "other": ("2", "Other bookmarks", "82b081ec-3dd3-529c-8475-ab6c344590dd"),
    "synced": ("3", "Mobile bookmarks", "4cf2e351-0e85-532b-bb37-df045d8f8d0f"),
}
#: Seconds between 1601-01-01 (Windows/Chrome epoch) and 1970-01-01.
EPOCH_DELTA = 11_644_473_600
#: 2021-01-01 .. 2024-06-01 as Unix seconds: the span bookmark dates are drawn from.
DATE_SPAN = (1_609_459_200, 1_717_200_000)


def chrome_time(unix_seconds: float) -> str:
    """Chrome's timestamp string: microseconds since 1601-01-01."""
    return str(int((unix_seconds + EPOCH_DELTA) * 1_000_000))


def guid_from(bits: int) -> str:
    """A version-4-shaped guid from 128 bits (from an RNG or a hash, never uuid4)."""
    bits = (bits & ~(0xF << 76)) | (0x4 << 76)  # version 4
    bits = (bits & ~(0x3 << 62)) | (0x2 << 62)  # RFC 4122 variant
    h = f"{bits:032x}"
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def guid_for(*parts: object) -> str:
    """A stable guid derived from `parts` (for nodes added by edit ops)."""
    return guid_from(int.from_bytes(hashlib.sha256("\x1f".join(map(str, parts)).encode()).digest()[:16], "big"))


class _Builder:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.next_id = 4
        self.clock = rng.uniform(*DATE_SPAN)

    def stamp(self) -> str:
        self.clock += self.rng.uniform(600, 40 * 86_400)
        return chrome_time(self.clock)

    def node(self, item: dict[str, Any]) -> dict[str, Any]:
        node: dict[str, Any] = {"date_added": self.stamp(), "date_last_used": "0",
                                "guid": guid_from(self.rng.getrandbits(128)), "id": str(self.next_id),
                                "name": item["name"]}
        self.next_id += 1
        if "children" in item:
            node["children"] = [self.node(child) for child in item["children"]]
            node["date_modified"] = chrome_time(self.clock)
            node["type"] = "folder"
        else:
            node["type"] = "url"
            node["url"] = item["url"]
        return node


def bookmarks_tree(spec: dict[str, list[dict[str, Any]]], rng: random.Random) -> dict[str, Any]:
    """The Bookmarks document for `spec` = root key -> items; an item is `{"name", "url"}` or a folder
    `{"name", "children": [items]}`. Missing roots are empty."""
    unknown = sorted(set(spec) - set(ROOTS))
    if unknown:
        raise ValueError(f"bookmark roots {unknown} are unknown; use {sorted(ROOTS)}")
    builder = _Builder(rng)
    created = chrome_time(builder.clock)
    roots: dict[str, Any] = {}
    for key, (node_id, label, guid) in ROOTS.items():
        children = [builder.node(item) for item in spec.get(key, [])]
        roots[key] = {"children": children, "date_added": created, "date_last_used": "0",
                      "date_modified": chrome_time(builder.clock) if children else "0", "guid": guid,
                      "id": node_id, "name": label, "type": "folder"}
    return {"roots": roots, "version": 1}


def dump_bookmarks(tree: dict[str, Any]) -> bytes:
    """Bookmarks bytes in Chrome's layout (3-space indent, sorted keys)."""
    return (json.dumps(tree, indent=3, sort_keys=True, ensure_ascii=False) + "\n").encode("utf-8")


def build_bookmarks(spec: dict[str, list[dict[str, Any]]], rng: random.Random) -> bytes:
    return dump_bookmarks(bookmarks_tree(spec, rng))


#: User-facing settings (dotted Preferences keys) that Chrome writes only when the user changes them, each with a
#: value a user may pick: a task's "other settings unchanged" check lists the absent ones as still absent, and the
#: mutation control adds one to prove it does.
USER_SETTINGS: dict[str, Any] = {"translate.enabled": False, "search.suggest_enabled": False,
                                 "credentials_enable_service": False, "webkit.webprefs.default_font_size": 20}


def build_preferences(prefs: dict[str, Any]) -> bytes:
    """Preferences bytes in Chrome's layout (one line, sorted keys)."""
    return json.dumps(prefs, separators=(",", ":"), sort_keys=True, ensure_ascii=False).encode("utf-8")


# --- reading a Bookmarks tree (shared by the edit ops and the checks) ---------------------------------

def root_key(label: str) -> str | None:
    """The root key for a label as written in instructions ("Bookmarks bar") or a root key itself."""
    wanted = label.strip().casefold()
    for key, (_, name, _) in ROOTS.items():
        if wanted in (key, name.casefold()):
            return key
    return {"bookmarks bar": "bookmark_bar", "mobile bookmarks": "synced"}.get(wanted)


def folders_at(tree: Any, folder: list[str]) -> list[dict[str, Any]]:
    """Every folder node at path `folder` = [root label, subfolder, ...] (names compared exactly, trimmed)."""
    roots = tree.get("roots") if isinstance(tree, dict) else None
    if not isinstance(roots, dict) or not folder:
        return []
    key = root_key(str(folder[0]))
    found = [roots[key]] if key in roots and isinstance(roots[key], dict) else []
    for name in folder[1:]:
        found = [child for node in found for child in children(node)
                 if child.get("type") == "folder" and str(child.get("name", "")).strip() == name.strip()]
    return found


def children(node: dict[str, Any]) -> list[dict[str, Any]]:
    kids = node.get("children")
    return [k for k in kids if isinstance(k, dict)] if isinstance(kids, list) else []


def walk(tree: Any) -> list[tuple[list[str], dict[str, Any]]]:
    """Every node below the roots with the folder path that holds it (root label first)."""
    roots = tree.get("roots") if isinstance(tree, dict) else None
    out: list[tuple[list[str], dict[str, Any]]] = []

    def visit(path: list[str], node: dict[str, Any]) -> None:
        for child in children(node):
            out.append((path, child))
            if child.get("type") == "folder":
                visit([*path, str(child.get("name", ""))], child)

    if isinstance(roots, dict):
        for key, (_, label, _) in ROOTS.items():
            if isinstance(roots.get(key), dict):
                visit([label], roots[key])
    return out
