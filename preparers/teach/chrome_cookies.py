"""Chrome's cookie store (`chromecookies.*` ops) as the Python a person types: sqlite3 on the Cookies file, the
cookies picked by their host (a leading dot is a domain cookie), then deleted."""

from __future__ import annotations

from preparers.teach import Language, language, snippet

language(Language(
    "chromecookies", imports="import sqlite3", open="VAR = sqlite3.connect(PATH)", save="VAR.commit()\nVAR.close()",
    var="cookies",
    peek="for row in sqlite3.connect(PATH).execute('SELECT host_key, name, path FROM cookies ORDER BY host_key'):\n"
         "    print(row)"))


@snippet("chromecookies.delete")
def delete(cookies: str, path: str, site: str | None = None, except_site: str | None = None,
           hosts: list[str] | None = None, everything: bool = False) -> str:
    def on(name: str) -> str:
        bare = name.strip().lower().removeprefix("www.")
        return f"(host == {bare!r} or host.endswith({'.' + bare!r}))"

    if everything:
        pick = "True"
    elif site is not None:
        pick = on(site)
    elif except_site is not None:
        pick = f"not {on(except_site)}"
    elif hosts is not None:
        pick = f"host in {sorted(h.lower().lstrip('.') for h in hosts)!r}"
    else:
        raise ValueError("chromecookies.delete needs site, except_site, hosts or everything")
    return "\n".join([
        f"for row_id, host_key in {cookies}.execute('SELECT rowid, host_key FROM cookies').fetchall():",
        "    host = host_key.lower().lstrip('.')",
        f"    if {pick}:",
        f"        {cookies}.execute('DELETE FROM cookies WHERE rowid = ?', (row_id,))"])
