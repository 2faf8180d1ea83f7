"""The `content` stage: would a person believe what the task shows them?

A task can be grounded, solvable and checked tightly and still read as machine-made: a "week 37" report mailed in
March, a CSV attachment holding rows dated after the mail that carries it, an invoice due before it was sent,
"Please add a area chart", "1 rows", a "{name}" or "None" left in a sentence, "Attached is the report for 9.".
An agent trained on such tasks learns that desktops are incoherent; a reviewer stops trusting the batch. This
stage reads the instruction and the initial state (mail folders and message files, office documents, CSV and
text files) and rejects the incoherences it can detect as `unrealistic`, each finding naming the file, the
message or the field and the words at fault.

It reads untrusted packages: every file is read up to a byte cap without following links or blocking on fifos,
zip containers are judged from their directories before inflating (`kit.bounded.check_zip`), mail folders are
cut at `MAX_MESSAGES`, every text scanned at `MAX_TEXT` characters, and the regular expressions are linear. A file
it cannot read (damaged, too big, not what its name says) is not judged here and is named in the evidence; other
stages judge the file itself. Nothing here raises on bad input.

Grammar uses the same rules the generators phrase with (`kit.grammar`), so the two cannot drift apart.
"""

from __future__ import annotations

import csv
import email
import email.errors
import email.header
import email.policy
import io
import os
import re
import stat
import zipfile
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from email.message import Message
from email.utils import parsedate_to_datetime
from html import unescape
from itertools import islice
from pathlib import Path
from typing import Any

from kit import bounded
from kit.grammar import article
from preparers.office_zip import GENERATOR_MARKS
from preparers.thunderbird import split_mbox
from verifiers.extract import dates as stated_dates

#: Bytes read per asset and per archive member.
MAX_BYTES = 8 << 20
#: Messages read per mail folder, and MIME parts per message.
MAX_MESSAGES = 500
MAX_PARTS = 200
#: Characters of one text (a body, a document, the instruction) that are scanned.
MAX_TEXT = 200_000
#: Findings reported (the first few say enough; the rest would only lengthen the evidence).
MAX_FINDINGS = 8


class Unrealistic(ValueError):
    """The task shows something a person would not believe; the message lists the findings on one line."""


@dataclass(frozen=True)
class Finding:
    kind: str  # "date", "grammar", "placeholder" or "fingerprint"
    where: str  # "instruction", "assets/Inbox, message 'Weekly sales export, week 37'"
    what: str  # the words at fault and why

    def __str__(self) -> str:
        return f"{self.kind}: {self.where}: {self.what}"


# --- text: grammar and placeholder leaks -----------------------------------------------------------------

_ARTICLE = re.compile(r"(?:(?<=^)|(?<=[.!?:;]\s)|(?<=\n))(A|An)\s+([\w'‘“\"(][\w.%-]*)|\b(a|an)\s+([\w'‘“\"(][\w.%-]*)")
#: A noun after "1" that is a plural form: ends in s, but not in ss/us/is (class, status, analysis).
_ONE = re.compile(r"(?<![\w.,$€£#/-])1\s+([a-z]{2,}s)\b(?![-'’])")
_NOT_PLURAL = frozenset({"has", "was", "is", "as", "its", "this", "thus", "yes", "plus", "minus", "gas", "bus",
                         "lens", "series", "news", "always", "perhaps", "whereas", "across", "towards", "afterwards",
                         "sometimes", "nevertheless", "less", "bonus", "canvas", "alias", "atlas", "chaos", "bias",
                         "corpus", "ms", "kbps", "mbps", "gbps", "fps", "lbs"})
