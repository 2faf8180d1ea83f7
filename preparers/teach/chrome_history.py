"""Chrome's History database (`chromehist.*` ops) as the Python a person types: sqlite3 on the file, the addresses
picked by their host name, then their visits, search terms, segments and rows deleted (what Chrome's History page
does when it removes a site)."""

from __future__ import annotations

from preparers.teach import Language, language, snippet

language(Language(
    "chromehist", imports="import sqlite3\nfrom urllib.parse import urlsplit", open="VAR = sqlite3.connect(PATH)",
    save="VAR.commit()\nVAR.close()", var="db",
    peek="for row in sqlite3.connect(PATH).execute('SELECT id, url, title, visit_count FROM urls'):\n    print(row)"))


@snippet("chromehist.delete")
def delete(db: str, path: str, site: str | None = None, url: str | None = None, hosts: list[str] | None = None,
           everything: bool = False, keep_visits: bool = False, keep_urls: bool = False) -> str:
    if everything:
        pick = "True"
    elif site is not None:
        bare = site.strip().lower().removeprefix("www.")
        pick = f"host == {bare!r} or host.endswith({'.' + bare!r})"
    elif url is not None:
        pick = f"address == {url!r}"
    elif hosts is not None:
        pick = f"host in {sorted(h.lower() for h in hosts)!r}"
    else:
        raise ValueError("chromehist.delete needs site, url, hosts or everything")
    lines = ["ids = []",
             f"for row_id, address in {db}.execute('SELECT id, url FROM urls').fetchall():",
             "    host = (urlsplit(address).hostname or '').lower()",
             f"    if {pick}:",
             "        ids.append(row_id)",
             "marks = ','.join('?' * len(ids))"]
    if not keep_visits:
        lines.append(f"{db}.execute(f'DELETE FROM visits WHERE url IN ({{marks}})', ids)")
    if not keep_urls:
        lines += [f"{db}.execute(f'DELETE FROM keyword_search_terms WHERE url_id IN ({{marks}})', ids)",
                  f"{db}.execute(f'DELETE FROM segment_usage WHERE segment_id IN "
                  f"(SELECT id FROM segments WHERE url_id IN ({{marks}}))', ids)",
                  f"{db}.execute(f'DELETE FROM segments WHERE url_id IN ({{marks}})', ids)",
                  f"{db}.execute(f'DELETE FROM urls WHERE id IN ({{marks}})', ids)"]
    return "\n".join(lines)
