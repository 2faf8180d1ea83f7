"""Chrome bookmark ops (`chromebm.*`) as the Python a person types on the profile's `Bookmarks` file: load the
JSON, find the folder by its path (root label as Chrome shows it, then folder names), change its children, and write
the file back in Chrome's layout (3-space indent, sorted keys) without the stale checksum, which Chrome recomputes.
A new node gets the next free id, a fresh guid and the current time in Chrome's clock (microseconds since 1601).
"""

from __future__ import annotations

from preparers.teach import Language, language, snippet

#: Helpers every script that edits Bookmarks defines once (`Language.imports` keeps each line once).
_HELPERS = r'''import json
import time
import uuid
from pathlib import Path
ROOTS = {'bookmarks bar': 'bookmark_bar', 'other bookmarks': 'other', 'mobile bookmarks': 'synced'}
def bookmark_folder(bookmarks, names):
    """The folder at names = [root label, subfolder, ...]."""
    node = bookmarks['roots'][ROOTS.get(names[0].strip().lower(), names[0])]
    for name in names[1:]:
        node = next(c for c in node['children'] if c['type'] == 'folder' and c['name'].strip() == name.strip())
    return node
def child(folder, name):
    return next(c for c in folder['children'] if c['name'].strip() == name.strip())
def new_node(bookmarks, name, **fields):
    """A node with the next free id, a new guid and the time now as Chrome writes it."""
    def ids(node):
        yield int(node.get('id', 0))
        for sub in node.get('children', []):
            yield from ids(sub)
    top = max(i for root in bookmarks['roots'].values() if isinstance(root, dict) for i in ids(root))
    now = str(int((time.time() + 11_644_473_600) * 1_000_000))
    return {'date_added': now, 'date_last_used': '0', 'guid': str(uuid.uuid4()), 'id': str(max(top, 3) + 1),
            'name': name, **fields}
'''

#: What a person looks at first: the bookmark tree, one line a node.
_PEEK = """import json
def show(node, depth):
    for c in node.get('children', []):
        print('  ' * depth + c['name'] + (' -> ' + c['url'] if c['type'] == 'url' else '/'))
        show(c, depth + 1)
for root in json.load(open(PATH))['roots'].values():
    print(root['name'] + '/')
    show(root, 1)"""

language(Language(
    "chromebm", imports=_HELPERS, open="VAR = json.loads(Path(PATH).read_text())",
    save=("VAR.pop('checksum', None)  # Chrome recomputes it\n"
          "Path(PATH).write_text(json.dumps(VAR, indent=3, sort_keys=True, ensure_ascii=False) + '\\n')"),
    var="bookmarks", peek=_PEEK))


def _put(into: str, node: str, index: int | None) -> str:
    return f"{into}['children'].append({node})" if index is None else f"{into}['children'].insert({index}, {node})"


@snippet("chromebm.add_bookmark")
def add_bookmark(bookmarks: str, path: str, folder: list[str], name: str, url: str, index: int | None = None) -> str:
    node = f"new_node({bookmarks}, {name!r}, type='url', url={url!r})"
    return _put(f"bookmark_folder({bookmarks}, {folder!r})", node, index)


@snippet("chromebm.add_folder")
def add_folder(bookmarks: str, path: str, folder: list[str], name: str, index: int | None = None) -> str:
    node = f"new_node({bookmarks}, {name!r}, type='folder', children=[], date_modified='0')"
    return _put(f"bookmark_folder({bookmarks}, {folder!r})", node, index)


@snippet("chromebm.move_bookmark")
def move_bookmark(bookmarks: str, path: str, folder: list[str], name: str, to: list[str],
                  index: int | None = None) -> str:
    return "\n".join([f"source = bookmark_folder({bookmarks}, {folder!r})", f"node = child(source, {name!r})",
                      "source['children'].remove(node)", _put(f"bookmark_folder({bookmarks}, {to!r})", "node", index)])


@snippet("chromebm.rename")
def rename(bookmarks: str, path: str, folder: list[str], name: str, new_name: str) -> str:
    return f"child(bookmark_folder({bookmarks}, {folder!r}), {name!r})['name'] = {new_name!r}"


@snippet("chromebm.set_url")
def set_url(bookmarks: str, path: str, folder: list[str], name: str, url: str) -> str:
    return f"child(bookmark_folder({bookmarks}, {folder!r}), {name!r})['url'] = {url!r}"


@snippet("chromebm.delete")
def delete(bookmarks: str, path: str, folder: list[str], name: str) -> str:
    return "\n".join([f"parent = bookmark_folder({bookmarks}, {folder!r})",
                      f"parent['children'].remove(child(parent, {name!r}))"])
