"""Chrome's site search shortcuts (`chromewebdata.*` ops) as the Python a person types: sqlite3 on the Web Data
file, a `keywords` row added (or the one with the old shortcut edited), the address's `%s` stored as Chrome stores
it, `{searchTerms}`."""

from __future__ import annotations

from preparers.teach import Language, language, snippet

language(Language(
    "chromewebdata", imports="import sqlite3, time, uuid", open="VAR = sqlite3.connect(PATH)",
    save="VAR.commit()\nVAR.close()", var="webdata",
    peek="for row in sqlite3.connect(PATH).execute('SELECT short_name, keyword, url FROM keywords'):\n    print(row)"))


@snippet("chromewebdata.set_site_search")
def set_site_search(webdata: str, path: str, name: str, keyword: str, url: str, replace: str | None = None,
                    guid: str = "", created: int = 0) -> str:
    stored = url.replace("%s", "{searchTerms}")
    if replace is not None:
        return (f"{webdata}.execute('UPDATE keywords SET short_name = ?, keyword = ?, url = ? WHERE keyword = ?', "
                f"({name!r}, {keyword!r}, {stored!r}, {replace!r}))")
    return "\n".join([
        "now = int((time.time() + 11644473600) * 1000000)  # Chrome's clock: microseconds since 1601",
        f"{webdata}.execute('INSERT INTO keywords (short_name, keyword, favicon_url, url, safe_for_autoreplace, '",
        "                'date_created, input_encodings, last_modified, sync_guid, alternate_urls, is_active) '",
        "                \"VALUES (?, ?, '', ?, 0, ?, 'UTF-8', ?, ?, '[]', 1)\",",
        f"                ({name!r}, {keyword!r}, {stored!r}, now, now, str(uuid.uuid4())))"])