#: Words before a "1" that label it rather than count with it: "slide 1 shows", "week 1 starts", "step 1 needs".
_LABEL = re.compile(r"(?:slide|page|sheet|row|column|step|chapter|section|item|part|level|week|day|version|number|no"
                    r"|table|figure|line|phase|round|track|tab|group|heading|floor|room|quarter|term|question|option"
                    r"|priority|tier|grade|stage|box|sprint|release|volume|issue|episode|module|unit|lesson|class"
                    r"|team|lane|player|gate|zone|area|building|block|sample|test|case|trial|batch|wave|session"
                    r"|game|match|month|year|hole|field|bay|dock|platform|channel|rank|position|list|set|series"
                    r"|=|:|of|and|or|to|from|than|by|x|×)\s*$", re.IGNORECASE)
_FORMAT_SLOT = re.compile(r"(?<![$\\{])\{[A-Za-z_][A-Za-z0-9_.]*(?:\[[^\]\n]{0,20}\])?(?:![rsa])?(?::[^{}\n]{0,10})?\}")
_NONE = re.compile(r"(?<![.!?:;>\n]\s)(?<!^)(?<![\w'\"`])None(?![\w'\"`])(?!\s+(?:of|but|at all|other|such|whatsoever|"
                   r"yet|so far|left|needed|required|found|is|are|was|were|has|have)\b)")
_NOT_A_NUMBER = re.compile(r"(?<![\w'\"`])(?:nan|NaN|undefined)(?![\w'\"`])")
_TODO = re.compile(r"\b(?:TODO|FIXME)\b")
_LOREM = re.compile(r"\blorem\s+ipsum\b|\bdolor\s+sit\s+amet\b", re.IGNORECASE)
#: "Attached is traffic_report.csv for 9." — a preposition left holding a bare small number at a sentence end.
_BARE_NUMBER = re.compile(r"\b(for|of|from|during|since)\s+(\d{1,2})\s*[.!?](?!\d)")
#: "the report for ." — a slot that was filled with nothing.
_EMPTY_SLOT = re.compile(r"\b(for|of|from|the|an?)\s+[.,;:!?](?!\w)")


def grammar_findings(text: str, where: str) -> list[Finding]:
    """a/an before the wrong sound, and "1 <plural>" ("1 rows"), in prose."""
    text = text[:MAX_TEXT]
    found = []
    for match in _ARTICLE.finditer(text):
        word_article, word = (match.group(1), match.group(2)) if match.group(1) else (match.group(3), match.group(4))
        word = word.strip("'‘“\"(")
        if not word or not (word[0].isalnum()):
            continue
        want = article(word)
        if want != word_article.lower():
            found.append(Finding("grammar", where, f"{_near(text, match.start())!r}: "
                                                   f"'{want} {word}', not '{word_article} {word}'"))
    for match in _ONE.finditer(text):
        noun = match.group(1)
        before = text[max(0, match.start() - 16):match.start()]
        if noun in _NOT_PLURAL or re.search(r"(ss|us|is|ics)$", noun) or _LABEL.search(before):
            continue
        found.append(Finding("grammar", where, f"{_near(text, match.start())!r}: '1' with the plural '{noun}'"))
    return found


def placeholder_findings(text: str, where: str) -> list[Finding]:
    """Template slots and empty values that reached the text: {name}, None, nan, TODO, lorem ipsum, "for 9."."""
    text = text[:MAX_TEXT]
    found = []
    for pattern, why in ((_FORMAT_SLOT, "an unfilled template slot"), (_NONE, "'None' where a value belongs"),
                         (_NOT_A_NUMBER, "a missing-value marker"), (_TODO, "a to-do marker"),
                         (_LOREM, "filler text"), (_BARE_NUMBER, "a bare number where a name or a period belongs"),
                         (_EMPTY_SLOT, "a slot filled with nothing")):
        for match in pattern.finditer(text):
            found.append(Finding("placeholder", where, f"{_near(text, match.start(), match.end())!r}: {why}"))
            break  # one per kind and text is enough evidence
    return found


def prose_findings(text: str, where: str) -> list[Finding]:
    return placeholder_findings(text, where) + grammar_findings(text, where)


