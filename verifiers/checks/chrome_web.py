"""chrome web primitives: what a person leaves after working on a site in Chrome (workflows/chrome/site.py), where
the instruction names the site and what to look for on it, and the page or file found there is the answer.

- `chrome.page_bookmarked`: the stated folder holds the stated bookmark, pointing at the page the person had to find
  (the page's address is the answer: never in the instruction);
- `chrome.file_downloaded`: the file linked from the page the person had to find is saved, byte for byte, in the
  stated folder under the name the site gives it (what Chrome's download does).
"""

from __future__ import annotations

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.checks.chrome import bookmark_exists, same_url
from verifiers.checks.fs import guarded
from verifiers.meaning import Meaning
from verifiers.readers.tree import describe, entry, lexists, sha256_of


@primitive("chrome.page_bookmarked", grounded=("name", "folder", "site", "page"), secret=("url",),
           meaning=Meaning(action=r"bookmark"))
def page_bookmarked(state: State, path: str, name: str, folder: list[str], site: str, page: str, url: str) -> Result:
    """The bookmark folder `folder` of the Bookmarks file `path` holds exactly one bookmark called `name`, and it
    points at `url`: the page of the site `site` (its home address) that is about `page` (a product's name)."""
    if not same_url(url[:len(site)], site):
        return fail(f"check misconfigured: {url} is not a page of {site}")
    found = bookmark_exists(state, path, name, url, folder)
    if not found.passed:
        return fail(f"the page about {page!r} is not bookmarked as asked: {found.evidence}")
    return ok(f"the page about {page!r} is bookmarked: {found.evidence}")


@primitive("chrome.file_downloaded", grounded=("folder", "site", "page"), secret=("file",),
           meaning=Meaning(action=r"download|save"))
@guarded
def file_downloaded(state: State, folder: str, file: str, sha256: str, site: str, page: str) -> Result:
    """`folder`/`file` is a regular file whose bytes have this sha256: the file linked from the page of the site
    `site` about `page`, downloaded under the name the site serves it with."""
    path = f"{folder.rstrip('/')}/{file}"
    host = entry(state, path)
    if not lexists(host):
        return fail(f"{path} does not exist: the file linked from the page about {page!r} was not saved in {folder}")
    if not host.is_file() or host.is_symlink():
        return fail(f"{path} is {describe(host)}, expected the downloaded file")
    if sha256_of(host) != sha256:
        return fail(f"{path} does not hold the bytes the site serves (not the expected sha256 {sha256[:12]})")
    return ok(f"{path} holds the file linked from the page about {page!r}, byte for byte")
