"""The `chromebm` document kind: edits of a Chrome `Bookmarks` tree, as the bookmark manager makes them.

Bookmarks and folders are addressed by folder path (`["Bookmarks bar", "Dev"]`, root label first) and
name. New nodes get the next free id, a guid derived from their content and a `date_added` one minute
after the newest date in the tree, so applying the same ops twice gives the same file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from preparers.chrome import children, chrome_time, dump_bookmarks, folders_at, guid_for, walk
from preparers.ops import document_kind, op


def _load(host: Path, root: Path) -> dict[str, Any]:
    if not host.is_file():
        raise FileNotFoundError(host)
    tree = json.loads(host.read_text(encoding="utf-8"))
    if not isinstance(tree, dict) or not isinstance(tree.get("roots"), dict):
        raise ValueError("not a Chrome Bookmarks file (no 'roots' object)")
    return tree


def _save(tree: dict[str, Any], host: Path) -> None:
    tree.pop("checksum", None)  # Chrome recomputes it; a stale one would only be reported, not trusted
    host.write_bytes(dump_bookmarks(tree))


document_kind("chromebm", load=_load, save=_save)


def _folder(tree: dict[str, Any], folder: list[str]) -> dict[str, Any]:
    found = folders_at(tree, folder)
    if not found:
        raise KeyError(f"no bookmark folder {' > '.join(folder)}")
    return found[0]


def _find(tree: dict[str, Any], folder: list[str], name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(parent folder, node) for the node called `name` directly inside `folder`."""
    parent = _folder(tree, folder)
    for child in children(parent):
        if str(child.get("name", "")).strip() == name.strip():
            return parent, child
    raise KeyError(f"no bookmark or folder {name!r} in {' > '.join(folder)}")


def _now(tree: dict[str, Any]) -> str:
    """One minute after the newest date in the tree: a deterministic 'now'."""
    stamps = [int(v) for _, node in walk(tree) for k in ("date_added", "date_modified")
              if str(v := node.get(k, "0")).isdigit()]
    return str(max(stamps, default=int(chrome_time(1_700_000_000))) + 60_000_000)


def _next_id(tree: dict[str, Any]) -> str:
    ids = [int(v) for _, node in walk(tree) if str(v := node.get("id", "")).isdigit()]
    return str(max([3, *ids]) + 1)


def _insert(parent: dict[str, Any], node: dict[str, Any], index: int | None, stamp: str) -> None:
    kids = parent.setdefault("children", [])
    kids.insert(len(kids) if index is None else index, node)
    parent["date_modified"] = stamp


@op("chromebm.add_bookmark")
def add_bookmark(tree: dict[str, Any], folder: list[str], name: str, url: str, index: int | None = None) -> None:
    """Add a bookmark `name` -> `url` into `folder` (at the end, or at `index`)."""
    stamp, node_id = _now(tree), _next_id(tree)
    node = {"date_added": stamp, "date_last_used": "0", "guid": guid_for(node_id, name, url), "id": node_id,
            "name": name, "type": "url", "url": url}
    _insert(_folder(tree, folder), node, index, stamp)


@op("chromebm.add_folder")
def add_folder(tree: dict[str, Any], folder: list[str], name: str, index: int | None = None) -> None:
    """Create an empty folder `name` inside `folder`."""
    stamp, node_id = _now(tree), _next_id(tree)
    node = {"children": [], "date_added": stamp, "date_last_used": "0", "date_modified": "0",
            "guid": guid_for(node_id, name), "id": node_id, "name": name, "type": "folder"}
    _insert(_folder(tree, folder), node, index, stamp)


@op("chromebm.move_bookmark")
def move_bookmark(tree: dict[str, Any], folder: list[str], name: str, to: list[str], index: int | None = None) -> None:
    """Move the node `name` from `folder` into the folder `to` (at the end, or at `index`)."""
    parent, node = _find(tree, folder, name)
    target = _folder(tree, to)
    stamp = _now(tree)
    parent["children"].remove(node)
    parent["date_modified"] = stamp
    _insert(target, node, index, stamp)


@op("chromebm.rename")
def rename(tree: dict[str, Any], folder: list[str], name: str, new_name: str) -> None:
    """Rename the bookmark or folder `name` inside `folder`."""
    _, node = _find(tree, folder, name)
    node["name"] = new_name


@op("chromebm.set_url")
def set_url(tree: dict[str, Any], folder: list[str], name: str, url: str) -> None:
    """Change the address of the bookmark `name` inside `folder`."""
    _, node = _find(tree, folder, name)
    if node.get("type") != "url":
        raise ValueError(f"{name!r} is a folder, not a bookmark")
    node["url"] = url


@op("chromebm.delete")
def delete(tree: dict[str, Any], folder: list[str], name: str) -> None:
    """Delete the bookmark or folder (with everything in it) `name` inside `folder`."""
    parent, node = _find(tree, folder, name)
    parent["children"].remove(node)
    parent["date_modified"] = _now(tree)
