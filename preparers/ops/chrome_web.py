"""Chrome ops for the web tasks (workflows/chrome/site.py): bookmark a page found on a site, write a fact read on it.

`chromebm.bookmark_page` adds the bookmark like `chromebm.add_bookmark`; its other arguments say how the page is
found (the server's folder `site_dir` served at `site`, the page whose heading is `find`), for the teacher, which
finds the page from them (preparers/teach/chrome_web.py) where the oracle was given its address by the goal."""

from __future__ import annotations

from typing import Any

from preparers.ops import OpError, op
from preparers.ops.chrome import add_bookmark
from preparers.ops.fs import FsHandle, write_text


@op("chromebm.bookmark_page")
def bookmark_page(tree: dict[str, Any], folder: list[str], name: str, url: str, site: str, site_dir: str,
                  find: str) -> None:
    """Bookmark the page `url` of the site `site` (the one about `find`) as `name` in `folder`."""
    if not url.startswith(site):
        raise OpError(f"chromebm.bookmark_page: {url} is not a page of {site}")
    add_bookmark(tree, folder, name, url)


@op("fs.write_found")
def write_found(h: FsHandle, text: str, site_dir: str, pattern: str, find: str | None = None) -> None:
    """Write `text` (a fact read off a site, and a newline) to the file at `path`. The other arguments say where the
    site shows it, for the teacher: the first match of `pattern`'s group in the server's folder `site_dir`, on the
    page whose heading is `find` when given."""
    write_text(h, text + "\n")
