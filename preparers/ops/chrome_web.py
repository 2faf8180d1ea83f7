"""Chrome ops for the web tasks (workflows/chrome/site.py): bookmark a page found on a site.

`chromebm.bookmark_page` adds the bookmark like `chromebm.add_bookmark`; its other arguments say how the page is
found (the server's folder `site_dir` served at `site`, the page whose heading is `find`), for the teacher, which
finds the page from them (preparers/teach/chrome_web.py) where the oracle was given its address by the goal."""

from __future__ import annotations

from typing import Any

from preparers.ops import OpError, op
from preparers.ops.chrome import add_bookmark


@op("chromebm.bookmark_page")
def bookmark_page(tree: dict[str, Any], folder: list[str], name: str, url: str, site: str, site_dir: str,
                  find: str) -> None:
    """Bookmark the page `url` of the site `site` (the one about `find`) as `name` in `folder`."""
    if not url.startswith(site):
        raise OpError(f"chromebm.bookmark_page: {url} is not a page of {site}")
    add_bookmark(tree, folder, name, url)
