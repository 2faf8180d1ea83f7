"""Thunderbird: export an address book to a file (`tb.export_contacts`), as Address Book > Tools > Export does:
Comma Separated (.csv: a header row, then one row per card) or vCard (.vcf: one BEGIN:VCARD block per card).

Near-miss switches: `skip` leaves out the last `skip` cards, `names=False` writes the addresses alone."""

from __future__ import annotations

import csv
import io
import sqlite3

from preparers.ops import op, resolve
from preparers.ops.thunderbird import Profile

#: the first columns of Thunderbird's CSV export, in its order
CSV_HEADER = ("First Name", "Last Name", "Display Name", "Nickname", "Primary Email", "Secondary Email")
FORMATS = ("csv", "vcf")


def cards(profile: Profile, book: str = "abook.sqlite") -> list[dict[str, str]]:
    """The cards of the address book as {DisplayName, FirstName, LastName, PrimaryEmail}, in card order."""
    conn = sqlite3.connect(f"file:{profile.dir / book}?mode=ro", uri=True)
    try:
        rows = conn.execute("SELECT card, name, value FROM properties ORDER BY rowid").fetchall()
    finally:
        conn.close()
    by_card: dict[str, dict[str, str]] = {}
    for card, name, value in rows:
        by_card.setdefault(str(card), {})[str(name)] = str(value or "")
    return list(by_card.values())


def _vesc(text: str) -> str:
    return text.replace("\\", "\\\\").replace(",", "\\,").replace(";", "\\;")


@op("tb.export_contacts")
def export_contacts(profile: Profile, dest: str, format: str, book: str = "abook.sqlite",  # noqa: A002
                    skip: int = 0, names: bool = True) -> None:
    """Write the cards of `book` to `dest` (under /home/user) as `format` (csv or vcf)."""
    if format not in FORMATS:
        raise ValueError(f"format={format!r}, but must be one of {FORMATS}")
    found = cards(profile, book)
    found = found[:len(found) - skip] if skip else found
    if format == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\r\n")
        writer.writerow(CSV_HEADER if names else ("Primary Email",))
        for c in found:
            email = c.get("PrimaryEmail", "")
            writer.writerow((c.get("FirstName", ""), c.get("LastName", ""), c.get("DisplayName", ""), "", email, "")
                            if names else (email,))
        data = out.getvalue()
    else:
        blocks = []
        for c in found:
            lines = ["BEGIN:VCARD", "VERSION:4.0"]
            if names:
                lines += [f"FN:{_vesc(c.get('DisplayName', ''))}",
                          f"N:{_vesc(c.get('LastName', ''))};{_vesc(c.get('FirstName', ''))};;;"]
            lines += [f"EMAIL;PREF=1:{c.get('PrimaryEmail', '')}", "END:VCARD"]
            blocks.append("".join(line + "\r\n" for line in lines))
        data = "".join(blocks)
    target = resolve(profile.root, dest)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(data, encoding="utf-8", newline="")