def _near(text: str, start: int, end: int | None = None) -> str:
    """The words around a finding, on one line, as evidence."""
    end = start + 24 if end is None else end
    left = text.rfind(" ", 0, max(0, start - 20))
    right = text.find(" ", min(len(text), end + 16))
    snippet = text[left + 1 if left >= 0 else 0: right if right >= 0 else len(text)]
    return " ".join(snippet.split())[:100]


# --- dates in mail ----------------------------------------------------------------------------------------

_WEEK = re.compile(r"\b(?:week|wk\.?|KW|CW)\s*#?\s*(\d{1,2})\b(?!\s*(?:days?|weeks?|of\b))", re.IGNORECASE)
_DUE = re.compile(r"\b(?:due(?:\s+(?:on|by|date:?))?|deadline:?|payable\s+(?:by|on|until)|pay\s+by|no later than"
                  r"|submit\s+(?:it\s+)?by|expires?(?:\s+on)?|closes?(?:\s+on)?|RSVP\s+by)\s+", re.IGNORECASE)
_MONTH_DAY = re.compile(r"^(?:on\s+)?(?:\w+day,?\s+)?(january|february|march|april|may|june|july|august|september|"
                        r"october|november|december)\s+(\d{1,2})(?:st|nd|rd|th)?\b(?!,?\s*\d{4})", re.IGNORECASE)
_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")
_FILE_MONTH = re.compile(r"(?<!\d)(20\d{2})[-_.]?(0[1-9]|1[0-2])(?:[-_.]?(0[1-9]|[12]\d|3[01]))?(?!\d)")


def _monday_of(year: int, week: int) -> date | None:
    try:
        return date.fromisocalendar(year, week, 1)
    except ValueError:
        return None


def week_finding(subject: str, sent: datetime, where: str) -> Finding | None:
    """A "week N" subject must name the week the message was sent in or one of the two before (a weekly report
    goes out during or just after its week); any other week contradicts the Date header."""
    match = _WEEK.search(subject)
    if not match:
        return None
    week, day = int(match.group(1)), sent.date()
    if not 1 <= week <= 53:
        return Finding("date", where, f"subject {subject!r} names week {week}, which no year has")
    for year in (day.year, day.year - 1, day.year + 1):
        monday = _monday_of(year, week)
        if monday is not None and timedelta(0) <= day - monday < timedelta(days=21):
            return None
    sent_week = day.isocalendar().week
    return Finding("date", where, f"subject {subject!r} names week {week}, but the message is dated {day} "
                                  f"(week {sent_week})")


def due_findings(text: str, sent: datetime, where: str) -> list[Finding]:
    """A due date, deadline or RSVP date stated before the day the message was sent."""
    found = []
    day = sent.date()
    for match in _DUE.finditer(text[:MAX_TEXT]):
        after = text[match.end():match.end() + 40]
        due: date | None = None
        iso = stated_dates(after[:30])
        first = min(iso, key=lambda d: after.find(d[:4])) if iso else None
        if first and re.match(r"^(?:on\s+)?(?:\w+day,?\s+)?(?:\d{4}-\d{2}-\d{2}|\d{1,2}\s+\w+\s+\d{4}|\w+\s+\d{1,2},?"
                              r"\s+\d{4})", after, re.IGNORECASE):
            due = _iso(first)
        else:
            md = _MONTH_DAY.match(after)
            if md:
                try:
                    due = date(day.year, _MONTHS.index(md.group(1).lower()) + 1, int(md.group(2)))
                except ValueError:
                    due = None
                if due is not None and (day - due).days > 180:
                    due = due.replace(year=day.year + 1)  # "due January 15" in a December mail: next year
        if due is not None and due < day:
            found.append(Finding("date", where, f"{_near(text, match.start(), match.end() + 12)!r}: due {due}, "
                                                f"before the message was sent ({day})"))
    return found


def _iso(text: str) -> date | None:
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None


