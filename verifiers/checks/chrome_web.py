"""chrome web primitives: what a person leaves after working on a site in Chrome (workflows/chrome/site.py), where
the instruction names the site and what to look for on it, and the page or file found there is the answer.

- `chrome.page_bookmarked`: the stated folder holds the stated bookmark, pointing at the page the person had to find
  (the page's address is the answer: never in the instruction);
- `chrome.file_downloaded`: the file linked from the page the person had to find is saved, byte for byte, in the
  stated folder under the name the site gives it (what Chrome's download does);
- `chrome.form_sent`: Chrome's History holds a visit of the page a GET form of the site sends to, with the values
  asked in its query (what sending the form leaves behind).
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.checks.chrome import bookmark_exists, same_url
from verifiers.checks.chrome_history import read_history
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


@primitive("chrome.form_sent", grounded=("site", "product", "qty", "day", "name"),
           meaning=Meaning(action=r"reserv|order|form|submit|send"))
def form_sent(state: State, path: str, site: str, action: str, product: str, value: str, qty: int, day: str,
              name: str) -> Result:
    """Chrome's History (`path`) holds a visit of the page `action` of the site `site` whose query carries the
    reservation asked: `product` (sent as its form value `value`), the quantity `qty`, the pickup `day` and the
    person's `name` (compared with case and surrounding spaces ignored): the site's GET form was sent with those
    values. Other parameters may be there too."""
    want = {"product": value, "qty": str(qty), "day": day, "name": name}
    want = {k: str(v).strip().casefold() for k, v in want.items()}
    sent: list[dict[str, str]] = []
    for address, visits in _visited(state, path):
        parts = urlsplit(address)
        if visits and same_url(f"{parts.scheme}://{parts.netloc}{parts.path}", site.rstrip("/") + "/" + action):
            query = {k: v[-1].strip().casefold() for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
            if all(query.get(k) == v for k, v in want.items()):
                return ok(f"the form for {product!r} was sent: {address}")
            sent.append(query)
    if not sent:
        return fail(f"Chrome's history has no visit of {site}{action}: the form for {product!r} was never sent")
    wrong = "; ".join(", ".join(f"{k}={q.get(k)!r}" for k in want if q.get(k) != want[k]) for q in sent[:3])
    return fail(f"the form was sent {len(sent)} time(s), never with every value asked ({wrong})")


def _visited(state: State, path: str) -> list[tuple[str, int]]:
    """(address, visits) of every address in the History database at `path` (StateError when it is none)."""
    history = state.read(path, read_history, "Chrome History database")
    return [(address, history.visits.get(i, 0)) for i, (address, _, _) in history.urls.items()]
