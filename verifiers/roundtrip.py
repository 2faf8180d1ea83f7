"""The round trip's comparisons: numbers, orders and colours read back from the instruction must agree with the rubric.

`verifiers.extract` reads what the instruction says ("top 4", "becomes slide 6", "directly after 'Intro'", "a 5 x 4
table", "smallest first"); this module holds each reading against the rubric's arguments and raises `Ungrounded`
naming the argument when they disagree. `verifiers.grounding` runs it as part of the grounding stage.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from datetime import date
from email.utils import parsedate_to_datetime
from typing import Any

from verifiers import extract
from verifiers.lexicon import DOMAINS, prose


class Ungrounded(Exception):
    """The instruction does not ask for what the rubric checks; the message names the check and argument."""


def check(text: str, rubric: list[dict[str, Any]], visible: Callable[[], str] = str,
          assets: Iterable[Mapping[str, Any]] = (), deck: Callable[[str], list[str]] = lambda path: []) -> int:
    """Numbers and orders bound to the goal, read back from the instruction alone, must agree with the rubric;
    `visible()` gives the initial state's text (for dates of messages), `assets` the task's initial files (dest,
    sha256), `deck(path)` the slide titles of an initial presentation in order. Returns how many readings were
    compared."""
    read = 0
    all_modes = {str(c["args"]["mode"]) for c in rubric if c["primitive"] == "fs.file_mode" and "mode" in c["args"]}
    for item in rubric:  # every mode some check asks for: an instruction may state any of them
        args, prim = item["args"], item["primitive"]
        if prim == "fs.dir_modes" and isinstance(args.get("modes"), dict):
            all_modes |= {str(m) for m in args["modes"].values() if not str(m).startswith("+")}
        if prim == "fs.mode_bits" and args.get("require"):
            all_modes.add(str(args["require"]))
    for item in rubric:
        args, prim, where = item["args"], item["primitive"], f"rubric {item['id']}"
        if prim == "xlsx.conditional_format" and isinstance(args.get("values"), list):
            got = extract.operands(text, str(args.get("operator")))
            want = [float(v) for v in args["values"] if isinstance(v, int | float)]
            if got is not None:
                read += 1
                if got != want:
                    raise Ungrounded(f"{where}: values={args['values']!r} are checked but the instruction reads "
                                     f"{_show(got)} for the {args.get('operator')} condition")
        elif prim == "pptx.slide_position" and isinstance(args.get("position"), int):
            got_positions = extract.target_positions(text)
            if got_positions:
                read += 1
                if args["position"] not in got_positions:
                    raise Ungrounded(f"{where}: position={args['position']} is checked but the instruction puts "
                                     f"the slide at {sorted(got_positions)}")
            read += _placement(text, rubric, item)
        elif prim == "pptx.table":
            for name, noun in (("rows", "rows?"), ("cols", "columns?")):  # "5 rows", "a 5 x 4 table"
                got_counts = extract.counted(text, noun)
                if isinstance(args.get(name), int):
                    read += 1
                    if args[name] not in got_counts or len(got_counts) > 1:
                        raise Ungrounded(f"{where}: {name}={args[name]} is checked but the instruction reads "
                                         f"{sorted(got_counts)}")
        elif prim == "image.cropped_to" and isinstance(args.get("box"), list) and len(args["box"]) == 4:
            for phrase, holds in extract.crop_claims(text):
                read += 1
                if not holds(args["box"]):
                    raise Ungrounded(f"{where}: box={args['box']} is checked but the instruction says {phrase!r}")
        elif prim in ("image.size_equals", "multi.slide_picture") and isinstance(args.get("width"), int):
            got_sizes = extract.sizes(text)
            if got_sizes:
                read += 1
                if (args["width"], args.get("height")) not in got_sizes:
                    raise Ungrounded(f"{where}: width x height={args['width']} x {args.get('height')} is checked but "
                                     f"the instruction says {sorted(got_sizes)}")
        elif prim in ("docx.table_inserted", "multi.docx_table") and isinstance(args.get("rows"), list):
            rows = args["rows"] if prim == "docx.table_inserted" else [args.get("header"), *args["rows"]]
            width = max((len(r) for r in rows if isinstance(r, list)), default=0)
            for noun, size in (("rows", len(rows)), ("columns", width)):
                stated_counts = extract.counted(text, noun + "?")
                if stated_counts:
                    read += 1
                    if size not in stated_counts:
                        raise Ungrounded(f"{where}: rows={_cut(args['rows'])} make {size} {noun} but the "
                                         f"instruction says {sorted(stated_counts)}")
        elif prim == "tb.messages_in_folder" and args.get("field") == "before" and isinstance(args.get("value"), str):
            stated_dates = extract.dates(text)
            read += 1
            if stated_dates - {args["value"]}:
                raise Ungrounded(f"{where}: value={args['value']!r} is checked but the instruction also gives the date "
                                 f"{sorted(stated_dates - {args['value']})[0]}")
        elif prim == "xlsx.number_format" and isinstance(args.get("decimals"), int):
            got_places = extract.decimals(text)
            read += 1
            if args["decimals"] not in got_places:
                raise Ungrounded(f"{where}: decimals={args['decimals']} is checked but the instruction reads "
                                 f"{sorted(got_places) or 'no decimal places'}")
        elif prim == "image.is_rotated" and isinstance(args.get("degrees"), int):
            got_degrees = extract.degrees(text)
            read += 1
            if args["degrees"] not in got_degrees or got_degrees - {args["degrees"]}:
                raise Ungrounded(f"{where}: degrees={args['degrees']} is checked but the instruction reads "
                                 f"{sorted(got_degrees) or 'no angle'}")
        elif prim == "docx.line_spacing" and isinstance(args.get("value"), int | float):
            got_spacing = extract.spacing_values(text, str(args.get("rule")))
            read += 1
            if float(args["value"]) not in got_spacing:
                raise Ungrounded(f"{where}: value={args['value']} ({args.get('rule')}) is checked but the instruction "
                                 f"reads {_show(sorted(got_spacing)) or 'no spacing value'}")
        elif prim in ("fs.file_mode", "fs.dir_modes", "fs.mode_bits"):
            stated = extract.modes(text)
            read += 1
            strange = sorted(stated - all_modes)
            if strange:
                raise Ungrounded(f"{where}: the instruction asks for mode {strange[0]} but the rubric checks "
                                 f"{sorted(all_modes)}")
            wants_exec = prim == "fs.mode_bits" or (prim == "fs.dir_modes" and any(
                str(m).startswith("+") for m in (args.get("modes") or {}).values()))
            if wants_exec and not extract.expressed(text, "executable"):
                raise Ungrounded(f"{where}: modes make files executable but the instruction does not ask for that")
    return (read + _counts(text, rubric) + _orders(text, rubric) + _sorted_tables(text, rubric)
            + _colours(text, rubric) + _dated(text, rubric, visible) + _moves(text, rubric, deck)
            + _cleanup(text, rubric, assets) + _received(text, rubric, visible))


def _cut(value: Any) -> str:
    shown = repr(value)
    return shown if len(shown) < 60 else shown[:57] + "..."


#: list args whose length an instruction may state ("the 5 paragraphs", "the 6 lines from ... to ...")
_COUNTED = {"paragraphs": r"paragraphs", "items": r"lines|items|entries"}


def _counts(text: str, rubric: list[dict[str, Any]]) -> int:
    read = 0
    for item in rubric:
        for name, noun in _COUNTED.items():
            value = item["args"].get(name)
            if not isinstance(value, list) or not value or item["primitive"] in ("docx.body_text", "pptx.body_text"):
                continue
            want = len(value) + len(item["args"].get("subitems") or [])
            stated_counts = {int(n) for n in re.findall(rf"\bthe (\d+) (?:{noun})\b", prose(text), re.IGNORECASE)}
            if stated_counts:
                read += 1
                if want not in stated_counts:
                    raise Ungrounded(f"rubric {item['id']}: {name} lists {want} but the instruction says "
                                     f"{sorted(stated_counts)}")
    return read


#: ordered list args (a final order) that "'X' directly after 'Y'" phrases can be checked against
_ORDERED = {"xlsx.sheet_names": "expected", "pptx.slide_titles": "titles", "pptx.body_text": "paragraphs"}


def _orders(text: str, rubric: list[dict[str, Any]]) -> int:
    read = 0
    relations = extract.neighbours(text)
    for item in rubric:
        order = item["args"].get(_ORDERED.get(item["primitive"], ""))
        if not isinstance(order, list):
            continue
        for subject, relation, anchor in relations:
            if subject == anchor or order.count(subject) != 1 or order.count(anchor) != 1:
                continue
            read += 1
            gap = order.index(anchor) - order.index(subject)
            if gap != (1 if relation == "before" else -1):
                raise Ungrounded(f"rubric {item['id']}: {_ORDERED[item['primitive']]} puts {subject!r} "
                                 f"{'after' if gap < 0 else 'before'} {anchor!r}, but the instruction says {relation}")
    return read


_ISO = re.compile(r"\d{4}-\d{2}-\d{2}.*")


def _sort_key(values: list[Any]) -> list[Any]:
    if all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        return values
    return [str(v).casefold() for v in values]


def _sorted_tables(text: str, rubric: list[dict[str, Any]]) -> int:
    """A table the rubric expects in order must be sorted the way the instruction says ("by Bill Rate, smallest
    first"), by one of the columns the instruction names."""
    said = extract.expressed(text, "order")
    if len(said) != 1:
        return 0
    descending = "desc" in said
    by_date = bool(re.search(r"oldest|newest|earliest|latest|recent", said[next(iter(said))][0], re.IGNORECASE))
    read = 0
    for item in rubric:
        args = item["args"]
        if item["primitive"] not in ("multi.docx_table", "multi.sheet_table") or args.get("ordered") is False:
            continue
        header, rows = args.get("header"), args.get("rows")
        if not isinstance(header, list) or not isinstance(rows, list) or len(rows) < 2:
            continue
        named = [i for i, name in enumerate(header) if isinstance(name, str) and name.casefold() in text.casefold()]
        columns = [_sort_key([r[i] if isinstance(r, list) and i < len(r) else "" for r in rows]) for i in named]
        if by_date:  # "oldest first" may sort by a date the table does not show (a message's date)
            columns = [c for c in columns if all(isinstance(v, str) and _ISO.fullmatch(v) for v in c)]
        if not columns:
            continue
        read += 1
        if not any(col == sorted(col, reverse=descending) for col in columns):
            raise Ungrounded(f"rubric {item['id']}: rows are not sorted {'descending' if descending else 'ascending'} "
                             f"by any column the instruction names ({[header[i] for i in named]}), but it asks for "
                             f"{said[next(iter(said))][0]!r}")
    return read


def _placement(text: str, rubric: list[dict[str, Any]], item: Mapping[str, Any]) -> int:
    """A moved or added slide's place said relative to others ("directly after 'Intro'", "at the very end")
    must be where the rubric's final slide order puts it."""
    titles = next((c["args"].get("titles") for c in rubric if c["primitive"] == "pptx.slide_titles"), None)
    position = item["args"]["position"]
    if not isinstance(titles, list) or not 1 <= position <= len(titles):
        return 0
    read = 0
    for relation, anchor in extract.placement(text):
        if relation in ("after", "before") and anchor not in titles:
            continue
        read += 1
        where = {"after": position >= 2 and titles[position - 2] == anchor,
                 "before": position < len(titles) and titles[position] == anchor,
                 "end": position == len(titles), "second": position == 2}[relation]
        if not where:
            said = f"{relation} {anchor!r}" if anchor else relation
            raise Ungrounded(f"rubric {item['id']}: position={position} is checked but the instruction puts the "
                             f"slide {said}")
    return read


def _colours(text: str, rubric: list[dict[str, Any]]) -> int:
    """A colour checked as hex (a fill, a font colour) must not be named as another colour in the prose."""
    read = 0
    for item in rubric:
        for name in ("fill", "color"):
            value = item["args"].get(name)
            if isinstance(value, str):
                read += 1
                word = extract.clashes(value, text)
                if word:
                    raise Ungrounded(f"rubric {item['id']}: {name}={value!r} is checked but the instruction calls "
                                     f"the colour {word!r}")
    return read


def _show(numbers: Iterable[float]) -> str:
    return ", ".join(f"{n:g}" for n in numbers)


_RELATION = re.compile(r"\b(before|after|since|earlier than|older than|later than|newer than)\s+(\d{4}-\d{2}-\d{2})\b",
                       re.IGNORECASE)


def _headers(mail: str) -> list[tuple[str, str, date]]:
    """(Message-ID, Subject, date of the Date header) of every message of the mbox text `mail` that has a Date."""
    found = []
    for block in re.split(r"\nFrom ", mail):
        head = block[:4000]
        mid = re.search(r"^Message-ID:\s*<([^>\n]+)>", head, re.IGNORECASE | re.MULTILINE)
        subject = re.search(r"^Subject:\s*(.+)$", head, re.IGNORECASE | re.MULTILINE)
        when = re.search(r"^Date:\s*(.+)$", head, re.IGNORECASE | re.MULTILINE)
        if when:
            try:
                day = parsedate_to_datetime(when.group(1).strip()).date()
            except (TypeError, ValueError, IndexError):
                continue
            found.append((mid.group(1) if mid else "", subject.group(1).strip() if subject else "", day))
    return found


def message_dates(mail: str) -> dict[str, date]:
    """Message-ID -> the date of its Date header, for every message of the mbox text `mail`."""
    return {mid: day for mid, _, day in _headers(mail) if mid}


def message_subjects(mail: str) -> dict[str, set[date]]:
    """Subject -> the dates of the messages with that subject, for every message of the mbox text `mail`."""
    found: dict[str, set[date]] = {}
    for _, subject, day in _headers(mail):
        if subject:
            found.setdefault(subject, set()).add(day)
    return found


#: "the message 'Invoice 2077' from x@y.com (received 2023-03-29)", "'Student Scores' (a@b.com, 2024-06-23)"
_MESSAGE_DATE = re.compile(r"(?<!\w)'([^'\n]+)'(?!\w)(?:(?!\.\s)[^;'\n]){0,100}?\b(\d{4}-\d{2}-\d{2})\b")


def _received(text: str, rubric: list[dict[str, Any]], visible: Callable[[], str]) -> int:
    """A message named by its subject and a date must be in the initial mailbox on that date: a wrong date makes
    the instruction point at a message that does not exist."""
    named = _MESSAGE_DATE.findall(text)
    if not named or not rubric:
        return 0
    subjects = message_subjects(visible())
    read = 0
    for subject, day in named:
        if subject not in subjects:
            continue  # a quoted folder or file name, not a message
        read += 1
        try:
            said = date.fromisoformat(day)
        except ValueError:
            raise Ungrounded(f"rubric {rubric[0]['id']}: the instruction dates the message {subject!r} {day}, "
                             "which is no calendar date") from None
        if said not in subjects[subject]:
            raise Ungrounded(f"rubric {rubric[0]['id']}: the instruction names the message {subject!r} received "
                             f"{day}, but the initial mailbox has it on "
                             f"{', '.join(sorted(map(str, subjects[subject])))}")
    return read


def _dated(text: str, rubric: list[dict[str, Any]], visible: Callable[[], str]) -> int:
    """"Messages dated before 2023-09-29": the messages a check marks or moves are exactly those (as their Date
    headers in the initial mailbox say), and the ones it keeps unmarked or in place are not."""
    relations = {(m.group(1).lower(), m.group(2)) for m in _RELATION.finditer(text)}
    listed = [c for c in rubric if c["primitive"] in ("tb.message_flags", "tb.messages_in_folder")
              and isinstance(c["args"].get("message_ids"), list) and c["args"]["message_ids"]]
    if len(relations) != 1 or not listed:
        return 0
    word, day = next(iter(relations))
    try:
        date.fromisoformat(day)  # "before 2023-13-45" reads as nothing
    except ValueError:
        return 0
    other = sorted(extract.dates(text) - {day})
    if other:  # "before 2023-09-29 (30 September 2023)" gives two cut-offs
        raise Ungrounded(f"rubric {listed[0]['id']}: messages {word} {day} are checked but the instruction also "
                         f"gives the date {other[0]}")
    dates = message_dates(visible())
    sources = {c["args"].get("folder") for c in rubric
               if c["primitive"] == "tb.messages_in_folder" and c["args"].get("count") == 0}
    read = 0
    for item in listed:
        args = item["args"]
        if item["primitive"] == "tb.message_flags":
            chosen = True if args.get("flagged") is True or args.get("read") is True else (
                False if args.get("flagged") is False or args.get("read") is False else None)
        else:
            chosen = args.get("folder") not in sources
        when = [dates.get(i) for i in args["message_ids"] if isinstance(i, str)]
        if chosen is None or not when or None in when:
            continue
        read += 1
        for message_id, on in zip(args["message_ids"], when, strict=False):
            assert on is not None
            if extract.on_side(word, on.isoformat(), day) != chosen:
                raise Ungrounded(f"rubric {item['id']}: message_ids include {message_id!r} (dated {on}), but the "
                                 f"instruction {'selects' if chosen else 'leaves out'} messages {word} {day}")
    return read


def _moves(text: str, rubric: list[dict[str, Any]], deck: Callable[[str], list[str]]) -> int:
    """A slide the rubric places that was already in the deck (and is not duplicated) is moved: the instruction must
    say so, must not ask for a copy, and where it says the slide is now ("currently slide 3") must be true."""
    if any(c["primitive"] == "pptx.slide_count" for c in rubric):
        return 0  # a duplicate or a deletion: the slide count check's binding judges the wording
    read = 0
    for item in rubric:
        title, path = item["args"].get("title"), item["args"].get("path")
        if item["primitive"] != "pptx.slide_position" or not isinstance(title, str) or not isinstance(path, str):
            continue
        order = [" ".join(t.split()) for t in deck(path)]
        if " ".join(title.split()) not in order:
            continue  # an added slide
        read += 1
        said = extract.expressed(text, "slides")
        if "moved" not in said:
            raise Ungrounded(f"rubric {item['id']}: title={title!r} is checked at a new place in the same deck, but "
                             f"the instruction does not ask to move it{_said(said)}")
        for other in DOMAINS["slides"].against("moved"):
            if other in said:
                raise Ungrounded(f"rubric {item['id']}: title={title!r} is moved (one copy, same deck), but the "
                                 f"instruction asks for {other!r} ({said[other][0]!r})")
        now = order.index(" ".join(title.split())) + 1
        for stated in extract.current_positions(text) - {now}:
            raise Ungrounded(f"rubric {item['id']}: title={title!r} is slide {now} of the initial deck, but the "
                             f"instruction says it is currently slide {stated}")
    return read


def _said(said: Mapping[str, list[str]]) -> str:
    return f"; it reads as {sorted(said)}" if said else ""


def _cleanup(text: str, rubric: list[dict[str, Any]], assets: Iterable[Mapping[str, Any]]) -> int:
    """A listing that no longer holds some initial files (and not under a new name: that is a move) asks for their
    deletion: the instruction must ask to delete, and what it says the files are ("backup files", "a date before
    2023-06-12", "directly in X only") must pick exactly the deleted ones."""
    initial = {str(a.get("dest")): str(a.get("sha256")) for a in assets}
    listings = [(item, item["args"]["path"], [n for n in item["args"]["names"] if isinstance(n, str)])
                for item in rubric if item["primitive"] == "fs.dir_listing"
                and isinstance(item["args"].get("path"), str) and isinstance(item["args"].get("names"), list)]
    arrived: set[str] = set()  # the contents of files at a new name or place: what left a folder that way moved
    for item, root, names in listings:
        contents = item["args"].get("contents") if isinstance(item["args"].get("contents"), dict) else {}
        arrived |= {str(contents.get(n)) for n in names if f"{root}/{n}" not in initial}
    read = 0
    for item, root, names in listings:
        before = {dest[len(root) + 1:]: sha for dest, sha in initial.items() if dest.startswith(root + "/")}
        if item["args"].get("recursive") is not True:  # a listing of the folder's own entries
            before = {name: sha for name, sha in before.items() if "/" not in name}
        deleted = sorted(n for n in set(before) - set(names) if before[n] not in arrived)
        if not deleted:
            continue
        read += 1
        where = f"rubric {item['id']}: names leave out {deleted[0]!r}"
        said = extract.expressed(text, "removal")
        if "deleted" not in said:
            raise Ungrounded(f"{where}, but the instruction does not ask to delete anything")
        kept = sorted(set(before) - set(deleted))
        if kept and extract.deletes_the_rest(text):
            raise Ungrounded(f"{where}; {kept[0]!r} stays, but the instruction deletes everything else")
        claims = extract.removal_claims(text)
        for phrase, holds in claims:
            wrong = [n for n in deleted if not holds(n, before[n])]
            if wrong:
                raise Ungrounded(f"{where}; {wrong[0]!r} is deleted, but the instruction deletes files of "
                                 f"{phrase!r}")
        scope = extract.removal_scope(text)
        if scope == "flat" and any("/" in n for n in deleted):
            raise Ungrounded(f"{where}; {next(n for n in deleted if '/' in n)!r} in a subfolder is deleted, but the "
                             "instruction keeps to the top folder")
        if claims and scope:
            matching = [n for n, sha in before.items() if all(holds(n, sha) for _, holds in claims)
                        and (scope == "recursive" or "/" not in n)]
            missed = sorted(set(matching) - set(deleted))
            if missed:
                raise Ungrounded(f"{where}; {missed[0]!r} fits what the instruction deletes but stays")
    return read