def attachment_findings(name: str, payload: bytes, sent: datetime, where: str) -> list[Finding]:
    """An attachment holds no data dated after its message, and its file name names no later month."""
    found = []
    day = sent.date()
    match = _FILE_MONTH.search(name)
    if match:
        year, month = int(match.group(1)), int(match.group(2))
        if (year, month) > (day.year, day.month):
            found.append(Finding("date", where, f"attachment {name!r} is named for {year}-{month:02d}, after the "
                                                f"message was sent ({day})"))
    text = _decode(payload)
    if text is None:
        return found
    later = sorted(d for d in _recorded_dates(text, name) if d > day)
    if later:
        found.append(Finding("date", where, f"attachment {name!r} holds data dated {later[-1]}, after the message "
                                            f"was sent ({day})"))
    if name.lower().endswith((".csv", ".tsv")):
        found += cell_findings(_csv_cells(text), f"{where}, attachment {name!r}")
    return found


#: Words that make a date a plan rather than a record: a schedule may look ahead of the mail that carries it.
_AHEAD = re.compile(r"\b(?:due|deadline|next|plan(?:ned)?|schedul\w*|upcoming|target|expir\w*|until|by|before|"
                    r"follow[- ]?up|starts?|ends?|renewal|valid)\b", re.IGNORECASE)


def _recorded_dates(text: str, name: str) -> list[date]:
    """The dates an attachment records as past facts: in a CSV, the dates of columns whose header is not a plan
    (Due Date, Next Review ...); in other text, the dates not just after such a word."""
    text = text[:MAX_TEXT]
    if name.lower().endswith((".csv", ".tsv")):
        rows = _csv_rows(text)
        if rows:
            header = rows[0]
            keep = [i for i, h in enumerate(header) if not _AHEAD.search(h)]
            cells = " ".join(row[i] for row in rows[1:] for i in keep if i < len(row))
            return [d for d in map(_iso, stated_dates(cells)) if d is not None]
    found = []
    for iso in stated_dates(text):
        day = _iso(iso)
        at = text.find(iso)
        if day is not None and not (at > 0 and _AHEAD.search(text[max(0, at - 30):at])):
            found.append(day)
    return found


def _decode(payload: bytes) -> str | None:
    """Text of a payload that is text (UTF-8, no NUL bytes), else None."""
    if b"\0" in payload[:4096]:
        return None
    try:
        return payload[:MAX_BYTES].decode("utf-8")
    except UnicodeDecodeError:
        return None


def _csv_rows(text: str) -> list[list[str]]:
    try:
        dialect = "excel-tab" if "\t" in text[:2000] and "," not in text[:2000] else "excel"
        return list(islice(csv.reader(io.StringIO(text[:MAX_TEXT]), dialect), 10_000))
    except csv.Error:
        return []


def _csv_cells(text: str) -> list[str]:
    return [cell for row in _csv_rows(text) for cell in row][:50_000]


_EMPTY_CELL = re.compile(r"^(?:nan|NaN|None|null|NULL|undefined|#N/A|\{[A-Za-z_]\w*\})$")


def cell_findings(cells: Iterable[str], where: str) -> list[Finding]:
    """A table cell that holds a missing-value marker or a template slot instead of a value."""
    for cell in cells:
        text = cell.strip()
        if _EMPTY_CELL.match(text) or _LOREM.search(text):
            return [Finding("placeholder", where, f"a cell holds {text!r} instead of a value")]
    return []


# --- reading the package -----------------------------------------------------------------------------------

