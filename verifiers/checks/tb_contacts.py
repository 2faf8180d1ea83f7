"""An address book exported to a file (tb.export_contacts): the file, parsed bounded, holds every card of the book
(its display name, or first and last name, with its address on one record) and no address the book lacks.

Formats as Thunderbird writes them and as other programs read them: CSV with a header row (comma or semicolon
separated; the address in a column whose header names an e-mail, the name in "Display Name" or "Name", else
"First Name" + "Last Name"), or vCard (BEGIN:VCARD blocks: FN, else N, and EMAIL). The book is read from the end
state, so the export is judged against what the address book holds."""

from __future__ import annotations

from pathlib import Path

from kit import bounded
from verifiers.checks import Result, State, fail, ok, primitive
from verifiers.meaning import Meaning
from verifiers.readers import delimited
from verifiers.readers.thunderbird import parse_vcard, read_cards, require_profile

MAX_BYTES = 16 << 20
MAX_CARDS = 10_000
Record = tuple[str, frozenset[str]]  # (names it may go by, casefolded) and its addresses


def read_vcards(host: Path) -> list[dict[str, list[str]]]:
    text = bounded.read_file(host, MAX_BYTES).decode("utf-8-sig")
    blocks = []
    for chunk in text.replace("\r\n", "\n").split("BEGIN:VCARD")[1:MAX_CARDS + 1]:
        blocks.append(parse_vcard("BEGIN:VCARD" + chunk.split("END:VCARD")[0]))
    return blocks


def _vcard_records(cards: list[dict[str, list[str]]]) -> list[tuple[set[str], set[str]]]:
    out = []
    for v in cards:
        names = {n.strip().casefold() for n in v.get("FN", []) if n.strip()}
        for n in v.get("N", []):
            last, first = (n.split(";") + ["", ""])[:2]
            if f"{first} {last}".strip():
                names.add(f"{first} {last}".strip().casefold())
        out.append((names, {e.strip().casefold() for e in v.get("EMAIL", []) if e.strip()}))
    return out


def _csv_records(rows: list[list[str]]) -> list[tuple[set[str], set[str]]] | str:
    if not rows:
        return "the file is empty"
    header = [h.strip().casefold() for h in rows[0]]
    mail = [i for i, h in enumerate(header) if "mail" in h]
    if not mail:
        return f"no e-mail column in the header {rows[0][:8]}"
    display = [i for i, h in enumerate(header) if h in ("display name", "name", "full name")]
    first = header.index("first name") if "first name" in header else None
    last = header.index("last name") if "last name" in header else None
    out = []
    for row in rows[1:MAX_CARDS + 1]:
        def cell(i: int | None, row: list[str] = row) -> str:
            return row[i].strip() if i is not None and i < len(row) else ""
        names = {cell(i).casefold() for i in display if cell(i)}
        if f"{cell(first)} {cell(last)}".strip():
            names.add(f"{cell(first)} {cell(last)}".strip().casefold())
        out.append((names, {cell(i).casefold() for i in mail if cell(i)}))
    return out


@primitive("tb.contacts_exported", grounded=("dest",), meaning=Meaning(action=r"export|save|cop"))
def contacts_exported(state: State, path: str, dest: str, format: str,  # noqa: A002 - the export's kind
                      book: str = "abook.sqlite") -> Result:
    """`dest` is the address book `book` exported as `format` (csv or vcf): one record per card with its name and
    address, and no address the book lacks."""
    require_profile(state, path)
    book_cards = state.read(f"{path}/{book}", read_cards, "address book database")
    if not book_cards:
        return fail(f"the address book {book} is empty")
    if format == "vcf":
        records = _vcard_records(state.read(dest, read_vcards, "vCard file"))
    elif format == "csv":
        rows = delimited.load(state, dest, ",")
        if rows and len(rows[0]) == 1 and ";" in rows[0][0]:
            rows = delimited.load(state, dest, ";")
        parsed = _csv_records(rows)
        if isinstance(parsed, str):
            return fail(f"{dest} is no address book export: {parsed}")
        records = parsed
    else:
        return fail(f"check misconfigured: format={format!r}")
    missing = []
    for card in book_cards:
        emails = {e.casefold() for e in card["emails"].split("\n") if e}
        names = {card["display"].casefold(), f"{card['first']} {card['last']}".strip().casefold()} - {""}
        if not any(emails & got_emails and (names & got_names) for got_names, got_emails in records):
            missing.append(f"{card['display'] or '?'} <{card['emails'].split(chr(10))[0]}>")
    known = {e.casefold() for c in book_cards for e in c["emails"].split("\n") if e}
    extra = sorted({e for _, got in records for e in got} - known)
    if missing:
        return fail(f"{dest} lacks {len(missing)} of the {len(book_cards)} contacts (name with address): "
                    + "; ".join(missing[:4]))
    if extra:
        return fail(f"{dest} holds addresses the address book lacks: {', '.join(extra[:4])}")
    return ok(f"{dest} holds all {len(book_cards)} contacts of {book} with their names and addresses")
