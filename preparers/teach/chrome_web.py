"""Teacher snippets of the Chrome web ops (preparers/ops/chrome_web.py): a person at a terminal finds the page in
the web server's folder (the HTML file whose heading is what they look for), turns its path into the address the
server gives it, and bookmarks that address."""

from __future__ import annotations

from preparers.teach import snippet
from preparers.teach.fs import _mkparent


@snippet("chromebm.bookmark_page")
def bookmark_page(bookmarks: str, path: str, folder: list[str], name: str, url: str, site: str, site_dir: str,
                  find: str) -> str:
    return "\n".join([
        "import html, re",
        f"site_dir, find = Path({site_dir!r}), {find!r}",
        "pages = [p for p in sorted(site_dir.rglob('*.html'))",
        "         if re.search(r'<h1>\\s*' + re.escape(html.escape(find, quote=False)) + r'\\s*</h1>', p.read_text())]",
        "print('found:', pages)",
        f"url = {site!r} + pages[0].relative_to(site_dir).as_posix()",
        f"bookmark_folder({bookmarks}, {folder!r})['children'].append("
        f"new_node({bookmarks}, {name!r}, type='url', url=url))",
    ])


@snippet("fs.write_found")
def write_found(path: str, text: str, site_dir: str, pattern: str, find: str | None = None) -> str:
    lines = ["import html, re", "from pathlib import Path", f"site_dir, find = Path({site_dir!r}), {find!r}",
             "for page in sorted(site_dir.rglob('*.html')):",
             "    text = page.read_text()",
             "    if find and not re.search(r'<h1>\\s*' + re.escape(html.escape(find, quote=False)) + r'\\s*</h1>', "
             "text):",
             "        continue",
             f"    match = re.search({pattern!r}, text)",
             "    if match:",
             "        value = html.unescape(match.group(1)).strip()",
             "        break",
             "print(page, '->', value)",
             f"Path({path!r}).write_text(value + '\\n')"]
    body = "\n".join(lines)
    return f"{_mkparent(path)}python3 - <<'PY'\n{body}\nPY"