def _head(path: Path, cap: int = MAX_BYTES) -> bytes:
    """At most `cap` bytes of the regular file at `path`: no link followed, no blocking on a fifo."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{path.name} is not a regular file")
        chunks, total = [], 0
        while total < cap and (chunk := os.read(fd, min(1 << 20, cap - total))):
            chunks.append(chunk)
            total += len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _messages(data: bytes) -> Iterator[Message]:
    entries = split_mbox(data) if data[:5] == b"From " else [data]
    for entry in entries[:MAX_MESSAGES]:
        yield email.message_from_bytes(entry, policy=email.policy.compat32)


def _sent(message: Message) -> datetime | None:
    try:
        value = message.get("Date")
        return parsedate_to_datetime(str(value)) if value else None
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


def _text(value: Any) -> str:
    """A header as one line of text (encoded words decoded, folding undone)."""
    try:
        return " ".join(str(email.header.make_header(email.header.decode_header(str(value or "")))).split())
    except (UnicodeError, LookupError, ValueError, email.errors.HeaderParseError):
        return " ".join(str(value or "").split())


def mail_findings(data: bytes, where: str) -> list[Finding]:
    """Every message of a mail folder or message file: its subject and body as prose, its week and due dates
    against its Date header, its attachments dated no later than it."""
    found = []
    for i, message in enumerate(_messages(data)):
        subject = _text(message.get("Subject"))
        here = f"{where}, message {subject[:60]!r}" if subject else f"{where}, message {i + 1}"
        sent = _sent(message)
        body = ""
        for part in islice(message.walk(), MAX_PARTS):
            if part.get_content_maintype() == "multipart":
                continue
            payload = part.get_payload(decode=True)
            if not isinstance(payload, bytes):
                continue
            filename = part.get_filename()
            if filename:
                if sent is not None:
                    found += attachment_findings(_text(filename), payload[:MAX_BYTES], sent, here)
            elif part.get_content_type() == "text/plain" and len(body) < MAX_TEXT:
                body += (_decode(payload) or "") + "\n"
        found += prose_findings(subject, f"{here}, subject") + prose_findings(body, f"{here}, body")
        if sent is not None:
            finding = week_finding(subject, sent, here)
            found += [finding] if finding else []
            found += due_findings(subject + "\n" + body, sent, here)
    return found


#: Per part kind: the tag that ends a paragraph and the pattern of its text runs. Paragraphs are cut at their end
#: tags (str.split, linear) rather than matched open-to-close, which a file of unclosed tags would make quadratic.
_PARAGRAPH = {"word/": ("</w:p>", re.compile(r"<w:t(?: [^>]*)?>([^<]*)</w:t>")),
              "ppt/slides/": ("</a:p>", re.compile(r"<a:t>([^<]*)</a:t>"))}
_CELL_TEXT = re.compile(r"<t(?: [^>]*)?>([^<]*)</t>")


_STAMP = re.compile(r"<(dc:creator|cp:lastModifiedBy|dc:description|Application|dcterms:created)(?:\s[^>]*)?>([^<]*)<")


def fingerprint_findings(xml: str, where: str) -> list[Finding]:
    """A document's properties that name the program that wrote it ("generated by python-docx", an author "forge",
    "Openpyxl 3.1.5") or the date every generated file shared: a person's files say a person and a product."""
    found = []
    for tag, value in _STAMP.findall(xml[:MAX_TEXT]):
        if GENERATOR_MARKS.search(value) or (tag == "dcterms:created" and value.startswith("2024-01-01T00:00:00")):
            said = f"{tag} {unescape(value)[:60]!r} says the file was machine-made"
            found.append(Finding("fingerprint", where, said))
    return found


def office_findings(data: bytes, where: str) -> list[Finding]:
    """Paragraphs of a docx/pptx as prose; strings of an xlsx as table cells. Read with bounded member reads and
    regular expressions: no XML parser on a file that may come from elsewhere."""
    bounded.check_zip(data, office=True)
    found: list[Finding] = []
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        budget = 4 * MAX_BYTES
        for info in archive.infolist()[:400]:
            name = info.filename
            if name in ("docProps/core.xml", "docProps/app.xml"):
                with archive.open(info) as member:
                    found += fingerprint_findings(member.read(MAX_BYTES).decode("utf-8", "ignore"), f"{where} ({name})")
                continue
            kind = next((prefix for prefix in _PARAGRAPH if name.startswith(prefix)), None)
            cells = name == "xl/sharedStrings.xml" or name.startswith("xl/worksheets/sheet")
            if not name.endswith(".xml") or (kind is None and not cells) or budget <= 0:
                continue
            if kind == "word/" and not re.match(r"word/(document|header\d*|footer\d*|footnotes|comments)\.xml$", name):
                continue
            with archive.open(info) as member:
                xml = member.read(min(MAX_BYTES, budget)).decode("utf-8", "ignore")
            budget -= len(xml)
            if kind is None:
                found += cell_findings((unescape(t) for t in _CELL_TEXT.findall(xml)[:50_000]), f"{where} ({name})")
                continue
            end, run = _PARAGRAPH[kind]
            text = "\n".join(unescape("".join(run.findall(p))) for p in xml[:MAX_TEXT * 4].split(end))
            found += prose_findings(text, f"{where} ({name})")
    return found


