"""Thunderbird's address book export (`tb.export_contacts`) as the Python a person types: read the cards out of
abook.sqlite with sqlite3 and write them with the csv module, or as vCard blocks (Thunderbird is closed)."""

from __future__ import annotations

from preparers.teach.tb import _mail_action


@_mail_action("tb.export_contacts")
def export_contacts(profile: str, path: str, dest: str, format: str, book: str = "abook.sqlite",  # noqa: A002
                    skip: int = 0, names: bool = True) -> str:
    if skip or not names:
        raise ValueError("tb.export_contacts: only the whole book with names is a solution")
    lines = ["import csv, os, sqlite3",
             f"db = sqlite3.connect({profile} + {'/' + book!r})",
             "cards = {}",
             "for card, name, value in db.execute('SELECT card, name, value FROM properties ORDER BY rowid'):",
             "    cards.setdefault(card, {})[name] = value or ''",
             f"os.makedirs({dest.rsplit('/', 1)[0]!r}, exist_ok=True)"]
    if format == "csv":
        lines += [f"with open({dest!r}, 'w', newline='', encoding='utf-8') as out:",
                  "    w = csv.writer(out)",
                  "    w.writerow(['First Name', 'Last Name', 'Display Name', 'Primary Email'])",
                  "    for c in cards.values():",
                  "        w.writerow([c.get('FirstName', ''), c.get('LastName', ''), c.get('DisplayName', ''),"
                  " c.get('PrimaryEmail', '')])"]
    else:
        lines += [f"with open({dest!r}, 'w', encoding='utf-8') as out:",
                  "    for c in cards.values():",
                  "        esc = lambda s: s.replace('\\\\', '\\\\\\\\').replace(',', '\\\\,').replace(';', '\\\\;')",
                  "        name = esc(c.get('LastName', '')) + ';' + esc(c.get('FirstName', ''))",
                  "        fn = esc(c.get('DisplayName', ''))",
                  "        mail = c.get('PrimaryEmail', '')",
                  "        out.write(f'BEGIN:VCARD\\r\\nVERSION:4.0\\r\\nFN:{fn}\\r\\nN:{name};;;\\r\\n'",
                  "                  f'EMAIL;PREF=1:{mail}\\r\\nEND:VCARD\\r\\n')"]
    return "\n".join(lines)