#: the suffixes of assets whose text is read (any other asset is read when it begins as an mbox does)
_READ_WHOLE = (".eml", ".docx", ".pptx", ".xlsx", ".csv", ".tsv", ".txt", ".md")


def _asset_findings(root: Path, asset: Mapping[str, Any]) -> tuple[list[Finding], str | None]:
    """(findings, None) for one asset, or ([], why) when it could not be read."""
    rel = str(asset.get("file", ""))
    path = root / rel
    suffix = Path(str(asset.get("dest", rel))).suffix.lower()
    try:  # a file read for nothing but its first bytes (a picture) is not read whole
        data = _head(path, MAX_BYTES if suffix in _READ_WHOLE else len(b"From "))
        if data == b"From ":
            data = _head(path)
    except OSError as exc:
        return [], f"{rel}: {exc.strerror or exc}"
    try:
        if data[:5] == b"From " or suffix == ".eml":
            return mail_findings(data, rel), None
        if bounded.is_zip(data) and suffix in (".docx", ".pptx", ".xlsx"):
            return office_findings(data, rel), None
        if suffix in (".csv", ".tsv"):
            text = _decode(data)
            return (cell_findings(_csv_cells(text), rel) if text is not None else []), None
        if suffix in (".txt", ".md") and (text := _decode(data)) is not None:
            return placeholder_findings(text, rel), None
    except (bounded.LimitExceeded, zipfile.BadZipFile, OSError, ValueError, LookupError, TypeError,
            UnicodeError, EOFError, RuntimeError, NotImplementedError, email.errors.MessageError) as exc:
        # RuntimeError covers RecursionError: a message nested thousands of multiparts deep
        return [], f"{rel}: {exc}"
    return [], None


def findings(task: Mapping[str, Any], root: Path) -> tuple[list[Finding], list[str]]:
    """(what a person would not believe, the files that could not be read) for the package at `root`."""
    found: list[Finding] = []
    instruction = task.get("instruction")
    if isinstance(instruction, str):
        found += prose_findings(instruction, "instruction")
    rubric = task.get("rubric")
    for item in (rubric if isinstance(rubric, list) else [])[:200]:  # criteria are read by people and LLM judges
        if isinstance(item, Mapping) and isinstance(item.get("criterion"), str):
            found += grammar_findings(item["criterion"], f"rubric {str(item.get('id'))[:40]!r} criterion")
    setup = task.get("setup")
    assets = setup.get("assets") if isinstance(setup, Mapping) else None
    unread: list[str] = []
    for asset in (assets if isinstance(assets, list) else [])[:500]:
        if isinstance(asset, Mapping):
            more, why = _asset_findings(root, asset)
            found += more
            unread += [why] if why else []
    return found, unread


def review(task: Mapping[str, Any], root: Path) -> str:
    """The stage: evidence when nothing unbelievable is found; `Unrealistic` naming the findings otherwise."""
    found, unread = findings(task, root)
    if found:
        more = f" (+{len(found) - MAX_FINDINGS} more)" if len(found) > MAX_FINDINGS else ""
        raise Unrealistic("; ".join(map(str, found[:MAX_FINDINGS])) + more)
    skipped = f"; not read: {', '.join(unread[:3])}" if unread else ""
    return f"no unbelievable dates, grammar or placeholder leaks in the instruction and the initial state{skipped}"


